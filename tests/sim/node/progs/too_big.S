/* SPDX-License-Identifier: ISC */
/* node-sim check: one segment larger than the RAM (RAM_BYTES comes in as a define). */
    .section .text.init, "ax", @progbits
    .globl _start
_start:
1:  j       1b
    .space  TOO_BIG_BYTES
