// SPDX-License-Identifier: ISC
// mesh_view: mesh-sim's replay trace and the viewer page around it (see mesh_view.h).
#include "mesh_view.h"

#include <verilated.h>
#include <verilated_syms.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace {

// the viewer page (sim/viewer/viewer.html), made a C++ string by sim/mesh/mesh.mk
const char kViewerPage[] =
#include "mesh_view_html.inc"
    ;
const char kTraceMarker[] = "/*@RVMESH_TRACE@*/";
const size_t kConsoleTail = 2048;   // bytes of each node's console kept in the trace

// a JSON string; '<' escaped too, so that the text can stand inside a <script> element
std::string json_str(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c >= 0x7f) {
            char text[8];
            std::snprintf(text, sizeof text, "\\u%04x", c);
            out += text;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

template <class T>
void json_array(std::string &out, const char *name, const std::vector<T> &values) {
    out += "\"";
    out += name;
    out += "\":[";
    char text[32];
    for (size_t i = 0; i < values.size(); ++i) {
        std::snprintf(text, sizeof text, i ? ",%" PRId64 : "%" PRId64, int64_t(values[i]));
        out += text;
    }
    out += "]";
}

bool find_var(VerilatedContext &context, const std::string &scope, const char *name, MeshViewVar &ref) {
    const VerilatedScope *found = context.scopeFind(scope.c_str());
    VerilatedVar *var = found ? found->varFind(name) : nullptr;
    if (!var || var->udims() != 0) return false;
    ref.data = var->datap();
    ref.type = var->vltype();
    return ref.type == VLVT_UINT8 || ref.type == VLVT_UINT16 || ref.type == VLVT_UINT32 ||
           ref.type == VLVT_UINT64 || ref.type == VLVT_WDATA;
}

// bits [lsb, lsb + n) of a variable (n <= 32)
uint32_t get_bits(const MeshViewVar &v, int lsb, int n) {
    uint64_t word = 0;
    switch (v.type) {
    case VLVT_UINT8: word = *static_cast<const uint8_t *>(v.data) >> lsb; break;
    case VLVT_UINT16: word = *static_cast<const uint16_t *>(v.data) >> lsb; break;
    case VLVT_UINT32: word = *static_cast<const uint32_t *>(v.data) >> lsb; break;
    case VLVT_UINT64: word = *static_cast<const uint64_t *>(v.data) >> lsb; break;
    default: {
        const uint32_t *w = static_cast<const uint32_t *>(v.data);
        int i = lsb / 32, s = lsb % 32;
        uint64_t lo = w[i], hi = s + n > 32 ? w[i + 1] : 0;
        word = ((hi << 32) | lo) >> s;
    }
    }
    return n >= 32 ? uint32_t(word) : uint32_t(word & ((1u << n) - 1u));
}

}  // namespace

MeshView::MeshView(const MeshShape &shape, std::function<std::string(int)> node_name, uint64_t max_hops)
    : shape_(shape), node_name_(node_name), max_hops_(max_hops) {
    links_ = shape_.nodes * shape_.ports;
    far_.assign(size_t(links_), -1);
    for (int n = 0; n < shape_.nodes; ++n)
        for (int k = 0; k < shape_.ports; ++k) far_[size_t(n * shape_.ports + k)] = neighbour(n, k);
    cur_flits_.assign(size_t(links_), 0);
    link_total_.assign(size_t(links_), 0);
    cur_retired_.assign(size_t(shape_.nodes), 0);
    cur_wait_.assign(size_t(shape_.nodes), 0);
}

MeshView::~MeshView() = default;

int MeshView::neighbour(int n, int port) const {
    int c[3] = {n % shape_.size[0], (n / shape_.size[0]) % shape_.size[1], n / (shape_.size[0] * shape_.size[1])};
    int d = port / 2, step = (port % 2) ? -1 : 1;
    if (d >= shape_.dims || shape_.size[d] < 2) return -1;
    int v = c[d] + step;
    if (v < 0 || v >= shape_.size[d]) {
        if (!shape_.torus) return -1;
        v = (v + shape_.size[d]) % shape_.size[d];
    }
    c[d] = v;
    return c[0] + shape_.size[0] * (c[1] + shape_.size[1] * c[2]);
}

bool MeshView::attach(VerilatedContext &context, std::string &note) {
    vars_.clear();
    for (int n = 0; n < shape_.nodes; ++n) {
        const std::string tile = "TOP.mesh_top.node[" + std::to_string(n) + "].tile";
        MeshViewVars v;
        if (!find_var(context, tile, "lin_valid", v.lin_valid) || !find_var(context, tile, "lin_vc", v.lin_vc) ||
            !find_var(context, tile, "lin_last", v.lin_last) || !find_var(context, tile, "lin_data", v.lin_data) ||
            !find_var(context, tile + ".ni", "plan_done", v.plan_done) ||
            !find_var(context, tile + ".ni", "req_valid", v.req_valid) ||
            !find_var(context, tile + ".ni", "req_ready", v.req_ready)) {
            vars_.clear();
            note = "this model does not show its tiles' links (sim/mesh/mesh_share.vlt): the view has the flits "
                   "per link, not the worms nor the nodes' waiting";
            attached_ = false;
            return false;
        }
        vars_.push_back(v);
    }
    vc_bits_ = 1;
    while ((1 << vc_bits_) < vcs_) ++vc_bits_;
    lanes_.assign(size_t(links_) * size_t(vcs_), Lane());
    attached_ = true;
    return true;
}

void MeshView::sample(uint64_t cycle, const uint8_t *link_valid, const uint8_t *retired) {
    while (cycle >= window_start_ + window_) close_window();
    last_cycle_ = cycle;
    const int ports = shape_.ports;
    for (int l = 0; l < links_; ++l) {
        if (!link_valid[l]) continue;
        ++cur_flits_[size_t(l)];
        ++link_total_[size_t(l)];
        int m = far_[size_t(l)];
        if (!attached_ || m < 0 || hops_truncated_) continue;
        const MeshViewVars &v = vars_[size_t(m)];
        int in = (l % ports) ^ 1;   // output link k of a node is input link k^1 of its neighbour
        if (!get_bits(v.lin_valid, in, 1)) continue;
        int vc = int(get_bits(v.lin_vc, in * vc_bits_, vc_bits_));
        if (vc >= vcs_) vc = vcs_ - 1;
        flit(cycle, l, vc, get_bits(v.lin_last, in, 1) != 0, get_bits(v.lin_data, in * 32, 32));
    }
    for (int n = 0; n < shape_.nodes; ++n) {
        if (retired[n]) ++cur_retired_[size_t(n)];
        if (attached_) {
            const MeshViewVars &v = vars_[size_t(n)];
            bool plan = !get_bits(v.plan_done, 0, 1);
            bool held = get_bits(v.req_valid, 0, 1) && !get_bits(v.req_ready, 0, 1);
            if (plan || held) ++cur_wait_[size_t(n)];
        }
    }
}

void MeshView::flit(uint64_t cycle, int link, int vc, bool last, uint32_t data) {
    Lane &lane = lanes_[size_t(link) * size_t(vcs_) + size_t(vc)];
    if (lane.hop < 0 && !lane.want_info) {           // a head
        if (last) {
            open_hop(cycle, cycle, link, vc, data, 0, false, true);
        } else {
            lane.want_info = true;
            lane.head = data;
            lane.since = uint32_t(cycle);
        }
    } else if (lane.want_info) {                      // the info flit: source and length
        lane.want_info = false;
        lane.hop = open_hop(lane.since, cycle, link, vc, lane.head, data, true, last);
    } else if (last) {                                // the last flit of the worm
        close_hop(lane.hop, cycle);
        lane.hop = -1;
    }
}

int32_t MeshView::open_hop(uint64_t head_cycle, uint64_t cycle, int link, int vc, uint32_t head, uint32_t info,
                           bool has_info, bool last) {
    if (hops_.size() >= max_hops_) {
        hops_truncated_ = true;
        hops_stop_cycle_ = cycle;
        for (Lane &l : lanes_) {
            if (l.hop >= 0) close_hop(l.hop, cycle);
            l = Lane();
        }
        return -1;
    }
    const int n = link / shape_.ports, m = far_[size_t(link)];
    // the destination: where the head's remaining counts lead from the node this hop reaches
    // (every router rewrites the head as it leaves: rtl/noc/noc_router.v)
    int c[3] = {m % shape_.size[0], (m / shape_.size[0]) % shape_.size[1], m / (shape_.size[0] * shape_.size[1])};
    bool ok = true;
    for (int d = 0; d < 3; ++d) {
        int count = int(int8_t(uint8_t(head >> (8 * d))));
        int v = c[d] + count;
        if (shape_.torus) v = ((v % shape_.size[d]) + shape_.size[d]) % shape_.size[d];
        if (v < 0 || v >= shape_.size[d]) ok = false;
        c[d] = v;
    }
    int32_t dst = ok ? c[0] + shape_.size[0] * (c[1] + shape_.size[1] * c[2]) : -1;
    int32_t src = has_info ? int32_t(info & 0xffffu) : -1;
    if (src >= shape_.nodes) src = -1;
    uint32_t len = has_info ? info >> 16 : 1;
    uint32_t tag = head >> 26;
    uint64_t key = (uint64_t(uint16_t(src)) << 48) | (uint64_t(uint16_t(dst)) << 32) | (uint64_t(tag) << 26) |
                   (len & 0x3ffffffu);
    std::vector<uint32_t> &open = open_[key];
    int32_t w = -1;
    for (uint32_t id : open)
        if (worms_[id].at == n) {
            w = int32_t(id);
            break;
        }
    if (w < 0) {
        Worm worm;
        worm.src = src;
        worm.dst = dst;
        worm.len = len;
        worm.tag = tag;
        worm.first = uint32_t(head_cycle);
        worm.last = uint32_t(cycle);
        worm.at = n;
        worm.hops = 0;
        worm.done = false;
        w = int32_t(worms_.size());
        worms_.push_back(worm);
        open.push_back(uint32_t(w));
    }
    Worm &worm = worms_[size_t(w)];
    worm.at = m;
    ++worm.hops;
    Hop hop;
    hop.worm = uint32_t(w);
    hop.link = uint32_t(link);
    hop.head = uint32_t(head_cycle);
    hop.tail = uint32_t(cycle);
    hop.vc = uint8_t(vc);
    hops_.push_back(hop);
    int32_t index = int32_t(hops_.size() - 1);
    if (last) {
        close_hop(index, cycle);
        return -1;
    }
    return index;
}

void MeshView::close_hop(int32_t index, uint64_t cycle) {
    if (index < 0) return;
    Hop &hop = hops_[size_t(index)];
    hop.tail = uint32_t(cycle);
    Worm &worm = worms_[size_t(hop.worm)];
    worm.last = uint32_t(cycle);
    if (!worm.done && far_[size_t(hop.link)] == worm.dst) {   // ejected at its destination
        worm.done = true;
        uint64_t key = (uint64_t(uint16_t(worm.src)) << 48) | (uint64_t(uint16_t(worm.dst)) << 32) |
                       (uint64_t(worm.tag) << 26) | (worm.len & 0x3ffffffu);
        auto it = open_.find(key);
        if (it != open_.end()) {
            std::vector<uint32_t> &open = it->second;
            open.erase(std::remove(open.begin(), open.end(), hop.worm), open.end());
            if (open.empty()) open_.erase(it);
        }
    }
}

void MeshView::close_window() {
    for (int l = 0; l < links_; ++l)
        if (cur_flits_[size_t(l)]) {
            link_entries_.push_back(LinkEntry{uint32_t(retired_.size()), uint32_t(l), cur_flits_[size_t(l)]});
            cur_flits_[size_t(l)] = 0;
        }
    retired_.push_back(cur_retired_);
    wait_.push_back(cur_wait_);
    std::fill(cur_retired_.begin(), cur_retired_.end(), 0u);
    std::fill(cur_wait_.begin(), cur_wait_.end(), 0u);
    window_start_ += window_;
    if (retired_.size() >= kMaxWindows) double_window();
}

// Every two windows become one of twice the cycles (the run outgrew kMaxWindows).
void MeshView::double_window() {
    const size_t half = retired_.size() / 2;
    for (size_t i = 0; i < half; ++i) {
        std::vector<uint32_t> r = retired_[2 * i], w = wait_[2 * i];
        for (size_t n = 0; n < r.size(); ++n) {
            r[n] += retired_[2 * i + 1][n];
            w[n] += wait_[2 * i + 1][n];
        }
        retired_[i].swap(r);
        wait_[i].swap(w);
    }
    if (retired_.size() % 2) {   // an odd last window stays, alone in its pair
        retired_[half] = retired_.back();
        wait_[half] = wait_.back();
        retired_.resize(half + 1);
        wait_.resize(half + 1);
    } else {
        retired_.resize(half);
        wait_.resize(half);
    }
    std::vector<LinkEntry> merged;
    std::vector<uint32_t> sum(size_t(links_), 0);
    std::vector<uint32_t> touched;
    size_t e = 0;
    while (e < link_entries_.size()) {
        uint32_t target = link_entries_[e].window / 2;
        touched.clear();
        for (; e < link_entries_.size() && link_entries_[e].window / 2 == target; ++e) {
            const LinkEntry &entry = link_entries_[e];
            if (!sum[entry.link]) touched.push_back(entry.link);
            sum[entry.link] += entry.flits;
        }
        std::sort(touched.begin(), touched.end());
        for (uint32_t l : touched) {
            merged.push_back(LinkEntry{target, l, sum[l]});
            sum[l] = 0;
        }
    }
    link_entries_.swap(merged);
    window_ *= 2;
}

void MeshView::job_event(uint64_t cycle, size_t job, bool released) {
    job_marks_.push_back(JobMark{cycle, job, released});
}

void MeshView::finish(const RunResult &run, const MeshJobs *jobs) {
    if (finished_) return;
    finished_ = true;
    // the window still open (cut short by the end of the run)
    bool any = false;
    for (uint32_t f : cur_flits_) any = any || f;
    for (uint32_t r : cur_retired_) any = any || r;
    if (any || retired_.empty()) {
        for (int l = 0; l < links_; ++l)
            if (cur_flits_[size_t(l)])
                link_entries_.push_back(LinkEntry{uint32_t(retired_.size()), uint32_t(l), cur_flits_[size_t(l)]});
        retired_.push_back(cur_retired_);
        wait_.push_back(cur_wait_);
    }
    for (Lane &lane : lanes_)
        if (lane.hop >= 0) {
            close_hop(lane.hop, last_cycle_);
            lane.hop = -1;
        }
    run_ = run;
    if (jobs) jobs_ = jobs->results();
}

std::string MeshView::json() const {
    std::string out;
    out.reserve(1 << 20);
    char text[400];
    out += "{\"format\":\"rvmesh-view/1\",";
    out += "\"program\":" + json_str(run_.elf) + ",";
    std::snprintf(text, sizeof text,
                  "\"shape\":{\"name\":%s,\"id\":%s,\"dims\":%d,\"size\":[%d,%d,%d],\"torus\":%s},"
                  "\"ports\":%d,\"vcs\":%d,\"cycles\":%" PRIu64 ",\"status\":%d,\"instret\":%" PRIu64
                  ",\"flits\":%" PRIu64 ",\"window\":%u,\"windows\":%zu,\"detail\":%s,",
                  json_str(run_.shape).c_str(), json_str(run_.shape_id).c_str(), shape_.dims, shape_.size[0],
                  shape_.size[1], shape_.size[2], shape_.torus ? "true" : "false", shape_.ports, vcs_, run_.cycles,
                  run_.status, run_.instret, run_.flits, window_, retired_.size(), attached_ ? "true" : "false");
    out += text;
    out += "\"reason\":" + json_str(run_.reason) + ",";
    if (hops_truncated_)
        std::snprintf(text, sizeof text, "\"hops_truncated_at\":%" PRIu64 ",", hops_stop_cycle_);
    else
        std::snprintf(text, sizeof text, "\"hops_truncated_at\":null,");
    out += text;
    // links: where each leads, flits in all, and the windows with flits (window, link, flits)
    out += "\"links\":{";
    json_array(out, "far", far_);
    out += ",";
    json_array(out, "total", link_total_);
    out += "},";
    std::vector<uint32_t> flat;
    flat.reserve(link_entries_.size() * 3);
    for (const LinkEntry &e : link_entries_) {
        flat.push_back(e.window);
        flat.push_back(e.link);
        flat.push_back(e.flits);
    }
    json_array(out, "link_windows", flat);
    out += ",";
    flat.clear();
    for (const std::vector<uint32_t> &row : retired_) flat.insert(flat.end(), row.begin(), row.end());
    json_array(out, "retired", flat);
    out += ",";
    flat.clear();
    for (const std::vector<uint32_t> &row : wait_) flat.insert(flat.end(), row.begin(), row.end());
    json_array(out, "wait", flat);
    out += ",";
    // worms and their hops
    {
        std::vector<int64_t> src, dst, len, tag, first, last;
        for (const Worm &w : worms_) {
            src.push_back(w.src);
            dst.push_back(w.dst);
            len.push_back(w.len);
            tag.push_back(w.tag);
            first.push_back(w.first);
            last.push_back(w.last);
        }
        out += "\"worms\":{";
        json_array(out, "src", src);
        out += ",";
        json_array(out, "dst", dst);
        out += ",";
        json_array(out, "len", len);
        out += ",";
        json_array(out, "tag", tag);
        out += ",";
        json_array(out, "first", first);
        out += ",";
        json_array(out, "last", last);
        out += "},";
        std::vector<const Hop *> order;
        for (const Hop &h : hops_) order.push_back(&h);
        std::stable_sort(order.begin(), order.end(), [](const Hop *a, const Hop *b) { return a->head < b->head; });
        std::vector<int64_t> worm, link, vc, head, tail;
        for (const Hop *h : order) {
            worm.push_back(h->worm);
            link.push_back(h->link);
            vc.push_back(h->vc);
            head.push_back(h->head);
            tail.push_back(h->tail);
        }
        out += "\"hops\":{";
        json_array(out, "worm", worm);
        out += ",";
        json_array(out, "link", link);
        out += ",";
        json_array(out, "vc", vc);
        out += ",";
        json_array(out, "head", head);
        out += ",";
        json_array(out, "tail", tail);
        out += "},";
    }
    // jobs: what each was, when it was released and when every node had ended it
    out += "\"jobs\":[";
    for (size_t j = 0; j < jobs_.size(); ++j) {
        const JobResult &r = jobs_[j];
        int64_t released = -1, done = -1;
        for (const JobMark &m : job_marks_)
            if (m.job == j) (m.released ? released : done) = int64_t(m.cycle);
        std::snprintf(text, sizeof text,
                      "%s{\"index\":%d,\"name\":%s,\"algo\":%s,\"bytes\":%u,\"steps\":%u,\"cycles\":%" PRIu64
                      ",\"model\":%.0f,\"lower_bound\":%.1f,\"delivered\":%s,\"released\":%" PRId64
                      ",\"done\":%" PRId64 "}",
                      j ? "," : "", r.index, json_str(r.name).c_str(), json_str(r.algo).c_str(), r.msg_bytes, r.steps,
                      r.cycles, r.predicted, r.lower_bound, r.delivered ? "true" : "false", released, done);
        out += text;
    }
    out += "],";
    // nodes: how each ended
    out += "\"nodes\":[";
    for (size_t n = 0; n < run_.nodes.size(); ++n) {
        const NodeResult &r = run_.nodes[n];
        std::string console = r.console.size() > kConsoleTail ? r.console.substr(r.console.size() - kConsoleTail)
                                                              : r.console;
        std::snprintf(text, sizeof text,
                      "%s{\"name\":%s,\"exited\":%s,\"exit\":%" PRIu64 ",\"cycle\":%" PRIu64 ",\"instret\":%" PRIu64
                      ",\"console\":",
                      n ? "," : "", json_str(r.name).c_str(), r.exited ? "true" : "false", r.exit_code, r.exit_cycle,
                      r.instret);
        out += text;
        out += json_str(console) + "}";
    }
    out += "]}";
    return out;
}

namespace {
bool write_file(const std::string &path, const std::string &a, const std::string &b, const std::string &c,
                const char *what, std::string &error) {
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        error = std::string(what) + ": cannot write '" + path + "': " + std::strerror(errno);
        return false;
    }
    bool ok = std::fwrite(a.data(), 1, a.size(), f) == a.size() && std::fwrite(b.data(), 1, b.size(), f) == b.size() &&
              std::fwrite(c.data(), 1, c.size(), f) == c.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok) error = std::string(what) + ": writing '" + path + "' failed (disk full?)";
    return ok;
}
}  // namespace

bool MeshView::write_json(const std::string &path, std::string &error) const {
    return write_file(path, json(), "\n", "", "--view-trace", error);
}

bool MeshView::write_html(const std::string &path, std::string &error) const {
    const std::string page = kViewerPage;
    size_t at = page.find(kTraceMarker);
    if (at == std::string::npos) {
        error = "--view: the viewer page compiled into mesh-sim has no trace marker (sim/viewer/viewer.html)";
        return false;
    }
    return write_file(path, page.substr(0, at), json(), page.substr(at + std::strlen(kTraceMarker)), "--view", error);
}
