/* COBS (Consistent Overhead Byte Stuffing), Protocol/dock-serial.md section 3.3. */
#ifndef DOCK_COBS_H
#define DOCK_COBS_H

#include <stdbool.h>
#include <stdint.h>

/* Where encoded bytes go, one at a time: a UART's transmit queue, or an array in a test. */
typedef void (*dock_byte_sink)(void *context, uint8_t byte);

/* Writes COBS(bytes) to `sink` without delimiters and without an output buffer: each block's
 * length is found by looking ahead in the input. Returns the number of bytes written. */
uint16_t dock_cobs_encode(const uint8_t *bytes, uint16_t count, dock_byte_sink sink, void *context);

/* Decodes a run (the bytes between two delimiters, none of them 0x00) in place: the decoded body
 * is never longer than the run and is written from its start. Returns false when a code byte
 * points past the end of the run (the spec's `truncated`), else true with `*decoded_count` set. */
bool dock_cobs_decode_in_place(uint8_t *run, uint16_t count, uint16_t *decoded_count);

#endif
