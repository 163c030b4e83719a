// The lecture hall and the phone: one screen at common sizes, projector
// mode, embed, the deck (JSON and link), the GIF export, presets at step 0.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { withBrowser, newPage, open, painted, metric, waitForQuery, appShows } from './harness.mjs';

const env = withBrowser();

async function topicIds(page) {
  await open(page, env.srv.base, '#/');
  return page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
}

/** Bottom and right edges of what must be on the first screen (page coordinates). */
async function firstScreen(page) {
  return page.evaluate(() => {
    const box = (sel) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      const r = el.getBoundingClientRect();
      return { bottom: r.bottom + window.scrollY, right: r.right + window.scrollX, top: r.top + window.scrollY };
    };
    return {
      // The stage: a scene's canvas, or the chart that is the panel's stage.
      canvas: box('.stage > .scene'),
      player: box('[data-testid="player"]'),
      metrics: box('.stage > .readouts'),
      width: document.documentElement.scrollWidth,
    };
  });
}

/** Let the canvas settle at the size that fits (it may be redrawn once or twice). */
async function settled(page) {
  await painted(page);
  await page.waitForTimeout(150);
  await painted(page);
}

const SIZES = [
  { width: 1280, height: 720, present: false },
  { width: 1440, height: 900, present: false },
  { width: 1920, height: 1080, present: false },
  { width: 1024, height: 768, present: true },
  { width: 1440, height: 900, present: true },
  { width: 1920, height: 1080, present: true },
];

/**
 * The smallest text on the stage's canvases as shown: each canvas's smallest
 * font (`data-min-font`: a scene's smallest text, a chart's smallest label)
 * × how much the canvas is scaled on screen. Undefined: no text drawn.
 */
async function stageMinFont(page) {
  return page.evaluate(() => {
    let min;
    for (const c of document.querySelectorAll('.stage > .scene canvas[data-min-font]')) {
      const shown = Number(c.dataset.minFont) * c.getBoundingClientRect().width / (c.width / devicePixelRatio);
      min = min === undefined ? shown : Math.min(min, shown);
    }
    return min;
  });
}

/** The stage's box, its canvases' boxes and the page's widths (viewport coordinates). */
async function stageBoxes(page) {
  return page.evaluate(() => {
    const r = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height }; };
    const stage = document.querySelector('.stage > .scene');
    return {
      stage: stage && r(stage),
      canvases: [...document.querySelectorAll('.stage > .scene canvas')].map(r),
      painted: [...document.querySelectorAll('.stage > .scene canvas')].some((c) => c.dataset.painted === '1'),
      player: document.querySelector('[data-testid="player"]') && r(document.querySelector('[data-testid="player"]')),
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    };
  });
}

describe('one screen', () => {
  for (const size of SIZES) {
    const name = `${size.width}×${size.height}${size.present ? ' projected' : ''}`;
    test(`canvas, player and key figures are on the first screen at ${name}, on every panel`, async () => {
      const page = await newPage(env.browser, { viewport: { width: size.width, height: size.height } });
      const ids = await topicIds(page);
      const misses = [];
      for (const id of ids) {
        await open(page, env.srv.base, `#/${id}${size.present ? '?present=1' : ''}`);
        await settled(page);
        const s = await firstScreen(page);
        for (const [what, b] of Object.entries({ canvas: s.canvas, player: s.player, metrics: s.metrics })) {
          if (b && (b.bottom > size.height + 1 || b.right > size.width + 1)) {
            misses.push(`${id}: ${what} ends at ${Math.round(b.bottom)} (right ${Math.round(b.right)})`);
          }
        }
        if (s.width > size.width) misses.push(`${id}: page ${s.width} px wide`);
      }
      assert.deepEqual(misses, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('on a 390 px phone: no sideways scroll, canvas and player before the controls, drawer closed', async () => {
    const page = await newPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const ids = await topicIds(page);
    for (const id of ids) {
      await open(page, env.srv.base, `#/${id}`);
      await painted(page);
      const s = await firstScreen(page);
      assert.ok(s.width <= 390, `${id}: ${s.width} px wide`);
      assert.equal(await page.locator('.controls').isVisible(), false, `${id}: the drawer starts closed`);
      if (s.canvas) assert.ok(s.canvas.top < 400, `${id}: the canvas starts at ${s.canvas.top}`);
    }
    // The drawer opens on a tap, above the stage.
    await open(page, env.srv.base, '#/systolic');
    await page.locator('[data-testid="drawer-toggle"]').tap();
    assert.equal(await page.locator('.controls').isVisible(), true);
    // A tap on "step" steps.
    await page.locator('[data-testid="drawer-toggle"]').tap();
    await page.locator('[data-testid="player-step"]').tap();
    await waitForQuery(page, 'cycle', '1');
    // A finger swiped across the canvas: to the left the next step, to the right back.
    const cdp = await page.context().newCDPSession(page);
    const box = await page.locator('.scene canvas').first().boundingBox();
    const swipe = async (from, to) => {
      const y = box.y + box.height / 2;
      const at = (x) => [{ x: box.x + x * box.width, y }];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(from) });
      for (let i = 1; i <= 5; i++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(from + ((to - from) * i) / 5) });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    await swipe(0.8, 0.2);
    await waitForQuery(page, 'cycle', '2');
    await swipe(0.8, 0.2);
    await waitForQuery(page, 'cycle', '3');
    await swipe(0.2, 0.8);
    await waitForQuery(page, 'cycle', '2');
    // A short drag is not a swipe.
    await swipe(0.5, 0.52);
    assert.equal(await metric(page, 'cycle'), 2);
    assert.equal(await page.evaluate(() => document.documentElement.scrollLeft), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('phones', () => {
  for (const [width, height] of [[390, 844], [360, 740]]) {
    test(`at ${width}×${height}: every panel shows its whole drawing, text ≥ 10 px, the player on the first screen`, async () => {
      const page = await newPage(env.browser, { viewport: { width, height }, isMobile: true, hasTouch: true });
      const misses = [];
      const ids = await topicIds(page);
      // The lecture's 8 × 8 output-stationary preset, mid-run, beside every panel's default.
      for (const hash of [...ids.map((id) => `#/${id}`), '#/systolic?rows=8&cols=8&k=8&dataflow=os&cycle=12']) {
        await open(page, env.srv.base, hash);
        await settled(page);
        const b = await stageBoxes(page);
        if (!b.stage) { misses.push(`${hash}: no stage`); continue; }
        if (b.scrollWidth !== b.clientWidth) misses.push(`${hash}: page ${b.scrollWidth} px wide in ${b.clientWidth}`);
        for (const c of b.canvases) {
          if (c.left < -0.5 || c.right > width + 0.5) misses.push(`${hash}: canvas from ${c.left} to ${c.right}`);
        }
        const min = await stageMinFont(page);
        if (min !== undefined && min < 10) misses.push(`${hash}: text ${min.toFixed(1)} px`);
        if (b.player && b.player.top >= height) misses.push(`${hash}: player at ${Math.round(b.player.top)}`);
        if (b.stage.top >= height) misses.push(`${hash}: stage at ${Math.round(b.stage.top)}`);
      }
      assert.deepEqual(misses, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('an open controls drawer leaves the canvas where it was, on the screen', async () => {
    const page = await newPage(env.browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await open(page, env.srv.base, '#/systolic?rows=8&cols=8&k=8&dataflow=os&cycle=12');
    await settled(page);
    const before = (await stageBoxes(page)).stage;
    await page.locator('[data-testid="drawer-toggle"]').tap();
    await page.locator('.controls').waitFor();
    const after = (await stageBoxes(page)).stage;
    assert.ok(Math.abs(after.top - before.top) < 2, `the canvas moved from ${before.top} to ${after.top}`);
    assert.ok(after.top >= 0 && after.top < 844 / 2, `the canvas at ${after.top}`);
    // A control changed with the drawer open shows on the canvas, still in view.
    const controls = await page.locator('.controls').boundingBox();
    assert.ok(controls.y > after.top + 100, `the drawer (at ${controls.y}) leaves the canvas visible`);
    await page.locator('.controls [data-preset]').first().tap();
    await page.waitForFunction(() => /cycle=0\b/.test(location.hash));
    assert.ok((await stageBoxes(page)).stage.top < 844 / 2);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('presenting', () => {
  for (const [width, height] of [[1024, 768], [1920, 1080]]) {
    test(`projected at ${width}×${height}, stage text (canvas and chart) is at least 18 px on every panel`, async () => {
      const page = await newPage(env.browser, { viewport: { width, height } });
      const small = [];
      for (const id of await topicIds(page)) {
        await open(page, env.srv.base, `#/${id}?present=1`);
        await settled(page);
        const min = await stageMinFont(page);
        if (min !== undefined && min < 18 - 0.05) small.push(`${id}: ${min.toFixed(2)} px`);
      }
      assert.deepEqual(small, []);
      await page.context().close();
    });
  }

  test('projected at 1024×768, after R reveals a practice answer the stage is still on the first screen', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1024, height: 768 } });
    for (const hash of ['#/waves?practice=1&q=0&present=1&lang=en', '#/threads?practice=1&q=3&present=1&lang=en']) {
      await open(page, env.srv.base, hash);
      await page.locator('[data-testid="practice-card"]').waitFor();
      await page.keyboard.press('r');
      await page.locator('[data-testid="practice-grade"]').waitFor();
      await settled(page);
      const b = await stageBoxes(page);
      assert.ok(b.stage && b.stage.top + 60 < 768, `${hash}: the stage starts at ${b.stage?.top}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('projected, the floating "Exit projector mode" covers no landing card', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1024, height: 768 } });
    await open(page, env.srv.base, '#/?present=1');
    await page.locator('[data-testid="present-exit"]').waitFor();
    for (const y of [0, 400, 1200]) {
      await page.evaluate((y) => window.scrollTo(0, y), y);
      const hit = await page.evaluate(() => {
        const b = document.querySelector('[data-testid="present-exit"]').getBoundingClientRect();
        return [...document.querySelectorAll('.card')].map((c) => c.getBoundingClientRect())
          .filter((c) => c.left < b.right && b.left < c.right && c.top < b.bottom && b.top < c.bottom).length;
      });
      assert.equal(hit, 0, `scrolled to ${y}: the button covers ${hit} card(s)`);
    }
    await page.context().close();
  });

  test('presets open at step 0; keys drive the player after a preset or slider was clicked', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=5');
    await painted(page);
    await page.locator('[data-preset]').first().click();
    await waitForQuery(page, 'cycle', '0');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid="player"]').dataset.playing === 'true');
    await page.keyboard.press('Space');
    await page.keyboard.press('End');
    await waitForQuery(page, 'cycle', '12');
    // A slider dragged with the mouse gives the arrows back to the player.
    const k = page.locator('.slider[data-param="k"] input[type="range"]');
    const box = await k.boundingBox();
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await page.keyboard.press('Home');
    await waitForQuery(page, 'cycle', '0');
    const kNow = (await page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('k')));
    await page.keyboard.press('ArrowRight');
    await waitForQuery(page, 'cycle', '1');
    assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('k'), kNow);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('every route\'s embed=1 shows its stage (canvas or chart) in a 960×540 frame, no text under 12 px', async () => {
    const page = await newPage(env.browser, { viewport: { width: 960, height: 540 } });
    const misses = [];
    for (const id of await topicIds(page)) {
      await open(page, env.srv.base, `#/${id}?embed=1`);
      await settled(page);
      // A chart's canvas too (settled waits for a scene's); a miss is listed below.
      await appShows(page, '.stage > .scene canvas[data-painted="1"]', `${id}: the stage painted`).catch(() => {});
      const b = await stageBoxes(page);
      const visible = await page.locator('.stage > .scene').first().isVisible().catch(() => false);
      if (!b.stage || !visible || b.stage.height < 30 || b.stage.width < 200) {
        misses.push(`${id}: no stage (${JSON.stringify(b.stage)})`);
        continue;
      }
      if (!b.painted) misses.push(`${id}: the stage's canvas is not painted`);
      if (b.stage.top >= 540 / 2) misses.push(`${id}: the stage starts at ${b.stage.top}`);
      const min = await stageMinFont(page);
      if (min !== undefined && min < 12 - 0.05) misses.push(`${id}: text ${min.toFixed(2)} px`);
    }
    assert.deepEqual(misses, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('embed=1 shows only the canvas, the player and the key figures, in a 960×540 frame', async () => {
    const page = await newPage(env.browser, { viewport: { width: 960, height: 540 } });
    await open(page, env.srv.base, '#/divergence?embed=1');
    await settled(page);
    assert.equal(await page.locator('[data-testid="notices"]').count(), 0, 'embed is a known parameter');
    for (const sel of ['.site-header', '.panel-header', '.controls', '.explain', '.site-footer']) {
      assert.equal(await page.locator(sel).isVisible().catch(() => false), false, `${sel} hidden`);
    }
    const s = await firstScreen(page);
    for (const b of [s.canvas, s.player, s.metrics]) assert.ok(b && b.bottom <= 541, JSON.stringify(s));
    // The embed code of a panel points at embed=1 of the same view.
    await open(page, env.srv.base, '#/waves?n=1664');
    await painted(page);
    await page.locator('[data-testid="embed-copy"]').click();
    const code = await page.locator('[data-testid="embed-code"]').inputValue();
    assert.match(code, /^<iframe src="[^"]*#\/waves\?[^"]*\bn=1664&[^"]*embed=1&lang=en" width="960" height="540"/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('neighbours: previous and next panel in lecture order; the landing page remembers the last', async () => {
    const page = await newPage(env.browser);
    const ids = await topicIds(page);
    await open(page, env.srv.base, `#/${ids[1]}`);
    await painted(page);
    await page.locator('a.neighbour.next').click();
    await page.waitForFunction((id) => location.hash.startsWith(`#/${id}`), ids[2]);
    await page.locator('a.neighbour.prev').click();
    await page.waitForFunction((id) => location.hash.startsWith(`#/${id}`), ids[1]);
    await open(page, env.srv.base, '#/');
    assert.match(await page.locator('[data-testid="continue"] a').first().getAttribute('href'), new RegExp(`#/${ids[1]}`));
    await page.context().close();
  });
});

describe('stages drawn', () => {
  test('#/recompute steps through the reads and writes: 9 against 5 accesses (slides: 8 against 4)', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1440, height: 900 } });
    await open(page, env.srv.base, '#/recompute');
    await settled(page);
    assert.equal(await page.locator('[data-testid="player"]').count(), 1);
    assert.equal(await metric(page, 'done-store'), 0);
    await page.keyboard.press('End');
    await waitForQuery(page, 'step', '9');
    assert.equal(await metric(page, 'done-store'), 9);
    assert.equal(await metric(page, 'done-recompute'), 5);
    const label = async () => page.locator('canvas[data-testid="scene-canvas"]').getAttribute('aria-label');
    await page.waitForFunction(() => /9 \/ 9/.test(document.querySelector('canvas[data-testid="scene-canvas"]').getAttribute('aria-label')));
    assert.match(await label(), /5 \/ 5/);
    // Step 3: storing writes s2 while recomputing, done with forward, waits.
    await open(page, env.srv.base, '#/recompute?step=3');
    await settled(page);
    assert.match(await label(), /W s2/);
    assert.match(await label(), /waits/);
    assert.equal(await metric(page, 'done-recompute'), 2);
    await open(page, env.srv.base, '#/recompute?upstream=0&step=8');
    await settled(page);
    assert.equal(await metric(page, 'done-store'), 8);
    assert.equal(await metric(page, 'done-recompute'), 4);
    await open(page, env.srv.base, '#/recompute?lang=zh&step=6');
    await settled(page);
    assert.match(await label(), /在寄存器中重算/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('#/your-machine shows its stage before it has run: the M4 Pro roof and empty axes', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1440, height: 900 } });
    await open(page, env.srv.base, '#/your-machine');
    await page.waitForSelector('[data-testid="bench"][data-state="idle"] canvas[data-painted="1"]');
    const b = await stageBoxes(page);
    assert.ok(b.stage.top < 900 && b.stage.bottom <= 901, JSON.stringify(b.stage));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('the deck', () => {
  test('views added from panels round-trip through the JSON file and the shared link, and present in order', async () => {
    const page = await newPage(env.browser, { acceptDownloads: true });
    await open(page, env.srv.base, '#/waves?n=1664');
    await painted(page);
    await page.locator('[data-testid="deck-add"]').click();
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=0');
    await painted(page);
    await page.locator('[data-testid="deck-add"]').click();
    await page.locator('[data-testid="deck-added"]').waitFor();

    await open(page, env.srv.base, '#/deck');
    await page.locator('[data-testid="deck-page"][data-views="2"]').waitFor();
    await page.locator('.deck-view-note').first().fill('why two waves?');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="deck-export"]').click()]);
    const json = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(json.views.length, 2);
    assert.match(json.views[0].url, /^\/waves\?.*\bn=1664\b/);
    assert.match(json.views[1].url, /^\/systolic\?rows=4&cols=4&k=6&.*cycle=0/);
    assert.equal(json.views[0].note, 'why two waves?');

    await page.locator('[data-testid="deck-clear"]').click();
    await page.locator('[data-testid="deck-empty"]').waitFor();
    await page.locator('[data-testid="deck-import"]').setInputFiles({
      name: 'deck.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(json)),
    });
    await page.locator('[data-testid="deck-page"][data-views="2"]').waitFor();

    await page.locator('[data-testid="deck-share"]').click();
    const link = await page.locator('[data-testid="deck-link"]').inputValue();
    // A fresh browser: the link alone carries the deck, and opens in presentation.
    const other = await newPage(env.browser);
    await other.goto(link);
    await appShows(other, '[data-testid="deck-bar"][data-view="1"][data-views="2"]', 'the shared deck link');
    assert.match(await other.evaluate(() => location.hash), /^#\/waves\?.*\bn=1664&.*present=1&deck=1/);
    await painted(other);
    assert.ok((await metric(other, 'waves')) >= 1);
    // No player on waves: PageDown moves to the next view.
    await other.keyboard.press('PageDown');
    await other.locator('[data-testid="deck-bar"][data-view="2"]').waitFor();
    await painted(other);
    // The systolic view: PageDown steps the player first, then (at the end) would move on.
    await other.keyboard.press('PageDown');
    await waitForQuery(other, 'cycle', '1');
    await other.keyboard.press('End');
    await waitForQuery(other, 'cycle', '12');
    await other.keyboard.press('PageUp');
    await waitForQuery(other, 'cycle', '11');
    assert.deepEqual(other.errors, []);
    assert.deepEqual(page.errors, []);
    await other.context().close();
    await page.context().close();
  });

  test('a broken deck file or link is refused with a notice', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/deck?v=https%3A%2F%2Fevil.example%2F&t=x');
    await page.locator('[data-testid="notices"]').waitFor();
    assert.match(await page.locator('[data-testid="notices"]').innerText(), /evil\.example/);
    await page.locator('[data-testid="deck-import"]').setInputFiles({
      name: 'deck.json', mimeType: 'application/json', buffer: Buffer.from('{"views": 3}'),
    });
    await page.waitForFunction(() => /deck|序列/.test(document.querySelector('[data-testid="notices"]')?.innerText ?? ''));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

/** Count the images of a GIF by walking its blocks (header, colour tables, extensions, image data). */
function gifFrames(buf) {
  assert.equal(buf.subarray(0, 6).toString('latin1'), 'GIF89a');
  let i = 13;
  const flags = buf[10];
  if (flags & 0x80) i += 3 * (1 << ((flags & 7) + 1));
  const skipSubBlocks = () => { while (buf[i] !== 0) i += buf[i] + 1; i += 1; };
  let frames = 0;
  for (;;) {
    const b = buf[i++];
    if (b === 0x3b) return frames;
    if (b === 0x21) { i += 1; skipSubBlocks(); continue; }
    assert.equal(b, 0x2c, `block at ${i - 1}`);
    const f = buf[i + 8];
    i += 9;
    if (f & 0x80) i += 3 * (1 << ((f & 7) + 1));
    i += 1; // LZW minimum code size
    skipSubBlocks();
    frames += 1;
  }
}

describe('exports', () => {
  test('the systolic 4×4, K = 6 run exports as a GIF of 13 frames (cycles 0 to 12)', async () => {
    const page = await newPage(env.browser, { acceptDownloads: true });
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&cycle=0');
    await painted(page);
    await page.locator('[data-testid="gif-open"]').click();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60000 }),
      page.locator('[data-testid="gif-start"]').click(),
    ]);
    assert.match(download.suggestedFilename(), /\.gif$/);
    const buf = await readFile(await download.path());
    assert.equal(gifFrames(buf), 13);
    assert.equal(Number(await page.locator('[data-testid="gif-done"]').getAttribute('data-frames')), 13);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('"PNG + figures" saves the canvas with the title and key figures', async () => {
    const page = await newPage(env.browser, { acceptDownloads: true });
    await open(page, env.srv.base, '#/coalescing');
    await painted(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="save-png-figures"]').click()]);
    assert.match(download.suggestedFilename(), /-figures\.png$/);
    const buf = await readFile(await download.path());
    assert.equal(buf.subarray(1, 4).toString('latin1'), 'PNG');
    // Taller than the canvas alone: the title and figures were added (PNG IHDR height, at 2×).
    const h = buf.readUInt32BE(20);
    const canvasH = await page.evaluate(() => document.querySelector('canvas[data-testid="scene-canvas"]').height / devicePixelRatio);
    assert.ok(h / 2 > canvasH + 60, `${h / 2} vs ${canvasH}`);
    await page.context().close();
  });
});
