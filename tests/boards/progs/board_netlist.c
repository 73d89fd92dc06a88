/* SPDX-License-Identifier: ISC */
/* A short board program for the netlist simulation (tests/boards/test_board_netlist.sh): the
 * iCEBreaker bitstream's netlist and the RTL must print the same lines at the same cycles.
 * It works what synthesis maps to the device's own blocks and carry chains: the multiplier
 * (DSP blocks: mul, mulh, mulhsu, mulhu against shift-and-add), the divider (div, divu,
 * rem, remu against the identity q * d + r = n), the cycle and instret counters (DSPs too),
 * byte, half-word and word stores and loads in the SPRAM node RAM, shifts and compares; it
 * prints its results with the console alone (no printf, and a trap handler of its own: the
 * image is small, and boots in a fraction of the cycles a printf program's takes) and
 * exits with 0 when every check held, 1 otherwise. */
#include <stdint.h>

#include "rvmesh_rt.h"

static void put_hex(uint32_t value)
{
    for (int shift = 28; shift >= 0; shift -= 4)
        rvmesh_console_putc("0123456789abcdef"[(value >> shift) & 15u]);
}

static void put_field(const char *text, uint32_t value)
{
    rvmesh_console_puts(text);
    put_hex(value);
}

/* the low and high words of a * b (unsigned) by shift-and-add: no multiply instruction */
static void mul_by_adds(uint32_t a, uint32_t b, uint32_t *lo, uint32_t *hi)
{
    uint32_t plo = 0, phi = 0, alo = a, ahi = 0;
    for (int bit = 0; bit < 32; bit++) {
        if ((b >> bit) & 1u) {
            uint32_t sum = plo + alo;
            phi += ahi + (sum < plo);
            plo = sum;
        }
        ahi = (ahi << 1) | (alo >> 31);
        alo <<= 1;
    }
    *lo = plo;
    *hi = phi;
}

static volatile uint8_t scratch[64];

/* this program's own trap handler: the runtime's prints with printf, which would make the
 * image ten times larger */
uint32_t rvmesh_trap(struct rvmesh_trap_frame *frame)
{
    (void)frame;
    rvmesh_console_puts("netlist: trap\n");
    rvmesh_exit(RVMESH_EXIT_TRAP);
}

int main(void)
{
    uint32_t bad = 0, mix = 0x9e3779b9u, x = 0x12345678u;
    uint64_t c0 = rvmesh_cycles(), i0 = rvmesh_instret();
    for (int round = 0; round < 24; round++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t a = x, b = x * 2654435761u + (uint32_t)round;
        uint32_t lo, hi;
        mul_by_adds(a, b, &lo, &hi);
        uint32_t mulhu_result = (uint32_t)(((uint64_t)a * b) >> 32);
        int32_t mulh_result = (int32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
        /* signed high word from the unsigned one: subtract b when a < 0, a when b < 0 */
        uint32_t mulh_check = hi - (((int32_t)a < 0) ? b : 0u) - (((int32_t)b < 0) ? a : 0u);
        bad |= (a * b != lo) | (mulhu_result != hi) | ((uint32_t)mulh_result != mulh_check);
        uint32_t d = (b >> (round & 15)) | 1u;
        uint32_t q = a / d, r = a % d;
        bad |= (q * d + r != a) | (r >= d);
        int32_t sa = (int32_t)a, sd = (int32_t)d - 0x4000;
        if (sd == 0) sd = 3;
        int32_t sq = sa / sd, sr = sa % sd;
        bad |= ((uint32_t)(sq * sd + sr) != (uint32_t)sa);
        scratch[round] = (uint8_t)(lo >> 3);
        ((volatile uint16_t *)scratch)[16 + (round & 7)] = (uint16_t)hi;
        mix = (mix ^ lo ^ (hi >> 7) ^ q ^ (r << 3)) * 0x01000193u;
    }
    for (int i = 0; i < 24; i++)
        mix += (uint32_t)scratch[i] << (i & 7);
    for (int i = 0; i < 8; i++)
        mix ^= ((volatile uint16_t *)scratch)[16 + i];
    uint64_t c1 = rvmesh_cycles(), i1 = rvmesh_instret();
    /* one short line (a character is 2,083 cycles at 115200 baud, 0.3 s of the netlist's
     * simulation): the mix of every result, the cycles and instructions of the loop, in hex */
    put_field("netlist ", mix);
    put_field(" ", (uint32_t)(c1 - c0));
    put_field(" ", (uint32_t)(i1 - i0));
    rvmesh_console_puts(bad ? " FAIL\n" : " ok\n");
    return bad ? 1 : 0;
}
