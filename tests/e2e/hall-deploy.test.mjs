// Issue 32, items 13 and 14: a returning visitor right after a deploy (the
// old build's index.html, glue and wasm from the HTTP cache; the texts,
// fetched no-cache from unversioned names, new) reloads once onto the new
// build; when a language's texts fail, the alert says so in both languages.
//
// The old build is this build's wasm with its fingerprint (the `_build` its
// text files must carry, src/i18n.rs) changed, under a hashed name of its
// own, with an index.html naming it and its texts marked with it. A server of
// this test's own serves one build or the other, index.html with
// `Cache-Control: max-age=3600` (no routing: Playwright's routing turns
// Chromium's HTTP cache off, and the HTTP cache is what this is about). A
// first visit caches the old build's index.html; then the server is
// "deployed" to this build; the visitor returns to the same tab.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join, normalize, extname } from 'node:path';
import { DIST, BASE_PATH, READY_MS, withBrowser, newPage, painted, appMounted } from './harness.mjs';

const env = withBrowser();

const INDEX = readFileSync(join(DIST, 'index.html'), 'utf8');
const WASM_NAME = INDEX.match(/data-wasm="\.\/([^"]+)"/)[1];
const BUILD = JSON.parse(readFileSync(join(DIST, 'strings.en.json'), 'utf8'))._build;

/** This build's wasm with another fingerprint: the old build. */
const OLD = (() => {
  const bytes = readFileSync(join(DIST, WASM_NAME));
  const at = bytes.indexOf(Buffer.from(BUILD));
  assert.ok(at >= 0 && bytes.indexOf(Buffer.from(BUILD), at + 1) < 0, 'the fingerprint once in the wasm');
  const build = BUILD.replace(/./g, (c) => ((parseInt(c, 16) + 1) % 16).toString(16));
  bytes.write(build, at, 'latin1');
  return { bytes, build };
})();

/** The index.html of a build whose wasm is `name`. */
const indexNaming = (name) => INDEX.replace(`data-wasm="./${WASM_NAME}"`, `data-wasm="./${name}"`);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

/**
 * A server of `state.index()` (index.html, cached an hour), the old wasm
 * under any name `warpscope-<16 hex>_bg.wasm` but this build's, the texts
 * marked with `state.build` and the rest of dist. `log` counts index.html's
 * requests and those that bypassed the cache (`cache: 'reload'`).
 */
function deployServer(state) {
  const log = { index: 0, bypassed: 0, old: 0 };
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const rel = path.slice(BASE_PATH.length) || 'index.html';
    if (rel === 'index.html') {
      log.index += 1;
      if (/no-cache/.test(req.headers['cache-control'] ?? '') || /no-cache/.test(req.headers.pragma ?? '')) log.bypassed += 1;
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'max-age=3600' }).end(state.index());
      return;
    }
    if (/^warpscope-[0-9a-f]{16}_bg\.wasm$/.test(rel) && rel !== WASM_NAME) {
      log.old += 1;
      res.writeHead(200, { 'content-type': 'application/wasm', 'cache-control': 'max-age=31536000, immutable' }).end(OLD.bytes);
      return;
    }
    try {
      let body = readFileSync(normalize(join(DIST, rel)));
      if (/^strings\..*\.json$/.test(rel)) body = JSON.stringify({ ...JSON.parse(body), _build: state.build });
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return { server, log };
}

describe('a returning visitor right after a deploy', () => {
  const srv = {};
  const state = {};
  before(async () => {
    Object.assign(srv, deployServer(state));
    await new Promise((done) => srv.server.listen(0, '127.0.0.1', done));
    srv.base = `http://127.0.0.1:${srv.server.address().port}${BASE_PATH}`;
  });
  after(() => srv.server.close());

  /** The old build deployed, a first visit (its index.html now in the HTTP cache), then `deploy()`. */
  async function visitThenDeploy(deploy) {
    const oldName = 'warpscope-0123456789abcdef_bg.wasm';
    Object.assign(state, { index: () => indexNaming(oldName), build: OLD.build });
    Object.assign(srv.log, { index: 0, bypassed: 0, old: 0 });
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    await page.goto(srv.base + '#/systolic?rows=4&cols=4&k=6&cycle=3');
    await appMounted(page);
    assert.deepEqual(srv.log, { index: 1, bypassed: 0, old: 1 }, 'the first visit, on the old build');
    deploy();
    Object.assign(srv.log, { index: 0, bypassed: 0, old: 0 });
    await page.goto('about:blank');
    return page;
  }

  test('the old build from the HTTP cache, the texts new: it refreshes index.html and reloads once onto the new build', async () => {
    const page = await visitThenDeploy(() => Object.assign(state, { index: () => INDEX, build: BUILD }));
    await page.goto(srv.base + '#/systolic?rows=4&cols=4&k=6&cycle=3&lang=zh');
    await appMounted(page);
    await painted(page);
    assert.equal(await page.locator('.panel-header h1').innerText(), '脉动阵列（TPU 的 MXU）');
    assert.equal(await page.locator('script[data-wasm]').getAttribute('data-wasm'), `./${WASM_NAME}`, 'the new build runs');
    // The return took the cached index.html (and the cached old wasm); the
    // old build fetched index.html past the cache once, then reloaded.
    assert.equal(srv.log.bypassed, 1);
    assert.ok(srv.log.index <= 2, `index.html fetched ${srv.log.index} times`);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('warpscope.reloaded-from')), OLD.build);
    assert.deepEqual(page.errors.filter((e) => !/Failed to load resource/.test(e)), []);
    await page.context().close();
  });

  test('if the reload meets an old build again, it does not loop: one reload, then the alert in both languages', async () => {
    // A server half deployed: the new texts, and every index.html it sends
    // names the old wasm under a new name.
    let served = 0;
    const page = await visitThenDeploy(() => Object.assign(state, {
      index: () => indexNaming(`warpscope-${(++served).toString(16).padStart(16, 'a')}_bg.wasm`),
      build: BUILD,
    }));
    await page.goto(srv.base + '#/systolic?lang=zh');
    const alert = page.locator('#boot[role="alert"]');
    await alert.waitFor({ timeout: READY_MS });
    const text = await alert.innerText();
    assert.match(text, /无法加载界面文字（strings\.zh\.json）/);
    assert.match(text, /The texts could not be loaded \(strings\.zh\.json\)/);
    assert.equal(srv.log.bypassed, 1, 'index.html fetched past the cache once');
    assert.ok(srv.log.index <= 2, `index.html fetched ${srv.log.index} times`);
    await page.context().close();
  });
});

describe('texts of another build while index.html names this one', () => {
  test('no reload (it would load the same build): the alert at once', async () => {
    const page = await newPage(env.browser, { serviceWorkers: 'block' });
    let navigations = 0;
    page.on('request', (r) => { if (r.isNavigationRequest()) navigations += 1; });
    await page.route(/strings\.[\w.-]+\.json$/, async (r) => {
      const texts = await (await r.fetch()).json();
      await r.fulfill({ json: { ...texts, _build: 'another' } });
    });
    await page.goto(env.srv.base + '#/systolic');
    await page.locator('#boot[role="alert"]').waitFor({ timeout: READY_MS });
    assert.equal(navigations, 1);
    await page.context().close();
  });
});

describe("a language's texts that fail", () => {
  for (const [start, how] of [['#/systolic?rows=4&cols=4&k=6&cycle=3', 'switched to'], ['#/systolic?rows=4&cols=4&k=6&cycle=3&lang=zh', 'asked for by the link']]) {
    test(`中文 ${how} but not loaded: the page stays in English and the alert says so in both languages`, async () => {
      const page = await newPage(env.browser, { serviceWorkers: 'block' });
      await page.route(/strings\.zh(\.[\w-]+)?\.json$/, (r) => r.abort());
      await page.goto(env.srv.base + start);
      await appMounted(page);
      if (!start.includes('lang=zh')) {
        await painted(page);
        await page.getByTestId('lang-switch').click();
      }
      const alert = page.getByTestId('texts-failed');
      await alert.waitFor({ timeout: READY_MS });
      assert.equal(await alert.getAttribute('role'), 'alert');
      const paras = await alert.locator('p').evaluateAll((ps) => ps.map((p) => [p.lang, p.innerText]));
      assert.deepEqual(paras.map(([l]) => l), ['zh-CN', 'en']);
      assert.match(paras[0][1], /无法加载界面文字（strings\.zh\.json）/);
      assert.match(paras[1][1], /The texts could not be loaded \(strings\.zh\.json\)/);
      assert.equal(await page.locator('.panel-header h1').innerText(), 'Systolic array (TPU MXU)');
      await page.context().close();
    });
  }
});
