// Measured beside modelled: every overlay renders from the shipped H200 data,
// is labelled with device and date, shows model ÷ measured, and can be
// switched off through the URL (measured=0).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, waitForQuery, metric, hashQuery, appShows } from './harness.mjs';

const env = withBrowser();

const OVERLAYS = [
  ['coalescing', 'measured-coalescing'],
  ['divergence', 'measured-divergence'],
  ['waves', 'measured-waves', 'gpu=h200'],
  ['fusion', 'measured-fusion'],
  ['roofline', 'measured-roofline', 'gpu=h200'],
  ['attention-memory', 'measured-attention'],
  ['hardware', 'measured-hardware', 'gpu=h200'],
];

describe('measured overlays', () => {
  for (const [id, testid, extra] of OVERLAYS) {
    test(`${id}: H200 data beside the model, labelled, switchable`, async () => {
      const page = await newPage(env.browser);
      await open(page, env.srv.base, `#/${id}?${extra ?? ''}`);
      await painted(page);
      // The measured file is fetched after the panel's first paint.
      await appShows(page, `[data-testid="${testid}"]`, `${id}: the measured overlay`);
      const note = page.getByTestId('measured-note').first();
      assert.match(await note.innerText(), /H200.*2026-\d\d-\d\d/);
      // Derived figures are published with their raw values: finite numbers.
      const values = await page.$$eval('[data-measured]', (els) => els.map((e) => Number(e.dataset.value)));
      assert.ok(values.length >= 1, `${id}: no data-measured figures`);
      assert.ok(values.every((v) => Number.isFinite(v)), `${id}: ${values}`);
      // Off through the URL: gone, and the URL says so.
      await open(page, env.srv.base, `#/${id}?${extra ? `${extra}&` : ''}measured=0`);
      await painted(page);
      await waitForQuery(page, 'measured', '0');
      assert.equal(await page.getByTestId(testid).count(), 0, `${id}: measured=0 still shows the overlay`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

describe('your machine (notes §5.4)', () => {
  test('a quick run measures, draws its roofline, keeps its results in the URL and the JSON', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/your-machine?quick=1');
    await page.waitForSelector('[data-testid="bench"][data-state="idle"]');
    await page.click('[data-testid="bench-run"]');
    await page.waitForSelector('[data-testid="bench"][data-state="done"]', { timeout: 60000 });
    const figures = {};
    for (const m of ['bandwidth-gbps', 'peak-gflops', 'ridge', 'unfused-ratio']) {
      figures[m] = await metric(page, m);
      assert.ok(figures[m] > 0, m);
    }
    await page.waitForSelector('[data-testid="bench-roofline"] canvas[data-painted="1"]');
    // The results are in the URL…
    await page.waitForFunction(() => /[?&]r=S/.test(location.hash));
    const r = (await hashQuery(page)).r;
    assert.match(r, /^S[\d._-]+\*F[\d.-]+\*T[\d.-]+\*H[\d.-]+\*M[\d._-]+$/);
    // …and in the JSON export, with the same numbers.
    const href = await page.getByTestId('bench-json').getAttribute('href');
    const json = JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)));
    assert.ok(Math.abs(json.derived.bandwidth_gbps / figures['bandwidth-gbps'] - 1) < 1e-3, `${json.derived.bandwidth_gbps} vs ${figures['bandwidth-gbps']}`);
    // A shared link shows the same results without running again.
    const hash = await page.evaluate(() => location.hash);
    const again = await newPage(env.browser);
    await open(again, env.srv.base, hash);
    await again.waitForSelector('[data-testid="bench"][data-state="done"]');
    assert.ok(Math.abs(await metric(again, 'bandwidth-gbps') / figures['bandwidth-gbps'] - 1) < 1e-3);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(again.errors, []);
    await again.context().close();
    assert.deepEqual(page.errors, []);
    await page.context().close();
    // Cancel (a fresh page), and a hostile r (another).
    const cancel = await newPage(env.browser);
    await open(cancel, env.srv.base, '#/your-machine?quick=1');
    await cancel.click('[data-testid="bench-run"]');
    await cancel.click('[data-testid="bench-cancel"]');
    await cancel.waitForSelector('[data-testid="bench"][data-state="cancelled"]');
    assert.deepEqual(cancel.errors, []);
    await cancel.context().close();
    const hostile = await newPage(env.browser);
    await open(hostile, env.srv.base, '#/your-machine?r=garbage');
    await hostile.waitForSelector('[data-notice-param="r"]');
    await hostile.waitForSelector('[data-testid="bench"][data-state="idle"]');
    assert.deepEqual(hostile.errors, []);
    await hostile.context().close();
  });

  test('points above the machine\'s own roof are flagged as a noisy run, in both languages (issue 22)', async () => {
    const tail = 'T4096-14.1-120.5*H16777216-12.25-6.5*M128-21.5_256-24.75';
    const quiet = `S14-61.23_28-9.876*F8388608-8.0-12.87-7.0*${tail}`;
    const noisy = `S14-61.23_28-7.28*F8388608-6.123-12.87-10.0*${tail}`;
    const page = await newPage(env.browser);
    await open(page, env.srv.base, `#/your-machine?quick=1&r=${quiet}&lang=en`);
    await page.waitForSelector('[data-testid="bench-roofline"] canvas[data-painted="1"]');
    assert.equal(await page.getByTestId('noise-warning').count(), 0, 'a steady run: no warning');
    for (const [lang, re] of [['en', /^Noisy run: x\*2 measured 1\.37 GFLOP\/s, above the 0\.91/], ['zh', /^测量有噪声：x\*2 实测 1\.37 GFLOP\/s/]]) {
      await page.goto('about:blank');
      await open(page, env.srv.base, `#/your-machine?quick=1&r=${noisy}&lang=${lang}`);
      const warn = page.getByTestId('noise-warning');
      await warn.waitFor();
      assert.equal(await warn.getAttribute('data-value'), '1');
      assert.match(await warn.innerText(), re);
      assert.ok(await warn.isVisible());
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
