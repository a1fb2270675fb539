/* CRC-32C (Castagnoli), as Protocol/dock-serial.md section 3.2 defines it. */
#ifndef DOCK_CRC32C_H
#define DOCK_CRC32C_H

#include <stdint.h>

/* The CRC-32C of `count` bytes; check value 0xE3069283 for the ASCII bytes "123456789". */
uint32_t dock_crc32c(const uint8_t *bytes, uint16_t count);

#endif
