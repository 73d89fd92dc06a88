// SPDX-License-Identifier: ISC
// mesh-sim's link faults (mesh_faults.h).
#include "mesh_faults.h"

#include <cstdlib>

namespace {

// a decimal number from p (no sign), its end in `end`; false when there is none
bool read_number(const char *p, const char **end, uint64_t &value) {
    if (*p < '0' || *p > '9') return false;
    char *e = nullptr;
    value = std::strtoull(p, &e, 10);
    *end = e;
    return true;
}

}  // namespace

bool parse_dead_link(const std::string &text, const MeshShape &shape, DeadLink &link,
                     std::string &error) {
    const std::string form = "--dead-link takes X,Y" + std::string(shape.dims == 3 ? ",Z" : "") +
                             ":P[@CYCLE] (P: 2*dimension, +1 for the - side, 0.." +
                             std::to_string(2 * shape.dims - 1) + "), not '" + text + "'";
    const char *p = text.c_str();
    uint64_t coord[3] = {0, 0, 0};
    for (int d = 0; d < shape.dims; ++d) {
        const char *end = nullptr;
        if (!read_number(p, &end, coord[d]) || *end != (d + 1 < shape.dims ? ',' : ':')) {
            error = form;
            return false;
        }
        p = end + 1;
    }
    uint64_t port = 0, cycle = 0;
    const char *end = nullptr;
    if (!read_number(p, &end, port) || (*end != '\0' && *end != '@')) {
        error = form;
        return false;
    }
    if (*end == '@' && (!read_number(end + 1, &end, cycle) || *end != '\0')) {
        error = form;
        return false;
    }
    for (int d = 0; d < shape.dims; ++d)
        if (coord[d] >= uint64_t(shape.size[d])) {
            error = "--dead-link " + text + ": no node there, the machine's sides are " +
                    std::to_string(shape.size[0]) + "x" + std::to_string(shape.size[1]) +
                    (shape.dims == 3 ? "x" + std::to_string(shape.size[2]) : std::string());
            return false;
        }
    if (port >= uint64_t(2 * shape.dims)) {
        error = form;
        return false;
    }
    const int dim = int(port / 2);
    const bool minus = port % 2;
    int c[3] = {int(coord[0]), int(coord[1]), shape.dims == 3 ? int(coord[2]) : 0};
    const int side = shape.size[dim];
    const bool at_edge = minus ? c[dim] == 0 : c[dim] == side - 1;
    if (side < 2 || (at_edge && !shape.torus)) {
        error = "--dead-link " + text + ": no cable leaves that node by port " + std::to_string(port) +
                " (the edge of a mesh, or a side of 1)";
        return false;
    }
    link.node = c[0] + shape.size[0] * (c[1] + shape.size[1] * c[2]);
    link.port = int(port);
    c[dim] = (c[dim] + (minus ? side - 1 : 1)) % side;
    link.peer = c[0] + shape.size[0] * (c[1] + shape.size[1] * c[2]);
    link.cycle = cycle;
    return true;
}
