/* The firmware's core against every file of Protocol/vectors: CRC-32C, COBS, every message both
 * ways, every stream fed whole, byte by byte, split at every boundary and all concatenated, and
 * the worked example — including the answers the firmware itself gives to its host frames. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dock_crc32c.h"
#include "dock_firmware.h"
#include "dock_receiver.h"
#include "test_support.h"

typedef struct { const char *name; const uint8_t *input; uint16_t count; uint32_t crc; } crc_case;
typedef struct { const uint8_t *decoded; uint16_t decoded_count; const uint8_t *encoded; uint16_t encoded_count; } cobs_case;
typedef struct { const char *name; const uint8_t *bytes; uint16_t count; dock_message message; } message_case;
typedef struct { uint8_t result; uint8_t type; uint16_t seq; const char *field; dock_message message; } expected_run;
typedef struct { const char *name; const uint8_t *input; uint16_t count; const expected_run *expect; uint16_t expect_count; } stream_case;
typedef struct { int is_host; const uint8_t *bytes; uint16_t count; dock_message message; } session_step;
typedef struct { const char *name; dock_text text; const uint8_t *sent; uint16_t sent_count; } text_case;
/* kind: 0 a host write whose last byte arrives at at_us, 1 a frame the accessory sends, 2 the
 * button's debounced state becomes `pressed` at at_us. */
typedef struct { uint8_t kind; uint64_t at_us; const uint8_t *bytes; uint16_t count; dock_message message; uint8_t pressed; uint8_t free_time; } transcript_step;
typedef struct { const char *name; uint64_t end_us; const transcript_step *steps; uint16_t step_count; } transcript_case;

#include "vectors.inc"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* ---- Byte sinks ------------------------------------------------------------------------------ */

typedef struct { uint8_t bytes[4096]; uint16_t count; } buffer;
static void buffer_sink(void *context, uint8_t byte) {
    buffer *b = context;
    if (b->count < sizeof b->bytes) b->bytes[b->count++] = byte;
}

static int texts_equal(const dock_text *a, const dock_text *b) {
    return a->length == b->length && (a->length == 0 || memcmp(a->bytes, b->bytes, a->length) == 0);
}

static int axes_equal(const dock_axis_limits *a, const dock_axis_limits *b) {
    return a->min_urad == b->min_urad && a->max_urad == b->max_urad && a->max_speed_urad_s == b->max_speed_urad_s &&
           a->max_accel_urad_s2 == b->max_accel_urad_s2;
}

/* Field by field: the union's unused bytes and the texts' pointers are not compared. */
static int messages_equal(const dock_message *a, const dock_message *b) {
    if (a->type != b->type || a->seq != b->seq) return 0;
    switch (a->type) {
    case DOCK_HELLO: return a->u.hello.min_version == b->u.hello.min_version && a->u.hello.max_version == b->u.hello.max_version;
    case DOCK_HEARTBEAT: case DOCK_STOP: return 1;
    case DOCK_SET_VELOCITY:
        return a->u.set_velocity.yaw_rate_urad_s == b->u.set_velocity.yaw_rate_urad_s &&
               a->u.set_velocity.pitch_rate_urad_s == b->u.set_velocity.pitch_rate_urad_s &&
               a->u.set_velocity.ttl_ms == b->u.set_velocity.ttl_ms;
    case DOCK_MOVE_TO:
        return a->u.move_to.yaw_urad == b->u.move_to.yaw_urad && a->u.move_to.pitch_urad == b->u.move_to.pitch_urad &&
               a->u.move_to.pace == b->u.move_to.pace && a->u.move_to.value == b->u.move_to.value;
    case DOCK_SET_INDICATOR:
        return a->u.set_indicator.pattern == b->u.set_indicator.pattern && a->u.set_indicator.red == b->u.set_indicator.red &&
               a->u.set_indicator.green == b->u.set_indicator.green && a->u.set_indicator.blue == b->u.set_indicator.blue;
    case DOCK_INFO: {
        const dock_info *x = &a->u.info, *y = &b->u.info;
        return x->protocol_version == y->protocol_version && x->features == y->features &&
               x->telemetry_rate_hz == y->telemetry_rate_hz && x->failsafe_timeout_ms == y->failsafe_timeout_ms &&
               axes_equal(&x->yaw, &y->yaw) && axes_equal(&x->pitch, &y->pitch) && texts_equal(&x->model, &y->model) &&
               texts_equal(&x->firmware, &y->firmware) && texts_equal(&x->serial, &y->serial);
    }
    case DOCK_ACK:
        return a->u.ack.acked_seq == b->u.ack.acked_seq && a->u.ack.acked_type == b->u.ack.acked_type &&
               a->u.ack.time_us == b->u.ack.time_us;
    case DOCK_NACK:
        return a->u.nack.refused_seq == b->u.nack.refused_seq && a->u.nack.refused_type == b->u.nack.refused_type &&
               a->u.nack.reason == b->u.nack.reason && a->u.nack.detail == b->u.nack.detail;
    case DOCK_TELEMETRY:
        return a->u.telemetry.time_us == b->u.telemetry.time_us && a->u.telemetry.yaw_urad == b->u.telemetry.yaw_urad &&
               a->u.telemetry.pitch_urad == b->u.telemetry.pitch_urad &&
               a->u.telemetry.yaw_rate_urad_s == b->u.telemetry.yaw_rate_urad_s &&
               a->u.telemetry.pitch_rate_urad_s == b->u.telemetry.pitch_rate_urad_s && a->u.telemetry.flags == b->u.telemetry.flags;
    case DOCK_EVENT:
        return a->u.event.time_us == b->u.event.time_us && a->u.event.event == b->u.event.event &&
               a->u.event.id == b->u.event.id && a->u.event.value == b->u.event.value;
    case DOCK_FAULT:
        return a->u.fault.time_us == b->u.fault.time_us && a->u.fault.code == b->u.fault.code &&
               a->u.fault.axis == b->u.fault.axis && a->u.fault.active == b->u.fault.active;
    default: return 0;
    }
}

/* ---- CRC and COBS ---------------------------------------------------------------------------- */

static void test_crc(void) {
    for (size_t i = 0; i < COUNT(crc_cases); i++) {
        uint32_t crc = dock_crc32c(crc_cases[i].input, crc_cases[i].count);
        CHECK(crc == crc_cases[i].crc, "crc %s: 0x%08x, want 0x%08x", crc_cases[i].name, crc, crc_cases[i].crc);
    }
}

static void test_cobs(void) {
    for (size_t i = 0; i < COUNT(cobs_cases); i++) {
        const cobs_case *c = &cobs_cases[i];
        buffer out = {{0}, 0};
        uint16_t written = dock_cobs_encode(c->decoded, c->decoded_count, buffer_sink, &out);
        CHECK(written == c->encoded_count && out.count == c->encoded_count &&
                  memcmp(out.bytes, c->encoded, c->encoded_count) == 0,
              "cobs case %zu: encoded %u bytes, want %u", i, out.count, c->encoded_count);
        uint8_t run[300];
        memcpy(run, c->encoded, c->encoded_count);
        uint16_t decoded = 0xFFFF;
        bool ok = dock_cobs_decode_in_place(run, c->encoded_count, &decoded);
        CHECK(ok && decoded == c->decoded_count && memcmp(run, c->decoded, c->decoded_count) == 0,
              "cobs case %zu: decoded %u bytes (ok %d), want %u", i, decoded, ok, c->decoded_count);
    }
}

/* ---- Messages -------------------------------------------------------------------------------- */

/* Feeds bytes to a receiver, collecting each run's outcome. */
typedef struct { dock_decode_status status; dock_message message; uint8_t texts[3][32]; } outcome;

static uint16_t feed(dock_receiver *r, const uint8_t *bytes, uint16_t count, outcome *out, uint16_t capacity, uint16_t n) {
    for (uint16_t i = 0; i < count; i++) {
        dock_message m;
        dock_decode_status s;
        if (!dock_receiver_feed(r, bytes[i], &m, &s)) continue;
        if (n < capacity) {
            out[n].status = s;
            out[n].message = m;
            if (s.result == DOCK_RUN_FRAME && m.type == DOCK_INFO) {
                /* the texts point into the receiver's buffer, which the next byte reuses */
                dock_text *texts[3] = {&out[n].message.u.info.model, &out[n].message.u.info.firmware, &out[n].message.u.info.serial};
                for (int t = 0; t < 3; t++) {
                    memcpy(out[n].texts[t], texts[t]->bytes, texts[t]->length);
                    texts[t]->bytes = out[n].texts[t];
                }
            }
        }
        n++;
    }
    return n;
}

static void test_messages(void) {
    for (size_t i = 0; i < COUNT(message_cases); i++) {
        const message_case *c = &message_cases[i];
        dock_receiver r;
        dock_receiver_reset(&r);
        outcome out[4];
        uint16_t n = feed(&r, c->bytes, c->count, out, 4, 0);
        CHECK(n == 1 && out[0].status.result == DOCK_RUN_FRAME, "message %s: %u runs, first result %d", c->name, n,
              n ? out[0].status.result : -1);
        if (n == 1 && out[0].status.result == DOCK_RUN_FRAME)
            CHECK(messages_equal(&out[0].message, &c->message), "message %s: decoded fields differ", c->name);
        uint8_t body[DOCK_MAX_BODY];
        buffer frame = {{0}, 0};
        uint16_t written = dock_encode_frame(&c->message, body, buffer_sink, &frame);
        CHECK(written == c->count && frame.count == c->count && memcmp(frame.bytes, c->bytes, c->count) == 0,
              "message %s: encoded %u bytes differ from the vector's %u", c->name, frame.count, c->count);
    }
}

/* ---- Streams --------------------------------------------------------------------------------- */

static int outcome_matches(const outcome *got, const expected_run *want) {
    if (got->status.result != want->result) return 0;
    if (want->result == DOCK_RUN_FRAME) return messages_equal(&got->message, &want->message);
    if (want->result == DOCK_RUN_UNKNOWN_TYPE || want->result == DOCK_RUN_WRONG_PAYLOAD_LENGTH ||
        want->result == DOCK_RUN_VALUE_OUT_OF_RANGE) {
        if (got->status.type != want->type || got->status.seq != want->seq) return 0;
    }
    if (want->result == DOCK_RUN_VALUE_OUT_OF_RANGE) {
        const dock_message *m = &got->message;
        const char *name = dock_field_name(m->type, got->status.field, m->type == DOCK_MOVE_TO ? m->u.move_to.pace : 0,
                                           m->type == DOCK_EVENT ? m->u.event.event : 0);
        if (strcmp(name, want->field) != 0) {
            fprintf(stderr, "  field %s, want %s\n", name, want->field);
            return 0;
        }
    }
    return 1;
}

static void check_stream(const stream_case *c, const outcome *out, uint16_t n, const char *how) {
    CHECK(n == c->expect_count, "stream %s (%s): %u results, want %u", c->name, how, n, c->expect_count);
    for (uint16_t k = 0; k < n && k < c->expect_count; k++)
        CHECK(outcome_matches(&out[k], &c->expect[k]), "stream %s (%s): result %u is %d, want %d", c->name, how, k,
              out[k].status.result, c->expect[k].result);
}

static void test_streams(void) {
    static outcome out[64];
    uint8_t all[8192];
    uint16_t all_count = 0, all_expected = 0;
    for (size_t i = 0; i < COUNT(stream_cases); i++) {
        const stream_case *c = &stream_cases[i];
        dock_receiver r;
        dock_receiver_reset(&r);
        check_stream(c, out, feed(&r, c->input, c->count, out, 64, 0), "whole");
        dock_receiver_reset(&r);
        uint16_t n = 0;
        for (uint16_t b = 0; b < c->count; b++) n = feed(&r, c->input + b, 1, out, 64, n);
        check_stream(c, out, n, "byte by byte");
        for (uint16_t split = 1; split < c->count; split++) {
            dock_receiver_reset(&r);
            n = feed(&r, c->input, split, out, 64, 0);
            n = feed(&r, c->input + split, (uint16_t)(c->count - split), out, 64, n);
            if (n != c->expect_count) { check_stream(c, out, n, "split"); break; }
            for (uint16_t k = 0; k < n; k++)
                if (!outcome_matches(&out[k], &c->expect[k])) { check_stream(c, out, n, "split"); break; }
        }
        memcpy(all + all_count, c->input, c->count);
        all_count = (uint16_t)(all_count + c->count);
        all_expected = (uint16_t)(all_expected + c->expect_count);
    }
    static outcome every[256];
    dock_receiver r;
    dock_receiver_reset(&r);
    uint16_t n = feed(&r, all, all_count, every, 256, 0);
    CHECK(n == all_expected, "all streams concatenated: %u results, want %u", n, all_expected);
    uint16_t k = 0;
    for (size_t i = 0; i < COUNT(stream_cases) && k < n; i++)
        for (uint16_t e = 0; e < stream_cases[i].expect_count && k < n; e++, k++)
            CHECK(outcome_matches(&every[k], &stream_cases[i].expect[e]), "concatenated: result %u (%s) differs", k,
                  stream_cases[i].name);
}

/* ---- Texts ---------------------------------------------------------------------------------- */

/* texts.json, when the vectors have it (text 1.1): the firmware cuts a long text exactly so. */
static void test_texts(void) {
    for (size_t i = 0; i < text_case_count; i++) {
        const text_case *c = &text_cases[i];
        uint8_t length = dock_text_fit(&c->text);
        CHECK(length == c->sent_count && (length == 0 || memcmp(c->text.bytes, c->sent, length) == 0),
              "text %s: %u bytes sent, want %u", c->name, length, c->sent_count);
    }
}

/* ---- The worked example ---------------------------------------------------------------------- */

static void test_example_codec(void) {
    for (size_t i = 0; i < COUNT(session_steps); i++) {
        const session_step *s = &session_steps[i];
        dock_receiver r;
        dock_receiver_reset(&r);
        outcome out[2];
        uint16_t n = feed(&r, s->bytes, s->count, out, 2, 0);
        CHECK(n == 1 && out[0].status.result == DOCK_RUN_FRAME && messages_equal(&out[0].message, &s->message),
              "example step %zu does not decode to its message", i + 1);
        uint8_t body[DOCK_MAX_BODY];
        buffer frame = {{0}, 0};
        dock_encode_frame(&s->message, body, buffer_sink, &frame);
        CHECK(frame.count == s->count && memcmp(frame.bytes, s->bytes, s->count) == 0, "example step %zu encodes differently", i + 1);
    }
}

/* The firmware core, given the example's identity and limits, plays the accessory's side of the
 * worked example byte for byte: info for hello (received at 1 240 000 µs), the ack of
 * set_velocity at 1 250 000 µs, the telemetry at 1 260 000 µs with both axes accelerating at
 * their maximum, and the tracking button (pressed at 1 250 000 µs, debounced for 20 ms) at
 * 1 270 000 µs. */
static void test_example_firmware(void) {
    const dock_info *example = NULL;
    for (size_t i = 0; i < COUNT(session_steps); i++)
        if (session_steps[i].message.type == DOCK_INFO) example = &session_steps[i].message.u.info;
    CHECK(example != NULL && COUNT(session_steps) == 6, "the example has six steps, one of them info");
    if (!example || COUNT(session_steps) != 6) return;
    buffer out = {{0}, 0};
    dock_firmware fw;
    dock_firmware_init(&fw, example, buffer_sink, &out, 0);
    for (uint16_t b = 0; b < session_steps[0].count; b++) dock_firmware_receive(&fw, session_steps[0].bytes[b], 1240000);
    CHECK(out.count == session_steps[1].count && memcmp(out.bytes, session_steps[1].bytes, out.count) == 0,
          "the firmware's info (%u bytes) differs from step 2", out.count);
    out.count = 0;
    for (uint16_t b = 0; b < session_steps[2].count; b++) dock_firmware_receive(&fw, session_steps[2].bytes[b], 1250000);
    CHECK(out.count == session_steps[3].count && memcmp(out.bytes, session_steps[3].bytes, out.count) == 0,
          "the firmware's ack (%u bytes) differs from step 4", out.count);
    out.count = 0;
    dock_firmware_set_button(&fw, true);
    dock_firmware_advance(&fw, 1260000);
    if (!CHECK(out.count == session_steps[4].count && memcmp(out.bytes, session_steps[4].bytes, out.count) == 0,
               "the firmware's telemetry at 1.26 s (%u bytes) differs from step 5", out.count)) {
        dock_receiver r;
        dock_receiver_reset(&r);
        outcome got[4];
        if (feed(&r, out.bytes, out.count, got, 4, 0) == 1 && got[0].message.type == DOCK_TELEMETRY)
            fprintf(stderr, "  got seq %u at %llu: yaw %ld at %ld µrad/s, pitch %ld at %ld, flags 0x%x\n", got[0].message.seq,
                    (unsigned long long)got[0].message.u.telemetry.time_us, (long)got[0].message.u.telemetry.yaw_urad,
                    (long)got[0].message.u.telemetry.yaw_rate_urad_s, (long)got[0].message.u.telemetry.pitch_urad,
                    (long)got[0].message.u.telemetry.pitch_rate_urad_s, got[0].message.u.telemetry.flags);
    }
    out.count = 0;
    dock_firmware_advance(&fw, 1270000);
    CHECK(out.count == session_steps[5].count && memcmp(out.bytes, session_steps[5].bytes, out.count) == 0,
          "the firmware's button event at 1.27 s (%u bytes) differs from step 6", out.count);
}

/* ---- Transcripts ----------------------------------------------------------------------------- */

/* One thing that happens to the firmware: a host byte arriving, or the button's raw level changing. */
typedef struct { uint64_t at_us; int16_t byte; uint8_t pressed; } transcript_action;

static int by_time(const void *a, const void *b) {
    const transcript_action *x = a, *y = b;
    return x->at_us < y->at_us ? -1 : x->at_us > y->at_us ? 1 : 0;
}

/* The firmware core plays the accessory's side of each transcript: the host's bytes arrive at
 * their times (the last of a write at its at_us, each before it one byte time earlier), the raw
 * button level changes one debounce time before the debounced change the transcript gives, and
 * every frame the firmware sends up to end_us must be the transcript's next accessory frame. */
static void test_transcripts(void) {
    static transcript_action actions[2048];
    for (size_t t = 0; t < transcript_case_count; t++) {
        const transcript_case *c = &transcript_cases[t];
        const dock_info *info = NULL;
        uint16_t n = 0, expected = 0;
        for (uint16_t i = 0; i < c->step_count; i++) {
            const transcript_step *s = &c->steps[i];
            if (s->kind == 1 && s->message.type == DOCK_INFO && !info) info = &s->message.u.info;
            if (s->kind == 1) expected++;
            if (s->kind == 0)
                for (uint16_t b = 0; b < s->count && n < COUNT(actions); b++)
                    actions[n++] = (transcript_action){s->at_us - (uint64_t)(s->count - 1 - b) * transcript_byte_time_us, s->bytes[b], 0};
            if (s->kind == 2 && n < COUNT(actions))
                actions[n++] = (transcript_action){s->at_us - DOCK_BUTTON_DEBOUNCE_MS * 1000, -1, s->pressed};
        }
        if (!CHECK(info != NULL, "transcript %s: no info to play the accessory with", c->name)) continue;
        qsort(actions, n, sizeof actions[0], by_time); /* a write's bytes are already in order */
        static buffer out;
        out.count = 0;
        dock_firmware fw;
        dock_firmware_init(&fw, info, buffer_sink, &out, 0);
        for (uint16_t i = 0; i < n; i++) {
            dock_firmware_advance(&fw, actions[i].at_us);
            if (actions[i].byte >= 0) dock_firmware_receive(&fw, (uint8_t)actions[i].byte, actions[i].at_us);
            else dock_firmware_set_button(&fw, actions[i].pressed);
        }
        dock_firmware_advance(&fw, c->end_us);
        dock_receiver r;
        dock_receiver_reset(&r);
        static outcome got[64];
        uint16_t sent = feed(&r, out.bytes, out.count, got, COUNT(got), 0);
        CHECK(sent == expected, "transcript %s: the firmware sent %u frames, the transcript has %u", c->name, sent, expected);
        uint16_t k = 0;
        for (uint16_t i = 0; i < c->step_count && k < sent; i++) {
            const transcript_step *s = &c->steps[i];
            if (s->kind != 1) continue;
            dock_message want = s->message;
            /* a free time_us: the transcript gives the earliest the accessory may choose */
            if (s->free_time && want.type == DOCK_ACK && got[k].message.type == DOCK_ACK) {
                CHECK(got[k].message.u.ack.time_us >= want.u.ack.time_us, "transcript %s: frame %u acked before its frame arrived", c->name, k + 1);
                want.u.ack.time_us = got[k].message.u.ack.time_us;
            }
            CHECK(got[k].status.result == DOCK_RUN_FRAME && messages_equal(&got[k].message, &want),
                  "transcript %s: accessory frame %u (type 0x%02x seq %u) differs from the transcript's (type 0x%02x seq %u)", c->name,
                  k + 1, got[k].message.type, got[k].message.seq, want.type, want.seq);
            k++;
        }
    }
}

int main(void) {
    test_crc();
    test_cobs();
    test_messages();
    test_streams();
    test_texts();
    test_example_codec();
    test_example_firmware();
    test_transcripts();
    printf("vectors: %zu crc, %zu cobs, %zu messages, %zu streams, %zu texts, %zu example steps, %zu transcripts\n",
           COUNT(crc_cases), COUNT(cobs_cases), COUNT(message_cases), COUNT(stream_cases), text_case_count,
           COUNT(session_steps), transcript_case_count);
    return test_finish("test_vectors");
}
