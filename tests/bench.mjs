// Benchmark (not a test): scrub and step+render frame times of the systolic
// panel in headless Chromium, and the release build's transfer size.
//
//   trunk build --release && node tests/bench.mjs
//
// A "scrub" is: set the player's scrub slider to a random cycle and dispatch
// `input`, until the canvas has been painted. A "step" is: press → (keydown),
// until painted. Each is measured as the time to handle the event and render
// (up to the next macrotask, after yew's render and effects) plus the canvas
// paint time the adapter records in data-paint-ms; the idle wait for the next
// display frame is not counted.
//
// The second table compares two paths to the same jump (a random cycle):
// the scrub slider, and a URL change (`location.hash` set to the panel's own
// query with a new `cycle`, as a deep link, back/forward or a deck does).
// Work = from the event to the mutation that puts the new cycle in the
// `[data-metric="cycle"]` readout's data-value (a MutationObserver records
// it), plus the canvas paint time; "until idle" runs to the end of the task
// (every render and effect it set off) instead of the readout.
// BENCH_PART=jumps runs the second table only; BENCH_PART=size the transfer size only.
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { DIST, serveDist, launch, newPage, open, painted, installBenchHelpers } from './e2e/harness.mjs';

const N = Number(process.env.BENCH_N ?? 60);

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1], n: s.length };
}

const fmt = (x) => `${x.toFixed(2)} ms`;

async function measure(page, kind, n) {
  return page.evaluate(async ([kind, n]) => {
    const { yieldTask, frame } = window.bench;
    const canvas = document.querySelector('canvas[data-testid="scene-canvas"]');
    const scrub = document.querySelector('[data-testid="player-scrub"]');
    const len = Number(scrub.max);
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const out = [];
    for (let i = 0; i < n; i++) {
      if (kind === 'step' && Number(scrub.value) >= len - 1) {
        scrub.value = '0';
        scrub.dispatchEvent(new Event('input', { bubbles: true }));
        await frame(); await frame();
      }
      const t0 = performance.now();
      if (kind === 'scrub') {
        scrub.value = String(Math.floor(rand() * len));
        scrub.dispatchEvent(new Event('input', { bubbles: true }));
      } else {
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
      }
      await yieldTask();
      const render = performance.now() - t0;
      await frame();
      await frame();
      out.push(render + Number(canvas.dataset.paintMs));
    }
    return out;
  }, [kind, n]);
}

/** `n` jumps to random cycles through the slider or the URL (see the header). */
async function jumps(page, via, n) {
  return page.evaluate(async ([via, n]) => {
    const { yieldTask, frame } = window.bench;
    const canvas = document.querySelector('canvas[data-testid="scene-canvas"]');
    const scrub = document.querySelector('[data-testid="player-scrub"]');
    const len = Number(scrub.max);
    // The panel's own (canonical) query, less the cycle.
    const [path, query] = location.hash.slice(1).split('?');
    const base = new URLSearchParams(query);
    base.delete('cycle');
    let seed = 4242;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const out = [];
    for (let i = 0; i < n; i++) {
      const cell = document.querySelector('[data-metric="cycle"]');
      let target = Math.floor(rand() * len);
      if (String(target) === cell.dataset.value) target = (target + 1) % len;
      canvas.dataset.paintMs = '0';
      let readout = null;
      const obs = new MutationObserver(() => {
        const c = document.querySelector('[data-metric="cycle"]');
        if (readout === null && c && c.dataset.value === String(target)) readout = performance.now();
      });
      obs.observe(document.querySelector('.app'), { subtree: true, childList: true, attributes: true, characterData: true });
      const t0 = performance.now();
      if (via === 'slider') {
        scrub.value = String(target);
        scrub.dispatchEvent(new Event('input', { bubbles: true }));
      } else {
        const q = new URLSearchParams(base);
        q.set('cycle', String(target));
        location.hash = `${path}?${q}`;
      }
      await yieldTask();
      const idle = performance.now() - t0;
      // A render left for later would show here as a late readout.
      for (let f = 0; f < 30 && readout === null; f++) await frame();
      obs.disconnect();
      await frame();
      await frame();
      if (readout === null) return { error: `cycle ${target} never reached the readout (${via})` };
      const paint = Number(canvas.dataset.paintMs);
      out.push({ readout: readout - t0 + paint, idle: idle + paint });
    }
    return { samples: out };
  }, [via, n]);
}

async function jumpTable(page, base) {
  const n = Number(process.env.BENCH_JUMPS ?? 200);
  const cases = [
    'rows=128&cols=128&k=512&dataflow=os',
    'rows=256&cols=256&k=4096&dataflow=os',
    'rows=256&cols=256&k=4096&dataflow=ws',
    'rows=256&cols=256&m=1024&k=4096&n=1024&dataflow=os',
  ];
  console.log(`\nThe same jump (random cycle) through the slider and through a URL change, ${n} samples each (target p95 ≤ 16 ms)`);
  console.log('| systolic | path | work median | work p95 | until idle median | until idle p95 |');
  console.log('|---|---|---|---|---|---|');
  // What a hash change costs the browser itself, on a page without the app.
  await page.goto(`${base}no-app`);
  const bare = await page.evaluate(async (n) => {
    const { yieldTask } = window.bench;
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      location.hash = `/systolic?rows=256&cols=256&k=4096&cycle=${i}`;
      await yieldTask();
      out.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
    }
    return out;
  }, n);
  // The same for a slider: an `input` event on a range input with an empty
  // listener, to the end of the task. Together: this machine's own floor
  // (its noise shows in the p95) under any work the app adds.
  const bareSlider = await page.evaluate(async (n) => {
    const { yieldTask } = window.bench;
    const input = Object.assign(document.createElement('input'), { type: 'range', min: 0, max: 100000 });
    input.addEventListener('input', () => {});
    document.body.append(input);
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      input.value = String(i);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await yieldTask();
      out.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
    }
    return out;
  }, n);
  page.errors.length = 0; // that page's own 404
  const b = stats(bare);
  const bs = stats(bareSlider);
  console.log(`| (a page without the app) | slider, the browser's own cost | | | ${fmt(bs.median)} | ${fmt(bs.p95)} |`);
  console.log(`| (a page without the app) | url, the browser's own cost | | | ${fmt(b.median)} | ${fmt(b.p95)} |`);
  for (const c of cases) {
    await open(page, base, `#/systolic?${c}&seed=1&cycle=0`);
    await painted(page);
    // The check done (a folded GEMM's may still run, in idle slices).
    await page.waitForSelector('[data-metric="max-abs-error"][data-value]', { timeout: 20000 }).catch(() => {});
    await page.waitForFunction(() => /[?&]lang=/.test(location.hash)); // the canonical URL is written
    await jumps(page, 'slider', 10); // warm-up
    for (const via of ['slider', 'url']) {
      await page.waitForTimeout(300); // no write pending from the previous path
      const r = await jumps(page, via, n);
      if (r.error) throw new Error(r.error);
      const w = stats(r.samples.map((x) => x.readout));
      const idle = stats(r.samples.map((x) => x.idle));
      console.log(`| ${c.replace(/&/g, ' ')} | ${via} | ${fmt(w.median)} | ${fmt(w.p95)} | ${fmt(idle.median)} | ${fmt(idle.p95)} |`);
    }
  }
}

async function main() {
  if (process.env.BENCH_PART === 'size') return transferSize();
  const srv = await serveDist();
  const browser = await launch();
  const page = await newPage(browser);
  await installBenchHelpers(page);
  if (process.env.BENCH_PART === 'jumps') {
    await jumpTable(page, srv.base);
    if (page.errors.length) console.error('page errors:', page.errors);
    await browser.close();
    srv.server.close();
    return;
  }
  const rows = [];
  // One tile of work, then a folded GEMM (m = n = 1024, k = 4096 on 256 × 256:
  // 16 folds OS, 64 WS and IS) in every dataflow.
  const cases = [
    ...[[128, 512], [256, 4096]].flatMap(([r, k]) => ['os', 'ws'].map((df) => [r, 0, k, 0, df])),
    ...['os', 'ws', 'is'].map((df) => [256, 1024, 4096, 1024, df]),
  ];
  for (const [rowsN, m, k, n, df] of cases) {
    const gemm = m ? `&m=${m}&n=${n}` : '';
    const t0 = Date.now();
    await open(page, srv.base, `#/systolic?rows=${rowsN}&cols=${rowsN}${gemm}&k=${k}&dataflow=${df}&seed=1&cycle=0`);
    await painted(page);
    const load = Date.now() - t0;
    await measure(page, 'scrub', 5); // warm-up
    const scrub = stats(await measure(page, 'scrub', N));
    const step = stats(await measure(page, 'step', N));
    const shape = m ? `${rowsN}x${rowsN}, m=${m} k=${k} n=${n}` : `${rowsN}x${rowsN}x${k}`;
    rows.push({ shape: `${shape} ${df}`, load, scrub, step });
  }
  await jumpTable(page, srv.base);
  if (page.errors.length) console.error('page errors:', page.errors);
  await browser.close();
  srv.server.close();

  console.log(`\nSystolic panel, headless Chromium, ${N} samples each (render + paint; target p95 ≤ 8 ms step, ≤ 16 ms scrub)`);
  console.log('| shape | first render | scrub median | scrub p95 | step median | step p95 |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.shape} | ${r.load} ms | ${fmt(r.scrub.median)} | ${fmt(r.scrub.p95)} | ${fmt(r.step.median)} | ${fmt(r.step.p95)} |`);
  }

  await transferSize();
}

/** The release build's transfer size (gzip -9): what a first visit to the
 *  start page downloads in each language; the split build's chunks (a panel
 *  loads its own, tests/e2e/split.test.mjs measures each entry point) are
 *  listed apart. */
async function transferSize() {
  const all = (await readdir(DIST)).filter((f) => /\.(wasm|js|css|json)$/.test(f));
  const isChunk = (f) => /^(split_|chunk_)/.test(f);
  const files = all.filter((f) => !isChunk(f) && f !== 'sw.js');
  const gz = {};
  for (const f of all) gz[f] = gzipSync(await readFile(join(DIST, f)), { level: 9 }).length;
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  console.log('\nRelease build transfer size (gzip -9, KB = 1,024 bytes), target ≤ 300 KB:');
  for (const f of files) console.log(`  ${f}: ${kb(gz[f])}`);
  const chunks = all.filter(isChunk);
  console.log(`  ${chunks.length} chunks (split build), in total: ${kb(chunks.reduce((t, f) => t + gz[f], 0))}`);
  const app = files.filter((f) => !/^strings\./.test(f)).reduce((t, f) => t + gz[f], 0);
  for (const [lang, other] of [['en', 'zh'], ['zh', 'en']]) {
    const own = gz[`strings.${lang}.json`] ?? 0;
    console.log(`  the start page, first visit in ${lang}: ${kb(app + own)} (app ${kb(app)} + its texts ${kb(own)}); ` +
      `the service worker then caches the ${other} texts (${kb(gz[`strings.${other}.json`] ?? 0)}) and every chunk for offline use`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
