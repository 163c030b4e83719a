// End-to-end tests of the release build in headless Chromium.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROOT, TOPIC_IDS, serveDist, launch, newPage, open, metric, hashQuery, waitForQuery, painted, appShows,
} from './harness.mjs';

const SHOTS = join(ROOT, 'target', 'screenshots');
let srv;
let browser;

before(async () => {
  srv = await serveDist();
  browser = await launch();
  await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  srv?.server.close();
});

async function shot(page, name) {
  // From the top, so the sticky header is where a reader sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The registry, as the landing page publishes it. */
async function registry() {
  const page = await newPage(browser);
  await open(page, srv.base, '#/');
  const topics = await page.$$eval('.card[data-topic]', (cards) =>
    cards.map((c) => ({ id: c.dataset.topic, params: JSON.parse(c.dataset.paramSpec) })),
  );
  await page.context().close();
  return topics;
}

describe('shell', () => {
  test('landing page lists the panels that exist, by lecture part', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/');
    const ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
    assert.ok(TOPIC_IDS.length >= 17, `${TOPIC_IDS.length} topics in docs/panels.md's table`);
    assert.deepEqual(ids, TOPIC_IDS);
    const parts = await page.locator('.landing-part h2').allInnerTexts();
    assert.equal(parts.length, 4);
    assert.match(parts[0], /how a gpu works/i);
    assert.match(parts[3], /TPU/);
    await shot(page, 'landing');
    await page.locator('.card[data-topic="systolic"] a').click();
    await painted(page);
    assert.match(await page.evaluate(() => location.hash), /^#\/systolic\?/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('language switch: in the URL, remembered, whole panel translated', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3');
    await painted(page);
    await page.getByTestId('lang-switch').click();
    await waitForQuery(page, 'lang', 'zh');
    // The page changes language whole, once the Chinese texts are in.
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.locator('.panel-header h1').innerText(), '脉动阵列（TPU 的 MXU）');
    assert.equal(await page.locator('[data-metric="utilization"] .metric-label').innerText(), '利用率');
    assert.match(await page.locator('.slider[data-param="rows"] label').innerText(), /行数/);
    // State survives the switch.
    assert.equal(await metric(page, 'cycle'), 3);
    await shot(page, 'systolic-4x4-zh');
    // Remembered without lang in the URL.
    await open(page, srv.base, '#/systolic');
    await painted(page);
    assert.equal(await page.locator('.panel-header h1').innerText(), '脉动阵列（TPU 的 MXU）');
    await open(page, srv.base, '#/systolic?lang=en');
    await painted(page);
    assert.equal(await page.locator('.panel-header h1').innerText(), 'Systolic array (TPU MXU)');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('projector mode: key P, present=1, chrome hidden, legible at 1024x768', async () => {
    const page = await newPage(browser, { viewport: { width: 1024, height: 768 } });
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=5');
    await painted(page);
    await page.keyboard.press('p');
    await waitForQuery(page, 'present', '1');
    assert.equal(await page.evaluate(() => document.documentElement.className), 'present');
    assert.equal(await page.locator('.site-header').isVisible(), false);
    const size = await page.locator('.metric-value').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(size >= 24, `metric font ${size}px`);
    await shot(page, 'systolic-4x4-present-1024x768');
    await open(page, srv.base, '#/systolic?rows=128&cols=128&k=512&dataflow=os&seed=1&cycle=400&present=1');
    await painted(page);
    await shot(page, 'systolic-128-present-1024x768');
    await page.getByTestId('present-exit').click();
    await page.waitForFunction(() => document.documentElement.className === '');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('P keeps the view (issue 22, item 1)', () => {
  test('#/ → the Systolic card → PageDown ×3 → P: still #/systolic at cycle 3, present=1', async () => {
    const page = await newPage(browser, { viewport: { width: 1024, height: 768 } });
    await open(page, srv.base, '#/');
    await page.locator('.card[data-topic="systolic"] a').click();
    await painted(page);
    // Pressed as a clicker does, with no pause: P must not read a URL a step behind.
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
    await page.keyboard.press('p');
    await waitForQuery(page, 'present', '1');
    await page.waitForTimeout(400);
    assert.match(await page.evaluate(() => location.hash), /^#\/systolic\?/);
    const q = await hashQuery(page);
    assert.equal(q.cycle, '3');
    assert.equal(q.present, '1');
    assert.equal(await page.evaluate(() => document.documentElement.className), 'present');
    assert.match(await page.locator('.player-position').innerText(), /\b3\b/);
    // And back, still there.
    await page.keyboard.press('PageDown');
    await page.keyboard.press('P');
    await page.waitForFunction(() => !/present=1/.test(location.hash));
    await page.waitForTimeout(400);
    assert.equal((await hashQuery(page)).cycle, '4');
    assert.match(await page.evaluate(() => location.hash), /^#\/systolic\?/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('in a presented deck, P on view 2 stays on view 2 at its step', async () => {
    const page = await newPage(browser, { viewport: { width: 1024, height: 768 } });
    const v1 = encodeURIComponent('/waves?n=1664');
    const v2 = encodeURIComponent('/systolic?rows=4&cols=4&k=6&cycle=0');
    await open(page, srv.base, `#/deck?v=${v1}&t=one&v=${v2}&t=two`);
    await page.locator('[data-testid="deck-bar"][data-view="1"]').waitFor();
    await painted(page);
    await page.keyboard.press('PageDown');
    await page.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    await painted(page);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await page.keyboard.press('p');
    await page.waitForFunction(() => !/present=1/.test(location.hash));
    await page.waitForTimeout(400);
    let q = await hashQuery(page);
    assert.match(await page.evaluate(() => location.hash), /^#\/systolic\?/);
    assert.equal(q.deck, '2');
    assert.equal(q.cycle, '2');
    await page.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    await page.keyboard.press('p');
    await waitForQuery(page, 'present', '1');
    q = await hashQuery(page);
    assert.equal(q.deck, '2');
    assert.equal(q.cycle, '2');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a new page opens at its top; a change of query keeps the scroll', async () => {
    const page = await newPage(browser, { viewport: { width: 1024, height: 600 } });
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=0');
    await painted(page);
    await page.evaluate(() => window.scrollTo(0, 500));
    await page.keyboard.press('End');
    await waitForQuery(page, 'cycle', '12');
    assert.ok((await page.evaluate(() => window.scrollY)) > 100, 'the same page keeps its scroll');
    await page.evaluate(() => { location.hash = '#/waves?n=1664'; });
    await painted(page);
    await page.waitForFunction(() => window.scrollY === 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('systolic panel', () => {
  test('deep link restores state and metrics (rows=4, cols=4, k=6, cycle=3)', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3');
    await painted(page);
    assert.equal(await metric(page, 'cycle'), 3);
    assert.equal(await metric(page, 'total-cycles'), 12);
    assert.equal(await metric(page, 'utilization'), 0.5);
    assert.equal(await metric(page, 'busy-pes'), 6);
    assert.equal(await metric(page, 'max-abs-error'), 0);
    assert.equal(await metric(page, 'reads-per-operand'), 1);
    assert.equal(await metric(page, 'uses-per-operand'), 4);
    assert.equal(await page.getByTestId('notices').count(), 0);
    assert.equal(await page.locator('.slider[data-param="rows"] input[type=number]').inputValue(), '4');
    assert.equal(await page.getByTestId('phase').getAttribute('data-value'), 'fill');
    const q = await hashQuery(page);
    assert.deepEqual(q, { rows: '4', cols: '4', k: '6', dataflow: 'os', seed: '1', cycle: '3', lang: 'en' });
    await shot(page, 'systolic-4x4-cycle3');
    // Save as PNG downloads what the canvas shows, named after the state.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-png').click()]);
    assert.equal(download.suggestedFilename(), 'systolic-4x4x6-os-c3.png');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the lecture's numbers come out through the presets", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic');
    await painted(page);
    const cases = [
      ['4x4x6', 12, 0.5, '50%'],
      ['8x8x8', 22, 8 / 22, '36.4%'],
      ['8x8x512', 526, 512 / 526, '97.3%'],
    ];
    for (const [preset, cycles, util, shown] of cases) {
      await page.locator(`.preset[data-preset="${preset}"]`).click();
      await page.waitForFunction(
        (c) => document.querySelector('[data-metric="total-cycles"]')?.dataset.value === String(c), cycles);
      assert.ok(Math.abs((await metric(page, 'utilization')) - util) < 1e-12, preset);
      assert.equal(await page.locator('[data-metric="utilization"] .metric-value').innerText(), shown);
      assert.equal(await metric(page, 'max-abs-error'), 0);
      assert.equal(await metric(page, 'cycle'), 0, 'presets open at the first cycle');
      const [r] = preset.split('x');
      await waitForQuery(page, 'rows', r);
    }
    assert.equal(await metric(page, 'uses-per-operand'), 8, 'each value used by 8 PEs (8x8)');
    assert.match(await page.getByTestId('result').innerText(), /equals A·B/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('sliders change the state and the URL', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3');
    await painted(page);
    const k = page.locator('.slider[data-param="k"] input[type=number]');
    await k.fill('8');
    await k.press('Enter');
    await waitForQuery(page, 'k', '8');
    assert.equal(await metric(page, 'total-cycles'), 14);
    // The range input (logarithmic) moves rows.
    const range = page.locator('.slider[data-param="rows"] input[type=range]');
    await range.evaluate((el) => {
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForQuery(page, 'rows', '256');
    assert.equal(await metric(page, 'total-cycles'), 256 + 4 + 8 - 2);
    // Dataflow buttons.
    await page.locator('button[data-param="dataflow"][data-value="ws"]').click();
    await waitForQuery(page, 'dataflow', 'ws');
    assert.equal(await metric(page, 'max-abs-error'), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('player: buttons, keys, scrub; URL follows', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=3');
    await painted(page);
    await page.getByTestId('player-step').click();
    assert.equal(await metric(page, 'cycle'), 4);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    assert.equal(await metric(page, 'cycle'), 5);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await metric(page, 'cycle'), 3);
    await page.keyboard.press('End');
    assert.equal(await metric(page, 'cycle'), 12);
    assert.equal(await page.getByTestId('phase').getAttribute('data-value'), 'drain');
    await waitForQuery(page, 'cycle', '12');
    await page.keyboard.press('Home');
    assert.equal(await metric(page, 'cycle'), 0);
    await waitForQuery(page, 'cycle', '0');
    await page.getByTestId('player-scrub').evaluate((el) => {
      el.value = '7';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await metric(page, 'cycle'), 7);
    await waitForQuery(page, 'cycle', '7');
    // Play runs to the end by itself (fast speed), then stops.
    await page.getByTestId('player-speed').selectOption('64');
    await waitForQuery(page, 'speed', '64');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-metric="cycle"]').dataset.value === '12');
    await page.waitForSelector('[data-testid="player"][data-playing="false"]');
    await waitForQuery(page, 'cycle', '12');
    // Back button restores the previous URL state? Not used: replaceState keeps history clean.
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('screenshots: 4x4 mid-run, weight-stationary, 128x128, 256x256', async () => {
    const page = await newPage(browser);
    for (const [name, hash] of [
      ['systolic-4x4-mid', '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=5'],
      ['systolic-ws-4x4-mid', '#/systolic?rows=4&cols=4&k=6&dataflow=ws&seed=1&cycle=9'],
      ['systolic-128', '#/systolic?rows=128&cols=128&k=512&dataflow=os&seed=1&cycle=300'],
      ['systolic-256-ws', '#/systolic?rows=256&cols=256&k=4096&dataflow=ws&seed=1&cycle=1000'],
    ]) {
      await open(page, srv.base, hash);
      await painted(page);
      await shot(page, name);
    }
    // The 256 × 256 × 4,096 check is 0.5 G multiply-adds in background
    // slices (about a second here): a generous wait, since what is tested is
    // the result, not its speed.
    assert.equal(await metric(page, 'max-abs-error', { timeout: 120_000 }), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('execution-model panels', () => {
  test('threads: the lecture grid, formula, slider → URL', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/threads?n=1000&block=256&thread=1000');
    await painted(page);
    assert.equal(await metric(page, 'blocks'), 4);
    assert.equal(await metric(page, 'threads'), 1024);
    assert.equal(await metric(page, 'idle-threads'), 24);
    assert.equal(await metric(page, 'warps'), 32);
    assert.match(await page.getByTestId('formula').innerText(), /3 × 256 \+ 232 = 1000/);
    await shot(page, 'threads-1000-256');
    const block = page.locator('.slider[data-param="block"] input[type=number]');
    await block.fill('128');
    await block.press('Enter');
    await waitForQuery(page, 'block', '128');
    assert.equal(await metric(page, 'blocks'), 8);
    assert.equal(await metric(page, 'idle-threads'), 24);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("divergence: the lecture's table, bad conditions, player", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/divergence');
    await painted(page);
    for (const [cond, steps, util] of [['tid%2==0', 80, 0.5], ['(tid/32)%2==0', 40, 1], ['tid<100', 50, 0.875]]) {
      await page.locator(`.preset[data-preset="${cond}"]`).click();
      await page.waitForFunction((s) => document.querySelector('[data-metric="total-steps"]').dataset.value === String(s), steps);
      assert.equal(await metric(page, 'warp-utilization'), util, cond);
      await waitForQuery(page, 'cond', cond);
    }
    assert.equal(await page.locator('[data-metric="warp-utilization"] .metric-value').innerText(), '87.5%');
    assert.equal(await metric(page, 'simt-efficiency'), 0.8);
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await metric(page, 'step'), 4);
    await shot(page, 'divergence-tid-lt-100-step4');
    const input = page.locator('#param-cond');
    await input.fill('tid % 2 = 0');
    assert.match(await page.getByTestId('cond-error').innerText(), /use == to compare \(at character 9\)\ntid % 2 = 0/);
    assert.equal(await page.locator('.cond-error-at').innerText(), '=', 'the character at fault is marked');
    // The drawing still shows tid<100: marked stale, greyed out.
    assert.match(await page.getByTestId('stale').innerText(), /tid<100/);
    assert.ok(Number(await page.locator('.scene canvas').evaluate((c) => getComputedStyle(c).opacity)) < 1);
    await shot(page, 'divergence-bad-cond');
    assert.equal((await hashQuery(page)).cond, 'tid<100', 'a bad condition is not applied');
    await input.fill('lane < 8 || warp == 2');
    await waitForQuery(page, 'cond', 'lane < 8 || warp == 2');
    assert.equal(await page.getByTestId('cond-error').count(), 0);
    assert.equal(await page.getByTestId('stale').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('divergence in 中文: a full-width condition error is Chinese, whole and marked (issue 22 items 6, 7)', async () => {
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      const page = await newPage(browser, { viewport: { width: w, height: h } });
      await open(page, srv.base, '#/divergence?lang=zh&cond=tid%3C100');
      await painted(page);
      const input = page.locator('#param-cond');
      if (!(await input.isVisible())) await page.locator('.drawer-toggle').first().click();
      // A long condition typed with a Chinese input method: the full-width ＜ near its end.
      const typed = 'lane < 8 || warp == 2 || tid % 64 == 3 || tid＜100';
      await input.fill(typed);
      const err = page.getByTestId('cond-error');
      await err.waitFor();
      const text = await err.innerText();
      assert.match(text, /^条件有误：全角字符：请把输入法切换到半角（英文）标点（第 \d+ 个字符）/);
      const message = text.split('\n')[0];
      const latin = (message.match(/[A-Za-z]{2,}/g) ?? []).filter((x) => !['tid', 'warp', 'lane'].includes(x));
      assert.deepEqual(latin, [], `no English in ${message}`);
      assert.equal(await page.locator('.cond-error-at').innerText(), '＜');
      // Whole: nothing scrolls sideways, and the marked character is inside the box.
      const box = await err.evaluate((e) => {
        const r = e.getBoundingClientRect();
        const m = e.querySelector('.cond-error-at').getBoundingClientRect();
        const over = [...e.querySelectorAll('*')].filter((x) => x.scrollWidth > x.clientWidth + 1).length;
        return { over, inside: m.left >= r.left - 1 && m.right <= r.right + 1 && m.width > 0, own: e.scrollWidth <= e.clientWidth + 1 };
      });
      assert.deepEqual(box, { over: 0, inside: true, own: true }, `${w}px`);
      assert.match(await page.getByTestId('stale').innerText(), /画面未更新.*tid<100/);
      await page.context().close();
    }
  });

  test("coalescing: the lecture's table through the presets", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/coalescing');
    await painted(page);
    for (const [preset, tx, frac] of [['coalescing.preset.x-t', 1, 1], ['coalescing.preset.x-2t', 2, 0.5], ['coalescing.preset.x-32t', 32, 1 / 32], ['coalescing.preset.random', 32, 1 / 32]]) {
      await page.locator(`.preset[data-preset="${preset}"]`).click();
      await page.waitForFunction((t) => document.querySelector('[data-metric="transactions"]').dataset.value === String(t), tx);
      assert.equal(await metric(page, 'useful-fraction'), frac, preset);
      await shot(page, `coalescing-${preset.split('.').pop()}`);
    }
    await open(page, srv.base, '#/coalescing?dtype=fp32&pattern=column&rowlen=1024&offset=0&section=128');
    await painted(page);
    assert.equal(await metric(page, 'transactions'), 32);
    await open(page, srv.base, '#/coalescing?dtype=fp32&pattern=stride&stride=1&offset=1&section=128');
    await painted(page);
    assert.equal(await metric(page, 'transactions'), 2, 'misaligned by one element');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("occupancy: the lecture's H100 cases, limiter, charts", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/occupancy');
    await painted(page);
    for (const [preset, occ, limiter] of [['occupancy.preset.256x32', 1, 'warps'], ['occupancy.preset.256x64', 0.5, 'registers'], ['occupancy.preset.128x160', 0.1875, 'registers']]) {
      await page.locator(`.preset[data-preset="${preset}"]`).click();
      await page.waitForFunction((o) => document.querySelector('[data-metric="occupancy"]').dataset.value === String(o), occ);
      assert.equal(await page.locator('[data-metric="limiter"]').getAttribute('data-value'), limiter);
    }
    assert.equal(await page.locator('[data-metric="occupancy"] .metric-value').innerText(), '18.8%');
    assert.equal(await metric(page, 'active-warps'), 12);
    assert.equal(await page.locator('[data-testid="chart"]').count(), 3);
    await shot(page, 'occupancy-128x160');
    await open(page, srv.base, '#/occupancy?arch=sm90&threads=128&regs=32&smem=49152');
    await painted(page);
    assert.equal(await page.locator('[data-metric="limiter"]').getAttribute('data-value'), 'shared-memory');
    assert.equal(await metric(page, 'blocks-per-sm'), 4, '48 KB + 1 KB reserved: 228 / 49 = 4');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('projector mode and Chinese on every panel', async () => {
    const page = await newPage(browser, { viewport: { width: 1024, height: 768 } });
    for (const id of TOPIC_IDS) {
      await open(page, srv.base, `#/${id}?present=1&lang=zh`);
      await painted(page);
      assert.equal(await page.locator('.site-header').isVisible(), false);
      const title = await page.locator('.panel-header h1').innerText();
      assert.match(title, /[\u4e00-\u9fff]/, `${id} title in Chinese`);
      await shot(page, `${id}-present-zh`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('attention panels', () => {
  test('online softmax: x = 1,3,2,5 in blocks of 2, telescoping table, probabilities, bad vectors', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/online-softmax?x=1,3,2,5&block=2&step=1');
    await painted(page);
    assert.equal(await metric(page, 'step'), 1);
    assert.equal(await metric(page, 'm'), 3);
    assert.ok(Math.abs((await metric(page, 'l')) - (1 + Math.exp(-2))) < 1e-12);
    assert.equal(await page.locator('[data-metric^="p-"]').count(), 0, 'probabilities only at the end');
    await page.getByTestId('player-step').click();
    assert.equal(await metric(page, 'm'), 5);
    const probs = await page.$$eval('[data-metric^="p-"]', (els) => els.map((e) => Number(e.dataset.value)));
    const z = [1, 3, 2, 5].map((x) => Math.exp(x - 5));
    const sum = z.reduce((a, b) => a + b);
    assert.equal(probs.length, 4);
    probs.forEach((p, i) => assert.ok(Math.abs(p - z[i] / sum) < 1e-15));
    assert.ok((await metric(page, 'max-abs-error')) < 1e-15);
    assert.match(await page.getByTestId('softmax-table').innerText(), /e\^\(3 − 5\) = 0\.135335/);
    await shot(page, 'online-softmax-done');
    await page.locator('#param-x').fill('1,abc,3');
    assert.match(await page.getByTestId('x-error').innerText(), /#2 “abc”/);
    await open(page, srv.base, '#/online-softmax?x=1,zz,3');
    await page.waitForSelector('[data-notice-param="x"]');
    assert.match(await page.locator('[data-notice-param="x"]').innerText(), /zz/);
    await page.getByTestId('random-vector').click();
    await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1]).get('x').split(',').length === 16);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('flash: causal forward mid-run, exactness, ledger; backward', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=fwd&step=20&dtype=bf16&sram=228');
    await painted(page);
    assert.equal(await metric(page, 'tiles-computed'), 36);
    assert.equal(await metric(page, 'tiles-skipped'), 28);
    assert.ok((await metric(page, 'max-abs-error')) < 1e-14);
    assert.ok((await metric(page, 'grad-max-abs-error')) < 1e-13);
    assert.ok((await metric(page, 'hbm-bytes-flash')) < (await metric(page, 'hbm-bytes-standard')));
    assert.equal(await metric(page, 'sram-bytes'), 32 * 64 * 2 + 2 * 32 * 64 * 2 + 32 * 32 * 4 + 32 * 64 * 4 + 2 * 32 * 4);
    assert.equal(await page.getByTestId('flash-rows').locator('tbody tr').count(), 6);
    assert.match(await page.getByTestId('sram-check').innerText(), /fits/);
    await shot(page, 'flash-causal-fwd-step20');
    await page.locator('button[data-param="pass"][data-value="bwd"]').click();
    await waitForQuery(page, 'pass', 'bwd');
    assert.match(await page.getByTestId('recompute').innerText(), /FLOPs/);
    await shot(page, 'flash-causal-bwd-step20');
    // Blocks that do not divide n, no mask.
    await open(page, srv.base, '#/flash?n=100&d=8&bq=24&bk=16&causal=0&seed=3&pass=fwd&step=0&dtype=fp32&sram=228');
    await painted(page);
    assert.equal(await metric(page, 'tiles-computed'), 5 * 7);
    assert.ok((await metric(page, 'max-abs-error')) < 1e-14);
    // Large n: tiles and ledger only.
    await open(page, srv.base, '#/flash?n=65536&d=128&bq=128&bk=128&causal=1&seed=1&pass=fwd&step=100000&dtype=bf16&sram=228');
    await painted(page);
    assert.equal(await metric(page, 'tiles-skipped'), 512 * 511 / 2);
    assert.equal(await page.locator('[data-metric="max-abs-error"]').count(), 0);
    assert.match(await page.getByTestId('check-large').innerText(), /n ≤ 1024/);
    await shot(page, 'flash-65536');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("attention memory: the lecture's table through the UI", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/attention-memory');
    await page.waitForSelector('[data-metric="ratio"]');
    for (const [n, std, flash] of [[4096, 67108864, 16384], [16384, 1073741824, 65536], [65536, 17179869184, 262144]]) {
      await page.locator(`.preset[data-preset="n${n}"]`).click();
      await waitForQuery(page, 'n', n);
      assert.equal(await metric(page, 'standard-bytes'), std);
      assert.equal(await metric(page, 'flash-extra-bytes'), flash);
      assert.equal(await metric(page, 'ratio'), std / flash);
    }
    const table = await page.getByTestId('memory-table').innerText();
    for (const cell of ['0.07 GB', '1.07 GB', '17.2 GB', '0.02 MB', '0.07 MB', '0.26 MB']) assert.ok(table.includes(cell), cell);
    await page.waitForSelector('[data-testid="chart"] canvas[data-painted="1"]');
    await shot(page, 'attention-memory');
    await page.locator('button[data-param="stats"][data-value="ml"]').click();
    await waitForQuery(page, 'stats', 'ml');
    assert.equal(await metric(page, 'flash-extra-bytes'), 2 * 65536 * 4);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('matmul panels', () => {
  test("tiling: the lecture's table, stepping a tile, shared-memory budget", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/tiling');
    await painted(page);
    for (const [preset, reads, ai] of [['tiling.preset.naive', 33554432, 0.25], ['tiling.preset.t4', 8388608, 1], ['tiling.preset.t16', 2097152, 4], ['tiling.preset.t64', 524288, 16]]) {
      await page.locator(`.preset[data-preset="${preset}"]`).click();
      await page.waitForFunction((r) => document.querySelector('[data-metric="global-reads"]').dataset.value === String(r), reads);
      assert.equal(await metric(page, 'intensity'), ai, preset);
    }
    assert.equal(await metric(page, 'max-tile'), 170);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await metric(page, 'step'), 2);
    assert.match(await page.getByTestId('tile-counters').innerText(), /16,384 elements read from global memory, 524,288 multiply-adds/);
    await shot(page, 'tiling-t64-step2');
    // A chosen output tile on the edge of a non-dividing grid (n = 100, T = 32): tile
    // (3, 1) has 4 rows and 32 columns; after all 4 phases it has read 4·100 + 100·32 elements.
    await open(page, srv.base, '#/tiling?n=100&tile=32&dtype=fp32&mode=tiled&step=4&smem=228&ti=3&tj=1');
    await painted(page);
    assert.match(await page.getByTestId('tile-counters').innerText(), /3,600 elements read from global memory, 12,800 multiply-adds/);
    await open(page, srv.base, '#/tiling?n=256&tile=64&mode=tiled&ti=9');
    await page.waitForSelector('[data-notice-param="ti"]');
    await waitForQuery(page, 'ti', '3');
    await open(page, srv.base, '#/tiling?n=256&tile=200&dtype=fp32&mode=tiled&smem=228');
    await painted(page);
    assert.match(await page.getByTestId('smem-fit').innerText(), /more than 228 KiB/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("quantization and waves: the lecture's numbers", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/quantization?n=1025&tile=128&dtype=fp32&section=128');
    await painted(page);
    assert.equal(Math.round(100 * (await metric(page, 'useful-fraction'))), 79);
    assert.equal(await metric(page, 'aligned'), 0);
    assert.ok((await metric(page, 'extra-transactions')) > 0);
    await shot(page, 'quantization-1025');
    await page.locator('.preset[data-preset="quantization.preset.1024"]').click();
    await page.waitForFunction(() => document.querySelector('[data-metric="useful-fraction"]').dataset.value === '1');
    assert.equal(await metric(page, 'aligned'), 1);
    await open(page, srv.base, '#/waves');
    await painted(page);
    for (const [id, tiles, waves, util, flops, time] of [['n1792', 98, 1, 91, 1, 1], ['n1793', 120, 2, 56, 1, 2], ['n2560', 200, 2, 93, 2.92, 2]]) {
      await page.locator(`.preset[data-preset="${id}"]`).click();
      await page.waitForFunction((t) => document.querySelector('[data-metric="tiles"]').dataset.value === String(t), tiles);
      assert.equal(await metric(page, 'waves'), waves, id);
      assert.equal(Math.round(100 * (await metric(page, 'sm-utilization'))), util, id);
      assert.equal(Math.round(100 * (await metric(page, 'relative-flops'))) / 100, flops, id);
      assert.equal(await metric(page, 'relative-time'), time, id);
      if (id === 'n1793') {
        assert.match(await page.getByTestId('why').innerText(), /wave quantization: 1 → 2 waves; the last wave has 12 tiles/);
        await shot(page, 'waves-1793');
      }
    }
    await page.waitForSelector('[data-testid="chart"] canvas[data-painted="1"]');
    assert.equal(await page.getByTestId('measured').count(), 0, 'no measured data ships');
    assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    await page.context().close();
  });

  test('gpu vs tpu: passes, waves, link to the systolic array', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/gpu-vs-tpu?m=512&k=4096&n=4096&mxu=128&gpu=h100&tm=128&tn=128');
    await painted(page);
    assert.equal(await metric(page, 'mxu-passes'), 32 * 32);
    assert.equal(await metric(page, 'gpu-waves'), Math.ceil((4 * 32) / 132));
    const u = await metric(page, 'mxu-utilization');
    assert.ok(u > 0 && u <= 1);
    assert.equal(await page.getByTestId('terms').locator('tbody tr').count(), 6);
    await shot(page, 'gpu-vs-tpu');
    await page.getByTestId('systolic-link').click();
    await painted(page);
    // The whole GEMM as folds on one MXU, WS with double-buffered loads: the
    // first load, then every pass's m + 2·128 − 2 cycles.
    assert.equal(await metric(page, 'total-cycles'), 128 + 32 * 32 * (512 + 2 * 128 - 2));
    assert.deepEqual(page.errors.filter((e) => !/404/.test(e)), []);
    await page.context().close();
  });
});

describe('hardware and roofline', () => {
  test("hardware: the lecture's ridge points, custom machine", async () => {
    const page = await newPage(browser);
    // NVIDIA's A100 bandwidth (2,039 GB/s) gives 153; the notes' 2.0 TB/s, 156: both shown.
    for (const [gpu, ridge] of [['a100', 153], ['h100', 295], ['b200', 281]]) {
      await open(page, srv.base, `#/hardware?gpu=${gpu}&dtype=bf16`);
      await page.waitForSelector('[data-metric="ridge"]');
      assert.equal(Math.round(await metric(page, 'ridge')), ridge, gpu);
    }
    // One lecture table (issue 22: the near-duplicate GPU table merged into it): the A100 with
    // NVIDIA's figure (153) and with the notes' 2.0 TB/s (156), SMs computed.
    const cell = (row, m) => page.locator(`[data-testid=lecture-table] tr[data-row="${row}"] [data-metric-cell="${m}"]`);
    assert.equal(await page.locator('[data-testid=lecture-table]').count(), 1);
    assert.equal(await page.locator('[data-testid=gpu-table]').count(), 0);
    assert.equal(await cell(0, 'ridge').getAttribute('data-computed'), '153');
    assert.equal(await cell(1, 'ridge').getAttribute('data-computed'), '156');
    assert.equal(await cell(2, 'ridge').getAttribute('data-computed'), '295');
    assert.deepEqual(await Promise.all([0, 2, 3].map((r) => cell(r, 'sms').getAttribute('data-computed'))), ['108', '132', '148']);
    await shot(page, 'hardware-b200');
    await open(page, srv.base, '#/hardware?gpu=custom&dtype=bf16&peak=100&bw=1000');
    await page.waitForSelector('[data-metric="ridge"]');
    assert.equal(await metric(page, 'ridge'), 100);
    assert.equal(await metric(page, 'bandwidth-tbps'), 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("roofline: the lecture's operations and decode batches", async () => {
    const page = await newPage(browser);
    const cases = [['relu', 0.25, '0.8', '0.1%'], ['dot', 0.5, '1.7', '0.2%'], ['matvec', 1.0, '3.3', '0.3%'], ['matmul', 1365, '990', '100%']];
    for (const [op, i, tf, pct] of cases) {
      await open(page, srv.base, `#/roofline?gpu=h100&dtype=bf16&op=${op}&n=4096`);
      await page.waitForSelector('[data-metric="intensity"]');
      const inten = await metric(page, 'intensity');
      assert.equal(i >= 10 ? Math.floor(inten) : Math.round(inten * 100) / 100, i, op);
      assert.equal((await metric(page, 'attainable-tflops')).toFixed(tf.includes('.') ? 1 : 0), tf, op);
      assert.equal((100 * (await metric(page, 'percent-of-peak'))).toFixed(pct === '100%' ? 0 : 1) + '%', pct, op);
    }
    assert.equal(await page.locator('[data-metric="bound"]').getAttribute('data-value'), 'compute');
    await page.waitForSelector('[data-testid="chart"] canvas[data-painted="1"]');
    for (const [id, pct] of [['b1', '0.3'], ['b8', '2.7'], ['b64', '21'], ['b256', '82'], ['b1024', '100']]) {
      await page.locator(`.preset[data-preset="${id}"]`).click();
      await waitForQuery(page, 'batch', id.slice(1));
      const p = 100 * (await metric(page, 'percent-of-peak'));
      assert.equal(p < 10 ? p.toFixed(1) : p.toFixed(0), pct, id);
      if (id === 'b8') await shot(page, 'roofline-decode-b8');
    }
    assert.match(await page.getByTestId('precision').innerText(), /8\.25 bits per value.*4\.5 bits/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('fusion, recomputation, insets', () => {
  test("fusion: the lecture's sin²+cos² table, presets, user expressions", async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/fusion');
    await page.waitForSelector('[data-metric="kernels-unfused"]');
    assert.equal(await metric(page, 'kernels-unfused'), 5);
    assert.equal(await metric(page, 'speedup-bound'), 5.5);
    const n = 16777216;
    assert.equal(await metric(page, 'bytes-unfused'), 11 * n * 4);
    assert.equal(await metric(page, 'bytes-fused'), 2 * n * 4);
    assert.match(await page.getByTestId('fusion-total').innerText(), /6n reads \+ 5n writes = 11n, against 2n/);
    assert.equal(await page.getByTestId('kernels').locator('.kernel').count(), 5);
    await page.waitForSelector('[data-testid="roofline-inset"] canvas[data-painted="1"]');
    await shot(page, 'fusion-sincos');
    await page.locator('.preset[data-preset="gelu"]').click();
    await page.waitForFunction(() => document.querySelector('[data-metric="kernels-unfused"]').dataset.value === '8');
    await page.locator('#param-expr').fill('relu(x * w + b');
    assert.match(await page.getByTestId('expr-error').innerText(), /missing \)/);
    await page.locator('#param-expr').fill('exp(x) / (exp(x) + exp(y))');
    await waitForQuery(page, 'expr', 'exp(x) / (exp(x) + exp(y))');
    assert.equal(await metric(page, 'kernels-unfused'), 5);
    await open(page, srv.base, '#/fusion?expr=foo(x)');
    await page.waitForSelector('[data-notice-param="expr"]');
    assert.match(await page.locator('[data-notice-param="expr"]').innerText(), /unknown function/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('recompute: notes 9 vs 5, slides 8 vs 4, 12.6 MB vs 4.2 MB', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/recompute');
    await page.waitForSelector('[data-metric="accesses-store"]');
    assert.equal(await metric(page, 'accesses-store'), 9);
    assert.equal(await metric(page, 'accesses-recompute'), 5);
    assert.equal(await page.locator('[data-metric="saved-bytes-store"] .metric-value').innerText(), '12.6 MB');
    assert.equal(await page.locator('[data-metric="saved-bytes-recompute"] .metric-value').innerText(), '4.19 MB');
    await shot(page, 'recompute');
    await page.locator('button[data-param="upstream"][data-value="0"]').click();
    await waitForQuery(page, 'upstream', '0');
    assert.equal(await metric(page, 'accesses-store'), 8);
    assert.equal(await metric(page, 'accesses-recompute'), 4);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('roofline insets agree with the roofline panel', async () => {
    const page = await newPage(browser);
    // Tiling at T = 64, fp32: intensity 16, on an H100's fp32 roof (67 TFLOP/s, 3.35 TB/s).
    await open(page, srv.base, '#/tiling?n=256&tile=64&dtype=fp32&mode=tiled&step=0&smem=228&gpu=h100');
    await page.waitForSelector('[data-testid="roofline-inset"] .inset-dot');
    const dot = page.locator('[data-testid="roofline-inset"] .inset-dot').first();
    assert.equal(Number(await dot.getAttribute('data-inset-intensity')), 16);
    const tf = Number(await dot.getAttribute('data-inset-tflops'));
    await open(page, srv.base, '#/roofline?gpu=h100&dtype=fp32&op=custom&flops=16&bytes=1');
    await page.waitForSelector('[data-metric="attainable-tflops"]');
    assert.equal(await metric(page, 'attainable-tflops'), tf);
    for (const hash of ['#/flash?n=256&causal=1&pass=fwd&step=3', '#/systolic?rows=8&cols=8&k=512&gpu=a100']) {
      await open(page, srv.base, hash);
      await page.waitForSelector('[data-testid="roofline-inset"] canvas[data-painted="1"]');
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('hostile URLs, over the whole registry', () => {
  const badValues = ['-3', 'abc', '100000', '', '1e9', '99999999999999999999999'];

  function invalid(spec, raw) {
    if (spec.kind === 'choice') return !spec.options.includes(raw);
    // Text validity is the panel's own (an expression, a vector): the test
    // below checks it is either accepted as given or replaced with a notice.
    if (spec.kind === 'text') return false;
    // An integer: digits, or a whole number in scientific notation (`1e9`, as the number boxes read it).
    const sci = /[eE]/.test(raw) && Number.isFinite(Number(raw)) && Number.isInteger(Number(raw)) && raw.trim() !== '';
    if (!/^[+-]?\d+$/.test(raw.trim()) && !sci) return true;
    const v = Number(raw);
    if (spec.kind === 'position') return v < 0 || !Number.isSafeInteger(v) || v > 1e6;
    return v < spec.min || v > spec.max;
  }

  test('every parameter of every panel: notice naming it, working panel', async () => {
    const topics = await registry();
    assert.ok(topics.length >= 1);
    const page = await newPage(browser);
    for (const t of topics) {
      for (const spec of t.params) {
        for (const raw of badValues) {
          await open(page, srv.base, `#/${t.id}?${spec.name}=${encodeURIComponent(raw)}`);
          await appShows(page, '[data-metric]', `#/${t.id}?${spec.name}=${raw}: its figures`);
          await painted(page);
          const noticed = await page.locator(`[data-notice-param="${spec.name}"]`).count();
          if (invalid(spec, raw)) {
            assert.equal(noticed, 1, `${t.id}: ${spec.name}=${raw} should give a notice`);
          }
          // Text is either accepted as given or replaced with a notice.
          if (spec.kind === 'text' && noticed === 0) {
            await waitForQuery(page, spec.name, raw);
          }
          // The URL is rewritten to a valid value (writes are throttled: wait).
          if (spec.kind === 'int') {
            await page.waitForFunction(([name, min, max, optional]) => {
              const v = new URLSearchParams(location.hash.split('?')[1] ?? '').get(name);
              if (v === null) return optional; // optional parameters at their default are left out
              return /^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max;
            }, [spec.name, spec.min, spec.max, !!spec.optional], { timeout: 3000 })
              .catch(() => assert.fail(`${t.id}: ${spec.name}=${raw} not rewritten to a valid value`));
          }
          assert.equal(await page.locator('#panic-card').count(), 0);
        }
      }
      // An unknown parameter.
      await open(page, srv.base, `#/${t.id}?no-such-param=1`);
      await page.waitForSelector('[data-notice-param="no-such-param"]');
      await painted(page);
      // Broken percent-encoding in the query.
      await open(page, srv.base, `#/${t.id}?${t.params[0].name}=%ZZ&%E0%A4%A=1`);
      await page.waitForSelector('[data-testid="notices"]');
      await painted(page);
      assert.equal(await page.locator('#panic-card').count(), 0);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('rows=-3, k=abc, rows=100000, unknown params, broken hash', async () => {
    const page = await newPage(browser);
    await open(page, srv.base, '#/systolic?rows=-3&k=abc&zap=1');
    await painted(page);
    assert.equal(await page.locator('[data-notice-param]').count(), 3);
    assert.match(await page.locator('[data-notice-param="rows"]').innerText(), /rows=-3/);
    assert.equal(await metric(page, 'total-cycles'), 1 + 4 + 6 - 2);
    await open(page, srv.base, '#/systolic?rows=100000');
    await painted(page);
    await waitForQuery(page, 'rows', '256');
    assert.match(await page.locator('[data-notice-param="rows"]').innerText(), /256/);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await page.getByTestId('notices').count(), 0);
    for (const hash of ['#%%%', '#/no-such-topic?x=1', '#/systolic/extra/segments', '#//', '#/%E0%A4%A']) {
      await open(page, srv.base, hash);
      await page.waitForSelector('[data-testid="notices"]');
      assert.equal(await page.locator('#panic-card').count(), 0, hash);
      assert.ok((await page.locator('.card[data-topic]').count()) >= 1, `${hash}: links back to the panels`);
    }
    await open(page, srv.base, '#/systolic?cycle=999999&lang=xx&present=maybe');
    await painted(page);
    assert.equal(await metric(page, 'cycle'), 12);
    for (const p of ['cycle', 'lang', 'present']) {
      assert.equal(await page.locator(`[data-notice-param="${p}"]`).count(), 1, p);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
