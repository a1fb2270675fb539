/* libFuzzer target: arbitrary bytes from the host, one at a time, into the firmware core, with
 * the clock advancing by an amount the input chooses. Whatever arrives, the firmware sends only
 * well-formed frames (each decodes as a good frame of an accessory type), keeps both axes inside
 * their ranges and their speeds, and holds no more than 248 bytes of a frame in progress.
 *
 *   clang -fsanitize=fuzzer,address,undefined -Icore -Iconfig test/fuzz_firmware.c core/ *.c */
#include <stdlib.h>

#include "dock_firmware.h"
#include "dockfw_info.h"

static dock_receiver dock_side;
static int bad_output;

static void sink(void *context, uint8_t byte) {
    (void)context;
    dock_message m;
    dock_decode_status status;
    if (dock_receiver_feed(&dock_side, byte, &m, &status))
        if (status.result != DOCK_RUN_FRAME || dock_type_is_host(m.type)) bad_output = 1;
}

static void check_axis(const dock_axis_state *axis, const dock_axis_limits *limits) {
    if (axis->position_urad < limits->min_urad || axis->position_urad > limits->max_urad) abort();
    if ((uint32_t)(axis->rate_urad_s < 0 ? -axis->rate_urad_s : axis->rate_urad_s) > limits->max_speed_urad_s) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static dock_firmware fw;
    dock_receiver_reset(&dock_side);
    bad_output = 0;
    dock_firmware_init(&fw, &dockfw_info, sink, NULL, 0);
    uint64_t now = 0;
    for (size_t i = 0; i < size; i++) {
        /* A byte 0xA5 followed by another moves the clock by that many ms; every other byte goes
         * to the firmware (so frames of any shape, and silences of any length, are reachable). */
        if (data[i] == 0xA5 && i + 1 < size) {
            now += (uint64_t)data[++i] * 1000;
            dock_firmware_advance(&fw, now);
        } else {
            now += 87; /* a byte's time at 115200 baud */
            dock_firmware_receive(&fw, data[i], now);
        }
        if (fw.receiver.count > DOCK_MAX_STUFFED || bad_output) abort();
        check_axis(&fw.yaw, &fw.info->yaw);
        check_axis(&fw.pitch, &fw.info->pitch);
    }
    return 0;
}
