// The split build (issue 24): a page downloads only what it shows. For each
// entry point, every same-origin file the browser fetches until the page is
// shown is counted at its gzip -9 size (as a static host serves it) and
// logged; the start page must stay within 300 KB (no panel's code in it) and
// every entry point within 450 KB (issue 33: a regression guard, the panels
// measured 354–437 KB when it was set). A panel whose chunk isn't in yet
// fetches it when opened; one whose chunk can't be fetched says so and offers
// Retry, which then shows it. How long those take is a benchmark:
// `npm run bench:chunks` (tests/bench-chunks.mjs).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { withBrowser, newPage, open, painted, appShows, metric, DIST, TOPIC_IDS } from './harness.mjs';

const env = withBrowser();
/** The start page's budget: Yew, the router, the shell, the texts; no panel. */
const START_BUDGET = 300 * 1024;
/** Every entry point's: a regression guard (issue 33). */
const ENTRY_BUDGET = 450 * 1024;
/** A panel's static snapshot (src/prerender/snap.rs: its default view as SVG
 *  and its figures, fetched by web/pre.js beside the app's files): guarded on
 *  its own, so that the entry budgets above keep guarding the app's path
 *  (a picture of ≤ 3 KB is not the app's growth; #/systolic's app files were
 *  449 KB of 450 when the snapshots came). */
const SNAP_BUDGET = 4 * 1024;
/** #/llm?phase=train: #/llm's files and the training lens's chunk. */
const TRAIN_BUDGET = 530 * 1024;
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;

const gzCache = new Map();
function gz(file) {
  if (!gzCache.has(file)) gzCache.set(file, gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length);
  return gzCache.get(file);
}

/** Open `hash` on a fresh page (no service worker, empty cache) and list the
 *  same-origin files fetched until it is shown. */
async function firstVisit(hash) {
  const page = await newPage(env.browser, { serviceWorkers: 'block' });
  const files = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.origin === env.srv.origin) {
      const rel = decodeURIComponent(url.pathname.slice(new URL(env.srv.base).pathname.length)) || 'index.html';
      if (!files.includes(rel)) files.push(rel);
    }
  });
  await open(page, env.srv.base, hash);
  await painted(page);
  const shown = [...files];
  assert.deepEqual(page.errors, [], `${hash}: no errors`);
  await page.context().close();
  return shown;
}

describe('what a first visit downloads (gzip -9)', () => {
  const entries = ['#/', '#/systolic', '#/flash', '#/online-softmax?lang=zh', '#/llm'];
  for (const hash of entries) {
    const budget = hash === '#/' ? START_BUDGET : ENTRY_BUDGET;
    test(`${hash}: what it fetches until shown, within ${kb(budget)}`, async () => {
      const files = await firstVisit(hash);
      const snaps = files.filter((f) => f.startsWith('snap/'));
      const app = files.filter((f) => !f.startsWith('snap/'));
      const total = app.reduce((t, f) => t + gz(f), 0);
      console.log(`${hash}: ${kb(total)} in ${app.length} files (budget ${kb(budget)}), and its static snapshot\n` + files.map((f) => `    ${f}: ${kb(gz(f))}`).join('\n'));
      assert.ok(snaps.length <= 1, `${hash}: at most one snapshot: ${snaps}`);
      for (const f of snaps) assert.ok(gz(f) <= SNAP_BUDGET, `${f}: ${kb(gz(f))} > ${kb(SNAP_BUDGET)}`);
      assert.ok(files.some((f) => f.endsWith('_bg.wasm')), `${hash}: the main module`);
      if (hash !== '#/') assert.ok(files.some((f) => /^split_topic_/.test(f)), `${hash}: its panel's chunk`);
      // A main-module use of `topics::ALL` would bring every topic's practice
      // and lecture code back into the start page.
      else assert.ok(!files.some((f) => /^(split_|chunk_)/.test(f)), `the start page needs no chunk: ${files}`);
      // #/llm's training lens is a chunk of its own, fetched only by phase=train
      // (53 KB of the 502 #/llm measured with it).
      assert.ok(!files.some((f) => /^split_llm_train/.test(f)), `${hash}: not the training lens`);
      assert.ok(total <= budget, `${hash}: ${kb(total)} > ${kb(budget)}: ${files.join(', ')}`);
    });
  }
  test('the build is split: a chunk per panel at least', () => {
    const chunks = readdirSync(DIST).filter((f) => /^(split_|chunk_).*\.(wasm|js|css|json)$/.test(f));
    assert.ok(TOPIC_IDS.length >= 17, `the panel table lists the panels: ${TOPIC_IDS}`);
    assert.ok(chunks.length >= TOPIC_IDS.length, `${chunks.length} chunks for ${TOPIC_IDS.length} panels: ${chunks}`);
  });
});

test("#/llm?phase=train: the training lens's chunk, then its figures", async () => {
  const files = await firstVisit('#/llm?phase=train');
  assert.ok(files.some((f) => /^split_topic_llm/.test(f)) && files.some((f) => /^split_llm_train/.test(f)), files.join(', '));
  const total = files.reduce((t, f) => t + gz(f), 0);
  console.log(`#/llm?phase=train: ${kb(total)} in ${files.length} files`);
  // A deep link to the training lens: #/llm's files and the lens's (519 KB
  // when it became a chunk of its own); a guard against growth.
  assert.ok(total <= TRAIN_BUDGET, `${kb(total)} > ${kb(TRAIN_BUDGET)}`);
});

test("#/llm?phase=train: the training lens's chunks are asked for while the main module is still on its way (boot.js)", async () => {
  const page = await newPage(env.browser, { serviceWorkers: 'block' });
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/warpscope-[0-9a-f]+_bg\.wasm$/, async (r) => { await held; await r.continue(); });
  const asked = [];
  page.on('request', (r) => asked.push(r.url().split('/').pop()));
  await page.goto(env.srv.base + '#/llm?phase=train', { waitUntil: 'commit' });
  // The lens's own chunk, preloaded (not fetched by the panel, whose module
  // cannot run yet); and #/llm's.
  await page.waitForFunction(() => [...document.querySelectorAll('link[rel="preload"]')].some((l) => /split_llm_train-/.test(l.href)), null, { timeout: 30_000 });
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /split_llm_train-/.test(e.name) && e.responseEnd > 0), null, { timeout: 30_000 });
  assert.ok(asked.some((f) => /^split_topic_llm-/.test(f)), asked.join(', '));
  // A plain #/llm (and another query value) preloads no lens.
  const plain = await newPage(env.browser, { serviceWorkers: 'block' });
  await plain.goto(env.srv.base + '#/llm?phase=decode', { waitUntil: 'commit' });
  await plain.waitForFunction(() => [...document.querySelectorAll('link[rel="preload"]')].some((l) => /split_topic_llm-/.test(l.href)), null, { timeout: 30_000 });
  assert.equal(await plain.evaluate(() => [...document.querySelectorAll('link[rel="preload"]')].filter((l) => /split_llm_train-/.test(l.href)).length), 0);
  await plain.context().close();
  release();
  await appShows(page, '.app [data-metric="train-step-ms"]', 'the training lens after its preloaded chunk');
  await painted(page);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

describe('a panel whose chunk is not in yet', () => {
  test('a deep link shows it; a move from the start page without a hover fetches it then, and shows it', async () => {
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    const flash = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /split_topic_flash-/.test(e.name)).length);
    await page.goto(env.srv.base + '#/systolic');
    await painted(page);
    assert.equal(await page.locator('[data-chunk="systolic"][data-chunk-state]').count(), 0, 'the panel, not its frame');
    await open(page, env.srv.base, '#/');
    await page.reload();
    await appShows(page, '.landing', 'the start page after a reload');
    assert.equal(await flash(), 0, "flash's chunk is not fetched before it is asked for");
    await page.evaluate(() => { location.hash = '#/flash'; });
    await painted(page);
    assert.ok((await flash()) >= 1, "flash's chunk fetched on the move");
    assert.equal(await page.locator('[data-chunk="flash"][data-chunk-state]').count(), 0, 'the panel, not its frame');
    assert.ok(Number.isFinite(await metric(page, await page.getAttribute('[data-metric]', 'data-metric'))));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('a chunk that fails to load', () => {
  test('the panel says so and offers Retry, which then shows it', async () => {
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    let refused = 0;
    const kill = (route) => {
      refused += 1;
      return route.abort('internetdisconnected');
    };
    await page.route(/split_topic_flash-[0-9a-f]+\.wasm/, kill);
    await page.goto(env.srv.base + '#/flash');
    const retry = page.locator('[data-testid="chunk-retry"]');
    await appShows(page, '[data-testid="chunk-retry"]', 'Retry in place of a panel whose chunk failed');
    assert.ok(refused >= 1, 'the chunk was asked for');
    // The frame stays: the panel's title above the message.
    assert.match(await page.locator('[data-chunk="flash"] h1').innerText(), /\S/);
    assert.match(await page.locator('[data-testid="chunk-failed"]').innerText(), /could not be loaded/);
    await page.unroute(/split_topic_flash-[0-9a-f]+\.wasm/, kill);
    await retry.click();
    await painted(page);
    assert.ok(Number.isFinite(await metric(page, (await page.getAttribute('[data-metric]', 'data-metric')))));
    assert.equal(await page.locator('[data-testid="chunk-failed"]').count(), 0);
    // Only the failed loads were reported.
    assert.ok(page.errors.every((e) => /flash|fetch|Failed|network|ERR_/i.test(e)), page.errors.join('\n'));
    await page.context().close();
  });

  test('a link hovered fetches its panel ahead, so it shows at once', async () => {
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    await open(page, env.srv.base, '#/');
    const fetched = [];
    page.on('request', (r) => fetched.push(r.url()));
    await page.hover('.card[data-topic="tiling"] a');
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /split_topic_tiling-/.test(e.name)));
    assert.ok(fetched.some((u) => /split_topic_tiling-/.test(u)), 'prefetched on hover');
    await page.click('.card[data-topic="tiling"] a');
    await painted(page);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
