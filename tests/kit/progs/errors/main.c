/* SPDX-License-Identifier: ISC
 * The application kit's errors (tests/kit/test_kit.sh). With rvm_errors_return(1) every bad
 * call returns its code (the test checks the message the kit printed before it); after them
 * the nodes must still be in step: a broadcast from node 5 delivers. A call made again with
 * the same buffers and m runs the plan the kit kept (no compilation). Built with -DFATAL, the
 * first bad call (an alltoall this program does not declare) ends every node with status 84,
 * as MPI's default error handler would. Prints "check NAME: ok" for each check that held. */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"

static uint32_t buf[64], out[RVM_NODES * 64];

#ifndef FATAL
static int failures;

static void expect(const char *name, int got, int want)
{
    if (got == want) {
        printf("check %s: ok\n", name);
    } else {
        printf("check %s: FAILED: returned %d, want %d\n", name, got, want);
        failures++;
    }
}

#endif

int main(void)
{
#ifdef FATAL
    rvm_init();
    rvm_alltoall(buf, out, 4);   /* not declared: the node ends here with status 84 */
    printf("check fatal: FAILED: rvm_alltoall returned\n");
    return 1;
#else
    rvm_errors_return(1);
    expect("before-init", rvm_bcast(buf, 4, 0), COLL_ENI);
    expect("init", rvm_init(), COLL_OK);
    expect("init-again", rvm_init(), COLL_OK);
    const uint32_t me = rvm_node();
    expect("timeout-default", (int)rvm_timeout(), (int)RVM_TIMEOUT_CYCLES);
    expect("undeclared-collective", rvm_alltoall(buf, out, 4), COLL_EUNDECLARED);
    expect("undeclared-root", rvm_bcast(buf, 4, 3), COLL_EUNDECLARED);
    expect("root-off-machine", rvm_bcast(buf, 4, RVM_NODES), COLL_EROOT);
    expect("m-zero", rvm_allgather(buf, out, 0), COLL_ESIZE);
    expect("m-not-words", rvm_allgather(buf, out, 6), COLL_ESIZE);
    expect("workspace", rvm_scatter(0, 0, 120000, 0), COLL_EWORKSPACE);
    expect("buffer-misaligned", rvm_allgather((const uint8_t *)buf + 2, out, 4), COLL_EARG);
    /* still in step: a broadcast from node 5 of 12 bytes (not a multiple of the arc-disjoint
     * trees' 16: the Tsay-Wang variant takes it), and an allgather */
    for (int i = 0; i < 3; i++)
        buf[i] = me == 5 ? 0x5000u + (uint32_t)i : 0;
    expect("bcast-12-bytes", rvm_bcast(buf, 12, 5), COLL_OK);
    int good = 1;
    for (int i = 0; i < 3; i++)
        good &= buf[i] == 0x5000u + (uint32_t)i;
    expect("bcast-12-bytes-delivered", good, 1);
    buf[0] = me * 7u;
    expect("allgather", rvm_allgather(buf, out, 4), COLL_OK);
    good = 1;
    for (uint32_t k = 0; k < rvm_nodes(); k++)
        good &= out[k] == k * 7u;
    expect("allgather-delivered", good, 1);
    /* the same call again runs the plan kept from the first (no compilation), and delivers */
    buf[0] = me * 9u;
    expect("allgather-again", rvm_allgather(buf, out, 4), COLL_OK);
    expect("allgather-again-kept-plan", rvm_last_setup_cycles() == 0, 1);
    good = 1;
    for (uint32_t k = 0; k < rvm_nodes(); k++)
        good &= out[k] == k * 9u;
    expect("allgather-again-delivered", good, 1);
    /* another result buffer: a plan of its own */
    buf[0] = me * 11u;
    expect("allgather-other-buffer", rvm_allgather(buf, out + 32, 4), COLL_OK);
    expect("allgather-other-buffer-compiled", rvm_last_setup_cycles() > 0, 1);
    good = 1;
    for (uint32_t k = 0; k < rvm_nodes(); k++)
        good &= out[32 + k] == k * 11u && out[k] == k * 9u;
    expect("allgather-other-buffer-delivered", good, 1);
    /* scatter and gather of 8-byte blocks through root 0 (the others pass NULL where they
     * have no buffer) */
    static uint32_t blocks[RVM_NODES * 2], mine[2];
    if (me == 0)
        for (uint32_t k = 0; k < 2u * RVM_NODES; k++)
            blocks[k] = 0x77000000u + k;
    expect("scatter", rvm_scatter(me == 0 ? blocks : 0, mine, 8, 0), COLL_OK);
    expect("scatter-delivered", mine[0] == 0x77000000u + 2u * me && mine[1] == 0x77000001u + 2u * me, 1);
    mine[0] = 0x66000000u + me;
    mine[1] = ~me;
    if (me == 0)
        for (uint32_t k = 0; k < 2u * RVM_NODES; k++)
            blocks[k] = 0;
    expect("gather", rvm_gather(mine, me == 0 ? blocks : 0, 8, 0), COLL_OK);
    good = 1;
    if (me == 0)
        for (uint32_t k = 0; k < RVM_NODES; k++)
            good &= blocks[2 * k] == 0x66000000u + k && blocks[2 * k + 1] == ~k;
    expect("gather-delivered", good, 1);
    if (me == 0)
        printf("errors: %d checks failed\n", failures);
    return failures ? 1 : 0;
#endif
}
