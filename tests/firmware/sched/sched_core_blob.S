/* SPDX-License-Identifier: ISC */
/* The tables files the on-core test reads, linked into its image (paths from the build). */
    .section .rodata.sched_blob, "a"
    .balign 4
    .global sched_blob_tw, sched_blob_tw_end, sched_blob_sc, sched_blob_sc_end
sched_blob_tw:
    .incbin SCHED_TW_TABLES
sched_blob_tw_end:
    .balign 4
sched_blob_sc:
    .incbin SCHED_SC_TABLES
sched_blob_sc_end:
