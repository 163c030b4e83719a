//! The build's fingerprint: a hash of every source file, compiled into the
//! binary as `WARPSCOPE_BUILD`. The text files the native binary writes carry
//! it and the wasm checks it, so a page never takes texts from another build
//! (a tab left open across a deploy, a cache holding one file of each).
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

fn main() {
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        file.to_string_lossy().replace('\\', "/").hash(&mut hasher);
        std::fs::read(file).expect("a source file is readable").hash(&mut hasher);
    }
    println!("cargo:rustc-env=WARPSCOPE_BUILD={:016x}", hasher.finish());
    write_topic_list();
    println!("cargo:rerun-if-changed=src");
}

/// `topics::ALL`, in the order of the `#[path = "<route>/mod.rs"] pub mod <name>;`
/// items of `src/topics/mod.rs`: the registry is those items, so adding a
/// topic is one folder and one item, and `cargo fmt` still reads every file.
fn write_topic_list() {
    let registry = std::fs::read_to_string("src/topics/mod.rs").expect("src/topics/mod.rs is readable");
    // (folder, module) of each item; the folder is the route (`topics/tests.rs`
    // checks that it is the topic's `META.id` and the module its snake case).
    let mut items = Vec::new();
    let mut lines = registry.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if let Some(folder) = line.strip_prefix("#[path = \"").and_then(|s| s.strip_suffix("/mod.rs\"]")) {
            let item = lines.next().unwrap_or_default();
            let name = item.strip_prefix("pub mod ").and_then(|s| s.strip_suffix(';'));
            items.push((
                folder,
                name.unwrap_or_else(|| panic!("a topic's #[path] is followed by `pub mod <name>;`, not {item:?}")),
            ));
        }
    }
    assert!(!items.is_empty(), "src/topics/mod.rs declares no topic");
    let modules: Vec<&str> = items.iter().map(|&(_, m)| m).collect();
    let list = |f: &dyn Fn(&str) -> String| modules.iter().map(|m| f(m)).collect::<Vec<_>>().join(", ");
    // Each topic's view is a split point (issue 24): `#[wasm_split(<split point>)]`
    // puts the code only it reaches (its hooks, drawing, charts) into its own
    // chunk, which `tools/split` cuts out of the linked module; the shell
    // loads it when the route is first shown (`ui::panel::LazyPanel`).
    let loaders: String = items
        .iter()
        .map(|&(id, m)| {
            let split = split_point(id);
            format!(
                "    #[wasm_split_helpers::wasm_split({split}, fallible)]\n    \
                 fn {m}_view() -> Result<(PanelView, &'static Topic), SplitLoaderError> {{\n        \
                 Ok((super::{m}::view::VIEW, &super::{m}::TOPIC))\n    }}\n    \
                 pub fn {m}() -> ViewFuture {{\n        Box::pin({m}_view())\n    }}\n"
            )
        })
        .collect();
    let code = format!(
        "/// Every topic, in lecture order (written by build.rs from the `pub mod` items).\n\
         pub static ALL: &[&Topic] = &[{}];\n\
         /// Every topic's meta, in the order of [`ALL`]: what the start page and the\n\
         /// shell read, without reaching the rest of a topic (its practice bank and\n\
         /// lecture rows, which the split build leaves in the chunks that use them).\n\
         pub static METAS: &[&crate::topic::TopicMeta] = &[{}];\n\
         /// Each registry item as build.rs read it, in the order of [`ALL`]:\n\
         /// (folder, module, split point of its view).\n\
         pub static ITEMS: &[(&str, &str, &str)] = &[{}];\n\
         /// Each topic's static snapshot hook (its `mod.rs`'s `snapshot`), in the\n\
         /// order of [`ALL`]: what the build writes for its route (`prerender::snap`).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\n\
         pub static SNAPSHOTS: &[crate::topic::snapshot::SnapshotFn] = &[{}];\n\
         /// Each topic's panel loader, in the order of [`ALL`]: its folder's `view::VIEW`,\n\
         /// in a chunk of its own fetched on first use.\n\
         #[cfg(target_arch = \"wasm32\")]\n\
         pub static VIEWS: &[crate::ui::kit::panel::LoadView] = &[{}];\n\
         #[cfg(target_arch = \"wasm32\")]\n\
         mod lazy_views {{\n    \
         use crate::topic::Topic;\n    \
         use crate::ui::kit::panel::{{PanelView, ViewFuture}};\n    \
         use wasm_split_helpers::SplitLoaderError;\n{}}}\n",
        list(&|m| format!("&{m}::TOPIC")),
        list(&|m| format!("{m}::TOPIC.meta")),
        items.iter().map(|&(id, m)| format!("({id:?}, {m:?}, {:?})", split_point(id))).collect::<Vec<_>>().join(", "),
        list(&|m| format!("{m}::snapshot")),
        list(&|m| format!("lazy_views::{m}")),
        loaders
    );
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out_dir.join("topics_all.rs"), code).expect("OUT_DIR is writable");
    // The same list for `tools/split`, which names each topic chunk's route
    // from it (no spelling recovered from a split point's name): beside the
    // linked module, `<target>/<triple>/<profile>/warpscope-topics.tsv` (OUT_DIR
    // is `<that>/build/warpscope-<hash>/out`).
    let tsv: String = items.iter().map(|&(id, m)| format!("{id}\t{m}\t{}\n", split_point(id))).collect();
    let artifacts = out_dir.ancestors().nth(3).expect("OUT_DIR is <profile>/build/<crate>-<hash>/out");
    std::fs::write(artifacts.join("warpscope-topics.tsv"), format!("# route\tmodule\tsplit point\n{tsv}"))
        .expect("the profile's folder is writable");
}

/// The one rule that names a topic's split point from its route: `topic_`
/// and the route with `-` as `_` (a split point is a Rust identifier). Its
/// chunk is `split_<split point>-<hash>.wasm`; `tools/split` reads the route
/// back from `warpscope-topics.tsv`, never from this name.
fn split_point(id: &str) -> String {
    format!("topic_{}", id.replace('-', "_"))
}
