/* SPDX-License-Identifier: ISC
 * The application kit's own figures (make bench-apps, build/bench/kit.json). Every node
 * prints what rvm_init took and the tables it holds ("kit: init C cycles, tables B bytes,
 * workspace W bytes"); then each declared collective runs twice with 4-byte blocks, checked,
 * and node 0 prints the cycles of the first call (the plan compiled) and the second (the
 * plan kept): "kit: bcast first F again A". The same for a 4-byte rvm_allreduce (a sum,
 * checked) and rvm_barrier; then a repeated allreduce (sum) of 1 KiB and 4 KiB vectors
 * (count a multiple of N: the large path when it fits): "kit: allreduce 1024 again A". */
#include <stdio.h>

#include "rvmesh.h"

static uint32_t send[RVM_NODES], recv[RVM_NODES];
#define VEC_MAX 1024u   /* elements: 4 KiB */
static uint32_t vec_in[VEC_MAX], vec_out[VEC_MAX];

/* cycles of one call, and whether it delivered */
static uint32_t timed(int which, int round, int *ok)
{
    const uint32_t me = rvm_node(), n = rvm_nodes();
    for (uint32_t k = 0; k < n; k++)
        send[k] = me * 1000u + k + 100000u * (uint32_t)round;
    const uint64_t t0 = rvm_cycles();
    if (which == 0) {
        recv[0] = me == 0 ? 424242u + (uint32_t)round : 0;
        rvm_bcast(recv, 4, 0);
        *ok &= recv[0] == 424242u + (uint32_t)round;
    } else if (which == 1) {
        rvm_allgather(send, recv, 4);
        for (uint32_t k = 0; k < n; k++)
            *ok &= recv[k] == k * 1000u + 100000u * (uint32_t)round;
    } else if (which == 2) {
        rvm_alltoall(send, recv, 4);
        for (uint32_t k = 0; k < n; k++)
            *ok &= recv[k] == k * 1000u + me + 100000u * (uint32_t)round;
    } else if (which == 3) {
        rvm_allreduce(send, recv, 1, RVM_SUM);   /* sum over s of s*1000 + 100000*round */
        *ok &= recv[0] == 1000u * (n * (n - 1u) / 2u) + 100000u * (uint32_t)round * n;
    } else {
        *ok &= rvm_barrier() == 0;
    }
    return (uint32_t)(rvm_cycles() - t0);
}

int main(void)
{
    rvm_init();
    printf("kit: init %lu cycles, tables %lu bytes, workspace %lu bytes\n", (unsigned long)rvm_init_cycles(),
           (unsigned long)rvm_tables_bytes(), (unsigned long)rvm_workspace_bytes());
    static const char *const names[] = {"bcast", "allgather", "alltoall", "allreduce", "barrier"};
    int ok = 1;
    for (int c = 0; c < 5; c++) {
        const uint32_t first = timed(c, 0, &ok), again = timed(c, 1, &ok);
        if (rvm_node() == 0)
            printf("kit: %s first %lu again %lu\n", names[c], (unsigned long)first, (unsigned long)again);
    }
    /* larger vectors: the second call of each size timed (its plans kept) */
    const uint32_t n = rvm_nodes(), me = rvm_node();
    for (uint32_t count = 256u; count <= VEC_MAX; count *= 4u) {
        if (4u * (count + count / n) + 64u > rvm_workspace_bytes() && 4u * count * n + 64u > rvm_workspace_bytes())
            continue;   /* neither path fits this node's free RAM */
        for (uint32_t i = 0; i < count; i++)
            vec_in[i] = me * 7u + i;
        uint32_t took = 0;
        for (int round = 0; round < 2; round++) {
            const uint64_t t0 = rvm_cycles();
            rvm_allreduce(vec_in, vec_out, count, RVM_SUM);
            took = (uint32_t)(rvm_cycles() - t0);
        }
        for (uint32_t i = 0; i < count; i++)
            ok &= vec_out[i] == 7u * (n * (n - 1u) / 2u) + n * i;
        if (me == 0)
            printf("kit: allreduce %lu again %lu (%s)\n", (unsigned long)(4u * count), (unsigned long)took,
                   rvm_last_reduce_path());
    }
    if (!ok)
        printf("kit: a collective delivered wrong data\n");
    return ok ? 0 : 1;
}
