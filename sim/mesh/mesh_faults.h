// SPDX-License-Identifier: ISC
// mesh-sim's link faults: --dead-link (a cable pulled, from a cycle on) and --link-timeout
// (the credit watch that finds a link whose flits are never acknowledged, as a dead cable's).
// The machine's side is rtl/tile/mesh_top.v (link_dead, link_credit).
#ifndef RVMESH_MESH_FAULTS_H
#define RVMESH_MESH_FAULTS_H

#include <cstdint>
#include <string>
#include <vector>

#include "mesh_jobs.h"   // MeshShape

// A dead cable: the one leaving `node` by `port` (2*dim, +1 for the - side), both ways (its
// other end is `peer`'s port `port ^ 1`), dead from `cycle` on.
struct DeadLink {
    int node = 0;
    int port = 0;
    int peer = 0;
    uint64_t cycle = 0;
};

// "X,Y[,Z]:P[@CYCLE]", as schedgen's --dead-link with an optional cycle (default 0: dead from
// reset). False with `error` set when the text is malformed, the node is off the machine, the
// port is not one of its 2*dims, or no cable leaves there (a mesh's edge, a side of 1).
bool parse_dead_link(const std::string &text, const MeshShape &shape, DeadLink &link,
                     std::string &error);

// The credit watch of every output link: a link that has sent flits not yet acknowledged
// (credits back) and got no credit for `timeout` cycles is stalled. A healthy link's flits
// are acknowledged as the next router takes them on; a dead cable's never are.
class LinkWatch {
public:
    LinkWatch(int links, uint64_t timeout) : outstanding_(size_t(links), 0), since_(size_t(links), 0),
                                             timeout_(timeout) {}
    // one cycle of link l: a flit sent (0/1) and the credits got back (0..VCS)
    void sample(uint64_t cycle, int l, unsigned sent, unsigned credits) {
        uint64_t &out = outstanding_[size_t(l)];
        if (credits) {
            out = out > credits ? out - credits : 0;
            since_[size_t(l)] = cycle;
        }
        if (sent) {
            if (out == 0) since_[size_t(l)] = cycle;
            out += sent;
        }
    }
    // the first link (lowest index) stalled at `cycle`, or -1
    int stalled(uint64_t cycle) const {
        for (size_t l = 0; l < outstanding_.size(); ++l)
            if (outstanding_[l] && cycle - since_[l] >= timeout_) return int(l);
        return -1;
    }
    uint64_t outstanding(int l) const { return outstanding_[size_t(l)]; }
    uint64_t since(int l) const { return since_[size_t(l)]; }

private:
    std::vector<uint64_t> outstanding_;   // flits sent, not yet acknowledged
    std::vector<uint64_t> since_;         // the cycle of the last credit (or first flit)
    uint64_t timeout_;
};

#endif
