// SPDX-License-Identifier: ISC
// Fuzz harness: mesh-sim's --job TABLES:BYTES[:SEED] (sim/mesh/mesh_jobs.cpp): the spec
// parser, then the loading of the tables file it names for the 4x4 torus (every node's
// table found and checked, every node's jobs area built). The input is the spec text, a
// newline, then the tables file's bytes; a spec that does not parse is replaced by
// "fuzz.tbl:64" so that the tables file is fuzzed too.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mesh_jobs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return 0;
    const uint8_t *nl = static_cast<const uint8_t *>(std::memchr(data, '\n', size));
    const size_t text_len = nl ? size_t(nl - data) : size;
    const std::string text(reinterpret_cast<const char *>(data), text_len);
    std::vector<std::vector<uint8_t>> files(1);
    if (nl) files[0].assign(nl + 1, data + size);

    JobSpec spec;
    std::string error;
    if (!parse_job_spec(text, spec, error)) {
        spec = JobSpec();
        spec.path = "fuzz.tbl";
        spec.msg_bytes = 64;
    }
    MeshShape shape;
    shape.dims = 2;
    shape.size[0] = shape.size[1] = 4;
    shape.torus = true;
    shape.nodes = 16;
    shape.ports = 4;
    MeshJobs jobs(shape, [](int n) { return "[" + std::to_string(n % 4) + "," + std::to_string(n / 4) + "]"; },
                  [](int n, int p) { return std::to_string(n) + "." + std::to_string(p); });
    jobs.set_ram_bytes(RVMESH_RAM_BYTES);
    // the area of the jobs programs (COLL_JOBS_DEFINE): 16 KiB
    if (jobs.load_bytes({spec}, files, 16384, error)) {
        volatile uint32_t sum = 0;
        for (int n = 0; n < shape.nodes; ++n)
            for (uint32_t w : jobs.area(n)) sum += w;
        (void)sum;
    }
    return 0;
}
