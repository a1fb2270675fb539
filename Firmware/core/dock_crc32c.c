#include "dock_crc32c.h"

/* On an AVR a constant table lives in RAM unless it is put in flash and read from there. */
#ifdef __AVR__
#include <avr/pgmspace.h>
#define TABLE_IN_FLASH PROGMEM
#define TABLE_ENTRY(table, index) pgm_read_dword(&(table)[index])
#else
#define TABLE_IN_FLASH
#define TABLE_ENTRY(table, index) ((table)[index])
#endif

/* A nibble at a time with a 16-entry table: four times faster than bit by bit on an 8-bit part,
 * for 64 bytes of table, kept in flash (a whole-byte table would take 1 KiB). */
static const uint32_t nibble_table[16] TABLE_IN_FLASH = {
    0x00000000, 0x105EC76F, 0x20BD8EDE, 0x30E349B1, 0x417B1DBC, 0x5125DAD3, 0x61C69362, 0x7198540D,
    0x82F63B78, 0x92A8FC17, 0xA24BB5A6, 0xB21572C9, 0xC38D26C4, 0xD3D3E1AB, 0xE330A81A, 0xF36E6F75,
};

uint32_t dock_crc32c(const uint8_t *bytes, uint16_t count) {
    uint32_t crc = 0xFFFFFFFFu;
    while (count--) {
        crc ^= *bytes++;
        crc = (crc >> 4) ^ TABLE_ENTRY(nibble_table, crc & 0x0F);
        crc = (crc >> 4) ^ TABLE_ENTRY(nibble_table, crc & 0x0F);
    }
    return crc ^ 0xFFFFFFFFu;
}
