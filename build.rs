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
    let mut modules = Vec::new();
    let mut lines = registry.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line.starts_with("#[path = \"") && line.ends_with("/mod.rs\"]") {
            let item = lines.next().unwrap_or_default();
            let name = item.strip_prefix("pub mod ").and_then(|s| s.strip_suffix(';'));
            modules.push(
                name.unwrap_or_else(|| panic!("a topic's #[path] is followed by `pub mod <name>;`, not {item:?}")),
            );
        }
    }
    assert!(!modules.is_empty(), "src/topics/mod.rs declares no topic");
    let list = |f: &dyn Fn(&str) -> String| modules.iter().map(|m| f(m)).collect::<Vec<_>>().join(", ");
    // Each topic's view is a split point (issue 24): `#[wasm_split(topic_<name>)]`
    // puts the code only it reaches (its hooks, drawing, charts) into its own
    // chunk, which `web/split.py` cuts out of the linked module; the shell
    // loads it when the route is first shown (`ui::panel::LazyPanel`).
    let loaders: String = modules
        .iter()
        .map(|m| {
            format!(
                "    #[wasm_split_helpers::wasm_split(topic_{m}, fallible)]\n    \
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
        list(&|m| format!("lazy_views::{m}")),
        loaders
    );
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("topics_all.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
