// The static start page (issue 33): the build writes the start page's markup
// of both languages into index.html (src/prerender.rs) and web/pre.js picks
// the language and the route before the body paints, so a first visit sees
// the topic cards while the wasm is still arriving. Here the main wasm is
// held back (a route that answers only when the test says) so that the
// static page can be read before the app starts; then the app takes over:
// the same cards, with the same texts, at the same places (no layout shift:
// CLS < 0.01 from the browser's own layout-shift entries), in both
// languages; a click on a static card before the wasm opens that panel when
// the app starts; a deep link shows the boot line, never the cards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, appMounted, appShows, painted } from './harness.mjs';

const env = withBrowser();

/** A fresh page whose main wasm is held until `release()`, with the
 *  layout-shift entries recorded from the start. */
async function heldPage(initLang) {
  const page = await newPage(env.browser, { serviceWorkers: 'block' });
  await page.addInitScript((lang) => {
    if (lang) localStorage.setItem('warpscope.lang', JSON.stringify(lang));
    window.__shifts = [];
    new PerformanceObserver((l) => window.__shifts.push(...l.getEntries().map((e) => ({ value: e.value, input: e.hadRecentInput }))))
      .observe({ type: 'layout-shift', buffered: true });
  }, initLang ?? null);
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/warpscope-[0-9a-f]+_bg\.wasm$/, async (route) => { await held; await route.continue(); });
  page.release = release;
  return page;
}

/** Go to `hash` and wait until the document is parsed and painted (not
 *  for its load event, which waits for the held wasm's preload). */
async function goto(page, hash) {
  await page.goto(env.srv.base + hash, { waitUntil: 'commit' });
  // Parsed, with its stylesheets (which hold the first paint back) applied.
  await page.waitForFunction(() => document.readyState !== 'loading' &&
    [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => l.sheet));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** In the page: the visible start page's cards (the static copy or the
 *  app's): each card's text, box and link, and the markup's shape (each
 *  element's tag, class and href, in order). */
function startPage() {
  const app = [...document.querySelectorAll('.app')].find((e) => e.checkVisibility());
  if (!app) return null;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 2) / 2); };
  return {
    isStatic: app.classList.contains('static-start'),
    cards: [...app.querySelectorAll('.landing .card')].map((c) => ({ topic: c.dataset.topic, text: c.innerText, box: box(c), href: c.querySelector('a').getAttribute('href') })),
    headings: [...app.querySelectorAll('h1, h2, .lead, .site-header, .site-footer')].map((e) => ({ text: e.innerText, box: box(e) })),
    shape: [...app.querySelectorAll('*')].map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}${e.hasAttribute('href') ? `[${e.getAttribute('href')}]` : ''}`),
  };
}

for (const [label, hash, stored, lang] of [
  ['English (no lang=)', '#/', null, 'en'],
  ['中文 (lang=zh)', '#/?lang=zh', null, 'zh'],
  ['中文 (remembered)', '', 'zh', 'zh'],
]) {
  test(`start page, ${label}: the static cards before the wasm, then the app's, same text, same place, CLS < 0.01`, async () => {
    const page = await heldPage(stored);
    await goto(page, hash);
    const marks = await page.evaluate(() => ({ ...document.documentElement.dataset, lang: document.documentElement.lang }));
    assert.deepEqual(marks, { lang: lang === 'zh' ? 'zh-CN' : 'en', route: 'start' }, 'html marks');
    const dataLang = await page.evaluate(() => document.documentElement.dataset.lang);
    assert.equal(dataLang, lang);
    // Only the wanted language's copy is shown; the boot line is not.
    const shown = await page.evaluate(() => ({
      copies: [...document.querySelectorAll('.static-start')].filter((e) => e.checkVisibility()).map((e) => e.dataset.lang),
      line: document.querySelector('.boot-line').checkVisibility(),
    }));
    assert.deepEqual(shown, { copies: [lang], line: false });
    const before = await page.evaluate(startPage);
    assert.ok(before.isStatic, 'the static copy is shown while the wasm is held');
    assert.ok(before.cards.length >= 18, `${before.cards.length} static cards`);
    page.release();
    await appMounted(page, 'the app after the static page');
    await appShows(page, '.landing .card');
    // Two frames for any late layout to be counted.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = await page.evaluate(startPage);
    assert.equal(after.isStatic, false);
    assert.deepEqual(after.cards.map((c) => c.text), before.cards.map((c) => c.text), 'the cards\' texts');
    assert.deepEqual(after.cards, before.cards, 'the cards: topic, text, box, link');
    assert.deepEqual(after.headings, before.headings, 'the headings, header and footer');
    assert.deepEqual(after.shape, before.shape, 'the markup: elements, classes, links');
    const shifts = await page.evaluate(() => window.__shifts);
    const cls = shifts.filter((s) => !s.input).reduce((t, s) => t + s.value, 0);
    console.log(`${label}: ${before.cards.length} cards; CLS ${cls.toFixed(4)} (${shifts.length} layout-shift entries)`);
    assert.ok(cls < 0.01, `CLS ${cls}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a click on a static card before the wasm arrives opens that panel when the app starts', async () => {
  const page = await heldPage(null);
  await goto(page, '#/');
  await page.locator('.static-start[data-lang="en"] .card[data-topic="roofline"] a').click();
  const seen = () => ({
    hash: location.hash,
    route: document.documentElement.dataset.route,
    line: document.querySelector('.boot-line').checkVisibility(),
    cards: [...document.querySelectorAll('.static-start')].some((e) => e.checkVisibility()),
    snap: [...document.querySelectorAll('.static-snap')].find((e) => e.checkVisibility())?.querySelector('.panel-header h1')?.innerText ?? null,
  });
  // The click moved the hash and the cards went: the page says it is
  // starting (the boot line), and as soon as the roofline's snapshot has
  // arrived (`#/roofline?lang=en` is a plain URL of a route with one; how
  // soon depends on the machine) shows that instead.
  // (hashchange is a task of its own after the click's.)
  await page.waitForFunction(() => document.documentElement.dataset.route !== 'start', null, { timeout: 30_000 });
  const at = await page.evaluate(seen);
  assert.equal(at.hash, '#/roofline?lang=en');
  assert.equal(at.cards, false, 'the static cards are gone');
  assert.ok(at.route === 'other' ? at.line && !at.snap : at.route === 'snap' && !at.line && at.snap, JSON.stringify(at));
  await page.waitForFunction(() => document.documentElement.dataset.route === 'snap', null, { timeout: 30_000 });
  const snap = await page.evaluate(seen);
  assert.deepEqual({ ...snap, snap: !!snap.snap }, { hash: '#/roofline?lang=en', route: 'snap', line: false, cards: false, snap: true });
  page.release();
  await appMounted(page, 'the app after a click on a static card');
  await painted(page);
  assert.equal(await page.locator('article.panel[data-topic="roofline"]').count(), 1, 'the roofline panel');
  assert.equal(await page.locator('.landing').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// (#/fusion: a panel without a static snapshot (its stage is HTML); those with one: static-snap.test.mjs.)
for (const hash of ['#/fusion', '#/?present=1', '#/?lang=fr']) {
  test(`${hash}: not the start page as a first visit opens it, so the boot line, never the static cards`, async () => {
    const page = await heldPage(null);
    await goto(page, hash);
    const seen = await page.evaluate(() => ({
      route: document.documentElement.dataset.route,
      line: document.querySelector('.boot-line').checkVisibility(),
      cards: [...document.querySelectorAll('.static-start')].some((e) => e.checkVisibility()),
    }));
    assert.deepEqual(seen, { route: 'other', line: true, cards: false });
    page.release();
    await appMounted(page, hash);
    await page.context().close();
  });
}
