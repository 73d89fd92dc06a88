/* SPDX-License-Identifier: ISC */
/* The board devices' registers (boards/rtl/board_io.v; boards/README.md "Board registers"),
 * in the IO window of a board tile. Node code only (the boot ROM; firmware that wants to
 * know its board). */
#ifndef BOARD_REGS_H
#define BOARD_REGS_H

#include <stdint.h>

#define BOARD_IO_BASE     0x03000000u
#define BOARD_BOOT_BASE   0x00001000u   /* the boot ROM */

#define BOARD_ID          0x00u   /* R   0x52564201 */
#define BOARD_CLK_HZ      0x04u   /* R   core clock, Hz */
#define BOARD_SPI_CS      0x08u   /* R/W [0] flash selected */
#define BOARD_SPI_DATA    0x0cu   /* W: shift a byte out; R: the byte shifted in (both wait) */
#define BOARD_LED         0x10u   /* R/W [0] red, [1] green (while booting) */
#define BOARD_NODE_COORD  0x14u   /* R/W x [7:0], y [15:8], z [23:16] */
#define BOARD_NODE_SHAPE  0x18u   /* R/W X [7:0], Y [15:8], Z [23:16], torus [28] */
#define BOARD_NODE_INDEX  0x1cu   /* R/W index [15:0], count [31:16] */
#define BOARD_TOHOST      0x20u   /* R/W the exit word's address */
#define BOARD_BOOT_STATUS 0x24u   /* R/W 0 booting, 1 running, 0x100 + n boot error n */
#define BOARD_LINK_STATUS 0x28u   /* R   [7:0] link up, [15:8] ports, [16] PHY built in */
#define BOARD_EXIT        0x2cu   /* R   [0] exited, [1] core halted */
#define BOARD_EXIT_CODE   0x30u   /* R   exit status */
#define BOARD_SPI_CRC     0x34u   /* R/W CRC-32 state over the bytes SPI_DATA received since
                                   * written (W: set it; R: waits for the last byte's fold) */

#define BOARD_ID_VALUE    0x52564201u   /* also in mscratch when the boot ROM starts the firmware */
#define BOARD_STATUS_RUNNING 1u
#define BOARD_STATUS_ERROR(n) (0x100u + (uint32_t)(n))

static inline volatile uint32_t *board_reg(uint32_t offset)
{
    return (volatile uint32_t *)(BOARD_IO_BASE + offset);
}

#endif
