/* SPDX-License-Identifier: ISC */

#include "bcast/sched_bcast.h"
#include "base/sched_base.h"
#include <string.h>

/* Store-and-forward broadcast: the product-network tree (thesis Thm 3.1). The parent of u
 * changes u's lowest differing coordinate i one step toward the root along the 1-D
 * shortest-path tree (ring: floor(n/2) nodes clockwise, the rest counter-clockwise). u
 * receives at slot dist(root, u), so the broadcast takes ecc(root) slots. */

int sched_gen_saf_bcast(sched_schedule *s, char *err, size_t errlen)
{
    const sched_shape *sh = &s->shape;
    uint32_t n = sched_nodes(sh);
    int32_t r[SCHED_MAX_DIMS], u[SCHED_MAX_DIMS];
    sched_node_coord(sh, s->root, r);
    for (uint32_t id = 0; id < n; id++) {
        if (id == s->root) continue;
        sched_node_coord(sh, id, u);
        unsigned i = 0;
        while (u[i] == r[i]) i++;
        int32_t side = sh->side[i], dir;
        if (sh->torus) {
            int32_t off = ((u[i] - r[i]) % side + side) % side;
            dir = off <= side / 2 ? 1 : -1;          /* the hop into u goes this way */
        } else {
            dir = u[i] > r[i] ? 1 : -1;
        }
        int32_t p[SCHED_MAX_DIMS];
        memcpy(p, u, sizeof p);
        p[i] = ((p[i] - dir) % side + side) % side;
        sched_msg m = {0};
        m.src = sched_node_id(sh, p);
        m.dst = id;
        m.piece = 0;
        m.step = (uint16_t)sched_distance(sh, s->root, id);
        m.start_dim = (uint8_t)i;
        m.hops[i] = (int16_t)dir;
        if (sched_push(s, &m)) return sched_fail(err, errlen, "out of memory");
    }
    sched_finish(s);
    return 0;
}
