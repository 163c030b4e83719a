// The static panel snapshots (issue 33): the build writes each topic's
// default view (its drawing as SVG, its key figures; src/prerender/snap.rs)
// to snap/<route>.<lang>.<narrow|wide>-<build>.html, and web/pre.js fetches
// the one a plain URL of a topic route needs at once and shows it in #boot.
// Here the main wasm is held back (a route that answers only when the test
// says), so the snapshot can be read before the app starts: its drawing and
// figures are painted, the figures are the ones the app then shows (names and
// values), it stays while the panel's own chunk is on its way, the app
// replaces it without a layout shift (from the browser's own layout-shift
// entries: < 0.01 while it is shown, after it, and without one); a URL with
// parameters, or a route without a snapshot, fetches none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, appMounted, painted, chunkIn } from './harness.mjs';

const env = withBrowser();

/** A fresh page of `width × height` whose main wasm is held until
 *  `release()`, with the layout-shift entries and the snapshot requests
 *  recorded from the start. */
async function heldPage(width, height, route) {
  const page = await newPage(env.browser, { serviceWorkers: 'block', viewport: { width, height } });
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((l) => window.__shifts.push(...l.getEntries().map((e) => ({ t: e.startTime, value: e.value, input: e.hadRecentInput }))))
      .observe({ type: 'layout-shift', buffered: true });
    // When #boot (with the snapshot) goes: the app takes over.
    new MutationObserver((_, obs) => {
      if (document.body && !document.getElementById('boot')) { window.__bootGone = performance.now(); obs.disconnect(); }
    }).observe(document, { subtree: true, childList: true });
  });
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/warpscope-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  page.release = release;
  // The panel's own chunk too, from the start (boot.js preloads a deep
  // link's chunks as soon as it has read the manifest, which may be before
  // the test has looked at the snapshot), until `releaseChunk()`.
  let releaseChunk = () => {};
  if (route) {
    const chunkHeld = new Promise((r) => { releaseChunk = r; });
    await page.route(new RegExp(`split_topic_${route.replace(/-/g, '_')}-[0-9a-f]+\\.wasm$`), async (r) => { await chunkHeld; await r.continue(); });
  }
  page.releaseChunk = releaseChunk;
  page.snaps = [];
  page.on('request', (r) => { if (r.url().includes('/snap/')) page.snaps.push(r.url().split('/snap/')[1]); });
  return page;
}

/** Go to `hash` without waiting for the load event (the held wasm's preload holds it). */
async function goto(page, hash) {
  await page.goto(env.srv.base + hash, { waitUntil: 'commit' });
  await page.waitForFunction(() => document.readyState !== 'loading' &&
    [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet));
}

/** In the page: the visible snapshot's drawing and figures, or null. */
function snapshot() {
  const snap = [...document.querySelectorAll('.static-snap')].find((e) => e.checkVisibility());
  if (!snap) return null;
  const svg = snap.querySelector('.stage svg');
  const r = svg?.getBoundingClientRect();
  return {
    lang: snap.dataset.lang,
    title: snap.querySelector('.panel-header h1').innerText,
    svg: svg ? { width: r.width, height: r.height, texts: svg.querySelectorAll('text').length, shapes: svg.childElementCount } : null,
    figures: [...snap.querySelectorAll('[data-metric]')].filter((e) => e.checkVisibility())
      .map((e) => e.dataset.state === 'checking'
        ? { name: e.dataset.metric, label: e.querySelector('.metric-label').innerText, pending: true }
        : { name: e.dataset.metric, value: e.dataset.value, label: e.querySelector('.metric-label').innerText, shown: e.querySelector('.metric-value').innerText }),
    route: document.documentElement.dataset.route,
    line: document.querySelector('.boot-line').checkVisibility(),
  };
}

for (const [hash, lang, width, height, kind] of [
  ['#/systolic', 'en', 390, 844, 'narrow'],
  ['#/online-softmax?lang=zh', 'zh', 390, 844, 'narrow'],
  ['#/flash', 'en', 1440, 900, 'wide'],
  ['#/llm?lang=zh', 'zh', 1440, 900, 'wide'],
  ['#/divergence', 'en', 390, 844, 'narrow'],
  ['#/gpu-vs-tpu?lang=zh', 'zh', 1440, 900, 'wide'],
  ['#/roofline', 'en', 390, 844, 'narrow'],
]) {
  test(`${hash} at ${width}×${height}: the static snapshot before the wasm, then the app with the same figures, no layout shift`, async () => {
    const route = hash.slice(2).split('?')[0];
    const page = await heldPage(width, height, route);
    await goto(page, hash);
    await page.waitForFunction(() => document.documentElement.dataset.route === 'snap', null, { timeout: 30_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const before = await page.evaluate(snapshot);
    assert.ok(before, 'a snapshot is shown while the wasm is held');
    assert.equal(before.lang, lang);
    assert.equal(before.line, false, 'the boot line is hidden');
    assert.match(page.snaps[0], new RegExp(`^${route}\\.${lang}\\.${kind}-[0-9a-f]{12}\\.html$`));
    assert.equal(page.snaps.length, 1);
    // The drawing: a scene, or a chart (#/llm's and #/roofline's roofline,
    // drawn by the chart code the canvas draws with).
    assert.ok(before.svg && before.svg.width > 200 && before.svg.height > 50 && before.svg.texts > 0, JSON.stringify(before.svg));
    assert.ok(before.figures.length >= 3, `${before.figures.length} figures`);
    // The main module in, the panel's own chunk held: the snapshot stays,
    // no "loading…" frame in its place (Yew, mounted on <body>, emptied it).
    page.release();
    await page.waitForFunction(() => document.querySelector('#app-root > .app'), null, { timeout: 60_000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const waiting = await page.evaluate(() => ({
      snap: !!document.querySelector('.static-snap')?.checkVisibility({ visibilityProperty: true }),
      loading: [...document.querySelectorAll('[data-testid="chunk-loading"]')].some((e) => e.checkVisibility({ visibilityProperty: true })),
      app: document.querySelector('#app-root > .app').checkVisibility({ visibilityProperty: true }),
    }));
    assert.deepEqual(waiting, { snap: true, loading: false, app: false }, 'the app mounted, its panel\'s chunk on its way: the snapshot still shown');
    page.releaseChunk();
    await appMounted(page, 'the app after the snapshot');
    await chunkIn(page);
    await painted(page);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await page.evaluate(() => document.getElementById('boot')), null, 'the app removed #boot');
    // A figure the snapshot shows pending (flash's rounding errors, which the
    // browser computes itself): its name and label.
    const app = await page.evaluate((figs) => figs.map((f) => {
      const e = document.querySelector(`.app [data-metric="${f.name}"]`);
      if (!e) return null;
      const label = e.querySelector('.metric-label')?.innerText;
      return f.pending ? { name: f.name, label, pending: true }
        : { name: f.name, value: e.dataset.value, label, shown: e.querySelector('.metric-value')?.innerText };
    }), before.figures);
    assert.deepEqual(app, before.figures, 'the app shows the snapshot\'s figures: names, values, labels, text');
    assert.equal(await page.evaluate(() => document.querySelector('.panel h1').innerText), before.title);
    // Layout shifts: none while the snapshot is shown (until #boot goes), and
    // after it none but the app's own, which a visit without a snapshot has
    // too (the same view by a URL with a parameter at its default value:
    // `present=0`, a global every route takes, so no notice is shown).
    const { shifts, gone } = await page.evaluate(() => ({ shifts: window.__shifts, gone: window.__bootGone }));
    const sum = (xs) => xs.filter((x) => !x.input).reduce((t, x) => t + x.value, 0);
    const during = sum(shifts.filter((x) => x.t < gone));
    const after = sum(shifts.filter((x) => x.t >= gone));
    assert.deepEqual(page.errors, []);
    await page.context().close();
    const plain = await heldPage(width, height);
    await goto(plain, `#/${route}?present=0${lang === 'zh' ? '&lang=zh' : ''}`);
    assert.equal(await plain.evaluate(() => document.documentElement.dataset.route), 'other');
    plain.release();
    await appMounted(plain);
    await chunkIn(plain);
    await painted(plain);
    await plain.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const own = sum(await plain.evaluate(() => window.__shifts));
    assert.deepEqual(plain.snaps, []);
    await plain.context().close();
    console.log(`${hash} ${width}: ${before.figures.length} figures, svg ${JSON.stringify(before.svg)}; CLS while the snapshot is shown ${during.toFixed(4)}, after ${after.toFixed(4)} (the app's own without a snapshot: ${own.toFixed(4)})`);
    assert.ok(during < 0.01, `CLS while the snapshot is shown: ${during}`);
    assert.ok(after < 0.01, `CLS after the snapshot: ${after}`);
    assert.ok(own < 0.01, `CLS without a snapshot: ${own}`);
  });
}

for (const hash of ['#/systolic?rows=8', '#/flash?lang=zh&present=1', '#/fusion']) {
  test(`${hash}: no snapshot (parameters, or a route without one): the boot line, then the app`, async () => {
    const page = await heldPage(390, 844);
    await goto(page, hash);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.route), 'other');
    page.release();
    await appMounted(page);
    await chunkIn(page);
    await painted(page);
    assert.deepEqual(page.snaps, [], 'no snapshot fetched');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
