// Every panel of the registry opens without moving (issue 33's "no layout
// shift when the app takes over"): the page's first panel is laid out unseen
// until its stage is measured, its drawing painted at its final size and
// still for a few frames (src/ui/kit/panel/settle.rs), under the build's
// static snapshot where there is one; the frame waiting for a chunk is a
// screen tall. The browser's own layout-shift entries, summed from the
// navigation until the panel has settled and a moment after: < 0.01 (the
// "good" CLS is 0.1; before this a phone measured 0.13–0.32 on every panel,
// the footer shown and then pushed down, the stage redrawn to its width).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted } from './harness.mjs';

const env = withBrowser();

/** The registry's routes, from the start page's cards. */
async function routes() {
  const page = await newPage(env.browser);
  await open(page, env.srv.base, '#/');
  const ids = await page.$$eval('.app .card[data-topic]', (cards) => cards.map((c) => c.dataset.topic));
  await page.context().close();
  return ids;
}

/** The layout shifts (not after input) of a fresh visit to `hash`. */
async function shifts(hash, width, height) {
  const page = await newPage(env.browser, { serviceWorkers: 'block', viewport: { width, height } });
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((l) => window.__shifts.push(...l.getEntries().filter((e) => !e.hadRecentInput)
      .map((e) => ({ value: e.value, what: e.sources.map((s) => s.node?.className || s.node?.nodeName).join('+') }))))
      .observe({ type: 'layout-shift', buffered: true });
  });
  await open(page, env.srv.base, hash);
  await painted(page);
  // A moment for anything the panel does after its first paint.
  await page.evaluate(() => new Promise((r) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(r)), 300)));
  const list = await page.evaluate(() => window.__shifts);
  assert.deepEqual(page.errors, [], hash);
  await page.context().close();
  return { cls: list.reduce((t, s) => t + s.value, 0), what: list.map((s) => `${s.what} ${s.value.toFixed(4)}`) };
}

test('every panel opens without a layout shift: phone and screen, with and without its snapshot', async () => {
  const ids = await routes();
  assert.ok(ids.length >= 18, `${ids.length} routes`);
  const bad = [];
  const worst = { cls: 0 };
  for (const [width, height] of [[390, 844], [1440, 900]]) {
    for (const id of ids) {
      // A plain link (the snapshot, where the route has one), and one with a
      // parameter every route takes at its default (no snapshot, no notice).
      for (const hash of [`#/${id}`, `#/${id}?present=0${width < 600 ? '&lang=zh' : ''}`]) {
        const r = await shifts(hash, width, height);
        if (r.cls > worst.cls) Object.assign(worst, r, { hash, width });
        if (r.cls >= 0.01) bad.push(`${hash} at ${width}: CLS ${r.cls.toFixed(4)} (${r.what.join(', ')})`);
      }
    }
  }
  console.log(`${ids.length * 4} visits; the largest CLS ${worst.cls.toFixed(4)}${worst.hash ? ` (${worst.hash} at ${worst.width})` : ''}`);
  assert.deepEqual(bad, []);
});
