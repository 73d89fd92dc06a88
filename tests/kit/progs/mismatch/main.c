/* SPDX-License-Identifier: ISC
 * Node 3 calls rvm_allgather with blocks of 8 bytes, every other node with 4: the call must
 * end in a timeout error naming it (tests/kit/test_kit.sh), not hang; the kit's default
 * error handling then ends the nodes that timed out with status 80. */
#include "rvmesh.h"

static uint32_t send[2], recv[RVM_NODES * 2];

int main(void)
{
    rvm_init();
    rvm_allgather(send, recv, rvm_node() == 3 ? 8u : 4u);
    return 0;
}
