#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The tree's dependencies point one way: host tools -> tables -> firmware -> NI -> router, sim on
# top. This checks it for the C and C++ sources (tests/ apart), and fails naming the files:
#   - a cycle: files that depend on each other, through #include or through a call of a function
#     that only another file defines (a.c calls b.c's function and b.c calls a.c's);
#   - an upward dependency: a file of a lower layer that includes or calls a file of a higher one
#     (node firmware on a host tool, firmware on sim/, the checker on a generator, ...).
# Layers, lowest first (a file may depend on its own layer and the ones below):
#   10 firmware/sched, firmware/rt   what a node runs: schedule tables, shapes, rules; the runtime
#   20 firmware/drivers               the link-port/NI driver
#   30 firmware/coll                  the collectives
#   40 firmware/apps, kit, boards/boot   node programs (their host/ folders are host tools: 80)
#   50 tools/sched/base, tools/sched/check   growing a schedule; the checker
#   60 tools/sched/{bcast,exchange,baseline,dynamic,fault}   the algorithm families
#   70 tools/sched/{gen,out}          the dispatcher and bounds; dump, tables, SVG
#   80 tools/sched/schedgen, other tools, */host/, boards/tools   command-line tools
#   90 sim                            the simulators
# Usage: tools/layers.sh [--root DIR] [--edges FILE] [--quiet]
#   --root DIR    the tree to check (default: this script's tree)
#   --edges FILE  also write every dependency found, one "from to why" line each
# Exit 0 when clean, 1 with the cycles and upward dependencies listed, 2 on bad usage.
# A call counts when a .c or .cpp file names a function that exactly one .c file defines (at
# column 0, not static); what C++ files call of each other is seen through their headers only.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
edges_out=""
quiet=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) [ $# -ge 2 ] || { echo "layers: --root needs a folder" >&2; exit 2; }
                root="$2"; shift 2 ;;
        --edges) [ $# -ge 2 ] || { echo "layers: --edges needs a file name" >&2; exit 2; }
                 edges_out="$2"; shift 2 ;;
        --quiet) quiet=1; shift ;;
        -h|--help) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "layers: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
done
[ -d "$root/firmware" ] || { echo "layers: '$root' is not an rvmesh tree (no firmware/ folder)" >&2; exit 2; }
cd "$root" || exit 2

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# the sources, tests and third-party code apart
find firmware tools sim kit boards \( -name node_modules -o -name build \) -prune -o \
     -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print 2>/dev/null | sort >"$work/files"
[ -s "$work/files" ] || { echo "layers: no C sources found under $root" >&2; exit 2; }

# Each file without comments and string or character literals (so neither is read as a use).
mkdir -p "$work/text"
while read -r f; do
    out="$work/text/$(echo "$f" | tr '/' '%')"
    if ! gcc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null >"$out.raw"; then cp "$f" "$out.raw"; fi
    sed -E 's/"([^"\\]|\\.)*"/""/g; s/'"'"'([^'"'"'\\]|\\.)*'"'"'/0/g' "$out.raw" >"$out"
    rm -f "$out.raw"
done <"$work/files"
textof() { echo "$work/text/$(echo "$1" | tr '/' '%')"; }

# Include edges: "file header #include", the header found beside the file or on the include
# paths the makefiles use; headers outside the sources (generated, Verilator's) are left out.
incdirs="firmware/sched tools/sched firmware/drivers firmware/coll firmware/rt sim/node sim/mesh . firmware/apps/dynamic"
while read -r f; do
    dir="$(dirname "$f")"
    grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$f" | sed -E 's/.*"([^"]+)"/\1/' |
    while read -r inc; do
        for d in "$dir" $incdirs; do
            cand="$d/$inc"; cand="${cand#./}"
            if [ -f "$cand" ]; then
                cand="$(realpath -m --relative-to=. "$cand")"
                [ "$cand" != "$f" ] && echo "$f $cand #include"
                break
            fi
        done
    done
done <"$work/files" >"$work/inc_edges"

# Call edges: the functions each .c file defines at column 0 (not static), then every use of
# such a name in another .c or .cpp file.
while read -r f; do
    case "$f" in *.c) ;; *) continue ;; esac
    awk -v file="$f" '
        /^[A-Za-z_]/ && !/^(static|typedef|extern|struct|enum|union|return|else|namespace|using|template|class)[^A-Za-z0-9_]/ &&
        /\(/ && !/;[[:space:]]*$/ {
            line = $0; sub(/\(.*/, "", line)
            if (match(line, /[A-Za-z_][A-Za-z0-9_]*$/)) {
                name = substr(line, RSTART, RLENGTH)
                if (name !~ /^(_Static_assert|static_assert|if|for|while|switch|sizeof)$/ && line ~ /[ *&]/) print name, file
            }
        }' "$(textof "$f")"
done <"$work/files" | sort -u >"$work/defs_all"
# names defined in exactly one file
awk '{ n[$1]++; f[$1] = $2 } END { for (k in n) if (n[k] == 1) print k, f[k] }' "$work/defs_all" | sort >"$work/defs"
while read -r f; do
    case "$f" in *.c|*.cpp) ;; *) continue ;; esac   # a header's prototypes are not uses
    grep -oE '[A-Za-z_][A-Za-z0-9_]*' "$(textof "$f")" | sort -u | join - "$work/defs" |
        awk -v file="$f" '$2 != file { print file, $2, $1 }'
done <"$work/files" >"$work/call_edges"

cat "$work/inc_edges" "$work/call_edges" | sort -u -k1,2 >"$work/edges"
[ -n "$edges_out" ] && cp "$work/edges" "$edges_out"

layer_awk='
function layer(p) {
    if (p ~ /(^|\/)host\//) return 80
    if (p ~ /^firmware\/(sched|rt)\//) return 10
    if (p ~ /^firmware\/drivers\//) return 20
    if (p ~ /^firmware\/coll\//) return 30
    if (p ~ /^(firmware\/apps|kit|boards\/boot)\//) return 40
    if (p ~ /^tools\/sched\/(base|check)\//) return 50
    if (p ~ /^tools\/sched\/(bcast|exchange|baseline|dynamic|fault)\//) return 60
    if (p ~ /^tools\/sched\/(gen|out)\//) return 70
    if (p ~ /^(tools|boards)\//) return 80
    if (p ~ /^sim\//) return 90
    return 100
}'
# upward dependencies
awk "$layer_awk"'
    { a = layer($1); b = layer($2)
      if (b > a) printf "upward: %s (layer %d) -> %s (layer %d): %s\n", $1, a, $2, b, ($3 == "#include" ? "#include" : "calls " $3) }' \
    "$work/edges" >"$work/upward"

# cycles: tsort names the files of each loop it finds
awk '$1 != $2 { print $1, $2 }' "$work/edges" | tsort 2>"$work/tsort_err" >/dev/null
awk '/input contains a loop/ { if (n) print ""; n++; next } { sub(/^tsort: /, ""); printf "%s%s", (started[n]++ ? " <- " : "cycle: "), $0 } END { if (n) print "" }' \
    "$work/tsort_err" >"$work/cycles"

files=$(wc -l <"$work/files"); nedges=$(wc -l <"$work/edges")
nup=$(wc -l <"$work/upward"); ncyc=$(grep -c '^cycle:' "$work/cycles")
if [ "$nup" -eq 0 ] && [ "$ncyc" -eq 0 ]; then
    [ $quiet = 1 ] || echo "layers: $files files, $nedges dependencies: no cycle, none upward"
    exit 0
fi
cat "$work/cycles" "$work/upward"
# each cycle's links, with what makes them
if [ "$ncyc" -gt 0 ]; then
    grep '^cycle:' "$work/cycles" | sed 's/^cycle: //; s/ <- /\n/g' | sort -u >"$work/in_cycle"
    awk 'NR == FNR { c[$1] = 1; next } ($1 in c) && ($2 in c) && $1 != $2 { print "  " $1 " -> " $2 ": " ($3 == "#include" ? "#include" : "calls " $3) }' \
        "$work/in_cycle" "$work/edges"
fi
echo "layers: $files files, $nedges dependencies: $ncyc cycle(s), $nup upward (see tools/layers.sh --help for the layers)"
exit 1
