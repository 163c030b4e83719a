// Benchmark (not a test): a first visit on a phone over a slow network, from
// the navigation's start to the first useful paint (issue 33).
//
//   trunk build --release && npm run bench:firstpaint
//   (BENCH_N=3 visits per entry point; BENCH_ENTRIES=#/llm,#/llm?phase=train
//    only those; BENCH_OUT=<file stem> writes <stem>.json
//    and <stem>.md, default target/bench-firstpaint; BENCH_LABEL names the run)
//
// The profile is Lighthouse's mobile one: 150 ms round trip, 1.6 Mbit/s down,
// 750 kbit/s up (CDP Network.emulateNetworkConditions, which adds the latency
// to every request), the CPU 4× slower (Emulation.setCPUThrottlingRate), a
// phone's viewport (390×844, 3× pixels, touch). dist/ is served as a static
// host serves it: HTTP/2 over TLS (a self-signed certificate made here with
// openssl; Chromium runs with --ignore-certificate-errors), gzip for text and
// wasm (as GitHub Pages does), `application/wasm` (streaming compilation).
// Every visit is a fresh browser context: empty cache, a new connection, no
// service worker.
//
// The moment measured, recorded in the page by a MutationObserver installed
// before any script: a panel's key figures are in the DOM and its drawing is
// painted (as tests/bench-chunks.mjs and the harness's `painted`); the start
// page's topic cards are in the DOM. The start page has two moments:
// - the static start page painted: the build writes the start page's markup
//   into index.html (src/prerender.rs), shown by the stylesheet before any
//   wasm; the moment is the first largest-contentful-paint entry whose
//   element is inside that static copy (its first paint: the browser's own
//   paint time), and not before a static card is shown (checkVisibility);
//   the goal column compares this one (a picture, not yet interactive);
// - the app's cards rendered (interactive): the app's own `.landing .card`
//   in the DOM (the static copy removed), as for every entry before.
// A panel with a static snapshot (src/prerender/snap.rs: its default view's
// drawing as SVG and its key figures, fetched by web/pre.js) has two moments
// too: the snapshot painted (its figures and drawing shown, at the first
// largest-contentful paint inside it, or the frame after it is shown if it
// has none), which the goal column compares, and the app rendered.
//
// The breakdown, per visit (milliseconds from the navigation's start):
// - network: when the main wasm finished arriving, when the last of the
//   route's chunks and texts did, the bytes on the wire (every response's
//   transfer size, headers included), the number of requests and the depth
//   of the request chain (index.html is 1; a file requested by a script that
//   came at depth n is n + 1), from resource timing and CDP's initiators;
// - compile: WebAssembly.instantiateStreaming/instantiate as the page calls
//   them (wrapped before any script): when the main module's resolved, and how
//   long after its last byte that was (compile and instantiate that did not
//   overlap the download); the chunks' instantiations in total;
// - first render: from the main module's instantiation to the moment above.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createSecureServer } from 'node:http2';
import { tmpdir, cpus, loadavg } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DIST, ROOT, BASE_PATH, CHROMIUM_ARGS } from './e2e/harness.mjs';

const N = Number(process.env.BENCH_N ?? 3);
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'target', 'bench-firstpaint');
const LABEL = process.env.BENCH_LABEL ?? '';
const ENTRIES = [
  { hash: '#/', goal: 2000 },
  { hash: '#/systolic', goal: 2500 },
  { hash: '#/flash', goal: 2500 },
  { hash: '#/online-softmax?lang=zh', goal: 2500 },
  { hash: '#/llm', goal: 2500 },
  // The training lens: #/llm's files and its own chunk (no goal of its own).
  { hash: '#/llm?phase=train', goal: null },
].filter((e) => !process.env.BENCH_ENTRIES || process.env.BENCH_ENTRIES.split(',').includes(e.hash));
const PROFILE = {
  latency: 150,
  downloadThroughput: 1.6e6 / 8,
  uploadThroughput: 750e3 / 8,
  cpu: 4,
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};
// What GitHub Pages compresses (text and wasm; not images).
const GZIP = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json']);

/** dist/ over HTTP/2 + TLS with gzip, from BASE_PATH, every file read and
 *  compressed once. */
function serveH2() {
  const dir = mkdtempSync(join(tmpdir(), 'warpscope-cert-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  rmSync(dir, { recursive: true });
  const cache = new Map();
  const server = createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
    const url = new URL(req.url, 'https://localhost');
    if (!url.pathname.startsWith(BASE_PATH)) return res.writeHead(404).end('outside the subpath');
    const rel = decodeURIComponent(url.pathname.slice(BASE_PATH.length)) || 'index.html';
    const file = normalize(join(DIST, rel));
    if (!file.startsWith(DIST)) return res.writeHead(403).end();
    let entry = cache.get(file);
    if (!entry) {
      let body;
      try { body = readFileSync(file); } catch { return res.writeHead(404).end('not found'); }
      const ext = extname(file);
      entry = { type: TYPES[ext] ?? 'application/octet-stream', body, gz: GZIP.has(ext) ? gzipSync(body, { level: 6 }) : null };
      cache.set(file, entry);
    }
    const gz = entry.gz && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'content-type': entry.type,
      'cache-control': 'max-age=600',
      ...(gz ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
    });
    res.end(gz ? entry.gz : entry.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    resolve({ server, base: `https://127.0.0.1:${port}${BASE_PATH}` });
  }));
}

// Installed before any script of the page: the readiness moment, and every
// wasm instantiation with its times.
const INSTRUMENT = () => {
  const check = () => {
    if (window.__ready !== undefined) return;
    if (location.hash === '' || location.hash.startsWith('#/?') || location.hash === '#/') {
      if (window.__staticShown === undefined && document.querySelector(`.static-start[data-lang="${document.documentElement.dataset.lang}"] .card`)?.checkVisibility()) {
        window.__staticShown = performance.now();
      }
      if (document.querySelector('.app:not(.static-start) .landing .card')) window.__ready = performance.now();
      return;
    }
    // A panel's static snapshot (src/prerender/snap.rs, web/pre.js): its
    // figures and its drawing (a scene or a chart, as SVG) shown, before the wasm.
    if (window.__staticShown === undefined && [...document.querySelectorAll('.static-snap .stage svg, .static-snap [data-metric]')].every((e) => e.checkVisibility()) &&
      document.querySelector('.static-snap [data-metric]')) {
      window.__staticShown = performance.now();
      requestAnimationFrame(() => { window.__snapFrame = performance.now(); });
    }
    if (![...document.querySelectorAll('.panel [data-metric]')].some((e) => !e.closest('.static-snap'))) return;
    // The page's first panel is shown once it has settled (src/ui/kit/panel/settle.rs).
    if (document.getElementById('boot') || document.documentElement.classList.contains('settling')) return;
    const c = document.querySelector('canvas[data-testid="scene-canvas"]');
    if (!c || c.dataset.painted === '1') window.__ready = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  window.__lcpStatic = undefined;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (window.__lcpStatic === undefined && e.element?.closest?.('.static-start, .static-snap')) window.__lcpStatic = e.startTime;
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  window.__wasm = [];
  const wrap = (name) => {
    const orig = WebAssembly[name];
    WebAssembly[name] = function (src, ...rest) {
      const rec = { kind: name, start: performance.now(), url: null };
      window.__wasm.push(rec);
      Promise.resolve(src).then((r) => { if (r && typeof r.url === 'string') rec.url = r.url; }, () => {});
      const p = orig.call(this, src, ...rest);
      p.then(() => { rec.end = performance.now(); }, () => { rec.failed = true; });
      return p;
    };
  };
  wrap('instantiateStreaming');
  wrap('instantiate');
};

const file = (url) => url.split('?')[0].split('/').pop();
const isMain = (name) => /^warpscope-[0-9a-f]+_bg\.wasm$/.test(name);

async function visit(browser, base, hash) {
  const context = await browser.newContext({
    viewport: PROFILE.viewport,
    deviceScaleFactor: PROFILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
    ignoreHTTPSErrors: true,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.addInitScript(INSTRUMENT);
  const cdp = await context.newCDPSession(page);
  // The request chain: each request's initiator (the document's parser, a
  // script's stack, a preload) gives its parent.
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    const init = e.initiator ?? {};
    let parent = init.url ?? null;
    const frames = [];
    for (let s = init.stack; s; s = s.parent) frames.push(...s.callFrames);
    if (frames.length) parent = frames[0].url || parent;
    if (!requests.has(e.request.url)) requests.set(e.request.url, { parent, protocol: null });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.response.url);
    if (r) r.protocol = e.response.protocol;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PROFILE.latency,
    downloadThroughput: PROFILE.downloadThroughput,
    uploadThroughput: PROFILE.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
  await page.goto(base + hash);
  await page.waitForFunction(() => window.__ready !== undefined || document.getElementById('panic-card'), null, { polling: 'raf', timeout: 120_000 });
  const seen = await page.evaluate(() => ({
    ready: window.__ready,
    staticShown: window.__staticShown ?? null,
    lcpStatic: window.__lcpStatic ?? null,
    snapFrame: window.__snapFrame ?? null,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    wasm: window.__wasm,
    nav: performance.getEntriesByType('navigation').map((e) => ({ name: e.name, transfer: e.transferSize, end: e.responseEnd }))[0],
    resources: performance.getEntriesByType('resource').map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd, transfer: e.transferSize, encoded: e.encodedBodySize })),
  }));
  if (seen.ready === undefined) errors.push('the app panicked');
  await context.close();
  if (errors.length) throw new Error(`${hash}: ${errors.join('\n')}`);

  // Chain depth.
  const depth = new Map();
  const depthOf = (url, seenUrls = new Set()) => {
    if (depth.has(url)) return depth.get(url);
    const r = requests.get(url);
    const parentUrl = r?.parent?.split('#')[0];
    const d = !parentUrl || seenUrls.has(url) || !requests.has(parentUrl) || parentUrl === url ? 1 : 1 + depthOf(parentUrl, seenUrls.add(url));
    depth.set(url, d);
    return d;
  };
  const before = seen.resources.filter((r) => r.start <= seen.ready);
  const chain = Math.max(1, ...before.map((r) => depthOf(r.name)));
  const deepest = before.filter((r) => depthOf(r.name) === chain).map((r) => file(r.name));
  const main = seen.resources.find((r) => isMain(file(r.name)));
  const routeFiles = before.filter((r) => /\.(wasm|json)$/.test(file(r.name)) && r.end <= seen.ready);
  const lastFile = routeFiles.reduce((a, r) => (!a || r.end > a.end ? r : a), null);
  const mainInst = seen.wasm.find((w) => w.url && isMain(file(w.url)));
  const chunkInst = seen.wasm.filter((w) => w !== mainInst && w.end !== undefined && w.end <= seen.ready);
  // The static page's paint: the browser's own (its first largest-contentful
  // paint inside the static copy), not before it is shown; a snapshot whose
  // texts are no larger than what was painted before has no such entry: the
  // frame after it was shown.
  const staticPaint = seen.lcpStatic ?? seen.snapFrame;
  const staticPainted = seen.staticShown != null && staticPaint != null ? Math.max(seen.staticShown, staticPaint) : null;
  return {
    ready: seen.ready,
    // The entry's useful paint: the static start page's where it has one.
    paint: staticPainted ?? seen.ready,
    static: { painted: staticPainted, shown: seen.staticShown, lcp: seen.lcpStatic, fcp: seen.fcp },
    network: {
      mainWasmEnd: main?.end ?? null,
      lastFileEnd: lastFile?.end ?? null,
      lastFile: lastFile ? file(lastFile.name) : null,
      bytes: (seen.nav?.transfer ?? 0) + before.reduce((t, r) => t + r.transfer, 0),
      requests: 1 + before.length,
      wasmRequests: before.filter((r) => file(r.name).endsWith('.wasm')).length,
      chain: chain + (before.length ? 0 : 0),
      deepest,
      protocol: [...new Set([...requests.values()].map((r) => r.protocol).filter(Boolean))].join(','),
    },
    compile: {
      mainInstantiated: mainInst?.end ?? null,
      afterLastByte: mainInst?.end != null && main ? mainInst.end - main.end : null,
      chunks: chunkInst.length,
      chunksTotal: chunkInst.reduce((t, w) => t + (w.end - w.start), 0),
    },
    render: { fromMain: mainInst?.end != null ? seen.ready - mainInst.end : null, fromLastFile: lastFile ? seen.ready - lastFile.end : null },
  };
}

const median = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : null; };
const ms = (t) => (t == null ? '–' : `${(t / 1000).toFixed(2)} s`);
const kb = (b) => `${(b / 1024).toFixed(0)} KB`;

const srv = await serveH2();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [...CHROMIUM_ARGS, '--ignore-certificate-errors'],
});
const results = [];
try {
  for (const entry of ENTRIES) {
    const runs = [];
    for (let i = 0; i < N; i++) runs.push(await visit(browser, srv.base, entry.hash));
    const pick = (f) => median(runs.map(f));
    const res = {
      entry: entry.hash,
      goal: entry.goal,
      // The useful paint (the static page's on `#/`), which the goal compares;
      // and the app's render (interactive), every entry.
      median: pick((r) => r.paint),
      runs: runs.map((r) => r.paint),
      paintIs: runs.every((r) => r.static.painted != null)
        ? (entry.hash === '#/' ? 'static start page painted (HTML, before the wasm)' : 'static snapshot painted (its SVG and figures, before the wasm)')
        : runs.some((r) => r.static.painted != null) ? 'mixed: see the runs' : 'the app rendered',
      appMedian: pick((r) => r.ready),
      appRuns: runs.map((r) => r.ready),
      fcp: pick((r) => r.static.fcp),
      breakdown: {
        mainWasmEnd: pick((r) => r.network.mainWasmEnd),
        lastFileEnd: pick((r) => r.network.lastFileEnd),
        bytes: pick((r) => r.network.bytes),
        requests: pick((r) => r.network.requests),
        wasmRequests: pick((r) => r.network.wasmRequests),
        chain: pick((r) => r.network.chain),
        deepest: runs[0].network.deepest,
        protocol: runs[0].network.protocol,
        mainInstantiated: pick((r) => r.compile.mainInstantiated),
        compileAfterLastByte: pick((r) => r.compile.afterLastByte),
        chunkInstantiations: pick((r) => r.compile.chunks),
        chunkInstantiateTotal: pick((r) => r.compile.chunksTotal),
        renderFromMain: pick((r) => r.render.fromMain),
        renderFromLastFile: pick((r) => r.render.fromLastFile),
      },
      visits: runs,
    };
    results.push(res);
    console.log(`${entry.hash}: ${res.paintIs} ${ms(res.median)} (${res.runs.map(ms).join(', ')}); goal ${ms(entry.goal)}; the app rendered ${ms(res.appMedian)} (${res.appRuns.map(ms).join(', ')})`);
  }
} finally {
  await browser.close();
  srv.server.close();
}

const machine = `${cpus().length}× ${cpus()[0]?.model ?? '?'}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`;
const md = [
  `First useful paint${LABEL ? ` (${LABEL})` : ''}: median of ${N} fresh visits; profile: ${PROFILE.latency} ms latency, ` +
    `${PROFILE.downloadThroughput * 8 / 1e6} Mbit/s down, ${PROFILE.uploadThroughput * 8 / 1e3} kbit/s up, CPU ${PROFILE.cpu}× slower, ` +
    `${PROFILE.viewport.width}×${PROFILE.viewport.height} at ${PROFILE.deviceScaleFactor}×; HTTP/2 + TLS + gzip; ${machine}.`,
  '',
  '| entry point | useful paint: what | median | runs | goal | the app rendered (interactive): median | runs | main wasm in | last file in | on the wire | requests (wasm) | chain | main instantiated | compile after last byte | chunk instantiations | first render (from main / from last file) |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...results.map((r) => {
    const b = r.breakdown;
    return `| \`${r.entry}\` | ${r.paintIs} | **${ms(r.median)}** | ${r.runs.map(ms).join(', ')} | ${ms(r.goal)} | ${ms(r.appMedian)} | ${r.appRuns.map(ms).join(', ')} | ${ms(b.mainWasmEnd)} | ${ms(b.lastFileEnd)} | ${kb(b.bytes)} | ${b.requests} (${b.wasmRequests}) | ${b.chain} | ${ms(b.mainInstantiated)} | ${ms(b.compileAfterLastByte)} | ${b.chunkInstantiations} (${ms(b.chunkInstantiateTotal)} in all) | ${ms(b.renderFromMain)} / ${ms(b.renderFromLastFile)} |`;
  }),
  '',
  'On the wire, requests and chain count what was requested before the app rendered; the static start page paints from index.html, its stylesheets and web/pre.js alone; a panel\'s static snapshot from those and its snapshot file (snap/<route>.<lang>.<narrow|wide>-<build>.html, fetched by web/pre.js).',
  '',
  `The deepest requests (chain): ${results.map((r) => `\`${r.entry}\` ${r.breakdown.deepest.join(', ')}`).join('; ')}. Protocol: ${results[0]?.breakdown.protocol}.`,
  '',
].join('\n');
console.log('\n' + md);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(`${OUT}.json`, JSON.stringify({ label: LABEL, date: new Date().toISOString(), machine, profile: PROFILE, n: N, results }, null, 1) + '\n');
writeFileSync(`${OUT}.md`, md);
console.log(`written: ${OUT}.json, ${OUT}.md`);
