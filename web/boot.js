// Starts the app without any inline script, so that the Content-Security-
// Policy in index.html can forbid inline script entirely: trunk writes the
// hashed names of the wasm-bindgen module and the wasm file onto this
// script's tag (Trunk.toml `pattern_script`). Then registers the service
// worker that lets the app run offline after a first visit.
// The texts of the language the page opens in (the URL's lang=, else the
// one remembered, else English) download while the wasm does; the app takes
// them from here (src/ui/texts.rs) and fetches any other language itself.
const remembered = (() => {
  try { return JSON.parse(localStorage.getItem('warpscope.lang')); } catch { return null; }
})();
const asked = new URLSearchParams(location.hash.split('?')[1] ?? '').getAll('lang').pop();
const lang = ['en', 'zh'].includes(asked) ? asked : ['en', 'zh'].includes(remembered) ? remembered : 'en';
window.warpscopeTexts = {
  lang,
  text: fetch(`strings.${lang}.json`, { cache: 'no-cache' }).then((r) => (r.ok ? r.text() : null), () => null),
};

const tag = document.querySelector('script[data-wasm]');
// A deep link's panel (the split build, web/split.py): its chunks download
// while the main module does. A preload of the same URL and mode is what the
// chunk loader's own fetch then takes.
try {
  const route = location.hash.match(/^#\/([a-z0-9-]+)/)?.[1];
  const chunks = route ? JSON.parse(tag.dataset.routes ?? '{}')[route] ?? [] : [];
  for (const file of chunks) {
    const link = Object.assign(document.createElement('link'), { rel: 'preload', as: 'fetch', href: new URL(file, tag.dataset.loader ?? location.href).href });
    link.crossOrigin = 'anonymous';
    document.head.append(link);
  }
} catch {
  // Only a head start: the panel fetches its chunks itself.
}
const bindings = await import(tag.dataset.js);
// Before the module starts: the chunk loader reaches the main module's
// exports through the glue (its `initSync`).
window.wasmBindings = bindings;
const wasm = await bindings.default({ module_or_path: tag.dataset.wasm });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));

if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('service worker not registered:', e));
}
