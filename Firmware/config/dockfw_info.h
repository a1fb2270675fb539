/* The dock's info and servo calibrations, built from dockfw_config.h: one definition for the
 * board layer and the tests. Include it in one translation unit of a program. */
#ifndef DOCKFW_INFO_H
#define DOCKFW_INFO_H

#include "dock_firmware.h"
#include "dockfw_config.h"

static const char dockfw_model[] = DOCKFW_MODEL;
static const char dockfw_version[] = DOCKFW_VERSION;
static const char dockfw_serial[] = DOCKFW_SERIAL;

static const dock_info dockfw_info = {
    .protocol_version = 1, /* replaced by the version each session chooses */
    .features = DOCK_FEATURE_TRACKING_BUTTON,
    .telemetry_rate_hz = DOCKFW_TELEMETRY_RATE_HZ,
    .failsafe_timeout_ms = DOCKFW_FAILSAFE_TIMEOUT_MS,
    .yaw = {DOCKFW_YAW_MIN_URAD, DOCKFW_YAW_MAX_URAD, DOCKFW_MAX_SPEED_URAD_S, DOCKFW_MAX_ACCEL_URAD_S2},
    .pitch = {DOCKFW_PITCH_MIN_URAD, DOCKFW_PITCH_MAX_URAD, DOCKFW_MAX_SPEED_URAD_S, DOCKFW_MAX_ACCEL_URAD_S2},
    .model = {sizeof dockfw_model - 1, (const uint8_t *)dockfw_model},
    .firmware = {sizeof dockfw_version - 1, (const uint8_t *)dockfw_version},
    .serial = {sizeof dockfw_serial - 1, (const uint8_t *)dockfw_serial},
};

static const dock_servo_calibration dockfw_yaw_servo = {DOCKFW_YAW_HOME_US, DOCKFW_YAW_PER_QUARTER_TURN_US,
                                                        DOCKFW_SERVO_MIN_US, DOCKFW_SERVO_MAX_US};
static const dock_servo_calibration dockfw_pitch_servo = {DOCKFW_PITCH_HOME_US, DOCKFW_PITCH_PER_QUARTER_TURN_US,
                                                          DOCKFW_SERVO_MIN_US, DOCKFW_SERVO_MAX_US};

#endif
