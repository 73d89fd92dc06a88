// SPDX-License-Identifier: ISC
// mesh_view: mesh-sim's replay trace (`--view FILE.html`, `--view-trace FILE.json`).
//
// While the machine runs, once per cycle, it records
//   - the flits every link carries, summed per window of W cycles (W doubles as the run
//     grows, so that a trace keeps at most kMaxWindows windows);
//   - every worm, hop by hop: on which link (and virtual channel) its head went and in which
//     cycle, when its last flit followed, its source, destination, length and head tag (the
//     collectives engine puts the schedule step there, firmware/coll/coll_plan.c), read from
//     the flits themselves (head, info flit) on each tile's input links;
//   - per node and window: instructions retired, and cycles spent waiting on the network (the
//     NI runs a plan, i.e. a collective, or the core's NI access is held);
//   - the cycles at which the test bench (--job) released and finished each job.
// At the end it writes the trace as JSON, alone or inside a copy of the viewer page
// (sim/viewer/viewer.html, compiled into mesh-sim), which replays it with no network access.
#ifndef RVMESH_MESH_VIEW_H
#define RVMESH_MESH_VIEW_H

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "mesh_jobs.h"
#include "mesh_program.h"

class VerilatedContext;

// a public variable of the model (where it is, and its VerilatedVarType)
struct MeshViewVar {
    const void *data = nullptr;
    int type = 0;
};
// what the view reads of one tile
struct MeshViewVars {
    MeshViewVar lin_valid, lin_vc, lin_last, lin_data, plan_done, req_valid, req_ready;
};

class MeshView {
public:
    static const uint32_t kMaxWindows = 4096;

    // max_hops: worm hops recorded at most (then only the flits per link go on)
    MeshView(const MeshShape &shape, std::function<std::string(int)> node_name, uint64_t max_hops);
    ~MeshView();

    // Finds each tile's input links and state in the model (public variables, see
    // sim/mesh/mesh_share.vlt). False when the model has none: then only the flits per link
    // are recorded (from link_valid), and `note` says so.
    bool attach(VerilatedContext &context, std::string &note);

    // Once per cycle, after the rising edge has settled: link_valid[l] (l = node * ports +
    // port) is 1 when output link l carries a flit this cycle, retired[n] when node n's core
    // retired an instruction.
    void sample(uint64_t cycle, const uint8_t *link_valid, const uint8_t *retired);

    // The test bench: in cycle `cycle` the nodes were released into job `job` (released) or
    // every node had ended it (not released).
    void job_event(uint64_t cycle, size_t job, bool released);

    // The end of the run, then the files. False with a message when one cannot be written.
    void finish(const RunResult &run, const MeshJobs *jobs);
    bool write_json(const std::string &path, std::string &error) const;
    bool write_html(const std::string &path, std::string &error) const;

    bool detailed() const { return attached_; }

private:
    struct Hop {
        uint32_t worm;
        uint32_t link;
        uint32_t head;       // cycle the head crossed
        uint32_t tail;       // cycle the last flit crossed (head while open)
        uint8_t vc;
    };
    struct Worm {
        int32_t src, dst;    // node indices (src -1: a one-flit worm without its info flit)
        uint32_t len;        // flits, from the info flit (0 when unknown)
        uint32_t tag;        // head bits 31:26
        uint32_t first, last;// cycle of the first hop's head, of the last hop's tail
        int32_t at;          // the node its newest hop ends at
        uint32_t hops;
        bool done;
    };
    struct Lane {            // one virtual channel of one link: the worm crossing it
        int32_t hop = -1;    // open hop, or -1
        uint32_t head = 0;   // its head flit, until the info flit names the worm
        uint32_t since = 0;
        bool want_info = false;
    };
    int neighbour(int n, int port) const;   // -1 on a mesh edge
    void flit(uint64_t cycle, int link, int vc, bool last, uint32_t data);
    // a worm's head crossed `link` in head_cycle (its info flit, if any, in `cycle`): the hop,
    // of a worm in flight that ended its last hop at this link's node, or of a new one. The
    // index of the hop while it stays open (-1: closed at once, or no more hops recorded).
    int32_t open_hop(uint64_t head_cycle, uint64_t cycle, int link, int vc, uint32_t head, uint32_t info,
                     bool has_info, bool last);
    void close_hop(int32_t index, uint64_t cycle);
    void close_window();
    void double_window();
    std::string json() const;

    MeshShape shape_;
    std::function<std::string(int)> node_name_;
    int links_ = 0;
    std::vector<int> far_;                  // per link: the node it leads to (-1: none)
    bool attached_ = false;
    std::vector<MeshViewVars> vars_;        // per node
    int vc_bits_ = 1;
    uint64_t max_hops_;
    bool hops_truncated_ = false;
    uint64_t hops_stop_cycle_ = 0;

    // windows
    uint32_t window_ = 1;                   // cycles per window (a power of two)
    uint64_t window_start_ = 0;             // first cycle of the open window
    std::vector<uint32_t> cur_flits_;       // per link, in the open window
    std::vector<uint32_t> cur_retired_, cur_wait_;   // per node
    struct LinkEntry { uint32_t window, link, flits; };
    std::vector<LinkEntry> link_entries_;   // windows with flits, in window order
    std::vector<std::vector<uint32_t>> retired_, wait_;  // per window, per node
    std::vector<uint64_t> link_total_;

    // worms
    std::vector<Lane> lanes_;               // per link and virtual channel
    std::vector<Hop> hops_;
    std::vector<Worm> worms_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> open_;  // key -> worms in flight
    int vcs_ = 2;

    struct JobMark { uint64_t cycle; size_t job; bool released; };
    std::vector<JobMark> job_marks_;
    uint64_t last_cycle_ = 0;

    // the end
    RunResult run_;
    std::vector<JobResult> jobs_;
    bool finished_ = false;
};

#endif
