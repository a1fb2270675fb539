/* The firmware's session and motion logic, in virtual time: each test drives the core with host
 * frames, the clock and the button, and reads the frames it sends and the servo targets. */
#include <stdlib.h>
#include <string.h>

#include "dock_crc32c.h"
#include "dock_firmware.h"
#include "dockfw_info.h"
#include "test_support.h"



/* ---- A host ---------------------------------------------------------------------------------- */

typedef struct {
    dock_firmware fw;
    uint8_t line[8192]; /* what the dock sent, not yet read */
    uint16_t line_count;
    dock_receiver receiver;
    uint16_t host_seq;
    uint64_t now_us;
} bench;

static void line_sink(void *context, uint8_t byte) {
    bench *b = context;
    if (b->line_count < sizeof b->line) b->line[b->line_count++] = byte;
}

static void start(bench *b) {
    memset(b, 0, sizeof *b);
    dock_receiver_reset(&b->receiver);
    dock_firmware_init(&b->fw, &dockfw_info, line_sink, b, 0);
}

static void send_bytes(bench *b, const uint8_t *bytes, uint16_t count) {
    for (uint16_t i = 0; i < count; i++) dock_firmware_receive(&b->fw, bytes[i], b->now_us);
}

typedef struct { uint8_t bytes[300]; uint16_t count; } frame_bytes;
static void frame_sink(void *context, uint8_t byte) {
    frame_bytes *f = context;
    f->bytes[f->count++] = byte;
}

static frame_bytes encode(bench *b, dock_message m) {
    frame_bytes f = {{0}, 0};
    uint8_t body[DOCK_MAX_BODY];
    m.seq = b->host_seq++;
    dock_encode_frame(&m, body, frame_sink, &f);
    return f;
}

static uint16_t send_message(bench *b, dock_message m) {
    frame_bytes f = encode(b, m);
    send_bytes(b, f.bytes, f.count);
    return (uint16_t)(b->host_seq - 1);
}

/* A frame built by hand, with a good CRC, for types and lengths the encoder refuses to make. */
static void send_raw(bench *b, uint8_t type, uint16_t seq, const uint8_t *payload, uint8_t count) {
    uint8_t body[DOCK_MAX_BODY];
    body[0] = type;
    body[1] = (uint8_t)seq;
    body[2] = (uint8_t)(seq >> 8);
    memcpy(body + 3, payload, count);
    uint32_t crc = dock_crc32c(body, (uint16_t)(3 + count));
    for (int i = 0; i < 4; i++) body[3 + count + i] = (uint8_t)(crc >> (8 * i));
    frame_bytes f = {{0}, 0};
    frame_sink(&f, 0);
    dock_cobs_encode(body, (uint16_t)(7 + count), frame_sink, &f);
    frame_sink(&f, 0);
    send_bytes(b, f.bytes, f.count);
}

static uint16_t hello(bench *b) { return send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {1, 1}}); }
static uint16_t heartbeat(bench *b) { return send_message(b, (dock_message){.type = DOCK_HEARTBEAT}); }
static uint16_t velocity(bench *b, int32_t yaw, int32_t pitch, uint16_t ttl) {
    return send_message(b, (dock_message){.type = DOCK_SET_VELOCITY, .u.set_velocity = {yaw, pitch, ttl}});
}

static void advance_ms(bench *b, uint32_t ms) {
    b->now_us += (uint64_t)ms * 1000;
    dock_firmware_advance(&b->fw, b->now_us);
}

/* The frames the dock sent since the last call, decoded. */
static uint16_t read_frames(bench *b, dock_message *out, uint16_t capacity) {
    uint16_t n = 0;
    for (uint16_t i = 0; i < b->line_count; i++) {
        dock_message m;
        dock_decode_status s;
        if (dock_receiver_feed(&b->receiver, b->line[i], &m, &s)) {
            CHECK(s.result == DOCK_RUN_FRAME, "the dock sent a bad frame (result %d)", s.result);
            if (s.result == DOCK_RUN_FRAME && n < capacity) out[n++] = m;
        }
    }
    b->line_count = 0;
    return n;
}

static uint16_t count_type(const dock_message *m, uint16_t n, uint8_t type) {
    uint16_t c = 0;
    for (uint16_t i = 0; i < n; i++) c += m[i].type == type;
    return c;
}

static const dock_message *find_type(const dock_message *m, uint16_t n, uint8_t type) {
    for (uint16_t i = 0; i < n; i++) if (m[i].type == type) return &m[i];
    return NULL;
}

static dock_message frames[512];

static int32_t magnitude32(int32_t v) { return v < 0 ? -v : v; }

/* ---- Tests ----------------------------------------------------------------------------------- */

static void test_not_ready_before_hello(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    advance_ms(b, 1000);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 0, "no telemetry before hello: %u frames", n);
    uint16_t seq = heartbeat(b);
    n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_NACK && frames[0].u.nack.reason == DOCK_NOT_READY &&
              frames[0].u.nack.refused_seq == seq && frames[0].u.nack.refused_type == DOCK_HEARTBEAT && frames[0].seq == 0,
          "heartbeat before hello: not_ready");
    velocity(b, 100000, 0, 500);
    advance_ms(b, 100);
    n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].u.nack.reason == DOCK_NOT_READY && b->fw.yaw.position_urad == 0, "velocity before hello is refused and does nothing");
    free(b);
}

static void test_hello_info_and_telemetry_rate(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    advance_ms(b, 5);
    hello(b);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_INFO, "hello is answered by info");
    if (n == 1 && frames[0].type == DOCK_INFO) {
        const dock_info *got = &frames[0].u.info;
        CHECK(got->protocol_version == 1 && got->features == DOCK_FEATURE_TRACKING_BUTTON && got->telemetry_rate_hz == 50 &&
                  got->failsafe_timeout_ms == 500 && got->yaw.max_urad == DOCKFW_YAW_MAX_URAD &&
                  got->model.length == strlen(DOCKFW_MODEL) && memcmp(got->model.bytes, DOCKFW_MODEL, got->model.length) == 0,
              "info carries the configured identity and limits");
    }
    for (int i = 0; i < 8; i++) { advance_ms(b, 125); heartbeat(b); }
    n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_TELEMETRY) == 50, "50 telemetry frames in one second: %u", count_type(frames, n, DOCK_TELEMETRY));
    CHECK(count_type(frames, n, DOCK_ACK) == 8, "each heartbeat is acked");
    uint64_t previous = 0;
    int evenly = 1;
    uint16_t expected_seq = 1;
    int sequential = 1;
    for (uint16_t i = 0; i < n; i++) {
        if (frames[i].seq != expected_seq++) sequential = 0;
        if (frames[i].type != DOCK_TELEMETRY) continue;
        if (previous && frames[i].u.telemetry.time_us - previous != 20000) evenly = 0;
        previous = frames[i].u.telemetry.time_us;
        if (frames[i].u.telemetry.flags != DOCK_FLAG_DOCKED) evenly = 0;
    }
    CHECK(evenly, "telemetry every 20 ms, standing still, docked");
    CHECK(sequential, "the dock numbers its frames one by one");
    free(b);
}

static void test_velocity_ttl_and_direction(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    uint16_t seq = velocity(b, 1000000, -500000, 300);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 2 && frames[1].type == DOCK_ACK && frames[1].u.ack.acked_seq == seq && frames[1].u.ack.acked_type == DOCK_SET_VELOCITY &&
              frames[1].u.ack.time_us == b->now_us,
          "set_velocity is acked with the time it was carried out");
    advance_ms(b, 100);
    CHECK(b->fw.yaw.rate_urad_s == 1000000 && b->fw.pitch.rate_urad_s == -500000, "rates reached after 100 ms (accel 20 rad/s²)");
    /* ramps of 50 and 25 ms lose 0.025 and 0.00625 rad against constant speeds */
    CHECK(b->fw.yaw.position_urad > 70000 && b->fw.yaw.position_urad < 80000, "yaw at %ld µrad after 100 ms", (long)b->fw.yaw.position_urad);
    CHECK(b->fw.pitch.position_urad < -43000 && b->fw.pitch.position_urad > -45000, "pitch at %ld", (long)b->fw.pitch.position_urad);
    heartbeat(b); /* heartbeats do not extend a velocity */
    advance_ms(b, 199);
    CHECK(b->fw.yaw.rate_urad_s == 1000000, "still turning just before the time-to-live runs out");
    advance_ms(b, 2);
    CHECK(b->fw.yaw.rate_urad_s < 1000000, "decelerating once it has run out");
    advance_ms(b, 60);
    CHECK(b->fw.yaw.rate_urad_s == 0 && b->fw.pitch.rate_urad_s == 0, "stopped 50 ms later");
    int32_t held = b->fw.yaw.position_urad;
    advance_ms(b, 100);
    n = read_frames(b, frames, 512);
    CHECK(b->fw.yaw.position_urad == held && count_type(frames, n, DOCK_FAULT) == 0, "holds still, no fault");

    const dock_servo_calibration yaw = dockfw_yaw_servo;
    CHECK(dock_servo_pulse_half_us(&yaw, 0) == 3000, "home is 1500 µs");
    CHECK(dock_servo_pulse_half_us(&yaw, 1047198) == 4200, "+60° is 2100 µs: %u", dock_servo_pulse_half_us(&yaw, 1047198));
    CHECK(dock_servo_pulse_half_us(&yaw, -1047198) == 1800, "−60° is 900 µs");
    CHECK(dock_servo_pulse_half_us(&yaw, 12566371) == 5000, "clamped to 2500 µs");
    dock_servo_calibration reversed = {1500, -900, 500, 2500};
    CHECK(dock_servo_pulse_half_us(&reversed, 1047198) == 1800, "a reversed servo gets a shorter pulse");
    free(b);
}

static void test_refusals(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    read_frames(b, frames, 512);
    velocity(b, 2000001, 0, 100);
    velocity(b, 0, -2000001, 100);
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {0, 800000, DOCK_PACE_DURATION, 100}});
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {-1100000, 0, DOCK_PACE_MAX_SPEED, 100}});
    /* an accessory-to-host type sent to the dock */
    send_message(b, (dock_message){.type = DOCK_ACK, .u.ack = {1, DOCK_HELLO, 5}});
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 5, "five refusals: %u frames", n);
    if (n == 5) {
        CHECK(frames[0].u.nack.reason == DOCK_OUT_OF_RANGE && frames[0].u.nack.detail == 1, "yaw rate over the axis maximum: field 1");
        CHECK(frames[1].u.nack.reason == DOCK_OUT_OF_RANGE && frames[1].u.nack.detail == 2, "pitch rate: field 2");
        CHECK(frames[2].u.nack.reason == DOCK_OUT_OF_RANGE && frames[2].u.nack.detail == 2, "pitch target above +45°: field 2");
        CHECK(frames[3].u.nack.reason == DOCK_OUT_OF_RANGE && frames[3].u.nack.detail == 1, "yaw target below −60°: field 1");
        CHECK(frames[4].u.nack.reason == DOCK_UNKNOWN_MESSAGE && frames[4].u.nack.refused_type == DOCK_ACK, "ack sent to the dock");
    }
    advance_ms(b, 50);
    CHECK(b->fw.yaw.position_urad == 0 && b->fw.pitch.position_urad == 0 && b->fw.motion == DOCK_MOTION_IDLE, "a refused command changes nothing");
    read_frames(b, frames, 512);
    /* raw frames with a good CRC: an unknown type, a wrong length */
    static const uint8_t unknown_payload[1] = {0};
    send_raw(b, 0x7e, 77, unknown_payload, 0);
    send_raw(b, DOCK_SET_VELOCITY, 78, unknown_payload, 1);
    static const uint8_t bad_pattern[4] = {9, 1, 1, 1}; /* the encoder will not make it */
    send_raw(b, DOCK_SET_INDICATOR, 79, bad_pattern, 4);
    n = read_frames(b, frames, 512);
    CHECK(n == 3, "three more refusals: %u", n);
    if (n == 3) {
        CHECK(frames[0].u.nack.reason == DOCK_UNKNOWN_MESSAGE && frames[0].u.nack.refused_type == 0x7e && frames[0].u.nack.refused_seq == 77,
              "unknown type 0x7e");
        CHECK(frames[1].u.nack.reason == DOCK_WRONG_LENGTH && frames[1].u.nack.detail == 10 && frames[1].u.nack.refused_seq == 78,
              "wrong length names the expected length: %u", frames[1].u.nack.detail);
        CHECK(frames[2].u.nack.reason == DOCK_OUT_OF_RANGE && frames[2].u.nack.detail == 1, "indicator pattern 9: field 1");
    }
    free(b);
}

static void test_version_negotiation(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {2, 4}});
    advance_ms(b, 100);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_NACK && frames[0].u.nack.reason == DOCK_UNSUPPORTED_VERSION && frames[0].u.nack.detail == 0x0101,
          "no version in common: unsupported_version with 1..1, no telemetry");
    send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {1, 7}});
    n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_INFO && frames[0].u.info.protocol_version == 1, "1..7 chooses version 1");
    free(b);
}

static void test_failsafe(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    velocity(b, 1000000, 0, 5000);
    read_frames(b, frames, 512);
    uint64_t last_frame = b->now_us;
    /* a damaged frame is no sign of life */
    frame_bytes f = encode(b, (dock_message){.type = DOCK_HEARTBEAT});
    f.bytes[3] ^= 0x10;
    advance_ms(b, 300);
    send_bytes(b, f.bytes, f.count);
    advance_ms(b, 200);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_FAULT) == 0 && count_type(frames, n, DOCK_NACK) == 0 && count_type(frames, n, DOCK_ACK) == 0,
          "the damaged frame is dropped without an answer");
    CHECK(b->fw.yaw.rate_urad_s == 1000000, "still turning at exactly the timeout");
    advance_ms(b, 1);
    n = read_frames(b, frames, 512);
    const dock_message *fault = find_type(frames, n, DOCK_FAULT);
    CHECK(fault && fault->u.fault.code == DOCK_FAULT_FAILSAFE_STOP && fault->u.fault.active == 1 &&
              fault->u.fault.time_us - last_frame == 501000,
          "failsafe_stop raised 501 ms after the last good frame");
    advance_ms(b, 60);
    n = read_frames(b, frames, 512);
    CHECK(b->fw.yaw.rate_urad_s == 0, "stopped within 50 ms at the maximum acceleration");
    const dock_message *t = find_type(frames, n, DOCK_TELEMETRY);
    CHECK(t && (t->u.telemetry.flags & DOCK_FLAG_FAILSAFE_STOPPED), "telemetry shows failsafe_stopped");
    uint16_t seq = heartbeat(b);
    n = read_frames(b, frames, 512);
    CHECK(n == 2 && frames[0].type == DOCK_ACK && frames[0].u.ack.acked_seq == seq && frames[1].type == DOCK_FAULT &&
              frames[1].u.fault.code == DOCK_FAULT_FAILSAFE_STOP && frames[1].u.fault.active == 0,
          "the next good frame is acked, then the fault is cleared");
    advance_ms(b, 100);
    CHECK(b->fw.yaw.rate_urad_s == 0 && !b->fw.is_failsafe_stopped, "the failsafe does not restart motion");
    free(b);
}

static void test_limits_and_moves(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    for (int i = 0; i < 10; i++) { velocity(b, 2000000, 2000000, 200); advance_ms(b, 100); }
    uint16_t n = read_frames(b, frames, 512);
    CHECK(b->fw.yaw.position_urad == DOCKFW_YAW_MAX_URAD && b->fw.pitch.position_urad == DOCKFW_PITCH_MAX_URAD, "stopped at the range's ends");
    const dock_message *last = NULL;
    for (uint16_t i = 0; i < n; i++) if (frames[i].type == DOCK_TELEMETRY) last = &frames[i];
    CHECK(last && (last->u.telemetry.flags & (DOCK_FLAG_YAW_AT_LIMIT | DOCK_FLAG_PITCH_AT_LIMIT)) == (DOCK_FLAG_YAW_AT_LIMIT | DOCK_FLAG_PITCH_AT_LIMIT) &&
              !(last->u.telemetry.flags & DOCK_FLAG_YAW_MOVING) && count_type(frames, n, DOCK_FAULT) == 0,
          "at_limit flags, not moving, no fault");
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {-500000, 100000, DOCK_PACE_DURATION, 1000}});
    for (int i = 0; i < 12; i++) { advance_ms(b, 100); heartbeat(b); }
    CHECK(b->fw.yaw.position_urad == -500000 && b->fw.pitch.position_urad == 100000 && b->fw.motion == DOCK_MOTION_IDLE,
          "move_to arrives and ends: %ld %ld", (long)b->fw.yaw.position_urad, (long)b->fw.pitch.position_urad);
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {500000, 0, DOCK_PACE_MAX_SPEED, 20000000}});
    int32_t peak = 0;
    int overshoot = 0;
    for (int i = 0; i < 1000; i++) {
        advance_ms(b, 1);
        if (b->fw.yaw.rate_urad_s > peak) peak = b->fw.yaw.rate_urad_s;
        if (b->fw.yaw.position_urad > 500000) overshoot = 1;
        if (i % 100 == 0) heartbeat(b);
    }
    CHECK(peak == DOCKFW_MAX_SPEED_URAD_S && !overshoot && b->fw.yaw.position_urad == 500000,
          "a fast move is capped at the axis speed and does not overshoot (peak %ld)", (long)peak);
    velocity(b, -1000000, 0, 5000);
    advance_ms(b, 100);
    send_message(b, (dock_message){.type = DOCK_STOP});
    advance_ms(b, 51);
    CHECK(b->fw.yaw.rate_urad_s == 0, "stop decelerates to a standstill");
    /* hello while moving starts a new session: stop, indicator off */
    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_SOLID, 0, 255, 0}});
    velocity(b, 1000000, 0, 5000);
    advance_ms(b, 100);
    CHECK(b->fw.is_led_on, "solid green lights the LED");
    read_frames(b, frames, 512);
    hello(b);
    n = read_frames(b, frames, 512);
    advance_ms(b, 60);
    CHECK(n == 1 && frames[0].type == DOCK_INFO && b->fw.yaw.rate_urad_s == 0 && !b->fw.is_led_on, "a second hello stops and turns the light off");
    free(b);
}

static void test_button_and_indicator(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    dock_firmware_set_button(&b->fw, true);
    advance_ms(b, 50);
    dock_firmware_set_button(&b->fw, false);
    advance_ms(b, 50);
    hello(b);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 1, "no button events before hello: %u frames", n);
    for (int bounce = 0; bounce < 5; bounce++) {
        dock_firmware_set_button(&b->fw, bounce % 2 == 0);
        advance_ms(b, 3);
    }
    dock_firmware_set_button(&b->fw, false);
    advance_ms(b, 30);
    n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_EVENT) == 0, "contact bounce shorter than 20 ms is no press");
    dock_firmware_set_button(&b->fw, true);
    advance_ms(b, 19);
    n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_EVENT) == 0, "not yet after 19 ms");
    advance_ms(b, 1);
    n = read_frames(b, frames, 512);
    const dock_message *e = find_type(frames, n, DOCK_EVENT);
    CHECK(e && e->u.event.event == DOCK_EVENT_TRACKING_BUTTON && e->u.event.value == 1 && e->u.event.time_us == b->now_us, "pressed after 20 ms");
    heartbeat(b);
    dock_firmware_set_button(&b->fw, false);
    advance_ms(b, 40);
    n = read_frames(b, frames, 512);
    e = find_type(frames, n, DOCK_EVENT);
    CHECK(e && e->u.event.value == 0 && count_type(frames, n, DOCK_EVENT) == 1, "released once");

    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_SLOW_BLINK, 0, 200, 40}});
    int on = 0, changes = 0, last = -1;
    for (int ms = 0; ms < 2000; ms++) {
        advance_ms(b, 1);
        if (ms % 100 == 0) heartbeat(b);
        on += b->fw.is_led_on;
        if (b->fw.is_led_on != last) { changes++; last = b->fw.is_led_on; }
    }
    CHECK(on == 1000 && changes == 5, "slow blink: 1 Hz, half lit (%d ms on, %d changes counting the first)", on, changes);
    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_SOLID, 0, 0, 0}});
    advance_ms(b, 2);
    CHECK(!b->fw.is_led_on, "black is off, whatever the pattern");
    free(b);
}

/* Text 1.1, section 5.2: only frames of a host type count as signs of life, refused ones included. */
static void test_failsafe_counts_host_frames_only(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    velocity(b, 1000000, 0, 5000);
    advance_ms(b, 300);
    static const uint8_t bad_pattern[4] = {9, 0, 0, 0};
    send_raw(b, DOCK_SET_INDICATOR, 500, bad_pattern, 4); /* refused, but a host is talking */
    advance_ms(b, 300);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_FAULT) == 0 && b->fw.yaw.rate_urad_s == 1000000,
          "a refused host frame keeps the failsafe away");
    /* the dock's own telemetry echoed back, and a frame of type 0x00: answered, not alive */
    send_message(b, (dock_message){.type = DOCK_TELEMETRY, .u.telemetry = {5, 0, 0, 0, 0, 0x100}});
    static const uint8_t nothing[1] = {0};
    send_raw(b, 0x00, 501, nothing, 0);
    n = read_frames(b, frames, 512);
    CHECK(n == 2 && frames[0].u.nack.reason == DOCK_UNKNOWN_MESSAGE && frames[1].u.nack.reason == DOCK_UNKNOWN_MESSAGE &&
              frames[1].u.nack.refused_type == 0,
          "accessory types and type 0x00 are refused unknown_message");
    advance_ms(b, 201);
    n = read_frames(b, frames, 512);
    const dock_message *fault = find_type(frames, n, DOCK_FAULT);
    CHECK(fault && fault->u.fault.active == 1 && fault->u.fault.time_us == 801000,
          "the failsafe runs out 500 ms after the last host-type frame, echoes notwithstanding");
    /* ending it takes a host frame too */
    send_message(b, (dock_message){.type = DOCK_INFO, .u.info = dockfw_info});
    n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_NACK && b->fw.is_failsafe_stopped, "an echoed info does not end the failsafe stop");
    free(b);
}

/* Text 1.1, section 5.1: a hello refused as unsupported ends the session. */
static void test_unsupported_hello_ends_the_session(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_SOLID, 255, 0, 0}});
    velocity(b, 1000000, 0, 5000);
    advance_ms(b, 100);
    CHECK(b->fw.is_led_on, "lit");
    read_frames(b, frames, 512);
    send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {3, 4}});
    advance_ms(b, 200);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].u.nack.reason == DOCK_UNSUPPORTED_VERSION, "refused, and nothing else sent: %u frames", n);
    CHECK(!b->fw.is_led_on && b->fw.yaw.rate_urad_s == 0, "stopped, light off");
    heartbeat(b);
    n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].u.nack.reason == DOCK_NOT_READY, "not ready afterwards");
    /* a hello refused for its fields changes nothing */
    hello(b);
    velocity(b, 500000, 0, 5000);
    read_frames(b, frames, 512);
    send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {1, 1}});
    frames[0].type = 0;
    static const uint8_t backwards[2] = {2, 1};
    send_raw(b, DOCK_HELLO, 600, backwards, 2);
    n = read_frames(b, frames, 512);
    CHECK(n == 2 && frames[1].type == DOCK_NACK && frames[1].u.nack.reason == DOCK_OUT_OF_RANGE && frames[1].u.nack.detail == 2 &&
              b->fw.is_ready,
          "hello 2..1 is out_of_range and the session stays open");
    /* after a failsafe stop, the refused hello is followed by the cleared fault */
    advance_ms(b, 501);
    read_frames(b, frames, 512);
    CHECK(b->fw.is_failsafe_stopped, "failsafe stopped");
    send_message(b, (dock_message){.type = DOCK_HELLO, .u.hello = {2, 2}});
    n = read_frames(b, frames, 512);
    CHECK(n == 2 && frames[0].type == DOCK_NACK && frames[1].type == DOCK_FAULT && frames[1].u.fault.active == 0,
          "nack, then failsafe_stop cleared");
    free(b);
}

static void test_long_texts_are_cut(void) {
    static const char long_serial[] = "DIY-0001-0123456789abcdef-0123456789"; /* 36 bytes */
    static const char long_model[] = "Servo Dock \xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"; /* 11 + 22 */
    dock_info longer = dockfw_info;
    longer.serial = (dock_text){sizeof long_serial - 1, (const uint8_t *)long_serial};
    longer.model = (dock_text){sizeof long_model - 1, (const uint8_t *)long_model};
    bench *b = calloc(1, sizeof *b);
    memset(b, 0, sizeof *b);
    dock_receiver_reset(&b->receiver);
    dock_firmware_init(&b->fw, &longer, line_sink, b, 0);
    hello(b);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(n == 1 && frames[0].type == DOCK_INFO && frames[0].u.info.serial.length == 32 && frames[0].u.info.model.length == 31,
          "texts over 32 bytes are cut, at a code point boundary (serial %u, model %u bytes)",
          n ? frames[0].u.info.serial.length : 0, n ? frames[0].u.info.model.length : 0);
    free(b);
}

/* Text 1.1, section 3.4: the first bad field in table order is the one reported. */
static void test_first_bad_field_in_table_order(void) {
    dock_message event = {.type = DOCK_EVENT, .u.event = {1, 9, 5, 2}}; /* kind, id and value all bad */
    CHECK(dock_first_invalid_field(&event) == 2, "event: the kind (field 2) before the id (3)");
    event.u.event.event = DOCK_EVENT_TRACKING_BUTTON;
    CHECK(dock_first_invalid_field(&event) == 3, "then the id");
    event.u.event.id = 0;
    CHECK(dock_first_invalid_field(&event) == 4, "then the value");
    dock_message move = {.type = DOCK_MOVE_TO, .u.move_to = {13000000, 0, 2, 0}};
    CHECK(dock_first_invalid_field(&move) == 1, "move_to: the yaw before the pace");
    dock_info bad = dockfw_info;
    bad.protocol_version = 0;
    bad.model = (dock_text){33, (const uint8_t *)"0123456789abcdef0123456789abcdef!"};
    dock_message m = {.type = DOCK_INFO, .u.info = bad};
    CHECK(dock_first_invalid_field(&m) == 1, "info: protocol_version before a model over 32 bytes");
}


/* Text 1.2, section 5.4: a move with a duration plans its ramps and stops at its target after
 * that long, both axes together; when the limits do not allow it, as soon as they do. */
static long move_ends_ms(bench *b, int32_t yaw, int32_t pitch, uint32_t duration_ms, int32_t *peak, int32_t *largest_change) {
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {yaw, pitch, DOCK_PACE_DURATION, duration_ms}});
    *peak = 0;
    *largest_change = 0;
    for (long ms = 1; ms <= 5000; ms++) {
        int32_t before = b->fw.yaw.rate_urad_s;
        advance_ms(b, 1);
        if (ms % 100 == 0) heartbeat(b);
        if (magnitude32(b->fw.yaw.rate_urad_s) > *peak) *peak = magnitude32(b->fw.yaw.rate_urad_s);
        if (magnitude32(b->fw.yaw.rate_urad_s - before) > *largest_change) *largest_change = magnitude32(b->fw.yaw.rate_urad_s - before);
        if (b->fw.motion == DOCK_MOTION_IDLE) return ms;
    }
    return -1;
}

static void test_moves_by_duration_arrive_on_time(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    int32_t peak, change;
    long ended = move_ends_ms(b, 500000, 100000, 1000, &peak, &change);
    CHECK(ended >= 999 && ended <= 1002 && b->fw.yaw.position_urad == 500000 && b->fw.pitch.position_urad == 100000,
          "0.5 rad in 1000 ms ends at %ld ms, at the target", ended);
    CHECK(peak > 500000 && peak < 520000 && change <= 20000,
          "it cruises a little above 0.5 rad/s (%ld) to make up for its ramps, within 20 rad/s² (%ld per ms)", (long)peak, (long)change);
    ended = move_ends_ms(b, 300000, -100000, 300, &peak, &change);
    CHECK(ended >= 299 && ended <= 302, "0.2 rad back in 300 ms ends at %ld ms", ended);
    /* too short for the axis: 1.2 rad at 2 rad/s and 20 rad/s² takes 0.6 + 0.1 s at best */
    ended = move_ends_ms(b, -900000, -100000, 300, &peak, &change);
    CHECK(ended >= 699 && ended <= 703 && peak == 2000000, "1.2 rad asked in 300 ms takes the shortest 700 ms: %ld", ended);
    /* the slower axis sets the time, and the other waits for it */
    send_message(b, (dock_message){.type = DOCK_MOVE_TO, .u.move_to = {900000, 0, DOCK_PACE_DURATION, 100}});
    long yaw_done = -1, pitch_done = -1;
    for (long ms = 1; ms <= 2000 && b->fw.motion != DOCK_MOTION_IDLE; ms++) {
        advance_ms(b, 1);
        if (ms % 100 == 0) heartbeat(b);
        if (yaw_done < 0 && b->fw.yaw.position_urad == 900000 && b->fw.yaw.rate_urad_s == 0) yaw_done = ms;
        if (pitch_done < 0 && b->fw.pitch.position_urad == 0 && b->fw.pitch.rate_urad_s == 0) pitch_done = ms;
    }
    CHECK(yaw_done >= 999 && yaw_done <= 1003 && pitch_done >= 999 && pitch_done <= 1003,
          "both axes arrive together, when the slower can: yaw at %ld ms, pitch at %ld ms", yaw_done, pitch_done);
    /* a move asked while turning the other way turns round first, and still arrives on time */
    velocity(b, -1000000, 0, 1000);
    advance_ms(b, 100);
    ended = move_ends_ms(b, 950000, 0, 1000, &peak, &change);
    CHECK(ended >= 999 && ended <= 1003 && b->fw.yaw.position_urad == 950000 && change <= 20000,
          "a move that first brakes a turn away ends at %ld ms", ended);
    /* a slow move arrives when planned, not when it comes within the snap */
    ended = move_ends_ms(b, 950040, 0, 1000, &peak, &change);
    CHECK(ended >= 995 && ended <= 1005, "40 µrad in 1000 ms ends at %ld ms", ended);
    free(b);
}

/* Text 1.2, section 5.4: at a range end an axis brakes at its advertised acceleration, to a
 * standstill at the end, neither past it nor in one step. */
static void test_braking_before_a_range_end(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    int32_t largest_change = 0, beyond = 0;
    long stopped = -1;
    for (long ms = 1; ms <= 1000; ms++) {
        if (ms % 50 == 1) velocity(b, 2000000, -2000000, 200);
        int32_t before = b->fw.yaw.rate_urad_s;
        advance_ms(b, 1);
        if (magnitude32(b->fw.yaw.rate_urad_s - before) > largest_change) largest_change = magnitude32(b->fw.yaw.rate_urad_s - before);
        if (b->fw.yaw.position_urad > DOCKFW_YAW_MAX_URAD) beyond = 1;
        if (stopped < 0 && b->fw.yaw.position_urad == DOCKFW_YAW_MAX_URAD) stopped = ms;
    }
    /* 1.047198 rad at 2 rad/s: 100 ms of acceleration, 100 ms of braking, 0.424 s of cruising */
    CHECK(stopped >= 620 && stopped <= 630 && largest_change <= 20000 && !beyond,
          "driven at 2 rad/s, yaw reaches +60° at %ld ms, braking at most %ld µrad/s a ms (20 rad/s²), never past it",
          stopped, (long)largest_change);
    CHECK(b->fw.yaw.rate_urad_s == 0 && b->fw.pitch.position_urad == DOCKFW_PITCH_MIN_URAD && b->fw.pitch.rate_urad_s == 0,
          "both ends hold the axes while the velocity pushes on");
    uint16_t n = read_frames(b, frames, 512);
    const dock_message *last = NULL;
    for (uint16_t i = 0; i < n; i++) if (frames[i].type == DOCK_TELEMETRY) last = &frames[i];
    CHECK(last && (last->u.telemetry.flags & DOCK_FLAG_YAW_AT_LIMIT) && (last->u.telemetry.flags & DOCK_FLAG_PITCH_AT_LIMIT) &&
              !(last->u.telemetry.flags & (DOCK_FLAG_YAW_MOVING | DOCK_FLAG_PITCH_MOVING)),
          "at the ends: *_at_limit, not moving");
    velocity(b, -500000, 500000, 200);
    advance_ms(b, 100);
    CHECK(b->fw.yaw.position_urad < DOCKFW_YAW_MAX_URAD && b->fw.pitch.position_urad > DOCKFW_PITCH_MIN_URAD, "a velocity away from the ends moves off them");
    free(b);
}

/* Text 1.2, section 7: a session starts with the button released; the release of a button held
 * through hello is not reported, the next press is; an event is stamped when the debounce
 * accepted the change. */
static void test_button_held_through_hello(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    dock_firmware_set_button(&b->fw, true);
    advance_ms(b, 100);
    hello(b);
    advance_ms(b, 100);
    dock_firmware_set_button(&b->fw, false);
    advance_ms(b, 100);
    uint16_t n = read_frames(b, frames, 512);
    CHECK(count_type(frames, n, DOCK_EVENT) == 0, "the release of a button held through hello is not reported");
    dock_firmware_set_button(&b->fw, true);
    uint64_t pressed_at = b->now_us;
    advance_ms(b, 40);
    dock_firmware_set_button(&b->fw, false);
    advance_ms(b, 40);
    n = read_frames(b, frames, 512);
    const dock_message *press = find_type(frames, n, DOCK_EVENT);
    CHECK(press && press->u.event.value == 1 && count_type(frames, n, DOCK_EVENT) == 2 &&
              press->u.event.time_us == pressed_at + DOCK_BUTTON_DEBOUNCE_MS * 1000,
          "the next press and its release are; the press stamped when the 20 ms debounce accepted it");
    free(b);
}

/* Text 1.2, section 6: the patterns on an on/off light, each starting its cycle when set. */
static void test_indicator_patterns_on_an_on_off_light(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_FAST_BLINK, 255, 0, 0}});
    int on = 0, first = -1, changes = 0, last = 0;
    for (int ms = 0; ms < 1000; ms++) {
        advance_ms(b, 1);
        if (ms % 100 == 0) heartbeat(b);
        if (first < 0) first = b->fw.is_led_on;
        on += b->fw.is_led_on;
        if (b->fw.is_led_on != last) { changes++; last = b->fw.is_led_on; }
    }
    /* lit from the first ms, dark at 125 ms, lit at 250 ms... and lit again at 1000 ms */
    CHECK(first == 1 && on == 500 && changes == 9, "fast blink: 4 Hz, lit first, half the time (%d ms on, %d changes)", on, changes);
    send_message(b, (dock_message){.type = DOCK_SET_INDICATOR, .u.set_indicator = {DOCK_PATTERN_PULSE, 0, 0, 255}});
    int lit[20] = {0};
    for (int ms = 0; ms < 2000; ms++) {
        advance_ms(b, 1);
        if (ms % 100 == 0) heartbeat(b);
        lit[ms / 100] += b->fw.is_led_on;
    }
    int as_a_triangle = 1;
    for (int tenth = 0; tenth < 20; tenth++) {
        int expected = 10 * (tenth < 10 ? tenth : 19 - tenth); /* 0–9 of each 10 ms, up for 1 s, down for 1 s */
        if (lit[tenth] < expected - 1 || lit[tenth] > expected + 1) as_a_triangle = 0;
    }
    CHECK(as_a_triangle, "pulse: dark first, brighter for 1 s and darker for 1 s, as the lit share of each 10 ms "
          "(%d %d %d %d %d %d of 100 ms)", lit[0], lit[4], lit[9], lit[10], lit[15], lit[19]);
    free(b);
}

/* Text 1.2, section 4: frames back to back are all answered, in order, each answer stamped no
 * earlier than the one before. */
static void test_frames_back_to_back_are_all_answered(void) {
    bench *b = calloc(1, sizeof *b);
    start(b);
    hello(b);
    read_frames(b, frames, 512);
    uint16_t first = b->host_seq;
    for (int i = 0; i < 16; i++) heartbeat(b);
    uint16_t n = read_frames(b, frames, 512);
    int in_order = n == 16;
    for (uint16_t i = 0; i < n && in_order; i++) in_order = frames[i].type == DOCK_ACK && frames[i].u.ack.acked_seq == (uint16_t)(first + i);
    CHECK(in_order, "16 heartbeats in one write: 16 acks, in order (%u frames)", n);
    free(b);
}

int main(void) {
    test_not_ready_before_hello();
    test_hello_info_and_telemetry_rate();
    test_velocity_ttl_and_direction();
    test_refusals();
    test_version_negotiation();
    test_failsafe();
    test_limits_and_moves();
    test_button_and_indicator();
    test_failsafe_counts_host_frames_only();
    test_unsupported_hello_ends_the_session();
    test_long_texts_are_cut();
    test_first_bad_field_in_table_order();
    test_moves_by_duration_arrive_on_time();
    test_braking_before_a_range_end();
    test_button_held_through_hello();
    test_indicator_patterns_on_an_on_off_light();
    test_frames_back_to_back_are_all_answered();
    return test_finish("test_firmware");
}
