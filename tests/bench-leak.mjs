// Benchmark (not a test): does navigating between panels leak? Blink's live
// DOM node count and the JS heap, each read after a forced garbage
// collection (CDP HeapProfiler.collectGarbage), before and after N
// panel-to-panel navigations by hash change (as links, back and decks do).
//
//   trunk build --release && node tests/bench-leak.mjs      (LEAK_N=500)
import { serveDist, launch, newPage, open, painted } from './e2e/harness.mjs';

const N = Number(process.env.LEAK_N ?? 500);

const srv = await serveDist();
const browser = await launch();
const page = await newPage(browser);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');

async function settled() {
  for (let i = 0; i < 3; i++) {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const docNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { nodes: get('Nodes'), heapMB: get('JSHeapUsedSize') / 1048576, listeners: get('JSEventListeners'), docNodes };
}

await open(page, srv.base, '#/');
const ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));

async function tour(n) {
  for (let i = 0; i < n; i++) {
    const id = ids[i % ids.length];
    await page.evaluate((h) => { location.hash = h; }, `/${id}`);
    await page.waitForFunction((id) => location.hash.startsWith(`#/${id}?`)
      && document.querySelector('[data-metric]') !== null, id);
    await painted(page);
  }
  await page.evaluate((h) => { location.hash = h; }, '/');
  await page.waitForSelector('.landing');
}

// Warm up: every panel once (first visits create caches, fonts, ...).
await tour(ids.length * 2);
const before = await settled();
const t0 = Date.now();
await tour(N);
const seconds = (Date.now() - t0) / 1000;
const afterRun = await settled();

const pct = (a, b) => `${(((b - a) / a) * 100).toFixed(1)} %`;
console.log(`${N} navigations over ${ids.length} panels in ${seconds.toFixed(1)} s`);
console.log('| | before | after | change |');
console.log('|---|---|---|---|');
console.log(`| live DOM nodes (Blink) | ${before.nodes} | ${afterRun.nodes} | ${pct(before.nodes, afterRun.nodes)} |`);
console.log(`| nodes in the document | ${before.docNodes} | ${afterRun.docNodes} | ${pct(before.docNodes, afterRun.docNodes)} |`);
console.log(`| JS heap used (MB) | ${before.heapMB.toFixed(2)} | ${afterRun.heapMB.toFixed(2)} | ${pct(before.heapMB, afterRun.heapMB)} |`);
console.log(`| JS event listeners | ${before.listeners} | ${afterRun.listeners} | ${pct(before.listeners, afterRun.listeners)} |`);
await browser.close();
srv.server.close();
