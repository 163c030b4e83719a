// Access: an automated audit (axe-core) on every page in both languages, a
// keyboard-only tour of every control with visible focus, and a text
// alternative for every canvas (a label a screen reader reads; charts also
// have their data as a table).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { withBrowser, newPage, open, painted } from './harness.mjs';

const env = withBrowser();
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function ids(page) {
  await open(page, env.srv.base, '#/');
  return ['', ...(await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic)))];
}

describe('axe-core audit', () => {
  test('no serious or critical violation on any page, in both languages and projector mode', async () => {
    // The audit script is injected by the test, so the page's CSP is bypassed for it alone.
    const page = await newPage(env.browser, { bypassCSP: true });
    const found = [];
    for (const id of await ids(page)) {
      for (const extra of ['lang=en', 'lang=zh', 'lang=en&present=1']) {
        if (extra.includes('present') && id === '') continue;
        await open(page, env.srv.base, `#/${id}?${extra}`);
        await painted(page);
        if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
        const violations = await page.evaluate(async () => {
          const r = await window.axe.run(document, { resultTypes: ['violations'] });
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        });
        for (const v of violations) found.push(`#/${id}?${extra}: ${v}`);
      }
    }
    assert.deepEqual(found, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('keyboard only', () => {
  test('Tab reaches every control of every page, each with a visible focus; Shift-Tab goes back', async () => {
    const page = await newPage(env.browser);
    for (const id of await ids(page)) {
      await open(page, env.srv.base, `#/${id}`);
      await painted(page);
      const total = await page.evaluate(() => {
        const all = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
          .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length > 0
            && getComputedStyle(el).visibility !== 'hidden');
        all.forEach((el, i) => { el.dataset.kbd = String(i); });
        // Start from the top of the page, whatever had focus on the page before.
        all[0]?.focus();
        return all.length;
      });
      assert.ok(total > 0, id);
      const reached = new Set(['0']);
      let previous = '0';
      for (let i = 0; i < total + 5 && reached.size < total; i++) {
        await page.keyboard.press('Tab');
        const f = await page.evaluate(() => {
          const el = document.activeElement;
          const s = getComputedStyle(el);
          const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
          return { idx: el.dataset.kbd ?? null, tag: el.tagName, visible: outline || s.boxShadow !== 'none',
            what: `${el.tagName} ${el.className} ${el.dataset.param ?? ''} ${el.textContent.slice(0, 30)}` };
        });
        if (f.idx === null) { previous = null; continue; } // the browser's own chrome or the body
        assert.ok(f.visible, `#/${id}: no visible focus on ${f.what}`);
        reached.add(f.idx);
        if (previous !== null && i % 7 === 3) {
          await page.keyboard.press('Shift+Tab');
          assert.equal(await page.evaluate(() => document.activeElement.dataset.kbd ?? null), previous,
            `#/${id}: Shift-Tab from ${f.what}`);
          await page.keyboard.press('Tab');
        }
        previous = f.idx;
      }
      const missed = await page.evaluate((got) => [...document.querySelectorAll('[data-kbd]')]
        .filter((el) => !got.includes(el.dataset.kbd))
        .map((el) => `${el.tagName} ${el.className} ${el.dataset.param ?? ''} ${el.textContent.slice(0, 30)}`), [...reached]);
      assert.deepEqual(missed, [], `#/${id}: not reached by Tab`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('text alternatives', () => {
  test('every canvas has a label a screen reader reads; every chart has its data as a table', async () => {
    const page = await newPage(env.browser);
    const unfigured = [];
    for (const lang of ['en', 'zh']) {
      for (const id of (await ids(page)).slice(1)) {
        await open(page, env.srv.base, `#/${id}?lang=${lang}`);
        await painted(page);
        const canvases = await page.$$eval('canvas', (cs) => cs.map((c) => ({
          hidden: c.getAttribute('aria-hidden') === 'true' || c.closest('[aria-hidden="true"]') !== null,
          role: c.getAttribute('role'), label: c.getAttribute('aria-label') ?? '' })));
        for (const c of canvases.filter((c) => !c.hidden)) {
          assert.equal(c.role, 'img', `#/${id}: a canvas without role="img"`);
          assert.ok(c.label.trim().length >= 3, `#/${id} ${lang}: a canvas without a label`);
        }
        // A scene's label carries what it draws, figures included.
        for (const label of await page.$$eval('canvas[data-testid="scene-canvas"]', (cs) => cs.map((c) => c.getAttribute('aria-label')))) {
          if (!/\d/.test(label)) unfigured.push(`#/${id}?lang=${lang}: ${label}`);
          // The caption is read once (issue 22: it was read again among the drawing's labels).
          const parts = label.split('; ').map((x) => x.trim());
          const repeated = parts.slice(1).filter((x) => x === parts[0] || (x.includes(' ') && parts[0].includes(x)));
          assert.deepEqual(repeated, [], `#/${id}?lang=${lang}: the caption twice in "${label.slice(0, 160)}"`);
        }
        const charts = await page.$$eval('[data-testid="chart"]', (cs) => cs.map((c) => ({
          rows: c.querySelectorAll('table tbody tr').length,
          caption: c.querySelector('table caption')?.textContent ?? '' })));
        for (const c of charts) {
          assert.ok(c.rows >= 1 && c.caption.length > 0, `#/${id}: a chart without its table`);
        }
      }
    }
    assert.deepEqual(unfigured, [], "scene labels without the scene's figures");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
