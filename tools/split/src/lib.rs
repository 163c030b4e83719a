//! The split build's plan as data (issue 33): what `wasm_split_cli_support`
//! returns (each split point's modules), mapped to the app's routes through
//! the registry's list (`warpscope-topics.tsv`, build.rs), and written as one
//! JSON manifest that `web/loader.js`, `web/boot.js` and `web/sw.js` read.
//! The build itself (splitting, merging, wasm-bindgen, wasm-opt, names) is
//! `main.rs`; this is the part a test can check without a wasm build.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

/// What rustc emits for wasm32 with SIMD on (.cargo/config.toml), as
/// binaryen names the features: the one list `wasm-merge` gets as
/// `--enable-<feature>` flags and `web/wasm-opt-all.mjs` as its arguments.
pub const WASM_FEATURES: &[&str] = &[
    "simd",
    "bulk-memory",
    "bulk-memory-opt",
    "call-indirect-overlong",
    "mutable-globals",
    "sign-ext",
    "nontrapping-float-to-int",
    "multivalue",
    "reference-types",
];

/// Binaryen's command-line flags for [`WASM_FEATURES`].
pub fn binaryen_flags() -> Vec<String> {
    WASM_FEATURES.iter().map(|f| format!("--enable-{f}")).collect()
}

/// `.ci/pins.env`: `KEY=value` lines, `#` comments.
pub fn read_pins(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        .collect()
}

/// `warpscope-topics.tsv` (build.rs: route, module, split point per line):
/// each topic's split point and its route.
pub fn read_topics(tsv: &str) -> Result<BTreeMap<String, String>, String> {
    let mut topics = BTreeMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [route, _module, split] = cols[..] else {
            return Err(format!("warpscope-topics.tsv: not route, module, split point: {line:?}"));
        };
        if topics.insert(split.to_string(), route.to_string()).is_some() {
            return Err(format!("warpscope-topics.tsv: split point {split} twice"));
        }
    }
    Ok(topics)
}

/// Each split point's modules (file names, the chunks it needs before its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub splits: BTreeMap<String, Vec<String>>,
}

impl Plan {
    /// From the splitter's `prefetch_map` (split point → file stems).
    pub fn from_prefetch(map: &HashMap<String, Vec<String>>) -> Plan {
        let splits = map
            .iter()
            .map(|(name, stems)| (name.clone(), stems.iter().map(|s| format!("{s}.wasm")).collect()))
            .collect();
        Plan { splits }
    }

    /// Every module any split point needs.
    pub fn files(&self) -> BTreeSet<String> {
        self.splits.values().flatten().cloned().collect()
    }

    /// The plan once the modules are grouped (`groups`: a group's file →
    /// its members, every module in one group at most; a module in none
    /// stays as it is): each split point needs the groups of its modules,
    /// each once, in their first need's order, its own module's group
    /// (`split_<point>.wasm`, [`group_chunks`]) last.
    pub fn grouped(&self, groups: &BTreeMap<String, BTreeSet<String>>) -> Plan {
        let of: HashMap<&str, &str> =
            groups.iter().flat_map(|(g, members)| members.iter().map(move |m| (m.as_str(), g.as_str()))).collect();
        let splits = self
            .splits
            .iter()
            .map(|(name, files)| {
                let own = format!("split_{name}.wasm");
                let mut out: Vec<String> = Vec::new();
                for f in files {
                    let g = of.get(f.as_str()).copied().unwrap_or(f.as_str()).to_string();
                    if !out.contains(&g) {
                        out.push(g);
                    }
                }
                if let Some(at) = out.iter().position(|g| *g == own) {
                    let g = out.remove(at);
                    out.push(g);
                }
                (name.clone(), out)
            })
            .collect();
        Plan { splits }
    }
}

/// What one module costs a page besides its bytes, in gzip bytes (of the
/// modules as the splitter writes them, without custom sections): one more
/// request and one more instantiation. Measured on the release build of
/// 2026-12-03 (`--report`; tests/bench-firstpaint.mjs, Lighthouse's mobile
/// profile: 150 ms, 1.6 Mbit/s = 200 KB/s, CPU 4×):
/// - gzip's and the module's own framing: a route's modules gzipped one by
///   one weigh 5–6 % more than the same bytes gzipped as one file
///   (`#/systolic`'s 26: 174.6 KB against 164.0 KB; `#/llm`'s 30: 230.7
///   against 219.4); merged by wasm-merge and optimised, the report's groups
///   weigh 216.6 KB against their 253.7 KB of parts (-15 %: shared types,
///   section headers, one Huffman table);
/// - HTTP/2's headers, ~250 B up and down a request;
/// - the instantiations: the bench summed the chunks' at 1.23 s for
///   `#/systolic`'s 26 modules, 2.15 s for `#/llm`'s 30, 0.58 s for
///   `#/flash`'s 23 (20–70 ms each; 4–14 KB at 200 KB/s).
///
/// At 4 KB (this build): `#/systolic` 26 modules (174.6 KB gzip) → 15
/// (163.6 KB), `#/flash` 23 → 13, `#/online-softmax` 16 → 8, `#/llm` 30 →
/// 18, every entry point fewer bytes too (the merges' gzip gain is larger
/// than what a panel gets that it doesn't need), the sum over all 23 split
/// points 2585 → 2517 KB. A simulation on the optimised parts' sizes
/// (which made 10 modules of `#/systolic`'s at 4 KB) gave 12 at 2 KB and 7
/// at 8 KB, but at 8 KB the parts' sum over all split points grows 36 %
/// (2585 → 3512 KB; 20 % at 4 KB), more than the merges' gzip gain takes
/// back: the common group then carries code a third of the panels don't run.
pub const MODULE_COST: u64 = 4096;

/// How much a split point's download counts in [`group_chunks`]: the four
/// panels a shared link opens most (issue 33's entry points: `#/systolic`,
/// `#/flash`, `#/online-softmax`, `#/llm`) twice, every other once (the
/// start page loads no chunk).
pub fn split_weight(split: &str) -> u64 {
    match split {
        "topic_systolic" | "topic_flash" | "topic_online_softmax" | "topic_llm" => 2,
        // The training lens is fetched by `#/llm`'s panel, after its own
        // chunks: what it shares with them is in already.
        "llm_train" => 0,
        _ => 1,
    }
}

/// Groups a plan's modules so that the split points download fewer modules
/// for few more bytes: every module is in exactly one group, a group is
/// merged into one module (main.rs), and a split point downloads every group
/// holding a module it needs. The cost of a grouping is, summed over the
/// split points, the split point's weight ([`split_weight`]) times the
/// groups it downloads, each at its members' gzip size (`size`) plus
/// `module_cost` ([`MODULE_COST`]). Deterministic local search, from one
/// group per module, alternating two steps until neither lowers the cost:
/// - merge: the two groups whose merge lowers the cost most are merged,
///   until no merge does;
/// - move: the one module whose move to another group (or to a group of its
///   own) lowers the cost most is moved, until no move does (the merges
///   alone stop early: a 100-byte chunk that two panels share is merged
///   with another two panels' before the common group has formed, and
///   would stay there).
///
/// Ties go to the first in name order. Two split points' own modules are
/// never in one group (each route keeps its own module, which the e2e tests
/// and the service worker name, and is never moved), so a group holds at
/// most one; it is named after it (`split_<point>.wasm`); a group of chunks
/// only, needed by more than half the split points, `chunk_common.wasm`
/// (the one needed by most), any other `chunk_g<smallest member's
/// number>.wasm`. Returns only the groups of two modules or more.
pub fn group_chunks(
    plan: &Plan,
    size: &BTreeMap<String, u64>,
    weight: impl Fn(&str) -> u64,
    module_cost: u64,
) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let points: Vec<&String> = plan.splits.keys().collect();
    if points.len() > 128 {
        return Err(format!("{} split points: the grouping counts 128 at most", points.len()));
    }
    let weights: Vec<u64> = points.iter().map(|p| weight(p)).collect();
    let w =
        |mask: u128| -> i128 { (0..points.len()).filter(|i| mask >> i & 1 == 1).map(|i| i128::from(weights[i])).sum() };
    let files: Vec<String> = plan.files().into_iter().collect();
    let mut mask = Vec::new();
    let mut bytes = Vec::new();
    for f in &files {
        mask.push(
            points.iter().enumerate().filter(|(_, p)| plan.splits[**p].contains(f)).fold(0u128, |m, (i, _)| m | 1 << i),
        );
        bytes.push(i128::from(*size.get(f).ok_or_else(|| format!("no size for {f}"))?));
    }
    let own: Vec<bool> = files.iter().map(|f| f.starts_with("split_")).collect();
    let r = i128::from(module_cost);
    #[derive(Clone)]
    struct Group {
        members: Vec<usize>,
        users: u128,
        size: i128,
        own: bool,
    }
    let cost = |users: u128, size: i128| -> i128 { w(users) * (size + r) };
    let of = |members: Vec<usize>| Group {
        users: members.iter().fold(0, |u, &m| u | mask[m]),
        size: members.iter().map(|&m| bytes[m]).sum(),
        own: members.iter().any(|&m| own[m]),
        members,
    };
    let delta = |a: &Group, b: &Group| -> Option<i128> {
        if (a.own && b.own) || a.users & b.users == 0 {
            return None;
        }
        Some(cost(a.users | b.users, a.size + b.size) - cost(a.users, a.size) - cost(b.users, b.size))
    };
    let mut groups: Vec<Group> = (0..files.len()).map(|m| of(vec![m])).collect();
    for _round in 0..1000 {
        // Merge: the merges' effects kept per pair (only the merged group's change).
        let mut changed = false;
        let n = groups.len();
        let mut deltas: Vec<Vec<Option<i128>>> = (0..n)
            .map(|i| (0..n).map(|j| if j > i { delta(&groups[i], &groups[j]) } else { None }).collect())
            .collect();
        loop {
            let mut best: Option<(i128, usize, usize)> = None;
            for (i, row) in deltas.iter().enumerate() {
                for (j, d) in row.iter().enumerate().skip(i + 1) {
                    if let Some(d) = *d {
                        if d < 0 && best.is_none_or(|(b, _, _)| d < b) {
                            best = Some((d, i, j));
                        }
                    }
                }
            }
            let Some((_, i, j)) = best else { break };
            changed = true;
            let b = groups.remove(j);
            deltas.remove(j);
            deltas.iter_mut().for_each(|row| {
                row.remove(j);
            });
            let mut members = std::mem::take(&mut groups[i].members);
            members.extend(b.members);
            members.sort_unstable();
            groups[i] = of(members);
            for k in 0..groups.len() {
                let d = if k == i { None } else { delta(&groups[i.min(k)], &groups[i.max(k)]) };
                deltas[i.min(k)][i.max(k)] = d;
            }
        }
        // Move: one module at a time, the best move first.
        loop {
            let mut best: Option<(i128, usize, usize, Option<usize>)> = None;
            for (a, ga) in groups.iter().enumerate() {
                let base = cost(ga.users, ga.size);
                for (k, &m) in ga.members.iter().enumerate() {
                    if own[m] {
                        continue;
                    }
                    let rest: Vec<usize> =
                        ga.members.iter().enumerate().filter(|&(x, _)| x != k).map(|(_, &y)| y).collect();
                    let rest = of(rest);
                    let left = if rest.members.is_empty() { 0 } else { cost(rest.users, rest.size) } - base;
                    let alone = (ga.members.len() > 1).then(|| (left + cost(mask[m], bytes[m]), None));
                    let moves = groups.iter().enumerate().filter(|&(b, gb)| b != a && gb.users & mask[m] != 0).map(
                        |(b, gb)| {
                            let d = left + cost(gb.users | mask[m], gb.size + bytes[m]) - cost(gb.users, gb.size);
                            (d, Some(b))
                        },
                    );
                    for (d, to) in alone.into_iter().chain(moves) {
                        if d < 0 && best.is_none_or(|(b, ..)| d < b) {
                            best = Some((d, a, m, to));
                        }
                    }
                }
            }
            let Some((_, a, m, to)) = best else { break };
            changed = true;
            let rest: Vec<usize> = groups[a].members.iter().copied().filter(|&x| x != m).collect();
            match to {
                Some(b) => {
                    let mut members = groups[b].members.clone();
                    members.push(m);
                    members.sort_unstable();
                    groups[b] = of(members);
                }
                None => groups.push(of(vec![m])),
            }
            if rest.is_empty() {
                groups.remove(a);
            } else {
                groups[a] = of(rest);
            }
        }
        if !changed {
            break;
        }
    }
    let mut named: Vec<Group> = groups.into_iter().filter(|g| g.members.len() > 1).collect();
    // The common group: the chunks-only group needed by most split points.
    named.sort_by_key(|g| (std::cmp::Reverse(g.users.count_ones()), g.members[0]));
    let mut out = BTreeMap::new();
    for g in named {
        let members: BTreeSet<String> = g.members.iter().map(|&m| files[m].clone()).collect();
        let name = match members.iter().find(|m| m.starts_with("split_")) {
            Some(own) => own.clone(),
            None if 2 * g.users.count_ones() as usize > points.len() && !out.contains_key("chunk_common.wasm") => {
                "chunk_common.wasm".to_string()
            }
            None => {
                let n = members
                    .iter()
                    .filter_map(|m| m.strip_prefix("chunk_")?.strip_suffix(".wasm")?.parse::<u64>().ok())
                    .min();
                match n {
                    Some(n) => format!("chunk_g{n}.wasm"),
                    None => format!("chunk_g{}", members.first().map_or("", |m| m.trim_start_matches("chunk_"))),
                }
            }
        };
        if out.insert(name.clone(), members).is_some() {
            return Err(format!("two groups named {name}"));
        }
    }
    Ok(out)
}

/// The manifest (`warpscope-manifest-<hash>.json`): every file name is the
/// hashed one in the site's folder; indices point into `chunks`.
#[derive(Debug, Serialize)]
pub struct Manifest {
    /// wasm-bindgen's glue (boot.js imports it).
    pub glue: String,
    /// The main module.
    pub wasm: String,
    /// `web/loader.js` (the glue imports it; it reads this file).
    pub loader: String,
    /// Every chunk of the build.
    pub chunks: Vec<String>,
    /// Each split point's chunks, in load order (the loader's table).
    pub splits: BTreeMap<String, Vec<usize>>,
    /// Each route's chunks (a deep link preloads them: boot.js).
    pub routes: BTreeMap<String, Vec<usize>>,
    /// The routes that are topics (each has its own texts file).
    pub topics: Vec<String>,
    /// Each language's texts files (the service worker caches them all).
    pub texts: BTreeMap<String, Vec<String>>,
    /// Values the chunks import that the main module does not export: in a
    /// debug build, the splitter's canary (`__canary_<fingerprint>`, which
    /// its own loader sets to `~0xdead`), so that a chunk of another build
    /// fails to link. Empty in a release build.
    pub globals: BTreeMap<String, i32>,
    /// Everything the service worker caches on a first visit besides the
    /// page's own references: the glue, the modules, the texts, the measured
    /// tables (`assets/measured/*`, the H200 overlays offline).
    pub precache: Vec<String>,
}

/// Each split point's (or route's) chunks, as indices into the chunk list.
pub type Indices = BTreeMap<String, Vec<usize>>;

/// Every chunk's hashed name (sorted; `names`: module → hashed name) and each
/// split point's chunks as indices into that list.
pub fn split_indices(plan: &Plan, names: &BTreeMap<String, String>) -> Result<(Vec<String>, Indices), String> {
    let chunks: Vec<String> = names.values().cloned().collect::<BTreeSet<_>>().into_iter().collect();
    let position: HashMap<&str, usize> = chunks.iter().enumerate().map(|(i, f)| (f.as_str(), i)).collect();
    let mut splits = BTreeMap::new();
    for (name, files) in &plan.splits {
        let ix = files
            .iter()
            .map(|f| {
                names.get(f).map(|n| position[n.as_str()]).ok_or_else(|| format!("split point {name}: no module {f}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        splits.insert(name.clone(), ix);
    }
    Ok((chunks, splits))
}

/// Each route's chunks: a topic's route from the registry's list (`topics`:
/// split point → route), a page's (`page_<route>`, ui/app/shell) from its
/// split point. Every topic must have a split point in the module, and every
/// topic split point (`topic_*`) must be in the list.
pub fn routes(
    splits: &BTreeMap<String, Vec<usize>>,
    topics: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Vec<usize>>, String> {
    let missing: Vec<&str> = topics.keys().filter(|s| !splits.contains_key(*s)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(format!("topics without a chunk (no split point {} in the module)", missing.join(", ")));
    }
    let unlisted: Vec<&str> =
        splits.keys().filter(|s| s.starts_with("topic_") && !topics.contains_key(*s)).map(String::as_str).collect();
    if !unlisted.is_empty() {
        return Err(format!(
            "split points {} are not in build.rs's list (a stale warpscope-topics.tsv?)",
            unlisted.join(", ")
        ));
    }
    let mut routes = BTreeMap::new();
    for (name, ix) in splits {
        let route = match topics.get(name) {
            Some(route) => route.as_str(),
            None => match name.strip_prefix("page_") {
                Some(page) => page,
                None => continue,
            },
        };
        if routes.insert(route.to_string(), ix.clone()).is_some() {
            return Err(format!("route {route} from two split points"));
        }
    }
    Ok(routes)
}

/// The measured tables the service worker caches on a first visit: those in
/// `list` (`warpscope strings`'s `warpscope-measured.txt`, one file name of
/// `assets/measured/` a line: the ones a page fetches), each of which must
/// be among `all` (the folder's files, as `assets/measured/<name>`); without
/// a list, all of them.
pub fn measured_precache(list: Option<&str>, all: &[String]) -> Result<Vec<String>, String> {
    let Some(list) = list else { return Ok(all.to_vec()) };
    let mut out = Vec::new();
    for name in list.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let path = format!("assets/measured/{name}");
        if !all.contains(&path) {
            return Err(format!("{MEASURED_LIST}: {path} is not in the build"));
        }
        out.push(path);
    }
    Ok(out)
}

/// `warpscope strings`'s list of the measured tables a page fetches.
pub const MEASURED_LIST: &str = "warpscope-measured.txt";

/// An unsigned LEB128 at `data[i]`: (value, index after it).
fn leb(data: &[u8], mut i: usize) -> Result<(u64, usize), String> {
    let (mut value, mut shift) = (0u64, 0);
    loop {
        let byte = *data.get(i).ok_or("a LEB128 past the end")?;
        i += 1;
        value |= u64::from(byte & 0x7F) << shift;
        shift += 7;
        if byte < 0x80 {
            return Ok((value, i));
        }
        if shift > 63 {
            return Err("a LEB128 too long".into());
        }
    }
}

fn uleb(mut n: u64, out: &mut Vec<u8>) {
    loop {
        let byte = (n & 0x7F) as u8;
        n >>= 7;
        out.push(byte | if n != 0 { 0x80 } else { 0 });
        if n == 0 {
            return;
        }
    }
}

fn wasm_name(s: &str, out: &mut Vec<u8>) {
    uleb(s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

/// One import: module, field, kind (0 function, 1 table, 2 memory, 3
/// global) and its type's bytes as they stand in the module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub module: String,
    pub field: String,
    pub kind: u8,
    pub desc: Vec<u8>,
}

/// A module's imports (its import section read byte by byte).
pub fn imports_of(data: &[u8]) -> Result<Vec<Import>, String> {
    if data.get(..8) != Some(b"\0asm\x01\0\0\0") {
        return Err("not a wasm module".into());
    }
    let mut i = 8;
    while i < data.len() {
        let section = data[i];
        let (size, body) = leb(data, i + 1)?;
        let end = body + size as usize;
        if section == 2 {
            let (count, mut j) = leb(data, body)?;
            let mut out = Vec::new();
            for _ in 0..count {
                let mut name = || -> Result<String, String> {
                    let (n, k) = leb(data, j)?;
                    let s = data.get(k..k + n as usize).ok_or("a name past the end")?;
                    j = k + n as usize;
                    String::from_utf8(s.to_vec()).map_err(|e| e.to_string())
                };
                let module = name()?;
                let field = name()?;
                let kind = data[j];
                j += 1;
                let start = j;
                let limits = |mut j: usize| -> Result<usize, String> {
                    let (flags, k) = leb(data, j)?;
                    j = leb(data, k)?.1;
                    if flags & 1 != 0 {
                        j = leb(data, j)?.1;
                    }
                    Ok(j)
                };
                j = match kind {
                    0 => leb(data, j)?.1,
                    1 => limits(j + 1)?,
                    2 => limits(j)?,
                    3 => j + 2,
                    _ => return Err(format!("an import of kind {kind}")),
                };
                out.push(Import { module, field, kind, desc: data[start..j].to_vec() });
            }
            return Ok(out);
        }
        i = end;
    }
    Ok(vec![])
}

/// A module without its custom sections (names, producers, DWARF): what
/// the grouping weighs, as the release build's wasm-opt strips them (the
/// splitter's modules carry their name section, which outweighs a small
/// chunk's code).
pub fn without_custom_sections(data: &[u8]) -> Result<Vec<u8>, String> {
    if data.get(..8) != Some(b"\0asm\x01\0\0\0") {
        return Err("not a wasm module".into());
    }
    let mut out = data[..8].to_vec();
    let mut i = 8;
    while i < data.len() {
        let (size, body) = leb(data, i + 1)?;
        let end = body + size as usize;
        if end > data.len() {
            return Err("a section past the end".into());
        }
        if data[i] != 0 {
            out.extend_from_slice(&data[i..end]);
        }
        i = end;
    }
    Ok(out)
}

/// The splitter's canary value (its loader's `~0xdead`).
pub const CANARY: i32 = !0xdead;

/// The canaries a chunk imports (debug builds: `__canary_<fingerprint>`).
pub fn canaries(chunk: &[u8]) -> Result<BTreeMap<String, i32>, String> {
    Ok(imports_of(chunk)?
        .into_iter()
        .filter(|i| i.kind == 3 && i.field.starts_with("__canary_"))
        .map(|i| (i.field, CANARY))
        .collect())
}

/// A table's or memory's minimum size.
fn limits_min(kind: u8, desc: &[u8]) -> u64 {
    leb(desc, if kind == 1 { 2 } else { 1 }).map(|(v, _)| v).unwrap_or(0)
}

/// The module that lets a merge keep one set of imports: it imports what
/// the chunks import from the main module (memory, table, globals) from
/// `hub`, and exports it under the chunks' names; merged under the name the
/// chunks import from, every chunk's imports resolve to its exports. Tables
/// and memories take the largest minimum any chunk asks. Returns the module
/// the chunks import from and the hub module's bytes.
pub fn hub_module(chunks: &[Vec<u8>], hub: &str) -> Result<(String, Vec<u8>), String> {
    let mut wanted: BTreeMap<String, Import> = BTreeMap::new();
    for chunk in chunks {
        for imp in imports_of(chunk)? {
            if imp.kind == 0 {
                return Err(format!(
                    "a chunk imports a function ({}.{}): chunks of this splitter import none",
                    imp.module, imp.field
                ));
            }
            match wanted.get(&imp.field) {
                Some(old) if old.kind != imp.kind => return Err(format!("{}: imported as two kinds", imp.field)),
                Some(old)
                    if !(matches!(imp.kind, 1 | 2)
                        && limits_min(imp.kind, &imp.desc) > limits_min(old.kind, &old.desc)) => {}
                _ => {
                    wanted.insert(imp.field.clone(), imp);
                }
            }
        }
    }
    let modules: BTreeSet<&str> = wanted.values().map(|i| i.module.as_str()).collect();
    let [module] = modules.into_iter().collect::<Vec<_>>()[..] else {
        return Err("the chunks import from more than one module (or none)".into());
    };
    let (mut imports, mut exports) = (Vec::new(), Vec::new());
    uleb(wanted.len() as u64, &mut imports);
    uleb(wanted.len() as u64, &mut exports);
    let mut index: BTreeMap<u8, u64> = BTreeMap::new();
    for (field, imp) in &wanted {
        wasm_name(hub, &mut imports);
        wasm_name(field, &mut imports);
        imports.push(imp.kind);
        imports.extend_from_slice(&imp.desc);
        wasm_name(field, &mut exports);
        exports.push(imp.kind);
        let n = index.entry(imp.kind).or_insert(0);
        uleb(*n, &mut exports);
        *n += 1;
    }
    let mut out = b"\0asm\x01\0\0\0".to_vec();
    for (section, body) in [(2u8, imports), (7, exports)] {
        out.push(section);
        uleb(body.len() as u64, &mut out);
        out.extend(body);
    }
    Ok((module.to_string(), out))
}

#[cfg(test)]
mod tests;

/// A stylesheet without its comments and the whitespace that means nothing
/// (a release build: `style/*.css` keeps its comments, which were a third of
/// the stylesheet's gzip bytes on every first visit). Strings, escapes and
/// an unquoted `url(…)` are kept as they are; a run of CSS whitespace (and
/// comments) becomes one space, and none where it touches `{`, `}`, `;` or
/// `,`, follows a `:` or begins or ends the sheet. Spaces that separate
/// (`a b`, `calc(a + b)`, `.a :hover`) stay; a comment between two tokens
/// with no space beside it (`.a/**/.b`) stays `/**/`, which keeps them apart
/// without joining them.
pub fn minify_css(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    // Whitespace seen since the last token; a comment seen with none beside it.
    let (mut space, mut comment) = (false, false);
    let tight = |c: char| matches!(c, '{' | '}' | ';' | ',');
    let after = |c: char| tight(c) || c == ':';
    let white = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0C');
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut prev = ' ';
            for d in chars.by_ref() {
                if prev == '*' && d == '/' {
                    break;
                }
                prev = d;
            }
            comment = !space;
            continue;
        }
        if white(c) {
            space = true;
            comment = false;
            continue;
        }
        // A separator before this token, if one is needed.
        if !out.is_empty() && !out.ends_with(after) && !tight(c) {
            if space {
                out.push(' ');
            } else if comment {
                out.push_str("/**/");
            }
        }
        (space, comment) = (false, false);
        out.push(c);
        match c {
            '"' | '\'' => {
                while let Some(d) = chars.next() {
                    out.push(d);
                    if d == '\\' {
                        if let Some(e) = chars.next() {
                            out.push(e);
                        }
                    } else if d == c {
                        break;
                    }
                }
            }
            '\\' => {
                if let Some(e) = chars.next() {
                    out.push(e);
                }
            }
            // An unquoted url(…): its contents as they are.
            '(' if out.ends_with("url(") && !matches!(chars.peek(), Some('"' | '\'')) => {
                for d in chars.by_ref() {
                    out.push(d);
                    if d == ')' {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The SRI value of `data` (`sha384-` and its base64), as trunk writes it.
pub fn sri_sha384(data: &[u8]) -> String {
    use sha2::{Digest, Sha384};
    let digest = Sha384::digest(data);
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::from("sha384-");
    for chunk in digest.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// index.html with each stylesheet trunk linked (`<link rel="stylesheet"
/// href="{base}<name>.css" integrity="…">`) minified in `dir` by
/// [`minify_css`] and its integrity value made the new file's.
pub fn minify_stylesheets(html: &str, dir: &std::path::Path) -> Result<String, String> {
    let mut out = html.to_string();
    let mut from = 0;
    let mut sheets = 0;
    while let Some(at) = out[from..].find("<link rel=\"stylesheet\" href=\"").map(|i| from + i) {
        let close = at + out[at..].find('>').ok_or("an unclosed link tag")? + 1;
        let link = out[at..close].to_string();
        let href = link.split("href=\"").nth(1).and_then(|h| h.split('"').next()).ok_or("a link without href")?;
        let name = href.rsplit('/').next().unwrap_or(href);
        let path = dir.join(name);
        let css = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let small = minify_css(&css);
        std::fs::write(&path, &small).map_err(|e| format!("{}: {e}", path.display()))?;
        let new = match link.split("integrity=\"").nth(1).and_then(|i| i.split('"').next()) {
            Some(old) => link.replace(old, &sri_sha384(small.as_bytes())),
            None => link,
        };
        out.replace_range(at..close, &new);
        from = at + new.len();
        sheets += 1;
    }
    if sheets == 0 {
        return Err("index.html links no stylesheet as trunk writes it (<link rel=\"stylesheet\" href=\"…\">)".into());
    }
    Ok(out)
}
