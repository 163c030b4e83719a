use super::*;

const TSV: &str = "# route\tmodule\tsplit point\nflash\tflash\ttopic_flash\ngpu-vs-tpu\tgpu_vs_tpu\ttopic_gpu_vs_tpu\nyour-machine\tmachine\ttopic_machine\n";

fn plan(entries: &[(&str, &[&str])]) -> Plan {
    let map: HashMap<String, Vec<String>> =
        entries.iter().map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect())).collect();
    Plan::from_prefetch(&map)
}

fn hashed(plan: &Plan) -> BTreeMap<String, String> {
    plan.files().into_iter().map(|f| (f.clone(), f.replace(".wasm", "-0123456789abcdef.wasm"))).collect()
}

#[test]
fn split_points_map_to_routes_through_the_registry_list() {
    let topics = read_topics(TSV).unwrap();
    let p = plan(&[
        ("topic_flash", &["chunk_1", "chunk_2", "split_topic_flash"]),
        ("topic_gpu_vs_tpu", &["chunk_2", "split_topic_gpu_vs_tpu"]),
        // A route that its split point's name does not spell: the list decides.
        ("topic_machine", &["split_topic_machine"]),
        ("page_deck", &["chunk_1", "split_page_deck"]),
        ("gif_export", &["split_gif_export"]),
    ]);
    let (chunks, splits) = split_indices(&p, &hashed(&p)).unwrap();
    let routes = routes(&splits, &topics).unwrap();
    let files = |route: &str| routes[route].iter().map(|&i| chunks[i].as_str()).collect::<Vec<_>>();
    assert_eq!(routes.keys().collect::<Vec<_>>(), ["deck", "flash", "gpu-vs-tpu", "your-machine"]);
    assert_eq!(
        files("flash"),
        ["chunk_1-0123456789abcdef.wasm", "chunk_2-0123456789abcdef.wasm", "split_topic_flash-0123456789abcdef.wasm"]
    );
    assert_eq!(files("your-machine"), ["split_topic_machine-0123456789abcdef.wasm"]);
    assert_eq!(files("deck"), ["chunk_1-0123456789abcdef.wasm", "split_page_deck-0123456789abcdef.wasm"]);
    // Every topic has its route, with its own module last.
    for (split, route) in &topics {
        let own = chunks[*routes[route].last().unwrap()].clone();
        assert!(own.starts_with(&format!("split_{split}-")), "{route}: {own}");
    }
    // A split point that is neither a topic nor a page has no route, but keeps its chunks.
    assert_eq!(splits["gif_export"].len(), 1);
}

#[test]
fn a_topic_without_a_split_point_and_an_unlisted_topic_split_point_are_refused() {
    let topics = read_topics(TSV).unwrap();
    let p = plan(&[("topic_flash", &["split_topic_flash"]), ("topic_gpu_vs_tpu", &["split_topic_gpu_vs_tpu"])]);
    let (_, splits) = split_indices(&p, &hashed(&p)).unwrap();
    let err = routes(&splits, &topics).unwrap_err();
    assert!(err.contains("topic_machine"), "{err}");
    let p = plan(&[
        ("topic_flash", &["split_topic_flash"]),
        ("topic_gpu_vs_tpu", &["split_topic_gpu_vs_tpu"]),
        ("topic_machine", &["split_topic_machine"]),
        ("topic_stale", &["split_topic_stale"]),
    ]);
    let (_, splits) = split_indices(&p, &hashed(&p)).unwrap();
    let err = routes(&splits, &topics).unwrap_err();
    assert!(err.contains("topic_stale") && err.contains("warpscope-topics.tsv"), "{err}");
    assert!(read_topics("flash\ttopic_flash\n").is_err(), "two columns");
    assert!(read_topics("a\tm\ttopic_a\nb\tm\ttopic_a\n").is_err(), "one split point twice");
}

#[test]
fn merging_small_chunks_puts_the_merged_module_first_where_any_was_needed() {
    let p = plan(&[("a", &["chunk_1", "chunk_2", "split_a"]), ("b", &["chunk_3", "split_b"]), ("c", &["split_c"])]);
    let gone: BTreeSet<String> = ["chunk_1.wasm", "chunk_3.wasm"].map(String::from).into();
    let m = p.merged(&gone, "chunk_small.wasm");
    assert_eq!(m.splits["a"], ["chunk_small.wasm", "chunk_2.wasm", "split_a.wasm"]);
    assert_eq!(m.splits["b"], ["chunk_small.wasm", "split_b.wasm"]);
    assert_eq!(m.splits["c"], ["split_c.wasm"]);
    assert!(!m.files().contains("chunk_1.wasm"));
}

/// A chunk-like module importing a memory, a table and a global from `from`.
fn chunk(memory_min: u8, table_min: u8) -> Vec<u8> {
    let mut body = vec![3];
    for (field, kind, desc) in [
        ("memory", 2u8, vec![0, memory_min]),
        ("__indirect_function_table", 1, vec![0x70, 0, table_min]),
        ("__wasm_split_shared0", 3, vec![0x7F, 1]),
    ] {
        wasm_name("__wasm_split", &mut body);
        wasm_name(field, &mut body);
        body.push(kind);
        body.extend(desc);
    }
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    m.push(2);
    uleb(body.len() as u64, &mut m);
    m.extend(body);
    m
}

#[test]
fn the_hub_imports_what_the_chunks_import_at_the_largest_minimum() {
    let (module, hub) = hub_module(&[chunk(17, 3), chunk(20, 2)], "__wasm_split_hub").unwrap();
    assert_eq!(module, "__wasm_split");
    let imports = imports_of(&hub).unwrap();
    assert!(imports.iter().all(|i| i.module == "__wasm_split_hub"));
    let by = |f: &str| imports.iter().find(|i| i.field == f).unwrap().clone();
    assert_eq!(limits_min(2, &by("memory").desc), 20);
    assert_eq!(limits_min(1, &by("__indirect_function_table").desc), 3);
    assert_eq!(by("__wasm_split_shared0").desc, [0x7F, 1]);
}

#[test]
fn the_pins_agree_with_cargo_trunk_and_npm() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let read = |p: &str| std::fs::read_to_string(format!("{root}/{p}")).unwrap();
    let pins = read_pins(&read(".ci/pins.env"));
    let lock = read("Cargo.lock");
    let locked = |name: &str| {
        let at = lock
            .find(&format!("name = \"{name}\"\nversion = \""))
            .unwrap_or_else(|| panic!("{name} not in Cargo.lock"));
        lock[at..].lines().nth(1).unwrap().trim_start_matches("version = \"").trim_end_matches('"').to_string()
    };
    assert_eq!(pins["WASM_BINDGEN_VERSION"], locked("wasm-bindgen"));
    assert_eq!(pins["WASM_SPLIT_VERSION"], locked("wasm_split_cli_support"));
    assert!(read("tools/split/Cargo.toml")
        .contains(&format!("wasm_split_cli_support = \"={}\"", pins["WASM_SPLIT_VERSION"])));
    let trunk = read("Trunk.toml");
    assert!(trunk.contains(&format!("wasm_bindgen = \"{}\"", pins["WASM_BINDGEN_VERSION"])));
    assert!(trunk.contains(&format!("wasm_opt = \"version_{}\"", pins["BINARYEN_VERSION"])));
    assert!(read("package.json").contains(&format!("\"binaryen\": \"{}.0.0\"", pins["BINARYEN_VERSION"])));
    assert!(read("Cargo.toml").contains(&format!("wasm-bindgen = \"={}\"", pins["WASM_BINDGEN_VERSION"])));
    assert!(pins["TRUNK_VERSION"].starts_with("0.21."));
}

#[test]
fn a_debug_chunk_s_canary_is_found_and_given_the_splitter_s_value() {
    assert!(canaries(&chunk(17, 3)).unwrap().is_empty(), "a release chunk imports no canary");
    let mut body = vec![1];
    wasm_name("__wasm_split", &mut body);
    wasm_name("__canary_5eed", &mut body);
    body.extend([3, 0x7F, 0]);
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    m.push(2);
    uleb(body.len() as u64, &mut m);
    m.extend(body);
    assert_eq!(canaries(&m).unwrap(), BTreeMap::from([("__canary_5eed".to_string(), !0xdead)]));
    assert_eq!(CANARY as u32, 0xffff2152, "~0xdead as a 32-bit integer");
}
