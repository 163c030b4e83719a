// #/llm (issue 23): the deep link shows the prediction, the waterfall and
// the measured H200 step; every effect switches from the page and moves the
// prediction; both languages render without raw keys.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, waitForQuery, metric } from './harness.mjs';

const env = withBrowser();
const LINK = '#/llm?model=llama3-8b&phase=decode&batch=16&ctx=4096&gpu=h200';
const METRICS = ['step-ms', 'ideal-ms', 'tokens-per-s', 'ttft-ms', 'weight-bytes', 'kv-bytes', 'max-batch', 'mbu', 'mfu', 'bound'];
// Every effect of a prefill; a decode also has per-head (the decode kernel's layout, off by default).
const EFFECTS = ['bandwidth', 'waves', 'gemm', 'attention', 'elementwise', 'launch'];
const DECODE_EFFECTS = ['bandwidth', 'waves', 'gemm', 'attention', 'per-head', 'elementwise', 'launch'];

describe('#/llm', () => {
  test('the issue deep link: figures, waterfall that adds up, measured dot', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, LINK);
    await painted(page);
    for (const m of METRICS) {
      await page.locator(`[data-metric="${m}"]`).waitFor();
    }
    assert.equal(await page.getAttribute('[data-metric="bound"]', 'data-value'), 'memory');
    const step = await metric(page, 'step-ms');
    const ideal = await metric(page, 'ideal-ms');
    assert.ok(step > ideal && ideal > 0, `${step} ${ideal}`);
    assert.ok(Math.abs((await metric(page, 'tokens-per-s')) - 16 / (step / 1000)) < 1e-6 * step * 1000);
    const terms = await page.$$eval('[data-testid="waterfall"] [data-effect][data-on]', (els) =>
      els.map((e) => [e.dataset.effect, Number(e.dataset.value), e.dataset.on]));
    assert.deepEqual(terms.map((t) => t[0]), DECODE_EFFECTS);
    assert.equal(terms.find((t) => t[0] === 'per-head')[2], '0');
    const sum = ideal + terms.reduce((a, t) => a + t[1], 0);
    assert.ok(Math.abs(sum - step) < 1e-6 * step, `${sum} vs ${step}`);
    // The measured step beside the prediction, within 10 %.
    const meas = Number(await page.getAttribute('[data-measured="step-ms"]', 'data-value'));
    const ratio = Number(await page.getAttribute('[data-measured="model-over-measured"]', 'data-value'));
    assert.ok(meas > 0 && Math.abs(ratio - 1) < 0.1, `${meas} ${ratio}`);
    // (The measured step ran the per-head decode kernel: it is compared with that effect on.)
    assert.ok(ratio * meas > 0);
    assert.match(await page.getByTestId('measured-note').innerText(), /H200.*2026-\d\d-\d\d/);
    // The accuracy table: 8 rows, graphs within the bounds.
    const acc = await page.$$eval('[data-testid="accuracy"] tr[data-phase]', (rows) =>
      rows.map((r) => [r.dataset.graphs, Number(r.dataset.median), Number(r.dataset.worst)]));
    assert.equal(acc.length, 8);
    for (const [g, med, worst] of acc.filter((r) => r[0] === '1')) {
      assert.ok(med <= 0.1 && worst <= 0.25, `${g} ${med} ${worst}`);
    }
    // The default decode kernel against the enable_gqa steps (issue 31, item 7): within 10 % / 25 %.
    const gqa = await page.$$eval('[data-testid="accuracy"] tr[data-check="gqa"]', (rows) =>
      rows.map((r) => [r.dataset.graphs, Number(r.dataset.median), Number(r.dataset.worst)]));
    assert.equal(gqa.length, 2);
    for (const [g, med, worst] of gqa) assert.ok(med <= 0.1 && worst <= 0.25, `gqa ${g} ${med} ${worst}`);
    // Per-operator table and charts are there.
    assert.ok((await page.locator('[data-testid="ops-table"] tr[data-op]').count()) >= 12);
    await page.waitForSelector('canvas[data-painted="1"]');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('each effect switches from the page, moves the prediction and lands in the URL', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, LINK.replace('phase=decode', 'phase=prefill'));
    await painted(page);
    const all = await metric(page, 'step-ms');
    for (const e of EFFECTS) {
      await page.getByTestId(`effect-${e}`).click();
      await page.waitForFunction((x) => document.querySelector(`[data-effect="${x}"]`)?.dataset.on === '0', e);
      const off = await metric(page, 'step-ms');
      assert.notEqual(off, all, e);
      assert.equal(await page.getAttribute(`[data-effect="${e}"]`, 'data-value'), '0');
      await page.getByTestId(`effect-${e}`).click();
      await page.waitForFunction((x) => document.querySelector(`[data-effect="${x}"]`)?.dataset.on === '1', e);
    }
    await page.click('[data-preset="effects-none"]');
    await waitForQuery(page, 'effects', 'none');
    assert.equal(await metric(page, 'step-ms'), await metric(page, 'ideal-ms'));
    await page.getByTestId('effect-gemm').click();
    await waitForQuery(page, 'effects', 'gemm');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('中文, measured=0 and a custom d = 8192 model render cleanly', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, `${LINK}&lang=zh`);
    await painted(page);
    const text = await page.innerText('.panel');
    assert.doesNotMatch(text, /\{[a-z]+\}|\bllm\.(effect|source|op|col|acc|series|axis|measured|waterfall|explain|lecture|knee|crossover|ops|roofline|ridge|b\d)/);
    assert.match(text, /瀑布|效应/);
    await open(page, env.srv.base, `${LINK}&measured=0`);
    await painted(page);
    assert.equal(await page.getByTestId('measured-llm').count(), 0);
    await open(page, env.srv.base, '#/llm?model=custom&dmodel=8192&heads=64&kvheads=8&ffn=28672&layers=80&batch=1024&gpu=h100');
    await painted(page);
    const oproj = await page.getAttribute('tr[data-op="o-proj"]', 'data-bound');
    assert.equal(oproj, 'compute');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
