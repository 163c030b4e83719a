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
      if (await page.locator('[data-testid=player]').count()) await page.keyboard.press('Home');
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
