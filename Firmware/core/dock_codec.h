/* The messages of Protocol/dock-serial.md, version 1: frame bodies in and out, with every range
 * of section 6 checked. Portable C11; no heap, no floating point. */
#ifndef DOCK_CODEC_H
#define DOCK_CODEC_H

#include <stdbool.h>
#include <stdint.h>

#include "dock_cobs.h"

enum {
    DOCK_MAX_PAYLOAD = 240,
    DOCK_HEADER_COUNT = 3,
    DOCK_CRC_COUNT = 4,
    DOCK_MAX_BODY = 247,
    DOCK_MAX_STUFFED = 248,
    DOCK_MAX_TEXT = 32,
    DOCK_INFO_FIXED_COUNT = 37,
};

/* Message types (section 6). */
enum dock_type {
    DOCK_HELLO = 0x01,
    DOCK_HEARTBEAT = 0x02,
    DOCK_SET_VELOCITY = 0x03,
    DOCK_MOVE_TO = 0x04,
    DOCK_STOP = 0x05,
    DOCK_SET_INDICATOR = 0x06,
    DOCK_INFO = 0x81,
    DOCK_ACK = 0x82,
    DOCK_NACK = 0x83,
    DOCK_TELEMETRY = 0x84,
    DOCK_EVENT = 0x85,
    DOCK_FAULT = 0x86,
};

/* Refusal reasons (section 4). */
enum dock_reason {
    DOCK_UNKNOWN_MESSAGE = 1,
    DOCK_WRONG_LENGTH = 2,
    DOCK_OUT_OF_RANGE = 3,
    DOCK_NOT_READY = 4,
    DOCK_UNSUPPORTED_VERSION = 5,
    DOCK_FAULTED = 6,
};

/* What a receiver reports for a run (section 3.4); DOCK_RUN_FRAME is a good frame. */
enum dock_run_result {
    DOCK_RUN_FRAME = 0,
    DOCK_RUN_OVERSIZE,
    DOCK_RUN_TRUNCATED,
    DOCK_RUN_CHECKSUM_MISMATCH,
    DOCK_RUN_UNKNOWN_TYPE,
    DOCK_RUN_WRONG_PAYLOAD_LENGTH,
    DOCK_RUN_VALUE_OUT_OF_RANGE,
};

enum dock_pace { DOCK_PACE_DURATION = 0, DOCK_PACE_MAX_SPEED = 1 };
enum dock_pattern { DOCK_PATTERN_OFF, DOCK_PATTERN_SOLID, DOCK_PATTERN_SLOW_BLINK, DOCK_PATTERN_FAST_BLINK, DOCK_PATTERN_PULSE };

/* info features (bits) and telemetry flags (bits). */
enum {
    DOCK_FEATURE_TRACKING_BUTTON = 1u << 0,
    DOCK_FEATURE_SHUTTER_BUTTON = 1u << 1,
    DOCK_FEATURE_FLIP_BUTTON = 1u << 2,
    DOCK_FEATURE_ZOOM_CONTROL = 1u << 3,
    DOCK_FEATURE_COLOR_INDICATOR = 1u << 4,
    DOCK_FEATURE_DOCK_SENSOR = 1u << 5,
};
enum {
    DOCK_FLAG_YAW_MOVING = 1u << 0,
    DOCK_FLAG_PITCH_MOVING = 1u << 1,
    DOCK_FLAG_YAW_AT_LIMIT = 1u << 2,
    DOCK_FLAG_PITCH_AT_LIMIT = 1u << 3,
    DOCK_FLAG_YAW_STALLED = 1u << 4,
    DOCK_FLAG_PITCH_STALLED = 1u << 5,
    DOCK_FLAG_FAULTED = 1u << 6,
    DOCK_FLAG_FAILSAFE_STOPPED = 1u << 7,
    DOCK_FLAG_DOCKED = 1u << 8,
};

enum dock_event_kind { DOCK_EVENT_DOCK = 1, DOCK_EVENT_TRACKING_BUTTON, DOCK_EVENT_SHUTTER_BUTTON, DOCK_EVENT_FLIP_BUTTON, DOCK_EVENT_ZOOM, DOCK_EVENT_CUSTOM_BUTTON };
enum dock_fault_code { DOCK_FAULT_MOTOR_STALL = 1, DOCK_FAULT_OVER_TEMPERATURE, DOCK_FAULT_ENCODER_ERROR, DOCK_FAULT_SUPPLY_VOLTAGE, DOCK_FAULT_FAILSAFE_STOP };

/* A text field: `length` bytes of UTF-8 at `bytes` (not owned; a decoded text points into the
 * body it came from). */
typedef struct {
    uint8_t length;
    const uint8_t *bytes;
} dock_text;

typedef struct {
    int32_t min_urad;
    int32_t max_urad;
    uint32_t max_speed_urad_s;
    uint32_t max_accel_urad_s2;
} dock_axis_limits;

typedef struct {
    uint8_t protocol_version;
    uint8_t features;
    uint8_t telemetry_rate_hz;
    uint16_t failsafe_timeout_ms;
    dock_axis_limits yaw;
    dock_axis_limits pitch;
    dock_text model;
    dock_text firmware;
    dock_text serial;
} dock_info;

/* One message; `type` says which member of the union holds its fields. */
typedef struct {
    uint8_t type;
    uint16_t seq;
    union {
        struct { uint8_t min_version, max_version; } hello;
        struct { int32_t yaw_rate_urad_s, pitch_rate_urad_s; uint16_t ttl_ms; } set_velocity;
        struct { int32_t yaw_urad, pitch_urad; uint8_t pace; uint32_t value; } move_to;
        struct { uint8_t pattern, red, green, blue; } set_indicator;
        dock_info info;
        struct { uint16_t acked_seq; uint8_t acked_type; uint64_t time_us; } ack;
        struct { uint16_t refused_seq; uint8_t refused_type, reason; uint16_t detail; } nack;
        struct {
            uint64_t time_us;
            int32_t yaw_urad, pitch_urad, yaw_rate_urad_s, pitch_rate_urad_s;
            uint16_t flags;
        } telemetry;
        struct { uint64_t time_us; uint8_t event, id; int8_t value; } event;
        struct { uint64_t time_us; uint8_t code, axis, active; } fault;
    } u;
} dock_message;

/* What decoding a body gave: for DOCK_RUN_FRAME the message; for the errors that come after a
 * good CRC, the type byte and seq (which may be refused by seq), and for the payload errors the
 * number of the offending field in its table (section 6, 1 = first) or, for a wrong length, the
 * payload length the type expects (0 for info, whose length varies). */
typedef struct {
    uint8_t result; /* enum dock_run_result */
    uint8_t type;
    uint16_t seq;
    uint8_t field;
    uint8_t expected_length;
} dock_decode_status;

/* Whether `type` is a message of version 1, and whether it goes from host to accessory. */
bool dock_type_is_known(uint8_t type);
bool dock_type_is_host(uint8_t type);

/* The payload length of a fixed-length type, or -1 for info and unknown types. */
int16_t dock_payload_length(uint8_t type);

/* Decodes a de-stuffed body (header, payload, CRC) into `message`; text fields of info point into
 * `body`. Every check of section 3.4 after de-stuffing: length ≥ 7, CRC, type, payload length, ranges. */
dock_decode_status dock_decode_body(const uint8_t *body, uint16_t count, dock_message *message);

/* The first field of `message` that is out of range (1-based, in table order), or 0. */
uint8_t dock_first_invalid_field(const dock_message *message);

/* The field name the specification gives field `number` of `type` ("yaw_rate_urad_s"), for
 * tests and logs; `pace` picks the name of move_to's fourth field, `event_kind` that of event's. */
const char *dock_field_name(uint8_t type, uint8_t number, uint8_t pace, uint8_t event_kind);

/* The length a sender puts on the wire for `text`: all of it when it is at most 32 bytes, else
 * its longest prefix of at most 32 bytes that ends on a UTF-8 code point boundary (section 1). */
uint8_t dock_text_fit(const dock_text *text);

/* Writes the body of `message` (header, payload, CRC) to `body`, which holds DOCK_MAX_BODY bytes.
 * Returns its length, or 0 when a field is out of range (nothing valid is ever refused here). */
uint16_t dock_encode_body(const dock_message *message, uint8_t *body);

/* Writes a whole frame — 00, COBS(body), 00 — to `sink`; returns the bytes written, 0 if invalid. */
uint16_t dock_encode_frame(const dock_message *message, uint8_t *scratch_body, dock_byte_sink sink, void *context);

#endif
