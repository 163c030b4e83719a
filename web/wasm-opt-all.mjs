// `wasm-opt -Oz` on every module of the split build in one process
// (web/split.py): npm's binaryen is JavaScript, and starting it once per
// module (~190 of them) costs minutes; loaded once, all take seconds.
//
//   node web/wasm-opt-all.mjs a.wasm b.wasm …   (each optimised in place)
import binaryen from 'binaryen';
import { readFileSync, writeFileSync } from 'node:fs';

// The features rustc 1.95 emits for wasm32-unknown-unknown, plus SIMD
// (.cargo/config.toml): what each module may contain, and all wasm-opt may use.
const F = binaryen.Features;
const features = F.SIMD128 | F.BulkMemory | (F.BulkMemoryOpt ?? 0) | (F.CallIndirectOverlong ?? 0) | F.SignExt | F.MutableGlobals | F.NontrappingFPToInt | F.ReferenceTypes | F.Multivalue;
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setDebugInfo(false);
for (const file of process.argv.slice(2)) {
  const mod = binaryen.readBinary(readFileSync(file));
  mod.setFeatures(features);
  mod.optimize();
  mod.runPasses(['strip-debug', 'strip-producers', 'strip-target-features']);
  writeFileSync(file, mod.emitBinary());
  mod.dispose();
}
