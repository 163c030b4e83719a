// Starts the app without any inline script, so that the Content-Security-
// Policy in index.html can forbid inline script entirely: trunk writes the
// hashed names of the wasm-bindgen module and the wasm file onto this
// script's tag (Trunk.toml `pattern_script`). Then registers the service
// worker that lets the app run offline after a first visit.
const tag = document.querySelector('script[data-wasm]');
const bindings = await import(tag.dataset.js);
const wasm = await bindings.default({ module_or_path: tag.dataset.wasm });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));

if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('service worker not registered:', e));
}
