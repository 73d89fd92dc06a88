/* SPDX-License-Identifier: ISC
 * The application kit's own figures (make bench-apps, build/bench/kit.json). Every node
 * prints what rvm_init took and the tables it holds ("kit: init C cycles, tables B bytes,
 * workspace W bytes"); then each declared collective runs twice with 4-byte blocks, checked,
 * and node 0 prints the cycles of the first call (the plan compiled) and the second (the
 * plan kept): "kit: bcast first F again A". */
#include <stdio.h>

#include "rvmesh.h"

static uint32_t send[RVM_NODES], recv[RVM_NODES];

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
    } else {
        rvm_alltoall(send, recv, 4);
        for (uint32_t k = 0; k < n; k++)
            *ok &= recv[k] == k * 1000u + me + 100000u * (uint32_t)round;
    }
    return (uint32_t)(rvm_cycles() - t0);
}

int main(void)
{
    rvm_init();
    printf("kit: init %lu cycles, tables %lu bytes, workspace %lu bytes\n", (unsigned long)rvm_init_cycles(),
           (unsigned long)rvm_tables_bytes(), (unsigned long)rvm_workspace_bytes());
    static const char *const names[] = {"bcast", "allgather", "alltoall"};
    int ok = 1;
    for (int c = 0; c < 3; c++) {
        const uint32_t first = timed(c, 0, &ok), again = timed(c, 1, &ok);
        if (rvm_node() == 0)
            printf("kit: %s first %lu again %lu\n", names[c], (unsigned long)first, (unsigned long)again);
    }
    if (!ok)
        printf("kit: a collective delivered wrong data\n");
    return ok ? 0 : 1;
}
