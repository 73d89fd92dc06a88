// SPDX-License-Identifier: ISC
// Opens a page written by `mesh-sim --view` in headless Chromium (Debian's, driven by
// playwright-core from tools/browser) and checks it as a user would see it. Prints a PASS or
// FAIL line per check (tests/lib.sh's convention); exits 1 when any failed.
//
//   node viewer_check.mjs PAGE.html NAME NODES LINKS SCREENSHOT.png [--steps]
//
// NODES and LINKS: how many nodes and directed links the machine has; --steps: the run has
// a collective whose step counter must advance while the page plays.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
let chromium;
try {
  ({ chromium } = require(path.join(root, 'tools/browser/node_modules/playwright-core')));
} catch (e) {
  console.log('FAIL viewer-driver: playwright-core is not installed in tools/browser (make deps installs it): ' + e.message);
  process.exit(1);
}

const [page_path, name, nodes, links, shot] = process.argv.slice(2);
const want_steps = process.argv.includes('--steps');
let failed = 0;
const pass = (check, why) => console.log('PASS ' + name + '-' + check + (why ? ' (' + why + ')' : ''));
const fail = (check, why) => { failed++; console.log('FAIL ' + name + '-' + check + ': ' + why); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1000 }, offline: true });
  const page = await context.newPage();
  // offline: every request the page makes must be its own file (or a data: URL)
  const foreign = [];
  page.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) foreign.push(r.url()); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  await page.goto(pathToFileURL(path.resolve(page_path)).href);
  try {
    await page.waitForSelector('body[data-ready]', { timeout: 15000 });
  } catch (e) {
    fail('loads', 'the page never said it was ready (body[data-ready]): ' + errors.join('; '));
    throw e;
  }
  const ready = await page.getAttribute('body', 'data-ready');
  if (ready === '1' && !errors.length) pass('loads', 'offline, no script error');
  else fail('loads', 'ready=' + ready + ', errors: ' + errors.join('; ') + ' ' + (await page.textContent('#error')));
  if (!foreign.length) pass('offline', 'no request left the file');
  else fail('offline', 'the page asked for ' + foreign.slice(0, 3).join(', '));

  // the machine: one element per node and per directed link
  const n = await page.locator('#mesh .node').count();
  const l = await page.locator('#mesh .link').count();
  if (n === +nodes) pass('nodes', n + ' nodes'); else fail('nodes', n + ' node elements, want ' + nodes);
  if (l === +links) pass('links', l + ' links'); else fail('links', l + ' link elements, want ' + links);

  // play: the cycle counter advances, pause stops it. Waits on the page, not on the clock:
  // a loaded machine only makes it slower (WAIT ms at most for each change).
  const WAIT = 30000;
  const cycle = async () => +(await page.textContent('#cycle'));
  await page.selectOption('#speed', '30');
  const playing = async () => (await page.getAttribute('#play', 'aria-pressed')) === 'true';
  const c0 = await cycle();
  await page.click('#play');
  const p1 = await playing();
  const moved = await page.waitForFunction((c) => +document.getElementById('cycle').textContent > c + 10, c0,
    { timeout: WAIT }).then(() => true, () => false);
  await page.click('#play');
  const p2 = await playing();
  const c1 = await cycle();
  await sleep(300);
  const c2 = await cycle();
  if (p1 && !p2 && moved && c1 > c0 && c2 === c1) pass('play', 'cycle ' + c0 + ' -> ' + c1 + ' while playing, then held');
  else fail('play', 'playing ' + p1 + ' then ' + p2 + ', cycle ' + c0 + ' -> ' + c1 + ' -> ' + c2 +
            ' (want it to advance, then stop on pause)');

  // keys: right arrow is one cycle, Home the start
  await page.locator('body').press('ArrowRight');
  const c3 = await cycle();
  await page.locator('body').press('Home');
  const c4 = await cycle();
  if (c3 === c2 + 1 && c4 === 0) pass('keys', 'ArrowRight ' + c2 + ' -> ' + c3 + ', Home -> 0');
  else fail('keys', 'ArrowRight ' + c2 + ' -> ' + c3 + ', Home -> ' + c4);

  if (want_steps) {
    // next job (n), then the step counter while playing: it must show a step and move on to another
    await page.locator('body').press('n');
    const start = await cycle();
    await page.selectOption('#speed', '30');
    await page.click('#play');
    // watched from inside the page on every frame, until it has shown two numbered steps
    const watch = await page.waitForFunction(() => {
      const w = (window.__stepWatch = window.__stepWatch || { seen: [], worms: 0 });
      const s = document.getElementById('step').textContent.trim();
      if (!w.seen.length || w.seen[w.seen.length - 1] !== s) w.seen.push(s);
      w.worms = Math.max(w.worms, Array.from(document.querySelectorAll('#mesh .worm'))
        .filter((e) => e.style.display !== 'none').length);
      return w.seen.filter((x) => /^\d/.test(x)).length >= 2 ? w : false;
    }, null, { polling: 'raf', timeout: WAIT }).then((h) => h.jsonValue(), () => page.evaluate(() => window.__stepWatch));
    const seen = watch ? watch.seen : [];
    const worms = watch ? watch.worms : 0;
    if (await playing()) await page.click('#play');
    const steps = seen.filter((s) => /^\d/.test(s));
    if (steps.length >= 2) pass('step-advances', 'from cycle ' + start + ' the step went ' + seen.join(' -> '));
    else fail('step-advances', 'from cycle ' + start + ' the step showed only ' + JSON.stringify(seen));
    if (worms > 0) pass('worms', 'up to ' + worms + ' worm hops drawn at once');
    else fail('worms', 'no worm drawn while the collective played');
  }

  // a node's counters: a click on a node shows that node's, another click another's
  const panel = async (k) => {
    await page.locator('#mesh .node').nth(k).click();
    return (await page.innerText('#nodeinfo')).replace(/\s+/g, ' ');
  };
  // the name mesh-sim gave the node, from the trace the page holds
  const want_name = async (k) => page.evaluate((k) =>
    JSON.parse(document.getElementById('rvmesh-trace').textContent).nodes[k].name, k);
  const last = +nodes - 1;
  const info1 = await panel(1), infoL = await panel(last);
  const name1 = await want_name(1), nameL = await want_name(last);
  const instr = (info) => +((/instructions (\d+) by now \((\d+) in all\)/.exec(info) || [])[2] || -1);
  const ok_panel = (info, nm, k) => info.includes('node ' + nm + ' (index ' + k + ')') && /worms sent \d+/.test(info) &&
    /flits out\/in by port [+-]x \d+\/\d+/.test(info) && instr(info) > 0;
  if (ok_panel(info1, name1, 1) && ok_panel(infoL, nameL, last))
    pass('node-counters', 'node ' + name1 + ': ' + instr(info1) + ' instructions; node ' + nameL + ': ' + instr(infoL));
  else fail('node-counters', 'after clicks on nodes ' + name1 + ' and ' + nameL + ' the panel said ' +
            JSON.stringify(info1.slice(0, 160)) + ' then ' + JSON.stringify(infoL.slice(0, 160)));

  // the time line: a click there moves the cursor
  const box = await page.locator('#heat').boundingBox();
  const before = await cycle();
  await page.locator('#heat').click({ position: { x: box.width * 0.75, y: box.height / 2 } });
  const after = await cycle();
  if (after !== before) pass('timeline-seek', 'cycle ' + before + ' -> ' + after);
  else fail('timeline-seek', 'a click on the time line left the cycle at ' + before);

  // back to where the first job plays, for the picture
  await page.locator('body').press('Home');
  await page.locator('body').press('n');
  for (let i = 0; i < 3; i++) await page.locator('body').press(']');
  await page.locator('#mesh .node').nth(0).click();
  await page.screenshot({ path: shot, fullPage: true });
  pass('screenshot', shot);

  // other shapes drawn from a trace made here (the page's own load()): a 3-D torus as planes
  // side by side, and a mesh, whose edge nodes have fewer links
  for (const [dims, size, torus] of [[3, [3, 3, 3], true], [2, [5, 3, 1], false]]) {
    const got = await page.evaluate(([dims, size, torus]) => {
      const N = size[0] * size[1] * size[2], P = 2 * dims, far = [];
      for (let n = 0; n < N; n++)
        for (let k = 0; k < P; k++) {
          const c = [n % size[0], Math.floor(n / size[0]) % size[1], Math.floor(n / (size[0] * size[1]))];
          const d = k >> 1;
          let v = c[d] + ((k & 1) ? -1 : 1);
          if (v < 0 || v >= size[d]) { if (!torus) { far.push(-1); continue; } v = (v + size[d]) % size[d]; }
          c[d] = v;
          far.push(c[0] + size[0] * (c[1] + size[1] * c[2]));
        }
      const W = 16, NW = 4, zeros = new Array(N * NW).fill(0);
      window.rvmeshView.load({
        format: 'rvmesh-view/1', program: 'synthetic', reason: '', hops_truncated_at: null,
        shape: { name: 'synthetic', id: 'x', dims: dims, size: size, torus: torus }, ports: P, vcs: 2,
        cycles: W * NW, status: 0, instret: 0, flits: 1, window: W, windows: NW, detail: true,
        links: { far: far, total: far.map(() => 0) }, link_windows: [1, 0, 8], retired: zeros, wait: zeros,
        worms: { src: [0], dst: [far[0]], len: [8], tag: [1], first: [16], last: [24] },
        hops: { worm: [0], link: [0], vc: [0], head: [16], tail: [24] }, jobs: [],
        nodes: Array.from({ length: N }, (_, n) => ({ name: String(n), exited: false, exit: 0, cycle: 0, instret: 0, console: '' })),
      });
      window.rvmeshView.seek(20);
      return { nodes: document.querySelectorAll('#mesh .node').length, links: document.querySelectorAll('#mesh .link').length,
               worms: Array.from(document.querySelectorAll('#mesh .worm')).filter((e) => e.style.display !== 'none').length,
               want: far.filter((m) => m >= 0).length, N: N };
    }, [dims, size, torus]);
    const label = 'shape-' + size.slice(0, dims).join('x') + (torus ? 't' : 'm');
    if (got.nodes === got.N && got.links === got.want && got.worms === 1)
      pass(label, got.nodes + ' nodes, ' + got.links + ' links, the worm drawn');
    else fail(label, JSON.stringify(got));
  }
  if (errors.length) fail('no-errors', errors.slice(0, 3).join('; '));
} catch (e) {
  fail('driver', e.message.split('\n')[0]);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
