#include "dock_firmware.h"

#define QUARTER_TURN_URAD 1570796L

/* ---- Sending --------------------------------------------------------------------------------- */

static void send(dock_firmware *fw, dock_message *m) {
    m->seq = fw->seq++;
    dock_encode_frame(m, fw->body, fw->sink, fw->context);
}

static void send_nack(dock_firmware *fw, uint16_t seq, uint8_t type, uint8_t reason, uint16_t detail) {
    dock_message m;
    m.type = DOCK_NACK;
    m.u.nack.refused_seq = seq;
    m.u.nack.refused_type = type;
    m.u.nack.reason = reason;
    m.u.nack.detail = detail;
    send(fw, &m);
}

static void send_ack(dock_firmware *fw, uint16_t seq, uint8_t type, uint64_t now_us) {
    dock_message m;
    m.type = DOCK_ACK;
    m.u.ack.acked_seq = seq;
    m.u.ack.acked_type = type;
    m.u.ack.time_us = now_us;
    send(fw, &m);
}

static void send_fault(dock_firmware *fw, uint8_t code, uint8_t active, uint64_t time_us) {
    dock_message m;
    m.type = DOCK_FAULT;
    m.u.fault.time_us = time_us;
    m.u.fault.code = code;
    m.u.fault.axis = 0;
    m.u.fault.active = active;
    send(fw, &m);
}

static void send_info(dock_firmware *fw) {
    dock_message m;
    m.type = DOCK_INFO;
    m.u.info = *fw->info;
    m.u.info.protocol_version = fw->version;
    /* A longer name (a SERIAL given at build time, a long version tag) is cut, never refused. */
    m.u.info.model.length = dock_text_fit(&m.u.info.model);
    m.u.info.firmware.length = dock_text_fit(&m.u.info.firmware);
    m.u.info.serial.length = dock_text_fit(&m.u.info.serial);
    send(fw, &m);
}

static int32_t magnitude(int32_t v) { return v < 0 ? -v : v; }

static uint16_t telemetry_flags(const dock_firmware *fw) {
    const dock_info *info = fw->info;
    uint16_t flags = DOCK_FLAG_DOCKED; /* no dock sensor: always docked */
    if (magnitude(fw->yaw.rate_urad_s) > DOCK_MOVING_THRESHOLD_URAD_S) flags |= DOCK_FLAG_YAW_MOVING;
    if (magnitude(fw->pitch.rate_urad_s) > DOCK_MOVING_THRESHOLD_URAD_S) flags |= DOCK_FLAG_PITCH_MOVING;
    if (fw->yaw.position_urad <= info->yaw.min_urad || fw->yaw.position_urad >= info->yaw.max_urad)
        flags |= DOCK_FLAG_YAW_AT_LIMIT;
    if (fw->pitch.position_urad <= info->pitch.min_urad || fw->pitch.position_urad >= info->pitch.max_urad)
        flags |= DOCK_FLAG_PITCH_AT_LIMIT;
    if (fw->is_failsafe_stopped) flags |= DOCK_FLAG_FAILSAFE_STOPPED;
    return flags;
}

static void send_telemetry(dock_firmware *fw) {
    dock_message m;
    m.type = DOCK_TELEMETRY;
    m.u.telemetry.time_us = fw->clock_us;
    m.u.telemetry.yaw_urad = fw->yaw.position_urad;
    m.u.telemetry.pitch_urad = fw->pitch.position_urad;
    m.u.telemetry.yaw_rate_urad_s = fw->yaw.rate_urad_s;
    m.u.telemetry.pitch_rate_urad_s = fw->pitch.rate_urad_s;
    m.u.telemetry.flags = telemetry_flags(fw);
    send(fw, &m);
}

static void send_button(dock_firmware *fw, uint8_t pressed) {
    dock_message m;
    m.type = DOCK_EVENT;
    m.u.event.time_us = fw->clock_us;
    m.u.event.event = DOCK_EVENT_TRACKING_BUTTON;
    m.u.event.id = 0;
    m.u.event.value = (int8_t)pressed;
    send(fw, &m);
}

/* ---- Start ----------------------------------------------------------------------------------- */

void dock_firmware_init(dock_firmware *fw, const dock_info *info, dock_byte_sink sink, void *context, uint64_t now_us) {
    *fw = (dock_firmware){0};
    fw->info = info;
    fw->sink = sink;
    fw->context = context;
    dock_receiver_reset(&fw->receiver);
    fw->clock_us = now_us - now_us % 1000;
    fw->telemetry_period_us = 1000000UL / info->telemetry_rate_hz;
}

/* ---- Motion ---------------------------------------------------------------------------------- */

static void stop_motion(dock_firmware *fw) { fw->motion = DOCK_MOTION_IDLE; }

/* The rate a move asks of an axis now: toward the target at up to its speed, braking at the
 * axis's acceleration so as not to overshoot, and settling proportionally (20 ms) at the end. */
static int32_t approach_rate(const dock_axis_state *axis, uint32_t accel) {
    int32_t error = axis->target_urad - axis->position_urad;
    int32_t distance = magnitude(error);
    int64_t rate = axis->rate_urad_s;
    bool is_heading_there = (error > 0 && rate > 0) || (error < 0 && rate < 0);
    if (is_heading_there && rate * rate >= 2 * (int64_t)accel * distance) return 0;
    int64_t settling = (int64_t)distance * 50;
    int64_t speed = axis->speed_urad_s < settling ? axis->speed_urad_s : settling;
    return error < 0 ? -(int32_t)speed : (int32_t)speed;
}

/* One millisecond of an axis: the rate goes toward `desired` by at most the acceleration, the
 * position follows it, and the range's ends stop it. */
static void step_axis(dock_axis_state *axis, const dock_axis_limits *limits, int32_t desired) {
    int32_t step = (int32_t)(limits->max_accel_urad_s2 / 1000);
    if (step < 1) step = 1;
    int32_t before = axis->rate_urad_s;
    if (desired > axis->rate_urad_s + step) axis->rate_urad_s += step;
    else if (desired < axis->rate_urad_s - step) axis->rate_urad_s -= step;
    else axis->rate_urad_s = desired;
    /* The mean of the rates at both ends of the millisecond: exact under constant acceleration. */
    int32_t travel = (before + axis->rate_urad_s) / 2 + axis->remainder; /* thousandths of a µrad */
    axis->position_urad += travel / 1000;
    axis->remainder = (int16_t)(travel % 1000);
    if (axis->position_urad >= limits->max_urad) {
        axis->position_urad = limits->max_urad;
        if (axis->rate_urad_s > 0) { axis->rate_urad_s = 0; axis->remainder = 0; }
    } else if (axis->position_urad <= limits->min_urad) {
        axis->position_urad = limits->min_urad;
        if (axis->rate_urad_s < 0) { axis->rate_urad_s = 0; axis->remainder = 0; }
    }
}

static bool settle(dock_axis_state *axis) {
    if (magnitude(axis->target_urad - axis->position_urad) > DOCK_MOVE_SNAP_URAD) return false;
    if (magnitude(axis->rate_urad_s) > DOCK_MOVE_SNAP_URAD_S) return false;
    axis->position_urad = axis->target_urad;
    axis->rate_urad_s = 0;
    axis->remainder = 0;
    return true;
}

static void step_motion(dock_firmware *fw) {
    const dock_info *info = fw->info;
    int32_t yaw = 0, pitch = 0;
    if (fw->motion == DOCK_MOTION_VELOCITY) {
        if (fw->clock_us >= fw->velocity_expiry_us) stop_motion(fw);
        else {
            yaw = fw->yaw.command_urad_s;
            pitch = fw->pitch.command_urad_s;
        }
    } else if (fw->motion == DOCK_MOTION_MOVE) {
        bool yaw_done = settle(&fw->yaw);
        bool pitch_done = settle(&fw->pitch);
        if (yaw_done && pitch_done) stop_motion(fw);
        else {
            yaw = yaw_done ? 0 : approach_rate(&fw->yaw, info->yaw.max_accel_urad_s2);
            pitch = pitch_done ? 0 : approach_rate(&fw->pitch, info->pitch.max_accel_urad_s2);
        }
    }
    step_axis(&fw->yaw, &info->yaw, yaw);
    step_axis(&fw->pitch, &info->pitch, pitch);
}

/* ---- Indicator and button -------------------------------------------------------------------- */

static void step_indicator(dock_firmware *fw) {
    uint32_t ms = (uint32_t)((fw->clock_us - fw->indicator_since_us) / 1000);
    uint8_t on = 0;
    switch (fw->indicator_pattern) {
    case DOCK_PATTERN_SOLID: on = 1; break;
    case DOCK_PATTERN_SLOW_BLINK: on = ms % 1000 < 500; break;
    case DOCK_PATTERN_FAST_BLINK: on = ms % 250 < 125; break;
    case DOCK_PATTERN_PULSE: {
        /* A 2 s triangle of brightness, shown as a 10 ms software PWM (0–10 of 10 ms lit). */
        uint32_t phase = ms % 2000;
        uint32_t level = (phase < 1000 ? phase : 2000 - phase) / 100;
        on = ms % 10 < level;
        break;
    }
    default: break;
    }
    fw->is_led_on = on;
}

static void step_button(dock_firmware *fw) {
    if (fw->button_level == fw->button_state) {
        fw->button_stable_ms = 0;
        return;
    }
    if (++fw->button_stable_ms < DOCK_BUTTON_DEBOUNCE_MS) return;
    fw->button_stable_ms = 0;
    fw->button_state = fw->button_level;
    if (fw->is_ready) send_button(fw, fw->button_state);
}

void dock_firmware_set_button(dock_firmware *fw, bool is_pressed) { fw->button_level = is_pressed ? 1 : 0; }

/* ---- Time ------------------------------------------------------------------------------------ */

void dock_firmware_advance(dock_firmware *fw, uint64_t now_us) {
    while (fw->clock_us + 1000 <= now_us) {
        fw->clock_us += 1000;
        uint64_t timeout_us = (uint64_t)fw->info->failsafe_timeout_ms * 1000;
        if (fw->is_ready && !fw->is_failsafe_stopped && fw->clock_us > fw->last_host_us + timeout_us) {
            fw->is_failsafe_stopped = 1;
            stop_motion(fw);
            send_fault(fw, DOCK_FAULT_FAILSAFE_STOP, 1, fw->clock_us);
        }
        step_motion(fw);
        step_button(fw);
        step_indicator(fw);
        if (fw->clock_us >= fw->next_telemetry_us) {
            fw->next_telemetry_us += fw->telemetry_period_us;
            if (fw->next_telemetry_us <= fw->clock_us) fw->next_telemetry_us = fw->clock_us + fw->telemetry_period_us;
            if (fw->is_ready) send_telemetry(fw);
        }
    }
}

/* ---- Receiving ------------------------------------------------------------------------------- */

static void handshake(dock_firmware *fw, const dock_message *m) {
    uint8_t highest = m->u.hello.max_version < 1 ? m->u.hello.max_version : 1;
    uint8_t lowest = m->u.hello.min_version > 1 ? m->u.hello.min_version : 1;
    stop_motion(fw);
    fw->indicator_pattern = DOCK_PATTERN_OFF;
    if (highest < lowest) {
        /* No version in common: that hello still ends any session, as after power-on (the clock
         * and the sequence numbers go on). */
        fw->is_ready = 0;
        send_nack(fw, m->seq, DOCK_HELLO, DOCK_UNSUPPORTED_VERSION, 1 | 1 << 8);
        return;
    }
    fw->is_ready = 1;
    fw->version = highest;
    fw->next_telemetry_us = fw->clock_us + fw->telemetry_period_us;
    send_info(fw);
}

static bool outside(int32_t value, int32_t low, int32_t high) { return value < low || value > high; }

/* Carries out a good host frame while ready; returns the refusal reason and detail, or 0. */
static uint8_t carry_out(dock_firmware *fw, const dock_message *m, uint64_t now_us, uint16_t *detail) {
    const dock_info *info = fw->info;
    switch (m->type) {
    case DOCK_HEARTBEAT:
        return 0;
    case DOCK_SET_VELOCITY: {
        int32_t yaw = m->u.set_velocity.yaw_rate_urad_s, pitch = m->u.set_velocity.pitch_rate_urad_s;
        if ((uint32_t)magnitude(yaw) > info->yaw.max_speed_urad_s) { *detail = 1; return DOCK_OUT_OF_RANGE; }
        if ((uint32_t)magnitude(pitch) > info->pitch.max_speed_urad_s) { *detail = 2; return DOCK_OUT_OF_RANGE; }
        fw->yaw.command_urad_s = yaw;
        fw->pitch.command_urad_s = pitch;
        fw->velocity_expiry_us = now_us + (uint64_t)m->u.set_velocity.ttl_ms * 1000;
        fw->motion = DOCK_MOTION_VELOCITY;
        return 0;
    }
    case DOCK_MOVE_TO: {
        int32_t yaw = m->u.move_to.yaw_urad, pitch = m->u.move_to.pitch_urad;
        if (outside(yaw, info->yaw.min_urad, info->yaw.max_urad)) { *detail = 1; return DOCK_OUT_OF_RANGE; }
        if (outside(pitch, info->pitch.min_urad, info->pitch.max_urad)) { *detail = 2; return DOCK_OUT_OF_RANGE; }
        dock_axis_state *axes[2] = {&fw->yaw, &fw->pitch};
        const dock_axis_limits *limits[2] = {&info->yaw, &info->pitch};
        int32_t targets[2] = {yaw, pitch};
        for (uint8_t i = 0; i < 2; i++) {
            uint32_t speed = m->u.move_to.value;
            if (m->u.move_to.pace == DOCK_PACE_DURATION) {
                uint32_t distance = (uint32_t)magnitude(targets[i] - axes[i]->position_urad);
                speed = (uint32_t)((uint64_t)distance * 1000 / m->u.move_to.value);
                if (speed < 1) speed = 1;
            }
            if (speed > limits[i]->max_speed_urad_s) speed = limits[i]->max_speed_urad_s;
            axes[i]->target_urad = targets[i];
            axes[i]->speed_urad_s = speed;
        }
        fw->motion = DOCK_MOTION_MOVE;
        return 0;
    }
    case DOCK_STOP:
        stop_motion(fw);
        return 0;
    case DOCK_SET_INDICATOR: {
        bool is_black = !m->u.set_indicator.red && !m->u.set_indicator.green && !m->u.set_indicator.blue;
        fw->indicator_pattern = is_black ? DOCK_PATTERN_OFF : m->u.set_indicator.pattern;
        fw->indicator_since_us = fw->clock_us;
        return 0;
    }
    default:
        return DOCK_UNKNOWN_MESSAGE;
    }
}

static void handle_run(dock_firmware *fw, const dock_message *m, const dock_decode_status *status, uint64_t now_us) {
    if (status->result == DOCK_RUN_OVERSIZE || status->result == DOCK_RUN_TRUNCATED ||
        status->result == DOCK_RUN_CHECKSUM_MISMATCH) {
        fw->bad_runs++; /* no trustworthy seq: no answer (section 3.4) */
        return;
    }
    /* A good CRC and a host type byte (0x01–0x7F), carried out or refused: a host is alive. A
     * frame of type 0x00 or 0x80–0xFF is answered but keeps nothing alive — no host sends one,
     * and on a line that echoes, the dock's own frames must not hold off its failsafe. */
    bool was_failsafe = fw->is_failsafe_stopped;
    if (status->type >= 0x01 && status->type <= 0x7F) {
        fw->last_host_us = now_us;
        fw->is_failsafe_stopped = 0;
    } else {
        was_failsafe = false;
    }
    bool is_host = dock_type_is_host(status->type);
    switch (status->result) {
    case DOCK_RUN_UNKNOWN_TYPE:
        fw->bad_runs++;
        send_nack(fw, status->seq, status->type, DOCK_UNKNOWN_MESSAGE, 0);
        break;
    case DOCK_RUN_WRONG_PAYLOAD_LENGTH:
        fw->bad_runs++;
        if (is_host) send_nack(fw, status->seq, status->type, DOCK_WRONG_LENGTH, status->expected_length);
        else send_nack(fw, status->seq, status->type, DOCK_UNKNOWN_MESSAGE, 0);
        break;
    case DOCK_RUN_VALUE_OUT_OF_RANGE:
        fw->bad_runs++;
        if (is_host) send_nack(fw, status->seq, status->type, DOCK_OUT_OF_RANGE, status->field);
        else send_nack(fw, status->seq, status->type, DOCK_UNKNOWN_MESSAGE, 0);
        break;
    default: /* DOCK_RUN_FRAME */
        fw->good_frames++;
        if (!is_host) send_nack(fw, m->seq, m->type, DOCK_UNKNOWN_MESSAGE, 0);
        else if (m->type == DOCK_HELLO) handshake(fw, m);
        else if (!fw->is_ready) send_nack(fw, m->seq, m->type, DOCK_NOT_READY, 0);
        else {
            uint16_t detail = 0;
            uint8_t reason = carry_out(fw, m, now_us, &detail);
            if (reason) send_nack(fw, m->seq, m->type, reason, detail);
            else send_ack(fw, m->seq, m->type, now_us);
        }
        break;
    }
    /* The answer first, then the cleared failsafe — also after a hello refused as unsupported,
     * which has just ended the session. */
    if (was_failsafe) send_fault(fw, DOCK_FAULT_FAILSAFE_STOP, 0, now_us);
}

void dock_firmware_receive(dock_firmware *fw, uint8_t byte, uint64_t now_us) {
    dock_message m;
    dock_decode_status status;
    dock_firmware_advance(fw, now_us);
    if (dock_receiver_feed(&fw->receiver, byte, &m, &status)) handle_run(fw, &m, &status, now_us);
}

/* ---- Servo ----------------------------------------------------------------------------------- */

uint16_t dock_servo_pulse_half_us(const dock_servo_calibration *c, int32_t angle_urad) {
    int32_t offset = (int32_t)((int64_t)angle_urad * c->per_quarter_turn_us * 2 / QUARTER_TURN_URAD);
    int32_t half_us = 2 * (int32_t)c->home_us + offset;
    if (half_us < 2 * (int32_t)c->min_us) half_us = 2 * c->min_us;
    if (half_us > 2 * (int32_t)c->max_us) half_us = 2 * c->max_us;
    return (uint16_t)half_us;
}
