// Benchmark (not a test): does navigating between panels leak? Blink's live
// DOM node count and the JS heap, each read after a forced garbage
// collection (CDP HeapProfiler.collectGarbage), before and after N
// panel-to-panel navigations by hash change (as links, back and decks do).
//
//   trunk build --release && node tests/bench-leak.mjs      (LEAK_N=500)
import { serveDist, launch, newPage, open, painted, installBenchHelpers } from './e2e/harness.mjs';

const N = Number(process.env.LEAK_N ?? 500);

const srv = await serveDist();
const browser = await launch();
const page = await newPage(browser);
await installBenchHelpers(page);
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

// The whole tour runs inside the page: no CDP element handles (which
// playwright keeps alive until disposed, and which would retain the old
// panels' detached DOM and pass for a leak of the app's).
async function tour(n) {
  await page.evaluate(async ([ids, n]) => {
    const { frame } = window.bench;
    for (let i = 0; i < n; i++) {
      const id = ids[i % ids.length];
      location.hash = `/${id}`;
      for (let tries = 0; tries < 600; tries++) {
        await frame();
        const canvas = document.querySelector('canvas[data-testid="scene-canvas"]');
        if (location.hash.startsWith(`#/${id}?`) && document.querySelector(`[data-topic="${id}"] [data-metric]`)
          && (!canvas || canvas.dataset.painted === '1')) break;
      }
    }
    location.hash = '/';
    for (let tries = 0; tries < 600 && !document.querySelector('.landing'); tries++) await frame();
  }, [ids, n]);
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
