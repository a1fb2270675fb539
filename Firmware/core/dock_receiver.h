/* The receiving side of section 3.4: bytes in, one result per run out. Holds at most 248 bytes. */
#ifndef DOCK_RECEIVER_H
#define DOCK_RECEIVER_H

#include "dock_codec.h"

typedef struct {
    uint8_t run[DOCK_MAX_STUFFED];
    uint8_t count;
    bool discarding; /* an oversize run was reported; dropping bytes up to the next 00 */
} dock_receiver;

/* Forgets any partly received run (power-on, or the line was reset). */
void dock_receiver_reset(dock_receiver *receiver);

/* Feeds one byte. Returns true when the byte completed a run, with the outcome in `*status` and,
 * for a good frame, the message in `*message` (its texts point into the receiver's buffer and
 * stay valid until the next byte). Returns false when more bytes are needed. */
bool dock_receiver_feed(dock_receiver *receiver, uint8_t byte, dock_message *message, dock_decode_status *status);

#endif
