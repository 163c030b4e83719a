//! The split build (issue 24, 33), run by trunk after each build (Trunk.toml's
//! post_build hook): the page loads only what it shows.
//!
//! Takes cargo's linked module (built with `--emit-relocs`, .cargo/config.toml) and
//! 1. cuts it at its `#[wasm_split]` points with `wasm_split_cli_support`
//!    (a main module, one module per split point, shared chunks; the plan
//!    comes back as data), and groups its ~360 modules into ~65 (lib.rs
//!    `group_chunks`: fewer modules per route for few more bytes; a common
//!    group most panels need, each route's own module kept), merging each
//!    group with npm binaryen's wasm-merge through a hub module (lib.rs);
//! 2. runs wasm-bindgen on the main module with `--keep-lld-exports` (the
//!    chunks import its memory, table and globals);
//! 3. in release builds, `wasm-opt -Oz` on every module (web/wasm-opt-all.mjs)
//!    and terser on the glue;
//! 4. names every file by its content's hash, points the glue's loader import
//!    at `web/loader.js` (copied as `loader-<hash>.js`), writes the manifest
//!    (`warpscope-manifest-<hash>.json`, lib.rs `Manifest`) and puts the
//!    files, the manifest's name and preload links into trunk's index.html.
//!
//! ```text
//! cargo run -p warpscope-split              # in trunk's hook (TRUNK_STAGING_DIR, TRUNK_PROFILE)
//! cargo run -p warpscope-split -- --report  # also print each file's size (raw, gzip -9),
//!                                           # each module's routes and group, each route's download
//! ```
//!
//! (`WARPSCOPE_SPLIT_REPORT=1` in the environment does what `--report` does.)

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use sha2::{Digest, Sha256};
use warpscope_split::{
    binaryen_flags, canaries, group_chunks, hub_module, measured_precache, minify_stylesheets, read_pins, read_topics,
    routes, split_indices, split_weight, without_custom_sections, Manifest, Plan, MEASURED_LIST, MODULE_COST,
    WASM_FEATURES,
};

const NAME: &str = "warpscope";
/// The module the merged chunks import through (the loader supplies it).
const HUB: &str = "__wasm_split_hub";

type Result<T> = std::result::Result<T, String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

fn short_hash(data: &[u8]) -> String {
    Sha256::digest(data).iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn read(p: &Path) -> Result<Vec<u8>> {
    std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn write(p: &Path, data: impl AsRef<[u8]>) -> Result<()> {
    std::fs::write(p, data).map_err(|e| format!("{}: {e}", p.display()))
}

fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?}: {status}"))
    }
}

/// A tool from npm's node_modules/.bin, else from PATH.
fn npm_tool(root: &Path, name: &str) -> PathBuf {
    let local = root.join("node_modules/.bin").join(name);
    if local.exists() {
        local
    } else {
        PathBuf::from(name)
    }
}

/// The tools this build runs are the pinned ones (.ci/pins.env).
fn check_pins(root: &Path) -> Result<()> {
    let pins = read_pins(&String::from_utf8_lossy(&read(&root.join(".ci/pins.env"))?));
    let out = Command::new("wasm-bindgen").arg("--version").output().map_err(|e| format!("wasm-bindgen: {e}"))?;
    let version = String::from_utf8_lossy(&out.stdout);
    let want = &pins["WASM_BINDGEN_VERSION"];
    if version.split_whitespace().nth(1) != Some(want.as_str()) {
        return Err(format!("wasm-bindgen is {}, .ci/pins.env pins {want} (bash .ci/setup.sh)", version.trim()));
    }
    let binaryen = String::from_utf8_lossy(&read(&root.join("node_modules/binaryen/package.json"))?).into_owned();
    let want = format!("\"version\": \"{}.", pins["BINARYEN_VERSION"]);
    if !binaryen.contains(&want) {
        return Err(format!("node_modules/binaryen is not .ci/pins.env's {} (npm ci)", pins["BINARYEN_VERSION"]));
    }
    Ok(())
}

/// gzip -9 of `data` (the sizes the grouping weighs and the report prints).
fn gzip_len(data: &[u8]) -> Result<u64> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(data).map_err(|e| e.to_string())?;
    Ok(gz.finish().map_err(|e| e.to_string())?.len() as u64)
}

/// Merges `members` (files in `dir`) into `merged` with npm binaryen's
/// wasm-merge. A module only writes its functions into the shared table and
/// its data into the shared memory, at fixed places, so merged they do the
/// same; each member imports the main module's memory, table and globals,
/// which the hub module (lib.rs `hub_module`) imports once and re-exports.
fn merge_modules(root: &Path, dir: &Path, members: &BTreeSet<String>, merged: &str, debug: bool) -> Result<()> {
    let chunks = members.iter().map(|f| read(&dir.join(f))).collect::<Result<Vec<_>>>()?;
    let (module, hub) = hub_module(&chunks, HUB)?;
    let hub_path = dir.join("hub.wasm.tmp");
    let out_path = dir.join("merged.wasm.tmp");
    write(&hub_path, hub)?;
    let mut cmd = Command::new(npm_tool(root, "wasm-merge"));
    cmd.arg(&hub_path).arg(&module);
    for (i, f) in members.iter().enumerate() {
        cmd.arg(dir.join(f)).arg(format!("c{i}"));
    }
    cmd.arg("-o").arg(&out_path).args(binaryen_flags());
    if debug {
        cmd.arg("-g");
    }
    run(cmd.current_dir(root))?;
    for f in members {
        std::fs::remove_file(dir.join(f)).map_err(|e| e.to_string())?;
    }
    std::fs::remove_file(&hub_path).map_err(|e| e.to_string())?;
    std::fs::rename(&out_path, dir.join(merged)).map_err(|e| e.to_string())
}

/// Fewer, larger modules (issue 33): the splitter writes one chunk per set
/// of split points sharing code (~300, most under 2 KB); they and the split
/// points' own modules are grouped by lib.rs `group_chunks` (weighing each
/// module's gzip size against `MODULE_COST`), and each group of two or more
/// is merged into one module. Returns the new plan and the groups.
fn merge_groups(root: &Path, plan: Plan, dir: &Path, debug: bool) -> Result<(Plan, Groups)> {
    let mut size = BTreeMap::new();
    for f in plan.files() {
        size.insert(f.clone(), gzip_len(&without_custom_sections(&read(&dir.join(&f))?)?)?);
    }
    let groups = group_chunks(&plan, &size, split_weight, MODULE_COST)?;
    for (merged, members) in &groups {
        merge_modules(root, dir, members, merged, debug)?;
    }
    Ok((plan.grouped(&groups), groups))
}

type Groups = BTreeMap<String, BTreeSet<String>>;

/// npm's terser on a module (the glue, boot.js, the loader: their exports
/// keep their names).
fn terser(root: &Path, js: &str) -> Result<String> {
    terser_as(root, js, true)
}

/// npm's terser on `js`, a module or (`module` false: web/pre.js) a classic script.
fn terser_as(root: &Path, js: &str, module: bool) -> Result<String> {
    let bin = root.join("node_modules/terser/bin/terser");
    let mut args = vec![bin.as_os_str(), "--compress".as_ref(), "--mangle".as_ref()];
    if module {
        args.push("--module".as_ref());
    }
    let mut child = Command::new("node")
        .args(args)
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("terser: {e}"))?;
    child.stdin.take().unwrap().write_all(js.as_bytes()).map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("terser: {}", out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// Points the glue's imports of the splitter's loader (`import * as importN
/// from "./__wasm_split.js"`, one per split point) at the static loader's
/// default export (each split point's load function, web/loader.js).
fn point_glue_at_loader(glue: &str, loader: &str) -> Result<String> {
    const FROM: &str = " from \"./__wasm_split.js\"";
    let mut out = String::with_capacity(glue.len());
    let mut found = 0;
    for line in glue.split_inclusive('\n') {
        match line
            .strip_prefix("import * as ")
            .and_then(|rest| rest.trim_end().trim_end_matches(';').strip_suffix(FROM))
        {
            Some(name) if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                found += 1;
                out.push_str(&format!("import {name} from \"./{loader}\";\n"));
            }
            _ => out.push_str(line),
        }
    }
    if found == 0 || out.contains("./__wasm_split.js\"\n") || out.contains("from \"./__wasm_split.js") {
        return Err("the glue does not import the loader as `import * as importN from \"./__wasm_split.js\"`".into());
    }
    Ok(out)
}

/// The texts files the native binary wrote (Trunk.toml's hook, before this
/// tool): `strings.<lang>.json` and `strings.<lang>.<topic>.json`.
fn texts(staging: &Path) -> Result<BTreeMap<String, Vec<String>>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(staging).map_err(|e| e.to_string())? {
        let name = entry.map_err(|e| e.to_string())?.file_name().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix("strings.").and_then(|r| r.strip_suffix(".json")) {
            let lang = rest.split('.').next().unwrap_or_default().to_string();
            out.entry(lang).or_default().push(name);
        }
    }
    if out.is_empty() {
        return Err(format!("no strings.*.json in {} (the strings hook runs first)", staging.display()));
    }
    out.values_mut().for_each(|v| v.sort());
    Ok(out)
}

/// Every file under `dir`, relative to `base`, sorted.
fn files_under(base: &Path, dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(out) };
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            out.extend(files_under(base, &path)?);
        } else {
            out.push(path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
    out.sort();
    Ok(out)
}

/// index.html: the boot.js tag names the glue, the main module, the loader
/// and the manifest; trunk's preloads of its unsplit files go; every file a
/// route needs before its own chunks is preloaded with the page, in the mode
/// its fetch uses (module scripts; `fetch()`: cors, same-origin credentials).
fn patch_index(html: &str, m: &Manifest, manifest_name: &str) -> Result<String> {
    let start = html
        .find("<script type=\"module\" src=\"")
        .ok_or("index.html has no module script (Trunk.toml pattern_script)")?;
    let end = start + html[start..].find("</script>").ok_or("an unclosed script tag")? + "</script>".len();
    let tag = &html[start..end];
    if !tag.contains("boot.js\"") {
        return Err(format!("index.html's script is not boot.js: {tag}"));
    }
    let at = tag.find("data-js=\"").ok_or("no data-js on boot.js's tag")? + "data-js=\"".len();
    let base = &tag[at..at + tag[at..].find(NAME).ok_or("data-js names no glue")?];
    let new_tag = format!(
        "<script type=\"module\" src=\"{base}boot.js\" data-js=\"{base}{}\" data-wasm=\"{base}{}\" data-loader=\"{base}{}\" data-manifest=\"{base}{manifest_name}\"></script>",
        m.glue, m.wasm, m.loader
    );
    let mut out = format!("{}{new_tag}{}", &html[..start], &html[end..]);
    // Trunk's preloads (whole tags, wherever they stand) name its unsplit files.
    let mut from = 0;
    while let Some(at) = out[from..].find("<link rel=\"").map(|i| from + i) {
        let close = at + out[at..].find('>').ok_or("an unclosed link tag")? + 1;
        let link = &out[at..close];
        let preload = link.starts_with("<link rel=\"modulepreload\"") || link.starts_with("<link rel=\"preload\"");
        if preload && link.contains(&format!("href=\"{base}{NAME}-")) {
            out.replace_range(at..close, "");
            from = at;
        } else {
            from = close;
        }
    }
    let preloads = format!(
        "<link rel=\"modulepreload\" href=\"{base}{glue}\" />\n    <link rel=\"modulepreload\" href=\"{base}{loader}\" />\n    \
         <link rel=\"preload\" href=\"{base}{manifest_name}\" as=\"fetch\" type=\"application/json\" crossorigin=\"anonymous\" />\n    \
         <link rel=\"preload\" href=\"{base}{wasm}\" as=\"fetch\" type=\"application/wasm\" crossorigin=\"anonymous\" />\n    ",
        glue = m.glue,
        loader = m.loader,
        wasm = m.wasm
    );
    // Beside boot.js's tag: the preload scanner finds them with it.
    let at = out.find(&new_tag).ok_or("the new script tag is gone")?;
    out.insert_str(at, &preloads);
    Ok(out)
}

/// The report's tables (`--report`): every module the splitter wrote, its
/// gzip -9 size (optimised as the build's are, in release builds), the
/// routes needing it and the group it went to; each merged module against
/// the sum of its parts; each route's download before and after.
fn grouping_report(
    unmerged: &Plan,
    plan: &Plan,
    groups: &Groups,
    parts_dir: &Path,
    staging: &Path,
    names: &BTreeMap<String, String>,
    route_of: impl Fn(&str) -> String,
) -> Result<String> {
    use std::fmt::Write as _;
    let kb = |b: u64| format!("{:.1}", b as f64 / 1024.0);
    let mut part_gz = BTreeMap::new();
    for f in unmerged.files() {
        part_gz.insert(f.clone(), gzip_len(&read(&parts_dir.join(&f))?)?);
    }
    let mut out_gz = BTreeMap::new();
    for f in plan.files() {
        out_gz.insert(f.clone(), gzip_len(&read(&staging.join(&names[&f]))?)?);
    }
    let group_of = |f: &str| groups.iter().find(|(_, m)| m.contains(f)).map_or(f.to_string(), |(g, _)| g.clone());
    let mut s = String::new();
    let _ = writeln!(s, "\nmodule\tgzip KB\tgroup\troutes (split points) needing it");
    let mut rows: Vec<(usize, String)> = unmerged
        .files()
        .into_iter()
        .map(|f| (unmerged.splits.values().filter(|v| v.contains(&f)).count(), f))
        .collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| part_gz[&b.1].cmp(&part_gz[&a.1])).then_with(|| a.1.cmp(&b.1)));
    for (n, f) in &rows {
        let users: Vec<String> =
            unmerged.splits.iter().filter(|(_, v)| v.contains(f)).map(|(k, _)| route_of(k)).collect();
        let _ = writeln!(s, "{f}\t{}\t{}\t{n}: {}", kb(part_gz[f]), group_of(f), users.join(" "));
    }
    let _ = writeln!(s, "\ngroup\tmodules\tparts gzip KB (sum)\tmerged gzip KB");
    let (mut sum_parts, mut sum_merged) = (0, 0);
    for (g, members) in groups {
        let parts: u64 = members.iter().map(|m| part_gz[m]).sum();
        sum_parts += parts;
        sum_merged += out_gz[g];
        let _ = writeln!(s, "{g}\t{}\t{}\t{}", members.len(), kb(parts), kb(out_gz[g]));
    }
    let _ = writeln!(s, "all merged\t\t{}\t{}", kb(sum_parts), kb(sum_merged));
    let _ = writeln!(s, "\nroute (split point)\tmodules before\tgzip KB before\tmodules after\tgzip KB after");
    let (mut before, mut after) = (0, 0);
    for (split, files) in &unmerged.splits {
        let b: u64 = files.iter().map(|f| part_gz[f]).sum();
        let a: u64 = plan.splits[split].iter().map(|f| out_gz[f]).sum();
        before += b;
        after += a;
        let _ = writeln!(s, "{}\t{}\t{}\t{}\t{}", route_of(split), files.len(), kb(b), plan.splits[split].len(), kb(a));
    }
    let _ = writeln!(s, "all split points\t\t{}\t\t{}", kb(before), kb(after));
    Ok(s)
}

fn main() {
    if let Err(e) = build() {
        eprintln!("warpscope-split: {e}");
        std::process::exit(1);
    }
}

fn build() -> Result<()> {
    let root = root();
    let staging = PathBuf::from(
        std::env::var_os("TRUNK_STAGING_DIR")
            .ok_or("runs in trunk's post_build hook (TRUNK_STAGING_DIR is not set)")?,
    );
    let profile = std::env::var("TRUNK_PROFILE").unwrap_or_else(|_| "debug".into());
    let release = profile == "release";
    let report = std::env::args().any(|a| a == "--report")
        || std::env::var_os("WARPSCOPE_SPLIT_REPORT").is_some_and(|v| !v.is_empty());
    check_pins(&root)?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let linked = target.join("wasm32-unknown-unknown").join(&profile);
    let work = target.join("wasm-split").join(&profile);
    let _ = std::fs::remove_dir_all(&work);
    let (split_dir, bg_dir) = (work.join("split"), work.join("bindgen"));
    std::fs::create_dir_all(&bg_dir).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut times: Vec<(&str, f64)> = Vec::new();

    // 1. Split the linked module (it must still carry its relocations).
    let t = Instant::now();
    let input = read(&linked.join(format!("{NAME}.wasm")))?;
    let main_out = split_dir.join(format!("{NAME}.wasm"));
    let glue_path = format!("./{NAME}.js");
    let split = {
        let mut opts = wasm_split_cli_support::Options::new(&input);
        opts.output_dir = &split_dir;
        opts.main_out_path = &main_out;
        opts.main_module = &glue_path;
        wasm_split_cli_support::transform(opts).map_err(|e| format!("the splitter: {e:?}"))?
    };
    times.push(("split", t.elapsed().as_secs_f64()));
    // The splitter's own JS loader is not used: web/loader.js reads the manifest.
    let _ = std::fs::remove_file(split_dir.join("__wasm_split.js"));

    // 2. The JS glue of the main module; its exports stay for the chunks.
    let t = Instant::now();
    let mut cmd = Command::new("wasm-bindgen");
    cmd.arg(&main_out).arg("--out-dir").arg(&bg_dir).args([
        "--out-name",
        NAME,
        "--target",
        "web",
        "--no-typescript",
        "--keep-lld-exports",
    ]);
    if !release {
        cmd.args(["--debug", "--keep-debug"]);
    }
    run(&mut cmd)?;
    times.push(("wasm-bindgen", t.elapsed().as_secs_f64()));

    // 1b. Fewer, larger modules: the splitter's ~300 grouped and merged.
    let t = Instant::now();
    let plan = Plan::from_prefetch(&split.prefetch_map);
    for f in plan.files() {
        if !split.split_modules.iter().any(|p| p.file_name().is_some_and(|n| n.to_string_lossy() == f)) {
            return Err(format!("the splitter's plan names {f}, which it did not write"));
        }
    }
    let mut globals = BTreeMap::new();
    for f in plan.files() {
        globals.extend(canaries(&read(&split_dir.join(&f))?)?);
    }
    // The report compares the merged modules with their parts, both optimised.
    let parts_dir = work.join("parts");
    if report {
        std::fs::create_dir_all(&parts_dir).map_err(|e| e.to_string())?;
        for f in plan.files() {
            std::fs::copy(split_dir.join(&f), parts_dir.join(&f)).map_err(|e| format!("{f}: {e}"))?;
        }
    }
    let unmerged = plan.clone();
    let (plan, groups) = merge_groups(&root, plan, &split_dir, !release)?;
    times.push(("merge", t.elapsed().as_secs_f64()));
    let chunks: Vec<String> = plan.files().into_iter().collect();
    let main_wasm_path = bg_dir.join(format!("{NAME}_bg.wasm"));

    // 3. `wasm-opt -Oz` on every module: npm's binaryen loaded once for all
    // chunks (web/wasm-opt-all.mjs), the main module beside them.
    if release {
        let t = Instant::now();
        let features = format!("--features={}", WASM_FEATURES.join(","));
        let mut groups = vec![vec![main_wasm_path.clone()], chunks.iter().map(|c| split_dir.join(c)).collect()];
        if report {
            groups.push(unmerged.files().iter().map(|c| parts_dir.join(c)).collect());
        }
        let procs = groups
            .iter()
            .filter(|g| !g.is_empty())
            .map(|g| Command::new("node").arg("web/wasm-opt-all.mjs").arg(&features).args(g).current_dir(&root).spawn())
            .collect::<std::io::Result<Vec<_>>>()
            .map_err(|e| format!("wasm-opt: {e}"))?;
        for mut p in procs {
            if !p.wait().map_err(|e| e.to_string())?.success() {
                return Err("wasm-opt failed".into());
            }
        }
        times.push(("wasm-opt", t.elapsed().as_secs_f64()));
    }

    // 4. Content-hashed names.
    let mut names = BTreeMap::new();
    let mut bytes = BTreeMap::new();
    for c in &chunks {
        let data = read(&split_dir.join(c))?;
        names.insert(c.clone(), format!("{}-{}.wasm", c.trim_end_matches(".wasm"), short_hash(&data)));
        bytes.insert(c.clone(), data);
    }
    let mut loader_js = read(&root.join("web/loader.js"))?;
    if release {
        // The page's own scripts minified too (their comments are for us):
        // 4.8 → 2.2 KB gzipped on every page with the two below.
        loader_js = terser(&root, &String::from_utf8_lossy(&loader_js))?.into_bytes();
        for (name, module) in [("boot.js", true), ("pre.js", false)] {
            let path = staging.join(name);
            let js = String::from_utf8_lossy(&read(&path)?).into_owned();
            write(&path, terser_as(&root, &js, module)?.as_bytes())?;
        }
    }
    let loader = format!("loader-{}.js", short_hash(&loader_js));
    let mut glue = point_glue_at_loader(&String::from_utf8_lossy(&read(&bg_dir.join(format!("{NAME}.js")))?), &loader)?;
    if release {
        // Minified: 11.9 → 9.5 KB gzipped on every page.
        let t = Instant::now();
        glue = terser(&root, &glue)?;
        times.push(("terser", t.elapsed().as_secs_f64()));
    }
    let main_wasm = read(&main_wasm_path)?;
    let wasm = format!("{NAME}-{}_bg.wasm", short_hash(&main_wasm));
    let glue = glue.replace(&format!("{NAME}_bg.wasm"), &wasm);
    let glue_name = format!("{NAME}-{}.js", short_hash(glue.as_bytes()));

    // The manifest.
    let topics = read_topics(&String::from_utf8_lossy(&read(&linked.join("warpscope-topics.tsv"))?))?;
    let (chunk_names, splits) = split_indices(&plan, &names)?;
    let routes = routes(&splits, &topics)?;
    let texts = texts(&staging)?;
    // The measured tables a page fetches (the rest of the folder is
    // provenance and tables compiled into the app: 1.4 MB no page asks for).
    let list_path = staging.join(MEASURED_LIST);
    let list = std::fs::read_to_string(&list_path).ok();
    let measured = measured_precache(list.as_deref(), &files_under(&staging, &staging.join("assets/measured"))?)?;
    if list.is_some() {
        std::fs::remove_file(&list_path).map_err(|e| format!("{}: {e}", list_path.display()))?;
    }
    let mut precache = vec![glue_name.clone(), wasm.clone(), loader.clone()];
    precache.extend(chunk_names.iter().cloned());
    precache.extend(texts.values().flatten().cloned());
    precache.extend(measured);
    let manifest = Manifest {
        glue: glue_name.clone(),
        wasm: wasm.clone(),
        loader: loader.clone(),
        chunks: chunk_names,
        splits,
        routes,
        topics: topics.values().cloned().collect::<BTreeSet<_>>().into_iter().collect(),
        texts,
        globals,
        precache,
    };
    let json = serde_json::to_string(&manifest).map_err(|e| e.to_string())?;
    let manifest_name = format!("{NAME}-manifest-{}.json", short_hash(json.as_bytes()));

    // Into the staging folder, replacing trunk's unsplit files.
    for entry in std::fs::read_dir(&staging).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix(&format!("{NAME}-")) {
            let hex = rest.trim_end_matches(".js").trim_end_matches("_bg.wasm");
            if hex.len() < rest.len() && !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()) {
                std::fs::remove_file(&path).map_err(|e| e.to_string())?;
            }
        }
    }
    for c in &chunks {
        write(&staging.join(&names[c]), &bytes[c])?;
    }
    write(&staging.join(&loader), &loader_js)?;
    write(&staging.join(&glue_name), glue.as_bytes())?;
    write(&staging.join(&wasm), &main_wasm)?;
    write(&staging.join(&manifest_name), json.as_bytes())?;
    let index_path = staging.join("index.html");
    let mut index = patch_index(&String::from_utf8_lossy(&read(&index_path)?), &manifest, &manifest_name)?;
    if release {
        index = minify_stylesheets(&index, &staging)?;
    }
    write(&index_path, index)?;

    times.push(("total", started.elapsed().as_secs_f64()));
    let summary: Vec<String> = times.iter().map(|(k, v)| format!("{k} {v:.1} s")).collect();
    eprintln!("warpscope-split ({profile}): main + {} chunks; {}", chunks.len(), summary.join(", "));
    if report {
        let mut files = vec![wasm, glue_name, loader, manifest_name];
        files.extend(manifest.chunks.iter().cloned());
        for f in files {
            let data = read(&staging.join(&f))?;
            eprintln!("{f}\t{}\t{}", data.len(), gzip_len(&data)?);
        }
        let route_of = |split: &str| -> String {
            topics
                .get(split)
                .cloned()
                .or_else(|| split.strip_prefix("page_").map(String::from))
                .unwrap_or(format!("({split})"))
        };
        eprint!("{}", grouping_report(&unmerged, &plan, &groups, &parts_dir, &staging, &names, route_of)?);
    }
    Ok(())
}
