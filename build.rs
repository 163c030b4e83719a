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
    println!("cargo:rerun-if-changed=src");
}
