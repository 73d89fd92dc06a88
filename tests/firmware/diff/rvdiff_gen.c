/* SPDX-License-Identifier: ISC */
/* rvdiff-gen: writes a random, self-contained RV32IM assembly program for the
 * differential test of the core against qemu (tests/firmware/diff/).
 *
 *   rvdiff-gen --seed N [--length L] [--ram-base ADDR] > program.S
 *
 * The program (the same for the same arguments, on any host):
 *   1. sets x1..x31 to random values (biased towards edge values: 0, +-1, INT_MIN, ...);
 *   2. runs L random items: every RV32IM ALU, immediate and M-extension instruction, LUI
 *      and AUIPC, loads and stores confined to a scratch data region (base register set
 *      right before with LA, random offsets, aligned), forward branches with data-dependent
 *      outcomes, forward JAL and JALR (with an odd target to check bit 0 clearing) and
 *      short counted backward loops;
 *      Every max(150, L/90) items a checkpoint copies all registers to memory;
 *   3. stores all registers and prints them, the checkpoints and every word of the scratch
 *      region (the "memory signature") on the console in hex:
 *          x05 0123abcd        final register x5
 *          c03.x05 0123abcd    register x5 at checkpoint 3
 *          m1f 0123abcd        scratch word 0x1f (byte offset 0x7c)
 *      then END, and exits 0 through tohost (node-sim) and qemu's test finisher.
 * Some items trap on purpose (ECALL, EBREAK, illegal encodings, access faults, JALR to a
 * misaligned target): a recording handler logs mcause/mepc/mtval and resumes after the
 * instruction; the log is printed too ("traps N", then "tNN mcause mepc mtval").
 * No CSR with a timing-dependent value is read. AUIPC results depend only on the pc, the
 * same on every platform that loads the image at its link address.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRATCH_BYTES 256
#define MAX_PENDING_LABELS 64

/* ------------------------------------------------------------ random numbers */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in 0..bound-1 (bound > 0; the modulo bias is irrelevant here) */
static uint32_t rng_below(uint32_t bound)
{
    return (uint32_t)(rng_next() % bound);
}

static int32_t rng_range(int32_t low, int32_t high)
{
    return low + (int32_t)rng_below((uint32_t)(high - low + 1));
}

static int rng_percent(uint32_t percent)
{
    return rng_below(100) < percent;
}

/* A 32-bit value, often an edge case. */
static uint32_t random_value(void)
{
    static const uint32_t edges[] = {
        0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x80000001u,
        0xFFFFFFFEu, 0x00000002u, 0x0000FFFFu, 0xFFFF0000u, 0x00008000u, 0xFFFF8000u,
        0x00007FFFu, 0x000000FFu, 0xFFFFFF80u, 0x0000001Fu, 0x00000020u, 0x55555555u,
        0xAAAAAAAAu,
    };
    switch (rng_below(4)) {
    case 0:
        return edges[rng_below(sizeof edges / sizeof edges[0])];
    case 1:
        return (uint32_t)rng_range(-64, 64);
    default:
        return (uint32_t)rng_next();
    }
}

/* ------------------------------------------------------------ registers */
static const char *const register_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
};

/* A small "hot" set of registers gets half of all picks, so values flow from
 * instruction to instruction (forwarding paths, dependent chains). */
static int hot_registers[6];

static int pick_source(void)
{
    if (rng_percent(5))
        return 0;
    if (rng_percent(50))
        return hot_registers[rng_below(6)];
    return 1 + (int)rng_below(31);
}

/* A destination other than `avoid` (-1: none); x0 now and then. */
static int pick_dest(int avoid)
{
    for (;;) {
        int reg;
        if (rng_percent(3))
            reg = 0;
        else if (rng_percent(50))
            reg = hot_registers[rng_below(6)];
        else
            reg = 1 + (int)rng_below(31);
        if (reg != avoid || reg == 0)
            return reg;
    }
}

static int pick_nonzero_avoiding(int avoid)
{
    for (;;) {
        int reg = 1 + (int)rng_below(31);
        if (reg != avoid)
            return reg;
    }
}

/* ------------------------------------------------------------ forward labels
 * A branch or jump to a forward label: the label is placed after `countdown` more items. */
struct pending_label {
    uint32_t number;
    uint32_t countdown;
};

static struct pending_label pending[MAX_PENDING_LABELS];
static int pending_count;
static uint32_t next_label_number;

static uint32_t new_forward_label(uint32_t distance)
{
    uint32_t number = next_label_number++;
    pending[pending_count].number = number;
    pending[pending_count].countdown = distance;
    pending_count++;
    return number;
}

/* Called before each item: places the labels whose countdown ran out. */
static void place_due_labels(int force_all)
{
    for (int i = 0; i < pending_count;) {
        if (force_all || pending[i].countdown == 0) {
            printf("L%" PRIu32 ":\n", pending[i].number);
            pending[i] = pending[--pending_count];
        } else {
            pending[i].countdown--;
            i++;
        }
    }
}

/* ------------------------------------------------------------ instructions */
static const char *const rr_ops[] = {
    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
};
static const char *const imm_ops[] = {"addi", "slti", "sltiu", "xori", "ori", "andi"};
static const char *const shift_imm_ops[] = {"slli", "srli", "srai"};
static const char *const branch_ops[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};

struct memory_op {
    const char *name;
    uint32_t size;
    int is_store;
};
static const struct memory_op memory_ops[] = {
    {"lb", 1, 0}, {"lh", 2, 0}, {"lw", 4, 0}, {"lbu", 1, 0}, {"lhu", 2, 0},
    {"sb", 1, 1}, {"sh", 2, 1}, {"sw", 4, 1},
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* ALU, immediate, shift, M, LUI, AUIPC or LI: no control flow, writes one register.
 * `avoid` is a register that must not be written (a loop counter) or -1. */
static void emit_compute(int avoid)
{
    uint32_t kind = rng_below(100);
    int rd = pick_dest(avoid);
    if (kind < 45) {
        const char *op = rr_ops[rng_below(COUNT(rr_ops))];
        printf("    %s %s, %s, %s\n", op, register_names[rd], register_names[pick_source()],
               register_names[pick_source()]);
    } else if (kind < 65) {
        int32_t imm = rng_percent(30) ? (rng_percent(50) ? -2048 + rng_range(0, 3)
                                                         : 2047 - rng_range(0, 3))
                                      : rng_range(-2048, 2047);
        if (rng_percent(30))
            imm = rng_range(-8, 8);
        printf("    %s %s, %s, %" PRId32 "\n", imm_ops[rng_below(COUNT(imm_ops))],
               register_names[rd], register_names[pick_source()], imm);
    } else if (kind < 77) {
        uint32_t shamt = rng_percent(30) ? (rng_percent(50) ? 0u : 31u) : rng_below(32);
        printf("    %s %s, %s, %" PRIu32 "\n", shift_imm_ops[rng_below(COUNT(shift_imm_ops))],
               register_names[rd], register_names[pick_source()], shamt);
    } else if (kind < 83) {
        printf("    lui %s, 0x%05" PRIx32 "\n", register_names[rd],
               (uint32_t)rng_next() & 0xFFFFFu);
    } else if (kind < 88) {
        printf("    auipc %s, 0x%05" PRIx32 "\n", register_names[rd],
               rng_percent(50) ? rng_below(16) : ((uint32_t)rng_next() & 0xFFFFFu));
    } else {
        printf("    li %s, 0x%08" PRIx32 "\n", register_names[rd], random_value());
    }
}

/* A load or store in the scratch region: LA of a base near the target, then the access
 * with the offset that reaches an aligned target. */
static void emit_memory(int avoid)
{
    const struct memory_op *op = &memory_ops[rng_below(COUNT(memory_ops))];
    int32_t target = (int32_t)(rng_below(SCRATCH_BYTES / op->size) * op->size);
    int32_t offset = rng_percent(50) ? rng_range(-16, 16) : rng_range(-2048, 2047);
    int32_t base_offset = target - offset;
    int base = pick_nonzero_avoiding(avoid);
    if (rng_percent(50))
        printf("    la %s, scratch%+" PRId32 "\n", register_names[base], base_offset);
    else
        printf("    lui %s, %%hi(scratch%+" PRId32 ")\n    addi %s, %s, %%lo(scratch%+" PRId32 ")\n",
               register_names[base], base_offset, register_names[base], register_names[base],
               base_offset);
    /* sometimes an unrelated instruction between the base and its use */
    if (rng_percent(20)) {
        int rd = pick_dest(avoid);
        if (rd != base)
            printf("    xor %s, %s, %s\n", register_names[rd], register_names[pick_source()],
                   register_names[pick_source()]);
    }
    if (op->is_store) {
        printf("    %s %s, %" PRId32 "(%s)\n", op->name, register_names[pick_source()], offset,
               register_names[base]);
    } else {
        printf("    %s %s, %" PRId32 "(%s)\n", op->name, register_names[pick_dest(avoid)], offset,
               register_names[base]);
    }
}

static void emit_branch(void)
{
    int rs1 = pick_source();
    int rs2 = rng_percent(25) ? rs1 : pick_source();
    uint32_t label = new_forward_label(rng_below(6));
    printf("    %s %s, %s, L%" PRIu32 "\n", branch_ops[rng_below(COUNT(branch_ops))],
           register_names[rs1], register_names[rs2], label);
}

static void emit_jump(void)
{
    uint32_t label = new_forward_label(rng_below(5));
    int rd = pick_dest(-1);
    if (rng_percent(50)) {
        printf("    jal %s, L%" PRIu32 "\n", register_names[rd], label);
    } else {
        /* jalr rd, -delta(rt) with rt = L + delta + odd: the target is L + odd, and
         * bit 0 is cleared */
        int rt = pick_nonzero_avoiding(-1);
        int32_t delta = rng_range(-40, 40) * 2;
        int32_t odd = (int32_t)rng_below(2);
        printf("    la %s, L%" PRIu32 "%+" PRId32 "\n", register_names[rt], label, delta + odd);
        printf("    jalr %s, %" PRId32 "(%s)\n", register_names[rd], -delta, register_names[rt]);
    }
}

/* A counted loop: counter = 1..4, a body of 1..6 straight-line items, decrement, and a
 * backward branch closing the loop (one of four forms). Now and then the body holds a
 * data-dependent forward branch out of the loop ("break"). */
static void emit_loop(uint32_t loop_number)
{
    int counter = pick_nonzero_avoiding(-1);
    uint32_t iterations = 1 + rng_below(4);
    uint32_t body = 1 + rng_below(6);
    uint32_t break_at = rng_percent(30) ? rng_below(body) : body;
    printf("    li %s, %" PRIu32 "\n", register_names[counter], iterations);
    printf("LOOP%" PRIu32 ":\n", loop_number);
    for (uint32_t i = 0; i < body; i++) {
        if (i == break_at) {
            int rs1 = pick_source();
            printf("    %s %s, %s, LOOPEND%" PRIu32 "\n", branch_ops[rng_below(COUNT(branch_ops))],
                   register_names[rs1], register_names[rng_percent(25) ? rs1 : pick_source()],
                   loop_number);
        }
        if (rng_percent(25))
            emit_memory(counter);
        else
            emit_compute(counter);
    }
    printf("    addi %s, %s, -1\n", register_names[counter], register_names[counter]);
    switch (rng_below(4)) {
    case 0:
        printf("    bnez %s, LOOP%" PRIu32 "\n", register_names[counter], loop_number);
        break;
    case 1:
        printf("    blt zero, %s, LOOP%" PRIu32 "\n", register_names[counter], loop_number);
        break;
    case 2:
        printf("    bltu zero, %s, LOOP%" PRIu32 "\n", register_names[counter], loop_number);
        break;
    default:
        printf("    bge %s, zero, LOOP%" PRIu32 "\n    j LOOPEND%" PRIu32 "\n",
               register_names[counter], loop_number, loop_number);
        /* bge runs one extra iteration at counter 0 (then -1 exits); the j is not reached
         * until counter < 0 */
        break;
    }
    printf("LOOPEND%" PRIu32 ":\n", loop_number);
}

/* A deliberate trap, on which qemu and the spec agree: ECALL, EBREAK, illegal encodings
 * (all zeros, an unknown CSR, an F instruction, a reserved shift), a load or store to an
 * unmapped address (access fault), a JALR to a 2-byte aligned target (rd not written).
 * The recording handler logs mcause, mepc and mtval (0 for EBREAK, whose mtval is
 * implementation-defined) and resumes after the instruction. */
static void emit_trap(void)
{
    int reg = pick_nonzero_avoiding(-1);
    switch (rng_below(8)) {
    case 0:
        printf("    ecall\n");
        break;
    case 1:
        printf("    ebreak\n");
        break;
    case 2:
        printf("    .word 0x00000000\n");
        break;
    case 3: /* csrrs rd, 0x7c0 (no such CSR), rd random */
        printf("    .word 0x%08" PRIx32 "\n", 0x7C002073u | ((uint32_t)reg << 7));
        break;
    case 4: /* slli rd, rd, 32 (shamt bit 5 is reserved on RV32) / fadd.s */
        printf("    .word 0x%08" PRIx32 "\n",
               rng_percent(50) ? (0x02001013u | ((uint32_t)reg << 7) | ((uint32_t)reg << 15))
                               : 0x00007053u);
        break;
    case 5: {
        static const char *const loads[] = {"lw", "lh", "lbu"};
        printf("    li %s, 0x%08" PRIx32 "\n", register_names[reg],
               0x90000000u + (rng_below(256) << 4));
        printf("    %s %s, %d(%s)\n", loads[rng_below(3)], register_names[pick_dest(-1)],
               (int)rng_below(4) * 4, register_names[reg]);
        break;
    }
    case 6: {
        static const char *const stores[] = {"sw", "sh", "sb"};
        printf("    li %s, 0x%08" PRIx32 "\n", register_names[reg],
               0xF0000000u + (rng_below(256) << 4));
        printf("    %s %s, %d(%s)\n", stores[rng_below(3)], register_names[pick_source()],
               (int)rng_below(4) * 4, register_names[reg]);
        break;
    }
    default: { /* jalr to label+2: instruction-address-misaligned, rd unwritten */
        uint32_t label = new_forward_label(rng_below(3));
        printf("    la %s, L%" PRIu32 "+2\n", register_names[reg], label);
        printf("    jalr %s, 0(%s)\n", register_names[pick_dest(-1)], register_names[reg]);
        break;
    }
    }
}

/* ------------------------------------------------------------ checkpoints
 * Every so many items all registers are copied to checkpoint area k (x1 goes through
 * mscratch, and every register is restored exactly), so a wrong value that is later
 * overwritten still shows in the dump, and the first differing checkpoint says where. */
static uint32_t checkpoint_count;

static void emit_checkpoint(void)
{
    uint32_t k = checkpoint_count++;
    printf("/* checkpoint %" PRIu32 " */\n"
           "    csrw mscratch, x1\n"
           "    la x1, checkpoints+%" PRIu32 "\n", k, k * 128);
    for (int reg = 2; reg < 32; reg++)
        printf("    sw x%d, %d(x1)\n", reg, reg * 4);
    printf("    csrr x2, mscratch\n"
           "    sw x2, 4(x1)\n"
           "    lw x2, 8(x1)\n"
           "    csrr x1, mscratch\n");
}

/* ------------------------------------------------------------ program frame */
static void emit_header(uint64_t seed, uint32_t length)
{
    printf("/* generated by rvdiff-gen --seed %" PRIu64 " --length %" PRIu32 ": do not edit */\n",
           seed, length);
    printf("    .section .text.init, \"ax\", @progbits\n"
           "    .option norelax\n"
           "    .globl _start\n"
           "_start:\n"
           "    la t0, trap_handler\n"
           "    csrw mtvec, t0\n");
    for (int reg = 1; reg < 32; reg++)
        printf("    li %s, 0x%08" PRIx32 "\n", register_names[reg], random_value());
}

/* Save all registers, print them and the scratch words, exit. Uses only RV32I. */
static void emit_footer(void)
{
    printf("/* ---- footer: dump registers and the scratch region ---- */\n"
           "    csrw mscratch, x1\n"
           "    la x1, saved_registers\n");
    for (int reg = 2; reg < 32; reg++)
        printf("    sw x%d, %d(x1)\n", reg, reg * 4);
    printf("    csrr x2, mscratch\n"
           "    sw x2, 4(x1)\n"
           "    sw x0, 0(x1)\n"
           /* registers: "x01 0123abcd" */
           "    li s0, 1\n"
           "1:  li a0, 'x'\n"
           "    jal ra, put_char\n"
           "    mv a0, s0\n"
           "    jal ra, put_two_digits\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    la t0, saved_registers\n"
           "    slli t1, s0, 2\n"
           "    add t0, t0, t1\n"
           "    lw a0, 0(t0)\n"
           "    jal ra, put_hex_line\n"
           "    addi s0, s0, 1\n"
           "    li t0, 32\n"
           "    bne s0, t0, 1b\n"
           /* checkpoints: "c03.x05 0123abcd" */
           "    li s1, 0\n"
           "3:  li s0, 1\n"
           "4:  li a0, 'c'\n"
           "    jal ra, put_char\n"
           "    mv a0, s1\n"
           "    jal ra, put_two_digits\n"
           "    li a0, '.'\n"
           "    jal ra, put_char\n"
           "    li a0, 'x'\n"
           "    jal ra, put_char\n"
           "    mv a0, s0\n"
           "    jal ra, put_two_digits\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    la t0, checkpoints\n"
           "    slli t1, s1, 7\n"
           "    add t0, t0, t1\n"
           "    slli t1, s0, 2\n"
           "    add t0, t0, t1\n"
           "    lw a0, 0(t0)\n"
           "    jal ra, put_hex_line\n"
           "    addi s0, s0, 1\n"
           "    li t0, 32\n"
           "    bne s0, t0, 4b\n"
           "    addi s1, s1, 1\n"
           "    li t0, %u\n"
           "    bltu s1, t0, 3b\n"
           /* memory: "m00 0123abcd" per word (index in hex words) */
           "    li s0, 0\n"
           "2:  li a0, 'm'\n"
           "    jal ra, put_char\n"
           "    mv a0, s0\n"
           "    jal ra, put_hex_byte\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    la t0, scratch\n"
           "    slli t1, s0, 2\n"
           "    add t0, t0, t1\n"
           "    lw a0, 0(t0)\n"
           "    jal ra, put_hex_line\n"
           "    addi s0, s0, 1\n"
           "    li t0, %d\n"
           "    bne s0, t0, 2b\n"
           /* trap log: "traps 00000005", then "t00 <mcause> <mepc> <mtval>" per trap */
           "    la a0, traps_text\n"
           "    jal ra, put_string\n"
           "    la t0, trap_save\n"
           "    lw s2, 8(t0)\n"
           "    mv a0, s2\n"
           "    jal ra, put_hex_line\n"
           "    li t0, 100\n"
           "    bltu s2, t0, 5f\n"
           "    li s2, 100\n"
           "5:  li s0, 0\n"
           "6:  bgeu s0, s2, 7f\n"
           "    li a0, 't'\n"
           "    jal ra, put_char\n"
           "    mv a0, s0\n"
           "    jal ra, put_two_digits\n"
           "    la s1, trap_log\n"
           "    slli t1, s0, 4\n"
           "    add s1, s1, t1\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    lw a0, 0(s1)\n"
           "    jal ra, put_hex_word\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    lw a0, 4(s1)\n"
           "    jal ra, put_hex_word\n"
           "    li a0, ' '\n"
           "    jal ra, put_char\n"
           "    lw a0, 8(s1)\n"
           "    jal ra, put_hex_line\n"
           "    addi s0, s0, 1\n"
           "    j 6b\n"
           "7:  la a0, end_text\n"
           "    jal ra, put_string\n"
           "    li a0, 0\n"
           "    j exit\n", (unsigned)checkpoint_count, SCRATCH_BYTES / 4);
    /* the recording trap handler: x1 via mscratch, x2/x3 saved in trap_save; log entry
     * (trap_count % 128) gets mcause, mepc, mtval; resume at mepc + 4 */
    printf("trap_handler:\n"
           "    csrw mscratch, x1\n"
           "    la x1, trap_save\n"
           "    sw x2, 0(x1)\n"
           "    sw x3, 4(x1)\n"
           "    lw x2, 8(x1)\n"
           "    addi x3, x2, 1\n"
           "    sw x3, 8(x1)\n"
           "    andi x2, x2, 127\n"
           "    slli x2, x2, 4\n"
           "    la x3, trap_log\n"
           "    add x2, x2, x3\n"
           "    csrr x3, mcause\n"
           "    sw x3, 0(x2)\n"
           "    csrr x3, mepc\n"
           "    sw x3, 4(x2)\n"
           "    addi x3, x3, 4\n"
           "    csrw mepc, x3\n"
           "    csrr x3, mtval\n"
           "    sw x3, 8(x2)\n"
           "    csrr x3, mcause\n"
           "    addi x3, x3, -3\n"
           "    bnez x3, 1f\n"
           "    sw x0, 8(x2)\n"
           "1:  lw x2, 0(x1)\n"
           "    lw x3, 4(x1)\n"
           "    csrr x1, mscratch\n"
           "    mret\n");
    printf(           "exit:\n"
           "    slli t0, a0, 1\n"
           "    ori t0, t0, 1\n"
           "    la t1, tohost\n"
           "    sw t0, 0(t1)\n"
           "    li t0, 0x5555\n"
           "    beqz a0, 1f\n"
           "    slli t0, a0, 16\n"
           "    li t1, 0x3333\n"
           "    or t0, t0, t1\n"
           "1:  li t1, 0x100000\n"
           "    sw t0, 0(t1)\n"
           "2:  j 2b\n"
           "put_char:\n"
           "    li t5, 0x10000000\n"
           "    sb a0, 0(t5)\n"
           "    ret\n"
           "put_string:\n"
           "    li t5, 0x10000000\n"
           "1:  lbu t6, 0(a0)\n"
           "    beqz t6, 2f\n"
           "    sb t6, 0(t5)\n"
           "    addi a0, a0, 1\n"
           "    j 1b\n"
           "2:  ret\n"
           /* a0 in hex (8 digits) and a newline */
           "put_hex_line:\n"
           "    mv t2, ra\n"
           "    jal ra, put_hex_word\n"
           "    li t6, '\\n'\n"
           "    sb t6, 0(t5)\n"
           "    jr t2\n"
           /* a0 in hex (8 digits) */
           "put_hex_word:\n"
           "    li t5, 0x10000000\n"
           "    li t4, 8\n"
           "1:  srli t6, a0, 28\n"
           "    slli a0, a0, 4\n"
           "    li t3, 10\n"
           "    blt t6, t3, 2f\n"
           "    addi t6, t6, 'a' - '0' - 10\n"
           "2:  addi t6, t6, '0'\n"
           "    sb t6, 0(t5)\n"
           "    addi t4, t4, -1\n"
           "    bnez t4, 1b\n"
           "    ret\n"
           /* a0 (0..255) as two hex digits */
           "put_hex_byte:\n"
           "    li t5, 0x10000000\n"
           "    srli t6, a0, 4\n"
           "    andi t6, t6, 15\n"
           "    li t3, 10\n"
           "    blt t6, t3, 1f\n"
           "    addi t6, t6, 'a' - '0' - 10\n"
           "1:  addi t6, t6, '0'\n"
           "    sb t6, 0(t5)\n"
           "    andi t6, a0, 15\n"
           "    blt t6, t3, 2f\n"
           "    addi t6, t6, 'a' - '0' - 10\n"
           "2:  addi t6, t6, '0'\n"
           "    sb t6, 0(t5)\n"
           "    ret\n"
           /* a0 (0..99) as two decimal digits, by subtraction */
           "put_two_digits:\n"
           "    li t5, 0x10000000\n"
           "    li t6, '0'\n"
           "    li t3, 10\n"
           "1:  blt a0, t3, 2f\n"
           "    addi a0, a0, -10\n"
           "    addi t6, t6, 1\n"
           "    j 1b\n"
           "2:  sb t6, 0(t5)\n"
           "    addi a0, a0, '0'\n"
           "    sb a0, 0(t5)\n"
           "    ret\n");
    printf("    .section .rodata\n"
           "traps_text: .asciz \"traps \"\n"
           "end_text: .asciz \"END\\n\"\n");
}

static void emit_data(void)
{
    printf("    .data\n"
           "    .balign 4\n"
           "scratch:\n");
    for (int i = 0; i < SCRATCH_BYTES / 4; i++)
        printf("    .word 0x%08" PRIx32 "\n", random_value());
    printf("    .bss\n"
           "    .balign 4\n"
           "saved_registers: .space 128\n"
           "trap_save: .space 12\n"
           "trap_log: .space 2048\n"
           "checkpoints: .space %" PRIu32 "\n"
           "    .section .tohost, \"aw\", @progbits\n"
           "    .balign 8\n"
           "    .globl tohost\n"
           "tohost: .word 0, 0\n", checkpoint_count * 128);
}

static void usage(void)
{
    fprintf(stderr, "usage: rvdiff-gen --seed N [--length ITEMS (1..6000, default 3000)] "
                    "[--ram-base ADDR] > program.S\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t seed = 0;
    uint32_t length = 3000;
    int have_seed = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
            have_seed = 1;
        } else if (strcmp(argv[i], "--length") == 0 && i + 1 < argc) {
            length = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (strcmp(argv[i], "--ram-base") == 0 && i + 1 < argc) {
            /* the link address comes from the linker script; accepted for the record */
            (void)strtoul(argv[++i], NULL, 0);
        } else {
            usage();
        }
    }
    /* about 7.5 bytes of code per item: 6000 items still fit a 64 KiB node with its stack */
    if (!have_seed || length == 0 || length > 6000)
        usage();
    rng_state = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;

    for (int i = 0; i < 6; i++)
        hot_registers[i] = 1 + (int)rng_below(31);

    emit_header(seed, length);
    uint32_t loops = 0;
    uint32_t checkpoint_interval = length / 90 > 150 ? length / 90 : 150;
    for (uint32_t item = 0; item < length; item++) {
        place_due_labels(0);
        if (item % checkpoint_interval == checkpoint_interval - 1)
            emit_checkpoint();
        uint32_t kind = rng_below(100);
        if (kind < 62)
            emit_compute(-1);
        else if (kind < 80)
            emit_memory(-1);
        else if (kind < 90 && pending_count < MAX_PENDING_LABELS)
            emit_branch();
        else if (kind < 95 && pending_count < MAX_PENDING_LABELS)
            emit_jump();
        else if (kind < 97 && pending_count == 0)
            emit_loop(loops++);
        else if (kind < 99 && pending_count < MAX_PENDING_LABELS)
            emit_trap();
        else
            emit_compute(-1);
    }
    place_due_labels(1);
    if (checkpoint_count == 0)
        emit_checkpoint();
    emit_footer();
    emit_data();
    return 0;
}
