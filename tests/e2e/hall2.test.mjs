// Issue 32, third pass of the lecture hall (items 1, 3, 6, 9, 10): slide 36
// readable projected, one click from a projected start page presents, a
// revealed practice answer shown whole projected, the start page's entry to
// the practice round on a phone, the your-machine embed's pointer, and the
// systolic player inside a 360 px phone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, appShows, waitForApp } from './harness.mjs';

const env = withBrowser();

const PROJECTOR = { viewport: { width: 1024, height: 768 } };
const LAPTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** The scene canvas's shown size over the size it was drawn at (1: unscaled),
 *  once the panel has fitted its drawing to the screen (a few redraws: the
 *  canvas's size then holds over ten animation frames). */
async function sceneScale(page) {
  return page.evaluate(async () => {
    const size = () => {
      const c = document.querySelector('canvas[data-testid="scene-canvas"]');
      const r = c.getBoundingClientRect();
      return `${c.width}x${c.height} ${r.width}x${r.height}`;
    };
    let last = size();
    for (let still = 0; still < 10;) {
      await new Promise((done) => requestAnimationFrame(done));
      const now = size();
      still = now === last ? still + 1 : 0;
      last = now;
    }
    const c = document.querySelector('canvas[data-testid="scene-canvas"]');
    const drawn = c.width / window.devicePixelRatio;
    const r = c.getBoundingClientRect();
    return { scale: r.width / drawn, bottom: r.bottom, height: r.height };
  });
}

describe('slide 36: 32 lanes → 32 sections, readable', () => {
  for (const pattern of ['column', 'random']) {
    for (const [name, opts, present, min] of [['1024×768 projected', PROJECTOR, true, 18], ['1440×900', LAPTOP, false, 12]]) {
      test(`pattern=${pattern} at ${name}: the drawing is not scaled down (text ≥ ${min} px)`, async () => {
        const page = await newPage(env.browser, opts);
        await open(page, env.srv.base, `#/coalescing?pattern=${pattern}${present ? '&present=1' : ''}`);
        await painted(page);
        const { scale } = await sceneScale(page);
        // The drawing's smallest text is the mode's smallest (a native test:
        // draw::coalescing); shown unscaled, it is that size on the screen.
        assert.ok(scale >= 0.995, `shown at ${scale.toFixed(3)} of its size: text ${(min * scale).toFixed(1)} px`);
        assert.deepEqual(page.errors, []);
        await page.context().close();
      });
    }
  }
});

describe('a projected start page', () => {
  test('"Present the lecture ▶" presents view 1, projected, in one click; every link keeps present=1', async () => {
    const page = await newPage(env.browser, PROJECTOR);
    await open(page, env.srv.base, '#/?present=1');
    await appShows(page, '[data-testid=landing-present]');
    const bare = await page.evaluate(() =>
      [...document.querySelectorAll('.app a[href^="#/"]')].map((a) => a.getAttribute('href')).filter((h) => !/[?&]present=1(&|$)/.test(h)));
    assert.deepEqual(bare, [], 'links on the projected start page that drop present=1');
    await page.locator('[data-testid=landing-present]').click();
    await waitForApp(page, 'view 1 of the deck, projected', () => {
      const q = new URLSearchParams(location.hash.split('?')[1] ?? '');
      return q.get('deck') === '1' && q.get('present') === '1' && document.documentElement.classList.contains('present') &&
        !!document.querySelector('[data-topic]');
    });
    await painted(page);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the lecture page, projected: every link keeps present=1', async () => {
    const page = await newPage(env.browser, PROJECTOR);
    await open(page, env.srv.base, '#/lecture?present=1');
    await appShows(page, '[data-testid=lecture-page]');
    const bare = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=lecture-page] a[href^="#/"]')].map((a) => a.getAttribute('href'))
        .filter((h) => !/[?&]present=1(&|$)/.test(h)));
    assert.deepEqual(bare, []);
    await page.context().close();
  });
});

describe('projected practice', () => {
  test('after R the explanation is shown whole: no box of its own to scroll, on the first screen', async () => {
    const page = await newPage(env.browser, PROJECTOR);
    await open(page, env.srv.base, '#/waves?practice=1&q=0&present=1');
    await appShows(page, '[data-testid=practice-card]');
    await page.keyboard.press('r');
    await appShows(page, '[data-testid=practice-card][data-revealed="true"]');
    const seen = await page.evaluate(() => {
      const card = document.querySelector('[data-testid=practice-card]');
      const boxes = [card, ...card.querySelectorAll('*')]
        .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowY) && e.scrollHeight > e.clientHeight + 1)
        .map((e) => `${e.tagName}.${e.className} ${e.clientHeight}/${e.scrollHeight}`);
      const why = card.querySelector('.practice-explain');
      return { boxes, why: why?.innerText.length ?? 0, bottom: card.getBoundingClientRect().bottom, inner: innerHeight };
    });
    assert.deepEqual(seen.boxes, [], 'boxes that scroll inside the card');
    assert.ok(seen.why > 40, 'the explanation is shown');
    assert.ok(seen.bottom <= seen.inner, `the card ends at ${seen.bottom} of ${seen.inner} px`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('small texts and phones', () => {
  test('a phone\'s start page leads to the practice round', async () => {
    const page = await newPage(env.browser, PHONE);
    await open(page, env.srv.base, '#/');
    await appShows(page, '[data-testid=landing-practice]');
    await page.locator('[data-testid=landing-practice]').click();
    await waitForApp(page, 'the practice round', () => location.hash.startsWith('#/practice'));
    await appShows(page, '[data-testid=round-question]');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the your-machine embed points to its panel, not to a Controls button it lacks', async () => {
    const page = await newPage(env.browser, { viewport: { width: 960, height: 540 } });
    await open(page, env.srv.base, '#/your-machine?embed=1');
    await appShows(page, '[data-testid=embed-open-panel]');
    const href = await page.locator('[data-testid=embed-open-panel]').getAttribute('href');
    assert.match(href, /^#\/your-machine\?/);
    const text = await page.evaluate(() => document.body.innerText + ' ' +
      [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join(' '));
    assert.ok(!/Controls|☰/.test(text), 'no Controls named in an embed');
    assert.equal(await page.locator('[data-testid=drawer-toggle]').count(), 0);
    await page.context().close();
  });

  test('the systolic player stays inside a 360 px phone on a long run', async () => {
    const page = await newPage(env.browser, PHONE);
    await open(page, env.srv.base, '#/systolic?rows=32&cols=32&m=256&k=256&n=128&dataflow=ws');
    await appShows(page, '[data-testid=player-speed]');
    const seen = await page.evaluate(() => {
      const player = document.querySelector('[data-testid=player]').getBoundingClientRect();
      const out = [...document.querySelectorAll('[data-testid=player] *')]
        .filter((e) => e.checkVisibility() && e.getBoundingClientRect().right > player.right + 0.5)
        .map((e) => `${e.tagName}.${e.className} → ${Math.round(e.getBoundingClientRect().right)}`);
      return { out, right: player.right, scroll: document.documentElement.scrollWidth };
    });
    assert.deepEqual(seen.out, [], `past the player's right edge (${seen.right})`);
    assert.ok(seen.scroll <= 360, `the page is ${seen.scroll} px wide`);
    await page.context().close();
  });
});
