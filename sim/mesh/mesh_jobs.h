/* SPDX-License-Identifier: ISC */
// mesh_jobs: mesh-sim's collectives test bench (`--job TABLES:BYTES[:SEED]`).
//
// Before reset it writes every node's jobs area (firmware/coll/coll_jobs.h: header, job
// records, the node's own table of each job's tables file). While the machine runs it
// watches every node's `done` word; when all nodes have ended job j it compares every
// node's result buffer, byte for byte, with what the collective must leave there (blocks of
// coll_pattern at coll_result_offset, COLL_POISON elsewhere), names the node, the sender and
// the step of anything missing or corrupted, records cycles and flits per link, and releases
// every node in the same cycle (ack = j + 1: a barrier between collectives).
#ifndef RVMESH_MESH_JOBS_H
#define RVMESH_MESH_JOBS_H

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sim_common.h"

struct MeshShape {
    int dims = 2;
    int size[3] = {1, 1, 1};
    bool torus = false;
    int nodes = 1;
    int ports = 4;
};

struct JobSpec {
    std::string path;        // tables file written by `schedgen --tables`
    uint32_t msg_bytes = 0;  // m: bytes of one block
    uint32_t seed = 1;
};

// Parses FILE:BYTES[:SEED]; false with a message in `error`.
bool parse_job_spec(const std::string &text, JobSpec &spec, std::string &error);

// The cost model of a collective on this machine: a step costs alpha cycles, plus gamma
// cycles for every worm the node with the most worms in that step sends or receives (its
// core handles each worm's head, info and piece word and finds where it goes), plus beta
// cycles for every flit the node with the most flits moves (its DMA engines move the
// payloads through the one RAM port).
struct CostModel {
    double alpha = 0, gamma = 0, beta = 0;
};

struct JobResult {
    int index = 0;
    std::string name;             // collective
    std::string algo;
    uint32_t msg_bytes = 0;
    uint32_t steps = 0;           // of the schedule
    bool finished = false;        // every node reached `done`
    bool delivered = false;       // every node's buffers checked out
    bool within_bounds = true;    // cycles >= lower_bound and >= ram_bound (physics holds)
    int firmware_errors = 0;      // nodes whose record has a negative status
    uint64_t cycles = 0;          // max(cycle_end) - min(cycle_start) over nodes
    uint64_t setup_cycles = 0;    // the most cycles a node spent compiling its plan
    double predicted = 0;         // the cost model's cycles
    uint64_t busiest_worms = 0;   // the model's inputs: sums over steps of the worms / flits
    uint64_t busiest_flits = 0;   // of the node with the most of them
    double lower_bound = 0;       // all-port lower bound in cycles (see mesh_jobs.cpp)
    uint64_t ram_bound = 0;       // RAM-port bound: the most payload words one node moves, in lines
    uint64_t flits = 0;           // flits over all links during the job
    uint64_t max_link_flits = 0;
    int max_link = 0;
    std::vector<uint64_t> link_flits;   // per link (node * ports + port) during the job
    std::vector<std::string> problems;  // the first few, for the summary
};

class MeshJobs {
public:
    MeshJobs(const MeshShape &shape, std::function<std::string(int)> node_name,
             std::function<std::string(int, int)> link_name)
        : shape_(shape), node_name_(node_name), link_name_(link_name) {}

    // Reads the tables files and builds each node's area; area_bytes is the size of the
    // ELF's `rvmesh_jobs`. False with a message saying what to do.
    bool load(const std::vector<JobSpec> &specs, uint32_t area_bytes, std::string &error);
    // The same with the files' contents given (files[j] for specs[j]; specs[j].path only names
    // it in the messages): the fuzz harness (tests/fuzz) calls this one.
    bool load_bytes(const std::vector<JobSpec> &specs, const std::vector<std::vector<uint8_t>> &files,
                    uint32_t area_bytes, std::string &error);
    // The area image of node n (words, area_bytes / 4 of them).
    const std::vector<uint32_t> &area(int n) const { return areas_[size_t(n)]; }

    // Once per cycle: rams[n] = node n's RAM, area_word = (rvmesh_jobs - RAM base) / 4.
    // Returns true when a job boundary was handled this cycle.
    bool poll(std::vector<SimRam> &rams, uint32_t area_word,
              uint64_t ram_bytes, uint32_t ram_base, const std::vector<uint64_t> &link_flits,
              FILE *log);

    bool all_done() const { return next_ == jobs_.size(); }
    size_t count() const { return jobs_.size(); }
    size_t finished() const { return next_; }
    // every job ended, was delivered and took no fewer cycles than its bounds
    bool all_ok() const;
    const std::vector<JobResult> &results() const { return results_; }
    void set_model(const CostModel &model) { model_ = model; }
    // whether a job faster than its all-port or RAM-port bound fails (default: it does)
    void set_check_bounds(bool on) { check_bounds_ = on; }
    // words the RAM's data port moves per access (the tile's LINE_WORDS): the RAM-port bound
    void set_line_words(unsigned words) { line_words_ = words ? words : 1u; }
    // bytes of a node's RAM: load() refuses a job whose result cannot fit in it (0: no check)
    void set_ram_bytes(uint64_t bytes) { ram_bytes_ = bytes; }
    const CostModel &model() const { return model_; }

    void print_table(FILE *out) const;
    bool write_json(const std::string &path, const std::string &shape_name, std::string &error) const;
    // the JSON fields "model" and "jobs" (no braces around them, no newline after)
    void write_json_fields(FILE *f) const;
    bool write_svg(const std::string &path, const std::string &shape_name, std::string &error) const;

private:
    bool load_files(const std::vector<JobSpec> &specs,
                    const std::function<bool(size_t, std::vector<uint8_t> &, std::string &)> &read,
                    uint32_t area_bytes, std::string &error);
    struct Recv { uint32_t src, piece; uint16_t step; uint8_t flags; };
    struct Send { uint32_t dst, piece; uint16_t step; uint8_t flags; };
    struct NodeTable {
        std::vector<uint8_t> bytes;
        std::vector<Send> sends;
        std::vector<Recv> recvs;
    };
    struct Job {
        JobSpec spec;
        uint32_t collective = 0, algo = 0, model = 0, root = 0, steps = 0, parts = 1;
        std::vector<NodeTable> tables;   // per node
        std::vector<bool> source;        // partial collectives: the source set
    };

    bool check_node(const Job &job, int n, const SimRam &ram, uint32_t area_word,
                    uint64_t ram_bytes, uint32_t ram_base, JobResult &result, FILE *log);
    void problem(JobResult &result, FILE *log, const std::string &text);
    std::string sender_of(const Job &job, int n, uint32_t block) const;
    double predict(const Job &job, uint64_t *busiest_worms, uint64_t *busiest_flits) const;
    double lower_bound(const Job &job) const;
    uint64_t ram_bound(const Job &job) const;

    MeshShape shape_;
    std::function<std::string(int)> node_name_;
    std::function<std::string(int, int)> link_name_;
    CostModel model_;
    std::vector<Job> jobs_;
    std::vector<std::vector<uint32_t>> areas_;
    std::vector<JobResult> results_;
    std::vector<uint64_t> links_at_start_;
    size_t next_ = 0;
    bool check_bounds_ = true;
    bool released_ = false;       // the nodes have been let go into job next_
    unsigned line_words_ = 1;
    uint64_t ram_bytes_ = 0;
};

#endif
