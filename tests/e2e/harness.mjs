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

/**
 * How long the app may take to appear: a cold start compiles the main module,
 * fetches the texts and the route's chunks, renders and paints. On a CI
 * machine under load (load average 4–10 on 2 cores) that took over
 * Playwright's default 30 s (issue 30), so every wait for the app to appear
 * allows this much; `WARPSCOPE_READY_MS` sets it.
 */
export const READY_MS = Number(process.env.WARPSCOPE_READY_MS) || 120_000;

/**
 * What the page shows, in one line, for an error message: its address, the
 * boot line (`#boot`, which the app removes when it mounts, or turns into an
 * alert when no texts could be loaded), whether the app is mounted, the panic
 * card, each chunk's state, the scene canvases, the figures, the start of its
 * text and the errors it logged.
 */
export async function describePage(page) {
  const seen = await page
    .evaluate(() => {
      const boot = document.getElementById('boot');
      const text = (el, n) => (el?.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, n);
      return {
        url: location.href,
        document: document.readyState,
        boot: boot ? `${boot.getAttribute('role') === 'alert' ? 'alert' : 'booting'}: "${text(boot, 200)}"` : 'gone',
        app: document.querySelector('.app') ? 'mounted' : 'not mounted',
        panic: text(document.getElementById('panic-card'), 300) || null,
        chunks: [...document.querySelectorAll('[data-chunk-state]')].map((e) => `${e.dataset.chunk}=${e.dataset.chunkState}`),
        scenes: [...document.querySelectorAll('canvas[data-testid="scene-canvas"]')].map((c) => (c.dataset.painted === '1' ? 'painted' : 'not painted')),
        figures: document.querySelectorAll('[data-metric]').length,
        landing: !!document.querySelector('.landing'),
        // What arrived: a stalled download tells itself from a slow start.
        fetched: performance.getEntriesByType('resource').map((e) => e.name.split('/').pop().split('?')[0]).filter((n) => /\.(wasm|js|json)$/.test(n)),
        text: text(document.body, 300),
      };
    })
    .catch((e) => ({ unreadable: String(e).split('\n')[0] }));
  const errors = page.errors?.length ? `; errors: ${JSON.stringify(page.errors.slice(0, 5))}` : '';
  return JSON.stringify(seen) + errors;
}

/**
 * Wait up to `timeout` (default READY_MS) for `predicate` (run in the page
 * with `arg`) to return a truthy value. A string starting with "failed: "
 * ends the wait at once (the page can no longer become ready). Either way the
 * error names `what` and says what the page showed.
 */
export async function waitForApp(page, what, predicate, arg, { timeout = READY_MS } = {}) {
  let result;
  try {
    result = await (await page.waitForFunction(predicate, arg, { timeout })).jsonValue();
  } catch (e) {
    if (e?.name !== 'TimeoutError') throw e;
    throw new Error(`${what}: not within ${timeout / 1000} s; the page showed ${await describePage(page)}`, { cause: e });
  }
  if (typeof result === 'string' && result.startsWith('failed: ')) {
    throw new Error(`${what}: ${result.slice('failed: '.length)}; the page showed ${await describePage(page)}`);
  }
  return result;
}

/**
 * In the page: whether the app shows what a test waits for (`want`:
 * "mounted", "painted", or "shows" `selector`), from its own signals; a panic
 * card or the boot line's alert (no texts) mean the app will not come, and
 * "failed: …" says which (see `waitForApp`).
 */
function appReadiness([want, selector]) {
  if (document.getElementById('panic-card')) return 'failed: the app panicked';
  if (document.querySelector('#boot[role="alert"]')) return 'failed: the app could not start (no texts)';
  // `src/ui/mod.rs` removes the boot line once the texts are in, then renders `.app`.
  if (want === 'mounted') return !document.getElementById('boot') && document.querySelector('.app')?.checkVisibility() === true;
  // The page's first panel is laid out unseen until it has settled (src/ui/kit/panel/settle.rs).
  if (want !== 'mounted' && document.documentElement.classList.contains('settling')) return false;
  if (want === 'painted') {
    // The canvas adapter sets data-painted="1" after its first paint.
    const scenes = [...document.querySelectorAll('canvas[data-testid="scene-canvas"]')];
    // The build's static snapshots (src/prerender/snap.rs) carry figures, not the app's.
    // A panel's player listens to the keys from its effects, which Yew may run after the
    // first paint (src/ui/kit/player/keys.rs: <html data-player-keys>).
    const player = document.querySelector('#app-root .player');
    const keys = !player || Number(document.documentElement.dataset.playerKeys ?? 0) > 0;
    return [...document.querySelectorAll('[data-metric], .app:not(.static-start) .landing')].some((e) => !e.closest('.static-snap')) &&
      (!scenes.length || scenes.some((c) => c.dataset.painted === '1' && c.checkVisibility())) && keys;
  }
  // The build's static start page and panel snapshots (src/prerender.rs, src/prerender/snap.rs) are not the app.
  return [...document.querySelectorAll(selector)].some((e) => e.checkVisibility() && !e.closest('.static-start, .static-snap'));
}

/**
 * Go to `hash` (e.g. "#/systolic?rows=4") and wait for the app to render:
 * the app's own readiness signals, mounted (`#boot` gone, `.app` shown) and
 * every chunk of the route in (see `chunkIn`).
 */
export async function open(page, base, hash) {
  await page.goto(base + hash);
  await appMounted(page, `open ${hash}`);
  await chunkIn(page);
}

/** Wait until the app is mounted and shown: the boot line gone and `.app` visible. */
export async function appMounted(page, what = 'the app') {
  await waitForApp(page, `${what}: the app mounted`, appReadiness, ['mounted']);
}

/** Wait until `selector` is shown (some match visible), as the app renders
 *  a page it is starting or a panel whose chunk it is fetching; `what` names
 *  the wait in the error, which says what the page showed instead. */
export async function appShows(page, selector, what = selector) {
  await waitForApp(page, what, appReadiness, ['shows', selector]);
}

/** Wait until a panel's chunk (the split build) is in: no panel frame still
 *  says "loading" (a failed chunk shows its Retry instead). */
export async function chunkIn(page) {
  await waitForApp(page, 'every chunk in (no [data-chunk-state="loading"]) and the first panel settled', () =>
    !document.querySelector('[data-chunk-state="loading"]') && !document.documentElement.classList.contains('settling'));
}

export async function metric(page, name, { timeout = READY_MS } = {}) {
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
    throw new Error(`no ${name} after ${timeout} ms${shown}; the page showed ${await describePage(page)}`, { cause: e });
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

/** Wait until the panel shows its figures and its scene canvas (if it has
 *  one) is painted, or the start page is shown. */
export async function painted(page) {
  await waitForApp(page, 'the page painted (its figures and scene canvas, or the start page)', appReadiness, ['painted']);
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
