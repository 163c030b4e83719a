// Starts the app without any inline script, so that the Content-Security-
// Policy in index.html can forbid inline script entirely: trunk writes the
// hashed names of the wasm-bindgen module and the wasm file onto this
// script's tag (Trunk.toml `pattern_script`). Then registers the service
// worker that lets the app run offline after a first visit.
// The texts of the language the page opens in (the URL's lang=, else the
// one remembered, else English) download while the wasm does (the shared
// file, and a deep-linked panel's own); the app takes them from here
// (src/ui/kit/texts.rs) and fetches anything else itself.
const tag = document.querySelector('script[data-wasm]');
// The main module first, with this script (issue 33), ahead of the glue and a deep link's chunks; the glue's fetch takes this preload.
document.head.append(Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: tag.dataset.wasm, crossOrigin: 'anonymous' }));
const remembered = (() => {
  try { return JSON.parse(localStorage.getItem('warpscope.lang')); } catch { return null; }
})();
const asked = new URLSearchParams(location.hash.split('?')[1] ?? '').getAll('lang').pop();
const lang = ['en', 'zh'].includes(asked) ? asked : ['en', 'zh'].includes(remembered) ? remembered : 'en';
const texts = (file) => fetch(file, { cache: 'no-cache' }).then((r) => (r.ok ? r.text() : null), () => null);
window.warpscopeTexts = { lang, text: texts(`strings.${lang}.json`) };

// The glue and, beside it, the split build's chunk loader (web/split.py),
// which lists each route's chunks: a deep link's panel downloads them while
// the main module downloads. A preload of the same URL and mode is what the
// loader's own fetch then takes.
const [bindings, loader] = await Promise.all([
  import(tag.dataset.js),
  tag.dataset.loader ? import(tag.dataset.loader).catch(() => null) : null,
]);
const route = location.hash.match(/^#\/([a-z0-9-]+)/)?.[1];
// A deep link to a panel: its topic's own texts too.
if (route && loader?.topics?.includes(route)) window.warpscopeTexts.part = texts(`strings.${lang}.${route}.json`);
for (const i of (route && loader?.routes?.[route]) || []) {
  const file = loader.chunks[i];
  const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: new URL(file, new URL(tag.dataset.loader, location.href)).href });
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
