// The lecture-numbers table (tests/lecture_numbers.md) and its checks, shared
// by lecture.test.mjs (every row at its URL) and lecture-deck.test.mjs (the
// rows each view of the built-in lecture names).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, READY_MS, describePage } from './harness.mjs';

const UNITS = { '%': 0.01, kB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024 };

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
  const m = text.trim().match(/^(-?[\d.]+(?:e-?\d+)?)\s*(%|kB|MB|GB|KiB)?$/);
  assert.ok(m, `cannot read "${text}"`);
  const scale = UNITS[m[2]] ?? 1;
  const decimals = m[1].includes('.') && !m[1].includes('e') ? m[1].split('.')[1].length : 0;
  return { value: Number(m[1]) * scale, tol: 0.5 * 10 ** -decimals * scale * (1 + 1e-9) };
}

/** Wait for a computed figure (`locator`) as long as for the app to appear:
 *  on a loaded machine a panel's figures can come well after its first paint;
 *  if it never comes, say what the page showed. */
async function computed(page, locator, what, opts = {}) {
  try {
    await locator.waitFor({ timeout: READY_MS, ...opts });
  } catch (e) {
    if (e?.name !== 'TimeoutError') throw e;
    throw new Error(`${what}: not within ${READY_MS / 1000} s; the page showed ${await describePage(page)}`, { cause: e });
  }
}

/** Runs one check of the table on the page (throws on a mismatch). */
export async function runCheck(page, check) {
  const [kind, rest] = [check.slice(0, check.indexOf(':')), check.slice(check.indexOf(':') + 1)];
  if (kind === 'metric') {
    const [, name, op, want] = rest.match(/^([\w-]+)(=|<)(.+)$/);
    const el = page.locator(`[data-metric="${name}"][data-value]`);
    await computed(page, el, name);
    const got = Number(await el.getAttribute('data-value'));
    if (op === '<') return assert.ok(got < Number(want), `${name} = ${got}, want < ${want}`);
    const e = expected(want);
    assert.ok(Math.abs(got - e.value) <= e.tol, `${name} = ${got}, lecture ${want}`);
  } else if (kind === 'value') {
    // A computed number the panel publishes: `SELECTOR=VALUE` (its data-value)
    // or `SELECTOR@ATTR=VALUE`.
    const at = rest.lastIndexOf('=');
    const [target, want] = [rest.slice(0, at), rest.slice(at + 1)];
    const [sel, attr] = target.includes('@') ? target.split('@') : [target, 'data-value'];
    const el = page.locator(sel).first();
    await computed(page, el, `${sel}@${attr}`, { state: 'attached' });
    const raw = await el.getAttribute(attr);
    assert.ok(raw !== null && raw !== '', `${sel}@${attr} is not there`);
    const got = Number(raw);
    const e = expected(want);
    assert.ok(Math.abs(got - e.value) <= e.tol, `${sel}@${attr} = ${got}, lecture ${want}`);
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

