// A route of a release build loads (used by .ci/new-topic.sh): serves <dist>
// from a subpath, opens `#/<route>` in headless
// Chromium (through tests/e2e/harness.mjs's server and launcher) and waits for the
// app's own readiness: the route's panel, its chunk in, showing figures with
// values (or its chunk failed). Then checks that the route's own chunk
// (`split_<split point>-<hash>.wasm`) was fetched, that each `name=value`
// figure reads as given, and that the page logged no error.
//
//   node .ci/route-loads.mjs <dist> <route> <split point> [<metric>=<value> ...]
import { resolve } from 'node:path';

const [distArg, route, split, ...figures] = process.argv.slice(2);
if (!distArg || !route || !split) {
  console.error('usage: node .ci/route-loads.mjs <dist> <route> <split point> [<metric>=<value> ...]');
  process.exit(2);
}
// The e2e harness serves the build (from its subpath) and launches Chromium
// with the project's flags; it reads the dist folder when it loads.
process.env.WARPSCOPE_DIST = resolve(distArg);
const { serveDist, launch } = await import('../tests/e2e/harness.mjs');
// Generous: a release build on a loaded 2-core machine. The wait ends on the
// app's readiness, not on this timeout.
const TIMEOUT = 180_000;

const srv = await serveDist();
const server = srv.server;
const url = `${srv.base}#/${route}`;
const browser = await launch();
const errors = [];
const fetched = [];
let failure = null;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname.split('/').pop()));
  await page.goto(url);
  const panel = `article.panel[data-topic="${route}"]`;
  await page.waitForSelector(`${panel} [data-metric][data-value], [data-chunk="${route}"][data-chunk-state="failed"]`);
  if (await page.locator(`[data-chunk="${route}"][data-chunk-state="failed"]`).count()) {
    throw new Error(`#/${route}: its chunk failed to load`);
  }
  const chunk = fetched.find((f) => f.startsWith(`split_${split}-`) && f.endsWith('.wasm'));
  if (!chunk) throw new Error(`#/${route}: its chunk split_${split}-*.wasm was not fetched (fetched: ${fetched.join(' ')})`);
  const shown = await page.$$eval(`${panel} [data-metric][data-value]`, (els) =>
    els.map((e) => [e.getAttribute('data-metric'), e.getAttribute('data-value')]),
  );
  for (const f of figures) {
    const [name, want] = f.split('=');
    const got = shown.find(([n]) => n === name)?.[1];
    if (got === undefined || Number(got) !== Number(want)) throw new Error(`#/${route}: ${name} = ${got}, not ${want}`);
  }
  if (errors.length) throw new Error(`#/${route} logged errors:\n${errors.join('\n')}`);
  console.log(`#/${route} loads: chunk ${chunk}; figures ${shown.map(([n, v]) => `${n}=${v}`).join(' ')}`);
} catch (e) {
  failure = e;
} finally {
  await browser.close();
  server.close();
}
if (failure) {
  console.error(String(failure?.stack ?? failure));
  process.exit(1);
}
