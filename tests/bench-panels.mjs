// Benchmark (not a test): every panel, the heavy ones at their largest legal settings,
// in headless Chromium against the release build.
//
//   trunk build --release && node tests/bench-panels.mjs      (BENCH_N=30;
//   BENCH_ONLY=coalescing runs the panels whose URL contains it)
//
// "load": navigation (hash change) until the panel's figures are in the DOM
// and its canvas is painted. "work" of a step, scrub or control change: from
// the event to the last DOM mutation it causes (a MutationObserver records
// the time of each), plus the canvas paint time the adapter writes to
// data-paint-ms; its two parts are shown too (render / paint medians).
// "first paint": a fresh page opened at the panel's URL (a deep link), from
// the navigation's start to its figures in the DOM and its canvas painted.
// "landing interactive": a fresh page at `#/`, from the navigation's start to
// the landing's cards rendered by the app (its handlers are attached in that
// same render). Both are recorded in the page by a MutationObserver installed
// before any script runs. No setTimeout polling: waits are rAF and
// MessageChannel.
import { serveDist, launch, newPage, open, installBenchHelpers } from './e2e/harness.mjs';

const N = Number(process.env.BENCH_N ?? 30);

const CASES = [
  { hash: '#/flash?n=1024&d=256&bq=32&bk=32&causal=0', ops: ['step', 'scrub', 'slider:seed'] },
  { hash: '#/flash?n=16384&d=256&bq=1&bk=1&pass=bwd', ops: ['step', 'scrub'] },
  { hash: '#/flash?n=32768&bq=1&bk=1', ops: ['step', 'scrub'] },
  { hash: '#/flash?n=65536&d=64&bq=1&bk=1&causal=0', ops: ['step', 'scrub'] },
  { hash: '#/tiling?n=4096&m=4096&k=4096&tile=1', ops: ['step', 'scrub', 'slider:tile'] },
  { hash: `#/online-softmax?block=1&x=${Array.from({ length: 4096 }, (_, i) => ((i * 37) % 101) / 10).join(',')}`, ops: ['step', 'scrub'] },
  { hash: '#/gpu-vs-tpu?tm=1&tn=1', ops: ['slider:m', 'slider:tm'] },
  { hash: '#/systolic?rows=128&cols=128&k=512&dataflow=os', ops: ['step', 'scrub'] },
  { hash: '#/systolic?rows=256&cols=256&k=4096&dataflow=os', ops: ['step', 'scrub', 'slider:k', 'slider:rows'] },
  { hash: '#/divergence?warps=32&then=100&else=100&after=100', ops: ['step', 'scrub'] },
  { hash: '#/coalescing?pattern=stride&dtype=fp8', ops: ['slider:stride', 'slider:offset'] },
  { hash: '#/coalescing?pattern=random&dtype=fp8', ops: ['slider:seed'] },
  { hash: '#/waves?n=16384&tm=1&tn=1', ops: ['slider:n'] },
  { hash: '#/occupancy', ops: ['slider:threads'] },
  { hash: '#/threads?n=16777216&block=1', ops: ['slider:thread'] },
  // The panels without a player: a slider change is their work.
  { hash: '#/hardware?gpu=custom', ops: ['number:peak', 'number:bw'] },
  { hash: '#/roofline?op=decode', ops: ['slider:batch', 'slider:n'] },
  { hash: '#/fusion', ops: ['slider:n'] },
  { hash: '#/recompute', ops: ['slider:depth', 'slider:n'] },
  { hash: '#/quantization', ops: ['slider:n', 'slider:tile'] },
  { hash: '#/attention-memory', ops: ['slider:n', 'slider:d'] },
  { hash: '#/your-machine', ops: [] },
];

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95) };
}

async function load(page, base, hash) {
  await open(page, base, '#/');
  return page.evaluate(async (h) => {
    const { frame } = window.bench;
    const t0 = performance.now();
    location.hash = h.slice(1);
    for (;;) {
      await frame();
      const c = document.querySelector('canvas[data-testid="scene-canvas"]');
      if (document.querySelector('.panel [data-metric]') && (!c || c.dataset.painted === '1')) break;
    }
    return performance.now() - t0;
  }, hash);
}

// Installed before the app's scripts: records (performance.now(), from the
// navigation's start) when the landing's cards are in the DOM, and when a
// panel's figures are in the DOM with its canvas (if any) painted.
const FIRST_PAINT = () => {
  window.__firstPaint = {};
  const check = () => {
    const t = performance.now();
    const f = window.__firstPaint;
    if (f.landing === undefined && document.querySelector('.landing .card')) f.landing = t;
    if (f.panel === undefined && document.querySelector('.panel [data-metric]')) {
      const c = document.querySelector('canvas[data-testid="scene-canvas"]');
      if (!c || c.dataset.painted === '1') f.panel = t;
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

/** A fresh page at `hash`: ms from the navigation's start until `what` ('panel' or 'landing'). */
async function firstPaint(browser, base, hash, what) {
  const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
  await page.addInitScript(FIRST_PAINT);
  await page.goto(base + hash);
  await page.waitForFunction((w) => window.__firstPaint?.[w] !== undefined, what, { polling: 'raf', timeout: 30000 });
  const t = await page.evaluate((w) => window.__firstPaint[w], what);
  await page.context().close();
  return t;
}

async function measure(page, op, n) {
  return page.evaluate(async ([op, n]) => {
    const { yieldTask, frame } = window.bench;
    const canvas = () => document.querySelector('canvas[data-testid="scene-canvas"]');
    const scrub = document.querySelector('[data-testid="player-scrub"]');
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const out = [];
    // Long tasks (≥ 50 ms on the main thread) during these samples: a render
    // that lands after the yield below would escape the work time, not this.
    const long = [];
    const po = new PerformanceObserver((list) => list.getEntries().forEach((e) => long.push(e.duration)));
    po.observe({ type: 'longtask' });
    const setRange = (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    };
    for (let i = 0; i < n; i++) {
      let trigger;
      if (op === 'step') {
        if (scrub && Number(scrub.value) >= Number(scrub.max) - 1) { setRange(scrub, 0); await frame(); await frame(); }
        trigger = () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
      } else if (op === 'scrub') {
        trigger = () => setRange(scrub, Math.floor(rand() * Number(scrub.max)));
      } else if (op.startsWith('number:')) {
        // The custom machine's typed fields: a changed value commits on `change`.
        const name = op.split(':')[1];
        const el = document.querySelector(`input[type="number"][name="${name}"]`);
        if (!el) return { error: `no field ${name}` };
        trigger = () => {
          el.value = String(Math.round(1 + rand() * 4000));
          el.dispatchEvent(new Event('change', { bubbles: true }));
        };
      } else {
        const name = op.split(':')[1];
        const el = document.querySelector(`.slider[data-param="${name}"] input[type="range"]`);
        if (!el) return { error: `no slider ${name}` };
        const lo = Number(el.min), hi = Number(el.max);
        trigger = () => setRange(el, Math.round(lo + rand() * (hi - lo)));
      }
      const c0 = canvas();
      if (c0) c0.dataset.paintMs = '0';
      let last = null;
      const obs = new MutationObserver(() => { last = performance.now(); });
      obs.observe(document.querySelector('.app'), { subtree: true, childList: true, attributes: true, characterData: true });
      const t0 = performance.now();
      trigger();
      await yieldTask();
      // The render (event handler, yew's render and effects) is done; the
      // canvas paints in the next animation frame and times itself.
      const render = last === null ? 0 : last - t0;
      obs.disconnect();
      await frame();
      await frame();
      const c = canvas();
      const paint = c ? Number(c.dataset.paintMs ?? 0) : 0;
      out.push({ render, paint });
    }
    await frame();
    po.disconnect();
    return { samples: out, longest: long.length ? Math.max(...long) : 0, longTasks: long.length };
  }, [op, n]);
}

const srv = await serveDist();
const browser = await launch();
const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
await installBenchHelpers(page);
const only = process.env.BENCH_ONLY; // a substring of the hashes to run
// The landing page, three fresh loads (the first one warms the HTTP cache).
const landing = [];
for (let i = 0; i < 3; i++) landing.push(await firstPaint(browser, srv.base, '#/', 'landing'));
console.log(`landing interactive (fresh page at #/, three loads): ${landing.map((t) => `${t.toFixed(0)} ms`).join(', ')}\n`);
console.log('| panel (largest legal settings) | first paint | load | operation | work median | work p95 | render / paint median | long tasks (≥ 50 ms) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const c of CASES) {
  if (only && !c.hash.includes(only)) continue;
  const first = await firstPaint(browser, srv.base, c.hash, 'panel');
  const loadMs = await load(page, srv.base, c.hash);
  const head = `| \`${c.hash.slice(0, 60)}${c.hash.length > 60 ? '…' : ''}\` | ${first.toFixed(0)} ms | ${loadMs.toFixed(0)} ms`;
  if (!c.ops.length) console.log(`${head} | (load only) | | | | |`);
  for (const op of c.ops) {
    const r = await measure(page, op, N);
    if (r.error) { console.log(`${head} | ${op} | ${r.error} | | | |`); continue; }
    const s = stats(r.samples.map((x) => x.render + x.paint));
    const split = `${stats(r.samples.map((x) => x.render)).median.toFixed(1)} / ${stats(r.samples.map((x) => x.paint)).median.toFixed(1)} ms`;
    const lt = r.longTasks ? `${r.longTasks}, longest ${r.longest.toFixed(0)} ms` : 'none';
    console.log(`${head} | ${op} | ${s.median.toFixed(1)} ms | ${s.p95.toFixed(1)} ms | ${split} | ${lt} |`);
  }
}
await browser.close();
srv.server.close();
