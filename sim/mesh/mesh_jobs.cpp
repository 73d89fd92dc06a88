// SPDX-License-Identifier: ISC
// mesh_jobs: mesh-sim's collectives test bench. See mesh_jobs.h and sim/mesh/README.md.
#include "mesh_jobs.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim_common.h"

// by path from the top of the tree: firmware/sched/sched.h must not shadow <sched.h>
extern "C" {
#include "firmware/coll/coll_jobs.h"
#include "firmware/sched/sched.h"
#include "firmware/sched/sched_coll.h"
#include "firmware/sched/sched_table.h"
}

namespace {

const size_t kMaxProblemLines = 12;   // per job, on the log; all are counted

// only decimal digits, at least one
bool is_digits(const std::string &text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
}

// a tables-file error of sched_table_open/find, with what to do about it
std::string table_problem(int rc) {
    std::string text = sched_table_strerror(rc);
    if (rc == SCHED_TABLE_ERR_NODE) text += " (the file holds fewer tables than this machine has nodes: truncated?)";
    return text + "; regenerate the file with schedgen --tables";
}

std::string shape_text(const sched_shape &s) {
    char text[80];
    if (s.dims == 3)
        std::snprintf(text, sizeof text, "%ux%ux%u %s", s.side[0], s.side[1], s.side[2],
                      s.torus ? "torus" : "mesh");
    else
        std::snprintf(text, sizeof text, "%ux%u %s", s.side[0], s.side[1], s.torus ? "torus" : "mesh");
    return text;
}

bool is_partial(uint32_t coll) {
    return coll == uint32_t(SCHED_COLL_PARTIAL_ALLGATHER) || coll == uint32_t(SCHED_COLL_PARTIAL_ALLTOALL);
}
bool is_exchange(uint32_t coll) {
    return coll == uint32_t(SCHED_COLL_ALLTOALL) || coll == uint32_t(SCHED_COLL_PARTIAL_ALLTOALL) ||
           coll == uint32_t(SCHED_COLL_PARTIAL_GATHER);
}
// partial gather: job.source holds the destinations (the nodes some block is delivered to)
bool is_partial_gather(uint32_t coll) { return coll == uint32_t(SCHED_COLL_PARTIAL_GATHER); }

// the machine as the schedule library spells it
sched_shape sched_shape_of(const MeshShape &m) {
    sched_shape s;
    std::memset(&s, 0, sizeof s);
    s.dims = uint8_t(m.dims);
    s.torus = m.torus ? 1 : 0;
    for (int d = 0; d < 3; ++d) s.side[d] = uint16_t(d < m.dims ? m.size[d] : 1);
    return s;
}


}  // namespace

bool parse_job_spec(const std::string &text, JobSpec &spec, std::string &error) {
    // TABLES:BYTES or TABLES:BYTES:SEED; the file name may itself hold colons, the numbers
    // not: with three fields or more, a last-but-one field of digits is BYTES and the last
    // one SEED.
    const std::string form = " (--job TABLES:BYTES[:SEED]: a schedgen --tables file, the message size in bytes, "
                             "optionally a seed)";
    size_t last = text.rfind(':');
    if (last == std::string::npos || last == 0) {
        error = "--job takes TABLES:BYTES[:SEED] (a schedgen --tables file and the message size), not '" +
                text + "'";
        return false;
    }
    std::string head = text.substr(0, last), bytes_text = text.substr(last + 1), seed_text;
    bool has_seed = false;
    size_t prev = head.rfind(':');
    if (prev != std::string::npos && prev > 0 && is_digits(head.substr(prev + 1))) {
        seed_text = bytes_text;
        bytes_text = head.substr(prev + 1);
        head = head.substr(0, prev);
        has_seed = true;
    }
    uint64_t bytes = 0, seed = 1;
    if (!is_digits(bytes_text)) {
        error = "--job '" + text + "': the message size '" + bytes_text + "' is not a decimal number of bytes" +
                form;
        return false;
    }
    if (!sim_parse_count(bytes_text.c_str(), bytes, false) || bytes > 0xffffffffull) {
        error = "--job '" + text + "': the message size " + bytes_text + " is out of range: give 4 bytes or more "
                "(a multiple of 4), below 2^32";
        return false;
    }
    if (has_seed && !is_digits(seed_text)) {
        error = "--job '" + text + "': the seed '" + seed_text + "' is not a decimal number" + form;
        return false;
    }
    if (has_seed && (!sim_parse_count(seed_text.c_str(), seed, true) || seed > 0xffffffffull)) {
        error = "--job '" + text + "': the seed " + seed_text + " is out of range: give 0 .. 4294967295";
        return false;
    }
    spec.path = head;
    spec.msg_bytes = uint32_t(bytes);
    spec.seed = uint32_t(seed);
    return true;
}

bool MeshJobs::load(const std::vector<JobSpec> &specs, uint32_t area_bytes, std::string &error) {
    // each file is read and checked before the next one is read: the first problem is named
    return load_files(specs, [&specs](size_t j, std::vector<uint8_t> &file, std::string &error) {
        const std::string &path = specs[j].path;
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            error = "cannot read the tables file '" + path + "': " + std::strerror(errno) +
                    " (write it with schedgen --tables)";
            return false;
        }
        file.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        return true;
    }, area_bytes, error);
}

bool MeshJobs::load_bytes(const std::vector<JobSpec> &specs, const std::vector<std::vector<uint8_t>> &files,
                          uint32_t area_bytes, std::string &error) {
    return load_files(specs, [&files](size_t j, std::vector<uint8_t> &file, std::string &error) {
        if (j >= files.size()) {
            error = "no contents for job " + std::to_string(j + 1);
            return false;
        }
        file = files[j];
        return true;
    }, area_bytes, error);
}

bool MeshJobs::load_files(const std::vector<JobSpec> &specs,
                          const std::function<bool(size_t, std::vector<uint8_t> &, std::string &)> &read,
                          uint32_t area_bytes, std::string &error) {
    const sched_shape expect = sched_shape_of(shape_);
    const uint32_t nodes = uint32_t(shape_.nodes);

    jobs_.clear();
    for (size_t j = 0; j < specs.size(); ++j) {
        Job job;
        job.spec = specs[j];
        const std::string &path = job.spec.path;
        std::vector<uint8_t> file;
        if (!read(j, file, error)) return false;
        if (file.empty()) {
            error = "the tables file '" + path + "' is empty; write it with schedgen --tables";
            return false;
        }
        // the first table says what the file was built for
        sched_table first;
        int rc = sched_table_open(file.data(), uint32_t(file.size()), nullptr, UINT32_MAX, &first);
        if (rc != SCHED_TABLE_OK) {
            error = "'" + path + "' is not a valid tables file: " + table_problem(rc);
            return false;
        }
        if (sched_table_open(file.data(), uint32_t(file.size()), &expect, UINT32_MAX, &first) ==
            SCHED_TABLE_ERR_SHAPE) {
            error = "'" + path + "' was built for a " + shape_text(first.shape) + ", but this mesh-sim simulates a " +
                    shape_text(expect) + ": regenerate it with schedgen --shape ... for this shape, or build " +
                    "mesh-sim for that shape (make mesh-sim MESH_X=.. MESH_Y=..)";
            return false;
        }
        job.collective = first.collective;
        job.algo = first.algo;
        job.model = first.model;
        job.root = first.root;
        job.steps = first.nsteps;
        job.parts = sched_table_parts(&first);
        if (job.spec.msg_bytes % (4u * job.parts) != 0) {
            char text[200];
            std::snprintf(text, sizeof text, "--job %s: the message size %u is not a multiple of %u (4 bytes x %u parts "
                          "of the %s schedule)", path.c_str(), job.spec.msg_bytes, 4u * job.parts, job.parts,
                          sched_algo_name(sched_algo(job.algo)));
            error = text;
            return false;
        }
        // what the collective leaves at the node that gets the most: it must fit in a node's RAM
        // (the program's own buffers may be smaller: it refuses those itself, per node)
        const uint64_t m = job.spec.msg_bytes;
        const bool one_block = job.collective == uint32_t(SCHED_COLL_BCAST) || job.collective == uint32_t(SCHED_COLL_SCATTER);
        const uint64_t result_bytes = one_block ? m : uint64_t(nodes) * m;
        if (ram_bytes_ && result_bytes > ram_bytes_) {
            char text[400];
            std::snprintf(text, sizeof text, "'%s': %s blocks of %u bytes leave %" PRIu64 " bytes at %s, more "
                          "than a node's RAM (%" PRIu64 " bytes, RAM_BYTES in config.mk): give a smaller BYTES",
                          path.c_str(), sched_coll_name(sched_collective(job.collective)),
                          job.spec.msg_bytes, result_bytes,
                          job.collective == uint32_t(SCHED_COLL_GATHER) ? "the root" : "every node",
                          ram_bytes_);
            error = text;
            return false;
        }
        job.tables.resize(nodes);
        job.source.assign(nodes, false);
        for (uint32_t n = 0; n < nodes; ++n) {
            sched_table t;
            rc = sched_table_find(file.data(), uint32_t(file.size()), &expect, n, &t);
            if (rc != SCHED_TABLE_OK) {
                error = "'" + path + "': the table of node " + node_name_(int(n)) + ": " + table_problem(rc);
                return false;
            }
            if (t.collective != job.collective || t.algo != job.algo || t.root != job.root) {
                error = "'" + path + "': node " + node_name_(int(n)) +
                        "'s table belongs to another schedule than node 0's (tables files from different runs?)";
                return false;
            }
            NodeTable &nt = job.tables[n];
            nt.bytes.assign(t.base, t.base + t.total_bytes);
            for (uint32_t i = 0; i < t.nsend; ++i) {
                sched_table_send s;
                sched_table_get_send(&t, i, &s);
                nt.sends.push_back(Send{s.dst, s.piece, s.step, s.flags});
                uint32_t block = s.piece / job.parts;
                uint32_t owner = is_exchange(job.collective) ? block / nodes : block;
                if (is_partial_gather(job.collective)) job.source[block % nodes] = true;
                else if (owner == n) job.source[n] = true;
            }
            for (uint32_t i = 0; i < t.nrecv; ++i) {
                sched_table_recv r;
                sched_table_get_recv(&t, i, &r);
                nt.recvs.push_back(Recv{r.src, r.piece, r.step, r.flags});
            }
        }
        jobs_.push_back(std::move(job));
    }

    // the areas: header, records, tables (8-byte aligned); jobs of one tables file (a warmup
    // and a timed call, sizes of one schedule) share the node's copy of its table, which the
    // program only reads: the program may use the rest of the area for its buffers
    areas_.assign(nodes, std::vector<uint32_t>());
    for (uint32_t n = 0; n < nodes; ++n) {
        std::vector<uint8_t> bytes(COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * jobs_.size(), 0);
        auto put = [&bytes](size_t off, uint32_t v) {
            for (int k = 0; k < 4; ++k) bytes[off + size_t(k)] = uint8_t(v >> (8 * k));
        };
        put(COLL_JOBS_MAGIC_OFF, COLL_JOBS_MAGIC);
        put(COLL_JOBS_VERSION_OFF, COLL_JOBS_VERSION);
        put(COLL_JOBS_COUNT_OFF, uint32_t(jobs_.size()));
        put(COLL_JOBS_FLAGS_OFF, COLL_JOBS_HOST_CHECK);
        put(COLL_JOBS_BYTES_OFF, area_bytes);
        put(COLL_JOBS_NODE_OFF, n);
        std::vector<uint32_t> table_at(jobs_.size(), 0);
        for (size_t j = 0; j < jobs_.size(); ++j) {
            const NodeTable &t = jobs_[j].tables[n];
            size_t same = j;
            for (size_t k = 0; k < j && same == j; ++k)
                if (jobs_[k].tables[n].bytes == t.bytes) same = k;
            if (same == j) {
                while (bytes.size() % 8) bytes.push_back(0);
                table_at[j] = uint32_t(bytes.size());
                bytes.insert(bytes.end(), t.bytes.begin(), t.bytes.end());
            } else
                table_at[j] = table_at[same];
            size_t rec = COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * j;
            put(rec + COLL_JOB_TABLE_OFF, table_at[j]);
            put(rec + COLL_JOB_TABLE_BYTES, uint32_t(t.bytes.size()));
            put(rec + COLL_JOB_MSG_BYTES, jobs_[j].spec.msg_bytes);
            put(rec + COLL_JOB_SEED, jobs_[j].spec.seed);
        }
        if (bytes.size() > area_bytes) {
            char text[300];
            std::snprintf(text, sizeof text, "node %s's %zu jobs need %zu bytes of tables area, but the program's "
                          "rvmesh_jobs holds %u: run fewer jobs at once or enlarge COLL_JOBS_DEFINE in the program",
                          node_name_(int(n)).c_str(), jobs_.size(), bytes.size(), area_bytes);
            error = text;
            return false;
        }
        while (bytes.size() % 4) bytes.push_back(0);
        std::vector<uint32_t> &words = areas_[n];
        words.assign(bytes.size() / 4, 0);
        std::memcpy(words.data(), bytes.data(), bytes.size());
    }
    results_.clear();
    next_ = 0;
    links_at_start_.clear();
    return true;
}

void MeshJobs::problem(JobResult &result, FILE *log, const std::string &text) {
    if (result.problems.size() < kMaxProblemLines && log)
        std::fprintf(log, "mesh-sim: job %d (%s %u B): %s\n", result.index, result.name.c_str(), result.msg_bytes,
                     text.c_str());
    result.problems.push_back(text);
}

std::string MeshJobs::sender_of(const Job &job, int n, uint32_t piece) const {
    for (const Recv &r : job.tables[size_t(n)].recvs)
        if (r.piece == piece && !(r.flags & SCHED_MSG_TRANSIT)) {
            char text[120];
            std::snprintf(text, sizeof text, "from node %s in step %u", node_name_(int(r.src)).c_str(), r.step);
            return text;
        }
    uint32_t block = piece / job.parts;
    uint32_t owner = is_exchange(job.collective) ? block / uint32_t(shape_.nodes) : block;
    if (job.collective == uint32_t(SCHED_COLL_BCAST)) owner = job.root;
    if (job.collective == uint32_t(SCHED_COLL_SCATTER)) owner = job.root;
    if (owner == uint32_t(n)) return "its own block (copied locally, no message)";
    return "which no step of the schedule delivers to it";
}

bool MeshJobs::check_node(const Job &job, int n, const SimRam &ram, uint32_t area_word, uint64_t ram_bytes,
                          uint32_t ram_base, JobResult &result, FILE *log) {
    const uint32_t nodes = uint32_t(shape_.nodes), m = job.spec.msg_bytes;
    const size_t rec_word = area_word + (COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * size_t(result.index)) / 4;
    auto rec = [&](uint32_t offset) { return ram.word(rec_word + offset / 4); };
    const std::string who = "node " + node_name_(n);
    int32_t status = int32_t(rec(COLL_JOB_STATUS));
    if (status != 0) {
        ++result.firmware_errors;
        char text[200];
        uint32_t err_step = rec(COLL_JOB_ERR_STEP);
        if (err_step)
            std::snprintf(text, sizeof text, "%s: the collective returned %d: unexpected (duplicated or stray) worm "
                          "from node %s in step %u", who.c_str(), status,
                          node_name_(int(rec(COLL_JOB_ERR_SRC))).c_str(), err_step);
        else
            std::snprintf(text, sizeof text, "%s: the collective returned %d (its console says why)", who.c_str(),
                          status);
        problem(result, log, text);
        return false;
    }
    uint32_t want_bytes = coll_result_bytes(job.collective, nodes, job.root, uint32_t(n), m);
    if (want_bytes == 0) return true;
    uint32_t addr = rec(COLL_JOB_RECV_ADDR), bytes = rec(COLL_JOB_RECV_BYTES);
    if (bytes != want_bytes || addr < ram_base || uint64_t(addr - ram_base) + bytes > ram_bytes || (addr & 3u)) {
        char text[200];
        std::snprintf(text, sizeof text, "%s: result buffer 0x%08x, %u bytes: want %u bytes, word aligned, in RAM",
                      who.c_str(), addr, bytes, want_bytes);
        problem(result, log, text);
        return false;
    }
    std::vector<uint8_t> result_bytes(bytes);
    ram.read_bytes(addr - ram_base, bytes, result_bytes.data());
    const uint8_t *buf = result_bytes.data();
    std::vector<bool> covered(bytes, false);
    bool ok = true;
    const uint32_t blocks = is_exchange(job.collective) ? nodes * nodes : nodes;
    const uint32_t part_bytes = m / job.parts;
    for (uint32_t b = 0; b < blocks; ++b) {
        uint32_t off = coll_result_offset(job.collective, nodes, job.root, uint32_t(n), b, m);
        if (off == UINT32_MAX) continue;
        if (is_partial(job.collective)) {
            uint32_t owner = is_exchange(job.collective) ? b / nodes : b;
            if (!job.source[owner]) continue;   // non-sources have no block: poison stays
        }
        // partial gather: only the destinations get blocks, never their own
        if (is_partial_gather(job.collective) && (!job.source[uint32_t(n)] || b / nodes == uint32_t(n))) continue;
        for (uint32_t p = 0; p < job.parts; ++p) {
            uint32_t bad = UINT32_MAX, poison = 0;
            for (uint32_t i = p * part_bytes; i < (p + 1) * part_bytes; ++i) {
                covered[off + i] = true;
                uint8_t got = buf[off + i];
                if (got == COLL_POISON) ++poison;
                if (got != coll_pattern(job.spec.seed, b, i) && bad == UINT32_MAX) bad = i;
            }
            if (bad == UINT32_MAX) continue;
            ok = false;
            char text[300];
            uint32_t piece = b * job.parts + p;
            if (poison == part_bytes)
                std::snprintf(text, sizeof text, "%s: block %u%s missing (still poison), %s", who.c_str(), b,
                              job.parts > 1 ? (" part " + std::to_string(p)).c_str() : "",
                              sender_of(job, n, piece).c_str());
            else
                std::snprintf(text, sizeof text, "%s: block %u corrupted at byte %u (0x%02x, want 0x%02x), %s",
                              who.c_str(), b, bad, buf[off + bad], coll_pattern(job.spec.seed, b, bad),
                              sender_of(job, n, piece).c_str());
            problem(result, log, text);
        }
    }
    for (uint32_t i = 0; i < bytes; ++i)
        if (!covered[i] && buf[i] != COLL_POISON) {
            char text[200];
            std::snprintf(text, sizeof text, "%s: byte %u of the result was written (0x%02x) though no block "
                          "belongs there (block %u's place)", who.c_str(), i, buf[i], i / m);
            problem(result, log, text);
            ok = false;
            break;
        }
    return ok;
}

bool MeshJobs::poll(std::vector<SimRam> &rams, uint32_t area_word, uint64_t ram_bytes,
                    uint32_t ram_base, const std::vector<uint64_t> &link_flits, FILE *log) {
    if (next_ >= jobs_.size()) return false;
    if (links_at_start_.empty()) links_at_start_ = link_flits;
    const uint32_t want = uint32_t(next_ + 1);
    // the first barrier: every node set up job next_; release them all in this cycle
    if (!released_) {
        for (const SimRam &ram : rams)
            if (ram.word(area_word + COLL_JOBS_READY_OFF / 4) != want) return false;
        for (SimRam &ram : rams) ram.set_word(area_word + COLL_JOBS_GO_OFF / 4, want);
        released_ = true;
        return true;
    }
    for (const SimRam &ram : rams)
        if (ram.word(area_word + COLL_JOBS_DONE_OFF / 4) != want) return false;
    released_ = false;

    const Job &job = jobs_[next_];
    JobResult result;
    result.index = int(next_);
    result.name = sched_coll_name(sched_collective(job.collective));
    result.algo = sched_algo_name(sched_algo(job.algo));
    result.msg_bytes = job.spec.msg_bytes;
    result.steps = job.steps;
    result.finished = true;
    bool ok = true;
    uint32_t first_start = 0;
    std::vector<uint32_t> starts, ends;
    for (size_t n = 0; n < rams.size(); ++n) {
        const size_t rec_word = area_word + (COLL_JOBS_HEADER_BYTES + COLL_JOBS_RECORD_BYTES * next_) / 4;
        starts.push_back(rams[n].word(rec_word + COLL_JOB_CYCLE_START / 4));
        ends.push_back(rams[n].word(rec_word + COLL_JOB_CYCLE_END / 4));
        result.setup_cycles = std::max<uint64_t>(result.setup_cycles, rams[n].word(rec_word + COLL_JOB_SETUP / 4));
        if (!check_node(job, int(n), rams[n], area_word, ram_bytes, ram_base, result, log)) ok = false;
    }
    // mcycle is one clock for the whole machine (every tile leaves reset together)
    first_start = starts[0];
    for (uint32_t s : starts)
        if (int32_t(s - first_start) < 0) first_start = s;
    uint64_t span = 0;
    for (uint32_t e : ends) span = std::max<uint64_t>(span, uint32_t(e - first_start));
    result.cycles = span;
    result.delivered = ok;
    result.predicted = predict(job, &result.busiest_worms, &result.busiest_flits);
    result.lower_bound = lower_bound(job);
    result.ram_bound = ram_bound(job);
    // A measurement below a bound means the bound or the measurement is wrong: a failure.
    if (check_bounds_ && (double(result.cycles) < result.lower_bound || result.cycles < result.ram_bound)) {
        char text[240];
        std::snprintf(text, sizeof text,
                      "%" PRIu64 " cycles measured, below the %s bound of %.1f cycles: the bound "
                      "or the measurement is wrong", result.cycles,
                      double(result.cycles) < result.lower_bound ? "all-port lower" : "RAM-port",
                      double(result.cycles) < result.lower_bound ? result.lower_bound : double(result.ram_bound));
        result.within_bounds = false;
        problem(result, log, text);
    }
    result.link_flits.resize(link_flits.size());
    for (size_t l = 0; l < link_flits.size(); ++l) {
        uint64_t f = link_flits[l] - links_at_start_[l];
        result.link_flits[l] = f;
        result.flits += f;
        if (f > result.max_link_flits) {
            result.max_link_flits = f;
            result.max_link = int(l);
        }
    }
    if (result.problems.size() > kMaxProblemLines && log)
        std::fprintf(log, "mesh-sim: job %d: ... %zu problems in all\n", result.index, result.problems.size());
    results_.push_back(result);
    links_at_start_ = link_flits;
    // the barrier: every node released in the same cycle
    for (SimRam &ram : rams) ram.set_word(area_word + COLL_JOBS_ACK_OFF / 4, want);
    ++next_;
    return true;
}

bool MeshJobs::all_ok() const {
    if (results_.size() != jobs_.size()) return false;
    for (const JobResult &r : results_)
        if (!r.delivered || !r.within_bounds) return false;
    return true;
}

// The cost model (mesh_jobs.h); a worm is the head, the info flit, the piece word and the
// payload.
double MeshJobs::predict(const Job &job, uint64_t *busiest_worms, uint64_t *busiest_flits) const {
    const uint32_t worm = 3u + job.spec.msg_bytes / job.parts / 4u;
    std::vector<uint32_t> most_worms(job.steps + 1u, 0), most_flits(job.steps + 1u, 0), worms(job.steps + 1u, 0);
    for (const NodeTable &t : job.tables) {
        std::fill(worms.begin(), worms.end(), 0u);
        for (const Send &s : t.sends)
            if (s.step <= job.steps) ++worms[s.step];
        for (const Recv &r : t.recvs)
            if (r.step <= job.steps) ++worms[r.step];
        for (uint32_t s = 1; s <= job.steps; ++s) {
            most_worms[s] = std::max(most_worms[s], worms[s]);
            most_flits[s] = std::max(most_flits[s], worms[s] * worm);
        }
    }
    double total = 0;
    uint64_t w = 0, f = 0;
    for (uint32_t s = 1; s <= job.steps; ++s) {
        total += model_.alpha + model_.gamma * most_worms[s] + model_.beta * most_flits[s];
        w += most_worms[s];
        f += most_flits[s];
    }
    *busiest_worms = w;
    *busiest_flits = f;
    return total;
}

// RAM-port bound in cycles for this hardware without any software cost: every payload word a
// node sends or receives crosses its RAM's one data port, which moves a line of
// line_words_ words per cycle for the NI's engines of all its ports together, so the job
// takes at least as many cycles as the node with the most payload words in and out needs
// lines for.
uint64_t MeshJobs::ram_bound(const Job &job) const {
    const uint64_t words = job.spec.msg_bytes / job.parts / 4u;
    uint64_t most = 0;
    for (const NodeTable &t : job.tables)
        most = std::max<uint64_t>(most, (t.sends.size() + t.recvs.size()) * words);
    return (most + line_words_ - 1u) / line_words_;
}

// All-port lower bound in cycles for ideal hardware (every link one payload flit per cycle,
// no software, no headers): P = payload flits of one block.
//   bcast       ceil(log_{2d+1} N) * P        (the informed set grows at most (2d+1)-fold per P,
//                                             when a node sends only what it holds whole: NIs
//                                             with 1-word lines, which relay store-and-forward);
//               with the block cut into parts (bcast-edst), or NIs that relay a piece as it
//               arrives (lines of 4 words or more: cut-through, rtl/tile/README.md):
//                           ecc(root) + ceil(P / deg) - 1
//                                             (the farthest node's first word, then P words in
//                                             over its deg links)
//   scatter     ceil((N-1) / deg(root)) * P   (the root's ports carry N-1 blocks); gather alike
//   allgather   (N-1) * P / deg_min           (a node's ports bring in N-1 blocks); partial: M sources
//   alltoall    max((N-1) * P / deg_min, sum of distances * P / directed links)
//   partial gather  max over destinations t of (N-1) * P / deg(t), and sum of distances to the
//               destinations * P / directed links
double MeshJobs::lower_bound(const Job &job) const {
    const sched_shape sh = sched_shape_of(shape_);
    const uint32_t nodes = uint32_t(shape_.nodes);
    const double p = double(job.spec.msg_bytes) / 4.0;
    uint32_t deg_min = 2u * sh.dims, links = 0;
    for (uint32_t n = 0; n < nodes; ++n) {
        deg_min = std::min(deg_min, sched_degree(&sh, n));
        links += sched_degree(&sh, n);
    }
    uint32_t sources = 0;
    for (bool s : job.source) sources += s ? 1u : 0u;
    if (job.collective == 1u && (job.parts > 1u || line_words_ >= 4u)) {
        uint32_t ecc = 0, deg = 2u * sh.dims;
        for (uint32_t n = 0; n < nodes; ++n) {
            ecc = std::max(ecc, sched_distance(&sh, job.root, n));
            if (n != job.root) deg = std::min(deg, sched_degree(&sh, n));
        }
        return double(ecc) + std::ceil(p / deg) - 1.0;
    }
    switch (job.collective) {
    case 1u:
        return double(sched_lb_allport_bcast(&sh)) * p;
    case 2u:
    case 3u:
        return double(sched_lb_scatter(&sh, job.root)) * p;
    case 16u:
        return double(nodes - 1u) * p / deg_min;
    case 18u:
        return double(sources) * p / deg_min;
    case 17u:
    case 19u: {
        double dist = 0;
        uint32_t senders = 0;
        for (uint32_t s = 0; s < nodes; ++s) {
            if (job.collective == 19u && !job.source[s]) continue;
            ++senders;
            for (uint32_t t = 0; t < nodes; ++t) dist += sched_distance(&sh, s, t);
        }
        double by_ports = double(job.collective == 19u ? senders : nodes - 1u) * p / deg_min;
        return std::max(by_ports, dist * p / double(links));
    }
    case 20u: {   // partial gather: a destination takes N-1 blocks over its own in-links
        double dist = 0, by_ports = 0;
        for (uint32_t t = 0; t < nodes; ++t) {
            if (!job.source[t]) continue;
            by_ports = std::max(by_ports, double(nodes - 1u) * p / double(sched_degree(&sh, t)));
            for (uint32_t s = 0; s < nodes; ++s) dist += sched_distance(&sh, s, t);
        }
        return std::max(by_ports, dist * p / double(links));
    }
    default:
        return 0;
    }
}

void MeshJobs::print_table(FILE *out) const {
    std::fprintf(out, "%-3s %-18s %-17s %7s %6s %9s %8s %9s %9s %6s %8s %9s  %s\n", "job", "collective",
                 "algorithm", "bytes", "steps", "cycles", "setup", "model", "lower-bnd", "eff", "ram-bnd", "flits",
                 "delivery");
    for (const JobResult &r : results_) {
        char eff[16];
        std::snprintf(eff, sizeof eff, "%.1f%%", r.cycles ? 100.0 * r.lower_bound / double(r.cycles) : 0.0);
        std::fprintf(out, "%-3d %-18s %-17s %7u %6u %9" PRIu64 " %8" PRIu64 " %9.0f %9.0f %6s %8" PRIu64 " %9" PRIu64
                     "  %s\n", r.index, r.name.c_str(), r.algo.c_str(), r.msg_bytes, r.steps, r.cycles, r.setup_cycles,
                     r.predicted, r.lower_bound, eff, r.ram_bound, r.flits,
                     !r.delivered ? "FAILED" : r.within_bounds ? "OK" : "BELOW-BOUND");
    }
    for (size_t j = results_.size(); j < jobs_.size(); ++j)
        std::fprintf(out, "%-3zu %-18s %-17s %7u %6u %9s %8s %9s %9s %6s %8s %9s  %s\n", j,
                     sched_coll_name(sched_collective(jobs_[j].collective)),
                     sched_algo_name(sched_algo(jobs_[j].algo)), jobs_[j].spec.msg_bytes, jobs_[j].steps, "-", "-", "-",
                     "-", "-", "-", "-", "NOT RUN");
}

bool MeshJobs::write_json(const std::string &path, const std::string &shape_name, std::string &error) const {
    FILE *f = sim_open_output(path, error);
    if (!f) return false;
    std::fprintf(f, "{\n  \"shape\": \"%s\",\n", shape_name.c_str());
    write_json_fields(f);
    std::fprintf(f, "\n}\n");
    return sim_close_output(f, path, error);
}

void MeshJobs::write_json_fields(FILE *f) const {
    std::fprintf(f, "  \"model\": {\"alpha\": %.3f, \"gamma\": %.3f, \"beta\": %.3f},\n  \"jobs\": [",
                 model_.alpha, model_.gamma, model_.beta);
    for (size_t j = 0; j < results_.size(); ++j) {
        const JobResult &r = results_[j];
        std::fprintf(f, "%s\n    {\"job\": %d, \"collective\": \"%s\", \"algorithm\": \"%s\", \"bytes\": %u, "
                     "\"steps\": %u, \"cycles\": %" PRIu64 ", \"setup_cycles\": %" PRIu64 ", \"model_cycles\": %.0f, \"model_busiest_worms\": %" PRIu64 ", \"model_busiest_flits\": %" PRIu64 ", \"lower_bound_cycles\": %.1f, \"ram_port_bound_cycles\": %" PRIu64 ", "
                     "\"efficiency\": %.4f, \"flits\": %" PRIu64 ", \"max_link_flits\": %" PRIu64
                     ", \"max_link\": \"%s\", \"delivered\": %s, \"within_bounds\": %s, \"problems\": %zu, \"link_flits\": [",
                     j ? "," : "", r.index, r.name.c_str(), r.algo.c_str(), r.msg_bytes, r.steps, r.cycles,
                     r.setup_cycles, r.predicted, r.busiest_worms, r.busiest_flits, r.lower_bound, r.ram_bound, r.cycles ? r.lower_bound / double(r.cycles) : 0.0, r.flits,
                     r.max_link_flits, link_name_(r.max_link / shape_.ports, r.max_link % shape_.ports).c_str(),
                     r.delivered ? "true" : "false", r.within_bounds ? "true" : "false", r.problems.size());
        for (size_t l = 0; l < r.link_flits.size(); ++l)
            std::fprintf(f, "%s%" PRIu64, l ? ", " : "", r.link_flits[l]);
        std::fprintf(f, "]}");
    }
    std::fprintf(f, "\n  ]");
}

// One panel per job: nodes on a grid (z planes side by side), each directed x/y link a
// short bar beside the line between its two nodes, darker for more flits (scaled to the
// busiest link of that job); torus wrap links as stubs leaving the edge.
bool MeshJobs::write_svg(const std::string &path, const std::string &shape_name, std::string &error) const {
    FILE *f = sim_open_output(path, error);
    if (!f) return false;
    const int sx = shape_.size[0], sy = shape_.size[1], sz = shape_.dims == 3 ? shape_.size[2] : 1;
    const double cell = 56, margin = 24, title = 34;
    const double plane_w = sx * cell, panel_w = sz * plane_w + (sz - 1) * 16 + 2 * margin;
    const double panel_h = sy * cell + 2 * margin + title;
    const int cols = 3;
    const int panels = int(results_.size());
    const int rows = (panels + cols - 1) / cols;
    const double width = cols * panel_w, height = std::max(1, rows) * panel_h + 40;
    std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                 "font-family=\"sans-serif\" font-size=\"11\">\n", width, height);
    std::fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    std::fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">mesh-sim: flits per link and collective, %s "
                 "(darker = more; each panel scaled to its busiest link)</text>\n", shape_name.c_str());
    for (int j = 0; j < panels; ++j) {
        const JobResult &r = results_[size_t(j)];
        double ox = (j % cols) * panel_w, oy = 40 + (j / cols) * panel_h;
        std::fprintf(f, "<g transform=\"translate(%.0f,%.0f)\">\n", ox, oy);
        std::fprintf(f, "<text x=\"%.0f\" y=\"14\">%d: %s (%s), %u B</text>\n", margin / 2, r.index,
                     r.name.c_str(), r.algo.c_str(), r.msg_bytes);
        std::fprintf(f, "<text x=\"%.0f\" y=\"28\">%" PRIu64 " cycles, busiest link %" PRIu64 " flits%s</text>\n",
                     margin / 2, r.cycles, r.max_link_flits, r.delivered ? "" : ", FAILED");
        double peak = double(std::max<uint64_t>(1, r.max_link_flits));
        for (int n = 0; n < shape_.nodes; ++n) {
            int x = n % sx, y = (n / sx) % sy, z = n / (sx * sy);
            double cx = margin + z * (plane_w + 16) + (x + 0.5) * cell;
            double cy = title + margin + (sy - 1 - y + 0.5) * cell;   // y grows upwards
            for (int k = 0; k < std::min(4, shape_.ports); ++k) {
                uint64_t fl = r.link_flits[size_t(n * shape_.ports + k)];
                int dim = k / 2, sign = (k & 1) ? -1 : 1;
                bool wrap = (dim == 0 && ((sign > 0 && x == sx - 1) || (sign < 0 && x == 0))) ||
                            (dim == 1 && ((sign > 0 && y == sy - 1) || (sign < 0 && y == 0)));
                if (wrap && !shape_.torus) continue;
                double len = wrap ? cell * 0.35 : cell * 0.8;
                double dx = dim == 0 ? sign : 0, dy = dim == 1 ? -sign : 0;
                double off = 3.0;   // the two directions side by side
                double px = dim == 0 ? 0 : (sign > 0 ? off : -off), py = dim == 1 ? 0 : (sign > 0 ? -off : off);
                double x0 = cx + dx * cell * 0.12 + px, y0 = cy + dy * cell * 0.12 + py;
                double x1 = x0 + dx * len, y1 = y0 + dy * len;
                int shade = fl ? int(230 - 200 * (double(fl) / peak)) : 235;
                std::fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"rgb(%d,%d,255)\" "
                             "stroke-width=\"%.1f\"%s><title>%s: %" PRIu64 " flits</title></line>\n",
                             x0, y0, x1, y1, fl ? shade : 225, fl ? shade : 225, fl ? 2.5 : 1.0,
                             wrap ? " stroke-dasharray=\"3,2\"" : "",
                             link_name_(n, k).c_str(), fl);
            }
            const uint32_t coll = jobs_[size_t(j)].collective;
            bool root = (coll == uint32_t(SCHED_COLL_BCAST) || coll == uint32_t(SCHED_COLL_SCATTER) ||
                         coll == uint32_t(SCHED_COLL_GATHER)) && uint32_t(n) == jobs_[size_t(j)].root;
            std::fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>node %s</title></circle>\n",
                         cx, cy, root ? "crimson" : "#444", node_name_(n).c_str());
        }
        std::fprintf(f, "</g>\n");
    }
    std::fprintf(f, "</svg>\n");
    return sim_close_output(f, path, error);
}
