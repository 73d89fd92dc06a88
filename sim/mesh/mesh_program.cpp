// SPDX-License-Identifier: ISC
// mesh_program: a program's tables, its region timers, the --report and --junit files. See
// mesh_program.h and sim/mesh/README.md.
#include "mesh_program.h"

#include <cerrno>
#include <cinttypes>
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

std::string json_text(const std::string &in) {
    std::string out;
    out.reserve(in.size() + 8);
    for (unsigned char c : in) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out;
}

std::string xml_text(const std::string &in) {
    std::string out;
    out.reserve(in.size() + 8);
    for (unsigned char c : in) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
                out += char(c);
            } else if (c >= 0x80) {
                char buf[12];
                std::snprintf(buf, sizeof buf, "&#x%x;", c);
                out += buf;
            } else {
                out += '?';   // control characters have no place in XML 1.0
            }
        }
    }
    return out;
}

// why a node failed, for the JUnit failure (empty: it passed)
std::string node_failure(const NodeResult &n, const RunResult &run) {
    if (!n.exited)
        return "did not exit" + (run.reason.empty() ? std::string() : ": " + run.reason);
    if (n.exit_code != 0) return "exit status " + std::to_string(n.exit_code);
    return "";
}

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

std::vector<NodeRegion> mesh_read_regions(const SimRam &ram, uint64_t ram_base, const Elf32Image &image) {
    std::vector<NodeRegion> out;
    // firmware/rt/rvmesh_rt.h: magic, count, then 64-byte regions at 8
    const uint32_t kMagic = 0x47525652u, kMax = 16, kName = 24, kRegion = 64;
    if (!image.has_regions || (image.regions & 3u) || image.regions < ram_base ||
        image.regions_bytes < 8 + kMax * kRegion || uint64_t(image.regions) - ram_base + image.regions_bytes > ram.words() * 4)
        return out;
    const size_t w0 = size_t((image.regions - ram_base) / 4);
    if (ram.word(w0) != kMagic) return out;
    uint32_t count = ram.word(w0 + 1);
    if (count > kMax) count = kMax;
    for (uint32_t i = 0; i < count; ++i) {
        const size_t w = w0 + 2 + i * (kRegion / 4);
        NodeRegion r;
        char name[kName + 1];
        for (uint32_t k = 0; k < kName / 4; ++k) {
            uint32_t word = ram.word(w + k);
            for (int b = 0; b < 4; ++b) name[4 * k + b] = char(word >> (8 * b));
        }
        name[kName] = 0;
        r.name.assign(name, strnlen(name, kName));
        auto u64 = [&](size_t at) { return uint64_t(ram.word(w + at)) | uint64_t(ram.word(w + at + 1)) << 32; };
        r.calls = ram.word(w + 6);
        r.cycles = u64(8);
        r.first = u64(10);
        r.last = u64(12);
        out.push_back(r);
    }
    return out;
}

bool mesh_write_report(const std::string &path, const RunResult &run, const MeshJobs *jobs, std::string &error) {
    FILE *f = sim_open_output(path, error);
    if (!f) return false;
    std::fprintf(f, "{\n  \"shape\": \"%s\",\n  \"shape_id\": \"%s\",\n  \"elf\": \"%s\",\n  \"exit\": %d,\n",
                 run.shape.c_str(), run.shape_id.c_str(), json_text(run.elf).c_str(), run.status);
    if (!run.reason.empty()) std::fprintf(f, "  \"reason\": \"%s\",\n", json_text(run.reason).c_str());
    std::fprintf(f, "  \"cycles\": %" PRIu64 ",\n  \"instret\": %" PRIu64 ",\n  \"flits\": %" PRIu64 ",\n", run.cycles,
                 run.instret, run.flits);
    if (jobs) {
        jobs->write_json_fields(f);
        std::fprintf(f, ",\n");
    }
    std::fprintf(f, "  \"nodes\": [");
    for (size_t i = 0; i < run.nodes.size(); ++i) {
        const NodeResult &n = run.nodes[i];
        std::fprintf(f, "%s\n    {\"node\": \"%s\", \"id\": %zu, \"exited\": %s, \"exit\": ", i ? "," : "",
                     n.name.c_str(), i, n.exited ? "true" : "false");
        if (n.exited)
            std::fprintf(f, "%" PRIu64 ", \"cycles\": %" PRIu64, n.exit_code, n.exit_cycle);
        else
            std::fprintf(f, "null, \"cycles\": null");
        std::fprintf(f, ", \"instret\": %" PRIu64 ", \"regions\": [", n.instret);
        for (size_t k = 0; k < n.regions.size(); ++k) {
            const NodeRegion &r = n.regions[k];
            std::fprintf(f, "%s{\"name\": \"%s\", \"calls\": %" PRIu64 ", \"cycles\": %" PRIu64 ", \"first\": %" PRIu64
                         ", \"last\": %" PRIu64 "}", k ? ", " : "", json_text(r.name).c_str(), r.calls, r.cycles,
                         r.first, r.last);
        }
        std::fprintf(f, "], \"console_dropped\": %" PRIu64 ", \"console\": \"%s\"}", n.console_dropped,
                     json_text(n.console).c_str());
    }
    std::fprintf(f, "\n  ]\n}\n");
    return sim_close_output(f, path, error);
}

bool mesh_write_junit(const std::string &path, const RunResult &run, const MeshJobs *jobs, std::string &error) {
    FILE *f = sim_open_output(path, error);
    if (!f) return false;
    size_t tests = run.nodes.size(), failures = 0;
    for (const NodeResult &n : run.nodes) failures += node_failure(n, run).empty() ? 0 : 1;
    if (jobs) {
        tests += jobs->count();
        for (size_t j = 0; j < jobs->count(); ++j) {
            const bool ran = j < jobs->results().size();
            const JobResult *r = ran ? &jobs->results()[j] : nullptr;
            failures += (!r || !r->finished || !r->delivered || !r->within_bounds) ? 1 : 0;
        }
    }
    std::string prog = run.elf;
    size_t slash = prog.rfind('/');
    if (slash != std::string::npos) prog = prog.substr(slash + 1);
    if (prog.size() > 4 && prog.compare(prog.size() - 4, 4, ".elf") == 0) prog.resize(prog.size() - 4);
    const std::string suite = xml_text(prog) + "." + run.shape_id;
    std::fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    std::fprintf(f, "<testsuites name=\"mesh-sim\" tests=\"%zu\" failures=\"%zu\">\n", tests, failures);
    std::fprintf(f, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n",
                 suite.c_str(), tests, failures);
    std::fprintf(f, "    <properties>\n      <property name=\"shape\" value=\"%s\"/>\n      <property name=\"elf\" "
                 "value=\"%s\"/>\n      <property name=\"exit\" value=\"%d\"/>\n      <property name=\"cycles\" "
                 "value=\"%" PRIu64 "\"/>\n      <property name=\"instret\" value=\"%" PRIu64 "\"/>\n    </properties>\n",
                 xml_text(run.shape).c_str(), xml_text(run.elf).c_str(), run.status, run.cycles, run.instret);
    for (const NodeResult &n : run.nodes) {
        std::fprintf(f, "    <testcase classname=\"%s\" name=\"node %s\">\n", suite.c_str(), xml_text(n.name).c_str());
        const std::string why = node_failure(n, run);
        if (!why.empty())
            std::fprintf(f, "      <failure type=\"%s\" message=\"%s\">%s</failure>\n", n.exited ? "exit" : "hang",
                         xml_text(why).c_str(), xml_text(why).c_str());
        std::string out = n.console;
        if (n.console_dropped) out += "[" + std::to_string(n.console_dropped) + " more bytes not kept]\n";
        if (n.exited)
            out += "[exit " + std::to_string(n.exit_code) + " at cycle " + std::to_string(n.exit_cycle) + ", " +
                   std::to_string(n.instret) + " instructions]\n";
        for (const NodeRegion &r : n.regions)
            out += "[region " + r.name + ": " + std::to_string(r.cycles) + " cycles in " + std::to_string(r.calls) +
                   " calls]\n";
        std::fprintf(f, "      <system-out>%s</system-out>\n    </testcase>\n", xml_text(out).c_str());
    }
    if (jobs)
        for (size_t j = 0; j < jobs->count(); ++j) {
            const JobResult *r = j < jobs->results().size() ? &jobs->results()[j] : nullptr;
            std::string name = "job " + std::to_string(j);
            if (r) name += " " + r->name + " (" + r->algo + ") " + std::to_string(r->msg_bytes) + " B";
            std::fprintf(f, "    <testcase classname=\"%s.jobs\" name=\"%s\">\n", suite.c_str(), xml_text(name).c_str());
            std::string why;
            if (!r || !r->finished) why = "never ended";
            else if (!r->delivered) why = "delivery check failed";
            else if (!r->within_bounds) why = "took fewer cycles than a bound";
            if (!why.empty()) {
                std::string detail;
                if (r)
                    for (const std::string &p : r->problems) detail += p + "\n";
                std::fprintf(f, "      <failure type=\"job\" message=\"%s\">%s</failure>\n", xml_text(why).c_str(),
                             xml_text(detail.empty() ? why : detail).c_str());
            }
            if (r)
                std::fprintf(f, "      <system-out>%" PRIu64 " cycles, %" PRIu64 " setup cycles, %" PRIu64
                             " flits</system-out>\n", r->cycles, r->setup_cycles, r->flits);
            std::fprintf(f, "    </testcase>\n");
        }
    std::fprintf(f, "  </testsuite>\n</testsuites>\n");
    return sim_close_output(f, path, error);
}

bool mesh_check_dump(const Elf32Image &image, uint64_t ram_base, uint64_t ram_bytes, std::string &error) {
    if (!image.has_dump) {
        error = "--dump writes the program's `rvmesh_dump` out of every node's RAM, and this program has no such "
                "symbol: define one (firmware/apps/dynamic does), or leave --dump out";
        return false;
    }
    if (image.dump_bytes == 0 || image.dump < ram_base || image.dump - ram_base + uint64_t(image.dump_bytes) > ram_bytes) {
        char text[160];
        std::snprintf(text, sizeof text, "--dump: the program's `rvmesh_dump` (0x%08" PRIx32 ", %" PRIu32
                      " bytes) is not a non-empty object in RAM", image.dump, image.dump_bytes);
        error = text;
        return false;
    }
    return true;
}

bool mesh_write_dump(const std::string &path, const RunResult &run, const MeshShape &shape,
                     const std::vector<SimRam> &rams, uint64_t ram_base, const Elf32Image &image, std::string &error) {
    FILE *f = sim_open_output(path, error);
    if (!f) return false;
    auto word = [&](uint32_t v) {
        uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
        std::fwrite(b, 1, 4, f);
    };
    std::fwrite("RVMDUMP1", 1, 8, f);
    const uint32_t header[14] = {64u, uint32_t(shape.nodes), image.dump_bytes, uint32_t(shape.dims),
                                 uint32_t(shape.size[0]), uint32_t(shape.size[1]), uint32_t(shape.size[2]),
                                 shape.torus ? 1u : 0u, uint32_t(run.cycles), uint32_t(run.cycles >> 32),
                                 uint32_t(run.status), image.dump, 0u, 0u};
    for (uint32_t v : header) word(v);
    std::vector<uint8_t> bytes((image.dump_bytes + 3u) & ~3u, 0);
    for (int n = 0; n < shape.nodes; ++n) {
        const NodeResult *r = size_t(n) < run.nodes.size() ? &run.nodes[size_t(n)] : nullptr;
        word(r && r->exited ? 1u : 0u);
        word(r ? uint32_t(r->exit_code) : 0u);
        rams[size_t(n)].read_bytes(image.dump - ram_base, image.dump_bytes, bytes.data());
        std::fwrite(bytes.data(), 1, bytes.size(), f);
    }
    return sim_close_output(f, path, error);
}
