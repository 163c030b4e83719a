// The systolic array as a GEMM simulator: folded runs in every dataflow, the
// conventions option, TPU presets, and the link from #/gpu-vs-tpu.
//
//   trunk build --release && node --test tests/e2e/systolic.test.mjs
//
// Expected figures come from the fold formulas written out below, apart from
// the Rust closed forms: each fold of `ur × uc` used PEs streams T vectors
// and lasts (load) + T + ur + uc − 2 cycles.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, withBrowser, newPage, open, metric, hashQuery, painted } from './harness.mjs';

const env = withBrowser();
const SHOTS = join(ROOT, 'target', 'screenshots');

async function shot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Folds of a GEMM in schedule order (column blocks outer, row blocks inner), with their lengths. */
function folds({ rows, cols, m, k, n, df, dbuf = false, scalesim = false }) {
  const [er, ec, t] = { os: [m, n, k], ws: [k, n, m], is: [k, m, n] }[df];
  const out = [];
  for (let c0 = 0; c0 < ec; c0 += cols) {
    for (let r0 = 0; r0 < er; r0 += rows) {
      const ur = Math.min(rows, er - r0);
      const uc = Math.min(cols, ec - c0);
      const [pr, pc] = scalesim ? [rows, cols] : [ur, uc];
      const compute = t + pr + pc - 2;
      let load = df === 'os' ? 0 : scalesim ? rows : ur;
      if (dbuf && out.length > 0 && df !== 'os') load = Math.max(0, ur - out[out.length - 1].compute);
      out.push({ ur, uc, compute, load, len: load + compute });
    }
  }
  return { list: out, total: out.reduce((a, f) => a + f.len, 0), t };
}

describe('systolic: folded GEMMs', () => {
  const gemm = { rows: 4, cols: 4, m: 6, k: 5, n: 7 };
  for (const df of ['os', 'ws', 'is']) {
    test(`deep link to a folded ${df.toUpperCase()} run restores state and metrics`, async () => {
      const page = await newPage(env.browser);
      const f = folds({ ...gemm, df });
      // Mid-way through the second fold.
      const cycle = f.list[0].len + Math.ceil(f.list[1].len / 2);
      const hash = `#/systolic?rows=4&cols=4&m=6&k=5&n=7&dataflow=${df}&seed=1&cycle=${cycle}`;
      await open(page, env.srv.base, hash);
      await painted(page);
      assert.equal(await metric(page, 'total-cycles'), f.total);
      assert.equal(await metric(page, 'folds'), f.list.length);
      assert.equal(await metric(page, 'fold'), 2);
      assert.equal(await metric(page, 'cycle'), cycle);
      assert.equal(await metric(page, 'max-abs-error'), 0);
      const macs = 6 * 5 * 7;
      assert.ok(Math.abs((await metric(page, 'overall-utilization')) - macs / (16 * f.total)) < 1e-9);
      assert.ok(Math.abs((await metric(page, 'utilization')) - macs / (16 * f.total)) < 1e-9);
      const used = f.list.reduce((a, x) => a + x.ur * x.uc, 0);
      assert.ok(Math.abs((await metric(page, 'mapping-efficiency')) - used / (16 * f.list.length)) < 1e-9);
      const compute = f.list.reduce((a, x) => a + x.compute, 0);
      assert.ok(Math.abs((await metric(page, 'compute-utilization')) - macs / (16 * compute)) < 1e-9);
      assert.equal(await page.getByTestId('notices').count(), 0);
      const q = await hashQuery(page);
      assert.deepEqual(q, { rows: '4', cols: '4', m: '6', k: '5', n: '7', dataflow: df, seed: '1', cycle: String(cycle), lang: 'en' });
      // The accounting table: this fold's compute cycles beside all folds'.
      const row = page.locator('[data-testid="accounting"] tr[data-row="compute"] td');
      assert.equal(await row.nth(0).textContent(), String(f.list[1].compute));
      assert.equal((await row.nth(1).textContent()).replace(/,/g, ''), String(compute));
      assert.match(await page.locator('[data-testid="scene-canvas"]').getAttribute('aria-label'), /fold 2 of 4/);
      await shot(page, `systolic-folded-${df}-mid`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }

  test('a large folded run (256 × 256, m = n = 1024, k = 4096) mid-fold, in each dataflow', async () => {
    const page = await newPage(env.browser);
    for (const df of ['os', 'ws', 'is']) {
      const f = folds({ rows: 256, cols: 256, m: 1024, k: 4096, n: 1024, df });
      const cycle = f.list[0].len + f.list[1].len + Math.floor(f.list[2].len / 3);
      const t0 = Date.now();
      await open(page, env.srv.base, `#/systolic?rows=256&cols=256&m=1024&k=4096&n=1024&dataflow=${df}&seed=1&cycle=${cycle}`);
      await painted(page);
      const firstPaint = Date.now() - t0;
      assert.equal(await metric(page, 'total-cycles'), f.total);
      assert.equal(await metric(page, 'fold'), 3);
      // The check runs in slices after the first paint: no freeze.
      assert.ok(firstPaint < 5000, `first paint ${firstPaint} ms`);
      await shot(page, `systolic-folded-256-${df}-mid`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test("the lecture's 4×4, K = 6 still gives 12 cycles and 50 % from the old link", async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&k=6&dataflow=os&seed=1&cycle=12');
    await painted(page);
    assert.equal(await metric(page, 'total-cycles'), 12);
    assert.equal(await metric(page, 'utilization'), 0.5);
    assert.equal(await metric(page, 'folds'), 1);
    assert.equal(await metric(page, 'max-abs-error'), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('double buffering and SCALE-Sim conventions change the count as their formulas say', async () => {
    const page = await newPage(env.browser);
    const dbuf = folds({ ...gemm, df: 'ws', dbuf: true });
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&m=6&k=5&n=7&dataflow=ws&dbuf=on&seed=1&cycle=0');
    await painted(page);
    assert.equal(await metric(page, 'total-cycles'), dbuf.total);
    assert.ok(dbuf.total < folds({ ...gemm, df: 'ws' }).total);
    for (const df of ['os', 'ws', 'is']) {
      const ss = folds({ ...gemm, df, scalesim: true });
      await open(page, env.srv.base, `#/systolic?rows=4&cols=4&m=6&k=5&n=7&dataflow=${df}&conv=scalesim&seed=1&cycle=0`);
      await painted(page);
      assert.equal(await metric(page, 'total-cycles'), ss.total, df);
      // SCALE-Sim's compute utilisation: the plain mean over folds of
      // ur·uc·T / (R·C·cycles_this_fold), its cycles_this_fold being
      // T + R + C − 2 (OS) or 2R + 2C + T − 3 (WS, IS).
      const per = df === 'os' ? ss.t + 4 + 4 - 2 : 2 * 4 + 2 * 4 + ss.t - 3;
      const mean = ss.list.reduce((a, x) => a + (x.ur * x.uc * ss.t) / (16 * per), 0) / ss.list.length;
      assert.ok(Math.abs((await metric(page, 'compute-utilization')) - mean) < 1e-9, df);
      assert.equal(await page.locator('[data-testid="conventions"] li').count(), 5);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a TPU preset makes the array that chip’s MXU and states its MXUs and clock', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&m=512&k=1024&n=512&dataflow=ws&seed=1&cycle=0');
    await painted(page);
    await page.locator('[data-preset="v6e"]').click();
    await page.waitForFunction(() => new URLSearchParams(location.hash.split('?')[1]).get('tpu') === 'v6e');
    assert.equal((await hashQuery(page)).rows, '256');
    assert.match(await page.getByTestId('systolic-chip').textContent(), /2 MXUs of 256×256/);
    assert.equal(await metric(page, 'folds'), 4 * 2);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('gpu-vs-tpu: chip against chip', () => {
  test('one wave, not "1 waves"; both chips whole; the link opens the folds', async () => {
    const page = await newPage(env.browser);
    await open(page, env.srv.base, '#/gpu-vs-tpu?m=512&k=4096&n=4096&mxu=128&gpu=h100&tm=128&tn=128');
    await painted(page);
    assert.match(await page.getByTestId('gpu-detail').textContent(), /^All SMs: 1 wave ×/);
    assert.equal(await metric(page, 'gpu-waves'), 1);
    assert.equal(await metric(page, 'tpu-mxus'), 8);
    // The first weight loads, then 1024 passes over 8 MXUs of v5p: 128 rounds of 512 + 2·128 − 2 cycles.
    assert.equal(await metric(page, 'tpu-chip-cycles'), 128 + 128 * 766);
    // One MXU: the same count the systolic panel steps through (issue 22: 784,384 vs 784,512).
    const oneMxu = Number(await page.getByTestId('tpu-detail').getAttribute('data-value'));
    assert.equal(oneMxu, 784512);
    assert.match(await page.getByTestId('tpu-detail').textContent(), /= 784,512 cycles$/);
    assert.match(await page.getByTestId('tpu-chip').textContent(), /TPU v5p: 8 MXUs/);
    const passes = await metric(page, 'mxu-passes');
    await shot(page, 'gpu-vs-tpu-chips');
    await page.getByTestId('systolic-link').click();
    await page.waitForFunction(() => location.hash.startsWith('#/systolic'));
    await painted(page);
    assert.equal(await metric(page, 'folds'), passes);
    assert.equal(await metric(page, 'total-cycles'), oneMxu);
    const q = await hashQuery(page);
    assert.deepEqual([q.rows, q.m, q.k, q.n, q.dataflow, q.dbuf, q.tpu], ['128', '512', '4096', '4096', 'ws', 'on', 'v5p']);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

describe('systolic: a clicker through the folds (issue 22, item 9)', () => {
  test('previous/next fold and a click on the fold strip go to a fold\'s first cycle', async () => {
    const page = await newPage(env.browser);
    const g = { rows: 4, cols: 4, m: 9, k: 6, n: 5, df: 'os' };
    const { list } = folds(g);
    const start = (i) => list.slice(0, i).reduce((a, f) => a + f.len, 0) + 1;
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&m=9&k=6&n=5&dataflow=os&cycle=0&lang=en');
    await painted(page);
    const nav = page.locator('[data-testid="fold-nav"]');
    assert.equal(await nav.getAttribute('data-folds'), String(list.length));
    assert.equal(await nav.getAttribute('data-fold'), '1');
    await page.getByTestId('fold-next').click();
    await page.locator('[data-testid="fold-nav"][data-fold="2"]').waitFor();
    assert.equal(await metric(page, 'cycle'), start(1));
    // The strip: the block of C in the last column block, last row block is fold 6 (index 5).
    await painted(page);
    const [x, y, w, h, sw, sh] = (await nav.getAttribute('data-strip')).split(' ').map(Number);
    const canvas = page.locator('canvas[data-testid="scene-canvas"]');
    const r = await canvas.boundingBox();
    await page.mouse.click(r.x + (x + 0.9 * w) * r.width / sw, r.y + (y + 0.9 * h) * r.height / sh);
    await page.locator('[data-testid="fold-nav"][data-fold="6"]').waitFor();
    assert.equal(await metric(page, 'cycle'), start(5));
    await page.waitForFunction((c) => new URLSearchParams(location.hash.split('?')[1]).get('cycle') === String(c), start(5));
    await page.getByTestId('fold-prev').click();
    await page.locator('[data-testid="fold-nav"][data-fold="5"]').waitFor();
    assert.equal(await metric(page, 'cycle'), start(4));
    assert.equal(await page.getByTestId('fold-next').isDisabled(), false);
    // Outside the strip a click does nothing.
    await page.mouse.click(r.x + 5, r.y + 5);
    await page.waitForTimeout(200);
    assert.equal(await metric(page, 'cycle'), start(4));
    await shot(page, 'systolic-fold-nav-en');
    await open(page, env.srv.base, '#/systolic?rows=4&cols=4&m=9&k=6&n=5&dataflow=os&cycle=20&lang=zh');
    await painted(page);
    await page.getByText('下一折 ▶').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  test('a speed that plays the whole weight-stationary run in about ten seconds', async () => {
    const page = await newPage(env.browser);
    const { total } = folds({ rows: 32, cols: 32, m: 64, k: 256, n: 128, df: 'ws' });
    await open(page, env.srv.base, '#/systolic?rows=32&cols=32&m=64&k=256&n=128&dataflow=ws&cycle=0');
    await painted(page);
    assert.equal(await metric(page, 'total-cycles'), total);
    const fit = page.locator('[data-testid="player-speed"] option[data-fit="1"]');
    assert.equal(Number(await fit.getAttribute('value')), Math.ceil(total / 10));
    assert.match(await fit.innerText(), /all in 10 s/);
    await page.getByTestId('player-speed').selectOption(await fit.getAttribute('value'));
    const t0 = Date.now();
    await page.getByTestId('player-play').click();
    await page.waitForFunction(
      (t) => Number(document.querySelector('[data-metric="cycle"]')?.dataset.value) === t, total, { timeout: 30000 },
    );
    const s = (Date.now() - t0) / 1000;
    assert.ok(s < 20, `${total} cycles took ${s} s`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
