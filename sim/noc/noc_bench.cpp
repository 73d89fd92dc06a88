// SPDX-License-Identifier: ISC
// noc-sim: traffic test bench of the rvmesh router network (rtl/noc), no cores.
//
// It drives the all-port local side of every router directly: synthetic traffic patterns,
// a contention-free step, error cases. Every packet carries its source, a sequence number
// and a checksum; the checker proves that each one arrives exactly once, intact, at the
// right node and ejection port, in order per source-destination pair. A watchdog fails the
// run, naming the non-empty buffers, when nothing moves for too long.
// Usage: noc-sim --help.
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <unistd.h>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vnoc_tb_top.h"
#include "noc_shapes.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#ifndef NOC_FLIT_BITS
#error "NOC_FLIT_BITS must be defined (from config.mk FLIT_BITS)"
#endif
static_assert(NOC_FLIT_BITS >= 32 && NOC_FLIT_BITS <= 64, "the bench supports 32..64-bit flits");

namespace {

const int kPortsPerNode = 6;  // top-level layout: node*6 + port
const uint64_t kFlitMask = (NOC_FLIT_BITS == 64) ? ~0ull : ((1ull << NOC_FLIT_BITS) - 1);

// ------------------------------------------------------------------ wide port access
template <typename T> uint32_t* words_of(T& v) { return v.data(); }
bool get_bit(const uint32_t* w, int i) { return (w[i >> 5] >> (i & 31)) & 1u; }
void set_bit(uint32_t* w, int i, bool b) {
    if (b) w[i >> 5] |= 1u << (i & 31); else w[i >> 5] &= ~(1u << (i & 31));
}
uint64_t get_bits(const uint32_t* w, int lsb, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= (uint64_t)get_bit(w, lsb + i) << i;
    return v;
}
void set_bits(uint32_t* w, int lsb, int n, uint64_t v) {
    for (int i = 0; i < n; ++i) set_bit(w, lsb + i, (v >> i) & 1u);
}

uint32_t mix32(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
    return (uint32_t)x;
}

struct Rng {  // xorshift64*, deterministic
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 0x1234567ull) { if (!s) s = 1; }
    uint64_t next() { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 0x2545f4914f6cdd1dull; }
    double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
    int below(int n) { return (int)(next() % (uint64_t)n); }
};

// ------------------------------------------------------------------ options
struct Options {
    std::string shape;          // "4x4" or "3x3x3"
    int torus = -1;             // -1: not given
    std::string pattern = "uniform";
    double load = 0.1;          // offered flits per node per cycle
    int len_min = 1, len_max = 16;   // payload flits; a worm is payload + 2 header flits
    long warmup = 1000, cycles = 5000, drain = 200000;
    uint64_t seed = 1;
    std::string trace;
    long watchdog = 5000;
    double ej_stall = 0.0;      // probability that an ejection channel is not ready
    double hotspot = 0.25;      // fraction of hotspot traffic
    std::string sweep;          // comma-separated loads, as given
    std::vector<double> loads;  // the loads to run: --load, or every one of --sweep
    bool load_given = false;
    std::string json, svg, label;
    int expect_min_packets = 0;
    int buf_depth = 0;          // 0: the first compiled variant of the shape
    int vcs = 0;                // 0: any
    bool board = false;         // the board profile's router (config.mk ROUTER_BOARD_*)
    bool last_hop_vc = false;   // the variant with the last-hop VC rule (VC_LAST_HOP = 1)
    bool quiet = false;
    // protected links (noc-sim-guard only)
    double flip_rate = 0.0;     // probability that a flit (or a reverse word) on a link is damaged
    uint64_t fault_seed = 1;
    long dead_port = -1;        // input port index node*2*DIMS + k whose link dies, or -1
    long dead_cycle = 0;
    long drop_port = -1;        // --drop-flit N:K@C: node*100 + port (resolved later), or -1
    long drop_cycle = 0;
    std::string drop_text;      // as given, for the messages
    bool guard_opts = false;
};

[[noreturn]] void usage_error(const std::string& msg) {
    std::fprintf(stderr, "noc-sim: %s\nRun 'noc-sim --help' for the options.\n", msg.c_str());
    std::exit(2);
}

void print_help() {
    std::printf(
        "noc-sim: traffic test bench of the rvmesh router network (no cores)\n"
        "usage: noc-sim --shape XxY[xZ] (--torus|--mesh) [options]\n"
        "  --pattern P      uniform | transpose | bitcomp | neighbor | hotspot | tornado |\n"
        "                   storm (every node sends to all others in turn: broadcast by unicasts) |\n"
        "                   step (contention-free step) | errors (bad headers + traffic)\n"
        "  --load F         offered load, flits per node per cycle, above 0 (default 0.1)\n"
        "  --len A-B        payload length range in flits, 1..64 (a worm adds 2 header flits)\n"
        "  --warmup N --cycles N --drain N   phases of a traffic run (cycles)\n"
        "  --seed S         random seed, 0..2147483647 (default 1)\n"
        "  --ej-stall F     probability that an ejection channel refuses a flit (backpressure)\n"
        "  --hotspot F      share of traffic sent to the hotspot node (pattern hotspot)\n"
        "  --watchdog N     fail when nothing moves for N cycles with packets in flight\n"
        "  --sweep L1,L2..  run each load in turn (fresh network), print a table; instead of --load\n"
        "  --json FILE      write the results as JSON;  --svg FILE  plot latency vs load\n"
        "                   (these files and --trace are checked before the run)\n"
        "  --label NAME     name of the run in JSON/SVG\n"
        "  --expect-packets N   fail unless at least N packets were delivered\n"
        "  --buf-depth D    pick the compiled variant with D-flit VC buffers\n"
        "  --vcs V          pick the compiled variant with V (1, 2, 4 or 8) virtual channels per link\n"
        "  --board          pick the variant with the board profile's router (config.mk ROUTER_BOARD_*)\n"
        "  --last-hop-vc    pick the variant with the last-hop VC rule (VC_LAST_HOP = 1)\n"
        "  --trace FILE.fst waveform of the run;  --quiet  no progress lines\n"
        "  protected links (noc-sim-guard, built with every link guarded; rtl/noc/link_guard_*):\n"
        "  --flip-rate F    probability that a flit, or a reverse word, on a link gets a bit flipped\n"
        "  --fault-seed S   seed of the fault injection, 0..2147483647 (default 1)\n"
        "  --dead-link N:K  the link into node N's input port K (0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z)\n"
        "                   dies (both wires read zero) from --dead-cycle C on (default 1000)\n"
        "  --drop-flit N:K@C  the first flit on the wire into node N's input port K at or after\n"
        "                   cycle C (1..2000000000, counted from reset as --dead-cycle) vanishes;\n"
        "                   the guard sees the gap in its sequence numbers and sends it again\n"
        "exit status: 0 every check passed, 1 a check failed (or an output could not be written\n"
        "  after the run), 2 bad command line: an unknown option, a malformed or out-of-range\n"
        "  number, a shape or variant not compiled in, a load above one packet per node per\n"
        "  cycle, an output file that cannot be created (nothing is run)\n"
        "shapes compiled into this binary:");
    for (int i = 0; i < kNocShapeCount; ++i) {
        const NocShapeDef& s = kNocShapes[i];
        if (s.z > 1) std::printf(" %dx%dx%d", s.x, s.y, s.z); else std::printf(" %dx%d", s.x, s.y);
        std::printf("%s,depth %d,%d VC%s%s%s", s.torus ? "(torus" : "(mesh", s.depth, s.vcs, s.vcs == 1 ? "" : "s",
                    s.board ? ",board" : "", s.last_hop_vc ? ",last-hop VC rule" : "");
        std::printf(")");
    }
    std::printf("\n");
}

std::string num_text(double x) {
    char b[40];
    std::snprintf(b, sizeof b, "%g", x);
    return b;
}

// A decimal integer: digits, optionally after '-' (no blanks, '+', hex or octal), in lo..hi.
long parse_long(const std::string& flag, const char* v, long lo, long hi) {
    const char* digits = (*v == '-') ? v + 1 : v;
    bool ok = *digits && std::strspn(digits, "0123456789") == std::strlen(digits);
    errno = 0;
    char* end = nullptr;
    long x = ok ? std::strtol(v, &end, 10) : 0;
    if (!ok || errno || x < lo || x > hi)
        usage_error(flag + " wants a decimal integer in " + std::to_string(lo) + ".." + std::to_string(hi) +
                    ", got '" + v + "'");
    return x;
}
// A decimal number (digits, '.', an exponent; no blanks, inf or nan) in [lo, hi], or in
// (lo, hi] when above_lo.
double parse_double(const std::string& flag, const char* v, double lo, double hi, bool above_lo = false) {
    bool ok = *v && ((*v >= '0' && *v <= '9') || *v == '.' || *v == '-');
    errno = 0;
    char* end = nullptr;
    double x = ok ? std::strtod(v, &end) : 0;
    ok = ok && *end == '\0' && errno == 0 && std::isfinite(x);
    if (!ok || !(x >= lo && x <= hi) || (above_lo && x == lo))
        usage_error(flag + " wants a number " + (above_lo ? "above " : "from ") + num_text(lo) + (above_lo ? " up to " : " to ") +
                    num_text(hi) + ", got '" + v + "'");
    return x;
}

// Whether an output file can be written, found before the run: an existing one is opened for
// writing and left as it is, a new one is created and removed again.
void check_output(const std::string& flag, const std::string& path) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {
        close(fd);
        unlink(path.c_str());
        return;
    }
    if (errno == EEXIST && (fd = open(path.c_str(), O_WRONLY)) >= 0) {
        close(fd);
        return;
    }
    usage_error(flag + ": cannot write '" + path + "': " + std::strerror(errno) +
                "; give a file in an existing folder you can write to");
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") { print_help(); std::exit(0); }
        if (a == "--torus") { o.torus = 1; continue; }
        if (a == "--mesh") { o.torus = 0; continue; }
        if (a == "--quiet") { o.quiet = true; continue; }
        if (a == "--board") { o.board = true; continue; }
        if (a == "--last-hop-vc") { o.last_hop_vc = true; continue; }
        if (a.rfind("+verilator", 0) == 0) continue;
        if (i + 1 >= argc) usage_error("option " + a + " needs a value (or is unknown)");
        const char* v = argv[++i];
        if (a == "--shape") o.shape = v;
        else if (a == "--pattern") o.pattern = v;
        else if (a == "--load") { o.load = parse_double(a, v, 0.0, 64.0, true); o.load_given = true; }
        else if (a == "--len") {
            int lo = 0, hi = 0; char extra = 0;
            int got = std::sscanf(v, "%d-%d%c", &lo, &hi, &extra);
            if (got == 1) hi = lo;
            if ((got != 1 && got != 2) || lo < 1 || hi > 64 || lo > hi)
                usage_error("--len wants A-B with 1 <= A <= B <= 64 payload flits, got '" + std::string(v) + "'");
            o.len_min = lo; o.len_max = hi;
        }
        else if (a == "--warmup") o.warmup = parse_long(a, v, 0, 100000000);
        else if (a == "--cycles") o.cycles = parse_long(a, v, 1, 1000000000);
        else if (a == "--drain") o.drain = parse_long(a, v, 1, 1000000000);
        else if (a == "--seed") o.seed = (uint64_t)parse_long(a, v, 0, 0x7fffffff);
        else if (a == "--trace") o.trace = v;
        else if (a == "--watchdog") o.watchdog = parse_long(a, v, 10, 100000000);
        else if (a == "--ej-stall") o.ej_stall = parse_double(a, v, 0.0, 1.0);
        else if (a == "--hotspot") o.hotspot = parse_double(a, v, 0.0, 1.0);
        else if (a == "--sweep") {
            o.sweep = v;
            if (o.sweep.empty()) usage_error("--sweep wants comma-separated loads like 0.1,0.2,0.4, got ''");
            o.loads.clear();
            size_t at = 0;
            for (;;) {
                size_t comma = o.sweep.find(',', at);
                std::string one = o.sweep.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
                if (one.empty())
                    usage_error("--sweep wants comma-separated loads like 0.1,0.2,0.4 (no empty field), got '" +
                                o.sweep + "'");
                o.loads.push_back(parse_double("--sweep (in '" + o.sweep + "')", one.c_str(),
                                               0.0, 64.0, true));
                if (comma == std::string::npos) break;
                at = comma + 1;
            }
        }
        else if (a == "--json") o.json = v;
        else if (a == "--svg") o.svg = v;
        else if (a == "--label") o.label = v;
        else if (a == "--buf-depth") o.buf_depth = (int)parse_long(a, v, 1, 127);
        else if (a == "--vcs") {
            if (std::strcmp(v, "1") && std::strcmp(v, "2") && std::strcmp(v, "4") && std::strcmp(v, "8"))
                usage_error("--vcs wants 1, 2, 4 or 8 virtual channels per link (what the router is built for), got '" +
                            std::string(v) + "'");
            o.vcs = v[0] - '0';   // one of "1", "2", "4", "8"
        }
        else if (a == "--flip-rate") { o.flip_rate = parse_double(a, v, 0.0, 1.0); o.guard_opts = true; }
        else if (a == "--fault-seed") { o.fault_seed = (uint64_t)parse_long(a, v, 0, 0x7fffffff); o.guard_opts = true; }
        else if (a == "--dead-link") {
            int n = -1, k = -1; char extra = 0;
            if (std::sscanf(v, "%d:%d%c", &n, &k, &extra) != 2 || n < 0 || k < 0 || k > 5)
                usage_error("--dead-link wants NODE:PORT (a node index, a port 0..5), got '" + std::string(v) + "'");
            o.dead_port = (long)n * 100 + k;   // resolved against the shape later
            o.guard_opts = true;
            if (o.dead_cycle == 0) o.dead_cycle = 1000;
        }
        else if (a == "--drop-flit") {
            int n = -1, k = -1; char extra = 0;
            const char* at = std::strchr(v, '@');
            const std::string link = at ? std::string(v, at) : std::string(v);
            if (!at || std::sscanf(link.c_str(), "%d:%d%c", &n, &k, &extra) != 2 || n < 0 || k < 0 || k > 5)
                usage_error("--drop-flit wants NODE:PORT@CYCLE (a node index, a port 0..5, a cycle), e.g. 5:0@2000, got '" +
                            std::string(v) + "'");
            o.drop_cycle = parse_long("--drop-flit's cycle", at + 1, 1, 2000000000);
            o.drop_port = (long)n * 100 + k;
            o.drop_text = v;
            o.guard_opts = true;
        }
        else if (a == "--dead-cycle") { o.dead_cycle = parse_long(a, v, 1, 2000000000); o.guard_opts = true; }
        else if (a == "--expect-packets") o.expect_min_packets = (int)parse_long(a, v, 0, 2000000000);
        else usage_error("unknown option '" + a + "'");
    }
    if (o.shape.empty()) usage_error("--shape XxY or XxYxZ is required");
    if (o.torus < 0) usage_error("say --torus or --mesh");
    static const char* patterns[] = {"uniform", "transpose", "bitcomp", "neighbor", "hotspot",
                                     "tornado", "step", "errors", "storm"};
    bool ok = false;
    for (const char* p : patterns) ok = ok || o.pattern == p;
    if (!ok) usage_error("unknown --pattern '" + o.pattern + "' (uniform, transpose, bitcomp, neighbor, hotspot, tornado, step, errors, storm)");
    if (o.guard_opts && !kNocGuard)
        usage_error("--flip-rate, --fault-seed, --dead-link, --dead-cycle and --drop-flit need protected links: use noc-sim-guard "
                    "(make noc-sim-guard)");
    if (!o.trace.empty() && o.trace.size() < 5) usage_error("--trace wants a file name ending in .fst");
    if (!o.trace.empty() && o.trace.substr(o.trace.size() - 4) != ".fst")
        usage_error("--trace wants a file name ending in .fst, got '" + o.trace + "'");
    if (o.load_given && !o.sweep.empty())
        usage_error("give --load F for one run or --sweep L1,L2.. for several, not both");
    if (o.sweep.empty()) o.loads.assign(1, o.load);
    // A load needs at most one new packet per node per cycle: load / mean worm length <= 1.
    const double worm = (o.len_min + o.len_max) / 2.0 + 2.0;
    for (double load : o.loads)
        if (load / worm > 1.0)
            usage_error(std::string(o.sweep.empty() ? "--load " : "--sweep: the load ") + num_text(load) +
                        " is too high for --len " + std::to_string(o.len_min) + "-" + std::to_string(o.len_max) +
                        ": at most one new packet per node per cycle, so at most " + num_text(worm) +
                        " flits per node per cycle (the mean worm length)");
    if (!o.json.empty()) check_output("--json", o.json);
    if (!o.svg.empty()) check_output("--svg", o.svg);
    if (!o.trace.empty()) check_output("--trace", o.trace);
    return o;
}

// ------------------------------------------------------------------ topology
struct Topology {
    int dims = 2, size[3] = {1, 1, 1}, torus = 0, nodes = 1, ports = 4, shape_index = -1, buf_depth = 0, vcs = 2;
    bool board = false;
    void coords(int n, int c[3]) const { c[0] = n % size[0]; c[1] = (n / size[0]) % size[1]; c[2] = n / (size[0] * size[1]); }
    int node(const int c[3]) const { return c[0] + size[0] * (c[1] + size[1] * c[2]); }
    std::string name(int n) const {
        int c[3]; coords(n, c);
        char b[48];
        if (dims == 3) std::snprintf(b, sizeof b, "(%d,%d,%d)", c[0], c[1], c[2]);
        else std::snprintf(b, sizeof b, "(%d,%d)", c[0], c[1]);
        return b;
    }
    bool has_link(int n, int port) const {
        int c[3]; coords(n, c);
        int d = port / 2, s = port % 2;
        if (d >= dims || size[d] < 2) return false;
        if (torus) return true;
        return s == 0 ? c[d] < size[d] - 1 : c[d] > 0;
    }
    std::string shape_name() const {
        char b[64];
        if (dims == 3) std::snprintf(b, sizeof b, "%dx%dx%d %s", size[0], size[1], size[2], torus ? "torus" : "mesh");
        else std::snprintf(b, sizeof b, "%dx%d %s", size[0], size[1], torus ? "torus" : "mesh");
        return b;
    }
};

const char* port_name(int p) {
    static const char* names[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
    return names[p];
}

Topology select_shape(const Options& o) {
    int x = 0, y = 0, z = 1; char extra = 0;
    int got = std::sscanf(o.shape.c_str(), "%dx%dx%d%c", &x, &y, &z, &extra);
    if (got == 2) z = 1;
    if ((got != 2 && got != 3) || x < 1 || y < 1 || z < 1)
        usage_error("--shape wants XxY or XxYxZ, got '" + o.shape + "'");
    Topology t;
    for (int i = 0; i < kNocShapeCount; ++i) {
        const NocShapeDef& s = kNocShapes[i];
        if (s.x == x && s.y == y && s.z == z && s.torus == o.torus && t.shape_index < 0 &&
            (o.buf_depth == 0 || o.buf_depth == s.depth) && (o.vcs == 0 || o.vcs == s.vcs) && (s.board != 0) == o.board &&
            (s.last_hop_vc != 0) == o.last_hop_vc)
            t.shape_index = i;
    }
    if (t.shape_index < 0) {
        std::string m = "shape " + o.shape + (o.torus ? " torus" : " mesh") +
                        (o.buf_depth ? " with buffer depth " + std::to_string(o.buf_depth) : std::string()) +
                        (o.vcs ? " with " + std::to_string(o.vcs) + " VCs" : std::string()) +
                        (o.board ? " with the board profile" : std::string()) +
                        (o.last_hop_vc ? " with the last-hop VC rule" : std::string()) +
                        " is not compiled into this binary (see --help for the list); add it to NOC_SHAPES, "
                        "e.g. make noc-sim NOC_EXTRA_SHAPES=" + o.shape + (o.torus ? "t" : "m") +
                        (o.buf_depth ? std::to_string(o.buf_depth) : std::string()) +
                        (o.vcs ? "v" + std::to_string(o.vcs) : std::string()) + (o.board ? "b" : "") + (o.last_hop_vc ? "h" : "");
        usage_error(m);
    }
    t.dims = z > 1 ? 3 : 2;
    t.size[0] = x; t.size[1] = y; t.size[2] = z;
    t.torus = o.torus; t.nodes = x * y * z; t.ports = 2 * t.dims;
    t.buf_depth = kNocShapes[t.shape_index].depth;
    if (o.dead_port >= 0 && (o.dead_port / 100 >= t.nodes || o.dead_port % 100 >= t.ports))
        usage_error("--dead-link " + std::to_string(o.dead_port / 100) + ":" + std::to_string(o.dead_port % 100) +
                    ": no such node or port in this shape");
    if (o.drop_port >= 0 && (o.drop_port / 100 >= t.nodes || o.drop_port % 100 >= t.ports ||
                             !t.has_link((int)(o.drop_port / 100), (int)(o.drop_port % 100))))
        usage_error("--drop-flit " + o.drop_text + ": no such node or port in this shape, or no link into it");
    t.vcs = kNocShapes[t.shape_index].vcs;
    t.board = kNocShapes[t.shape_index].board != 0;
    return t;
}

// ------------------------------------------------------------------ packets
struct Route { int off[3] = {0, 0, 0}; int start = 0; };

struct Packet {
    int src = 0, dst = 0, inj_port = 0, ej_port = 0, payload = 0;
    uint32_t seq = 0;
    Route route;
    long t_create = 0, t_head = -1, t_offer = -1;   // created, head accepted, head first offered
    bool measured = false;
    bool bad = false;           // an error-case worm that must never arrive
};

// Head flit: [7:0] x offset, [15:8] y, [23:16] z (signed), [25:24] start dimension,
// [31:26] tag. Info flit: [15:0] source node, [31:16] worm length in flits.
uint64_t head_flit(const Route& r, uint32_t tag) {
    uint64_t f = 0;
    for (int d = 0; d < 3; ++d) f |= (uint64_t)(uint8_t)(int8_t)r.off[d] << (8 * d);
    f |= (uint64_t)(r.start & 3) << 24;
    f |= (uint64_t)(tag & 63) << 26;
    return f;
}
uint32_t packet_tag(int src, uint32_t seq, int payload) { return mix32(((uint64_t)src << 40) ^ ((uint64_t)payload << 32) ^ seq) & 63; }
uint64_t upper_bits(int src, uint32_t seq, int i) {
    if (NOC_FLIT_BITS == 32) return 0;
    return ((uint64_t)mix32(((uint64_t)src << 48) ^ ((uint64_t)i << 32) ^ seq ^ 0x5a5a5a5aull) << 32) & kFlitMask;
}
uint32_t data_word(int src, uint32_t seq, int i) { return mix32(((uint64_t)src << 44) ^ ((uint64_t)i << 32) ^ seq ^ 0xa5a5ull); }

// The flits of a worm as injected. Flit 2 is the sequence number; flits 3.. are data; the
// last payload flit (when payload >= 2) is the checksum of flits 1..worm-2.
std::vector<uint64_t> make_worm(const Packet& p) {
    int worm = p.payload + 2;
    std::vector<uint64_t> f(worm);
    f[0] = head_flit(p.route, packet_tag(p.src, p.seq, p.payload));
    f[1] = ((uint64_t)p.src & 0xffff) | ((uint64_t)worm << 16);
    f[2] = p.seq;
    for (int i = 3; i < worm; ++i) f[i] = data_word(p.src, p.seq, i);
    if (p.payload >= 2) {
        uint32_t sum = 0;
        for (int i = 1; i < worm - 1; ++i) sum = (sum << 5 | sum >> 27) ^ (uint32_t)f[i];
        f[worm - 1] = sum;
    }
    for (int i = 1; i < worm; ++i) f[i] |= upper_bits(p.src, p.seq, i);
    return f;
}

// ------------------------------------------------------------------ the bench
struct Result {
    std::string pattern;
    double offered = 0, accepted = 0, latency = 0, net_latency = 0, max_latency = 0;
    long packets = 0, measured = 0, cycles = 0;
    long lost = 0, duplicated = 0, corrupted = 0, deadlocks = 0, errors_detected = 0, flips = 0, retries = 0;
    bool ok = true, drained = true;
};

class Bench {
public:
    Bench(const Topology& t, const Options& o, VerilatedContext* ctx)
        : topo_(t), opt_(o), rng_(o.seed), top_(new Vnoc_tb_top(ctx)) {
        chans_ = topo_.nodes * kPortsPerNode;
        drv_valid_.assign(chans_, false);
        drv_ready_.assign(chans_, false);
        inj_.resize(chans_);
        ej_.resize(chans_);
        if (!o.trace.empty()) {
            trace_.reset(new VerilatedFstC);
            // Level 0: the bench top and the networks (links, local ports, router ports);
            // router internals live in hierarchical blocks that Verilator 5.006 cannot trace.
            top_->trace(trace_.get(), 0);
            trace_->open(o.trace.c_str());
        }
        top_->shape_select = (uint8_t)t.shape_index;
        top_->inj_check_enable = 1;
        top_->fault_seed = (uint32_t)o.fault_seed;
        top_->flip_rate = (uint32_t)std::min(4294967295.0, std::floor(o.flip_rate * 4294967296.0));
        top_->dead_port = o.dead_port >= 0 ? (uint32_t)((o.dead_port / 100) * t.ports + o.dead_port % 100) : 0xffffffffu;
        top_->dead_cycle = (uint32_t)o.dead_cycle;
        top_->drop_port = o.drop_port >= 0 ? (uint32_t)((o.drop_port / 100) * t.ports + o.drop_port % 100) : 0xffffffffu;
        top_->drop_cycle = o.drop_port >= 0 ? (uint32_t)o.drop_cycle : 0u;
        top_->rst = 1;
        for (int i = 0; i < 4; ++i) tick_clock();
        top_->rst = 0;
        for (int i = 0; i < 2; ++i) tick_clock();
    }
    ~Bench() { if (trace_) trace_->close(); top_->final(); }

    long now() const { return cycle_; }
    int failures() const { return failures_; }
    void fail(const std::string& m) {
        if (failures_ < 20) std::printf("FAILURE at cycle %ld: %s\n", cycle_, m.c_str());
        ++failures_;
    }
    void set_check(bool on) { top_->inj_check_enable = on; }

    // Minimal dimension-order route, start dimension 0.
    Route minimal_route(int src, int dst) const {
        Route r; int a[3], b[3];
        topo_.coords(src, a); topo_.coords(dst, b);
        for (int d = 0; d < 3; ++d) {
            int delta = b[d] - a[d];
            if (topo_.torus) {
                int n = topo_.size[d];
                delta = ((delta % n) + n) % n;
                if (2 * delta > n) delta -= n;
                // Half way round: the sign depends on the source's parity, so that both
                // directions carry the same load (deterministic per pair: order holds).
                if (2 * delta == n && (a[d] % 2)) delta -= n;
            }
            r.off[d] = delta;
        }
        return r;
    }
    // Output port of the first hop and ejection port at the destination.
    static void ports_of(const Route& r, int dims, int* first, int* last) {
        *first = *last = -1;
        for (int i = 0; i < dims; ++i) {
            int d = (r.start + i) % dims;
            if (r.off[d] == 0) continue;
            if (*first < 0) *first = 2 * d + (r.off[d] < 0 ? 1 : 0);
            *last = 2 * d + (r.off[d] > 0 ? 1 : 0);   // arrived from the - side when moving +
        }
    }
    int dest_of(int src, uint32_t /*seq*/, int* ok_out) {
        int c[3], d[3];
        topo_.coords(src, c);
        for (int i = 0; i < 3; ++i) d[i] = c[i];
        const std::string& p = opt_.pattern;
        *ok_out = 1;
        if (p == "uniform" || p == "errors" || (p == "hotspot" && rng_.uniform() >= opt_.hotspot)) {
            int n;
            do n = rng_.below(topo_.nodes); while (n == src && topo_.nodes > 1);
            return n;
        } else if (p == "hotspot") {
            int h[3] = {topo_.size[0] / 2, topo_.size[1] / 2, topo_.size[2] / 2};
            int n = topo_.node(h);
            if (n == src) *ok_out = 0;
            return n;
        } else if (p == "transpose") {   // coordinates rotated: d_i = c_{i+1} mod n_i
            for (int i = 0; i < topo_.dims; ++i) d[i] = c[(i + 1) % topo_.dims] % topo_.size[i];
        } else if (p == "bitcomp") {
            for (int i = 0; i < topo_.dims; ++i) d[i] = topo_.size[i] - 1 - c[i];
        } else if (p == "tornado") {
            for (int i = 0; i < topo_.dims; ++i)   // shift by ceil(n/2) - 1, at least 1
                d[i] = (c[i] + std::max(1, (topo_.size[i] + 1) / 2 - 1)) % topo_.size[i];
        } else if (p == "storm") {      // every other node in turn, from the next one on
            int k = storm_next_[src]++ % (topo_.nodes - 1);
            return topo_.nodes > 1 ? (src + 1 + k) % topo_.nodes : src;
        } else if (p == "neighbor") {   // a random neighbour over an existing link
            int ports[6], n = 0;
            for (int k = 0; k < topo_.ports; ++k) if (topo_.has_link(src, k)) ports[n++] = k;
            if (n == 0) { *ok_out = 0; return src; }
            int k = ports[rng_.below(n)];
            int dd = k / 2;
            d[dd] = c[dd] + (k % 2 ? -1 : 1);
            if (topo_.torus) d[dd] = (d[dd] + topo_.size[dd]) % topo_.size[dd];
        }
        int n = topo_.node(d);
        if (n == src) *ok_out = 0;
        return n;
    }

    // Queue a packet for injection. Returns its id.
    void enqueue(Packet p) {
        int first = 0, last = 0;
        ports_of(p.route, topo_.dims, &first, &last);
        if (p.inj_port < 0) p.inj_port = first < 0 ? 0 : first;
        p.ej_port = last;
        Chan& c = inj_[p.src * kPortsPerNode + p.inj_port];
        if (!p.bad) {
            uint64_t key = ((uint64_t)p.src << 32) | p.seq;
            inflight_[key] = p;
            order_[order_key(p)].push_back(p.seq);
            ++queued_;
        }
        c.queue.push_back(p);
    }
    uint32_t next_seq(int src) { return seqs_[src]++; }
    Packet new_packet(int src, int dst, int payload) {
        Packet p;
        p.src = src; p.dst = dst; p.payload = payload; p.seq = next_seq(src);
        p.route = minimal_route(src, dst);
        p.t_create = cycle_;
        p.inj_port = -1;
        return p;
    }

    // One clock cycle t. The network's inputs are registered in noc_tb_top: in cycle t it
    // sees what was driven during cycle t-1 (drv_*). Its outputs are functions of its state
    // only, so the handshakes of cycle t are known right after the clock edge; then the
    // inputs for cycle t+1 are driven and the clock ticks.
    void step(bool ej_random_stall) {
        const uint32_t* ir = words_of(top_->inj_ready);
        const uint32_t* ev = words_of(top_->ej_valid);
        const uint32_t* ed = words_of(top_->ej_data);
        const uint32_t* el = words_of(top_->ej_last);
        const uint32_t* ie = words_of(top_->inj_error);
        fired_inj_.clear();
        fired_ej_.clear();
        for (int ch = 0; ch < chans_; ++ch) {
            if (drv_valid_[ch] && get_bit(ir, ch)) fired_inj_.push_back(ch);
            if (drv_ready_[ch] && get_bit(ev, ch))
                fired_ej_.push_back({ch, get_bits(ed, ch * NOC_FLIT_BITS, NOC_FLIT_BITS), get_bit(el, ch)});
            if (get_bit(ie, ch)) inj_errors_.push_back(ch);
        }
        for (int ch : fired_inj_) {
            Chan& c = inj_[ch];
            if (c.pos == 0) {
                Packet& p = c.queue.front();
                auto it = inflight_.find(((uint64_t)p.src << 32) | p.seq);
                if (!p.bad && it != inflight_.end()) it->second.t_head = cycle_;
                if (!p.bad) ++injected_;
            }
            ++flits_in_;
            if (++c.pos == (int)c.flits.size()) { c.queue.pop_front(); c.flits.clear(); c.pos = 0; }
            last_move_ = cycle_;
        }
        for (const Ejected& e : fired_ej_) {
            Chan& c = ej_[e.ch];
            c.flits.push_back(e.flit);
            ++flits_out_;
            if (measuring_) ++measured_flits_out_;
            last_move_ = cycle_;
            if (e.last) { check_worm(e.ch, c.flits); c.flits.clear(); }
        }
        // Drive cycle t+1.
        uint32_t* iv = words_of(top_->inj_valid);
        uint32_t* id = words_of(top_->inj_data);
        uint32_t* il = words_of(top_->inj_last);
        uint32_t* er = words_of(top_->ej_ready);
        for (int ch = 0; ch < chans_; ++ch) {
            Chan& c = inj_[ch];
            bool v = false;
            if (!c.queue.empty()) {
                Packet& p = c.queue.front();
                if (c.flits.empty()) c.flits = make_worm(p);
                if (c.pos == 0 && p.t_offer < 0) {
                    p.t_offer = cycle_ + 1;
                    auto it = inflight_.find(((uint64_t)p.src << 32) | p.seq);
                    if (!p.bad && it != inflight_.end()) it->second.t_offer = p.t_offer;
                }
                v = true;
                set_bits(id, ch * NOC_FLIT_BITS, NOC_FLIT_BITS, c.flits[c.pos]);
                set_bit(il, ch, c.pos + 1 == (int)c.flits.size());
            }
            set_bit(iv, ch, v);
            drv_valid_[ch] = v;
            bool ready = !(ej_random_stall && opt_.ej_stall > 0 && rng_.uniform() < opt_.ej_stall);
            set_bit(er, ch, ready);
            drv_ready_[ch] = ready;
        }
        tick_clock();
        ++cycle_;
    }

    void check_worm(int ch, const std::vector<uint64_t>& f) {
        int node = ch / kPortsPerNode, port = ch % kPortsPerNode;
        std::string where = "node " + topo_.name(node) + " ejection port " + port_name(port);
        if (f.size() < 3) { fail(where + ": a worm of " + std::to_string(f.size()) + " flits arrived (at least 3 expected)"); return; }
        int src = (int)(f[1] & 0xffff);
        int worm = (int)((f[1] >> 16) & 0xffff);
        uint32_t seq = (uint32_t)f[2];
        uint64_t key = ((uint64_t)src << 32) | seq;
        auto it = inflight_.find(key);
        if (it == inflight_.end()) {
            bool dup = src < (int)delivered_seq_.size() && seq < delivered_seq_[src].size() && delivered_seq_[src][seq];
            if (dup) ++duplicated_; else ++corrupted_;
            char b[160];
            std::snprintf(b, sizeof b, ": %s packet (source %d, seq %u, %zu flits)", dup ? "duplicate" : "unknown (damaged)",
                          src, seq, f.size());
            fail(where + b);
            return;
        }
        bool intact = true;
        Packet p = it->second;
        std::vector<uint64_t> want = make_worm(p);
        want[0] &= ~0xffffffull;   // the offsets arrive as zero
        std::string pkt = "packet " + std::to_string(src) + "/" + std::to_string(seq);
        if (worm != (int)want.size() || f.size() != want.size())
            intact = false, fail(where + ": " + pkt + " arrived with " + std::to_string(f.size()) + " flits (length field " +
                 std::to_string(worm) + "), sent " + std::to_string(want.size()));
        else {
            for (size_t i = 0; i < f.size(); ++i)
                if (f[i] != want[i]) {
                    intact = false;
                    char b[200];
                    std::snprintf(b, sizeof b, ": %s flit %zu is 0x%" PRIx64 ", sent 0x%" PRIx64 " (checksum/data mismatch)",
                                  pkt.c_str(), i, f[i], want[i]);
                    fail(where + b);
                    break;
                }
        }
        if (node != p.dst) intact = false, fail(where + ": " + pkt + " was for node " + topo_.name(p.dst));
        if (port != p.ej_port) intact = false, fail(where + ": " + pkt + " expected on ejection port " + port_name(p.ej_port));
        std::deque<uint32_t>& q = order_[order_key(p)];
        if (q.empty() || q.front() != seq)
            fail(where + ": " + pkt + " out of order (expected seq " + (q.empty() ? std::string("none") : std::to_string(q.front())) + ")");
        else q.pop_front();
        long lat = cycle_ - p.t_create;
        if (p.measured) {
            lat_sum_ += lat; net_lat_sum_ += cycle_ - p.t_head; ++lat_count_;
            if (lat > lat_max_) lat_max_ = lat;
        }
        if (!intact) ++corrupted_;
        if ((int)delivered_seq_.size() <= src) delivered_seq_.resize(src + 1);
        if (delivered_seq_[src].size() <= seq) delivered_seq_[src].resize(seq + 1024, false);
        delivered_seq_[src][seq] = true;
        ++delivered_;
        if (log_deliveries_) delivery_log_.push_back({p, cycle_ - p.t_offer});
        inflight_.erase(it);
    }

    long in_flight() const { return (long)inflight_.size(); }
    long in_network() const { return injected_ - delivered_; }

    // Watchdog: true (and a report) when nothing moved for too long with packets in flight.
    bool stuck() {
        if (in_flight() == 0 || cycle_ - last_move_ < opt_.watchdog) return false;
        fail("watchdog: nothing moved for " + std::to_string(cycle_ - last_move_) + " cycles with " +
             std::to_string(in_flight()) + " packets in flight");
        const uint32_t* bn = words_of(top_->buf_nonempty);
        int shown = 0;
        const int stride = kPortsPerNode * (kNocMaxVcs + 1), v = topo_.vcs;
        for (int n = 0; n < topo_.nodes && shown < 40; ++n)
            for (int b = 0; b < (v + 1) * topo_.ports; ++b)
                if (get_bit(bn, n * stride + b)) {
                    std::string name = b < v * topo_.ports
                        ? std::string("input ") + port_name(b / v) + " vc" + std::to_string(b % v)
                        : std::string("injection ") + port_name(b - v * topo_.ports);
                    std::printf("  stuck buffer: node %s %s\n", topo_.name(n).c_str(), name.c_str());
                    ++shown;
                }
        if (kNocGuard) {
            const uint32_t* lb = words_of(top_->link_busy);
            for (int n = 0; n < topo_.nodes && shown < 60; ++n)
                for (int k = 0; k < topo_.ports; ++k)
                    if (get_bit(lb, n * kPortsPerNode + k)) {
                        std::printf("  stuck link: node %s output %s: flits sent, not acknowledged (link_guard_tx)\n",
                                    topo_.name(n).c_str(), port_name(k));
                        ++shown;
                    }
        }
        return true;
    }
    long error_count_sum() {
        const uint32_t* ec = words_of(top_->err_count);
        long s = 0;
        for (int n = 0; n < topo_.nodes; ++n) s += (long)get_bits(ec, n * 16, 16);
        return s;
    }
    // Sum of one of the links' 16-bit counters (link_errors, link_flips, link_retries).
    long link_sum(const uint32_t* w) const {
        long s = 0;
        for (int n = 0; n < topo_.nodes; ++n)
            for (int k = 0; k < topo_.ports; ++k) s += (long)get_bits(w, (n * kPortsPerNode + k) * 16, 16);
        return s;
    }
    long link_errors() { return link_sum(words_of(top_->link_errors)); }
    long link_flips() { return link_sum(words_of(top_->link_flips)); }
    long link_retries() { return link_sum(words_of(top_->link_retries)); }
    long drop_at() const { return (long)top_->drop_at; }   // --drop-flit: its cycle, 0 none yet
    long error_count_at(int n) { return (long)get_bits(words_of(top_->err_count), n * 16, 16); }

    // State shared with the drivers below.
    const Topology& topo_;
    const Options& opt_;
    Rng rng_;
    bool measuring_ = false;
    long measured_flits_out_ = 0, lat_sum_ = 0, net_lat_sum_ = 0, lat_count_ = 0, lat_max_ = 0;
    long flits_in_ = 0, flits_out_ = 0, injected_ = 0, delivered_ = 0, queued_ = 0;
    long duplicated_ = 0, corrupted_ = 0;
    std::vector<int> inj_errors_;   // channels whose inj_error pulsed
    bool log_deliveries_ = false;
    std::vector<std::pair<Packet, long>> delivery_log_;   // packet, cycles from head offered to tail
    long last_move_ = 0;

private:
    struct Chan { std::deque<Packet> queue; std::vector<uint64_t> flits; int pos = 0; };
    struct Ejected { int ch; uint64_t flit; bool last; };
    // Order is promised per source-destination pair and route (general traffic has one
    // route per pair; a step may send two worms to the same node by different links).
    static uint64_t order_key(const Packet& p) {
        return ((uint64_t)p.src << 32) | ((uint64_t)p.dst << 8) | (uint64_t)(p.inj_port << 4) | (uint64_t)p.ej_port;
    }
    void set_clock(bool high) {
        top_->clk = high ? (uint32_t)(1u << topo_.shape_index) : 0u;
        top_->eval();
        if (trace_) trace_->dump((uint64_t)(2 * cycle_ + (high ? 1 : 0)));
    }
    void tick_clock() { set_clock(false); set_clock(true); }

    int chans_ = 0;
    long cycle_ = 0;
    int failures_ = 0;
    std::unique_ptr<Vnoc_tb_top> top_;
    std::unique_ptr<VerilatedFstC> trace_;
    std::vector<Chan> inj_, ej_;
    std::unordered_map<uint64_t, Packet> inflight_;
    std::unordered_map<uint64_t, std::deque<uint32_t>> order_;
    std::map<int, uint32_t> seqs_;
    std::map<int, int> storm_next_;
    std::vector<std::vector<bool>> delivered_seq_;   // per source: sequence numbers delivered
    std::vector<bool> drv_valid_, drv_ready_;   // what the network sees in the current cycle
    std::vector<int> fired_inj_;
    std::vector<Ejected> fired_ej_;
};

double mean_worm(const Options& o) { return (o.len_min + o.len_max) / 2.0 + 2.0; }

// Bisection limit of uniform random traffic: flits per node per cycle at which the links
// across the narrowest cut of the largest dimension are saturated.
double bisection_limit(const Topology& t) {
    int d = 0;
    for (int i = 1; i < t.dims; ++i) if (t.size[i] > t.size[d]) d = i;
    int n = t.size[d];
    if (n < 2) return 0;
    double links = (double)t.nodes / n * (t.torus ? 2 : 1);   // one-way links across the cut
    double half = (double)(n / 2) * t.nodes / n;               // nodes on one side
    double other = (double)(t.nodes - half);
    double cross_rate = half * other / (t.nodes - 1);          // per unit load, flits crossing one way
    return links / cross_rate;
}

// ------------------------------------------------------------------ traffic run
Result run_traffic(const Topology& topo, const Options& opt, double load, VerilatedContext* ctx) {
    Bench b(topo, opt, ctx);
    Result r;
    r.pattern = opt.pattern;
    r.offered = load;
    double p = load / mean_worm(opt);
    if (p > 1.0) usage_error("--load too high for the packet length: at most one new packet per node per cycle");
    long gen_end = opt.warmup + opt.cycles;
    long measured_created = 0;
    long progress_every = 100000;
    long error_worms = 0, error_worms_unchecked = 0;
    std::vector<long> expected_err_at(topo.nodes, 0);
    while (true) {
        long t = b.now();
        if (t < gen_end) {
            b.measuring_ = (t >= opt.warmup);
            for (int n = 0; n < topo.nodes; ++n) {
                if (b.rng_.uniform() >= p) continue;
                int ok = 1;
                int dst = b.dest_of(n, 0, &ok);
                int payload = opt.len_min + b.rng_.below(opt.len_max - opt.len_min + 1);
                if (!ok) continue;
                Packet pk = b.new_packet(n, dst, payload);
                pk.measured = b.measuring_;
                if (pk.measured) ++measured_created;
                b.enqueue(pk);
            }
            bool checked_phase = t < gen_end / 2;
            bool checked_pending = (long)b.inj_errors_.size() < error_worms;
            if (opt.pattern == "errors" && t % 97 == 50 && t < gen_end - 200 && (checked_phase || !checked_pending)) {
                // A bad worm from a random node: checked injection in the first half; the
                // check goes off once every checked bad worm has been refused.
                bool checked = checked_phase;
                b.set_check(checked);
                int src = b.rng_.below(topo.nodes);
                Packet pk;
                pk.src = src; pk.payload = 1 + b.rng_.below(6); pk.seq = 0x80000000u + (uint32_t)error_worms;
                pk.bad = true; pk.t_create = t; pk.inj_port = -1;
                int c[3]; topo.coords(src, c);
                int kind = b.rng_.below(4);
                int d1 = topo.dims - 1;   // the dimension travelled last (start dim 0)
                int far = -1;             // node where an unchecked worm dies
                if (kind == 0 && checked) {            // no hop at all
                    pk.inj_port = b.rng_.below(topo.ports);
                } else if (kind == 1 && checked) {     // bad start dimension / unused dimension
                    pk.route.start = 3; pk.route.off[0] = 1;
                    if (topo.dims == 2 && b.rng_.below(2)) { pk.route.start = 0; pk.route.off[2] = 1; pk.route.off[0] = 0; }
                    pk.inj_port = b.rng_.below(topo.ports);
                } else {                               // leaves the mesh / exceeds the ring in the last dimension
                    int n = topo.size[d1];
                    pk.route.off[d1] = topo.torus ? n + b.rng_.below(3) : (n - c[d1]) + b.rng_.below(2);
                    if (pk.route.off[d1] > 127) pk.route.off[d1] = 127;
                    int d0 = 0;
                    if (topo.size[d0] > 1 && d0 != d1) {
                        int lo = topo.torus ? -(topo.size[d0] - 1) : -c[d0];
                        int hi = topo.torus ? topo.size[d0] - 1 : topo.size[d0] - 1 - c[d0];
                        pk.route.off[d0] = lo + b.rng_.below(hi - lo + 1);
                    }
                    int cc[3] = {c[0], c[1], c[2]};
                    if (d0 != d1) cc[d0] = ((c[d0] + pk.route.off[d0]) % topo.size[d0] + topo.size[d0]) % topo.size[d0];
                    if (!topo.torus) cc[d1] = n - 1;   // a mesh worm runs to the edge first
                    far = topo.node(cc);
                }
                if (!checked && far < 0) { far = -1; }
                if (checked || far >= 0) {
                    int first = 0, last = 0;
                    Bench::ports_of(pk.route, topo.dims, &first, &last);
                    if (pk.inj_port < 0) pk.inj_port = first < 0 ? 0 : first;
                    b.enqueue(pk);
                    if (checked) ++error_worms; else { ++error_worms_unchecked; ++expected_err_at[far]; }
                }
            }
        } else {
            b.measuring_ = false;
        }
        b.step(true);
        if (b.stuck()) { r.deadlocks = 1; break; }
        if (b.now() >= gen_end && b.in_flight() == 0) break;
        if (b.now() >= gen_end + opt.drain) { r.drained = false; break; }
        if (!opt.quiet && b.now() % progress_every == 0)
            std::fprintf(stderr, "  [%s %s load %.3f] cycle %ld: %ld delivered, %ld in flight\n",
                         topo.shape_name().c_str(), opt.pattern.c_str(), load, b.now(), b.delivered_, b.in_flight());
    }
    // A few idle cycles so that the last error pulses and counters settle.
    for (int i = 0; i < 20; ++i) b.step(false);
    r.cycles = b.now();
    r.packets = b.delivered_;
    r.measured = b.lat_count_;
    r.accepted = (double)b.measured_flits_out_ / ((double)opt.cycles * topo.nodes);
    r.latency = b.lat_count_ ? (double)b.lat_sum_ / b.lat_count_ : 0;
    r.net_latency = b.lat_count_ ? (double)b.net_lat_sum_ / b.lat_count_ : 0;
    r.max_latency = (double)b.lat_max_;
    if (!r.drained && opt.sweep.empty())
        b.fail("drain: " + std::to_string(b.in_flight()) + " packets still in flight after " + std::to_string(opt.drain) +
               " drain cycles");
    if (opt.pattern == "errors") {
        if ((long)b.inj_errors_.size() != error_worms)
            b.fail("injection refused " + std::to_string(b.inj_errors_.size()) + " worms with an error status, " +
                   std::to_string(error_worms) + " bad worms were injected with the check on");
        for (int n = 0; n < topo.nodes; ++n)
            if (b.error_count_at(n) != expected_err_at[n])
                b.fail("node " + topo.name(n) + " error counter is " + std::to_string(b.error_count_at(n)) +
                       ", expected " + std::to_string(expected_err_at[n]));
        std::printf("errors: %ld bad worms refused at injection, %ld consumed and counted by routers\n",
                    error_worms, b.error_count_sum());
        if (error_worms == 0 || error_worms_unchecked == 0) b.fail("the error run injected no bad worms of some kind");
    } else if (b.error_count_sum() != 0 || !b.inj_errors_.empty()) {
        b.fail("good traffic raised router errors: " + std::to_string(b.error_count_sum()) + " counted, " +
               std::to_string(b.inj_errors_.size()) + " injection errors");
    }
    if (r.drained && b.in_flight() != 0) b.fail(std::to_string(b.in_flight()) + " packets lost");
    r.lost = b.in_flight();
    r.duplicated = b.duplicated_;
    r.corrupted = b.corrupted_;
    if (kNocGuard) {
        r.errors_detected = b.link_errors();
        r.flips = b.link_flips();
        r.retries = b.link_retries();
        // Every damaged flit is caught (a single flipped bit always fails the CRC); a dead
        // link also refuses its idle words, so the equality holds only without one.
        // A dropped flit is a gap in the sequence numbers: refused words beyond the flips.
        const long dropped = opt.drop_port >= 0 ? b.drop_at() : 0;
        if (opt.drop_port >= 0) {
            const int dn = (int)(opt.drop_port / 100), dk = (int)(opt.drop_port % 100);
            if (dropped)
                std::printf("fault: --drop-flit %s: the flit into node %s input %s at cycle %ld dropped (a protected "
                            "link: sent again)\n", opt.drop_text.c_str(), topo.name(dn).c_str(), port_name(dk), dropped);
            else
                std::printf("fault: --drop-flit %s: no flit into node %s input %s from that cycle on: nothing dropped\n",
                            opt.drop_text.c_str(), topo.name(dn).c_str(), port_name(dk));
            if (dropped && opt.dead_port < 0 && r.errors_detected <= r.flips)
                b.fail("the flit --drop-flit " + opt.drop_text + " dropped was not detected: " +
                       std::to_string(r.errors_detected) + " errors for " + std::to_string(r.flips) + " flips");
        }
        if (opt.dead_port < 0 && !dropped && r.errors_detected != r.flips)
            b.fail("links detected " + std::to_string(r.errors_detected) + " errors, " + std::to_string(r.flips) +
                   " flits were damaged");
        if (opt.dead_port < 0 && r.retries < r.errors_detected)
            b.fail("links resent " + std::to_string(r.retries) + " flits for " + std::to_string(r.errors_detected) +
                   " errors detected");
        std::printf("links: %ld flits damaged, %ld errors detected, %ld flits resent\n", r.flips, r.errors_detected,
                    r.retries);
    }
    r.ok = b.failures() == 0;
    return r;
}

// ------------------------------------------------------------------ contention-free step
// Senders: nodes whose coordinate sum is 0 modulo the largest side, so that every line of
// the network holds at most one sender. Each sends one straight worm on each of its links,
// `hops` hops long (the long way round on a torus when hops > n/2), all at the same cycle.
// No worm may stall: each must take exactly as long as the same worm alone in the network,
// which for the simulated router (one cycle per hop) is hops + worm length + 1 cycles.
// (The board profile's router has its own fixed pipeline: its lone-worm times are measured
// first, worm by worm, and the step must match them.)
bool run_step(const Topology& topo, const Options& opt, VerilatedContext* ctx, long* worms_total) {
    int m = std::max(topo.size[0], std::max(topo.size[1], topo.size[2]));
    bool ok = true;
    int lens[] = {1, 14, 64};
    // The worms of one step: hop count selector hsel, payload flits.
    auto make_step = [&](Bench& b, int hsel, int payload, std::vector<Packet>* sent) {
        for (int n = 0; n < topo.nodes; ++n) {
            int c[3]; topo.coords(n, c);
            if ((c[0] + c[1] + c[2]) % m != 0) continue;
            for (int k = 0; k < topo.ports; ++k) {
                int d = k / 2, s = k % 2, size = topo.size[d];
                if (size < 2) continue;
                int maxh = topo.torus ? size - 1 : (s == 0 ? size - 1 - c[d] : c[d]);
                int h = hsel == 0 ? 1 : hsel == 1 ? (size + 1) / 2 : size - 1;
                if (h > maxh || h < 1) continue;
                Packet p = b.new_packet(n, 0, payload);
                p.route = Route();
                p.route.off[d] = s ? -h : h;
                p.route.start = d;
                int cc[3] = {c[0], c[1], c[2]};
                cc[d] = ((c[d] + p.route.off[d]) % size + size) % size;
                p.dst = topo.node(cc);
                p.inj_port = k;
                sent->push_back(p);
            }
        }
    };
    for (int hsel = 0; hsel < 3; ++hsel)
        for (int payload : lens) {
            Bench b(topo, opt, ctx);
            std::vector<Packet> sent;
            make_step(b, hsel, payload, &sent);
            for (const Packet& p : sent) b.enqueue(p);
            b.log_deliveries_ = true;
            long start = b.now();
            while (b.in_flight() > 0 && !b.stuck()) b.step(false);
            long cycles = b.now() - start;
            // The time of each worm alone: the formula, or (board profile) measured, once
            // per hop count (the router is the same in every direction).
            std::vector<long> alone(sent.size());
            std::map<int, long> alone_by_hops;
            for (size_t i = 0; i < sent.size(); ++i) {
                int h = 0;
                for (int d = 0; d < 3; ++d) h += std::abs(sent[i].route.off[d]);
                alone[i] = h + (payload + 2) + 1;
                if (topo.board && alone_by_hops.count(h)) {
                    alone[i] = alone_by_hops[h];
                } else if (topo.board) {
                    Bench one(topo, opt, ctx);
                    one.log_deliveries_ = true;
                    Packet p = sent[i];
                    p.seq = one.next_seq(p.src);
                    one.enqueue(p);
                    while (one.in_flight() > 0 && !one.stuck()) one.step(false);
                    alone[i] = one.delivery_log_.size() == 1 ? one.delivery_log_[0].second + 1 : -1;
                    alone_by_hops[h] = alone[i];
                }
            }
            // Every worm must leave its tail as many cycles after its head was first offered
            // as alone, whatever else moves at the same time.
            int hmax = 0, slow = 0;
            long want_max = 0;
            for (const auto& e : b.delivery_log_) {
                int h = 0;
                for (int d = 0; d < 3; ++d) h += std::abs(e.first.route.off[d]);
                hmax = std::max(hmax, h);
                long want = -1;
                for (size_t i = 0; i < sent.size(); ++i)
                    if (sent[i].src == e.first.src && sent[i].seq == e.first.seq) want = alone[i];
                want_max = std::max(want_max, want);
                if (e.second + 1 != want) {
                    if (slow < 5)
                        std::printf("  worm from %s took %ld cycles, alone %ld\n",
                                    topo.name(e.first.src).c_str(), e.second + 1, want);
                    ++slow;
                }
            }
            bool good = b.failures() == 0 && slow == 0 && b.delivered_ == (long)sent.size();
            std::printf("%s step: %zu worms, up to %d hops, %d flits: %ld cycles, longest worm %s = %ld, "
                        "%d worms late%s\n",
                        topo.shape_name().c_str(), sent.size(), hmax, payload + 2, cycles,
                        topo.board ? "alone" : "hops + length + 1", want_max, slow, good ? "" : "  <-- WRONG");
            *worms_total += (long)sent.size();
            ok = ok && good && !sent.empty();
        }
    return ok;
}

// ------------------------------------------------------------------ output
// Closes a written output; a write that failed (a full disk) ends the run with status 1.
void close_output(FILE* f, const std::string& path) {
    bool failed = std::ferror(f) != 0;
    int err = errno;
    if (std::fclose(f) != 0 && !failed) { failed = true; err = errno; }
    if (failed) {
        std::fprintf(stderr, "noc-sim: cannot write %s: %s\n", path.c_str(), std::strerror(err ? err : EIO));
        std::exit(1);
    }
}

void write_json(const std::string& path, const Topology& topo, const Options& opt, const std::vector<Result>& rs,
                double limit) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) { std::fprintf(stderr, "noc-sim: cannot write %s: %s\n", path.c_str(), std::strerror(errno)); std::exit(1); }
    double sat = 0;
    for (const Result& r : rs) sat = std::max(sat, r.accepted);
    std::fprintf(f, "{\n  \"label\": \"%s\",\n  \"shape\": \"%s\",\n  \"pattern\": \"%s\",\n", opt.label.c_str(),
                 topo.shape_name().c_str(), opt.pattern.c_str());
    std::fprintf(f, "  \"buffer_depth\": %d,\n  \"vcs\": %d,\n", topo.buf_depth, topo.vcs);
    std::fprintf(f, "  \"flit_bits\": %d,\n  \"payload_flits\": [%d, %d],\n  \"bisection_limit\": %.4f,\n",
                 NOC_FLIT_BITS, opt.len_min, opt.len_max, limit);
    std::fprintf(f, "  \"saturation_throughput\": %.4f,\n  \"saturation_fraction_of_bisection\": %.4f,\n", sat,
                 limit > 0 ? sat / limit : 0);
    std::fprintf(f, "  \"points\": [\n");
    for (size_t i = 0; i < rs.size(); ++i) {
        const Result& r = rs[i];
        std::fprintf(f, "    {\"offered\": %.4f, \"accepted\": %.4f, \"latency\": %.2f, \"network_latency\": %.2f, "
                        "\"max_latency\": %.0f, \"packets\": %ld, \"cycles\": %ld, \"lost\": %ld, \"duplicated\": %ld, "
                        "\"corrupted_delivered\": %ld, \"deadlocks\": %ld, \"flits_damaged\": %ld, "
                        "\"errors_detected\": %ld, \"retries\": %ld, \"drained\": %s, \"ok\": %s}%s\n",
                     r.offered, r.accepted, r.latency, r.net_latency, r.max_latency, r.packets, r.cycles, r.lost,
                     r.duplicated, r.corrupted, r.deadlocks, r.flips, r.errors_detected, r.retries,
                     r.drained ? "true" : "false", r.ok ? "true" : "false", i + 1 < rs.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    close_output(f, path);
}

void write_svg(const std::string& path, const std::string& title, const std::vector<Result>& rs, double limit) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) { std::fprintf(stderr, "noc-sim: cannot write %s: %s\n", path.c_str(), std::strerror(errno)); std::exit(1); }
    const double W = 640, H = 420, L = 70, R = 20, T = 40, B = 60;
    double xmax = limit > 0 ? limit * 1.25 : 1, ymax = 10;
    // The latency axis ends at 8 times the lowest latency: saturated points sit on the top edge.
    double ymin_lat = 0;
    for (const Result& r : rs) {
        xmax = std::max(xmax, r.offered);
        if (r.latency > 0 && (ymin_lat == 0 || r.latency < ymin_lat)) ymin_lat = r.latency;
        ymax = std::max(ymax, r.latency);
    }
    if (ymin_lat > 0) ymax = std::min(ymax, 8 * ymin_lat);
    auto X = [&](double v) { return L + (W - L - R) * v / xmax; };
    auto Y = [&](double v) { return H - B - (H - T - B) * std::min(v, ymax) / ymax; };
    std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
    std::fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    std::fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\">%s</text>\n", L, title.c_str());
    std::fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
    std::fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", L, T, L, H - B);
    for (int i = 0; i <= 5; ++i) {
        double xv = xmax * i / 5, yv = ymax * i / 5;
        std::fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.2f</text>\n", X(xv), H - B + 18, xv);
        std::fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", L - 6, Y(yv) + 4, yv);
    }
    std::fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">offered load (flits/node/cycle)</text>\n", (L + W - R) / 2, H - 18);
    std::fprintf(f, "<text x=\"16\" y=\"%.0f\" transform=\"rotate(-90 16 %.0f)\" text-anchor=\"middle\">average latency (cycles)</text>\n", (T + H - B) / 2, (T + H - B) / 2);
    if (limit > 0)
        std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"gray\" stroke-dasharray=\"4 4\"/>"
                        "<text x=\"%.1f\" y=\"%.0f\" fill=\"gray\">bisection limit</text>\n",
                     X(limit), T, X(limit), H - B, X(limit) + 4, T + 12);
    std::string pts;
    for (const Result& r : rs) {
        char b[64]; std::snprintf(b, sizeof b, "%.1f,%.1f ", X(r.offered), Y(r.latency)); pts += b;
        std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f77b4\"/>\n", X(r.offered), Y(r.latency));
    }
    std::fprintf(f, "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"%s\"/>\n", pts.c_str());
    std::fprintf(f, "</svg>\n");
    close_output(f, path);
}

}  // namespace

int main(int argc, char** argv) {
    Options opt = parse_options(argc, argv);
    Topology topo = select_shape(opt);
    std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
    ctx->commandArgs(argc, argv);
    if (!opt.trace.empty()) ctx->traceEverOn(true);   // before any model exists
    ctx->randReset(0);

    if (opt.pattern == "step") {
        long worms = 0;
        bool ok = run_step(topo, opt, ctx.get(), &worms);
        std::printf("%s step: %ld worms in all: %s\n", topo.shape_name().c_str(), worms, ok ? "OK" : "FAILED");
        return ok ? 0 : 1;
    }

    const std::vector<double>& loads = opt.loads;   // checked by parse_options
    double limit = bisection_limit(topo);
    std::vector<Result> results;
    bool ok = true;
    long packets = 0;
    if (!opt.sweep.empty())
        std::printf("%-8s %-9s %-9s %-9s %-9s %s\n", "offered", "accepted", "latency", "net-lat", "packets", "status");
    for (double load : loads) {
        Result r = run_traffic(topo, opt, load, ctx.get());
        results.push_back(r);
        packets += r.packets;
        ok = ok && r.ok;
        if (!opt.sweep.empty())
            std::printf("%-8.3f %-9.3f %-9.1f %-9.1f %-9ld %s\n", r.offered, r.accepted, r.latency, r.net_latency,
                        r.packets, !r.ok ? "FAILED" : r.drained ? "ok" : "saturated (not drained)");
        else
            std::printf("%s %s load %.3f: %ld packets delivered, accepted %.3f flits/node/cycle, latency %.1f "
                        "(network %.1f, max %.0f) cycles: %s\n",
                        topo.shape_name().c_str(), opt.pattern.c_str(), load, r.packets, r.accepted, r.latency,
                        r.net_latency, r.max_latency, r.ok ? "OK" : "FAILED");
    }
    if (!opt.json.empty()) write_json(opt.json, topo, opt, results, limit);
    if (!opt.svg.empty())
        write_svg(opt.svg, (opt.label.empty() ? topo.shape_name() : opt.label) + ": latency vs offered load", results, limit);
    if (packets < opt.expect_min_packets) {
        std::printf("FAILURE: only %ld packets delivered, expected at least %d\n", packets, opt.expect_min_packets);
        ok = false;
    }
    return ok ? 0 : 1;
}
