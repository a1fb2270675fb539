#include "dock_codec.h"

#include "dock_crc32c.h"

#define ANGLE_LIMIT 12566371L /* 4π rad in µrad */
#define RATE_LIMIT 20000000L  /* 20 rad/s in µrad/s */
#define ACCEL_LIMIT 200000000UL

/* Little-endian readers and writers. */
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }
static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }
static uint8_t *put8(uint8_t *p, uint8_t v) { *p++ = v; return p; }
static uint8_t *put16(uint8_t *p, uint16_t v) { *p++ = (uint8_t)v; *p++ = (uint8_t)(v >> 8); return p; }
static uint8_t *put32(uint8_t *p, uint32_t v) { p = put16(p, (uint16_t)v); return put16(p, (uint16_t)(v >> 16)); }
static uint8_t *put64(uint8_t *p, uint64_t v) { p = put32(p, (uint32_t)v); return put32(p, (uint32_t)(v >> 32)); }

bool dock_type_is_known(uint8_t type) {
    return (type >= DOCK_HELLO && type <= DOCK_SET_INDICATOR) || (type >= DOCK_INFO && type <= DOCK_FAULT);
}

bool dock_type_is_host(uint8_t type) { return type >= DOCK_HELLO && type <= DOCK_SET_INDICATOR; }

int16_t dock_payload_length(uint8_t type) {
    switch (type) {
    case DOCK_HELLO: return 2;
    case DOCK_HEARTBEAT: return 0;
    case DOCK_SET_VELOCITY: return 10;
    case DOCK_MOVE_TO: return 13;
    case DOCK_STOP: return 0;
    case DOCK_SET_INDICATOR: return 4;
    case DOCK_ACK: return 11;
    case DOCK_NACK: return 6;
    case DOCK_TELEMETRY: return 26;
    case DOCK_EVENT: return 11;
    case DOCK_FAULT: return 11;
    default: return -1;
    }
}

static bool angle_ok(int32_t v) { return v >= -ANGLE_LIMIT && v <= ANGLE_LIMIT; }
static bool rate_ok(int32_t v) { return v >= -RATE_LIMIT && v <= RATE_LIMIT; }
static bool speed_ok(uint32_t v) { return v >= 1 && v <= (uint32_t)RATE_LIMIT; }

/* Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
static bool utf8_ok(const dock_text *text) {
    const uint8_t *p = text->bytes;
    uint8_t left = text->length;
    while (left) {
        uint8_t c = *p;
        uint8_t extra;
        uint8_t low = 0x80, high = 0xBF; /* allowed range of the second byte */
        if (c < 0x80) extra = 0;
        else if (c >= 0xC2 && c <= 0xDF) extra = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        } else return false;
        if (left < extra + 1) return false;
        for (uint8_t i = 1; i <= extra; i++) {
            uint8_t b = p[i];
            if (i == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) return false;
        }
        p += extra + 1;
        left = (uint8_t)(left - extra - 1);
    }
    return true;
}

uint8_t dock_text_fit(const dock_text *text) {
    if (text->length <= DOCK_MAX_TEXT) return text->length;
    uint8_t length = DOCK_MAX_TEXT;
    /* Back off over continuation bytes (10xxxxxx) to the byte that starts the cut character. */
    while (length > 0 && (text->bytes[length] & 0xC0) == 0x80) length--;
    return length;
}

static uint8_t axis_invalid(const dock_axis_limits *axis) {
    if (!angle_ok(axis->min_urad) || axis->min_urad > 0) return 1;
    if (!angle_ok(axis->max_urad) || axis->max_urad < 0) return 2;
    if (!speed_ok(axis->max_speed_urad_s)) return 3;
    if (axis->max_accel_urad_s2 < 1 || axis->max_accel_urad_s2 > ACCEL_LIMIT) return 4;
    return 0;
}

uint8_t dock_first_invalid_field(const dock_message *m) {
    switch (m->type) {
    case DOCK_HELLO:
        if (m->u.hello.min_version < 1) return 1;
        if (m->u.hello.max_version < m->u.hello.min_version) return 2;
        return 0;
    case DOCK_HEARTBEAT:
    case DOCK_STOP:
        return 0;
    case DOCK_SET_VELOCITY:
        if (!rate_ok(m->u.set_velocity.yaw_rate_urad_s)) return 1;
        if (!rate_ok(m->u.set_velocity.pitch_rate_urad_s)) return 2;
        if (m->u.set_velocity.ttl_ms < 1 || m->u.set_velocity.ttl_ms > 5000) return 3;
        return 0;
    case DOCK_MOVE_TO:
        if (!angle_ok(m->u.move_to.yaw_urad)) return 1;
        if (!angle_ok(m->u.move_to.pitch_urad)) return 2;
        if (m->u.move_to.pace > DOCK_PACE_MAX_SPEED) return 3;
        if (m->u.move_to.pace == DOCK_PACE_DURATION
                ? (m->u.move_to.value < 1 || m->u.move_to.value > 60000)
                : !speed_ok(m->u.move_to.value))
            return 4;
        return 0;
    case DOCK_SET_INDICATOR:
        return m->u.set_indicator.pattern > DOCK_PATTERN_PULSE ? 1 : 0;
    case DOCK_INFO: {
        const dock_info *info = &m->u.info;
        uint8_t field;
        if (info->protocol_version < 1) return 1;
        if (info->features & 0xC0) return 2;
        if (info->telemetry_rate_hz < 1 || info->telemetry_rate_hz > 200) return 3;
        if (info->failsafe_timeout_ms < 50 || info->failsafe_timeout_ms > 10000) return 4;
        if ((field = axis_invalid(&info->yaw)) != 0) return (uint8_t)(4 + field);
        if ((field = axis_invalid(&info->pitch)) != 0) return (uint8_t)(8 + field);
        if (info->model.length > DOCK_MAX_TEXT || !utf8_ok(&info->model)) return 13;
        if (info->firmware.length > DOCK_MAX_TEXT || !utf8_ok(&info->firmware)) return 14;
        if (info->serial.length > DOCK_MAX_TEXT || !utf8_ok(&info->serial)) return 15;
        return 0;
    }
    case DOCK_ACK:
        return dock_type_is_host(m->u.ack.acked_type) ? 0 : 2;
    case DOCK_NACK:
        return (m->u.nack.reason < 1 || m->u.nack.reason > DOCK_FAULTED) ? 3 : 0;
    case DOCK_TELEMETRY:
        if (!angle_ok(m->u.telemetry.yaw_urad)) return 2;
        if (!angle_ok(m->u.telemetry.pitch_urad)) return 3;
        if (!rate_ok(m->u.telemetry.yaw_rate_urad_s)) return 4;
        if (!rate_ok(m->u.telemetry.pitch_rate_urad_s)) return 5;
        if (m->u.telemetry.flags & 0xFE00) return 6;
        return 0;
    case DOCK_EVENT: {
        uint8_t kind = m->u.event.event;
        int8_t value = m->u.event.value;
        /* In table order (text 1.1, section 3.4): the kind, then the id (only custom_button
         * names one), then the value. */
        if (kind < DOCK_EVENT_DOCK || kind > DOCK_EVENT_CUSTOM_BUTTON) return 2;
        if (kind != DOCK_EVENT_CUSTOM_BUTTON && m->u.event.id != 0) return 3;
        if (kind == DOCK_EVENT_ZOOM) return value == 0 ? 4 : 0;
        if (value != 0 && value != 1) return 4;
        if (kind == DOCK_EVENT_CUSTOM_BUTTON && m->u.event.id == 0) return 3;
        return 0;
    }
    case DOCK_FAULT:
        if (m->u.fault.code < DOCK_FAULT_MOTOR_STALL || m->u.fault.code > DOCK_FAULT_FAILSAFE_STOP) return 2;
        if (m->u.fault.axis > 2) return 3;
        if (m->u.fault.active > 1) return 4;
        return 0;
    default:
        return 0;
    }
}

const char *dock_field_name(uint8_t type, uint8_t number, uint8_t pace, uint8_t event_kind) {
    static const char *const info_names[] = {
        "protocol_version", "features", "telemetry_rate_hz", "failsafe_timeout_ms",
        "yaw.min_urad", "yaw.max_urad", "yaw.max_speed_urad_s", "yaw.max_accel_urad_s2",
        "pitch.min_urad", "pitch.max_urad", "pitch.max_speed_urad_s", "pitch.max_accel_urad_s2",
        "model", "firmware", "serial"};
    if (number == 0) return "";
    switch (type) {
    case DOCK_HELLO: return number == 1 ? "min_version" : "max_version";
    case DOCK_SET_VELOCITY: return number == 1 ? "yaw_rate_urad_s" : number == 2 ? "pitch_rate_urad_s" : "ttl_ms";
    case DOCK_MOVE_TO:
        if (number < 4) return number == 1 ? "yaw_urad" : number == 2 ? "pitch_urad" : "pace";
        return pace == DOCK_PACE_DURATION ? "duration_ms" : "max_speed_urad_s";
    case DOCK_SET_INDICATOR: return number == 1 ? "pattern" : number == 2 ? "red" : number == 3 ? "green" : "blue";
    case DOCK_INFO: return number <= 15 ? info_names[number - 1] : "";
    case DOCK_ACK: return number == 1 ? "acked_seq" : number == 2 ? "acked_type" : "time_us";
    case DOCK_NACK: return number == 1 ? "refused_seq" : number == 2 ? "refused_type" : number == 3 ? "reason" : "detail";
    case DOCK_TELEMETRY: {
        static const char *const names[] = {"time_us", "yaw_urad", "pitch_urad", "yaw_rate_urad_s", "pitch_rate_urad_s", "flags"};
        return number <= 6 ? names[number - 1] : "";
    }
    case DOCK_EVENT:
        if (number < 4) return number == 1 ? "time_us" : number == 2 ? "event" : "id";
        return event_kind == DOCK_EVENT_DOCK ? "docked" : event_kind == DOCK_EVENT_ZOOM ? "steps" : "pressed";
    case DOCK_FAULT: return number == 1 ? "time_us" : number == 2 ? "code" : number == 3 ? "axis" : "active";
    default: return "";
    }
}

/* Reads info's payload; returns false when its texts do not exactly fill it. */
static bool read_info(const uint8_t *p, uint16_t count, dock_info *info) {
    if (count < DOCK_INFO_FIXED_COUNT + 3) return false;
    info->protocol_version = p[0];
    info->features = p[1];
    info->telemetry_rate_hz = p[2];
    info->failsafe_timeout_ms = get16(p + 3);
    dock_axis_limits *axes[2] = {&info->yaw, &info->pitch};
    for (uint8_t i = 0; i < 2; i++) {
        const uint8_t *a = p + 5 + 16 * i;
        axes[i]->min_urad = (int32_t)get32(a);
        axes[i]->max_urad = (int32_t)get32(a + 4);
        axes[i]->max_speed_urad_s = get32(a + 8);
        axes[i]->max_accel_urad_s2 = get32(a + 12);
    }
    dock_text *texts[3] = {&info->model, &info->firmware, &info->serial};
    uint16_t at = DOCK_INFO_FIXED_COUNT;
    for (uint8_t i = 0; i < 3; i++) {
        if (at >= count) return false;
        uint8_t length = p[at++];
        if (length > count - at) return false;
        texts[i]->length = length;
        texts[i]->bytes = p + at;
        at = (uint16_t)(at + length);
    }
    return at == count;
}

dock_decode_status dock_decode_body(const uint8_t *body, uint16_t count, dock_message *m) {
    dock_decode_status status = {DOCK_RUN_TRUNCATED, 0, 0, 0, 0};
    if (count < DOCK_HEADER_COUNT + DOCK_CRC_COUNT) return status;
    uint16_t payload_count = (uint16_t)(count - DOCK_HEADER_COUNT - DOCK_CRC_COUNT);
    if (dock_crc32c(body, (uint16_t)(count - DOCK_CRC_COUNT)) != get32(body + count - DOCK_CRC_COUNT)) {
        status.result = DOCK_RUN_CHECKSUM_MISMATCH;
        return status;
    }
    status.type = body[0];
    status.seq = get16(body + 1);
    m->type = status.type;
    m->seq = status.seq;
    if (!dock_type_is_known(status.type)) {
        status.result = DOCK_RUN_UNKNOWN_TYPE;
        return status;
    }
    const uint8_t *p = body + DOCK_HEADER_COUNT;
    int16_t expected = dock_payload_length(status.type);
    status.expected_length = expected < 0 ? 0 : (uint8_t)expected;
    if (status.type == DOCK_INFO ? !read_info(p, payload_count, &m->u.info) : expected != (int16_t)payload_count) {
        status.result = DOCK_RUN_WRONG_PAYLOAD_LENGTH;
        return status;
    }
    switch (status.type) {
    case DOCK_HELLO:
        m->u.hello.min_version = p[0];
        m->u.hello.max_version = p[1];
        break;
    case DOCK_SET_VELOCITY:
        m->u.set_velocity.yaw_rate_urad_s = (int32_t)get32(p);
        m->u.set_velocity.pitch_rate_urad_s = (int32_t)get32(p + 4);
        m->u.set_velocity.ttl_ms = get16(p + 8);
        break;
    case DOCK_MOVE_TO:
        m->u.move_to.yaw_urad = (int32_t)get32(p);
        m->u.move_to.pitch_urad = (int32_t)get32(p + 4);
        m->u.move_to.pace = p[8];
        m->u.move_to.value = get32(p + 9);
        break;
    case DOCK_SET_INDICATOR:
        m->u.set_indicator.pattern = p[0];
        m->u.set_indicator.red = p[1];
        m->u.set_indicator.green = p[2];
        m->u.set_indicator.blue = p[3];
        break;
    case DOCK_ACK:
        m->u.ack.acked_seq = get16(p);
        m->u.ack.acked_type = p[2];
        m->u.ack.time_us = get64(p + 3);
        break;
    case DOCK_NACK:
        m->u.nack.refused_seq = get16(p);
        m->u.nack.refused_type = p[2];
        m->u.nack.reason = p[3];
        m->u.nack.detail = get16(p + 4);
        break;
    case DOCK_TELEMETRY:
        m->u.telemetry.time_us = get64(p);
        m->u.telemetry.yaw_urad = (int32_t)get32(p + 8);
        m->u.telemetry.pitch_urad = (int32_t)get32(p + 12);
        m->u.telemetry.yaw_rate_urad_s = (int32_t)get32(p + 16);
        m->u.telemetry.pitch_rate_urad_s = (int32_t)get32(p + 20);
        m->u.telemetry.flags = get16(p + 24);
        break;
    case DOCK_EVENT:
        m->u.event.time_us = get64(p);
        m->u.event.event = p[8];
        m->u.event.id = p[9];
        m->u.event.value = (int8_t)p[10];
        break;
    case DOCK_FAULT:
        m->u.fault.time_us = get64(p);
        m->u.fault.code = p[8];
        m->u.fault.axis = p[9];
        m->u.fault.active = p[10];
        break;
    default: /* heartbeat, stop, info (read above) */
        break;
    }
    status.field = dock_first_invalid_field(m);
    status.result = status.field ? DOCK_RUN_VALUE_OUT_OF_RANGE : DOCK_RUN_FRAME;
    return status;
}

static uint8_t *put_text(uint8_t *p, const dock_text *text) {
    p = put8(p, text->length);
    for (uint8_t i = 0; i < text->length; i++) *p++ = text->bytes[i];
    return p;
}

uint16_t dock_encode_body(const dock_message *m, uint8_t *body) {
    if (!dock_type_is_known(m->type) || dock_first_invalid_field(m) != 0) return 0;
    uint8_t *p = put16(put8(body, m->type), m->seq);
    switch (m->type) {
    case DOCK_HELLO:
        p = put8(put8(p, m->u.hello.min_version), m->u.hello.max_version);
        break;
    case DOCK_SET_VELOCITY:
        p = put32(p, (uint32_t)m->u.set_velocity.yaw_rate_urad_s);
        p = put32(p, (uint32_t)m->u.set_velocity.pitch_rate_urad_s);
        p = put16(p, m->u.set_velocity.ttl_ms);
        break;
    case DOCK_MOVE_TO:
        p = put32(p, (uint32_t)m->u.move_to.yaw_urad);
        p = put32(p, (uint32_t)m->u.move_to.pitch_urad);
        p = put32(put8(p, m->u.move_to.pace), m->u.move_to.value);
        break;
    case DOCK_SET_INDICATOR:
        p = put8(put8(put8(put8(p, m->u.set_indicator.pattern), m->u.set_indicator.red), m->u.set_indicator.green),
                 m->u.set_indicator.blue);
        break;
    case DOCK_INFO: {
        const dock_info *info = &m->u.info;
        p = put16(put8(put8(put8(p, info->protocol_version), info->features), info->telemetry_rate_hz),
                  info->failsafe_timeout_ms);
        const dock_axis_limits *axes[2] = {&info->yaw, &info->pitch};
        for (uint8_t i = 0; i < 2; i++) {
            p = put32(put32(p, (uint32_t)axes[i]->min_urad), (uint32_t)axes[i]->max_urad);
            p = put32(put32(p, axes[i]->max_speed_urad_s), axes[i]->max_accel_urad_s2);
        }
        p = put_text(put_text(put_text(p, &info->model), &info->firmware), &info->serial);
        break;
    }
    case DOCK_ACK:
        p = put64(put8(put16(p, m->u.ack.acked_seq), m->u.ack.acked_type), m->u.ack.time_us);
        break;
    case DOCK_NACK:
        p = put16(put8(put8(put16(p, m->u.nack.refused_seq), m->u.nack.refused_type), m->u.nack.reason),
                  m->u.nack.detail);
        break;
    case DOCK_TELEMETRY:
        p = put64(p, m->u.telemetry.time_us);
        p = put32(put32(p, (uint32_t)m->u.telemetry.yaw_urad), (uint32_t)m->u.telemetry.pitch_urad);
        p = put32(put32(p, (uint32_t)m->u.telemetry.yaw_rate_urad_s), (uint32_t)m->u.telemetry.pitch_rate_urad_s);
        p = put16(p, m->u.telemetry.flags);
        break;
    case DOCK_EVENT:
        p = put8(put8(put8(put64(p, m->u.event.time_us), m->u.event.event), m->u.event.id), (uint8_t)m->u.event.value);
        break;
    case DOCK_FAULT:
        p = put8(put8(put8(put64(p, m->u.fault.time_us), m->u.fault.code), m->u.fault.axis), m->u.fault.active);
        break;
    default: /* heartbeat, stop */
        break;
    }
    uint16_t count = (uint16_t)(p - body);
    put32(p, dock_crc32c(body, count));
    return (uint16_t)(count + DOCK_CRC_COUNT);
}

uint16_t dock_encode_frame(const dock_message *m, uint8_t *scratch_body, dock_byte_sink sink, void *context) {
    uint16_t count = dock_encode_body(m, scratch_body);
    if (count == 0) return 0;
    sink(context, 0);
    uint16_t written = dock_cobs_encode(scratch_body, count, sink, context);
    sink(context, 0);
    return (uint16_t)(written + 2);
}
