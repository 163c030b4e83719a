// Starts the app without any inline script, so that the Content-Security-
// Policy in index.html can forbid inline script entirely: trunk and
// tools/split write the hashed names of the glue, the wasm file, the chunk
// loader and the manifest onto this script's tag (Trunk.toml `pattern_script`). Then registers the service
// worker that lets the app run offline after a first visit.
// The texts of the language the page opens in (the URL's lang=, else the
// one remembered, else English) download while the wasm does (the shared
// file, and a deep-linked panel's own); the app takes them from here
// (src/ui/kit/texts.rs) and fetches anything else itself.
// web/pre.js decided the language before the body painted (one rule, one place).
const lang = document.documentElement.dataset.lang === 'zh' ? 'zh' : 'en';
const texts = (file) => fetch(file, { cache: 'no-cache' }).then((r) => (r.ok ? r.text() : null), () => null);
window.warpscopeTexts = { lang, text: texts(`strings.${lang}.json`) };

const tag = document.querySelector('script[data-wasm]');
// The glue and, beside it, the split build's chunk loader (web/loader.js),
// which reads the build's manifest (tools/split; index.html preloads all
// three): each route's chunks, so that a deep link's panel downloads them
// while the main module downloads. A preload of the same URL and mode is
// what the loader's own fetch then takes.
const [bindings, loader] = await Promise.all([
  import(tag.dataset.js),
  tag.dataset.loader ? import(tag.dataset.loader).catch(() => null) : null,
]);
const manifest = await loader?.manifest().catch(() => null);
const route = location.hash.match(/^#\/([a-z0-9-]+)/)?.[1];
// A deep link to a panel: its topic's own texts too.
if (route && manifest?.topics?.includes(route)) window.warpscopeTexts.part = texts(`strings.${lang}.${route}.json`);
// A view of a route that a query value asks for is a split point named
// `<route>_<value>` (`#/llm?phase=train`: `llm_train`, the training lens):
// its chunks too, so that such a link does not wait for the panel's chunk
// to ask for them.
const query = new URLSearchParams(location.hash.split('?')[1] ?? '');
const views = route ? [...query.values()].map((v) => manifest?.splits?.[`${route.replace(/-/g, '_')}_${v}`]) : [];
const wanted = new Set([...((route && manifest?.routes?.[route]) || []), ...views.filter(Boolean).flat()]);
for (const i of wanted) {
  const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: loader.fileUrl(manifest.chunks[i]) });
  link.crossOrigin = 'anonymous';
  document.head.append(link);
}
// Before the module starts: the chunk loader reaches the main module's
// exports through the glue (its `initSync`).
window.wasmBindings = bindings;
const wasm = await bindings.default({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));

if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('service worker not registered:', e));
}
