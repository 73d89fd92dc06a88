// SPDX-License-Identifier: ISC
// mesh-sim's faults: --dead-link (a cable pulled, from a cycle on), --drop-flit (a flit
// vanishes on a wire), --stall-link (a link's credits held back), --stop-node (a core stops),
// and --link-timeout (the credit watch that finds a link whose flits are never acknowledged,
// as a dead cable's). See sim/mesh/README.md, "Link faults".
// The machine's side is rtl/tile/mesh_top.v (link_dead, link_credit).
#ifndef RVMESH_MESH_FAULTS_H
#define RVMESH_MESH_FAULTS_H

#include <cstdint>
#include <string>
#include <vector>

#include "mesh_jobs.h"   // MeshShape

// A fault at a link or a node, from a cycle on, as the options give it (parsed by the
// schedule library's sched_parse_link_arg / sched_parse_node_arg, the "@CYCLE[+N]" here).
// A link is the cable at port `port` (2*dim, +1 for the - side) of `node`; its other end is
// `peer`'s port `port ^ 1`. --dead-link: the cable, both ways. --drop-flit, --stall-link:
// the direction into `node` (the wire into its port `port`, fed by `peer`'s output link
// `port ^ 1`). --stop-node: `node` alone (port, peer unused).
struct DeadLink {
    int node = 0;
    int port = 0;
    int peer = 0;
    uint64_t cycle = 0;
    uint64_t span = 0;     // --stall-link ...+N: N cycles; 0: forever
    std::string text;      // as given, for the messages
};

// The kinds of fault option, each with its form.
enum class FaultKind {
    dead_link,    // X,Y[,Z]:P[@CYCLE]     (cycle 0 without @: from reset)
    drop_flit,    // X,Y[,Z]:P@CYCLE
    stall_link,   // X,Y[,Z]:P@CYCLE[+N]
    stop_node,    // X,Y[,Z]@CYCLE
};

// Parses `text` for option `opt` of kind `kind`. False with `error` set when it is malformed,
// the node is off the machine, the port is not one of its 2*dims, no cable is there (a
// mesh's edge), or the cycle (or +N) is not a decimal number.
bool parse_fault(FaultKind kind, const std::string &opt, const std::string &text, const MeshShape &shape,
                 DeadLink &link, std::string &error);

// The credit watch of every output link: a link that has sent flits not yet acknowledged
// (credits back) and got no credit for `timeout` cycles is stalled. A healthy link's flits
// are acknowledged as the next router takes them on; a dead cable's never are.
class LinkWatch {
public:
    LinkWatch(int links, int vcs, uint64_t timeout)
        : vcs_(vcs), outstanding_(size_t(links), 0), since_(size_t(links), 0),
          per_vc_(size_t(links) * size_t(vcs), 0), timeout_(timeout) {}
    // one cycle of link l: a flit sent (0/1) on VC `vc`, and the credits got back (bit v: VC v)
    void sample(uint64_t cycle, int l, unsigned sent, unsigned vc, unsigned credits) {
        uint64_t &out = outstanding_[size_t(l)];
        if (credits) {
            for (int v = 0; v < vcs_; ++v)
                if ((credits >> v) & 1u) {
                    uint64_t &c = per_vc_[size_t(l) * size_t(vcs_) + size_t(v)];
                    c = c ? c - 1 : 0;
                    out = out ? out - 1 : 0;
                }
            since_[size_t(l)] = cycle;
        }
        if (sent) {
            if (out == 0) since_[size_t(l)] = cycle;
            out += 1;
            ++per_vc_[size_t(l) * size_t(vcs_) + size_t(vc % unsigned(vcs_))];
        }
    }
    // the first link (lowest index) stalled at `cycle`, or -1
    int stalled(uint64_t cycle) const {
        for (size_t l = 0; l < outstanding_.size(); ++l)
            if (outstanding_[l] && cycle - since_[l] >= timeout_) return int(l);
        return -1;
    }
    uint64_t outstanding(int l) const { return outstanding_[size_t(l)]; }
    uint64_t outstanding(int l, int vc) const { return per_vc_[size_t(l) * size_t(vcs_) + size_t(vc)]; }
    uint64_t since(int l) const { return since_[size_t(l)]; }

private:
    int vcs_;
    std::vector<uint64_t> outstanding_;   // flits sent, not yet acknowledged
    std::vector<uint64_t> since_;         // the cycle of the last credit (or first flit)
    std::vector<uint64_t> per_vc_;        // the same per VC
    uint64_t timeout_;
};

#endif
