#!/usr/bin/env bash
# make demo: runs the parts of rvmesh that exist, on the machine of config.mk, and prints
# their results as tables. The full demo (the collectives running on a simulated mesh of
# RISC-V tiles) arrives with the mesh issue; until then this shows each part on its own:
#   1. the RV32IM core in node-sim running the C programs (cycles, instret, CPI, result);
#   2. the schedule library: every collective schedule for the configured shape, checked;
#   3. the router network: uniform traffic and a contention-free step on the configured
#      mesh/torus, every packet's delivery checked;
#   4. the mesh of tiles (core + NI + router) in mesh-sim: an all-port neighbour exchange.
# Environment (from make): BUILD, MESH_X, MESH_Y, MESH_Z, MESH_DIMS, MESH_TORUS.
set -u
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
shape="${MESH_X}x${MESH_Y}"
[ "${MESH_DIMS}" = 3 ] && shape="${shape}x${MESH_Z}"
kind=$([ "${MESH_TORUS}" = 1 ] && echo torus || echo mesh)
failures=0

echo "== rvmesh demo: $shape $kind (config.mk)"
echo
echo "-- 1. the RV32IM core (node-sim), C programs compiled at -O2"
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

echo "-- 2. collective schedules for the $shape $kind, root 0,0, checked by the independent checker"
echo "   (broadcast, scatter, gather, allgather = mnb, alltoall = te, partial allgather = pmnb"
echo "    with 5 random sources; steps are wormhole steps or store-and-forward slots)"
make -s schedgen || exit 1
mkdir -p "$BUILD/demo"
root=0,0; [ "${MESH_DIMS}" = 3 ] && root=0,0,0
for algo in tsay-wang cang-wu-dp saf-bcast scatter gather mnb mnb-split te-a3 te-a2 pmnb; do
    extra=(); [ "$algo" = pmnb ] && extra=(--sources random:5:1)
    out=$("$BUILD/bin/schedgen" --shape "$shape" --$kind --algo "$algo" --root "$root" --check \
          "${extra[@]}" --svg "$BUILD/demo/$algo.svg" 2>&1)
    rc=$?
    if [ $rc -eq 0 ]; then
        printf '%-12s %s\n' "$algo" "$(head -n 1 <<<"$out" | sed 's/^[^:]*: //')"
    elif grep -qi 'applies\|only\|requires\|must be' <<<"$out"; then
        printf '%-12s not for this shape: %s\n' "$algo" "$(head -n 1 <<<"$out")"
    else
        printf '%-12s FAILED: %s\n' "$algo" "$out"; failures=$((failures + 1))
    fi
done
echo "   pictures: $BUILD/demo/*.svg"
echo

echo "-- 3. the all-port wormhole router network (no cores), $shape $kind"
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

echo "-- 4. the mesh of RISC-V tiles (mesh-sim): every node sends a worm on each of its ports at once"
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
