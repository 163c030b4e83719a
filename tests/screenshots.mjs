// Screenshots of every panel (not a test): normal 1440×900, projected
// 1024×768 and 1920×1080 (present=1), phone 390×844; English and 中文.
//
//   trunk build --release && node tests/screenshots.mjs [topic ...]
//
// Writes target/screenshots/all/<topic>-<view>-<lang>.png (the viewport, as
// a reader first sees it) and prints what overflows: sideways scroll at the
// phone size, and whether the canvas, player and key figures are on the
// first screen.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, serveDist, launch, newPage, open, painted } from './e2e/harness.mjs';

const OUT = join(ROOT, 'target', 'screenshots', 'all');
const VIEWS = [
  { name: 'desktop', width: 1440, height: 900, present: false },
  { name: 'laptop', width: 1280, height: 720, present: false },
  { name: 'projector-1024', width: 1024, height: 768, present: true },
  { name: 'projector-1920', width: 1920, height: 1080, present: true },
  { name: 'phone', width: 390, height: 844, present: false, mobile: true },
];

await mkdir(OUT, { recursive: true });
const srv = await serveDist();
const browser = await launch();
const only = process.env.VIEWS ? process.env.VIEWS.split(',') : null;
let ids = process.argv.slice(2);
if (!ids.length) {
  const page = await newPage(browser);
  await open(page, srv.base, '#/');
  ids = await page.$$eval('.card[data-topic]', (cs) => cs.map((c) => c.dataset.topic));
  await page.context().close();
}
console.log('| topic | view | lang | page width | canvas bottom | player bottom | metrics bottom | one screen | errors |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const view of VIEWS.filter((v) => !only || only.includes(v.name))) {
  const page = await newPage(browser, {
    viewport: { width: view.width, height: view.height },
    isMobile: !!view.mobile,
    hasTouch: !!view.mobile,
    deviceScaleFactor: view.mobile ? 2 : 1,
  });
  for (const lang of (process.env.LANGS || 'en,zh').split(',')) {
    for (const id of ids) {
      await open(page, srv.base, `#/${id}?lang=${lang}${view.present ? '&present=1' : ''}`);
      await painted(page);
      await page.waitForTimeout(100);
      const m = await page.evaluate(() => {
        const bottom = (sel) => {
          const el = document.querySelector(sel);
          return el ? Math.round(el.getBoundingClientRect().bottom + window.scrollY) : null;
        };
        return {
          width: document.documentElement.scrollWidth,
          canvas: bottom('canvas[data-testid="scene-canvas"]'),
          player: bottom('.player'),
          metrics: bottom('.readouts'),
        };
      });
      await page.screenshot({ path: join(OUT, `${id}-${view.name}-${lang}.png`) });
      const fits = Math.max(m.canvas ?? 0, m.player ?? 0, m.metrics ?? 0) <= view.height && m.width <= view.width;
      console.log(`| ${id} | ${view.name} | ${lang} | ${m.width} | ${m.canvas ?? '—'} | ${m.player ?? '—'} | ${m.metrics ?? '—'} | ${fits ? 'yes' : 'NO'} | ${page.errors.length} |`);
      page.errors.length = 0;
    }
  }
  await page.context().close();
}
await browser.close();
srv.server.close();
