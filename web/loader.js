// The split build's loader (issue 24, 33), a static file: tools/split copies
// it as `loader-<hash>.js` and points the glue's imports of the splitter's
// loader at its default export. It reads the build's manifest
// (`warpscope-manifest-<hash>.json`, named on boot.js's tag, written by
// tools/split): every chunk, and each split point's chunks. The main module
// calls `__wasm_split_load_<split point>(callback, data)`; that fetches and
// instantiates the split point's chunks (each once; a failed one is fetched
// again on the next try) and then calls back with whether it worked.
const tag = document.querySelector('script[data-manifest]');
const manifestUrl = new URL(tag.dataset.manifest, document.baseURI);

let manifestLoad;
/** The manifest (its successes only are kept: a failed fetch is tried again). */
export function manifest() {
  if (manifestLoad === undefined) {
    const p = (manifestLoad = fetch(manifestUrl).then((r) => {
      if (!r.ok) throw new Error(`${manifestUrl}: ${r.status}`);
      return r.json();
    }));
    p.catch(() => { if (manifestLoad === p) manifestLoad = undefined; });
  }
  return manifestLoad;
}
/** A file the manifest names, as a URL (the manifest's folder is the site's). */
export const fileUrl = (file) => new URL(file, manifestUrl).href;

// What every chunk imports: the main module's exports (memory, table,
// globals), reached through the glue's `initSync` (boot.js hands the glue
// over), and in a debug build the splitter's canary (the manifest's
// `globals`); merged chunks import through tools/split's hub, the others directly.
let shared;
function imports(m) {
  if (shared === undefined) {
    const from = { ...globalThis.wasmBindings.initSync(undefined, undefined), ...m.globals };
    shared = { __wasm_split: from, __wasm_split_hub: from };
  }
  return shared;
}
const instances = [];
function instance(m, i) {
  let p = instances[i];
  if (p === undefined) {
    const src = fetch(fileUrl(m.chunks[i]));
    p = instances[i] = WebAssembly.instantiateStreaming(src, imports(m));
    // Successes only are kept: a module that failed is fetched again.
    p.catch(() => { if (instances[i] === p) instances[i] = undefined; });
  }
  return p;
}
const load = (name) => async (callbackIndex, callbackData) => {
  let success;
  try {
    const m = await manifest();
    const needs = m.splits[name];
    if (needs === undefined) throw new Error(`split point ${name} is not in the manifest`);
    await Promise.all(needs.map((i) => instance(m, i)));
    success = true;
  } catch (e) {
    console.error(e);
    success = false;
  } finally {
    globalThis.wasmBindings.initSync(undefined, undefined).__indirect_function_table.get(callbackIndex)(callbackData, success);
  }
};
// The main module's import object for the loader: `__wasm_split_load_<name>`
// for every split point (the names the wasm asks for; the manifest says
// which chunks each needs when it is called).
const PREFIX = '__wasm_split_load_';
const loaders = new Map();
export default new Proxy({}, {
  get(_, key) {
    if (typeof key !== 'string' || !key.startsWith(PREFIX)) return undefined;
    if (!loaders.has(key)) loaders.set(key, load(key.slice(PREFIX.length)));
    return loaders.get(key);
  },
});
