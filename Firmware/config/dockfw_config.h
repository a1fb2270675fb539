/* What this dock is: its identity, its limits (what it advertises in info), the servo
 * calibration and the pins. A builder changes this file (or passes -D flags) for other servos,
 * other mounts or other boards; Firmware/README.md says how to measure the numbers. */
#ifndef DOCKFW_CONFIG_H
#define DOCKFW_CONFIG_H

#define DOCKFW_MODEL "DIY Servo Dock"
#define DOCKFW_VERSION "dockfw 1.0.0"
#ifndef DOCKFW_SERIAL
#define DOCKFW_SERIAL "DIY-0001" /* make SERIAL=... ; SHOULD be unique per unit */
#endif

#define DOCKFW_TELEMETRY_RATE_HZ 50    /* the servos' own frame rate */
#define DOCKFW_FAILSAFE_TIMEOUT_MS 500

/* Range, speed and acceleration of each axis, as advertised in info. The speed is what the
 * firmware slews the servo command at: well below an SG90's no-load 0.1 s/60° (10.5 rad/s) so a
 * loaded servo keeps up and the estimated pose stays honest. */
#define DOCKFW_YAW_MIN_URAD (-1047198L)  /* −60° */
#define DOCKFW_YAW_MAX_URAD 1047198L     /* +60° */
#define DOCKFW_PITCH_MIN_URAD (-523599L) /* −30° */
#define DOCKFW_PITCH_MAX_URAD 785398L    /* +45° */
#define DOCKFW_MAX_SPEED_URAD_S 2000000UL    /* 2 rad/s, both axes */
#define DOCKFW_MAX_ACCEL_URAD_S2 20000000UL  /* 20 rad/s², both axes */

/* Servo calibration, µs: the pulse at home, the change per quarter turn (negative reverses the
 * servo), and the pulse limits the servo must never be driven past. With these defaults a
 * longer pulse means yaw to the right and pitch up: 10 µs per degree, yaw ±60° = 900–2100 µs. */
#define DOCKFW_YAW_HOME_US 1500
#define DOCKFW_YAW_PER_QUARTER_TURN_US 900
#define DOCKFW_PITCH_HOME_US 1500
#define DOCKFW_PITCH_PER_QUARTER_TURN_US 900
#define DOCKFW_SERVO_MIN_US 500
#define DOCKFW_SERVO_MAX_US 2500

#endif
