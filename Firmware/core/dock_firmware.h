/* The accessory side of Protocol/dock-serial.md for a servo dock: session, answers, failsafe,
 * velocity time-to-live, motion profiles integrated into servo targets, telemetry, the tracking
 * button and the indicator. Portable: the board feeds it bytes, the time and the button level,
 * and reads back the servo targets and the LED. No heap; integers in every millisecond's step, and
 * single-precision floating point only where a square root or a ratio is needed (planning a move,
 * braking before a stopping point, the servo pulse). */
#ifndef DOCK_FIRMWARE_H
#define DOCK_FIRMWARE_H

#include "dock_receiver.h"

/* The largest body this accessory sends: info with three 32-byte texts. */
#define DOCK_FIRMWARE_MAX_BODY (DOCK_HEADER_COUNT + DOCK_INFO_FIXED_COUNT + 3 * (1 + DOCK_MAX_TEXT) + DOCK_CRC_COUNT)
/* How long the button must read the same before a change counts (debouncing), ms; the
 * specification allows at most 50 (section 7). */
#define DOCK_BUTTON_DEBOUNCE_MS 20
/* Speeds below this count as standing still in telemetry's *_moving flags, µrad/s. */
#define DOCK_MOVING_THRESHOLD_URAD_S 1000
/* A move ends when the axis is this close to its target and slower than one millisecond's change
 * of rate at its acceleration: the last step then stays within the acceleration. */
#define DOCK_MOVE_SNAP_URAD 5

enum dock_motion { DOCK_MOTION_IDLE, DOCK_MOTION_VELOCITY, DOCK_MOTION_MOVE };

/* One axis's estimated state: the servo is assumed to follow the profile exactly (a hobby
 * servo reports nothing back), so this is the commanded pose, reported as the measured one. */
typedef struct {
    int32_t position_urad;
    int32_t rate_urad_s;
    int16_t remainder_nrad;  /* half-nanoradians not yet added to position_urad, |·| < 2000 */
    int32_t command_urad_s;  /* DOCK_MOTION_VELOCITY: the rate asked for */
    int32_t target_urad;     /* DOCK_MOTION_MOVE: where to go */
    uint32_t speed_urad_s;   /* DOCK_MOTION_MOVE: cruising at up to this speed */
    /* The change of rate in one millisecond at the axis's acceleration (µrad/s), from the limits. */
    uint32_t accel_step_urad_s;
    /* How far before a stopping point braking may have to begin, from the fastest the axis turns
     * under the current command (µrad): nearer than that, each step checks its braking rate. */
    uint32_t braking_zone_urad;
    /* A millisecond at a steady rate, worked out once per rate: `cruise_rate_urad_s` moves the
     * axis by `cruise_whole_urad` and `cruise_rest` half-nanoradians. */
    int32_t cruise_rate_urad_s;
    int16_t cruise_whole_urad;
    int16_t cruise_rest;
} dock_axis_state;

typedef struct {
    const dock_info *info; /* identity and limits; protocol_version is set per session */
    dock_byte_sink sink;   /* where outgoing frames go, byte by byte */
    void *context;
    dock_receiver receiver;
    uint8_t body[DOCK_FIRMWARE_MAX_BODY];
    /* Time. The motion, failsafe, time-to-live, telemetry, button and indicator are stepped in
     * whole milliseconds; only clock_us (the wire's time) is 64-bit, and it is only ever added to,
     * so a step costs no 64-bit multiplication or division on an 8-bit part. */
    uint64_t clock_us;            /* how far the steps have come (whole ms) */
    uint32_t telemetry_period_us;
    uint32_t telemetry_elapsed_us; /* since the last telemetry (or the session's start) */
    uint16_t host_silence_ms;      /* steps since the last host frame, saturating */
    uint16_t velocity_left_ms;     /* DOCK_MOTION_VELOCITY: steps left of its time-to-live */
    uint16_t indicator_ms;         /* steps into the pattern's cycle */
    uint16_t seq;
    uint8_t is_ready;
    uint8_t version;
    uint8_t motion; /* enum dock_motion */
    uint8_t is_failsafe_stopped;
    uint8_t indicator_pattern; /* enum dock_pattern; off when the colour is black */
    uint8_t is_led_on;
    uint8_t button_level;       /* raw level, 1 = pressed */
    uint8_t button_state;       /* debounced */
    uint8_t button_reported;    /* the state the host was last told of; released when a session opens */
    uint8_t button_stable_ms;
    dock_axis_state yaw;
    dock_axis_state pitch;
    uint16_t good_frames;
    uint16_t bad_runs;
} dock_firmware;

/* Starts the accessory as after power-on at `now_us`: not ready, both axes at home; its clock
 * steps in whole milliseconds from `now_us` on. */
void dock_firmware_init(dock_firmware *fw, const dock_info *info, dock_byte_sink sink, void *context, uint64_t now_us);

/* Takes one byte from the host, which arrived by `now_us`. A byte that completes a frame first
 * steps the clock to `now_us` (as dock_firmware_advance) and then answers the frame through the
 * sink; any other byte is only stored, so a board may feed every byte it has waiting before it
 * does the clock work of its pass. */
void dock_firmware_receive(dock_firmware *fw, uint8_t byte, uint64_t now_us);

/* Steps motion, failsafe, time-to-live, button and indicator to `now_us` in 1 ms steps, sending
 * telemetry, events and faults that fall due. Cheap when no millisecond has passed. */
void dock_firmware_advance(dock_firmware *fw, uint64_t now_us);

/* The raw level of the tracking button (true = pressed), read by the board; debounced here. */
void dock_firmware_set_button(dock_firmware *fw, bool is_pressed);

/* How a servo maps angle to pulse: the pulse at home, the change per quarter turn (negative to
 * reverse the servo), and the hard pulse limits, all in µs. */
typedef struct {
    int16_t home_us;
    int16_t per_quarter_turn_us;
    int16_t min_us;
    int16_t max_us;
} dock_servo_calibration;

/* The pulse for `angle_urad`, in half microseconds (Timer1 ticks at 2 MHz), within the limits. */
uint16_t dock_servo_pulse_half_us(const dock_servo_calibration *calibration, int32_t angle_urad);

#endif
