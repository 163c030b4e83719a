// Shared harness for the end-to-end tests and the benchmark: serves the
// release build (dist/) from a subpath on 127.0.0.1 and drives Debian's
// Chromium through playwright-core.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = process.env.WARPSCOPE_DIST ?? join(ROOT, 'dist');
/** The app is served from a subpath, as on a static host. */
export const BASE_PATH = '/sub/warpscope/';

/** Every topic's route id, in lecture order, from docs/panels.md's panel table
 * (written from the registry, `topics::readme_table`, and checked against it
 * by a native test): the e2e tests keep no hand list of topics. */
export const TOPIC_IDS = (() => {
  const doc = readFileSync(join(ROOT, 'docs', 'panels.md'), 'utf8');
  const table = doc.slice(doc.indexOf('| route | notes § |')).split('\n\n')[0];
  return table
    .split('\n')
    .map((line) => line.match(/^\| `#\/([a-z0-9-]+)` \|/))
    .filter(Boolean)
    .map((m) => m[1]);
})();

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

export async function serveDist() {
  await stat(join(DIST, 'index.html')).catch(() => {
    throw new Error('dist/index.html missing: run `trunk build --release` first');
  });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (!url.pathname.startsWith(BASE_PATH)) {
      res.writeHead(404).end('outside the subpath');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(BASE_PATH.length)) || 'index.html';
    const file = normalize(join(DIST, rel));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { server, origin: `http://127.0.0.1:${port}`, base: `http://127.0.0.1:${port}${BASE_PATH}` };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** A new page that records uncaught errors and console errors. */
export async function newPage(browser, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(m.text());
  });
  return page;
}

/** Helpers the benchmarks use inside the page, installed on every page of
 *  its context as `window.bench`: `yieldTask()` resolves once the current
 *  task is over (a message, never a timeout, which Chromium clamps) and
 *  `frame()` at the next animation frame. */
export async function installBenchHelpers(page) {
  await page.context().addInitScript(() => {
    window.bench = {
      yieldTask: () => new Promise((r) => {
        const c = new MessageChannel();
        c.port1.onmessage = () => r();
        c.port2.postMessage(0);
      }),
      frame: () => new Promise((r) => requestAnimationFrame(() => r())),
    };
  });
}

/** Go to `hash` (e.g. "#/systolic?rows=4") and wait for the app to render. */
export async function open(page, base, hash) {
  await page.goto(base + hash);
  await page.waitForSelector('.app');
  await chunkIn(page);
}

/** Wait until a panel's chunk (the split build) is in: no panel frame still
 *  says "loading" (a failed chunk shows its Retry instead). */
export async function chunkIn(page) {
  await page.waitForFunction(() => !document.querySelector('[data-chunk-state="loading"]'));
}

export async function metric(page, name, { timeout = 30_000 } = {}) {
  // A figure still being computed (flash's and systolic's result checks) has
  // no data-value yet: wait for it rather than read Number(null) = 0. If it
  // never comes, say what the page shows in its place (a check's progress
  // tells a slow check from a stalled one).
  const el = page.locator(`[data-metric="${name}"][data-value]`);
  try {
    await el.waitFor({ timeout });
  } catch (e) {
    if (e?.name !== 'TimeoutError') throw e;
    // Systolic's check marks its stand-in data-pending-metric; flash's, data-state="checking".
    const stand_in = `[data-pending-metric="${name}"], [data-metric="${name}"][data-state="checking"]`;
    const pending = await page.locator(stand_in).allInnerTexts().catch(() => []);
    const shown = pending.length ? `; in its place: ${JSON.stringify(pending.join(' '))}` : '';
    throw new Error(`no ${name} after ${timeout} ms${shown}`, { cause: e });
  }
  return Number(await el.getAttribute('data-value'));
}

/** The current hash's query as an object. */
export async function hashQuery(page) {
  const hash = await page.evaluate(() => location.hash);
  const q = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  return Object.fromEntries(new URLSearchParams(q));
}

/** Wait until the URL's query has `key=value` (URL writes are throttled). */
export async function waitForQuery(page, key, value) {
  await page.waitForFunction(
    ([k, v]) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(k) === v,
    [key, String(value)],
    { timeout: 5000 },
  );
}

/** Wait until the panel shows its figures and its canvas (if it has one) is painted. */
export async function painted(page) {
  await page.waitForSelector('[data-metric], .landing');
  if (await page.locator('canvas[data-testid="scene-canvas"]').count()) {
    await page.waitForSelector('canvas[data-testid="scene-canvas"][data-painted="1"]');
  }
}

/**
 * Serve the build and launch Chromium before a test file's tests, close both
 * after: `const env = withBrowser();` then `env.srv.base`, `env.browser`.
 */
export function withBrowser() {
  const env = {};
  before(async () => {
    env.srv = await serveDist();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    env.srv?.server.close();
  });
  return env;
}
