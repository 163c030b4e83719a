// The built-in lecture (#/lecture): presented with the clicker keys alone
// from the first view to the last in both languages, each view checked
// against the numbers its slide states (tests/lecture_numbers.md); "Make it
// mine"; the landing page's two entries; the study path end to end
// (answers given, progress saved, a reload resumes at the same stop).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, withBrowser, newPage, open, painted, hashQuery, appShows } from './harness.mjs';
import { runCheck } from './lecture-checks.mjs';

/** id → checks, from the lecture-numbers table (the format lecture.test.mjs reads). */
function numberChecks() {
  const md = readFileSync(join(ROOT, 'tests/lecture_numbers.md'), 'utf8');
  const rows = new Map();
  for (const l of md.split('\n')) {
    if (!l.startsWith('| ') || l.startsWith('| id ') || l.startsWith('|---')) continue;
    const cells = l.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim());
    const checks = cells[4] === '—' ? [] : cells[4].split('; ').map((c) => c.replace(/`/g, ''));
    rows.set(cells[0], { url: cells[3].replace(/`/g, ''), checks });
  }
  return rows;
}

/** The view's own parameters as an object (decoded as the app reads them). */
function viewParams(url) {
  return Object.fromEntries(new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : ''));
}

/** The outline of #/lecture: every view with its slide, URL and numbers. */
async function outline(page) {
  return page.$$eval('[data-testid=lecture-view]', (els) =>
    els.map((e) => ({
      id: e.dataset.id,
      slide: Number(e.dataset.slide),
      url: e.dataset.url,
      numbers: e.dataset.numbers ? e.dataset.numbers.split(',') : [],
    })),
  );
}

const RAW = /\b(lecture|deck|practice|frame)\.[a-z][\w.-]*\b|\{[a-z_]+\}/;

describe('the lecture, presented', () => {
  const env = withBrowser();
  const rows = numberChecks();

  for (const lang of ['en', 'zh']) {
    test(`the clicker alone walks the lecture from the first view to the last (${lang})`, async () => {
      const page = await newPage(env.browser, { viewport: { width: 1024, height: 768 } });
      await open(page, env.srv.base, `#/lecture?lang=${lang}`);
      const views = await outline(page);
      assert.ok(views.length >= 25, `${views.length} views`);
      const slides = views.map((v) => v.slide);
      assert.deepEqual(slides, [...slides].sort((a, b) => a - b), 'in slide order');
      assert.doesNotMatch(await page.locator('main').innerText(), RAW);
      await page.locator('[data-testid=lecture-present]').click();
      const failures = [];
      let checked = 0;
      for (let k = 1; k <= views.length; k++) {
        const v = views[k - 1];
        // The next view's panel, its chunk fetched if it is the first of its topic.
        await appShows(page, `[data-metric="deck-view"][data-value="${k}"]`, `view ${k} (${v.id})`);
        assert.equal(await page.locator('[data-metric="deck-views"]').getAttribute('data-value'), String(views.length));
        await painted(page);
        const q = await hashQuery(page);
        const route = (await page.evaluate(() => location.hash)).split('?')[0];
        assert.equal(route, `#${v.url.split('?')[0]}`, `view ${k}`);
        for (const [name, value] of Object.entries(viewParams(v.url))) {
          if (q[name] !== value) failures.push(`view ${k} (${v.id}): ${name}=${q[name]}, the view has ${value}`);
        }
        assert.equal(q.present, '1');
        if (await page.locator('[data-testid=notices]').count()) failures.push(`view ${k} (${v.id}): a notice`);
        const note = await page.locator('[data-testid=deck-bar] .deck-note').innerText();
        const cite = lang === 'en' ? `Slide ${v.slide}` : `第${v.slide}页`;
        if (!note.includes(cite)) failures.push(`view ${k}: the note does not cite ${cite}: ${note.slice(0, 60)}`);
        if (RAW.test(await page.locator('main').innerText())) failures.push(`view ${k}: a raw key or placeholder`);
        for (const id of v.numbers) {
          const row = rows.get(id);
          assert.ok(row, `${v.id}: no row ${id}`);
          for (const check of row.checks) {
            if (lang === 'zh' && check.startsWith('text:') && !/\d/.test(check.split('~')[1] ?? '')) continue;
            try {
              await runCheck(page, check);
              checked++;
            } catch (e) {
              failures.push(`view ${k} (${v.id}) ${id} ${check}: ${e.message.split('\n')[0]}`);
            }
          }
        }
        // The clicker: a panel with a player steps to its end first (End
        // gets there at once), then PageDown opens the next view.
        if (await page.locator('[data-testid=player]').count()) {
          await page.keyboard.press('End');
          await page.waitForFunction(() => {
            const s = document.querySelector('[data-testid=player-scrub]');
            return s && s.value === s.max;
          });
        }
        await page.keyboard.press('PageDown');
      }
      // Past the last view nothing moves; PageUp from a player's start goes back.
      await page.waitForTimeout(300);
      assert.equal(await page.locator('[data-metric="deck-view"]').getAttribute('data-value'), String(views.length));
      if (await page.locator('[data-testid=player]').count()) {
        await page.keyboard.press('Home');
        // PageUp goes back a view only from the player's start: wait for Home to land.
        await page.waitForFunction(() => {
          const s = document.querySelector('[data-testid=player-scrub]');
          return s && s.value === s.min;
        });
      }
      await page.keyboard.press('PageUp');
      await page.locator(`[data-metric="deck-view"][data-value="${views.length - 1}"]`).waitFor();
      assert.deepEqual(failures, []);
      assert.ok(checked >= 40, `${checked} checks`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('a language switch while presenting shows the notes in the new language', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/lecture?lang=en');
    await page.locator('[data-testid=lecture-present]').click();
    await page.locator('[data-metric="deck-view"][data-value="1"]').waitFor();
    assert.match(await page.locator('.deck-note').innerText(), /Slide 2/);
    // (projected, the header and its language button are hidden: the link's language changes)
    await page.evaluate(() => { location.hash = location.hash.replace('lang=en', 'lang=zh'); });
    await page.waitForFunction(() => document.querySelector('.deck-note')?.innerText.includes('第2页'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('"Make it mine" copies the lecture into the own deck, which then edits and presents it', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/lecture?lang=zh');
    const n = (await outline(page)).length;
    await page.locator('[data-testid=lecture-mine]').click();
    await page.locator('[data-testid=lecture-mine-done]').waitFor();
    const deck = await page.evaluate(() => JSON.parse(localStorage.getItem('warpscope.deck')));
    assert.equal(deck.views.length, n);
    assert.match(deck.views[0].note, /第2页/);
    await page.locator('[data-testid=lecture-mine-done] a').click();
    await page.locator('[data-testid=deck-page]').waitFor();
    assert.equal(await page.locator('[data-testid=deck-view]').count(), n);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  for (const lang of ['en', 'zh']) {
    test(`the landing page offers the lecture first (${lang})`, async () => {
      const page = await newPage(env.browser);
      await open(page, env.srv.base, `#/?lang=${lang}`);
      const order = await page.evaluate(() => {
        const links = document.querySelector('[data-testid=lecture-links]');
        const part = document.querySelector('.landing-part');
        return links && part ? links.compareDocumentPosition(part) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
      });
      assert.ok(order, 'the lecture links come before the parts');
      await page.locator('[data-testid=landing-present]').click();
      await page.locator('[data-testid=lecture-page]').waitFor();
      await page.goBack();
      await page.locator('[data-testid=landing-study]').click();
      await page.locator('[data-testid=study-path]').waitFor();
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

describe('the lecture, studied', () => {
  const env = withBrowser();

  /** Answer the question on screen: a number, or the first option. */
  async function answer(page) {
    const check = page.locator('[data-testid=study-check]');
    await check.waitFor();
    assert.equal(await check.getAttribute('data-revealed'), 'false');
    assert.ok(await page.locator('[data-testid=study-next]').isDisabled(), 'no way on before the answer');
    if (await page.locator('[data-testid=practice-input]').count()) {
      await page.locator('[data-testid=practice-input]').fill('1');
    } else {
      await page.locator('[data-testid=practice-choice]').first().click();
    }
    await page.locator('[data-testid=practice-reveal]').click();
    await page.locator('[data-testid=study-check][data-revealed="true"]').waitFor();
    await page.locator('[data-testid=practice-grade]').waitFor();
    // The panel reveals: embedded at the question's configuration.
    const src = await page.locator('[data-testid=study-answer-frame]').getAttribute('src');
    assert.ok(src.includes(`#/${await check.getAttribute('data-topic')}`), src);
    const lines = await page.locator('[data-testid=summary-line]').allInnerTexts();
    assert.ok(lines.length >= 2 && lines.every((l) => /\d/.test(l)), lines.join(' | '));
    return check.getAttribute('data-part');
  }

  test('answers given, progress saved, a reload resumes at the same stop, to the end', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/lecture?study=1&lang=en');
    const path = page.locator('[data-testid=study-path]');
    const stops = Number(await path.getAttribute('data-stops'));
    assert.ok(stops >= 29);
    const parts = [];
    let reloaded = false;
    for (let s = 0; s < stops; s++) {
      await page.locator(`[data-testid=study-path][data-stop="${s}"]`).waitFor();
      if (await page.locator('[data-testid=study-check]').count()) {
        parts.push(await answer(page));
      } else {
        const view = page.locator('[data-testid=study-view]');
        const url = await view.getAttribute('data-url');
        assert.ok((await page.locator('[data-testid=study-frame]').getAttribute('src')).includes(`#${url}`));
        assert.match(await page.locator('[data-testid=study-note]').innerText(), new RegExp(`Slide ${await view.getAttribute('data-slide')}\\b`));
      }
      assert.doesNotMatch(await page.locator('main').innerText(), RAW);
      // After the first part and two views of the second: reload, resume here.
      if (!reloaded && parts.length === 1 && (await page.locator('[data-testid=study-view]').count())) {
        const id = await page.locator('[data-testid=study-view]').getAttribute('data-id');
        const next = page.locator('[data-testid=study-next]');
        await next.click();
        await page.locator(`[data-testid=study-path][data-stop="${s + 1}"]`).waitFor();
        const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('warpscope.lecture.study')));
        assert.equal(saved.stop, s + 1);
        assert.equal(saved.answers.length, 1);
        await page.reload();
        await appShows(page, `[data-testid=study-path][data-stop="${s + 1}"]`, `stop ${s + 1} after a reload`);
        const after = await page.locator('[data-testid=study-view]').getAttribute('data-id');
        assert.notEqual(after, id);
        await page.locator('[data-testid=study-prev]').click();
        await page.locator(`[data-testid=study-path][data-stop="${s}"]`).waitFor();
        assert.equal(await page.locator('[data-testid=study-view]').getAttribute('data-id'), id);
        // The landing page says where to continue.
        await open(page, env.srv.base, '#/?lang=zh');
        // The page switches once the 中文 texts are in.
        await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
        const cont = page.locator('[data-testid=lecture-continue]');
        assert.equal(await cont.getAttribute('data-stop'), String(s));
        assert.match(await cont.innerText(), /继续/);
        await cont.click();
        await page.locator(`[data-testid=study-path][data-stop="${s}"]`).waitFor();
        assert.doesNotMatch(await page.locator('main').innerText(), RAW);
        assert.match(await page.locator('[data-testid=study-note]').innerText(), /第\d+页/);
        await open(page, env.srv.base, '#/lecture?study=1&lang=en');
        await page.locator(`[data-testid=study-path][data-stop="${s}"]`).waitFor();
        reloaded = true;
      }
      if (s + 1 < stops) await page.locator('[data-testid=study-next]').click();
    }
    assert.ok(reloaded);
    assert.deepEqual(parts, ['gpu', 'fast', 'tiling', 'flash']);
    await page.locator('[data-testid=study-done]').waitFor();
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('warpscope.lecture.study')));
    assert.equal(saved.answers.length, 4);
    // An answered question stays answered after a reload.
    await page.reload();
    await appShows(page, '[data-testid=study-check][data-revealed="true"]', 'the revealed check after a reload');
    assert.equal(await page.locator('[data-testid=practice-grade]').count(), 1);
    await page.locator('[data-testid=study-restart]').click();
    await page.locator('[data-testid=study-path][data-stop="0"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

/**
 * In the page: resolves true once the stage's layout (every canvas's box,
 * the key figures' box, the deck bar) has stayed the same for 8 polls in a
 * row (the canvas is redrawn to fit the screen once or twice after its first
 * paint). A readiness wait, polled by waitForFunction: no fixed pause.
 */
function layoutSettled() {
  const boxes = [...document.querySelectorAll('.stage canvas, .stage > .readouts, [data-testid=deck-bar]')]
    .map((e) => { const r = e.getBoundingClientRect(); return `${Math.round(r.top)},${Math.round(r.bottom)},${Math.round(r.width)}`; })
    .join(';');
  const painted = [...document.querySelectorAll('canvas[data-testid="scene-canvas"]')].every((c) => c.dataset.painted === '1');
  const s = (window.__settle ??= { boxes: '', same: 0 });
  if (boxes === s.boxes && painted) s.same += 1;
  else { s.boxes = boxes; s.same = 0; }
  return s.same >= 8;
}

/** What the first screen shows of a presented view (viewport coordinates). */
function firstScreen() {
  const vh = window.innerHeight;
  const shown = (e) => e.checkVisibility() && e.getBoundingClientRect().height > 0;
  // Every drawing of the stage (a scene's canvas, a chart) that starts on the screen.
  const cut = [...document.querySelectorAll('.stage canvas')].filter(shown)
    .map((c) => c.getBoundingClientRect())
    .filter((r) => r.top < vh && r.bottom > vh + 1)
    .map((r) => `a drawing from ${Math.round(r.top)} to ${Math.round(r.bottom)}`);
  // The canvases' text as shown (their smallest font × how much the page scales them).
  const fonts = [...document.querySelectorAll('.stage canvas[data-min-font]')].filter(shown)
    .map((c) => Number(c.dataset.minFont) * c.getBoundingClientRect().width / (c.width / devicePixelRatio));
  const labels = [...document.querySelectorAll('.stage .readouts .metric-label')].filter(shown)
    .map((l) => parseFloat(getComputedStyle(l).fontSize));
  const figures = document.querySelector('.stage > .readouts');
  // A legend (HTML) explains the drawing: all of it on the first screen.
  const legends = [...document.querySelectorAll('.stage > .legend')].filter(shown)
    .map((l) => l.getBoundingClientRect())
    .filter((r) => r.bottom > vh + 1)
    .map((r) => `a legend from ${Math.round(r.top)} to ${Math.round(r.bottom)}`);
  // The lowest of what the first screen shows of the stage: the drawings
  // that start on it, their legends, the player and the key figures.
  const parts = [...document.querySelectorAll('.stage canvas, .stage > .legend, .stage > .player, .stage > .readouts')]
    .filter(shown).map((e) => e.getBoundingClientRect()).filter((r) => r.top < vh);
  const lowest = parts.length ? Math.max(...parts.map((r) => r.bottom)) : null;
  // The words the scene draws (a canvas's text alternative reads them).
  const drawn = [...document.querySelectorAll('.stage canvas[data-testid="scene-canvas"]')].filter(shown)
    .map((c) => c.getAttribute('aria-label') ?? '').join(' ');
  const bar = document.querySelector('[data-testid=deck-bar]').getBoundingClientRect();
  const next = document.querySelector('[data-testid=deck-next]').getBoundingClientRect();
  return {
    cut,
    legends,
    lowest,
    drawn,
    canvasText: fonts.length ? Math.min(...fonts) : null,
    label: labels.length ? Math.min(...labels) : null,
    figuresTop: figures ? figures.getBoundingClientRect().top : null,
    figuresBottom: figures ? figures.getBoundingClientRect().bottom : null,
    bar: bar.height,
    next: [Math.round(next.left), Math.round(next.top)],
    wide: document.documentElement.scrollWidth > window.innerWidth,
  };
}

/** A text of a topic's table (src/topics/<id>/texts.tsv) in `lang`. */
function topicText(id, key, lang) {
  const row = readFileSync(join(ROOT, 'src/topics', id, 'texts.tsv'), 'utf8').split('\n').find((l) => l.startsWith(`${key}\t`));
  assert.ok(row, `${id}: no ${key}`);
  return row.split('\t')[lang === 'en' ? 1 : 2];
}

/** Presents the outline's views one by one from the lecture page (its
 *  Present button, then the deck bar's →), calling `check(k, view)` once
 *  view k is painted and its layout settled. */
async function walkDeck(page, views, check) {
  await page.locator('[data-testid=lecture-present]').click();
  for (let k = 1; k <= views.length; k++) {
    const v = views[k - 1];
    await appShows(page, `[data-metric="deck-view"][data-value="${k}"]`, `view ${k} (${v.id})`);
    await painted(page);
    await page.evaluate(() => { window.__settle = undefined; });
    await page.waitForFunction(layoutSettled, null, { polling: 50, timeout: 30000 });
    await check(k, v);
    if (k < views.length) await page.locator('[data-testid=deck-next]').click();
  }
}

/** The room left under what a presented view shows first (CSS pixels). */
const MARGIN = 8;

describe('the lecture, projected at 1024 × 768', () => {
  const env = withBrowser();

  for (const lang of ['en', 'zh']) {
    test(`every view fits the screen with the deck's bar, its text 18 px at least, → in one place (${lang})`, async () => {
      const page = await newPage(env.browser, { viewport: { width: 1024, height: 768 } });
      await open(page, env.srv.base, `#/lecture?lang=${lang}&present=1`);
      const views = await outline(page);
      const misses = [];
      const nexts = new Set();
      await walkDeck(page, views, async (k, v) => {
        const s = await page.evaluate(firstScreen);
        const at = `view ${k} (${v.url.split('?')[0]})`;
        for (const c of s.cut) misses.push(`${at}: ${c}`);
        // Issue 32: flash's legend (HTML under the canvas) ended at 768–832.
        for (const l of s.legends) misses.push(`${at}: ${l}`);
        if (s.lowest !== null && s.lowest > 768 - MARGIN) misses.push(`${at}: the stage ends at ${Math.round(s.lowest)}, under ${768 - MARGIN}`);
        // FlashAttention's grid draws its legend, in the view's language.
        if (v.url.startsWith('/flash?')) {
          const word = topicText('flash', 'flash.legend.done', lang);
          if (!s.drawn.includes(word)) misses.push(`${at}: no "${word}" in the drawing`);
        }
        if (s.canvasText !== null && s.canvasText < 18 - 0.05) misses.push(`${at}: canvas text ${s.canvasText.toFixed(1)} px`);
        if (s.label !== null && s.label < 18 - 0.05) misses.push(`${at}: key-figure labels ${s.label} px`);
        if (s.figuresTop !== null && s.figuresTop >= 768) misses.push(`${at}: the key figures start at ${Math.round(s.figuresTop)}`);
        // All of them on the screen, the last row too (flash's, systolic's and recompute's ran past it).
        if (s.figuresBottom !== null && s.figuresBottom > 768 + 1) misses.push(`${at}: the key figures end at ${Math.round(s.figuresBottom)}`);
        if (s.bar > 140) misses.push(`${at}: the deck bar ${Math.round(s.bar)} px tall`);
        if (s.wide) misses.push(`${at}: the page is wider than the screen`);
        if (k < views.length) nexts.add(s.next.join(','));
      });
      assert.deepEqual(misses, []);
      assert.equal(nexts.size, 1, `the → button moved: ${[...nexts].join(' | ')}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

/**
 * In the page: what a phone presenting a view shows, whole or cut. Each
 * drawing of the stage (a scene's canvas, a chart), the player and the key
 * figures: inside the screen's width, and their bottom reachable (scrolled
 * to, it is on the screen: nothing clips it); the page scrolls sideways or
 * not; the canvases' text as shown.
 */
function onPhone() {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const shown = (e) => e.checkVisibility() && e.getBoundingClientRect().height > 0;
  const misses = [];
  const parts = [
    ...[...document.querySelectorAll('.stage canvas')].filter(shown).map((e) => ['a drawing', e]),
    ...[...document.querySelectorAll('.stage > .player, .stage > .readouts')].filter(shown).map((e) => [e.classList[0], e]),
  ];
  for (const [what, e] of parts) {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > vw + 0.5) misses.push(`${what} from x ${Math.round(r.left)} to ${Math.round(r.right)}`);
    e.scrollIntoView({ block: 'end', behavior: 'instant' });
    const b = e.getBoundingClientRect().bottom;
    if (b > vh + 1) misses.push(`${what}'s bottom out of reach (${Math.round(b)} on a ${vh} px screen)`);
  }
  window.scrollTo({ top: 0, behavior: 'instant' });
  // A scene's drawing takes its column's width (it was shrunk to the height
  // left under the deck's bar: recompute's to 171 of 326 px).
  for (const c of [...document.querySelectorAll('.stage > .scene > canvas[data-testid="scene-canvas"]')].filter(shown)) {
    const col = c.parentElement.clientWidth;
    const cw = c.getBoundingClientRect().width;
    if (cw < 0.85 * col) misses.push(`a drawing ${Math.round(cw)} px wide in a ${col} px column`);
  }
  if (document.documentElement.scrollWidth > vw) misses.push(`the page ${document.documentElement.scrollWidth} px wide`);
  const fonts = [...document.querySelectorAll('.stage canvas[data-min-font]')].filter(shown)
    .map((c) => Number(c.dataset.minFont) * c.getBoundingClientRect().width / (c.width / devicePixelRatio));
  const text = fonts.length ? Math.min(...fonts) : null;
  if (text !== null && text < 10 - 0.05) misses.push(`canvas text ${text.toFixed(1)} px`);
  if (!document.querySelector('.stage > .readouts, .stage [data-metric]')) misses.push('no key figures');
  return misses;
}

describe('the lecture, presented on a phone', () => {
  const env = withBrowser();

  // Issue 32: a phone presenting the deck cut the systolic array (drawn
  // past its canvas's right edge, then shrunk to 12.5 px text), shrank
  // recompute's drawing to 9.4 px text, and fusion's kernels ran 47 px past
  // a 360 px screen. Each view: the whole drawing in the width, text 10 px
  // at least, every bottom reachable by scrolling down, nothing sideways.
  for (const [width, height, lang] of [[360, 740, 'en'], [360, 740, 'zh'], [390, 844, 'en']]) {
    test(`at ${width}×${height} every view shows its whole drawing and key figures (${lang})`, async () => {
      const page = await newPage(env.browser, { viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      await open(page, env.srv.base, `#/lecture?lang=${lang}&present=1`);
      const views = await outline(page);
      const misses = [];
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      if (wide > width) misses.push(`#/lecture: the page ${wide} px wide`);
      await walkDeck(page, views, async (k, v) => {
        for (const m of await page.evaluate(onPhone)) misses.push(`view ${k} (${v.url.split('?')[0]}): ${m}`);
      });
      assert.deepEqual(misses, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

describe('the study path shows what its notes talk about', () => {
  const env = withBrowser();
  /** The study stop of lecture view `i` (each earlier part's check is a stop too). */
  const stopOf = (i) => i + [9, 21, 28].filter((first) => first <= i).length;

  test('the waves stops draw the sawtooth; every embed frame ends with its stage; systolic starts at the top', async () => {
    const page = await newPage(env.browser, { viewport: { width: 1440, height: 900 } });
    await open(page, env.srv.base, '#/lecture?lang=en');
    const views = await outline(page);
    const pick = ['s2', 's11', 's12', 's13-mxu', 's20', 's44'];
    const misses = [];
    for (const id of pick) {
      const i = views.findIndex((v) => v.id === id);
      const stop = stopOf(i);
      await page.evaluate((stop) => localStorage.setItem('warpscope.lecture.study', JSON.stringify({ stop, answers: [] })), stop);
      // The study page reads the stop when it starts: open it afresh.
      await open(page, env.srv.base, '#/lecture?study=1&lang=en');
      await page.reload();
      await appShows(page, `[data-testid=study-path][data-stop="${stop}"]`, `stop ${stop}`);
      assert.equal(await page.locator('[data-testid=study-view]').getAttribute('data-url'), views[i].url);
      const frame = page.frameLocator('[data-testid=study-frame]');
      await frame.locator('.stage canvas[data-painted="1"]').first().waitFor({ timeout: 120000 });
      // The frame is cut to its stage once that has settled (data-fitted), or kept when full.
      await page.waitForFunction(() => {
        const f = document.querySelector('[data-testid=study-frame]');
        const stage = f.contentDocument?.querySelector('.stage');
        return f.dataset.fitted || (stage && stage.getBoundingClientRect().bottom > f.clientHeight - 40);
      }, null, { timeout: 30000 });
      const m = await page.evaluate(() => {
        const f = document.querySelector('[data-testid=study-frame]');
        const d = f.contentDocument;
        const shown = (e) => e.checkVisibility() && e.getBoundingClientRect().height > 0;
        const canvases = [...d.querySelectorAll('.stage canvas')].filter(shown).map((c) => c.getBoundingClientRect());
        return {
          frame: f.clientHeight,
          bottom: d.querySelector('.stage').getBoundingClientRect().bottom,
          firstTop: Math.min(...canvases.map((r) => r.top)),
          chart: [...d.querySelectorAll('.stage > .beside-scene canvas')].some(shown),
        };
      });
      if (id === 's2' || id === 's20') {
        if (!m.chart) misses.push(`${id}: no sawtooth in the embed`);
      }
      if (m.frame - m.bottom > 48) misses.push(`${id}: ${Math.round(m.frame - m.bottom)} px blank under the stage`);
      if (m.firstTop > 60) misses.push(`${id}: the drawing starts ${Math.round(m.firstTop)} px down`);
      // The note matches what is shown (slide 44: the tiles, not a curve).
      if (id === 's44') assert.match(await page.locator('[data-testid=study-note]').innerText(), /tiles/);
    }
    assert.deepEqual(misses, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
