// Layout shift of a first visit to every panel (issue 33: "no layout shift
// when the app takes over"): the browser's own layout-shift entries (not
// after input), summed from the navigation until the panel has painted and
// settled and 800 ms more, for every route of the registry, at a phone's
// 390×844 and a screen's 1440×900, by a plain link (the build's static
// snapshot, where the route has one) and by one with a parameter
// (`?present=0`, a global every route takes at its default: no snapshot,
// no notice). Not throttled: the shifts come from the order
// of the app's renders, not from the network. Prints a markdown table (and
// writes it to BENCH_OUT if set).
//
//   trunk build --release && npm run bench:cls
//   WARPSCOPE_DIST=<dir> benches another build; BENCH_LABEL names the run.
import { writeFile } from 'node:fs/promises';
import { serveDist, launch, newPage, open, painted } from './e2e/harness.mjs';

const srv = await serveDist();
const browser = await launch();
const start = await newPage(browser);
await open(start, srv.base, '#/');
const routes = await start.$$eval('.app .card[data-topic]', (cards) => cards.map((c) => c.dataset.topic));
await start.context().close();
const columns = [[390, 844, ''], [390, 844, '?present=0'], [1440, 900, ''], [1440, 900, '?present=0']];
const rows = [];
for (const id of routes) {
  const row = [id];
  for (const [width, height, suffix] of columns) {
    const page = await newPage(browser, { serviceWorkers: 'block', viewport: { width, height } });
    await page.addInitScript(() => {
      window.__cls = 0;
      new PerformanceObserver((l) => l.getEntries().forEach((e) => { if (!e.hadRecentInput) window.__cls += e.value; }))
        .observe({ type: 'layout-shift', buffered: true });
    });
    await open(page, srv.base, `#/${id}${suffix}`);
    await painted(page);
    await page.waitForTimeout(800);
    row.push(await page.evaluate(() => window.__cls));
    await page.context().close();
  }
  rows.push(row);
}
await browser.close();
srv.server.close();
const f = (x) => x.toFixed(3);
const worst = columns.map((_, i) => Math.max(...rows.map((r) => r[i + 1])));
const md = [
  `Layout shift of a first visit${process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : ''}: CLS from the navigation to the settled panel + 800 ms, not throttled.`,
  '',
  `| route | ${columns.map(([w, h, s]) => `${w}×${h}${s ? ` ${s}` : ' (plain)'}`).join(' | ')} |`,
  `|---|${columns.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| \`#/${r[0]}\` | ${r.slice(1).map(f).join(' | ')} |`),
  `| **largest** | ${worst.map((x) => `**${f(x)}**`).join(' | ')} |`,
  '',
].join('\n');
console.log(md);
if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, md);
process.exit(0);
