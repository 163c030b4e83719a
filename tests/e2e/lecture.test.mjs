// Every reproducible number of the lecture, through the UI: the table in
// tests/lecture_numbers.md lists each number with the panel URL that
// reproduces it and the checks; this file opens each URL and runs them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, withBrowser, newPage, open } from './harness.mjs';

const UNITS = { '%': 0.01, kB: 1e3, MB: 1e6, GB: 1e9 };

/** The rows of the lecture-numbers table that have checks. */
export function lectureRows() {
  const md = readFileSync(join(ROOT, 'tests/lecture_numbers.md'), 'utf8');
  return md
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| id ') && !l.startsWith('|---'))
    .map((l) => l.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim()))
    .map(([id, source, lecture, url, checks]) => ({
      id,
      source,
      lecture,
      url: url.replace(/`/g, ''),
      checks: checks === '—' ? [] : checks.split('; ').map((c) => c.replace(/`/g, '')),
    }))
    .filter((r) => r.checks.length);
}

/** "12.6 MB" → value 12.6e6 and half a unit of its last digit (0.05e6). */
export function expected(text) {
  const m = text.trim().match(/^(-?[\d.]+(?:e-?\d+)?)\s*(%|kB|MB|GB)?$/);
  assert.ok(m, `cannot read "${text}"`);
  const scale = UNITS[m[2]] ?? 1;
  const decimals = m[1].includes('.') && !m[1].includes('e') ? m[1].split('.')[1].length : 0;
  return { value: Number(m[1]) * scale, tol: 0.5 * 10 ** -decimals * scale * (1 + 1e-9) };
}

async function runCheck(page, check) {
  const [kind, rest] = [check.slice(0, check.indexOf(':')), check.slice(check.indexOf(':') + 1)];
  if (kind === 'metric') {
    const [, name, op, want] = rest.match(/^([\w-]+)(=|<)(.+)$/);
    const el = page.locator(`[data-metric="${name}"][data-value]`);
    await el.waitFor({ timeout: 30000 });
    const got = Number(await el.getAttribute('data-value'));
    if (op === '<') return assert.ok(got < Number(want), `${name} = ${got}, want < ${want}`);
    const e = expected(want);
    assert.ok(Math.abs(got - e.value) <= e.tol, `${name} = ${got}, lecture ${want}`);
  } else if (kind === 'text') {
    const [sel, want] = rest.split('~');
    await page.locator(sel).first().waitFor();
    const text = await page.locator(sel).first().innerText();
    assert.ok(text.includes(want), `${sel}: "${want}" not in "${text.slice(0, 200)}"`);
  } else if (kind === 'attr') {
    const [sel, pair] = rest.split('@');
    const [attr, want] = pair.split('=');
    await page.locator(sel).first().waitFor();
    assert.equal(await page.locator(sel).first().getAttribute(attr), want, `${sel}@${attr}`);
  } else {
    assert.fail(`unknown check ${check}`);
  }
}

test('the table reads as expected', () => {
  assert.deepEqual(expected('0.1%'), { value: 0.001, tol: 0.0005 * (1 + 1e-9) });
  assert.equal(expected('12.6 MB').value, 12.6e6);
  assert.equal(expected('990').tol, 0.5 * (1 + 1e-9));
  assert.ok(lectureRows().length >= 60);
});

describe("the lecture's numbers, through the UI", () => {
  const env = withBrowser();
  for (const lang of ['en', 'zh']) {
    test(`every reproducible number (${lang})`, async () => {
      const page = await newPage(env.browser);
      const failures = [];
      for (const row of lectureRows()) {
        // A fresh document per row: a figure of the previous panel is never read.
        await page.goto('about:blank');
        await open(page, env.srv.base, `${row.url}${row.url.includes('?') ? '&' : '?'}lang=${lang}`);
        for (const check of row.checks) {
          // Texts are checked in English only (they are the panel's words).
          if (lang === 'zh' && check.startsWith('text:') && !/\d/.test(check.split('~')[1] ?? '')) continue;
          try {
            await runCheck(page, check);
          } catch (e) {
            failures.push(`${row.id} ${check}: ${e.message.split('\n')[0]}`);
          }
        }
      }
      assert.deepEqual(failures, []);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
