/* SPDX-License-Identifier: ISC
 * rvm_allreduce, rvm_reduce, rvm_reduce_scatter, rvm_op_create and rvm_barrier
 * (tests/kit/test_kit_reduce.sh). Every node's
 * input is a known function of its number, so every node computes the expected result of
 * each reduction itself and checks what the call delivered: SUM, MIN, MAX, BXOR (and the
 * others) on the small path (recursive doubling in the NI where it combines, else allgather
 * + local combine; allgather also with the NI's paths off) and the large path (reduce-scatter
 * by alltoall + allgather). The barrier: node 0 computes for 40,000 cycles before it; every
 * node's exit from it must come after every node's entry (machine-wide cycle counts,
 * exchanged by an allgather). rvm_plan_stats: the counts of kept plans over a loop of one
 * call, and a drop forced by a reduction whose blocks leave too little free RAM (check_plan_stats).
 * Prints "check NAME: ok" for each check that held.
 * Built with -DBAD (COLLECTIVES=bcast): an allreduce without allgather declared returns
 * COLL_EUNDECLARED; rvm_barrier, which needs no table, still works.
 * Built with -DSKIP (TIMEOUT=20000): node 3 skips rvm_barrier, the others end in a timeout
 * naming it (status 80). */
#include <stdio.h>
#include <string.h>

#include "rvmesh.h"

#define LARGE (RVM_NODES * 16u)   /* 1 KiB on the 4x4 torus: a multiple of 4N, the NI's rings (built-in ops) */
#define ALT (RVM_NODES * 17u)     /* a multiple of N, not of 4N: the large path (alltoall + allgather) */
#define RING (RVM_NODES * 4u)     /* the rings' smallest count (the core's reference costs N x count) */

static uint32_t in[ALT], out[ALT + 1], want[ALT];
static int failures;

static void expect(const char *name, int good)
{
    if (good) {
        printf("check %s: ok\n", name);
    } else {
        printf("check %s: FAILED\n", name);
        failures++;
    }
}

/* node s's element i: negatives and positives, different on every node and element */
static uint32_t value(uint32_t s, uint32_t i)
{
    return (uint32_t)((int32_t)((s * 2654435761u) ^ (i * 40503u)) >> 3) + s;
}

/* an op of the program's own that does not commute: an element is the map x -> a*x + b
 * modulo 2^16 (a in the high half, b in the low); acc then x is "acc's map, then x's" */
static void compose(uint32_t *acc, const uint32_t *x, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t a1 = acc[i] >> 16, b1 = acc[i] & 0xffffu, a2 = x[i] >> 16, b2 = x[i] & 0xffffu;
        acc[i] = ((a2 * a1) & 0xffffu) << 16 | ((a2 * b1 + b2) & 0xffffu);
    }
}

static void expected(uint32_t count, rvm_op op)
{
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t a = value(0, i);
        for (uint32_t s = 1; s < rvm_nodes(); ++s) {
            const uint32_t x = value(s, i);
            switch (op) {
            case RVM_SUM: a += x; break;
            case RVM_MIN: a = (int32_t)x < (int32_t)a ? x : a; break;
            case RVM_MAX: a = (int32_t)x > (int32_t)a ? x : a; break;
            case RVM_UMIN: a = x < a ? x : a; break;
            case RVM_UMAX: a = x > a ? x : a; break;
            case RVM_BAND: a &= x; break;
            case RVM_BOR: a |= x; break;
            case RVM_BXOR: a ^= x; break;
            default: compose(&a, &x, 1); break;   /* the op rvm_op_create made */
            }
        }
        want[i] = a;
    }
}

static void fill(uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        in[i] = value(rvm_node(), i);
}

static const char *op_name(rvm_op op)
{
    static const char *const names[] = {"?", "sum", "min", "max", "band", "bor", "bxor", "umin", "umax"};
    return (uint32_t)op <= RVM_UMAX ? names[op] : "user";
}

/* one allreduce of count elements, checked; the path it must take */
static __attribute__((unused)) void check_allreduce(uint32_t count, rvm_op op, const char *path, const char *tag)
{
    char name[48];
    fill(count);
    memset(out, 0x5a, sizeof out);
    expected(count, op);
    const uint64_t t0 = rvm_cycles();
    const int rc = rvm_allreduce(in, out, count, op);
    const uint64_t t1 = rvm_cycles();
    snprintf(name, sizeof name, "allreduce-%s-%lu%s", op_name(op), (unsigned long)count, tag);
    expect(name, rc == 0 && !memcmp(out, want, 4u * count) && out[count] == 0x5a5a5a5au &&
                     !strcmp(rvm_last_reduce_path(), path));
    if (rvm_node() == 0)
        printf("cycles allreduce %s %lu elements%s (%s): %lu\n", op_name(op), (unsigned long)count,
               !strcmp(tag, "-again") ? " again" : tag, rvm_last_reduce_path(), (unsigned long)(t1 - t0));
}

/* rvm_plan_stats: a loop of the same call compiles nothing and reuses its plan every time;
 * a reduction whose blocks leave too little free RAM below them for the kept plans drops
 * them (drops grows), and the same call again then finds its own plan kept */
#define LOOP 10u
#define BIG (1024u - 1u)   /* at most; not a multiple of N: the small path, which holds N x count words */
static uint32_t big[BIG];

static __attribute__((unused)) void check_plan_stats(uint32_t me)
{
    struct rvm_plan_stats s0, s1, s2, s3;
    fill(5);
    int rc = rvm_allreduce(in, out, 5, RVM_SUM);   /* warm-up: its plan compiled or kept */
    rc |= rvm_plan_stats(&s0);
    for (uint32_t k = 0; k < LOOP; ++k)
        rc |= rvm_allreduce(in, out, 5, RVM_SUM);
    rc |= rvm_plan_stats(&s1);
    expect("plan-stats-loop", rc == 0 && s1.compiled == s0.compiled && s1.reused == s0.reused + LOOP &&
                                  s1.drops == s0.drops && s1.kept_bytes == s0.kept_bytes && s0.kept_bytes > 0);
    expect("plan-stats-workspace", s1.workspace_bytes == rvm_workspace_bytes() && s1.kept_bytes <= s1.workspace_bytes);
    /* N x count words held at the top of the free RAM leave less than the kept plans take: the
     * most that leave 1 KiB for the call's own plan (560 bytes on the 4x4 torus; the free RAM
     * moves with the library's own arrays) */
    uint32_t count = BIG;
    while (count > 1u &&
           (((RVM_NODES * 4u * count + 15u) & ~15u) + 1024u > s1.workspace_bytes || count % RVM_NODES == 0u))
        --count;
    const uint32_t held = (RVM_NODES * 4u * count + 15u) & ~15u;
    expect("plan-stats-drop-premise", held + 1024u <= s1.workspace_bytes && s1.kept_bytes + held > s1.workspace_bytes);
    for (uint32_t i = 0; i < count; ++i)
        big[i] = value(me, i);
    rc = rvm_reduce(big, me == 0 ? big : NULL, count, RVM_BOR, 0);
    rc |= rvm_plan_stats(&s2);
    expect("plan-stats-drop", rc == 0 && !strcmp(rvm_last_reduce_path(), "allgather") && s2.drops == s1.drops + 1u &&
                                  s2.compiled == s1.compiled + 1u && s2.reused == s1.reused &&
                                  s2.kept_bytes > 0 && s2.kept_bytes < s1.kept_bytes);
    for (uint32_t i = 0; i < count; ++i)
        big[i] = value(me, i);
    rc = rvm_reduce(big, me == 0 ? big : NULL, count, RVM_BOR, 0);
    rc |= rvm_plan_stats(&s3);
    expect("plan-stats-drop-again", rc == 0 && s3.drops == s2.drops && s3.compiled == s2.compiled &&
                                        s3.reused == s2.reused + 1u);
    if (me == 0)
        printf("plan stats: %lu reused, %lu compiled, %lu drops, %lu of %lu bytes kept\n", (unsigned long)s3.reused,
               (unsigned long)s3.compiled, (unsigned long)s3.drops, (unsigned long)s3.kept_bytes,
               (unsigned long)s3.workspace_bytes);
    rvm_errors_return(1);
    expect("plan-stats-null", rvm_plan_stats(NULL) == COLL_EARG);
    rvm_errors_return(0);
}

int main(void)
{
    rvm_init();
    const uint32_t me = rvm_node();
#ifdef SKIP
    if (me == 3)
        return 0;   /* skips the barrier: the others time out naming rvm_barrier */
    rvm_barrier();
    printf("check barrier-skipped: FAILED: rvm_barrier returned\n");
    return 1;
#elif defined BAD
    rvm_errors_return(1);
    fill(4);
    /* (the NI's paths off: its doubling would take these with nothing declared) */
    rvm_allreduce_rings(0);
    expect("undeclared-allgather", rvm_allreduce(in, out, 4, RVM_SUM) == COLL_EUNDECLARED);
    /* 5 elements a block: not the NI's rings (a multiple of 4), which need no declaration */
    expect("undeclared-alltoall", rvm_reduce_scatter(in, out, 5, RVM_SUM) == COLL_EUNDECLARED);
    rvm_allreduce_rings(1);
    rvm_errors_return(0);
    /* the NI's doubling needs no table: a short allreduce works with only bcast declared */
    fill(4);
    expected(4, RVM_SUM);
    expect("doubling-without-tables", !ni_has_combine() || (rvm_allreduce(in, out, 4, RVM_SUM) == 0 &&
                                                            !memcmp(out, want, 16) &&
                                                            !strcmp(rvm_last_reduce_path(), "doubling")));
    (void)me;
    /* the barrier needs no table: it works with only bcast declared */
    expect("barrier-without-tables", rvm_barrier() == 0);
    return failures ? 1 : 0;
#else
    /* the small path: a vector that is not a multiple of N, and one element; where the NI
     * combines (sides that are powers of two) by recursive doubling in the NI, else by
     * allgather + local combine */
    const char *const small = ni_has_combine() ? "doubling" : "allgather";
    static const rvm_op ops[] = {RVM_SUM, RVM_MIN, RVM_MAX, RVM_BXOR, RVM_BAND, RVM_BOR, RVM_UMIN, RVM_UMAX};
    for (uint32_t k = 0; k < sizeof ops / sizeof ops[0]; ++k)
        check_allreduce(5, ops[k], small, "");
    check_allreduce(1, RVM_SUM, small, "");
    check_allreduce(1, RVM_SUM, small, "-again");   /* again: the kept plan */
    /* a multiple of N below RVM_ALLREDUCE_LARGE_BYTES: still small */
    check_allreduce(RVM_NODES * 2u, RVM_MAX, small, "");
    /* the doubling's largest kind of vector: not a multiple of 4N, under RVM_DOUBLING_MAX_BYTES */
    check_allreduce(255, RVM_BXOR, small, "");
    check_allreduce(255, RVM_UMIN, small, "");
    /* with the NI's paths off: allgather + local combine */
    rvm_allreduce_rings(0);
    check_allreduce(5, RVM_SUM, "allgather", "-no-ni");
    check_allreduce(5, RVM_MAX, "allgather", "-no-ni");
    rvm_allreduce_rings(1);
    /* the large path: reduce-scatter by alltoall, allgather */
    check_allreduce(ALT, RVM_SUM, "alltoall+allgather", "");
    check_allreduce(ALT, RVM_SUM, "alltoall+allgather", "-again");   /* again: the kept plans */
    check_allreduce(ALT, RVM_MIN, "alltoall+allgather", "");
    check_allreduce(ALT, RVM_MAX, "alltoall+allgather", "");
    check_allreduce(ALT, RVM_BXOR, "alltoall+allgather", "");
    /* the same in place: its blocks held in the free RAM, not in recv */
    fill(ALT);
    expected(ALT, RVM_MAX);
    memcpy(out, in, 4u * ALT);
    out[ALT] = 0x5a5a5a5au;
    expect("allreduce-max-alt-in-place", rvm_allreduce(out, out, ALT, RVM_MAX) == 0 && !memcmp(out, want, 4u * ALT) &&
                                             out[ALT] == 0x5a5a5a5au &&
                                             !strcmp(rvm_last_reduce_path(), "alltoall+allgather"));
    /* the NI's rings (a 2-D torus whose NI combines), every built-in op, apart and in place */
    for (uint32_t k = 0; k < sizeof ops / sizeof ops[0]; ++k)
        check_allreduce(RING, ops[k], ni_has_combine() ? "rings" : "alltoall+allgather", "");
    check_allreduce(RING, RVM_SUM, ni_has_combine() ? "rings" : "alltoall+allgather", "-again");
    for (uint32_t k = 0; k < sizeof ops / sizeof ops[0]; k += 3) {
        char name[40];
        fill(RING);
        expected(RING, ops[k]);
        memcpy(out, in, 4u * RING);
        out[RING] = 0x5a5a5a5au;
        snprintf(name, sizeof name, "allreduce-%s-in-place", op_name(ops[k]));
        expect(name, rvm_allreduce(out, out, RING, ops[k]) == 0 && !memcmp(out, want, 4u * RING) &&
                     out[RING] == 0x5a5a5a5au && !strcmp(rvm_last_reduce_path(), ni_has_combine() ? "rings" : "alltoall+allgather"));
    }
    /* in place */
    fill(5);
    expected(5, RVM_SUM);
    expect("allreduce-in-place", rvm_allreduce(in, in, 5, RVM_SUM) == 0 && !memcmp(in, want, 20) &&
                                     !strcmp(rvm_last_reduce_path(), small));
    fill(255);
    expected(255, RVM_MIN);
    expect("allreduce-in-place-255", rvm_allreduce(in, in, 255, RVM_MIN) == 0 && !memcmp(in, want, 4u * 255u) &&
                                         !strcmp(rvm_last_reduce_path(), small));
    /* rvm_reduce to node 5, the others passing NULL: small, and LARGE (the rings where the
     * NI combines, else reduce-scatter + allgather); ALT (not a multiple of 4N: never the rings) */
    static const uint32_t reduce_counts[] = {5, LARGE, ALT};
    static const char *const reduce_names[] = {"reduce-small", "reduce-large", "reduce-alt"};
    for (uint32_t k = 0; k < 3; ++k) {
        const uint32_t count = reduce_counts[k];
        fill(count);
        expected(count, RVM_BXOR);
        memset(out, 0x5a, sizeof out);
        const int rc = rvm_reduce(in, me == 5 ? out : NULL, count, RVM_BXOR, 5);
        const char *path = k == 0 ? small : k == 1 && ni_has_combine() ? "rings" : "alltoall+allgather";
        expect(reduce_names[k], rc == 0 && (me != 5 ? out[0] == 0x5a5a5a5au : !memcmp(out, want, 4u * count)) &&
                                    out[count] == 0x5a5a5a5au && !strcmp(rvm_last_reduce_path(), path));
    }
    /* the rings' reduce with the root in place (send == recv: its result held, then copied)
     * and to node 0 with recv apart on every node (the others' recv untouched) */
    fill(RING);
    expected(RING, RVM_UMAX);
    memcpy(out, in, 4u * RING);
    out[RING] = 0x5a5a5a5au;
    expect("reduce-rings-in-place", rvm_reduce(out, out, RING, RVM_UMAX, 9) == 0 && out[RING] == 0x5a5a5a5au &&
                                        !memcmp(out, me == 9 ? want : in, 4u * RING) &&
                                        !strcmp(rvm_last_reduce_path(), ni_has_combine() ? "rings" : "alltoall+allgather"));
    expected(RING, RVM_SUM);
    memset(out, 0x5a, sizeof out);
    expect("reduce-rings-apart", rvm_reduce(in, out, RING, RVM_SUM, 0) == 0 &&
                                     (me == 0 ? !memcmp(out, want, 4u * RING) : out[0] == 0x5a5a5a5au) &&
                                     out[RING] == 0x5a5a5a5au);
    /* an op of the program's own, which does not commute: node order on both paths */
    const rvm_op user = rvm_op_create(compose);
    expect("op-create", user == RVM_OP_USER);
    check_allreduce(5, user, "allgather", "");
    check_allreduce(LARGE, user, "alltoall+allgather", "");   /* not the rings: node order */
    /* reduce-scatter: block me of every node, combined; with built-in ops (the NI's rings where
     * it combines: count a multiple of 4) and the own one (alltoall), and 17 a block (alltoall) */
    static const rvm_op rs_ops[] = {RVM_SUM, RVM_MAX, RVM_BAND, RVM_OP_USER, RVM_SUM};
    for (uint32_t k = 0; k < 5; ++k) {
        const uint32_t count = k == 4 ? ALT / RVM_NODES : LARGE / RVM_NODES;
        const int rings = ni_has_combine() && rs_ops[k] != RVM_OP_USER && count % 4u == 0;
        char name[40];
        fill(count * RVM_NODES);
        expected(count * RVM_NODES, rs_ops[k]);
        memset(out, 0x5a, sizeof out);
        const int rc = rvm_reduce_scatter(in, out, count, rs_ops[k]);
        snprintf(name, sizeof name, "reduce-scatter-%s-%lu", op_name(rs_ops[k]), (unsigned long)count);
        expect(name, rc == 0 && !memcmp(out, want + me * count, 4u * count) && out[count] == 0x5a5a5a5au &&
                         !strcmp(rvm_last_reduce_path(), rings ? "rings" : "alltoall"));
    }
    /* on the rings each node's block goes straight into its recv (the machine's plan): again with
     * the kept plan; in place (recv == send: block me into send's first count elements) the rings
     * reduce into the free RAM and copy block me */
    {
        const uint32_t count = LARGE / RVM_NODES;
        const int rings = ni_has_combine() && count % 4u == 0;
        fill(count * RVM_NODES);
        expected(count * RVM_NODES, RVM_SUM);
        memset(out, 0x5a, sizeof out);
        const int rc = rvm_reduce_scatter(in, out, count, RVM_SUM);
        expect("reduce-scatter-sum-again", rc == 0 && !memcmp(out, want + me * count, 4u * count) &&
                                               out[count] == 0x5a5a5a5au &&
                                               !strcmp(rvm_last_reduce_path(), rings ? "rings" : "alltoall"));
        const int rc2 = rvm_reduce_scatter(in, in, count, RVM_SUM);
        expect("reduce-scatter-in-place", rc2 == 0 && !memcmp(in, want + me * count, 4u * count) &&
                                              !strcmp(rvm_last_reduce_path(), rings ? "rings" : "alltoall"));
    }
    /* a short reduce-scatter (3 a block, 48 elements: not the rings'): by recursive doubling where
     * the NI combines, else by alltoall */
    fill(3u * RVM_NODES);
    expected(3u * RVM_NODES, RVM_MAX);
    memset(out, 0x5a, sizeof out);
    expect("reduce-scatter-max-3", rvm_reduce_scatter(in, out, 3, RVM_MAX) == 0 && !memcmp(out, want + me * 3u, 12) &&
                                       out[3] == 0x5a5a5a5au &&
                                       !strcmp(rvm_last_reduce_path(), ni_has_combine() ? "doubling" : "alltoall"));
    /* bad input returns its code and the nodes stay in step */
    rvm_errors_return(1);
    expect("op-create-null", rvm_op_create(0) == (rvm_op)0);
    for (uint32_t k = 1; k < RVM_MAX_USER_OPS; ++k)
        rvm_op_create(compose);
    expect("op-create-full", rvm_op_create(compose) == (rvm_op)0);
    expect("reduce-scatter-unknown-op", rvm_reduce_scatter(in, out, 4, (rvm_op)(RVM_OP_USER + 9)) == COLL_EARG);
    expect("reduce-scatter-workspace", rvm_reduce_scatter(in, out, 1u << 20, RVM_SUM) == COLL_EWORKSPACE);
    expect("unknown-op", rvm_allreduce(in, out, 4, (rvm_op)99) == COLL_EARG);
    expect("count-zero", rvm_allreduce(in, out, 0, RVM_SUM) == 0);
    expect("misaligned", rvm_allreduce((const uint8_t *)in + 2, out, 4, RVM_SUM) == COLL_EARG);
    expect("reduce-root-off", rvm_reduce(in, out, 4, RVM_SUM, RVM_NODES) == COLL_EROOT);
    expect("workspace", rvm_allreduce(in, out, 1u << 20, RVM_SUM) == COLL_EWORKSPACE);
    /* the rings write recv while they read send: overlapping buffers, not the same one */
    expect("rings-overlap", !ni_has_combine() || rvm_allreduce(in, in + 4, LARGE - 4u * RVM_NODES, RVM_SUM) == COLL_EARG);
    /* the doubling has read send before it copies the result out: overlapping buffers work */
    fill(5);
    expected(5, RVM_SUM);
    expect("doubling-overlap", rvm_allreduce(in, in + 1, 5, RVM_SUM) == 0 && !memcmp(in + 1, want, 20) &&
                                   !strcmp(rvm_last_reduce_path(), small));
    rvm_errors_return(0);
    /* the barrier: node 0 is late; nobody leaves before everybody came */
    if (me == 0) {
        const uint64_t until = rvm_cycles() + 40000u;
        while (rvm_cycles() < until) {
        }
    }
    uint32_t times[2];
    times[0] = (uint32_t)rvm_cycles();
    const int rc = rvm_barrier();
    times[1] = (uint32_t)rvm_cycles();
    static uint32_t all[RVM_NODES * 2];
    rvm_allgather(times, all, 8);
    uint32_t last_in = 0, first_out = 0xffffffffu;
    for (uint32_t s = 0; s < rvm_nodes(); ++s) {
        last_in = all[2 * s] > last_in ? all[2 * s] : last_in;
        first_out = all[2 * s + 1] < first_out ? all[2 * s + 1] : first_out;
    }
    expect("barrier", rc == 0);
    expect("barrier-order", last_in == all[0] && last_in < first_out);
    if (me == 0)
        printf("cycles barrier: last entry %lu, first exit %lu\n", (unsigned long)last_in, (unsigned long)first_out);
    /* what a barrier costs when every node comes at once: the second of two in a row */
    rvm_barrier();
    const uint64_t b0 = rvm_cycles();
    const int rc_again = rvm_barrier();
    const uint64_t b1 = rvm_cycles();
    expect("barrier-again", rc_again == 0);
    if (me == 0)
        printf("cycles barrier again: %lu\n", (unsigned long)(b1 - b0));
    check_plan_stats(me);
    return failures ? 1 : 0;
#endif
}
