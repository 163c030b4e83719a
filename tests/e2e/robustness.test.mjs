// Crashes, freezes and state that disagrees with the URL: what a hostile-input
// run found, each as a test, plus a seeded run of generated hostile URLs over
// the whole registry (arbitrary Unicode, repeated and broken parameters).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, metric, waitForQuery, painted, appShows, READY_MS } from './harness.mjs';

const env = withBrowser();

/** Set the hash in place (a navigation without reload, as a link or back does). */
async function goHash(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
}

async function noPanic(page, what) {
  assert.equal(await page.locator('#panic-card').count(), 0, `${what}: panic card`);
  assert.deepEqual(page.errors, [], `${what}: page errors`);
}

describe('input from a Chinese keyboard', () => {
  test('divergence: 3- and 4-byte characters in the condition give a notice, not a crash', async () => {
    const page = await newPage(env.browser);
    for (const cond of ['%EF%BC%95', 'tid%EF%BC%882', encodeURIComponent('🚀'), encodeURIComponent('线程')]) {
      await open(page, env.srv.base, `#/divergence?cond=${cond}`);
      await painted(page);
      assert.equal(await page.locator('[data-notice-param="cond"]').count(), 1, cond);
      assert.equal(await metric(page, 'total-steps'), 80, `${cond}: the default condition runs`);
      await noPanic(page, cond);
    }
    // The full-width parenthesis names the fix.
    await open(page, env.srv.base, '#/divergence?cond=tid%EF%BC%882');
    await painted(page);
    assert.match(await page.locator('[data-notice-param="cond"]').innerText(), /full-width character/);
    // Typed into the box: an error with a caret under the character.
    for (const typed of ['tid（2', '线程', 'tid < 1🚀']) {
      const input = page.locator('#param-cond');
      await input.fill(typed);
      const err = page.getByTestId('cond-error');
      await err.waitFor();
      const lines = (await err.innerText()).split('\n');
      assert.equal(lines[1], typed);
      const at = await page.locator('.cond-error-at').innerText();
      assert.ok(at.length > 0 && typed.includes(at), `${typed}: the character at fault is marked (${at})`);
      await noPanic(page, typed);
    }
    await page.context().close();
  });

  test('fusion and online softmax: the same characters are errors at their place', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, `#/fusion?expr=${encodeURIComponent('sin（x）')}`);
    await painted(page);
    assert.equal(await page.locator('[data-notice-param="expr"]').count(), 1);
    await noPanic(page, 'fusion');
    await open(page, env.srv.base, `#/online-softmax?x=${encodeURIComponent('1，3，2，5')}`);
    await painted(page);
    assert.equal(await page.locator('[data-notice-param="x"]').count(), 0, 'a full-width comma separates values');
    await open(page, env.srv.base, `#/online-softmax?x=${encodeURIComponent('1,线,🚀')}`);
    await painted(page);
    assert.match(await page.locator('[data-notice-param="x"]').innerText(), /线/);
    await noPanic(page, 'softmax');
    await page.context().close();
  });
});

describe('crashes', () => {
  test('a panic shows the card (hook kept by Yew), in both languages', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/threads');
    await painted(page);
    await page.evaluate(() => {
      try { window.wasmBindings.warpscope_test_panic(); } catch (e) { /* the trap after the hook */ }
    });
    const card = page.locator('#panic-card');
    await card.waitFor();
    const text = await card.innerText();
    assert.match(text, /test panic/);
    assert.match(text, /[\u4e00-\u9fff]/, 'Chinese too');
    page.errors = []; // the panic is logged on purpose
    await page.context().close();
  });

  test('flash with millions of tiles loads and steps', async () => {
    const page = await newPage(env.browser);
    for (const hash of ['#/flash?n=32768&bq=1&bk=1', '#/flash?n=65536&d=64&bq=1&bk=1&causal=0']) {
      await open(page, env.srv.base, hash);
      await painted(page);
      const steps = await page.locator('[data-testid="player-scrub"]').getAttribute('max');
      assert.ok(Number(steps) > 1000, hash);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-metric="step"]')?.dataset.value === '1');
      await noPanic(page, hash);
    }
    await page.context().close();
  });

  test('broken hashes: a notice and the start page, whether loaded or navigated to', async () => {
    const page = await newPage(env.browser);
    for (const hash of ['#/\\', '#/\\\\evil.example', '#/\\evil.example']) {
      await open(page, env.srv.base, hash);
      await page.waitForSelector('[data-notice-param="#"]');
      assert.ok((await page.locator('.card[data-topic]').count()) >= 17, hash);
      await noPanic(page, hash);
      // The same by a hash change from a panel.
      await open(page, env.srv.base, '#/threads');
      await painted(page);
      await goHash(page, hash.slice(1));
      await page.waitForSelector('[data-notice-param="#"]');
      assert.equal(await page.locator('.panel-header').count(), 0, `${hash}: the old panel is gone`);
      await noPanic(page, `${hash} by hashchange`);
    }
    // A bare '#' (a click on <a href="#">).
    await open(page, env.srv.base, '#/threads');
    await painted(page);
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = 'top';
      document.body.append(a);
      a.click();
    });
    await page.waitForSelector('.landing');
    await noPanic(page, 'bare #');
    await page.context().close();
  });
});

describe('the URL always wins', () => {
  test('a navigation back to a query written earlier is adopted (hash change and Back)', async () => {
    const page = await newPage(env.browser);
    const base = '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3';
    await open(page, env.srv.base, base);
    await painted(page);
    assert.equal(await metric(page, 'cycle'), 3);
    await page.keyboard.press('ArrowRight');
    await waitForQuery(page, 'cycle', '4');
    await goHash(page, `${base.slice(1)}&lang=en`);
    await page.waitForFunction(() => document.querySelector('[data-metric="cycle"]').dataset.value === '3');
    await waitForQuery(page, 'cycle', '3');
    // Right away, before the throttled write of the step has landed: the
    // pending write must not drag the URL (or the panel) back.
    await page.keyboard.press('ArrowRight');
    await goHash(page, `${base.slice(1).replace('cycle=3', 'cycle=7')}&lang=en`);
    await page.waitForFunction(() => document.querySelector('[data-metric="cycle"]').dataset.value === '7');
    await page.waitForTimeout(400);
    assert.equal(await metric(page, 'cycle'), 7);
    await waitForQuery(page, 'cycle', '7');
    // Back.
    await open(page, env.srv.base, '#/threads?thread=5');
    await painted(page);
    await goHash(page, '/threads?thread=7');
    await page.waitForFunction(() => document.querySelector('[data-testid="notices"]') === null
      && document.querySelector('.panel-header') !== null);
    await page.goBack();
    await waitForQuery(page, 'thread', '5');
    await page.waitForFunction(() => document.querySelector('.thread-readout, [data-metric]') !== null);
    assert.match(await page.evaluate(() => location.hash), /thread=5/);
    await noPanic(page, 'back');
    await page.context().close();
  });

  test('n=1e6 in a link is read as the number box reads 1e3 (issue 22)', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/fusion?n=1e6&lang=zh');
    await painted(page);
    assert.equal(await page.locator('[data-notice-param="n"]').count(), 0, 'no notice');
    assert.equal(await page.locator('.slider[data-param="n"] input[type=number]').inputValue(), '1000000');
    await open(page, env.srv.base, '#/fusion?n=1.5');
    await painted(page);
    assert.equal(await page.locator('[data-notice-param="n"]').count(), 1, 'a fraction is still refused');
    await noPanic(page, 'n=1e6');
    await page.context().close();
  });

  test('repeated parameters: the bad earlier copies are named', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/threads?thread=-1&thread=30');
    await painted(page);
    assert.match(await page.locator('[data-notice-param="thread"]').innerText(), /-1/);
    await open(page, env.srv.base, '#/threads?lang=1&lang=zh');
    await painted(page);
    assert.equal(await page.locator('[data-notice-param="lang"]').count(), 1);
    await open(page, env.srv.base, '#/quantization?zap=4294967295&present=maybe&section=128&tile=5120&present=1');
    await painted(page);
    for (const p of ['zap', 'present', 'tile']) {
      assert.equal(await page.locator(`[data-notice-param="${p}"]`).count(), 1, p);
    }
    await noPanic(page, 'repeated');
    await page.context().close();
  });
});

describe('strings cannot go missing', () => {
  test('every topic in both languages: no raw key, no unfilled {placeholder}, canvas text included', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/');
    const ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
    // Mid-run positions too, where captions name the current step.
    for (const lang of ['en', 'zh']) {
      for (const id of ids) {
        for (const extra of ['', '&step=4&cycle=4']) {
          await open(page, env.srv.base, `#/${id}?lang=${lang}${extra}`);
          await painted(page);
          const text = await page.evaluate(() => document.body.innerText);
          assert.doesNotMatch(text, /\{[a-z][a-z0-9_-]*\}/i, `${id} ${lang}: unfilled placeholder`);
          // A missing key or a missing argument is reported on the console by i18n.
          assert.deepEqual(page.errors, [], `${id} ${lang}${extra}`);
        }
      }
    }
    await page.context().close();
  });
});

// The service worker is blocked here: it would answer from its cache the
// requests these tests count or make fail.
describe('texts are loaded per language', () => {
  test('a page downloads the language it shows, the other one when asked for', async () => {
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    // The shared file of each language; a topic's own texts in a file of
    // their own (strings.<lang>.<id>.json), fetched with its panel.
    const texts = [];
    const parts = [];
    page.on('request', (r) => {
      const file = r.url().split('/').pop();
      if (/^strings\.\w+\.json$/.test(file)) texts.push(file);
      if (/^strings\.\w+\.[a-z-]+\.json$/.test(file)) parts.push(file);
    });
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=3');
    await painted(page);
    assert.deepEqual(texts, ['strings.en.json']);
    assert.ok(parts.includes('strings.en.systolic.json') && !parts.some((f) => f.startsWith('strings.zh.')), `${parts}`);
    await page.getByTestId('lang-switch').click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.locator('.panel-header h1').innerText(), '脉动阵列（TPU 的 MXU）');
    assert.equal(await metric(page, 'cycle'), 3);
    assert.deepEqual(texts, ['strings.en.json', 'strings.zh.json']);
    assert.ok(parts.includes('strings.zh.systolic.json'), `${parts}`);
    assert.equal(parts.filter((f) => f === 'strings.en.systolic.json').length, 1, 'each file once');
    // Back and forth needs no more downloads.
    await page.getByTestId('lang-switch').click();
    await waitForQuery(page, 'lang', 'en');
    await page.getByTestId('lang-switch').click();
    await waitForQuery(page, 'lang', 'zh');
    assert.equal(texts.length, 2);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("texts that can't be loaded: a message, never a blank page", async () => {
    const failed = (page) => page.errors.filter((e) => !/Failed to load resource/.test(e));
    // The other language fails: the page stays usable in the one it has.
    let page = await newPage(env.browser, { serviceWorkers: 'block' });
    await page.route(/strings\.zh\.json$/, (r) => r.abort());
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=3');
    await painted(page);
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('texts-failed').waitFor();
    assert.match(await page.getByTestId('texts-failed').innerText(), /strings\.zh\.json/);
    assert.equal(await page.locator('.panel-header h1').innerText(), 'Systolic array (TPU MXU)');
    await page.keyboard.press('ArrowRight');
    await waitForQuery(page, 'cycle', 4);
    assert.deepEqual(failed(page), []);
    await page.context().close();
    // Texts of another build (a tab left open across a deploy) are refused the same way.
    page = await newPage(env.browser, { serviceWorkers: 'block' });
    await page.route(/strings\.zh\.json$/, async (r) => {
      const texts = await (await r.fetch()).json();
      await r.fulfill({ json: { ...texts, _build: 'another' } });
    });
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=3');
    await painted(page);
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('texts-failed').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual(failed(page), []);
    await page.context().close();
    // No texts at all: both languages say so, with a reload button.
    page = await newPage(env.browser, { serviceWorkers: 'block' });
    await page.route(/strings\.\w+\.json$/, (r) => r.abort());
    await page.goto(env.srv.base + '#/systolic?lang=zh');
    const alert = page.locator('#boot[role="alert"]');
    await alert.waitFor({ timeout: READY_MS });
    const text = await alert.innerText();
    assert.match(text, /无法加载界面文字（strings\.zh\.json）/);
    assert.match(text, /The texts could not be loaded \(strings\.zh\.json\)/);
    assert.equal(await alert.locator('button').count(), 1);
    assert.deepEqual(failed(page), []);
    await page.context().close();
  });
});

describe('the lecture hall', () => {
  test('a clicker (PageDown/PageUp) steps the player after a slider or a preset was clicked', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3');
    await painted(page);
    const k = await page.locator('.slider[data-param="k"] input[type="range"]');
    await k.focus();
    await page.keyboard.press('PageDown');
    await waitForQuery(page, 'cycle', '4');
    assert.equal(await metric(page, 'total-cycles'), 12, 'k unchanged');
    await page.keyboard.press('PageUp');
    await page.keyboard.press('PageUp');
    await waitForQuery(page, 'cycle', '2');
    // A preset opens at its first cycle; Space then plays, it does not press the preset again.
    await page.locator('[data-preset]').nth(1).click();
    await waitForQuery(page, 'rows', '8');
    await waitForQuery(page, 'cycle', '0');
    const y = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageUp');
    await waitForQuery(page, 'cycle', '1');
    assert.equal(await page.evaluate(() => window.scrollY), y, 'the page did not scroll');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('narrow screens', () => {
  test('every page fits a 360 px phone without sideways scroll, in both languages', async () => {
    const page = await newPage(env.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await open(page, env.srv.base, '#/');
    const ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
    for (const lang of ['en', 'zh']) {
      for (const id of ['', ...ids]) {
        await open(page, env.srv.base, `#/${id}?lang=${lang}`);
        await painted(page);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 360, `${id || 'landing'} ${lang}: ${width} px wide`);
      }
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

// ---------------------------------------------------------------------------
// Generated hostile URLs (seeded, so a failure names a reproducible URL).

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hostileUrls(topics, count, seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const int = (n) => Math.floor(r() * n);
  const unicodeChar = () => {
    const ranges = [[0x20, 0x7e], [0xa0, 0x2ff], [0x300, 0x36f], [0x4e00, 0x9fff], [0xff01, 0xff5e],
      [0x3000, 0x303f], [0x590, 0x6ff], [0x200b, 0x200f], [0x1f300, 0x1faff], [0x20000, 0x2a6df]];
    const [lo, hi] = pick(ranges);
    return String.fromCodePoint(lo + int(hi - lo + 1));
  };
  const unicode = (n) => Array.from({ length: n }, unicodeChar).join('');
  const value = (spec) => {
    const k = int(16);
    switch (k) {
      case 0: return String(-1 - int(1e6));
      case 1: return '9'.repeat(1 + int(40));
      case 2: return pick(['NaN', 'Infinity', '-0', '1e309', '0x10', '1.5', ' 7 ']);
      case 3: return '';
      case 4: return unicode(1 + int(12));
      case 5: return 'x'.repeat(int(3) === 0 ? 10000 : 300);
      case 6: return unicode(3000);
      case 7: return spec?.options ? pick(spec.options) : String(spec?.min ?? 0);
      case 8: return spec?.max !== undefined ? String(spec.max) : '1';
      case 9: return spec?.min !== undefined ? String(spec.min) : '0';
      default: return spec?.kind === 'int' ? String(int(1 << 20)) : unicode(int(4)) + String(int(100));
    }
  };
  const enc = (s) => {
    // Mostly well encoded; sometimes raw or with broken escapes.
    const k = int(10);
    if (k === 0) return s.replace(/[#&]/g, '');
    if (k === 1) return encodeURIComponent(s) + pick(['%', '%Z', '%E0%A4%A', '%FF', '%C0%AF']);
    return encodeURIComponent(s);
  };
  const urls = [];
  for (let i = 0; i < count; i++) {
    const t = pick(topics);
    const pairs = [];
    const n = 1 + int(5);
    for (let j = 0; j < n; j++) {
      const c = int(10);
      if (c < 6) {
        const spec = pick(t.params);
        pairs.push([spec.name, value(spec)]);
        if (int(4) === 0) pairs.push([spec.name, value(spec)]); // repeated
      } else if (c === 6) {
        pairs.push([pick(['lang', 'present']), pick(['zh', 'en', '1', '0', 'maybe', unicode(3)])]);
      } else if (c === 7) {
        pairs.push([unicode(1 + int(6)), value(null)]);
      } else if (c === 8) {
        pairs.push([pick(['zap', 'embed', 'practice', '__proto__', 'constructor']), value(null)]);
      } else {
        pairs.push([pick(t.params).name, '']);
      }
    }
    const q = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join(pick(['&', '&', '&', '&&', ';']));
    const route = int(20) === 0 ? pick(['', 'nope', unicode(4), '%E0%A4%A', t.id + '/x']) : t.id;
    urls.push(`#/${route}?${q}`);
  }
  return urls;
}

describe('generated hostile URLs over the whole registry', () => {
  test('1,000 seeded URLs: every one gives a working page, no panic, no uncaught error', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/');
    const topics = await page.$$eval('.card[data-topic]', (cards) =>
      cards.map((c) => ({ id: c.dataset.topic, params: JSON.parse(c.dataset.paramSpec) })));
    assert.ok(topics.length >= 17);
    const urls = hostileUrls(topics, 1000, 20261129);
    for (const [i, hash] of urls.entries()) {
      if (i % 50 === 0) {
        await open(page, env.srv.base, hash); // a fresh load now and then
      } else {
        await goHash(page, hash.slice(1));
      }
      await appShows(page, '[data-metric], .landing', `#${i} ${hash.slice(0, 300)}: a page rendered`);
      assert.equal(await page.locator('#panic-card').count(), 0, `#${i} ${hash.slice(0, 300)}`);
      assert.deepEqual(page.errors, [], `#${i} ${hash.slice(0, 300)}`);
      // The page's text, once the hash change is rendered (the wait above may
      // still see the previous page's figures): a page that stays blank fails.
      const text = await page.waitForFunction(() => document.body.innerText.length > 50, null, { timeout: READY_MS })
        .then(() => true, () => false);
      assert.ok(text, `#${i} ${hash.slice(0, 300)}: blank page`);
    }
    await page.context().close();
  });
});

describe('the pages that are not panels (issue 22, hostile inputs)', () => {
  /** The notice params shown on the page. */
  const noticed = (page) => page.$$eval('[data-notice-param]', (els) => els.map((e) => e.dataset.noticeParam));

  test('#/practice: a notice for every bad or unknown value, kept over the page\'s own rewrite', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/practice?round=abc&part=zz&zap=1');
    await page.locator('[data-testid="round-question"]').first().waitFor();
    // The URL is rewritten to a fresh round; the notices stay.
    await page.waitForFunction(() => /round=\d+/.test(location.hash) && !/zap/.test(location.hash));
    await page.waitForTimeout(200);
    assert.deepEqual((await noticed(page)).sort(), ['part', 'round', 'zap']);
    const seed = new URLSearchParams(await page.evaluate(() => location.hash.split('?')[1])).get('round');
    assert.match(await page.locator('[data-notice-param="round"]').innerText(), new RegExp(seed));
    for (const [given, used] of [['4294967296', '4294967295'], ['-1', '0']]) {
      await goHash(page, `#/practice?round=${given}&lang=en`);
      await page.locator('[data-notice-param="round"]').waitFor();
      await page.waitForFunction((g) => !location.hash.includes(`round=${g}&`) && /round=\d+/.test(location.hash), given);
      const round = await page.locator('[data-testid="practice-round"]').getAttribute('data-round');
      if (used) assert.equal(round, used, given);
      assert.deepEqual(await noticed(page), ['round'], given);
    }
    // A whole number in scientific notation is a round like any other (as n=1e6 on a panel).
    await goHash(page, '#/practice?round=1e3&lang=en');
    await page.waitForFunction(() => document.querySelector('[data-testid="practice-round"]')?.getAttribute('data-round') === '1000');
    assert.deepEqual(await noticed(page), []);
    // A clean round: no notice.
    await goHash(page, '#/practice?round=7&part=tpu&lang=zh');
    await page.waitForFunction(() => document.querySelectorAll('[data-notice-param]').length === 0);
    await noPanic(page, 'practice');
    await page.context().close();
  });

  test('#/deck and #/: unknown values give notices; a stale deck error clears with the next link', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/deck?zap=1');
    await page.locator('[data-testid="deck-page"]').waitFor();
    assert.deepEqual(await noticed(page), ['zap']);
    await open(page, env.srv.base, '#/?zap=1&lang=zh');
    await page.locator('.landing').waitFor();
    assert.deepEqual(await noticed(page), ['zap']);
    await goHash(page, '#/deck?v=/nope');
    await page.waitForFunction(() => /\/nope/.test(document.querySelector('[data-testid="notices"]')?.innerText ?? ''));
    await goHash(page, '#/deck?title=x');
    await page.waitForFunction(() => !document.querySelector('[data-testid="notices"]'));
    await noPanic(page, 'deck');
    await page.context().close();
  });

  test('deck views drop global parameters (link and file), keep a quiz view, and an empty file empties nothing', async () => {
    const page = await newPage(env.browser);
    // A link whose view would embed: the view is kept without embed, with a notice, and presented on request.
    const v1 = encodeURIComponent('/threads?embed=1');
    await open(page, env.srv.base, `#/deck?v=${v1}&t=one&v=%2Fwaves&t=two`);
    await page.locator('[data-testid="deck-link-held"]').waitFor();
    assert.deepEqual(await noticed(page), ['v']);
    await page.locator('[data-testid="deck-link-present"]').click();
    await page.locator('[data-testid="deck-bar"][data-view="1"][data-views="2"]').waitFor();
    const hash = await page.evaluate(() => location.hash);
    assert.ok(!/embed/.test(hash), hash);
    assert.equal(await page.evaluate(() => document.documentElement.classList.contains('embed')), false);
    await page.keyboard.press('PageDown');
    await page.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    // A practice question is a quiz view, kept on purpose.
    await open(page, env.srv.base, `#/deck?v=${encodeURIComponent('/waves?practice=1&q=5&lang=zh')}&t=quiz`);
    await page.locator('[data-testid="deck-page"]').waitFor();
    assert.deepEqual(await noticed(page), ['v']);
    await page.locator('[data-testid="deck-link-present"]').click();
    await page.locator('[data-testid="practice-card"][data-seed="5"]').waitFor();
    // Files: globals dropped with a notice; `[]` and an empty deck refused, the deck kept.
    await open(page, env.srv.base, '#/deck');
    const file = (text) => ({ name: 'deck.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.locator('[data-testid="deck-import"]').setInputFiles(
      file(JSON.stringify({ views: [{ url: '/waves?n=1664&present=1&deck=3' }, { url: '/threads' }] })),
    );
    await page.locator('[data-testid="deck-page"][data-views="2"]').waitFor();
    assert.deepEqual(await noticed(page), ['v']);
    assert.equal(await page.locator('.deck-view-url').first().innerText(), '/waves?n=1664');
    for (const empty of ['[]', '{"title": "t", "views": []}']) {
      await page.locator('[data-testid="deck-import"]').setInputFiles(file(empty));
      await page.locator('[data-notice-param="file"]').waitFor();
      assert.equal(await page.locator('[data-testid="deck-page"]').getAttribute('data-views'), '2', empty);
    }
    await noPanic(page, 'deck import');
    await page.context().close();
  });
});

describe('a clicker leaves a long view (issue 22, item 9)', () => {
  test('B, . and , move between views wherever the player is; the panel arrows hide while a deck is presented', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1024, height: 768 } });
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6');
    await painted(page);
    assert.equal(await page.locator('.neighbours').count(), 1);
    assert.equal(await page.locator('[data-testid="deck-open"]').count(), 1);
    const v = (u) => encodeURIComponent(u);
    await open(page, env.srv.base,
      `#/deck?v=${v('/systolic?rows=32&cols=32&m=64&k=256&n=128&dataflow=ws&cycle=0')}&t=long&v=${v('/waves?n=1664')}&t=waves&v=${v('/threads')}&t=threads`);
    await page.locator('[data-testid="deck-bar"][data-view="1"]').waitFor();
    await painted(page);
    assert.equal(await page.locator('.neighbours').count(), 0, 'no lecture-order arrows beside the deck bar');
    await page.keyboard.press('PageDown');
    await waitForQuery(page, 'cycle', '1');
    await page.keyboard.press('b');
    await page.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    await painted(page);
    await page.keyboard.press('.');
    await page.locator('[data-testid="deck-bar"][data-view="3"]').waitFor();
    await page.keyboard.press(',');
    await page.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    // The deck's key help says so, in both languages.
    await open(page, env.srv.base, '#/deck?lang=en');
    assert.match(await page.locator('[data-testid="deck-page"]').innerText(), /B or the full stop “\.” .*next view/);
    await open(page, env.srv.base, '#/deck?lang=zh');
    await page.waitForFunction(() => /B 或句号“\.”/.test(document.querySelector('[data-testid="deck-page"]')?.innerText ?? ''));
    // The landing page links to the deck.
    await open(page, env.srv.base, '#/?lang=en');
    await page.locator('[data-testid="landing-deck"] a').click();
    await page.locator('[data-testid="deck-page"]').waitFor();
    await noPanic(page, 'clicker');
    await page.context().close();
  });
});
