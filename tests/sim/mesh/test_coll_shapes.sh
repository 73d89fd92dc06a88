#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Every collective on the shapes besides config.mk's 4x4 torus (which test_coll.sh covers):
# the 4x4 mesh (broadcast by Cang-Wu and its DP variant), the 5x5 torus, the 3x3x3 torus
# (from a random power-on state), and on request the 3x3x3 mesh, each a mesh-sim model of its
# own (mesh-sim-4x4m, -5x5t, -3x3x3t-xrand, -3x3x3m; 1-3 minutes to build each). Roots, sources and block sizes are random (4 bytes .. 1 KiB,
# within what a node's RAM holds), from a seed printed on the first line: 1 unless
# TEST_SEED=N (or TEST_SEED=random); COLL_SHAPES="5x5t" picks shapes. Every job's delivery is
# checked byte for byte by mesh-sim on every node, and its cycles against its bounds.
# test-timeout: 1800
set -u
. tests/sim/mesh/lib.sh
work="$BUILD/tests/sim-mesh-shapes"
elf="$BUILD/fw/firmware/apps/mesh/collectives.elf"
sg="$BUILD/bin/schedgen"
mkdir -p "$work"
mesh_seed

# bytes of the collectives program's arena (send and result buffers, workspace)
arena=$(sed -n 's/^#define COLLECTIVES_ARENA_BYTES \([0-9]*\)u$/\1/p' firmware/apps/mesh/collectives.c)
if [ -z "$arena" ]; then
    echo "FAIL coll-shapes-arena: no COLLECTIVES_ARENA_BYTES in firmware/apps/mesh/collectives.c"
    exit 1
fi
if ! make -s schedgen "$elf" >"$work/make.log" 2>&1; then
    echo "FAIL coll-shapes-build: see $work/make.log"
    exit 1
fi

pick() {  # picked=one of the arguments at random (no subshell: it would reseed RANDOM)
    local a=("$@")
    picked="${a[RANDOM % ${#a[@]}]}"
}

# shape: variant, schedgen shape, kind, dims; the algorithms that apply to it
# COLL_SHAPES="4x4m 5x5t" runs only those. The 3x3x3 mesh is not in make test's list since
# 2026-11-27 (105 s of CI, most of it its model's build, which no other test needs; the
# netlist test took its place): COLL_SHAPES="4x4m 5x5t 3x3x3t 3x3x3m" runs every shape
for spec in "4x4m 4x4 mesh 2" "5x5t 5x5 torus 2" "3x3x3t 3x3x3 torus 3" "3x3x3m 3x3x3 mesh 3"; do
    read -r variant shape kind dims <<<"$spec"
    case " ${COLL_SHAPES:-4x4m 5x5t 3x3x3t} " in *" $variant "*) ;; *) continue ;; esac
    name="coll-$variant"
    # the 3x3x3 torus runs on its model with random power-on state (seed 1), which
    # tests/rtl/tile/test_tile_xrand.sh also uses: one build for both
    model="mesh-sim-$variant"; [ "$variant" = 3x3x3t ] && model=mesh-sim-3x3x3t-xrand
    sim="$BUILD/bin/$model"
    if ! make -s "$model" >>"$work/make.log" 2>&1; then
        echo "FAIL $name: make $model failed (see $work/make.log)"
        continue
    fi
    IFS=x read -r sx sy sz <<<"$shape"
    nodes=$(( sx * sy * ${sz:-1} ))
    # the root of scatter and gather holds N blocks and its own: on 27 nodes 1 KiB blocks do not
    # fit in the program's arena (test_coll.sh checks such refusals); larger picks are cut to fit
    rooted_max=$(( (arena - 1024) / (nodes + 1) / 4 * 4 ))
    # broadcast: Tsay-Wang on tori; on the 4x4 mesh Cang-Wu (the paper's algorithm 1 and the
    # DP variant, 2^k x 2^k meshes only); else store-and-forward
    bcast=tsay-wang; bcast2=saf-bcast
    [ "$kind" = mesh ] && bcast=saf-bcast
    [ "$variant" = 4x4m ] && bcast=cang-wu && bcast2=cang-wu-dp
    exch=te-a3; [ "$dims" = 3 ] && exch=te-a2
    split_parts=$dims
    # partial alltoall and partial gather: the partial-exchange schedule (and its reverse)
    # exists for 2-D meshes
    partial_exchange=""; partial_gather=""
    [ "$kind" = mesh ] && [ "$dims" = 2 ] && partial_exchange="palltoall:pe:4 36 128" && partial_gather="pgather:pg:4 36 128"
    jobs=()
    desc=""
    # collective:algorithm:sizes it may take (bytes; multiples of 4, or of 4*dims for split)
    for job in "bcast:$bcast:4 64 260 1024" "bcast:$bcast2:12 100 1024" "scatter:scatter:4 36 516 1024" \
               "gather:gather:4 36 260 516 1024" "allgather:mnb:4 100 260 516" \
               "allgather:mnb-split:$((4 * split_parts)) $((40 * split_parts)) $((100 * split_parts))" \
               "alltoall:$exch:4 12 36 64" "pallgather:pmnb:4 64 260 516" ${partial_exchange:+"$partial_exchange"} \
               ${partial_gather:+"$partial_gather"}; do
        IFS=: read -r coll algo sizes <<<"$job"
        root="$((RANDOM % sx)),$((RANDOM % sy))"; [ "$dims" = 3 ] && root="$root,$((RANDOM % sz))"
        pick $sizes
        m=$picked
        case $coll in scatter|gather) [ "$m" -gt "$rooted_max" ] && m=$rooted_max ;; esac
        extra=(); [ "$coll" = pallgather ] || [ "$coll" = palltoall ] || [ "$coll" = pgather ] &&
            extra=(--sources "random:$(( 2 + RANDOM % (nodes / 2) )):$RANDOM")
        tbl="$work/$variant-${#jobs[@]}-$algo.tbl"
        if ! "$sg" --shape "$shape" --$kind --algo "$algo" --root "$root" "${extra[@]}" --check --quiet \
                --tables "$tbl" >"$tbl.log" 2>&1; then
            echo "FAIL $name: schedgen $algo $shape $kind root $root: $(tail -n 1 "$tbl.log")"
            continue 2
        fi
        jobs+=(--job "$tbl:$m:$RANDOM")
        desc="$desc $algo@$root:${m}B"
    done
    # three jobs per run (a node's tables of a run's jobs must fit the program's jobs area)
    rc=0
    : >"$work/$variant.out"
    : >"$work/$variant.err"
    for ((first = 0; first < ${#jobs[@]}; first += 6)); do
        part=$((first / 6))
        "$sim" --elf "$elf" "${jobs[@]:$first:6}" --report "$work/$variant-$part.json" --max-cycles 50000000 \
            >"$work/$variant-$part.out" 2>"$work/$variant-$part.err" || rc=$?
        cat "$work/$variant-$part.out" >>"$work/$variant.out"
        cat "$work/$variant-$part.err" >>"$work/$variant.err"
    done
    ok=$(grep -cE ' OK$' "$work/$variant.out")
    want=$(( ${#jobs[@]} / 2 ))
    if [ $rc -eq 0 ] && [ "$ok" -eq "$want" ]; then
        echo "PASS $name ($shape $kind:$desc)"
        grep -E '^[0-9]+ ' "$work/$variant.out"
    else
        echo "FAIL $name: mesh-sim exit $rc, $ok of $want jobs delivered ($shape $kind:$desc; see $work/$variant.out): $(grep -m 3 'mesh-sim: job' "$work/$variant.out" | tr '\n' ' ') $(grep -m 2 'mesh-sim:' "$work/$variant.err" | tr '\n' ' ')"
    fi
done
