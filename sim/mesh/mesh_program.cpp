// SPDX-License-Identifier: ISC
// mesh_program: a program's tables. See mesh_program.h and sim/mesh/README.md.
#include "mesh_program.h"

#include <cerrno>
#include <cstring>

// by path from the top of the tree: firmware/sched/sched.h must not shadow <sched.h>
extern "C" {
#include "firmware/sched/sched.h"
#include "firmware/sched/sched_table.h"
}

namespace {

sched_shape shape_of(const MeshShape &m) {
    sched_shape s;
    std::memset(&s, 0, sizeof s);
    s.dims = uint8_t(m.dims);
    s.torus = m.torus ? 1 : 0;
    for (int d = 0; d < 3; ++d) s.side[d] = uint16_t(d < m.dims ? m.size[d] : 1);
    return s;
}

// "8x8 torus" and "8x8t"
std::string shape_words(const sched_shape &s) {
    std::string t = std::to_string(s.side[0]) + "x" + std::to_string(s.side[1]);
    if (s.dims == 3) t += "x" + std::to_string(s.side[2]);
    return t + (s.torus ? " torus" : " mesh");
}
std::string shape_id(const sched_shape &s) {
    std::string t = std::to_string(s.side[0]) + "x" + std::to_string(s.side[1]);
    if (s.dims == 3) t += "x" + std::to_string(s.side[2]);
    return t + (s.torus ? "t" : "m");
}

uint32_t rd32(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

}  // namespace

bool mesh_package_load(const Elf32Image &image, const MeshShape &mesh, const std::string &shape_name,
                       uint64_t ram_base, uint64_t ram_bytes, MeshPackage &pkg, std::string &error) {
    pkg = MeshPackage();
    static const char kRebuild[] = "build the program again (make in its folder)";
    if (!image.has_package) {
        if (image.has_tables) {
            error = "the program reserves a tables area (rvmesh_tables) but carries no tables (no section "
                    ".rvmesh_package): " + std::string(kRebuild);
            return false;
        }
        return true;
    }
    const sched_shape want = shape_of(mesh);
    const uint8_t *data = image.package.data();
    const uint32_t len = uint32_t(image.package.size());
    sched_pkg p;
    int rc = sched_pkg_open(data, len, nullptr, &p);
    if (rc != SCHED_TABLE_OK) {
        error = std::string("the program's tables (section .rvmesh_package) are damaged: ") + sched_table_strerror(rc) +
                "; " + kRebuild;
        return false;
    }
    if (p.shape.dims != want.dims || p.shape.torus != want.torus || p.shape.side[0] != want.side[0] ||
        p.shape.side[1] != want.side[1] || p.shape.side[2] != want.side[2]) {
        const std::string id = shape_id(p.shape);
        std::string sides = std::to_string(p.shape.side[0]) + "x" + std::to_string(p.shape.side[1]);
        if (p.shape.dims == 3) sides += "x" + std::to_string(p.shape.side[2]);
        error = "the program was built for the " + shape_words(p.shape) + " (its tables say so), this is the " +
                shape_name + ": run it on mesh-sim-" + id + " (mesh-sim --shape " + sides +
                (p.shape.torus ? " --torus" : " --mesh") + "), or build it for this machine (make run SHAPE=" +
                shape_id(want) + " in its folder)";
        return false;
    }
    if (!image.has_tables || (image.tables & 3u) || image.tables < ram_base ||
        uint64_t(image.tables) - ram_base + image.tables_bytes > ram_bytes) {
        error = "the program carries tables but no word-aligned area in RAM for them (the symbol rvmesh_tables): " +
                std::string(kRebuild);
        return false;
    }
    if (image.tables_bytes < p.area_bytes) {
        error = "the program's tables area (rvmesh_tables) has " + std::to_string(image.tables_bytes) +
                " bytes, its largest node's tables " + std::to_string(p.area_bytes) + ": " + kRebuild;
        return false;
    }
    pkg.areas.resize(size_t(mesh.nodes));
    for (int v = 0; v < mesh.nodes; ++v) {
        const uint8_t *a = nullptr;
        uint32_t alen = 0;
        sched_area area;
        rc = sched_pkg_area(&p, uint32_t(v), &a, &alen);
        if (rc == SCHED_TABLE_OK) rc = sched_area_open(a, alen, &want, uint32_t(v), 1, &area);
        if (rc != SCHED_TABLE_OK) {
            error = "the program's tables, node " + std::to_string(v) + ": " + sched_table_strerror(rc) + "; " +
                    kRebuild;
            return false;
        }
        for (uint32_t i = 0; i < area.count; ++i) {
            sched_area_entry e;
            sched_table t;
            sched_area_get_entry(&area, i, &e);
            rc = sched_table_open(a + e.table_off, area.total_bytes - e.table_off, &want, uint32_t(v), &t);
            if (rc != SCHED_TABLE_OK || t.collective != e.collective) {
                error = "the program's tables, node " + std::to_string(v) + ", table " + std::to_string(i) + ": " +
                        (rc != SCHED_TABLE_OK ? sched_table_strerror(rc) : "disagrees with its entry") + "; " +
                        kRebuild;
                return false;
            }
        }
        std::vector<uint32_t> &words = pkg.areas[size_t(v)];
        words.assign((alen + 3) / 4, 0);
        for (uint32_t k = 0; k + 4 <= alen; k += 4) words[k / 4] = rd32(a + k);
        if (alen > pkg.largest) pkg.largest = alen;
        pkg.entries = area.count;
    }
    pkg.present = true;
    pkg.area_word = uint32_t((image.tables - ram_base) / 4);
    pkg.area_bytes = image.tables_bytes;
    return true;
}
