/* SPDX-License-Identifier: ISC
 * n-body in integers: the kernel the nodes run (main.c) and the host reference computes
 * (ref.c) from the same lines, so the two agree to the bit.
 *
 * NBODY_N bodies in a periodic box of 4096^3 units. A body is a position and a mass; every
 * step each body is pulled towards every other by a softened force along the shortest way
 * round the box, a_i = sum_j m_j * d_ij * 2^16 / (|d_ij|^2 + EPS) / 2^16 in integer
 * arithmetic (no floating point on an RV32IM core; no square root: a force falling as 1/r,
 * the 2-D law, which keeps every sum inside 32 bits), then its velocity and position move
 * on. The initial state is a fixed pseudo-random function of the body's number.
 */
#ifndef NBODY_H
#define NBODY_H

#include <stdint.h>

#include "../app_hash.h"

#define NBODY_BOX 4096          /* positions are 0 .. 4095 */
#define NBODY_EPS 4096          /* softening, in squared units */

struct body {
    int32_t x, y, z;            /* position */
    int32_t m;                  /* mass, 1 .. 15 */
};                              /* 16 bytes: a block of rvm_allgather is B of them */

/* body i's initial position, mass and velocity */
static inline void nbody_initial(uint32_t i, struct body *b, int32_t v[3])
{
    b->x = (int32_t)(app_hash(4u * i + 1u) % NBODY_BOX);
    b->y = (int32_t)(app_hash(4u * i + 2u) % NBODY_BOX);
    b->z = (int32_t)(app_hash(4u * i + 3u) % NBODY_BOX);
    b->m = (int32_t)(1u + app_hash(4u * i + 4u) % 15u);
    const uint32_t h = app_hash(~i);
    v[0] = (int32_t)(h & 63u) - 32;
    v[1] = (int32_t)((h >> 6) & 63u) - 32;
    v[2] = (int32_t)((h >> 12) & 63u) - 32;
}

/* the shortest way from a to b round the box: -2048 .. 2047 */
static inline int32_t nbody_delta(int32_t a, int32_t b)
{
    int32_t d = b - a;
    if (d >= NBODY_BOX / 2)
        d -= NBODY_BOX;
    else if (d < -NBODY_BOX / 2)
        d += NBODY_BOX;
    return d;
}

/* One step of the bodies mine[0..count) (with velocities vel) against all[0..n), which holds
 * every body's position at the start of the step (mine among them). */
static inline void nbody_step(struct body *mine, int32_t (*vel)[3], uint32_t count, const struct body *all,
                              uint32_t n)
{
    for (uint32_t i = 0; i < count; i++) {
        int32_t ax = 0, ay = 0, az = 0;
        const int32_t x = mine[i].x, y = mine[i].y, z = mine[i].z;
        for (uint32_t j = 0; j < n; j++) {
            const int32_t dx = nbody_delta(x, all[j].x), dy = nbody_delta(y, all[j].y), dz = nbody_delta(z, all[j].z);
            const int32_t r2 = dx * dx + dy * dy + dz * dz + NBODY_EPS;   /* < 2^24 */
            const int32_t q = (all[j].m << 16) / r2;                     /* < 2^8 */
            ax += q * dx;                                                /* |q dx| < 2^19 */
            ay += q * dy;
            az += q * dz;
        }
        vel[i][0] += ax >> 10;
        vel[i][1] += ay >> 10;
        vel[i][2] += az >> 10;
        mine[i].x = (int32_t)((uint32_t)(x + (vel[i][0] >> 4)) & (NBODY_BOX - 1u));
        mine[i].y = (int32_t)((uint32_t)(y + (vel[i][1] >> 4)) & (NBODY_BOX - 1u));
        mine[i].z = (int32_t)((uint32_t)(z + (vel[i][2] >> 4)) & (NBODY_BOX - 1u));
    }
}

#endif
