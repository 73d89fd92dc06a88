// SPDX-License-Identifier: ISC
// mesh-sim's faults (mesh_faults.h).
#include "mesh_faults.h"

// by path from the top of the tree: firmware/sched/sched.h must not shadow <sched.h>
extern "C" {
#include "firmware/sched/sched.h"
#include "tools/sched/base/sched_args.h"
}

namespace {

// a decimal number (digits only, below 2^63) from p, its end in `end`; false when there is none
bool read_number(const char *p, const char **end, uint64_t &value) {
    uint64_t v = 0;
    int k = 0;
    for (; p[k] >= '0' && p[k] <= '9'; ++k) {
        if (k == 18) return false;
        v = v * 10 + uint64_t(p[k] - '0');
    }
    if (k == 0) return false;
    *end = p + k;
    value = v;
    return true;
}

}  // namespace

bool parse_fault(FaultKind kind, const std::string &opt, const std::string &text, const MeshShape &shape,
                 DeadLink &link, std::string &error) {
    const sched_shape ss = sched_shape_make(unsigned(shape.dims), unsigned(shape.size[0]), unsigned(shape.size[1]),
                                            unsigned(shape.size[2]), shape.torus ? 1 : 0);
    char err[400];
    const char *rest = nullptr;
    if (kind == FaultKind::stop_node) {
        uint32_t node = 0;
        if (sched_parse_node_arg(&ss, opt.c_str(), text.c_str(), &rest, &node, err, sizeof err)) {
            error = err;
            return false;
        }
        link.node = link.peer = int(node);
        link.port = 0;
    } else {
        sched_link_arg parsed;
        const char *role = kind == FaultKind::dead_link ? "it leaves by" : "the flits come in by";
        if (sched_parse_link_arg(&ss, opt.c_str(), role, text.c_str(), &rest, &parsed, err, sizeof err)) {
            error = err;
            return false;
        }
        link.node = int(parsed.node);
        link.port = parsed.port;
        link.peer = int(parsed.far);
    }
    // the cycle: "@CYCLE" (optional for --dead-link only), "+N" after it for --stall-link
    const std::string where = kind == FaultKind::stop_node ? (shape.dims == 3 ? "1,2,0" : "1,2")
                                                           : (shape.dims == 3 ? "1,2,0:3" : "1,2:3");
    const std::string form = kind == FaultKind::dead_link    ? where + " or " + where + "@5000"
                             : kind == FaultKind::stall_link ? where + "@5000 or " + where + "@5000+2000"
                                                             : where + "@5000";
    const std::string bad = "bad " + opt + " '" + text + "': ";
    link.cycle = 0;
    link.span = 0;
    link.text = text;
    if (*rest == '\0' && kind == FaultKind::dead_link) return true;
    const char *end = nullptr;
    if (*rest != '@' || !read_number(rest + 1, &end, link.cycle)) {
        const std::string what = kind == FaultKind::stop_node ? "the node" : "the link";
        error = bad + (*rest == '@'    ? "the cycle after '@' must be a decimal number, like "
                       : *rest == '\0' ? "give the cycle it starts at after '@', like "
                                       : "give " + what + " and the cycle it starts at, like ") + form;
        return false;
    }
    if (kind == FaultKind::stall_link && *end == '+') {
        if (!read_number(end + 1, &end, link.span) || link.span == 0) {
            error = bad + "the cycles after '+' (how long the link stalls) must be a decimal number above 0, "
                          "like " + form;
            return false;
        }
    }
    if (*end != '\0') {
        error = bad + "unexpected '" + std::string(end) + "' after the cycle; the form is like " + form;
        return false;
    }
    return true;
}
