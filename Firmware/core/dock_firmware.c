#include "dock_firmware.h"

#include <math.h>

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

static void init_axis(dock_axis_state *axis, const dock_axis_limits *limits) {
    uint32_t step = limits->max_accel_urad_s2 / 1000;
    axis->accel_step_urad_s = step < 1 ? 1 : step;
}

void dock_firmware_init(dock_firmware *fw, const dock_info *info, dock_byte_sink sink, void *context, uint64_t now_us) {
    *fw = (dock_firmware){0};
    fw->info = info;
    fw->sink = sink;
    fw->context = context;
    dock_receiver_reset(&fw->receiver);
    fw->clock_us = now_us;
    fw->telemetry_period_us = 1000000UL / info->telemetry_rate_hz;
    init_axis(&fw->yaw, &info->yaw);
    init_axis(&fw->pitch, &info->pitch);
}

/* ---- Motion ---------------------------------------------------------------------------------- */

/* Section 5.4 of the specification: a move with a duration is planned, ramps included, to end
 * at its target after that long, and an axis brakes before an end of its range at its advertised
 * acceleration. The profile is integrated in 1 ms steps: the rate changes by at most one step of
 * acceleration (`accel_step_urad_s`, a/1000) per millisecond, and the position moves by the mean
 * of the rates at both ends of the millisecond — exact under constant acceleration. */

/* Velocity mode aims this far beyond an end of the range, so the axis reaches the end (at less
 * than one step of acceleration, which the end then takes away) instead of creeping towards it. */
#define END_OVERRUN_NRAD 1000.0f

/* The highest rate r ≥ 0 at which the axis may turn towards a stopping point `distance_nrad`
 * ahead during the next millisecond and still stop there, braking at `step` µrad/s per ms; `rate`
 * is its rate towards that point now. The millisecond travels (rate + r)/2 nrad and braking from r
 * then r²/(2·step) nrad and a little more, e ≤ min(step/8, r/2) (the last, partial, step), so
 * r² + step·r ≤ step·(2·distance − rate − 2e). Single-precision floating point: the root, to a few
 * parts in 10⁸, is only taken near a stopping point, and costs an 8-bit part less than 64-bit
 * integers would. */
static int32_t braking_rate(int32_t rate, uint32_t step, float distance_nrad) {
    float f_step = (float)step;
    float room = 2 * distance_nrad - (float)rate; /* 2·distance − rate */
    if (room <= 0) return 0;
    float fastest = (float)rate + f_step;
    if (fastest > 0 && fastest * (fastest + f_step) <= f_step * (room - f_step / 4)) return (int32_t)fastest;
    float r = room > f_step / 4 ? (sqrtf(f_step * f_step + 4 * f_step * (room - f_step / 4)) - f_step) / 2 : 0;
    /* Below step/4 the partial step's e ≤ r/2 is the smaller bound: r² + 2·step·r ≤ step·room. */
    if (r < f_step / 4) r = sqrtf(f_step * f_step + f_step * room) - f_step;
    return (int32_t)r;
}

/* Sets how far before a stopping point the axis may have to begin braking under a new command
 * that turns it at up to `speed`: v²/2a at the faster of that and its rate now, plus a millisecond
 * at that speed. Once per command, so that a step far from any stopping point costs a comparison. */
static void set_braking_zone(dock_axis_state *axis, uint32_t speed) {
    uint32_t now = (uint32_t)magnitude(axis->rate_urad_s);
    float v = (float)(speed > now ? speed : now);
    float zone = v * v / (2000.0f * (float)axis->accel_step_urad_s) + v / 1000 + 2;
    axis->braking_zone_urad = zone > 2e9f ? 2000000000UL : (uint32_t)zone;
}

/* `desired`, lowered if need be so that the axis can still stop at the stopping point ahead —
 * the move's `target` if there is one, else the end of the range it heads for. Apart from
 * step_axis, which calls it only near a stopping point, to keep the common step small. */
static int32_t __attribute__((noinline)) brake_for(const dock_axis_state *axis, int32_t desired, int32_t distance_urad, bool is_range_end) {
    bool is_up = desired > 0;
    int32_t rate = is_up ? axis->rate_urad_s : -axis->rate_urad_s;
    int16_t remainder = is_up ? axis->remainder_nrad : -axis->remainder_nrad;
    float distance_nrad = (float)distance_urad * 1000 - (float)remainder / 2;
    if (is_range_end) distance_nrad += END_OVERRUN_NRAD;
    int32_t cap = braking_rate(rate, axis->accel_step_urad_s, distance_nrad);
    if (is_up) return cap < desired ? cap : desired;
    return -cap > desired ? -cap : desired;
}

/* One millisecond of an axis: the rate goes toward `desired` by at most one step of
 * acceleration, but no faster toward the stopping point ahead — the move's `target` if there is
 * one, else the end of the range it heads for — than it can still stop there; the position follows,
 * and the range's ends hold it. */
static void step_axis(dock_axis_state *axis, const dock_axis_limits *limits, int32_t desired, const int32_t *target) {
    int32_t rate = axis->rate_urad_s;
    int32_t position = axis->position_urad;
    if (desired > 0) {
        if (position >= limits->max_urad) desired = 0; /* pushing against an end: it holds there */
        else {
            int32_t distance = (target ? *target : limits->max_urad) - position;
            if (distance < (int32_t)axis->braking_zone_urad) desired = brake_for(axis, desired, distance, !target);
        }
    } else if (desired < 0) {
        if (position <= limits->min_urad) desired = 0;
        else {
            int32_t distance = position - (target ? *target : limits->min_urad);
            if (distance < (int32_t)axis->braking_zone_urad) desired = brake_for(axis, desired, distance, !target);
        }
    }
    int32_t step = (int32_t)axis->accel_step_urad_s;
    int32_t next = desired > rate + step ? rate + step : desired < rate - step ? rate - step : desired;
    /* Half-nanoradians: rate µrad/s for 1 ms is rate nrad, and the mean of two rates is their sum
     * / 2. At a steady rate the division is done once. */
    int32_t travel;
    if (next == rate) {
        if (rate != axis->cruise_rate_urad_s) {
            axis->cruise_rate_urad_s = rate;
            axis->cruise_whole_urad = (int16_t)(2 * rate / 2000);
            axis->cruise_rest = (int16_t)(2 * rate - axis->cruise_whole_urad * 2000);
        }
        position += axis->cruise_whole_urad;
        travel = axis->remainder_nrad + axis->cruise_rest;
        if (travel >= 2000) { position++; travel -= 2000; }
        else if (travel <= -2000) { position--; travel += 2000; }
    } else {
        travel = rate + next + axis->remainder_nrad;
        if (travel >= 2000 || travel <= -2000) {
            int32_t whole = travel / 2000;
            position += whole;
            travel -= whole * 2000;
        }
    }
    if (position >= limits->max_urad) {
        position = limits->max_urad;
        if (next > 0) { next = 0; travel = 0; }
    } else if (position <= limits->min_urad) {
        position = limits->min_urad;
        if (next < 0) { next = 0; travel = 0; }
    }
    axis->position_urad = position;
    axis->remainder_nrad = (int16_t)travel;
    axis->rate_urad_s = next;
}

/* A move's axis that has arrived: within DOCK_MOVE_SNAP_URAD of its target, slower than one step
 * of acceleration, and either at rest (braking stops a little short, by the margin braking_rate
 * keeps) or about to cover the rest within a millisecond; it is put there and stopped. A slow
 * move so arrives when its plan says, not when it comes within the snap. */
static bool settle(dock_axis_state *axis) {
    uint32_t error = (uint32_t)magnitude(axis->target_urad - axis->position_urad);
    uint32_t rate = (uint32_t)magnitude(axis->rate_urad_s);
    if (error > DOCK_MOVE_SNAP_URAD || rate > axis->accel_step_urad_s) return false;
    if (rate != 0 && error * 1000 > rate) return false;
    axis->position_urad = axis->target_urad;
    axis->rate_urad_s = 0;
    axis->remainder_nrad = 0;
    return true;
}

static void stop_motion(dock_firmware *fw) { fw->motion = DOCK_MOTION_IDLE; }

/* The rate a move asks of an axis: toward its target at its cruising speed (step_axis brakes). */
static int32_t move_rate(const dock_axis_state *axis) {
    int32_t speed = (int32_t)axis->speed_urad_s;
    return axis->target_urad > axis->position_urad ? speed : axis->target_urad < axis->position_urad ? -speed : 0;
}

static void step_motion(dock_firmware *fw) {
    const dock_info *info = fw->info;
    int32_t yaw = 0, pitch = 0;
    if (fw->motion == DOCK_MOTION_VELOCITY) {
        if (fw->velocity_left_ms <= 1) stop_motion(fw);
        else {
            fw->velocity_left_ms--;
            yaw = fw->yaw.command_urad_s;
            pitch = fw->pitch.command_urad_s;
        }
    } else if (fw->motion == DOCK_MOTION_MOVE) {
        bool yaw_done = settle(&fw->yaw);
        bool pitch_done = settle(&fw->pitch);
        if (yaw_done && pitch_done) stop_motion(fw);
        else {
            if (!yaw_done) step_axis(&fw->yaw, &info->yaw, move_rate(&fw->yaw), &fw->yaw.target_urad);
            if (!pitch_done) step_axis(&fw->pitch, &info->pitch, move_rate(&fw->pitch), &fw->pitch.target_urad);
            return;
        }
    }
    if (yaw || fw->yaw.rate_urad_s) step_axis(&fw->yaw, &info->yaw, yaw, 0);
    if (pitch || fw->pitch.rate_urad_s) step_axis(&fw->pitch, &info->pitch, pitch, 0);
}

/* ---- Planning a move ------------------------------------------------------------------------- */

/* An axis relative to a target: how far it has to go (µrad) and its rate towards it (µrad/s,
 * negative when it turns away; at the target, any rate turns away). */
static void relative(const dock_axis_state *axis, int32_t target, uint32_t *distance, int32_t *toward) {
    int32_t error = target - axis->position_urad;
    *distance = (uint32_t)magnitude(error);
    *toward = error > 0 ? axis->rate_urad_s : error < 0 ? -axis->rate_urad_s : -magnitude(axis->rate_urad_s);
}

/* The shortest time, in ms, in which an axis `d` µrad from its target, turning towards it at `u`
 * µrad/s, can stop there at top speed `v` and acceleration `a`: accelerate (from u, turning round
 * if u < 0), cruise at v if there is room, brake. 0 when it cannot stop before the target at all
 * (it will overshoot and come back, as soon as it can). Planning a move happens once per move_to,
 * in single precision: a few parts in 10⁷ of its speed, far below a millisecond of its time. */
static uint32_t shortest_ms(uint32_t d, int32_t u, uint32_t v, uint32_t a) {
    float fd = (float)d, fu = (float)u, fv = (float)v, fa = (float)a;
    if (fu > 0 && fu * fu > 2 * fa * fd) return 0;
    float seconds;
    if (2 * fa * fd >= 2 * fv * fv - fu * fu) /* room to cruise: (v − u)/a + v/a + (d − (2v² − u²)/2a)/v */
        seconds = (2 * fv - fu) / fa + (fd - (2 * fv * fv - fu * fu) / (2 * fa)) / fv;
    else /* a peak of √(a·d + u²/2), reached and left at a */
        seconds = (2 * sqrtf(fa * fd + fu * fu / 2) - fu) / fa;
    float ms = seconds * 1000 + 0.5f;
    return ms < 0 ? 0 : ms > 4e9f ? 4000000000UL : (uint32_t)ms;
}

/* The cruising speed with which the same axis, accelerating or braking at `a` to it, cruising and
 * braking at `a`, stops at its target `t_ms` from now (t_ms no shorter than shortest_ms). Cruising at
 * c ≥ u covers d = c·t − c²/a + u·c/a − u²/2a, so c² − (a·t + u)·c + a·d + u²/2 = 0 (the smaller
 * root, in the form that keeps its precision); slowing to c < u covers d = u²/2a + c·t − u·c/a, so
 * c = (a·d − u²/2)/(a·t − u). */
static uint32_t cruise_speed(uint32_t d, int32_t u, uint32_t v, uint32_t a, uint32_t t_ms) {
    float fd = (float)d, fu = (float)u, fa = (float)a;
    float at_u = fa * (float)t_ms / 1000 + fu;
    float c = fa * fd + fu * fu / 2;
    float speed = -1;
    float discriminant = at_u * at_u - 4 * c;
    if (at_u > 0 && discriminant >= 0) {
        speed = 2 * c / (at_u + sqrtf(discriminant));
        if (speed < fu) speed = -1;
    }
    if (speed < 0 && at_u - 2 * fu > 0) speed = (fa * fd - fu * fu / 2) / (at_u - 2 * fu);
    if (speed < 0 || speed > (float)v) return v;
    return speed < 1 ? 1 : (uint32_t)(speed + 0.5f);
}

/* Sets both axes' targets and cruising speeds for a move_to. With a duration, both axes plan to
 * stop at their targets together after it, or as soon as the slower one can when it is too short. */
static void plan_move(dock_firmware *fw, const int32_t targets[2], uint8_t pace, uint32_t value) {
    dock_axis_state *axes[2] = {&fw->yaw, &fw->pitch};
    const dock_axis_limits *limits[2] = {&fw->info->yaw, &fw->info->pitch};
    uint32_t distance[2], shortest[2], t_ms = value;
    int32_t toward[2];
    for (uint8_t i = 0; i < 2; i++) {
        axes[i]->target_urad = targets[i];
        relative(axes[i], targets[i], &distance[i], &toward[i]);
        shortest[i] = shortest_ms(distance[i], toward[i], limits[i]->max_speed_urad_s, limits[i]->max_accel_urad_s2);
        if (pace == DOCK_PACE_DURATION && shortest[i] > t_ms) t_ms = shortest[i];
    }
    for (uint8_t i = 0; i < 2; i++) {
        uint32_t top = limits[i]->max_speed_urad_s;
        if (pace == DOCK_PACE_MAX_SPEED) axes[i]->speed_urad_s = value < top ? value : top;
        else if (shortest[i] == 0 || t_ms <= shortest[i]) axes[i]->speed_urad_s = top;
        else axes[i]->speed_urad_s = cruise_speed(distance[i], toward[i], top, limits[i]->max_accel_urad_s2, t_ms);
        set_braking_zone(axes[i], axes[i]->speed_urad_s);
    }
}

/* ---- Indicator and button -------------------------------------------------------------------- */

/* Section 7: each pattern starts its cycle when it is set, lit first (pulse: dark first). */
static void step_indicator(dock_firmware *fw) {
    uint16_t period;
    switch (fw->indicator_pattern) {
    case DOCK_PATTERN_SOLID: fw->is_led_on = 1; return;
    case DOCK_PATTERN_SLOW_BLINK: period = 1000; break;
    case DOCK_PATTERN_FAST_BLINK: period = 250; break;
    case DOCK_PATTERN_PULSE: period = 2000; break;
    default: fw->is_led_on = 0; return;
    }
    uint16_t ms = fw->indicator_ms + 1;
    if (ms >= period) ms = 0;
    fw->indicator_ms = ms;
    if (fw->indicator_pattern != DOCK_PATTERN_PULSE) {
        fw->is_led_on = ms < period / 2; /* a 50 % duty cycle */
        return;
    }
    /* A 2 s triangle of brightness, dark to full in 1 s and back, shown on the on/off LED as a
     * 100 Hz software PWM: 0–10 of each 10 ms lit, the level rising every 100 ms. */
    uint16_t level = (ms < 1000 ? ms : 2000 - ms) / 100;
    fw->is_led_on = ms % 10 < level;
}

/* Section 7: an event when a debounced change differs from what the host was last told in this
 * session; a session starts with the button released, so the release of a button held through
 * hello is not reported (its press was not). */
static void step_button(dock_firmware *fw) {
    if (fw->button_level == fw->button_state) {
        fw->button_stable_ms = 0;
        return;
    }
    if (++fw->button_stable_ms < DOCK_BUTTON_DEBOUNCE_MS) return;
    fw->button_stable_ms = 0;
    fw->button_state = fw->button_level;
    if (!fw->is_ready || fw->button_state == fw->button_reported) return;
    fw->button_reported = fw->button_state;
    send_button(fw, fw->button_state);
}

void dock_firmware_set_button(dock_firmware *fw, bool is_pressed) { fw->button_level = is_pressed ? 1 : 0; }

/* ---- Time ------------------------------------------------------------------------------------ */

/* One millisecond of everything that runs by itself. */
static void __attribute__((noinline)) step_millisecond(dock_firmware *fw) {
    fw->clock_us += 1000;
    if (fw->host_silence_ms != 0xFFFF) fw->host_silence_ms++;
    if (fw->is_ready && !fw->is_failsafe_stopped && fw->host_silence_ms > fw->info->failsafe_timeout_ms) {
        fw->is_failsafe_stopped = 1;
        stop_motion(fw);
        send_fault(fw, DOCK_FAULT_FAILSAFE_STOP, 1, fw->clock_us);
    }
    step_motion(fw);
    step_button(fw);
    if (fw->indicator_pattern != DOCK_PATTERN_OFF || fw->is_led_on) step_indicator(fw);
    fw->telemetry_elapsed_us += 1000;
    if (fw->telemetry_elapsed_us >= fw->telemetry_period_us) {
        fw->telemetry_elapsed_us -= fw->telemetry_period_us;
        if (fw->is_ready) send_telemetry(fw);
    }
}

void dock_firmware_advance(dock_firmware *fw, uint64_t now_us) {
    /* How far behind, from the low 32 bits: no 64-bit arithmetic on the way (most calls find
     * less than a millisecond to do). Only a time before the clock, or more than 35 minutes after
     * it, takes the 64-bit path. */
    uint32_t behind = (uint32_t)now_us - (uint32_t)fw->clock_us;
    if (behind >= 0x80000000u) {
        if (now_us < fw->clock_us) return;
        behind = 0x7FFFFFFFu; /* the rest at the next call */
    }
    while (behind >= 1000) {
        behind -= 1000;
        step_millisecond(fw);
    }
}

/* ---- Receiving ------------------------------------------------------------------------------- */

static void handshake(dock_firmware *fw, const dock_message *m) {
    uint8_t highest = m->u.hello.max_version < 1 ? m->u.hello.max_version : 1;
    uint8_t lowest = m->u.hello.min_version > 1 ? m->u.hello.min_version : 1;
    stop_motion(fw);
    fw->indicator_pattern = DOCK_PATTERN_OFF;
    fw->button_reported = 0; /* a session starts with the button released */
    if (highest < lowest) {
        /* No version in common: that hello still ends any session, as after power-on (the clock
         * and the sequence numbers go on). */
        fw->is_ready = 0;
        send_nack(fw, m->seq, DOCK_HELLO, DOCK_UNSUPPORTED_VERSION, 1 | 1 << 8);
        return;
    }
    fw->is_ready = 1;
    fw->version = highest;
    fw->telemetry_elapsed_us = 0; /* the first telemetry one period after info */
    send_info(fw);
}

static bool outside(int32_t value, int32_t low, int32_t high) { return value < low || value > high; }

/* Carries out a good host frame while ready; returns the refusal reason and detail, or 0. */
static uint8_t carry_out(dock_firmware *fw, const dock_message *m, uint16_t *detail) {
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
        fw->velocity_left_ms = m->u.set_velocity.ttl_ms;
        fw->motion = DOCK_MOTION_VELOCITY;
        set_braking_zone(&fw->yaw, (uint32_t)magnitude(yaw));
        set_braking_zone(&fw->pitch, (uint32_t)magnitude(pitch));
        return 0;
    }
    case DOCK_MOVE_TO: {
        int32_t yaw = m->u.move_to.yaw_urad, pitch = m->u.move_to.pitch_urad;
        if (outside(yaw, info->yaw.min_urad, info->yaw.max_urad)) { *detail = 1; return DOCK_OUT_OF_RANGE; }
        if (outside(pitch, info->pitch.min_urad, info->pitch.max_urad)) { *detail = 2; return DOCK_OUT_OF_RANGE; }
        int32_t targets[2] = {yaw, pitch};
        plan_move(fw, targets, m->u.move_to.pace, m->u.move_to.value);
        fw->motion = DOCK_MOTION_MOVE;
        return 0;
    }
    case DOCK_STOP:
        stop_motion(fw);
        return 0;
    case DOCK_SET_INDICATOR: {
        bool is_black = !m->u.set_indicator.red && !m->u.set_indicator.green && !m->u.set_indicator.blue;
        fw->indicator_pattern = is_black ? DOCK_PATTERN_OFF : m->u.set_indicator.pattern;
        fw->indicator_ms = 0;
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
        fw->host_silence_ms = 0;
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
            uint8_t reason = carry_out(fw, m, &detail);
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
    if (!dock_receiver_feed(&fw->receiver, byte, &m, &status)) return;
    /* Everything that fell due before the frame happens before it is answered. */
    dock_firmware_advance(fw, now_us);
    handle_run(fw, &m, &status, now_us);
}

/* ---- Servo ----------------------------------------------------------------------------------- */

uint16_t dock_servo_pulse_half_us(const dock_servo_calibration *c, int32_t angle_urad) {
    /* Single precision: a 24-bit mantissa is far finer than the 0.5 µs a pulse is set to. */
    int32_t offset = (int32_t)((float)angle_urad * (float)(2 * c->per_quarter_turn_us) / (float)QUARTER_TURN_URAD);
    int32_t half_us = 2 * (int32_t)c->home_us + offset;
    if (half_us < 2 * (int32_t)c->min_us) half_us = 2 * c->min_us;
    if (half_us > 2 * (int32_t)c->max_us) half_us = 2 * c->max_us;
    return (uint16_t)half_us;
}
