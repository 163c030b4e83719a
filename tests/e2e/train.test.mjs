// #/llm?phase=train (issue 31): the training lens. Every public metric, a
// waterfall that adds up to the step, a memory timeline whose peak is
// peak-gb, the 2.7B model that stops fitting an H100 and what buys it back,
// the measured H200 step beside the prediction, both languages.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { withBrowser, newPage, open, painted, metric } from './harness.mjs';

const env = withBrowser();
const METRICS = ['fwd-ms', 'bwd-ms', 'opt-ms', 'train-step-ms', 'peak-gb', 'fwd-peak-gb', 'resident-gb',
  'activation-gb', 'tokens-per-s', 'mfu', 'fits'];
const BIG = '#/llm?phase=train&model=cs336-2.7b&batch=4&seq=1024&gpu=h100';

describe('#/llm?phase=train', () => {
  test('every metric; the waterfall adds up to the step; the timeline is drawn', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/llm?phase=train&model=cs336-small&batch=4&seq=512&precision=bf16-autocast');
    await painted(page);
    for (const m of METRICS) await page.locator(`[data-metric="${m}"]`).waitFor();
    const [fwd, bwd, opt, step] = await Promise.all(['fwd-ms', 'bwd-ms', 'opt-ms', 'train-step-ms'].map((m) => metric(page, m)));
    assert.ok(Math.abs(fwd + bwd + opt - step) < 1e-6 * step, `${fwd}+${bwd}+${opt} vs ${step}`);
    const rows = await page.$$eval('[data-testid="train-waterfall"] [data-effect][data-value]', (els) =>
      els.map((e) => [e.dataset.effect, Number(e.dataset.value), e.dataset.on]));
    const plain = rows.find((r) => r[0] === 'ideal')[1];
    const total = rows.find((r) => r[0] === 'total')[1];
    const sum = plain + rows.filter((r) => r[2] === '1').reduce((a, r) => a + r[1], 0);
    assert.ok(Math.abs(sum - total) < 1e-6 * total && Math.abs(total - step) < 1e-6 * step, `${sum} ${total} ${step}`);
    assert.deepEqual(rows.filter((r) => r[2] !== undefined).map((r) => r[0]), ['rates', 'autocast', 'unfused', 'optimizer', 'host']);
    assert.equal(await page.getAttribute('[data-metric="fits"]', 'data-value'), 'yes');
    assert.ok((await page.locator('canvas').count()) >= 1);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('the 2.7B model at 1,024 tokens does not fit an H100; flash and checkpointing buy it back', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, BIG);
    await painted(page);
    await page.locator('[data-metric="fits"]').waitFor();
    assert.equal(await page.getAttribute('[data-metric="fits"]', 'data-value'), 'no');
    assert.ok((await metric(page, 'peak-gb')) > 80);
    await page.getByTestId('no-fit').waitFor();
    await open(page, env.srv.base, `${BIG}&attention=flash&checkpoint=blocks`);
    await painted(page);
    await page.waitForFunction(() => document.querySelector('[data-metric="fits"]')?.dataset.value === 'yes');
    assert.ok((await metric(page, 'peak-gb')) < 80);
    assert.equal(await page.getByTestId('no-fit').count(), 0);
    await page.context().close();
  });

  test('inference cases that cannot run say so (issue 32, item 8)', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/llm?model=llama3-70b&phase=decode&batch=1&ctx=4096&gpu=h200');
    await painted(page);
    await page.locator('[data-metric="fits"]').waitFor();
    assert.equal(await page.getAttribute('[data-metric="fits"]', 'data-value'), 'no');
    assert.match(await page.getByTestId('no-fit').innerText(), /141/);
    await open(page, env.srv.base, '#/llm?model=llama3-8b&phase=decode&batch=16&ctx=4096&gpu=h200');
    await painted(page);
    await page.waitForFunction(() => document.querySelector('[data-metric="fits"]')?.dataset.value === 'yes');
    assert.equal(await page.getByTestId('no-fit').count(), 0);
    await page.context().close();
  });

  test('#/attention-memory: the assignment\'s attention benchmark, predicted and measured', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/attention-memory?n=8192&d=64&dtype=fp32&batch=8&causal=1&gpu=h200&measured=1');
    await painted(page);
    for (const m of ['fwd-ms', 'bwd-ms', 'flash-fwd-ms', 'flash-bwd-ms', 'saved-bytes']) {
      assert.ok((await metric(page, m)) > 0, m);
    }
    await page.getByTestId('bench-measured').waitFor();
    // What autograd keeps: the model's count is the H200's, to the byte.
    const saved = Number(await page.getAttribute('[data-testid="bench-measured"]', 'data-saved'));
    assert.equal(await metric(page, 'saved-bytes'), saved);
    assert.ok((await page.locator('[data-testid="out-of-memory"] tr[data-gpu]').count()) >= 4);
    await page.context().close();
  });

  test('the measured H200 step and the accuracy table, in 中文 without raw keys', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/llm?phase=train&model=cs336-xl&batch=4&seq=512&gpu=h200&measured=1&lang=zh');
    await painted(page);
    await page.getByTestId('measured-train').waitFor();
    const meas = Number(await page.getAttribute('[data-measured="train-step-ms"]', 'data-value'));
    const pred = await metric(page, 'train-step-ms');
    assert.ok(meas > 0 && pred > 0, `${meas} ${pred}`);
    assert.ok((await page.locator('[data-testid="train-accuracy"] tr[data-check]').count()) >= 6);
    const text = await page.locator('.app').innerText();
    assert.doesNotMatch(text, /\b(train|metric|choice|param)\.[a-z]/, 'a raw key');
    assert.doesNotMatch(text, /\{[a-z]+\}/, 'a placeholder');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
