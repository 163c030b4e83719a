// Every reproducible number of the lecture, through the UI: the table in
// tests/lecture_numbers.md lists each number with the panel URL that
// reproduces it and the checks; this file opens each URL and runs them.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, withBrowser, newPage, open, painted } from './harness.mjs';
import { lectureRows, expected, runCheck } from './lecture-checks.mjs';

test('the table reads as expected', () => {
  assert.deepEqual(expected('0.1%'), { value: 0.001, tol: 0.0005 * (1 + 1e-9) });
  assert.equal(expected('12.6 MB').value, 12.6e6);
  assert.equal(expected('990').tol, 0.5 * (1 + 1e-9));
  assert.equal(expected('228 KiB').value, 228 * 1024);
  assert.ok(lectureRows().length >= 60);
});

test('every check reads a computed value: no number is read from text', () => {
  for (const row of lectureRows()) {
    for (const check of row.checks) {
      assert.ok(['metric', 'value', 'attr', 'text'].includes(check.split(':')[0]), `${row.id}: ${check}`);
      if (check.startsWith('text:')) assert.doesNotMatch(check.split('~')[1], /\d/, `${row.id}: a number read from text: ${check}`);
    }
  }
  // Each of the "listed nowhere" figures has a row (asserted or with its reason).
  const ids = new Set(lectureRows().map((r) => r.id));
  const all = readFileSync(join(ROOT, 'tests/lecture_numbers.md'), 'utf8');
  for (const id of ['n2.2-smem-bw', 'n6.4-sigmoids', 'n6.5-rowcol', 'n7-flops', 'n9.2-skew', 's6.6-256', 's6.6-257', 's6.6-burst', 's6.6-div', 'n9.2-v6e']) {
    assert.ok(ids.has(id), `${id} is asserted`);
  }
  assert.match(all, /\| n8\.5-gpt2xl \|.*\| cannot: /);
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
        await painted(page);
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

describe('the panels a student would question', () => {
  const env = withBrowser();
  const fresh = async (hash) => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, hash);
    return page;
  };
  const waitQuery = (page, key, value) =>
    page.waitForFunction(([k, v]) => new URLSearchParams(location.hash.split('?')[1] ?? '').get(k) === v, [key, value]);

  test('flash: the paper preset, its kernels, blocks from SRAM and both languages', async () => {
    const page = await fresh('#/flash?n=256&lang=zh');
    await page.locator('.preset[data-preset="paper"]').click();
    await waitQuery(page, 'order', 'kv');
    for (const id of ['paper-standard', 'paper-flash']) {
      assert.equal(await page.locator(`[data-testid=${id}]`).getAttribute('data-within'), 'true', id);
    }
    assert.match(await page.locator('[data-testid=paper-standard]').innerText(), /模型 42\.4 GB，论文 40\.3 GB（\+5\.2 %）✓/);
    assert.match(await page.locator('[data-testid=flash-blocks]').innerText(), /M = 98,304.*Bc = ⌈M\/4d⌉ = 384.*Br = min\(Bc, d\) = 64/);
    assert.equal(await page.locator('[data-testid=flash-kernels] tbody tr').count(), 12);
    // FlashAttention-1's order computes the masked tiles: none skipped (issue 22).
    assert.equal(await page.locator('[data-metric="tiles-skipped"]').getAttribute('data-value'), '0');
    assert.equal(await page.locator('[data-metric="tiles-computed"]').getAttribute('data-value'), String(16 * 3));
    // The SRAM in one unit (KiB) on the card and the line, and the paper's own count beside it.
    assert.equal(await page.locator('[data-metric="sram-bytes"] .metric-value').innerText(), '216.5 KiB');
    assert.equal(await page.getByTestId('sram-check').getAttribute('data-value'), '221696');
    assert.match(await page.getByTestId('sram-check').innerText(), /216\.5 KiB \/ 192 KiB — S 和累加器用 fp32 时放不下；按论文计算 M 的方式放得下/);
    assert.equal(await page.getByTestId('sram-paper').getAttribute('data-value'), '82048');
    // The paper's runtime is its measurement, shown (not modelled): tests/lecture_numbers.md s-fa-ms.
    assert.match(await page.locator('[data-testid=paper-time]').innerText(), /41\.7 ms → 7\.3 ms/);
    assert.match(await page.getByTestId('sram-paper').innerText(), /82,048 \/ M = 98,304 个元素，放得下/);
    // Bytes with units on the card, the exact count on hover and raw in data-value.
    const card = page.locator('[data-metric="hbm-total-standard"]');
    assert.equal(await card.locator('.metric-value').innerText(), '42.4 GB');
    assert.match(await card.getAttribute('title'), /42,4\d\d,\d{3},\d{3} B/);
    assert.ok(Number(await card.getAttribute('data-value')) > 4.2e10);
    // FlashAttention-2's order and the fused pipeline: far from the paper, said so.
    await page.locator('button[data-param="std"][data-value="fused"]').click();
    // (the default is not written to the URL)
    await page.waitForSelector('[data-testid=paper-standard][data-within="false"]');
    assert.match(await page.locator('[data-testid=flash-ledger]').innerText(), /倍|减少/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('flash: a ratio below 1 reads "more traffic"', async () => {
    const page = await fresh('#/flash?pass=bwd&bq=8&bk=8&causal=0&lang=en');
    const text = await page.locator('[data-testid=flash-ledger] tr[data-row="bwd"]').innerText();
    assert.match(text, /× more traffic than standard/);
    assert.doesNotMatch(text, /0\.\d× less/);
    await page.context().close();
  });

  test('roofline: a custom machine from the URL and the M4 Pro preset', async () => {
    const page = await fresh('#/roofline?gpu=custom&peak=5.5&bw=215&dtype=fp32&op=matmul&n=4096&lang=en');
    assert.equal(await page.locator('[data-testid=notices]').count(), 0);
    assert.equal(Number(await page.locator('[data-metric="attainable-tflops"]').getAttribute('data-value')), 5.5);
    await page.goto('about:blank');
    await open(page, env.srv.base, '#/roofline?gpu=h100&lang=en');
    await page.locator('.preset[data-preset="m4-pro"]').click();
    await waitQuery(page, 'peak', '5.5');
    assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).split('?')[1]).get('bw'), '215');
    // The insets of fusion, tiling and flash take one too.
    await page.goto('about:blank');
    await open(page, env.srv.base, '#/tiling?n=256&tile=64&dtype=fp32&mode=tiled&gpu=custom&peak=5.5&bw=215');
    const inset = page.locator('[data-testid=roofline-inset]');
    await inset.locator('[data-testid=custom-gpu]').waitFor();
    // T = 64, fp32: 16 FLOP/byte × 0.215 TB/s = 3.44 TFLOP/s, under the M4 Pro's 5.5.
    assert.equal(Number(await inset.locator('.inset-dot').first().getAttribute('data-inset-tflops')).toFixed(2), '3.44');
    await page.goto('about:blank');
    await open(page, env.srv.base, '#/hardware?gpu=custom&peak=abc&bw=215&dtype=fp32');
    assert.equal(await page.locator('[data-notice-param="peak"]').count(), 1, 'a bad peak is named');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the lecture's tables: live rows, ✓ or the reason, a row loads its case", async () => {
    for (const [hash, rows, differing] of [
      ['#/roofline', 9, 0],
      ['#/hardware', 5, 1],
      ['#/coalescing', 4, 0],
      ['#/tiling', 4, 0],
      ['#/quantization', 2, 0],
      ['#/occupancy', 3, 0],
      ['#/waves', 3, 0],
      ['#/divergence', 3, 0],
      ['#/recompute', 2, 0],
    ]) {
      for (const lang of ['en', 'zh']) {
        const page = await fresh(`${hash}?lang=${lang}`);
        const table = page.locator('[data-testid=lecture-table]');
        assert.equal(await table.locator('tr.lecture-row').count(), rows, hash);
        assert.equal(await table.locator('tr.lecture-row[data-ok="false"]').count(), differing, hash);
        if (differing) {
          const reason = await table.locator('tr.lecture-row[data-ok="false"] .verdict').innerText();
          assert.match(reason, lang === 'en' ? /2,039 GB\/s/ : /取整/);
        }
        assert.deepEqual(page.errors, []);
        await page.context().close();
      }
    }
    const page = await fresh('#/waves?n=4000');
    await page.locator('[data-testid=lecture-table] tr.lecture-row[data-row="1"]').click();
    await waitQuery(page, 'n', '1793');
    assert.equal(Number(await page.locator('[data-metric="waves"]').getAttribute('data-value')), 2);
    await page.context().close();
  });

  test('units and words: blocks, yes/no, number boxes that fit, translated insets', async () => {
    let page = await fresh('#/quantization?n=1025&lang=zh');
    assert.equal(await page.locator('[data-metric="aligned"] .metric-value').innerText(), '否');
    assert.equal(await page.locator('[data-metric="aligned"]').getAttribute('data-value'), '0');
    await page.context().close();
    page = await fresh('#/fusion?n=16777216');
    const box = page.locator('.slider[data-param="n"] .slider-number');
    const [scroll, client] = await box.evaluate((e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(scroll <= client, `the number box cuts 16777216 (${scroll} > ${client})`);
    assert.match(await page.locator('[data-metric="bytes-unfused"] .metric-value').innerText(), /MB$/);
    await page.context().close();
    page = await fresh('#/flash?n=256&lang=zh');
    assert.match(await page.locator('[data-testid=roofline-inset] .inset-values').innerText(), /FLOP\/字节/);
    await page.context().close();
    page = await fresh('#/hardware?gpu=a100&lang=zh');
    assert.match(await page.locator('[data-testid=hardware-source]').innerText(), /数据手册/);
    await page.context().close();
  });
});
