// A static site that can be trusted: the Content-Security-Policy holds (no
// violation on any panel), no panel asks any other origin for anything,
// text a user types or links to is never read as HTML, and after a first
// visit the app works offline (its service worker caches its own files).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, appMounted, appShows } from './harness.mjs';

const env = withBrowser();

/** A page whose every request is recorded, and refused unless it goes to the app's own server. */
async function guardedPage(opts = {}) {
  const page = await newPage(env.browser, { serviceWorkers: 'block', ...opts });
  page.foreign = [];
  page.requests = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    page.requests.push(url);
    if (new URL(url).origin === env.srv.origin || url.startsWith('data:') || url.startsWith('blob:')) {
      return route.continue();
    }
    page.foreign.push(url);
    return route.abort('blockedbyclient');
  });
  // Content-Security-Policy violations, and anything a payload could run.
  await page.addInitScript(() => {
    window.__violations = [];
    window.__xss = 0;
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
    });
  });
  page.dialogs = [];
  page.on('dialog', (d) => { page.dialogs.push(d.message()); d.dismiss(); });
  return page;
}

async function topics(page) {
  await open(page, env.srv.base, '#/');
  return page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
}

describe('Content-Security-Policy', () => {
  test('index.html has a policy: own origin only, wasm compilation, no inline script', async () => {
    const page = await newPage(env.browser);
    const res = await page.goto(env.srv.base);
    const html = await res.text();
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.ok(csp, 'a CSP meta tag');
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    assert.deepEqual(directives['default-src'], ["'self'"]);
    assert.deepEqual(directives['script-src'].sort(), ["'self'", "'wasm-unsafe-eval'"]);
    assert.deepEqual(directives['object-src'], ["'none'"]);
    for (const [k, v] of Object.entries(directives)) {
      assert.ok(!v.some((s) => /^https?:|^\*$|^'unsafe-eval'$/.test(s)), `${k}: ${v}`);
      if (k !== 'style-src-attr') assert.ok(!v.includes("'unsafe-inline'"), k);
    }
    // Every script is a file of the app's own; none inline.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length >= 1);
    for (const [, attrs, body] of scripts) {
      assert.match(attrs, /\ssrc="\.\//, attrs);
      assert.equal(body.trim(), '', 'no inline script');
    }
    await page.context().close();
  });

  test('every panel, in both languages: no violation, no request to any other origin', async () => {
    const page = await guardedPage();
    const ids = await topics(page);
    assert.ok(ids.length >= 17);
    for (const lang of ['en', 'zh']) {
      for (const id of ['', ...ids]) {
        await open(page, env.srv.base, `#/${id}?lang=${lang}`);
        await painted(page);
        // Step once and play briefly where there is a player (late fetches, timers).
        if (await page.locator('[data-testid="player-scrub"]').count()) {
          await page.keyboard.press('ArrowRight');
        }
        await page.waitForTimeout(150);
        assert.deepEqual(await page.evaluate(() => window.__violations), [], `${id} ${lang}: CSP violations`);
        assert.deepEqual(page.errors, [], `${id} ${lang}: errors`);
      }
    }
    assert.deepEqual(page.foreign, [], 'requests to other origins');
    assert.ok(page.requests.some((u) => u.endsWith('.wasm')), 'requests were recorded');
    await page.context().close();
  });
});

const PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '"><img src=x onerror=window.__xss=1>',
  "'><svg onload=alert(2)>",
  '</textarea><script>alert(3)</script>',
  '<iframe src=javascript:alert(4)>',
  'javascript:alert(5)',
  '{{constructor.constructor(\'alert(6)\')()}}',
];

async function nothingRan(page, what) {
  assert.deepEqual(page.dialogs, [], `${what}: a dialog opened`);
  assert.equal(await page.evaluate(() => window.__xss), 0, `${what}: script ran`);
  const injected = await page.evaluate(() => document.querySelectorAll(
    'img[src="x"], svg[onload], iframe, script:not([src]), [onerror], [onload]').length);
  assert.equal(injected, 0, `${what}: markup from the payload is in the page`);
  assert.deepEqual(await page.evaluate(() => window.__violations), [], `${what}: CSP violations`);
  assert.deepEqual(page.errors, [], `${what}: console errors`);
  assert.equal(await page.locator('#panic-card').count(), 0, `${what}: panic`);
}

describe('user text is text, never HTML', () => {
  for (const [id, param] of [['divergence', 'cond'], ['fusion', 'expr'], ['online-softmax', 'x']]) {
    test(`${id}: ${param} from the URL and typed`, async () => {
      const page = await guardedPage();
      for (const p of PAYLOADS) {
        // From a link: the value, a parameter name, and the route itself.
        for (const hash of [`#/${id}?${param}=${encodeURIComponent(p)}`,
          `#/${id}?${encodeURIComponent(p)}=${encodeURIComponent(p)}`,
          `#/${id}?lang=${encodeURIComponent(p)}`]) {
          await open(page, env.srv.base, hash);
          await painted(page);
          await nothingRan(page, hash);
        }
        // The notice shows the payload as typed, as text.
        await open(page, env.srv.base, `#/${id}?${param}=${encodeURIComponent(p)}`);
        await painted(page);
        const notice = page.locator(`[data-notice-param="${param}"]`);
        if (await notice.count()) assert.ok((await notice.innerText()).includes(p.slice(0, 20)), p);
        // Typed into the control.
        const input = page.locator(`#param-${param}`);
        await input.fill(p);
        await input.press('Tab');
        await page.waitForTimeout(50);
        await nothingRan(page, `typed ${p}`);
      }
      assert.deepEqual(page.foreign, []);
      assert.ok(!page.requests.some((u) => /\/x$/.test(u)), 'the payload image was never fetched');
      await page.context().close();
    });
  }
});

describe('offline after the first visit', () => {
  test('the service worker caches the app; offline, a reload still renders every panel', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6');
    await painted(page);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.equal(scope, env.srv.base, 'scoped to the subpath the app is served from');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const cached = await page.evaluate(async () => (await (await caches.open('warpscope')).keys()).map((r) => r.url));
    assert.ok(cached.some((u) => u.endsWith('.wasm')), `wasm cached: ${cached}`);
    for (const lang of ['en', 'zh']) {
      assert.ok(cached.includes(`${env.srv.base}strings.${lang}.json`), `${lang} texts cached: ${cached}`);
    }
    assert.ok(cached.every((u) => u.startsWith(env.srv.base)), `own files only: ${cached}`);
    // The measured tables a panel fetches, which this visit never did: the
    // manifest lists them for the worker (issue 32 item 14), so the H200
    // overlays work offline; not the provenance files no page asks for
    // (h200-train.json alone is 0.8 MB).
    for (const file of ['h200-coalescing.csv', 'h200-figures.csv', 'h200-matmul.csv']) {
      assert.ok(cached.includes(`${env.srv.base}assets/measured/${file}`), `assets/measured/${file} cached: ${cached}`);
    }
    for (const file of ['h200.json', 'h200-train.json', 'h200-llm.json']) {
      assert.ok(!cached.includes(`${env.srv.base}assets/measured/${file}`), `assets/measured/${file} not cached`);
    }
    assert.ok(!cached.some((u) => u.endsWith('warpscope-measured.txt')), 'the build\'s list is not deployed');
    await page.context().setOffline(true);
    for (const hash of ['#/systolic?rows=4&cols=4&k=6&cycle=3', '#/flash', '#/']) {
      await page.goto(env.srv.base + hash);
      await page.reload();
      await appMounted(page, `${hash} offline`);
      await painted(page);
      assert.ok((await page.evaluate(() => document.body.innerText.length)) > 50, `${hash}: rendered offline`);
    }
    // A panel with an H200 overlay, offline, never opened online: the overlay shows.
    await page.goto(env.srv.base + '#/coalescing');
    await page.reload();
    await appMounted(page, '#/coalescing offline');
    await appShows(page, '[data-testid="measured-coalescing"]', '#/coalescing offline: the measured overlay');
    // The other language's texts were never fetched by the page: the
    // service worker cached them, so switching works offline too.
    await page.goto(env.srv.base + '#/flash?lang=zh');
    await page.reload();
    await appMounted(page, '#/flash?lang=zh offline');
    await painted(page);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.match(await page.locator('.panel-header h1').innerText(), /[\u4e00-\u9fff]/);
    await page.context().setOffline(false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a visit to a data file in scope never becomes the offline start page (issue 22)', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/waves');
    await painted(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const appPage = async () => {
      const cache = await page.evaluate(async (scope) => {
        const hit = await (await caches.open('warpscope')).match(scope);
        return hit ? { type: hit.headers.get('content-type'), text: (await hit.text()).slice(0, 200) } : null;
      }, env.srv.base);
      return cache;
    };
    // Opened directly (a reader following the measured labels' citation),
    // and a file that isn't there: both pass through the worker online.
    for (const file of ['assets/measured/h200.json', 'no-such-file.json']) {
      await page.goto(env.srv.base + file);
      const stored = await appPage();
      assert.match(stored?.type ?? '', /^text\/html/, `${file}: the app's page is still HTML`);
      assert.match(stored.text, /<!DOCTYPE html>|<html/i, file);
    }
    assert.match(await page.evaluate(() => document.body.innerText), /./);
    // Offline: the app starts, the JSON is the JSON.
    await page.context().setOffline(true);
    await page.goto(env.srv.base + '#/waves');
    await appMounted(page, '#/waves');
    await painted(page);
    assert.match(await page.locator('.panel-header h1').innerText(), /./);
    await page.goto(env.srv.base + 'assets/measured/h200.json');
    assert.doesNotMatch(await page.evaluate(() => document.documentElement.outerHTML), /class="app"/);
    await page.context().setOffline(false);
    await page.context().close();
  });
});
