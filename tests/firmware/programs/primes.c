/* SPDX-License-Identifier: ISC */
/* Division-heavy number theory: primes below 30000 by a sieve (3245 of them) and below
 * 4000 by trial division with % (550), which must agree; gcd by Euclid (% per step) and
 * by the binary method (no division) over 1..120 x 1..120, which must agree; Fermat's
 * little theorem a^(p-1) = 1 (mod p) by modular exponentiation for the primes below 4000;
 * and signed division identities a = (a / b) * b + a % b with |a % b| < |b| and the sign
 * of a % b that of a, for pseudo-random a, b of both signs. */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

#define SIEVE_LIMIT 30000u
#define SIEVE_PRIMES_EXPECTED 3245u
#define TRIAL_LIMIT 4000u
#define TRIAL_PRIMES_EXPECTED 550u
#define GCD_RANGE 120u
#define DIVISION_SAMPLES 3000u

static uint8_t composite[SIEVE_LIMIT];

static uint32_t sieve_count(void)
{
    uint32_t count = 0;
    for (uint32_t n = 2; n < SIEVE_LIMIT; n++) {
        if (composite[n])
            continue;
        count++;
        for (uint32_t multiple = n * n; multiple < SIEVE_LIMIT; multiple += n)
            composite[multiple] = 1;
    }
    return count;
}

static int is_prime_trial(uint32_t n)
{
    if (n < 2)
        return 0;
    for (uint32_t d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

static uint32_t gcd_euclid(uint32_t a, uint32_t b)
{
    while (b != 0) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static uint32_t gcd_binary(uint32_t a, uint32_t b)
{
    if (a == 0)
        return b;
    if (b == 0)
        return a;
    uint32_t shift = 0;
    while (((a | b) & 1u) == 0) {
        a >>= 1;
        b >>= 1;
        shift++;
    }
    while ((a & 1u) == 0)
        a >>= 1;
    while (b != 0) {
        while ((b & 1u) == 0)
            b >>= 1;
        if (a > b) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    }
    return a << shift;
}

/* base^exponent mod modulus, modulus < 65536 so products fit in 32 bits */
static uint32_t power_mod(uint32_t base, uint32_t exponent, uint32_t modulus)
{
    uint32_t result = 1 % modulus;
    base %= modulus;
    while (exponent) {
        if (exponent & 1u)
            result = result * base % modulus;
        base = base * base % modulus;
        exponent >>= 1;
    }
    return result;
}

static uint32_t random_state = 0x9E3779B9u;

static uint32_t next_random(void)
{
    random_state ^= random_state << 13;
    random_state ^= random_state >> 17;
    random_state ^= random_state << 5;
    return random_state;
}

int main(void)
{
    uint64_t cycles_start = rvmesh_cycles();
    uint64_t instret_start = rvmesh_instret();
    int failures = 0;

    uint32_t sieve_primes = sieve_count();
    if (sieve_primes != SIEVE_PRIMES_EXPECTED) {
        printf("primes: FAIL sieve found %lu primes below %u, expected %u\n",
               (unsigned long)sieve_primes, (unsigned)SIEVE_LIMIT, (unsigned)SIEVE_PRIMES_EXPECTED);
        failures++;
    }
    uint32_t trial_primes = 0, fermat_failures = 0;
    for (uint32_t n = 0; n < TRIAL_LIMIT; n++) {
        int prime = is_prime_trial(n);
        trial_primes += (uint32_t)prime;
        if (n >= 2 && prime != !composite[n]) {
            printf("primes: FAIL sieve and trial division disagree on %lu\n", (unsigned long)n);
            failures++;
            break;
        }
        if (prime && n > 2 && power_mod(2 + n % 5, n - 1, n) != 1)
            fermat_failures++;
    }
    if (trial_primes != TRIAL_PRIMES_EXPECTED || fermat_failures != 0) {
        printf("primes: FAIL trial division found %lu primes below %u (expected %u), "
               "%lu Fermat failures\n", (unsigned long)trial_primes, (unsigned)TRIAL_LIMIT,
               (unsigned)TRIAL_PRIMES_EXPECTED, (unsigned long)fermat_failures);
        failures++;
    }
    /* 341 = 11 * 31 is a base-2 Fermat pseudoprime; 2^340 mod 341 = 1 but 3^340 mod 341 != 1 */
    if (power_mod(2, 340, 341) != 1 || power_mod(3, 340, 341) == 1) {
        printf("primes: FAIL modular exponentiation of the pseudoprime 341\n");
        failures++;
    }

    uint32_t gcd_sum = 0;
    for (uint32_t a = 1; a <= GCD_RANGE; a++)
        for (uint32_t b = 1; b <= GCD_RANGE; b++) {
            uint32_t g = gcd_euclid(a * 7u, b * 7u);
            if (g != gcd_binary(a * 7u, b * 7u) || g % 7u != 0) {
                printf("primes: FAIL gcd(%lu, %lu): euclid %lu binary %lu\n",
                       (unsigned long)(a * 7u), (unsigned long)(b * 7u), (unsigned long)g,
                       (unsigned long)gcd_binary(a * 7u, b * 7u));
                failures++;
                a = GCD_RANGE;
                break;
            }
            gcd_sum += g;
        }

    uint32_t division_failures = 0;
    for (uint32_t i = 0; i < DIVISION_SAMPLES; i++) {
        int32_t a = (int32_t)next_random();
        int32_t b = (int32_t)next_random() >> (next_random() % 31u);
        if (b == 0 || (a == INT32_MIN && b == -1))
            continue;
        int32_t q = a / b, r = a % b;
        uint32_t r_magnitude = r < 0 ? 0u - (uint32_t)r : (uint32_t)r;
        uint32_t b_magnitude = b < 0 ? 0u - (uint32_t)b : (uint32_t)b;
        if ((int32_t)((uint32_t)q * (uint32_t)b + (uint32_t)r) != a || r_magnitude >= b_magnitude ||
            (r != 0 && ((r < 0) != (a < 0)))) {
            if (division_failures++ == 0)
                printf("primes: FAIL %ld / %ld = %ld rem %ld\n", (long)a, (long)b, (long)q, (long)r);
        }
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
        uint32_t uq = ua / ub, ur = ua % ub;
        if (uq * ub + ur != ua || ur >= ub) {
            if (division_failures++ == 0)
                printf("primes: FAIL %lu /u %lu = %lu rem %lu\n", (unsigned long)ua,
                       (unsigned long)ub, (unsigned long)uq, (unsigned long)ur);
        }
    }
    if (division_failures)
        failures++;

    uint64_t cycles = rvmesh_cycles() - cycles_start;
    uint64_t instret = rvmesh_instret() - instret_start;
    printf("primes: %lu below %u, %lu below %u, gcd sum %lu: %s; cycles %lu instret %lu\n",
           (unsigned long)sieve_primes, (unsigned)SIEVE_LIMIT, (unsigned long)trial_primes,
           (unsigned)TRIAL_LIMIT, (unsigned long)gcd_sum, failures ? "FAIL" : "ok",
           (unsigned long)cycles, (unsigned long)instret);
    return failures;
}
