// Issue 32, third pass of the lecture hall: a deck that can never be lost
// (a long link, a stored deck that fails a check, storage full, site data
// blocked), #/lecture's notices, a panel's notices in practice mode, and
// FlashAttention-1's loop order on slide 49.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, chunkIn } from './harness.mjs';

const env = withBrowser();

const DECK_KEY = 'warpscope.deck';
/** Online softmax with 1,000 values: a link of about 7,000 characters. */
const LONG = `/online-softmax?x=${Array.from({ length: 1000 }, (_, i) => (i % 97) / 10).join('%2C')}&block=2&step=0`;
const GOOD = [
  { url: '/threads?n=1000&block=256', title: 'Threads', note: '' },
  { url: '/waves?gpu=a100&n=1792&tm=256&tn=128&ref=1792', title: 'Waves', note: 'two waves' },
];

async function storedDeck(page) {
  return page.evaluate((k) => JSON.parse(localStorage.getItem(k)), DECK_KEY);
}

async function putDeck(page, deck) {
  await page.evaluate(([k, d]) => localStorage.setItem(k, JSON.stringify(d)), [DECK_KEY, deck]);
}

/** Go to another hash in the same document (what is in memory stays). */
async function go(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector('.app');
  await chunkIn(page);
}

describe('a deck that can never be lost', () => {
  test('"+ Deck" refuses a view whose link the stored deck would not keep, before writing', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/');
    await putDeck(page, { title: 'Mine', views: GOOD });
    await open(page, env.srv.base, `#${LONG}`);
    await painted(page);
    assert.ok(LONG.length > 4000, `${LONG.length}`);
    await page.locator('[data-testid="deck-add"]').click();
    const refused = page.locator('[data-testid="deck-refused"]');
    await refused.waitFor();
    assert.match(await refused.innerText(), /4000/);
    assert.equal(await page.locator('[data-testid="deck-added"]').count(), 0);
    // Nothing written: the deck is as it was, and #/deck shows it.
    assert.deepEqual(await storedDeck(page), { title: 'Mine', views: GOOD });
    await go(page, '#/deck');
    await page.waitForSelector('[data-testid="deck-page"][data-views="2"]');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a stored deck that fails a check is kept, its bad view marked, and never overwritten', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/');
    const views = [GOOD[0], { url: LONG, title: 'Long', note: '' }, GOOD[1]];
    await putDeck(page, { title: 'Old', views });
    await go(page, '#/deck');
    await page.waitForSelector('[data-testid="deck-page"][data-views="3"]');
    const bad = page.locator('[data-testid="deck-view"][data-bad="1"]');
    assert.equal(await bad.count(), 1);
    assert.match(await bad.locator('[data-testid="deck-view-bad"]').innerText(), /4000/);
    assert.equal(await page.locator('[data-testid="deck-view"]').nth(1).getAttribute('data-bad'), '1');
    // "+ Deck" on a panel adds to it: every earlier view still there.
    await go(page, '#/threads?n=64&block=32');
    await painted(page);
    await page.locator('[data-testid="deck-add"]').click();
    await page.locator('[data-testid="deck-added"]').waitFor();
    const deck = await storedDeck(page);
    assert.equal(deck.views.length, 4);
    assert.deepEqual(deck.views.slice(0, 3).map((v) => v.url), views.map((v) => v.url));
    await page.context().close();
  });

  test('a stored text that is not a deck is kept: "+ Deck" refuses, the deck page says why', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/');
    await page.evaluate((k) => localStorage.setItem(k, '{"views": [tru'), DECK_KEY);
    await go(page, '#/threads?n=64&block=32');
    await painted(page);
    await page.locator('[data-testid="deck-add"]').click();
    await page.locator('[data-testid="deck-refused"]').waitFor();
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), DECK_KEY), '{"views": [tru');
    await go(page, '#/deck');
    await page.locator('[data-testid="deck-unreadable"]').waitFor();
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), DECK_KEY), '{"views": [tru');
    await page.context().close();
  });
});

describe('storage full or blocked', () => {
  test('storage full: "+ Deck" and an import say they were not saved; Present shows this page\'s deck', async () => {
    const page = await newPage(env.browser);
    // An earlier presented deck, then a storage that refuses every write.
    await open(page, env.srv.base, '#/');
    await page.evaluate(() => localStorage.setItem('warpscope.deck.live', JSON.stringify({
      title: 'Earlier', views: [{ url: '/roofline?gpu=h100&dtype=bf16&op=relu&n=4096', title: 'Earlier', note: '' }],
    })));
    await page.evaluate(() => {
      Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };
    });
    await go(page, '#/threads?n=64&block=32');
    await painted(page);
    await page.locator('[data-testid="deck-add"]').click();
    const unsaved = page.locator('[data-testid="deck-unsaved"]');
    await unsaved.waitFor();
    assert.equal(await page.locator('[data-testid="deck-added"]').count(), 0);
    assert.match(await unsaved.innerText(), /not saved/i);
    assert.equal(await storedDeck(page), null);
    // An import: kept in the page, and it says it is not saved.
    await go(page, '#/deck');
    await page.waitForSelector('[data-testid="deck-page"][data-views="1"]');
    await page.locator('[data-testid="deck-import"]').setInputFiles({
      name: 'deck.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ title: 'Imported', views: GOOD })),
    });
    await page.waitForSelector('[data-testid="deck-page"][data-views="2"]');
    assert.match(await page.locator('[data-testid="deck-unsaved"]').innerText(), /Imported 2 views/);
    assert.equal(await storedDeck(page), null);
    // Present: the imported deck, from memory (never the earlier one).
    await page.locator('[data-testid="deck-present"]').click();
    await page.waitForSelector('[data-testid="deck-bar"][data-views="2"]');
    assert.match(await page.evaluate(() => location.hash), /^#\/threads\?n=1000/);
    await page.locator('[data-testid="storage-trouble"][data-trouble="full"]').waitFor();
    await page.context().close();
  });

  test('site data blocked: the page is not blank, says so, and works from memory', async () => {
    const page = await newPage(env.browser);
    await page.context().addInitScript(() => {
      for (const name of ['localStorage', 'sessionStorage']) {
        Object.defineProperty(window, name, {
          configurable: true,
          get() { throw new DOMException('The document is sandboxed', 'SecurityError'); },
        });
      }
    });
    await open(page, env.srv.base, '#/threads?n=64&block=32');
    await painted(page);
    await page.locator('[data-testid="storage-trouble"][data-trouble="blocked"]').waitFor();
    await page.locator('[data-testid="deck-add"]').click();
    await page.locator('[data-testid="deck-unsaved"]').waitFor();
    await go(page, '#/deck');
    await page.waitForSelector('[data-testid="deck-page"][data-views="1"]');
    await go(page, '#/');
    await page.waitForSelector('.landing');
    await page.locator('[data-testid="storage-trouble"]').waitFor();
    assert.deepEqual(page.errors.filter((e) => !/SecurityError|sandboxed/.test(e)), []);
    await page.context().close();
  });
});

describe('notices the lecture page and practice mode owe', () => {
  test('#/lecture names an unknown parameter and a study value it cannot use', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/lecture?zap=1&study=2');
    await page.locator('[data-notice-param="zap"]').waitFor();
    await page.locator('[data-notice-param="study"]').waitFor();
    await page.context().close();
    // Its own study=1 and the globals: no notice (a fresh page: global
    // notices stay up while the path is the same).
    const clean = await newPage(env.browser);
    await open(clean, env.srv.base, '#/lecture?study=1&lang=zh');
    await clean.waitForSelector('.app');
    assert.equal(await clean.locator('[data-testid="notices"]').count(), 0);
    await clean.context().close();
  });

  test('practice mode without a usable q keeps a panel\'s own notice (#/threads?practice=1&n=-5)', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/threads?practice=1&n=-5');
    // Practice mode draws a question and puts its q in the URL …
    await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1] ?? '').has('q'));
    await page.locator('[data-testid="practice-card"]').waitFor();
    // … and the notice about n stays.
    await page.locator('[data-notice-param="n"]').waitFor();
    assert.match(await page.locator('[data-notice-param="n"]').innerText(), /-5/);
    await page.context().close();
  });
});

describe('slide 49: FlashAttention-1 steps K/V blocks outer', () => {
  test('order=kv at step 2 is key block 0 × query block 1', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=fwd&step=2&dtype=bf16&sram=228&order=kv');
    await painted(page);
    const label = await page.locator('canvas[data-testid="scene-canvas"]').first().getAttribute('aria-label');
    assert.match(label, /key block 0 × query block 1/);
    await open(page, env.srv.base, '#/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=fwd&step=3&dtype=bf16&sram=228');
    await painted(page);
    const fa2 = await page.locator('canvas[data-testid="scene-canvas"]').first().getAttribute('aria-label');
    assert.match(fa2, /query block 1 × key block 1/);
    await page.context().close();
  });
});
