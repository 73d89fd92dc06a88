// SPDX-License-Identifier: ISC
// Checks a trace written by `mesh-sim --view-trace` against what mesh-sim itself counted.
// Prints PASS/FAIL lines (tests/lib.sh's convention); exits 1 when any failed.
//
//   node trace_check.mjs TRACE.json LINKS.out NAME MESSAGES STEPS
//
// LINKS.out: mesh-sim's stdout with --links (flits per link); MESSAGES: the worms the job's
// schedule sends (schedgen --check: "messages N"), STEPS: its steps.
import fs from 'node:fs';

const [trace_path, links_path, name, messages, steps] = process.argv.slice(2);
let failed = 0;
const pass = (check, why) => console.log('PASS ' + name + '-' + check + (why ? ' (' + why + ')' : ''));
const fail = (check, why) => { failed++; console.log('FAIL ' + name + '-' + check + ': ' + why); };

const t = JSON.parse(fs.readFileSync(trace_path, 'utf8'));
const N = t.shape.size[0] * t.shape.size[1] * t.shape.size[2], P = t.ports, L = N * P;
const DIR = ['+x', '-x', '+y', '-y', '+z', '-z'];
const name_of = (n) => {
  const X = t.shape.size[0], Y = t.shape.size[1];
  const c = [n % X, Math.floor(n / X) % Y, Math.floor(n / (X * Y))];
  return '[' + c.slice(0, t.shape.dims).join(',') + ']';
};

// 1. flits per link: the trace's totals, its windows, and mesh-sim's --links agree
const listed = new Map();
for (const m of fs.readFileSync(links_path, 'utf8').matchAll(/(\[[0-9,]+\][+-][xyz])=(\d+)/g)) listed.set(m[1], +m[2]);
const sums = new Array(L).fill(0);
for (let e = 0; e < t.link_windows.length; e += 3) sums[t.link_windows[e + 1]] += t.link_windows[e + 2];
let bad = [];
for (let l = 0; l < L; l++) {
  const key = name_of(Math.floor(l / P)) + DIR[l % P];
  if (listed.get(key) !== t.links.total[l] || sums[l] !== t.links.total[l])
    bad.push(key + ': --links ' + listed.get(key) + ', trace ' + t.links.total[l] + ', windows ' + sums[l]);
}
if (listed.size === L && !bad.length) pass('link-flits', L + ' links, ' + t.flits + ' flits, as --links counts them');
else fail('link-flits', listed.size + ' links listed; ' + bad.slice(0, 3).join('; '));

// 2. every flit on every link belongs to a recorded worm (its length counted on each hop)
const by_worms = new Array(L).fill(0);
for (let i = 0; i < t.hops.worm.length; i++) by_worms[t.hops.link[i]] += t.worms.len[t.hops.worm[i]];
bad = [];
for (let l = 0; l < L; l++) if (by_worms[l] !== t.links.total[l]) bad.push(l + ': worms ' + by_worms[l] + ', flits ' + t.links.total[l]);
if (!bad.length) pass('worm-flits', t.worms.src.length + ' worms over ' + t.hops.worm.length + ' hops carry every flit');
else fail('worm-flits', bad.length + ' links differ: ' + bad.slice(0, 3).join('; '));

// 3. each worm's hops form its path: from its source, hop after hop, to its destination
const hops_of = t.worms.src.map(() => []);
for (let i = 0; i < t.hops.worm.length; i++) hops_of[t.hops.worm[i]].push(i);
bad = [];
for (let w = 0; w < hops_of.length; w++) {
  const hs = hops_of[w].sort((a, b) => t.hops.head[a] - t.hops.head[b]);
  let at = t.worms.src[w];
  for (const i of hs) {
    const l = t.hops.link[i];
    if (Math.floor(l / P) !== at || t.hops.tail[i] < t.hops.head[i]) { bad.push('worm ' + w + ' hop ' + i); break; }
    at = t.links.far[l];
  }
  if (at !== t.worms.dst[w]) bad.push('worm ' + w + ' from ' + t.worms.src[w] + ' ends at ' + at + ', not ' + t.worms.dst[w]);
}
if (!bad.length) pass('worm-paths', 'every worm goes hop by hop from its source to its destination');
else fail('worm-paths', bad.length + ' worms: ' + bad.slice(0, 3).join('; '));

// 4. the schedule's worms: one per message, tagged with steps 1..STEPS, within the job
const job = t.jobs[0];
const tagged = [];
for (let w = 0; w < t.worms.tag.length; w++) if (t.worms.tag[w] >= 1 && t.worms.tag[w] <= +steps) tagged.push(w);
const inside = job ? tagged.filter((w) => t.worms.first[w] >= job.released && t.worms.last[w] <= job.done).length : 0;
if (job && tagged.length === +messages && inside === tagged.length)
  pass('step-worms', messages + ' worms tagged with steps 1..' + steps + ', all within job 0 (cycles ' + job.released + '..' + job.done + ')');
else fail('step-worms', tagged.length + ' worms with step tags (' + inside + ' within the job), the schedule sends ' + messages);

// 5. the nodes: instructions per window add up to each node's total
bad = [];
for (let n = 0; n < N; n++) {
  let s = 0;
  for (let w = 0; w < t.windows; w++) s += t.retired[w * N + n];
  if (s !== t.nodes[n].instret) bad.push(name_of(n) + ': ' + s + ' vs ' + t.nodes[n].instret);
}
if (!bad.length && t.retired.length === N * t.windows) pass('node-instret', 'per window, summing to every node\'s instructions');
else fail('node-instret', bad.slice(0, 3).join('; ') + ' (' + t.retired.length + ' values for ' + N + ' x ' + t.windows + ')');
const waited = t.wait.reduce((a, b) => a + b, 0);
if (t.detail && waited > 0) pass('node-wait', waited + ' node-cycles waiting on the network');
else fail('node-wait', 'detail ' + t.detail + ', ' + waited + ' node-cycles waiting');

process.exit(failed ? 1 : 0);
