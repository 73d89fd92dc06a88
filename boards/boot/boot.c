/* SPDX-License-Identifier: ISC */
/* The board boot ROM (node code, in the tile's boot ROM at BOARD_BOOT_BASE): reads the
 * firmware image (board_image.h) from the SPI flash at BOOT_FLASH_OFFSET, checks it, loads
 * its records into RAM, sets the node's identity (coordinates, shape, index, tohost) in
 * the board registers and jumps to the firmware's entry with BOARD_ID_VALUE in mscratch
 * (so that firmware knows it runs on a board). A refused image stops here with
 * a message on the console (UART) and BOOT_STATUS = 0x100 + error, which the board's red
 * LED blinks. Built by boards/boards.mk with BOOT_FLASH_OFFSET, BOOT_FLASH_SLOT,
 * BOOT_RAM_BASE and BOOT_RAM_BYTES from config.mk. */
#include <stdint.h>

#include "board_image.h"
#include "board_regs.h"

#define CONSOLE ((volatile uint8_t *)0x10000000u)
#define NI_PORTS ((volatile uint32_t *)0x20000010u)   /* the NI's PORTS register */

static void put_char(char c)
{
    *CONSOLE = (uint8_t)c;   /* waits while the UART is busy */
}

static void put_str(const char *s)
{
    while (*s)
        put_char(*s++);
}

static void put_hex(uint32_t v)
{
    put_str("0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        put_char("0123456789abcdef"[(v >> shift) & 15u]);
}

static void put_dec(uint32_t v)
{
    char digits[10];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        put_char(digits[--n]);
}

static uint32_t spi(uint32_t byte)
{
    *board_reg(BOARD_SPI_DATA) = byte & 0xffu;
    return *board_reg(BOARD_SPI_DATA);
}

static void flash_select(uint32_t on)
{
    *board_reg(BOARD_SPI_CS) = on;
}

/* the next word (little-endian) of the open flash read; board_io folds every byte into the
 * running CRC (BOARD_SPI_CRC) itself */
static uint32_t next_word(void)
{
    uint32_t w = 0;
    for (int i = 0; i < 32; i += 8)
        w |= spi(0) << i;
    return w;
}

static void crc_start(void)
{
    *board_reg(BOARD_SPI_CRC) = 0xffffffffu;
}

static uint32_t crc_now(void)
{
    return *board_reg(BOARD_SPI_CRC) ^ 0xffffffffu;
}

static void put_shape(uint32_t value, uint32_t dims, char sep)
{
    for (uint32_t d = 0; d < dims; d++) {
        if (d)
            put_char(sep);
        put_dec((value >> (8 * d)) & 0xffu);
    }
}

/* "rvmesh boot: error N: text A B" on the console, BOOT_STATUS = 0x100 + N (the red LED
 * blinks N times), and stop */
__attribute__((noreturn)) static void fail(uint32_t n, const char *text, uint32_t a, uint32_t b)
{
    flash_select(0);
    put_str("rvmesh boot: error ");
    put_dec(n);
    put_str(": ");
    put_str(text);
    put_hex(a);
    put_char(' ');
    put_hex(b);
    put_str("\r\n");
    *board_reg(BOARD_BOOT_STATUS) = BOARD_STATUS_ERROR(n);
    for (;;)
        ;
}

__attribute__((noreturn)) void boot_main(void)
{
    put_str("\r\nrvmesh boot\r\n");

    /* wake the flash from deep power-down, then read its JEDEC id */
    flash_select(1);
    spi(0xab);
    flash_select(0);
    for (volatile int i = 0; i < 64; i++)
        ;
    flash_select(1);
    spi(0x9f);
    uint32_t id = spi(0) << 16;
    id |= spi(0) << 8;
    id |= spi(0);
    flash_select(0);
    if (id == 0 || id == 0xffffffu) {
        fail(BOARD_BOOT_NO_FLASH, "no flash, JEDEC id ", id, 0);
    }

    /* read the header */
    flash_select(1);
    spi(0x03);
    spi(BOOT_FLASH_OFFSET >> 16);
    spi(BOOT_FLASH_OFFSET >> 8);
    spi(BOOT_FLASH_OFFSET);
    union {
        uint32_t word[16];
        struct board_image_header header;
    } in;
    crc_start();
    uint32_t hcrc = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 15)
            hcrc = crc_now();   /* the CRC covers bytes 0..59 */
        in.word[i] = next_word();
    }
    const struct board_image_header *h = &in.header;
    if (h->magic != BOARD_IMAGE_MAGIC) {
        fail(BOARD_BOOT_NO_IMAGE, "no image, magic ", h->magic, 0);
    }
    if (h->version != BOARD_IMAGE_VERSION || h->header_bytes != BOARD_IMAGE_HEADER_BYTES) {
        fail(BOARD_BOOT_VERSION, "image version, header bytes ", h->version, h->header_bytes);
    }
    if (hcrc != h->header_crc) {
        fail(BOARD_BOOT_HEADER_CRC, "header CRC ", hcrc, h->header_crc);
    }
    if (h->image_bytes > BOOT_FLASH_SLOT || h->image_bytes < BOARD_IMAGE_HEADER_BYTES) {
        fail(BOARD_BOOT_TOO_BIG, "image bytes, slot ", h->image_bytes, BOOT_FLASH_SLOT);
    }
    const uint32_t ram_end = BOOT_RAM_BASE + BOOT_RAM_BYTES - BOARD_BOOT_STACK;
    if (h->ram_base != BOOT_RAM_BASE || h->ram_bytes != BOOT_RAM_BYTES ||
        h->entry < BOOT_RAM_BASE || h->entry >= ram_end) {
        fail(BOARD_BOOT_OUTSIDE_RAM, "image RAM bytes, entry ", h->ram_bytes, h->entry);
    }
    uint32_t dims = (h->shape >> 24) & 0xfu;
    uint32_t ports = *NI_PORTS & 0xffu;
    uint32_t index = 0, count = 1, ok = dims * 2 == ports;
    for (int d = (int)dims - 1; d >= 0; d--) {
        uint32_t size = (h->shape >> (8 * d)) & 0xffu, at = (h->coord >> (8 * d)) & 0xffu;
        ok &= size >= 1 && at < size;
        index = index * size + at;
        count *= size;
    }
    if (!ok) {
        fail(BOARD_BOOT_SHAPE, "node, shape ", h->coord, h->shape);
    }

    /* the records, straight into RAM */
    crc_start();
    uint32_t left = h->image_bytes - BOARD_IMAGE_HEADER_BYTES;
    for (uint32_t r = 0; r < h->records; r++) {
        if (left < 8)
            goto too_big;
        uint32_t addr = next_word(), bytes = next_word();
        uint32_t padded = (bytes + 3u) & ~3u;
        left -= 8;
        if (padded > left || padded < bytes)
            goto too_big;
        if (addr < BOOT_RAM_BASE || addr > ram_end || padded > ram_end - addr || (addr & 3u)) {
            fail(BOARD_BOOT_OUTSIDE_RAM, "record address, bytes ", addr, bytes);
        }
        volatile uint32_t *to = (volatile uint32_t *)addr;
        for (uint32_t i = 0; i < padded; i += 4)
            *to++ = next_word();
        left -= padded;
    }
    if (left != 0) {
too_big:
        fail(BOARD_BOOT_TOO_BIG, "records overrun the image, bytes left ", left, 0);
    }
    uint32_t crc = crc_now();
    flash_select(0);
    if (crc != h->payload_crc) {
        fail(BOARD_BOOT_PAYLOAD_CRC, "payload CRC ", crc, h->payload_crc);
    }

    *board_reg(BOARD_NODE_COORD) = h->coord & 0xffffffu;
    *board_reg(BOARD_NODE_SHAPE) = h->shape & 0x10ffffffu;
    *board_reg(BOARD_NODE_INDEX) = (count << 16) | index;
    *board_reg(BOARD_TOHOST) = h->tohost;
    put_str("rvmesh boot: node ");
    put_shape(h->coord, dims, ',');
    put_str(" of ");
    put_shape(h->shape, dims, 'x');
    put_str((h->shape >> 28) & 1u ? " torus, " : " mesh, ");
    put_dec(h->image_bytes);
    put_str(" B, entry ");
    put_hex(h->entry);
    put_str("\r\n");
    *board_reg(BOARD_BOOT_STATUS) = BOARD_STATUS_RUNNING;
    /* tell the firmware it runs on a board (the kit's rvm_init then waits for every board:
     * firmware/coll/coll_app.c); mscratch is 0 after reset */
    __asm__ volatile("csrw mscratch, %0" : : "r"(BOARD_ID_VALUE));
    ((void (*)(void))h->entry)();
    for (;;)
        ;
}
