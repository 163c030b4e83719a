// Benchmark (not a test): the split build's chunks and how long a panel whose
// chunk is not cached takes to show, in headless Chromium against the release
// build served from 127.0.0.1 (no network delay, no service worker).
//
//   trunk build --release && npm run bench:chunks      (BENCH_N=5 runs each)
//
// "deep link": a fresh page at `#/systolic`, from the navigation's start until
// its figures are in the DOM and its canvas is painted (recorded in the page
// by a MutationObserver installed before any script runs). "move": a fresh
// page at `#/`, then `location.hash = '#/flash'` with no hover before it (so
// its chunk is not prefetched), until the same. The speed bar is 1 s locally.
// Then every chunk of the build at its gzip -9 size (as a static host serves
// it). What each entry point fetches until shown is in the output of
// tests/e2e/split.test.mjs, which asserts its budget.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, serveDist, launch, newPage, open, installBenchHelpers } from './e2e/harness.mjs';

const N = Number(process.env.BENCH_N ?? 5);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const ms = (t) => `${t.toFixed(0)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Installed before the app's scripts: when a panel's figures are in the DOM
// with its canvas (if any) painted, in performance.now() (from the
// navigation's start).
const PANEL_SHOWN = () => {
  const check = () => {
    if (window.__panelShown !== undefined || !document.querySelector('.panel [data-metric]')) return;
    const c = document.querySelector('canvas[data-testid="scene-canvas"]');
    if (!c || c.dataset.painted === '1') window.__panelShown = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
};

async function freshPage(browser) {
  const page = await newPage(browser, { serviceWorkers: 'block' });
  await page.addInitScript(PANEL_SHOWN);
  await installBenchHelpers(page);
  return page;
}

async function deepLink(browser, base) {
  const page = await freshPage(browser);
  await page.goto(base + '#/systolic');
  await page.waitForFunction(() => window.__panelShown !== undefined, null, { polling: 'raf', timeout: 120_000 });
  const t = await page.evaluate(() => window.__panelShown);
  if (page.errors.length) throw new Error(`#/systolic: ${page.errors.join('\n')}`);
  await page.context().close();
  return t;
}

async function move(browser, base) {
  const page = await freshPage(browser);
  await open(page, base, '#/');
  const t = await page.evaluate(async () => {
    const prefetched = performance.getEntriesByType('resource').some((e) => /split_topic_flash-/.test(e.name));
    if (prefetched) return { error: "flash's chunk was fetched before the move" };
    window.__panelShown = undefined;
    const t0 = performance.now();
    location.hash = '#/flash';
    while (window.__panelShown === undefined) await window.bench.frame();
    return { t: window.__panelShown - t0 };
  });
  if (t.error) throw new Error(t.error);
  if (page.errors.length) throw new Error(`#/ -> #/flash: ${page.errors.join('\n')}`);
  await page.context().close();
  return t.t;
}

const srv = await serveDist();
const browser = await launch();
try {
  const deep = [];
  const moved = [];
  for (let i = 0; i < N; i++) {
    deep.push(await deepLink(browser, srv.base));
    moved.push(await move(browser, srv.base));
  }
  console.log(`A panel whose chunk is not cached, ${N} fresh pages each (median; every run):`);
  console.log(`  #/systolic deep link, navigation start -> figures and canvas: ${ms(median(deep))} (${deep.map(ms).join(', ')})`);
  console.log(`  #/ -> #/flash, chunk not prefetched: ${ms(median(moved))} (${moved.map(ms).join(', ')})`);
} finally {
  await browser.close();
  srv.server.close();
}

const gz = (f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length;
const all = readdirSync(DIST).filter((f) => /\.(wasm|js|css|json)$/.test(f));
const chunks = all.filter((f) => /^(split_|chunk_)/.test(f)).map((f) => [f, gz(f)]).sort((a, b) => b[1] - a[1]);
const wasm = all.filter((f) => f.endsWith('.wasm')).reduce((t, f) => t + gz(f), 0);
console.log(`\nThe build's ${chunks.length} chunks (gzip -9, KB = 1,024 bytes): ${kb(chunks.reduce((t, [, b]) => t + b, 0))}; every wasm file: ${kb(wasm)}`);
for (const [f, b] of chunks) console.log(`  ${f}: ${kb(b)}`);
