/* SPDX-License-Identifier: ISC */
/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): a bit-by-bit and a table-driven
 * implementation must agree with each other and with the known check values:
 * "123456789" -> 0xCBF43926, and a 16 KiB pseudo-random buffer -> CRC_BIG_EXPECTED
 * (computed independently on the host with zlib's crc32). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rvmesh_rt.h"

#define BIG_BYTES 16384u
#define CRC_CHECK_EXPECTED 0xCBF43926u
#define CRC_BIG_EXPECTED 0x71B3A959u

static uint8_t big_buffer[BIG_BYTES];
static uint32_t crc_table[256];

static uint32_t crc32_bitwise(const uint8_t *data, uint32_t length)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < length; i++) {
        crc ^= data[i];
        for (int bit = 0; bit < 8; bit++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void crc32_make_table(void)
{
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++)
            crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
        crc_table[byte] = crc;
    }
}

static uint32_t crc32_table_update(uint32_t crc, const uint8_t *data, uint32_t length)
{
    crc = ~crc;
    for (uint32_t i = 0; i < length; i++)
        crc = crc_table[(crc ^ data[i]) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

/* The buffer: bytes of a 32-bit xorshift generator seeded with 0x12345678 (the host
 * reference uses the same generator). */
static void fill_buffer(void)
{
    uint32_t state = 0x12345678u;
    for (uint32_t i = 0; i < BIG_BYTES; i++) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        big_buffer[i] = (uint8_t)(state >> 24);
    }
}

int main(void)
{
    uint64_t cycles_start = rvmesh_cycles();
    uint64_t instret_start = rvmesh_instret();
    int failures = 0;
    const char *check_string = "123456789";
    uint32_t check_length = (uint32_t)strlen(check_string);

    crc32_make_table();
    uint32_t check_bitwise = crc32_bitwise((const uint8_t *)check_string, check_length);
    uint32_t check_table = crc32_table_update(0, (const uint8_t *)check_string, check_length);
    if (check_bitwise != CRC_CHECK_EXPECTED || check_table != CRC_CHECK_EXPECTED) {
        printf("crc32: FAIL \"123456789\": bitwise 0x%08lx table 0x%08lx expected 0x%08lx\n",
               (unsigned long)check_bitwise, (unsigned long)check_table,
               (unsigned long)CRC_CHECK_EXPECTED);
        failures++;
    }

    fill_buffer();
    uint32_t big_bitwise = crc32_bitwise(big_buffer, BIG_BYTES);
    uint32_t big_table = crc32_table_update(0, big_buffer, BIG_BYTES);
    /* the same buffer in uneven pieces through the incremental interface */
    uint32_t big_pieces = 0;
    uint32_t offset = 0, piece = 1;
    while (offset < BIG_BYTES) {
        uint32_t length = piece < BIG_BYTES - offset ? piece : BIG_BYTES - offset;
        big_pieces = crc32_table_update(big_pieces, big_buffer + offset, length);
        offset += length;
        piece = piece * 3 + 1;
    }
    if (big_bitwise != CRC_BIG_EXPECTED || big_table != CRC_BIG_EXPECTED ||
        big_pieces != CRC_BIG_EXPECTED) {
        printf("crc32: FAIL %u-byte buffer: bitwise 0x%08lx table 0x%08lx pieces 0x%08lx "
               "expected 0x%08lx\n", (unsigned)BIG_BYTES, (unsigned long)big_bitwise,
               (unsigned long)big_table, (unsigned long)big_pieces,
               (unsigned long)CRC_BIG_EXPECTED);
        failures++;
    }

    uint64_t cycles = rvmesh_cycles() - cycles_start;
    uint64_t instret = rvmesh_instret() - instret_start;
    printf("crc32: check 0x%08lx, %u-byte buffer 0x%08lx: %s; cycles %lu instret %lu\n",
           (unsigned long)check_table, (unsigned)BIG_BYTES, (unsigned long)big_table,
           failures ? "FAIL" : "ok", (unsigned long)cycles, (unsigned long)instret);
    return failures;
}
