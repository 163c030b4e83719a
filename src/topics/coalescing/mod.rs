//! `#/coalescing`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use super::*;
use crate::params::{ParamSpec, Value, Values};
use crate::sim::coalescing::{self, Pattern};

#[cfg(target_arch = "wasm32")]
mod view;

pub static COALESCING_PARAMS: [ParamSpec; 7] = [
    ParamSpec::choice("dtype", crate::sim::hw::ALL_DTYPES, "fp32"),
    ParamSpec::choice("pattern", &["stride", "row", "column", "random"], "stride"),
    ParamSpec::int("stride", 1, 1024, 1).log(),
    ParamSpec::int("offset", 0, 4096, 0),
    ParamSpec::int("rowlen", 1, 65536, 1024).log(),
    ParamSpec::choice("section", &["32", "64", "128"], "128"),
    ParamSpec::int("seed", 0, u32::MAX as i64, 1),
];

pub static COALESCING: TopicMeta = TopicMeta {
    id: "coalescing",
    sections: &["6.5"],
    demo: "02 · 3",
    part: Part::Fast,
    params: &COALESCING_PARAMS,
    metrics: &["transactions", "useful-fraction", "bytes-moved"],
    position_max: None,
    bounds: None,
};

pub fn coalescing_params(v: &Values) -> coalescing::Params {
    coalescing::Params {
        elem_bytes: coalescing::dtype_bytes(v.choice("dtype")),
        pattern: coalescing::Pattern::from_code(v.choice("pattern")).unwrap_or(coalescing::Pattern::Stride),
        stride: v.int("stride") as u64,
        offset: v.int("offset") as u64,
        rowlen: v.int("rowlen") as u64,
        section: v.choice("section").parse().unwrap_or(128),
        seed: v.int("seed") as u64,
    }
}

/// Does the control of `param` matter for this access pattern? (The stride
/// only for strided reads, the row length for row and column reads, the seed
/// for random ones; the rest always.)
pub fn shown(pattern: Pattern, param: &str) -> bool {
    match param {
        "stride" => pattern == Pattern::Stride,
        "rowlen" => matches!(pattern, Pattern::Row | Pattern::Column),
        "seed" => pattern == Pattern::Random,
        _ => true,
    }
}

/// The lecture's cases (notes §6.5; fp32, 128-byte sections, aligned): label
/// key (also the `data-preset` id), pattern and stride.
pub const LECTURE_CASES: [(&str, &str, i64); 4] = [
    ("coalescing.preset.x-t", "stride", 1),
    ("coalescing.preset.x-2t", "stride", 2),
    ("coalescing.preset.x-32t", "stride", 32),
    ("coalescing.preset.random", "random", 1),
];

/// The values one lecture case sets.
pub fn lecture_case(pattern: &'static str, stride: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("dtype", Value::Choice("fp32")),
        ("pattern", Value::Choice(pattern)),
        ("stride", Value::Int(stride)),
        ("offset", Value::Int(0)),
        ("section", Value::Choice("128")),
    ]
}

/// The registry entry.
pub static TOPIC: Topic = Topic {
    meta: &COALESCING,
    strings: STRINGS,
    #[cfg(target_arch = "wasm32")]
    view: || yew::html! { <view::CoalescingPanel /> },
};

/// This topic's texts: (key, English, 中文).
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = &[
    ("topic.coalescing.title", "Memory coalescing", "合并访存"),
    ("topic.coalescing.summary", "DRAM is read in aligned bursts: a warp whose 32 addresses fall in one burst section costs one transaction; scattered addresses cost up to 32.", "DRAM 按对齐的突发段读取：一个 warp 的 32 个地址落在同一段里只需一次事务；地址分散时最多要 32 次。"),
    ("param.pattern", "Access pattern", "访问模式"),
    ("param.stride", "Stride (elements)", "步长（元素）"),
    ("param.stride.doc", "Lane t reads x[offset + t × stride]", "第 t 个 lane 读 x[offset + t × stride]"),
    ("param.offset", "Offset (elements)", "偏移（元素）"),
    ("param.offset.doc", "Start of the access; not a multiple of the section means misaligned", "访问起点；不是段大小的整数倍就是未对齐"),
    ("param.rowlen", "Row length (elements)", "行长（元素）"),
    ("param.rowlen.doc", "Row length of the row-major matrix for row / column reads", "按行存储矩阵的行长（用于按行 / 按列读取）"),
    ("choice.pattern.stride", "x[t × stride]", "x[t × stride]"),
    ("choice.pattern.row", "Along a row", "沿一行"),
    ("choice.pattern.column", "Down a column", "沿一列"),
    ("choice.pattern.random", "Random", "随机"),
    ("coalescing.lanes", "The 32 lanes of one warp", "一个 warp 的 32 个 lane"),
    ("coalescing.lanes.short", "lanes", "lane"),
    ("coalescing.sections", "Burst sections touched (one transaction each)", "被访问的突发段（每段一次事务）"),
    ("coalescing.skipped", "⋯ {n} sections not touched ⋯", "⋯ {n} 个未访问的段 ⋯"),
    ("coalescing.explain", "DRAM reads a whole burst section at a time (the row is copied to the sense amplifiers first), so the memory system serves a warp's 32 loads with one transaction per distinct section. Consecutive lanes reading consecutive addresses share sections; strides, columns of a row-major matrix and random addresses spread them out, and a misaligned start costs one section more.", "DRAM 一次读出整个突发段（先把一整行复制到感应放大器），所以内存系统对一个 warp 的 32 次读取，按不同的段各做一次事务。相邻 lane 读相邻地址时共享段；跨步、按行存储矩阵的列、随机地址都会把它们分散开，起点未对齐还要多读一段。"),
    ("coalescing.lecture", "Lecture check (notes §6.5, fp32, 128-byte sections): x[t] → 1 transaction, 100 %; x[2t] → 2, 50 %; x[32t] → 32, 3 %; random → 32, 3 %.", "讲义对照（§6.5，FP32，每段 128 字节）：x[t] → 1 次事务、100%；x[2t] → 2 次、50%；x[32t] → 32 次、3%；随机 → 32 次、3%。"),
    ("coalescing.presets", "Lecture cases", "讲义示例"),
    ("coalescing.preset.x-t", "x[t] (contiguous)", "x[t]（连续）"),
    ("coalescing.preset.x-2t", "x[2t]", "x[2t]"),
    ("coalescing.preset.x-32t", "x[32t]", "x[32t]"),
    ("coalescing.preset.random", "Random positions", "随机位置"),
    ("metric.transactions", "Transactions", "内存事务数"),
    ("metric.bytes-moved", "Bytes moved", "搬运字节数"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::coalescing::Access;

    use crate::topics::q;

    fn access(v: &Values) -> Access {
        Access::new(coalescing_params(v))
    }

    #[test]
    fn lecture_deep_links() {
        let (v, n) = COALESCING.parse(&q(&[("stride", "32")]));
        assert!(n.is_empty());
        assert_eq!(access(&v).transactions(), 32);
        let (v, _) = COALESCING.parse(&q(&[("pattern", "column"), ("rowlen", "1024")]));
        assert_eq!(access(&v).transactions(), 32);
        let (v, _) = COALESCING.parse(&q(&[("stride", "1"), ("offset", "1")]));
        assert_eq!(access(&v).transactions(), 2, "misaligned by one element");
    }

    #[test]
    fn lecture_cases_give_the_lecture_table() {
        // notes §6.5: x[t] → 1, 100 %; x[2t] → 2, 50 %; x[32t] → 32, 3 %; random → 32, 3 %.
        let expected = [(1, 1.0), (2, 0.5), (32, 1.0 / 32.0), (32, 1.0 / 32.0)];
        // From a state far from the lecture's, each case alone sets what it needs.
        let start = Values::defaults(&COALESCING_PARAMS)
            .with("dtype", Value::Choice("fp8"))
            .with("offset", Value::Int(3))
            .with("section", Value::Choice("32"));
        for ((_, pattern, stride), (tx, frac)) in LECTURE_CASES.iter().zip(expected) {
            let v = lecture_case(pattern, *stride).into_iter().fold(start.clone(), |acc, (n, x)| acc.with(n, x));
            let a = access(&v);
            assert_eq!((a.transactions(), a.useful_fraction()), (tx, frac), "{pattern} {stride}");
        }
        assert!(LECTURE_CASES.iter().all(|(key, ..)| crate::i18n::has(key)));
    }

    #[test]
    fn controls_follow_the_pattern() {
        let shown_for = |p| ["stride", "rowlen", "seed", "offset"].map(|n| shown(p, n));
        assert_eq!(shown_for(Pattern::Stride), [true, false, false, true]);
        assert_eq!(shown_for(Pattern::Row), [false, true, false, true]);
        assert_eq!(shown_for(Pattern::Column), [false, true, false, true]);
        assert_eq!(shown_for(Pattern::Random), [false, false, true, true]);
        // Every pattern a URL can name has a pattern of its own.
        for code in ["stride", "row", "column", "random"] {
            assert_eq!(Pattern::from_code(code).map(Pattern::code), Some(code));
        }
    }

    #[test]
    fn log_tracks_for_the_wide_ranges() {
        let log = |name| COALESCING_PARAMS.iter().find(|p| p.name == name).unwrap().log;
        assert!(log("stride") && log("rowlen") && !log("offset") && !log("seed"));
    }
}
