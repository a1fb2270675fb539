#include "dock_receiver.h"

void dock_receiver_reset(dock_receiver *receiver) {
    receiver->count = 0;
    receiver->discarding = false;
}

bool dock_receiver_feed(dock_receiver *receiver, uint8_t byte, dock_message *message, dock_decode_status *status) {
    if (receiver->discarding) {
        if (byte == 0) receiver->discarding = false;
        return false;
    }
    if (byte != 0) {
        if (receiver->count >= DOCK_MAX_STUFFED) {
            receiver->count = 0;
            receiver->discarding = true;
            *status = (dock_decode_status){DOCK_RUN_OVERSIZE, 0, 0, 0, 0};
            return true;
        }
        receiver->run[receiver->count++] = byte;
        return false;
    }
    if (receiver->count == 0) return false; /* an empty run: 00 00 */
    uint16_t body_count = 0;
    uint8_t run_count = receiver->count;
    receiver->count = 0;
    if (!dock_cobs_decode_in_place(receiver->run, run_count, &body_count)) {
        *status = (dock_decode_status){DOCK_RUN_TRUNCATED, 0, 0, 0, 0};
        return true;
    }
    *status = dock_decode_body(receiver->run, body_count, message);
    return true;
}
