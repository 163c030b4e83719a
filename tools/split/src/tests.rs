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

/// What any grouping must keep: every module in one group at most, never two
/// split points' own modules together, and every split point still getting
/// every module it needed (through its group), each group once, its own last.
fn check_grouping(p: &Plan, groups: &BTreeMap<String, BTreeSet<String>>) -> Plan {
    let mut seen = BTreeSet::new();
    for (g, members) in groups {
        assert!(members.len() >= 2, "{g}: a group of one is no group");
        for m in members {
            assert!(seen.insert(m.clone()), "{m} in two groups");
            assert!(p.files().contains(m), "{g}: {m} is not a module of the plan");
        }
        let own: Vec<_> = members.iter().filter(|m| m.starts_with("split_")).collect();
        assert!(own.len() <= 1, "{g}: two split points' own modules {own:?}");
        if let Some(own) = own.first() {
            assert_eq!(g, *own, "a group with a split point's own module is named after it");
        } else {
            assert!(g.starts_with("chunk_"), "{g}");
        }
    }
    let grouped = p.grouped(groups);
    assert_eq!(grouped.splits.keys().collect::<Vec<_>>(), p.splits.keys().collect::<Vec<_>>());
    for (split, files) in &p.splits {
        let got = &grouped.splits[split];
        let unique: BTreeSet<_> = got.iter().collect();
        assert_eq!(unique.len(), got.len(), "{split}: a group twice: {got:?}");
        for f in files {
            let g = groups.iter().find(|(_, m)| m.contains(f)).map_or(f, |(g, _)| g);
            assert!(got.contains(g), "{split} needs {f}, in {g}, not in {got:?}");
        }
        // Nothing it does not need: each group it downloads holds a module it needed.
        for g in got {
            let members = groups.get(g).cloned().unwrap_or_else(|| BTreeSet::from([g.clone()]));
            assert!(members.iter().any(|m| files.contains(m)), "{split}: {g} holds nothing it needs");
        }
        let own = format!("split_{split}.wasm");
        if files.contains(&own) {
            assert_eq!(got.last(), Some(&own), "{split}: its own module last: {got:?}");
        }
    }
    grouped
}

fn sizes(p: &Plan, f: impl Fn(&str) -> u64) -> BTreeMap<String, u64> {
    p.files().into_iter().map(|m| (m.clone(), f(&m))).collect()
}

#[test]
fn grouping_merges_what_most_split_points_share_and_keeps_a_large_pair_chunk_apart() {
    // Five panels: two small chunks every panel needs (one common module),
    // a large chunk two of them share (kept apart: three panels would pay 40
    // KB for one request fewer), a small one two others share (merged: its
    // bytes cost the rest less than the requests it saves).
    let p = plan(&[
        ("topic_a", &["chunk_1", "chunk_2", "chunk_3", "split_topic_a"]),
        ("topic_b", &["chunk_1", "chunk_2", "chunk_3", "chunk_4", "split_topic_b"]),
        ("topic_c", &["chunk_1", "chunk_2", "chunk_4", "split_topic_c"]),
        ("topic_d", &["chunk_1", "chunk_2", "split_topic_d"]),
        ("topic_e", &["chunk_1", "chunk_2", "split_topic_e"]),
    ]);
    let size = sizes(&p, |m| match m {
        "chunk_1.wasm" | "chunk_2.wasm" => 3000,
        "chunk_3.wasm" => 40_000,
        "chunk_4.wasm" => 500,
        _ => 20_000,
    });
    let groups = group_chunks(&p, &size, |_| 1, MODULE_COST).unwrap();
    let grouped = check_grouping(&p, &groups);
    // chunk_4 too: three panels pay 500 B, two save a request (4 KB) each.
    assert_eq!(groups["chunk_common.wasm"], ["chunk_1.wasm", "chunk_2.wasm", "chunk_4.wasm"].map(String::from).into());
    assert!(!groups.values().any(|m| m.contains("chunk_3.wasm")), "the large pair chunk stays alone: {groups:?}");
    assert_eq!(grouped.splits["topic_a"], ["chunk_common.wasm", "chunk_3.wasm", "split_topic_a.wasm"]);
    assert_eq!(grouped.splits["topic_d"], ["chunk_common.wasm", "split_topic_d.wasm"]);
    // Free requests: everything a split point needs goes into as few modules as the split modules allow.
    let free = group_chunks(&p, &size, |_| 1, 1 << 40).unwrap();
    let grouped = check_grouping(&p, &free);
    assert!(grouped.splits.values().all(|v| v.len() <= 3), "{grouped:?}");
    // Costly bytes, free requests: nothing merges.
    assert!(group_chunks(&p, &size, |_| 1, 0).unwrap().is_empty());
}

#[test]
fn a_chunk_only_one_panel_and_the_pages_share_joins_the_panel_where_it_weighs_more() {
    // A bank chunk (the panel's practice questions) that the panel, the
    // lecture and practice pages need: with the panel weighed twice its
    // request goes, and the pages pay for it.
    let p = plan(&[
        ("topic_systolic", &["chunk_1", "chunk_7", "split_topic_systolic"]),
        ("page_lecture", &["chunk_1", "chunk_7", "split_page_lecture"]),
        ("page_practice", &["chunk_1", "chunk_7", "split_page_practice"]),
    ]);
    let size = sizes(&p, |m| if m == "chunk_7.wasm" { 2000 } else { 9000 });
    let groups = group_chunks(&p, &size, split_weight, MODULE_COST).unwrap();
    let grouped = check_grouping(&p, &groups);
    assert_eq!(grouped.splits["topic_systolic"].len(), 2, "{groups:?}");
    assert_eq!(grouped.splits["topic_systolic"][0], "chunk_common.wasm");
}

#[test]
fn the_training_lens_costs_llm_nothing() {
    // `#/llm`'s training lens needs the panel's chunks and its own: weighed
    // 0, its own chunk is never merged into a group `#/llm` downloads.
    let p = plan(&[
        ("topic_llm", &["chunk_1", "chunk_2", "split_topic_llm"]),
        ("llm_train", &["chunk_1", "chunk_2", "chunk_3", "split_llm_train"]),
        ("topic_flash", &["chunk_1", "split_topic_flash"]),
    ]);
    let size = sizes(&p, |m| if m == "chunk_3.wasm" { 30_000 } else { 9000 });
    let groups = group_chunks(&p, &size, split_weight, MODULE_COST).unwrap();
    let grouped = check_grouping(&p, &groups);
    assert_eq!(split_weight("llm_train"), 0);
    let llm = &grouped.splits["topic_llm"];
    let train = &grouped.splits["llm_train"];
    assert!(train.iter().any(|f| !llm.contains(f)), "{groups:?}");
    for f in llm {
        let members = groups.get(f).cloned().unwrap_or_else(|| [f.clone()].into());
        assert!(!members.contains("chunk_3.wasm"), "{f}: {members:?}");
    }
}

#[test]
fn any_grouping_keeps_every_split_point_s_modules_and_is_deterministic() {
    // Pseudo-random plans (a fixed LCG): 12 split points, 40 chunks.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    for round in 0..20 {
        let points: Vec<String> = (0..12).map(|i| format!("topic_{i}")).collect();
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for c in 0..40 {
            let users = 2 + next(10) as usize;
            for _ in 0..users {
                let p = &points[next(12) as usize];
                let list = map.entry(p.clone()).or_default();
                if !list.contains(&format!("chunk_{c}")) {
                    list.push(format!("chunk_{c}"));
                }
            }
        }
        for p in &points {
            map.entry(p.clone()).or_default().push(format!("split_{p}"));
        }
        let p = Plan::from_prefetch(&map);
        let size = sizes(&p, |m| 200 + (m.len() as u64 * 7919 + round * 104_729) % 30_000);
        let weight = |s: &str| if s.ends_with('3') { 2 } else { 1 };
        let groups = group_chunks(&p, &size, weight, MODULE_COST).unwrap();
        check_grouping(&p, &groups);
        assert_eq!(groups, group_chunks(&p, &size, weight, MODULE_COST).unwrap(), "deterministic");
        // It never costs more than no grouping (the greedy only takes merges that pay).
        let cost = |plan: &Plan, size: &BTreeMap<String, u64>| -> u64 {
            plan.splits.iter().map(|(s, fs)| weight(s) * fs.iter().map(|f| size[f] + MODULE_COST).sum::<u64>()).sum()
        };
        let mut merged_size = size.clone();
        for (g, members) in &groups {
            let total = members.iter().map(|m| size[m]).sum();
            merged_size.insert(g.clone(), total);
        }
        assert!(cost(&p.grouped(&groups), &merged_size) <= cost(&p, &size), "round {round}");
    }
}

#[test]
fn the_grouping_weighs_a_module_without_its_custom_sections() {
    let mut m = chunk(17, 3);
    let plain = m.clone();
    // A name section (custom, id 0) after the import section.
    let mut body = Vec::new();
    wasm_name("name", &mut body);
    body.extend([1u8; 300]);
    m.push(0);
    uleb(body.len() as u64, &mut m);
    m.extend(body);
    assert_eq!(without_custom_sections(&m).unwrap(), plain);
    assert_eq!(without_custom_sections(&plain).unwrap(), plain);
    assert!(without_custom_sections(&m[..m.len() - 1]).is_err(), "a truncated section");
}

#[test]
fn stylesheets_lose_comments_and_idle_whitespace_only() {
    let css = "/* a comment */\n:root {\n  --font: system-ui, \"Noto  Sans\";\n}\n.a :hover , .b>c { width: calc(100% - 2rem); content: '/* not a comment */'; }\n@media (min-width: 900px) {\n  .x { margin: 0 auto; }\n}\n";
    assert_eq!(
        minify_css(css),
        ":root{--font:system-ui,\"Noto  Sans\";}.a :hover,.b>c{width:calc(100% - 2rem);content:'/* not a comment */';}@media (min-width:900px){.x{margin:0 auto;}}"
    );
    // A comment with no space beside it keeps its tokens apart, and joins none.
    assert_eq!(minify_css(".a/**/.b { x: 1 }\n.c /* c */ .d{}"), ".a/**/.b{x:1}.c .d{}");
    // Escapes, an unquoted url(), and a no-break space (not CSS whitespace) stay.
    assert_eq!(
        minify_css(".a\\ b{background:url(a b.png)} .x{content:\"\u{a0}\"}"),
        ".a\\ b{background:url(a b.png)}.x{content:\"\u{a0}\"}"
    );
    assert_eq!(minify_css("p{margin:0\u{3000}auto}"), "p{margin:0\u{3000}auto}");
    // The base64 of a SHA-384 as SRI writes it (checked against Node's crypto for "abc").
    assert_eq!(sri_sha384(b"abc"), "sha384-ywB1P0WjXou1oD1pmsZQBycsMqsO3tFjGotgWkP/W+2AhgcroefMI1i67KE0yCWn");
}

#[test]
fn the_service_worker_caches_the_measured_tables_a_page_fetches() {
    let all: Vec<String> = ["h200.json", "h200-coalescing.csv", "h200-train.json", "h200-figures.csv"]
        .map(|f| format!("assets/measured/{f}"))
        .into();
    // With the list: those, in its order; blank lines ignored.
    let got = measured_precache(Some("h200-coalescing.csv\n\nh200-figures.csv\n"), &all).unwrap();
    assert_eq!(got, ["assets/measured/h200-coalescing.csv", "assets/measured/h200-figures.csv"]);
    // A listed file the build lacks is an error, not a page that fails offline.
    let err = measured_precache(Some("h200-missing.csv\n"), &all).unwrap_err();
    assert!(err.contains("h200-missing.csv") && err.contains(MEASURED_LIST), "{err}");
    // Without a list (a build without the app's hook): the whole folder.
    assert_eq!(measured_precache(None, &all).unwrap(), all);
}
