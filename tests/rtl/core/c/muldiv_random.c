/* SPDX-License-Identifier: ISC */
/* The core's multiplier and divider against a shift-and-add / shift-and-subtract reference
 * on 3,000 operand pairs: random words, random bit lengths (which drive the divider's
 * step count), signs, 0, 1, -1, INT32_MIN, powers of two and their neighbours.
 * Prints the first mismatch and exits 1, or exits 0. Fixed seed: deterministic. */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

#define OP(name, insn)                                                         \
    static uint32_t name(uint32_t a, uint32_t b)                               \
    {                                                                          \
        uint32_t r;                                                            \
        __asm__ volatile(insn " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));       \
        return r;                                                              \
    }
OP(hw_mul, "mul")
OP(hw_mulh, "mulh")
OP(hw_mulhsu, "mulhsu")
OP(hw_mulhu, "mulhu")
OP(hw_div, "div")
OP(hw_divu, "divu")
OP(hw_rem, "rem")
OP(hw_remu, "remu")

static uint32_t rng_state = 0x2545f491u;
static uint32_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* 64-bit product of magnitudes by shift-and-add (no multiply instruction) */
static uint64_t ref_mul_u(uint32_t a, uint32_t b)
{
    uint64_t acc = 0, addend = a;
    for (int bit = 0; bit < 32; ++bit) {
        if ((b >> bit) & 1u)
            acc += addend;
        addend <<= 1;
    }
    return acc;
}
static uint64_t negate64(uint64_t x) { return ~x + 1u; }
static uint32_t magnitude(uint32_t x, int is_signed)
{
    return (is_signed && (x >> 31)) ? ~x + 1u : x;
}
static uint64_t ref_mul(uint32_t a, uint32_t b, int a_signed, int b_signed)
{
    int negative = (a_signed && (a >> 31)) ^ (b_signed && (b >> 31));
    uint64_t p = ref_mul_u(magnitude(a, a_signed), magnitude(b, b_signed));
    return negative ? negate64(p) : p;
}

/* unsigned division by shift-and-subtract (no divide instruction) */
static void ref_divu(uint32_t n, uint32_t d, uint32_t *q, uint32_t *r)
{
    uint32_t quotient = 0, remainder = 0;
    for (int bit = 31; bit >= 0; --bit) {
        uint64_t shifted = ((uint64_t)remainder << 1) | ((n >> bit) & 1u);
        if (shifted >= d) {
            shifted -= d;
            quotient |= 1u << bit;
        }
        remainder = (uint32_t)shifted;
    }
    *q = quotient;   /* d == 0 gives all ones and remainder n, as RISC-V specifies */
    *r = remainder;
}
static void ref_div(uint32_t n, uint32_t d, uint32_t *q, uint32_t *r)
{
    if (d == 0) {
        *q = 0xffffffffu;
        *r = n;
        return;
    }
    uint32_t uq, ur;
    ref_divu(magnitude(n, 1), magnitude(d, 1), &uq, &ur);
    *q = ((n ^ d) >> 31) ? ~uq + 1u : uq;   /* INT32_MIN / -1 wraps to INT32_MIN */
    *r = (n >> 31) ? ~ur + 1u : ur;
}

static uint32_t operand(void)
{
    static const uint32_t special[] = {0, 1, 2, 3, 0xffffffffu, 0xfffffffeu, 0x80000000u,
                                       0x80000001u, 0x7fffffffu, 10, 0x10000u, 0xffffu};
    uint32_t kind = next_random() % 8;
    uint32_t x = next_random();
    switch (kind) {
    case 0: return special[next_random() % (sizeof special / sizeof special[0])];
    case 1: return x >> (next_random() % 32);                  /* random bit length */
    case 2: return ~(x >> (next_random() % 32));               /* negative, random length */
    case 3: return (1u << (next_random() % 32)) + (next_random() % 3) - 1u;
    default: return x;
    }
}

static int failures;
static void check(const char *what, uint32_t a, uint32_t b, uint32_t got, uint32_t want)
{
    if (got != want && failures++ == 0)
        printf("FAIL %s 0x%08lx, 0x%08lx: got 0x%08lx want 0x%08lx\n", what, (unsigned long)a,
               (unsigned long)b, (unsigned long)got, (unsigned long)want);
}

int main(void)
{
    const int pairs = 3000;
    for (int i = 0; i < pairs && !failures; ++i) {
        uint32_t a = operand(), b = operand(), q, r;
        check("mul", a, b, hw_mul(a, b), (uint32_t)ref_mul(a, b, 0, 0));
        check("mulh", a, b, hw_mulh(a, b), (uint32_t)(ref_mul(a, b, 1, 1) >> 32));
        check("mulhsu", a, b, hw_mulhsu(a, b), (uint32_t)(ref_mul(a, b, 1, 0) >> 32));
        check("mulhu", a, b, hw_mulhu(a, b), (uint32_t)(ref_mul(a, b, 0, 0) >> 32));
        ref_divu(a, b, &q, &r);
        check("divu", a, b, hw_divu(a, b), q);
        check("remu", a, b, hw_remu(a, b), r);
        ref_div(a, b, &q, &r);
        check("div", a, b, hw_div(a, b), q);
        check("rem", a, b, hw_rem(a, b), r);
    }
    if (failures)
        return 1;
    printf("muldiv_random: %d operand pairs x 8 operations: ok\n", pairs);
    return 0;
}
