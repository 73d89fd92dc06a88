/* SPDX-License-Identifier: ISC */
/* The rvmesh board flash image: the one definition of its format, shared by the boot ROM
 * (boards/boot/boot.c, which checks and loads it) and the host tool that writes it
 * (boards/tools/board_image.c). boards/README.md describes it for users.
 *
 * An image sits at the board's flash offset (config.mk BOARD_FLASH_OFFSET, past the
 * bitstream) and must fit the flash slot (BOARD_FLASH_SLOT bytes). All fields are
 * little-endian. It is a 64-byte header followed by load records:
 *
 *   record:  uint32 address, uint32 bytes, then `bytes` bytes of contents, padded with
 *            zeros to a multiple of 4; the boot ROM copies the contents to RAM at address
 *
 * The boot ROM refuses an image (message on the UART, the red LED blinking the error
 * number, BOARD_BOOT_STATUS = 0x100 + number) when
 *   1 the flash does not answer (its JEDEC id reads 0x000000 or 0xffffff)
 *   2 the magic is not BOARD_IMAGE_MAGIC (no image written there)
 *   3 the version is not BOARD_IMAGE_VERSION or header_bytes is not 64
 *   4 the header's CRC-32 does not match
 *   5 image_bytes exceeds the slot, or the records run past image_bytes
 *   6 ram_base/ram_bytes differ from the bitstream's, a record lies outside the RAM or
 *     over the boot ROM's stack (the top BOARD_BOOT_STACK bytes), or the entry is
 *     outside the RAM
 *   7 the coordinates lie outside the shape, or the shape's dimensions differ from the
 *     bitstream's (the NI's PORTS register)
 *   8 the payload's CRC-32 does not match (a damaged or partly written image)
 * CRC-32 is the IEEE one (zlib's crc32: reflected polynomial 0xedb88320, initial and
 * final xor 0xffffffff).
 */
#ifndef BOARD_IMAGE_H
#define BOARD_IMAGE_H

#include <stdint.h>

#define BOARD_IMAGE_MAGIC   0x494d5652u   /* the bytes "RVMI" */
#define BOARD_IMAGE_VERSION 1u
#define BOARD_IMAGE_HEADER_BYTES 64u
/* bytes at the top of RAM the boot ROM's stack uses while it loads: no record there */
#define BOARD_BOOT_STACK 1024u

struct board_image_header {
    uint32_t magic;          /*  0 BOARD_IMAGE_MAGIC */
    uint16_t version;        /*  4 BOARD_IMAGE_VERSION */
    uint16_t header_bytes;   /*  6 64 */
    uint32_t image_bytes;    /*  8 header + records, <= the slot */
    uint32_t records;        /* 12 number of load records */
    uint32_t entry;          /* 16 the pc the firmware starts at */
    uint32_t tohost;         /* 20 address of the exit word (0: none) */
    uint32_t coord;          /* 24 this node: x [7:0], y [15:8], z [23:16] */
    uint32_t shape;          /* 28 X [7:0], Y [15:8], Z [23:16] (1 in 2-D), dims [27:24], torus [28] */
    uint32_t ram_base;       /* 32 the RAM the firmware was linked for */
    uint32_t ram_bytes;      /* 36 */
    uint32_t reserved[4];    /* 40 zero */
    uint32_t payload_crc;    /* 56 CRC-32 of bytes [64, image_bytes) */
    uint32_t header_crc;     /* 60 CRC-32 of bytes [0, 60) */
};

_Static_assert(sizeof(struct board_image_header) == BOARD_IMAGE_HEADER_BYTES,
               "board_image_header is 64 bytes");

enum board_boot_error {
    BOARD_BOOT_NO_FLASH = 1,
    BOARD_BOOT_NO_IMAGE = 2,
    BOARD_BOOT_VERSION = 3,
    BOARD_BOOT_HEADER_CRC = 4,
    BOARD_BOOT_TOO_BIG = 5,
    BOARD_BOOT_OUTSIDE_RAM = 6,
    BOARD_BOOT_SHAPE = 7,
    BOARD_BOOT_PAYLOAD_CRC = 8,
};

#endif
