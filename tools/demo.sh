#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make demo: the main job -- the collectives running on a simulated machine of RISC-V tiles
# (core + RAM + NI + all-port wormhole router, in Verilator) of config.mk's shape -- then each
# part on its own:
#   1. mesh-sim: broadcast, scatter, gather, allgather, alltoall and a partial allgather with
#      random sources and roots, from schedgen's per-node tables, every node's buffers checked
#      byte for byte; a table of cycles (measured, model, all-port lower bound) and an SVG of
#      link use;
#   2. the RV32IM core in node-sim running the C programs (cycles, instret, CPI, result);
#   3. the schedule library: every collective schedule for the configured shape, checked;
#   4. the router network: uniform traffic and a contention-free step, every packet checked;
#   5. the mesh of tiles: an all-port neighbour exchange through the link-port driver.
# Environment (from make): BUILD, MESH_X, MESH_Y, MESH_Z, MESH_DIMS, MESH_TORUS; DEMO_SEED
# picks the random roots and sources (default: a new one each run, printed).
set -u
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
shape="${MESH_X}x${MESH_Y}"
[ "${MESH_DIMS}" = 3 ] && shape="${shape}x${MESH_Z}"
kind=$([ "${MESH_TORUS}" = 1 ] && echo torus || echo mesh)
failures=0

echo "== rvmesh demo: $shape $kind (config.mk)"
echo
seed="${DEMO_SEED:-$(( $(date +%s) % 100000 ))}"
nodes=$(( MESH_X * MESH_Y * (MESH_DIMS == 3 ? MESH_Z : 1) ))
echo "-- 1. collectives on the simulated $shape $kind of RISC-V tiles (mesh-sim), seed $seed"
echo "   (DEMO_SEED=$seed make demo repeats this run). Every node runs firmware/apps/mesh/collectives.c"
echo "   with its own schedgen tables; after each collective mesh-sim compares every node's buffers"
echo "   byte for byte with what the collective must leave there."
prog="$BUILD/fw/firmware/apps/mesh/collectives.elf"
if make -s mesh-sim schedgen "$prog"; then
    mkdir -p "$BUILD/demo/tables"
    RANDOM=$seed
    pick_root() {
        local r="$(( RANDOM % MESH_X )),$(( RANDOM % MESH_Y ))"
        [ "${MESH_DIMS}" = 3 ] && r="$r,$(( RANDOM % MESH_Z ))"
        echo "$r"
    }
    # the fastest of our schedules on this machine, by block size (make bench-coll, NI v3,
    # README "Which schedule runs"): a broadcast of 1 KiB over the 2d arc-disjoint spanning
    # trees, one piece per tree (4x4 torus: 272 cycles, Tsay-Wang 710; the NI relays a piece
    # as it arrives, so chunks no longer pay), when 1 KiB cuts into 2d (or d on a mesh) parts
    # of whole words; mnb-opt's optimal slot count for allgather on a torus, mnb-diag on a mesh
    bcast=bcast-edst; trees=$(( MESH_DIMS * (MESH_TORUS == 1 ? 2 : 1) ))
    bcast_chunks=1
    [ $(( 1024 % (4 * trees * bcast_chunks) )) -eq 0 ] || bcast=bcast-binomial
    allgather=mnb-opt; [ "$kind" = mesh ] && allgather=mnb-diag
    exch=te-a3; [ "${MESH_DIMS}" = 3 ] || [ "$MESH_X" != "$MESH_Y" ] && exch=te-a2
    jobs=()
    for spec in "bcast:$bcast:1024" "scatter:scatter:256" "gather:gather:256" "allgather:$allgather:256" \
                "alltoall:$exch:64" "pallgather:pmnb:256"; do
        IFS=: read -r name algo bytes <<<"$spec"
        extra=(); [ "$name" = pallgather ] && extra=(--sources "random:$(( nodes / 3 )):$seed")
        [ "$algo" = bcast-edst ] && extra=(--chunks "$bcast_chunks")
        root=$(pick_root)
        if ! "$BUILD/bin/schedgen" --shape "$shape" --$kind --algo "$algo" --root "$root" "${extra[@]}" \
                --check --quiet --tables "$BUILD/demo/tables/$name.tbl" >"$BUILD/demo/tables/$name.log" 2>&1; then
            echo "   schedgen $algo: $(tail -n 1 "$BUILD/demo/tables/$name.log")"; failures=$((failures + 1))
            continue
        fi
        jobs+=(--job "$BUILD/demo/tables/$name.tbl:$bytes:$((seed + ${#jobs[@]}))")
        case $name in
            bcast|scatter|gather) who="root $root" ;;
            pallgather) who="$(( nodes / 3 )) random sources (schedgen --sources random:$(( nodes / 3 )):$seed)" ;;
            *) who="every node" ;;
        esac
        printf '   %-10s %-10s %5s-byte blocks, %s\n' "$name" "$algo" "$bytes" "$who"
    done
    "$BUILD/bin/mesh-sim" --elf "$prog" "${jobs[@]}" --report "$BUILD/demo/collectives.json" \
        --link-svg "$BUILD/demo/link-use.svg" >"$BUILD/demo/collectives.out" 2>&1
    rc=$?
    sed -n '/^collectives on/,$p' "$BUILD/demo/collectives.out" | grep -v '^mesh-sim:' | sed 's/^/   /'
    grep '^mesh-sim:' "$BUILD/demo/collectives.out" | sed 's/^/   /'
    if [ $rc -eq 0 ]; then
        echo "   delivery OK on every node; link use: $BUILD/demo/link-use.svg, results: $BUILD/demo/collectives.json"
    else
        echo "   FAILED: mesh-sim exit $rc (full output: $BUILD/demo/collectives.out)"; failures=$((failures + 1))
    fi
else
    failures=$((failures + 1))
fi
echo

echo "-- 2. the RV32IM core (node-sim), C programs compiled at -O2"
make -s node-sim fw-all || exit 1
printf '%-28s %10s %10s %6s  %s\n' program cycles instret CPI result
for elf in "$BUILD"/fw/firmware/apps/*.elf "$BUILD"/fw/tests/firmware/programs/*.elf; do
    [ -e "$elf" ] || continue
    name=$(basename "$elf" .elf)
    stats=$("$BUILD/bin/node-sim" --elf "$elf" 2>&1 >/dev/null | grep '^node-sim: exit=')
    status=$?
    code=$(sed -n 's/.*exit=\([0-9]*\).*/\1/p' <<<"$stats")
    cycles=$(sed -n 's/.*cycles=\([0-9]*\).*/\1/p' <<<"$stats")
    instret=$(sed -n 's/.*instret=\([0-9]*\).*/\1/p' <<<"$stats")
    cpi=$(sed -n 's/.*cpi=\([0-9.]*\).*/\1/p' <<<"$stats")
    if [ "$status" -eq 0 ] && [ "$code" = 0 ]; then result=OK; else result="FAILED (exit ${code:-?})"; failures=$((failures + 1)); fi
    printf '%-28s %10s %10s %6s  %s\n' "$name" "${cycles:-?}" "${instret:-?}" "${cpi:-?}" "$result"
done
echo

echo "-- 3. collective schedules for the $shape $kind, root 0,0, checked by the independent checker"
echo "   (broadcast, scatter, gather, allgather = mnb, alltoall = te, partial allgather = pmnb with 5"
echo "    random sources; the optimal allgather mnb-opt, the 2d-tree broadcast bcast-edst and the"
echo "    baselines bcast-binomial, allgather-ring, alltoall-pairwise; steps are wormhole steps,"
echo "    store-and-forward slots, or rounds whose worms may share links)"
make -s schedgen || exit 1
mkdir -p "$BUILD/demo"
root=0,0; [ "${MESH_DIMS}" = 3 ] && root=0,0,0
for algo in tsay-wang cang-wu-dp saf-bcast bcast-edst bcast-binomial scatter gather mnb mnb-split mnb-opt \
            allgather-ring te-a3 te-a2 alltoall-pairwise pmnb; do
    extra=(); [ "$algo" = pmnb ] && extra=(--sources random:5:1)
    out=$("$BUILD/bin/schedgen" --shape "$shape" --$kind --algo "$algo" --root "$root" --check \
          "${extra[@]}" --svg "$BUILD/demo/$algo.svg" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        printf '%-18s %s\n' "$algo" "$(head -n 1 <<<"$out" | sed 's/^[^:]*: //')"
    elif grep -qi 'applies\|only\|requires\|must be' <<<"$out"; then
        printf '%-18s not for this shape: %s\n' "$algo" "$(head -n 1 <<<"$out")"
    else
        printf '%-18s FAILED: %s\n' "$algo" "$out"; failures=$((failures + 1))
    fi
done
echo "   pictures: $BUILD/demo/*.svg"
echo

echo "-- 4. the all-port wormhole router network (no cores), $shape $kind"
make -s noc-sim || exit 1
if "$BUILD/bin/noc-sim" --help 2>&1 | grep -q "shapes compiled.* $shape($kind"; then
    for load in 0.1 0.3 0.5; do
        "$BUILD/bin/noc-sim" --shape "$shape" --$kind --pattern uniform --load $load --len 1-16 \
            --warmup 1000 --cycles 5000 --drain 5000 --quiet 2>&1 | tail -n 1 \
            || failures=$((failures + 1))
    done
    "$BUILD/bin/noc-sim" --shape "$shape" --$kind --pattern step --quiet 2>&1 | tail -n 1 \
        || failures=$((failures + 1))
else
    echo "   $shape $kind is not among the shapes compiled into noc-sim (see noc-sim --help)"
fi
echo

echo "-- 5. the mesh of RISC-V tiles (mesh-sim): every node sends a worm on each of its ports at once"
echo "   and checks what arrives on each (tests/sim/mesh/progs/neighbours.c)"
prog="$BUILD/fw/tests/sim/mesh/progs/neighbours.elf"
if make -s mesh-sim "$prog"; then
    "$BUILD/bin/mesh-sim" --elf "$prog" --links > "$BUILD/demo/mesh.out" 2>&1
    rc=$?
    grep "^mesh-sim:" "$BUILD/demo/mesh.out" | sed 's/^/   /'
    grep '^\[0,0\]' "$BUILD/demo/mesh.out" | tail -n 3 | sed 's/^/   /'
    if [ $rc -eq 0 ]; then echo "   all nodes exited 0 (full output: $BUILD/demo/mesh.out)"
    else echo "   FAILED: mesh-sim exit $rc (see $BUILD/demo/mesh.out)"; failures=$((failures + 1)); fi
else
    failures=$((failures + 1))
fi
echo

if [ $failures -eq 0 ]; then echo "demo: all parts OK"; else echo "demo: $failures part(s) FAILED"; fi
[ $failures -eq 0 ]
