#include "dock_cobs.h"

uint16_t dock_cobs_encode(const uint8_t *bytes, uint16_t count, dock_byte_sink sink, void *context) {
    uint16_t written = 0;
    uint16_t start = 0;
    for (;;) {
        /* One block: up to 254 non-zero bytes, ended by a zero, the end, or the 254th byte. */
        uint16_t length = 0;
        while (start + length < count && bytes[start + length] != 0 && length < 254) length++;
        sink(context, (uint8_t)(length + 1));
        for (uint16_t index = 0; index < length; index++) sink(context, bytes[start + index]);
        written += length + 1;
        start += length;
        if (length == 254) continue; /* a full block ends no piece: the next block follows */
        if (start == count) break;
        start++; /* the zero that ended this block */
    }
    return written;
}

bool dock_cobs_decode_in_place(uint8_t *run, uint16_t count, uint16_t *decoded_count) {
    uint16_t read = 0;
    uint16_t write = 0;
    while (read < count) {
        uint8_t code = run[read++];
        if (code == 0) return false;
        uint16_t length = (uint16_t)(code - 1);
        if (read + length > count) return false;
        /* write <= read - 1 always, so copying forwards never overwrites unread bytes. */
        for (uint16_t index = 0; index < length; index++) run[write++] = run[read++];
        if (code != 0xFF && read < count) run[write++] = 0;
    }
    *decoded_count = write;
    return true;
}
