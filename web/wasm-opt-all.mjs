// `wasm-opt -Oz` on every module of the split build in one process
// (tools/split): npm's binaryen is JavaScript, and starting it once per
// module (~80 of them) costs minutes; loaded once, all take seconds.
//
//   node web/wasm-opt-all.mjs --features=simd,bulk-memory,… a.wasm b.wasm …   (each optimised in place)
//
// The features are binaryen's names for what rustc emits (tools/split's
// WASM_FEATURES, the one list; wasm-merge gets the same as --enable-<name>).
import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const names = (args.find((a) => a.startsWith('--features='))?.slice('--features='.length) ?? '').split(',').filter(Boolean);
if (names.length === 0) throw new Error('wasm-opt-all: no --features= (tools/split passes them)');
// binaryen.Features by the command-line name (`bulk-memory` → BulkMemory), two spelled otherwise.
const ALIASES = { simd: 'simd128', nontrappingfloattoint: 'nontrappingfptoint' };
const byKey = new Map(Object.entries(binaryen.Features).map(([k, v]) => [k.toLowerCase(), v]));
let features = 0;
for (const name of names) {
  const key = name.replace(/-/g, '').toLowerCase();
  const flag = byKey.get(ALIASES[key] ?? key);
  if (flag === undefined) throw new Error(`wasm-opt-all: binaryen has no feature ${name}`);
  features |= flag;
}
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setDebugInfo(false);
for (const file of args.filter((a) => !a.startsWith('--'))) {
  const mod = binaryen.readBinary(readFileSync(file));
  mod.setFeatures(features);
  mod.optimize();
  mod.runPasses(['strip-debug', 'strip-producers', 'strip-target-features']);
  writeFileSync(file, mod.emitBinary());
  mod.dispose();
}
