// Benchmark (not a test): long runs. Autoplay at the fastest speed (1,000
// steps a second, restarted whenever the run ends) on the heavy steppable
// panels, then panel-to-panel navigations; reports the JS heap and Blink's
// live DOM nodes (after forced garbage collections) and the timers still
// pending after a playing panel is left for the start page.
//
//   trunk build --release && node tests/bench-soak.mjs      (SOAK_S=600 per panel, SOAK_NAV=500)
import { serveDist, launch, newPage, open, painted, installBenchHelpers } from './e2e/harness.mjs';

const SECONDS = Number(process.env.SOAK_S ?? 600);
const NAVS = Number(process.env.SOAK_NAV ?? 500);
const PANELS = [
  '#/systolic?rows=128&cols=128&k=512&speed=1000',
  '#/divergence?warps=32&then=100&else=100&after=100&speed=1000',
  '#/flash?n=1024&d=64&bq=16&bk=16&speed=1000',
];

const srv = await serveDist();
const browser = await launch();
const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
await installBenchHelpers(page);
// Count the callbacks still pending: animation frames, timeouts, intervals.
await page.addInitScript(() => {
  const live = { raf: new Set(), timeout: new Set(), interval: new Set() };
  window.__timers = live;
  const wrap = (name, kind, clear) => {
    const orig = window[name].bind(window);
    window[name] = (cb, ...rest) => {
      const id = orig((...a) => { if (kind !== 'interval') live[kind].delete(id); return cb(...a); }, ...rest);
      live[kind].add(id);
      return id;
    };
    const origClear = window[clear].bind(window);
    window[clear] = (id) => { live[kind].delete(id); return origClear(id); };
  };
  wrap('requestAnimationFrame', 'raf', 'cancelAnimationFrame');
  wrap('setTimeout', 'timeout', 'clearTimeout');
  wrap('setInterval', 'interval', 'clearInterval');
});
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');

async function settled() {
  for (let i = 0; i < 3; i++) {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(50);
  }
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return { nodes: get('Nodes'), heapMB: get('JSHeapUsedSize') / 1048576 };
}

async function pending() {
  return page.evaluate(() => ({
    raf: window.__timers.raf.size, timeout: window.__timers.timeout.size, interval: window.__timers.interval.size,
  }));
}

console.log(`| panel, autoplay at 1,000 steps/s for ${SECONDS} s | steps played | heap before → after (MB) | live DOM nodes before → after | pending after leaving (rAF / timeouts / intervals) |`);
console.log('|---|---|---|---|---|');
for (const hash of PANELS) {
  await open(page, srv.base, hash);
  await painted(page);
  const before = await settled();
  const steps = await page.evaluate(async (seconds) => {
    const scrub = document.querySelector('[data-testid="player-scrub"]');
    const play = document.querySelector('[data-testid="player-play"]');
    const end = performance.now() + seconds * 1000;
    const isPlaying = () => /pause/i.test(play.getAttribute('aria-label'));
    let played = 0;
    while (performance.now() < end) {
      if (Number(scrub.value) >= Number(scrub.max)) {
        scrub.value = '0';
        scrub.dispatchEvent(new Event('input', { bubbles: true }));
      }
      if (!isPlaying()) play.click();
      const from = Number(scrub.value);
      await new Promise((r) => setTimeout(r, 250));
      played += Math.max(0, Number(scrub.value) - from);
    }
    if (isPlaying()) play.click();
    return played;
  }, SECONDS);
  const after = await settled();
  // Leave while playing: nothing of the panel may keep running.
  await page.evaluate(() => {
    const play = document.querySelector('[data-testid="player-play"]');
    if (!/pause/i.test(play.getAttribute('aria-label'))) play.click();
  });
  await page.waitForTimeout(100);
  await page.evaluate(() => { location.hash = '/'; });
  await page.waitForSelector('.landing');
  await page.waitForTimeout(1000);
  const p = await pending();
  console.log(`| \`${hash}\` | ${steps} | ${before.heapMB.toFixed(2)} → ${after.heapMB.toFixed(2)} | ${before.nodes} → ${after.nodes} | ${p.raf} / ${p.timeout} / ${p.interval} |`);
}

// Navigations, driven inside the page (no element handles kept alive).
await open(page, srv.base, '#/');
const ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
const tour = (n) => page.evaluate(async ([ids, n]) => {
  const { frame } = window.bench;
  for (let i = 0; i < n; i++) {
    const id = ids[i % ids.length];
    location.hash = `/${id}`;
    for (let t = 0; t < 600; t++) {
      await frame();
      const c = document.querySelector('canvas[data-testid="scene-canvas"]');
      if (document.querySelector(`[data-topic="${id}"] [data-metric]`) && (!c || c.dataset.painted === '1')) break;
    }
  }
  location.hash = '/';
  for (let t = 0; t < 600 && !document.querySelector('.landing'); t++) await frame();
}, [ids, n]);
await tour(ids.length * 2);
const before = await settled();
await tour(NAVS);
await page.waitForTimeout(1000);
const after = await settled();
const p = await pending();
console.log(`\n${NAVS} navigations over ${ids.length} panels: heap ${before.heapMB.toFixed(2)} → ${after.heapMB.toFixed(2)} MB, `
  + `live DOM nodes ${before.nodes} → ${after.nodes}, pending on the start page afterwards: `
  + `${p.raf} animation frames, ${p.timeout} timeouts, ${p.interval} intervals`);
console.log(page.errors.length ? `errors: ${page.errors.slice(0, 5).join(' | ')}` : 'no errors');
await browser.close();
srv.server.close();
