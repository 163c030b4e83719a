//! Texts in two languages: the lookup ([`tr`], [`trf`], whose `{name}`
//! placeholders are filled in), the shared vocabulary (chrome, notices, the
//! player, parameters several topics use), and the text files the wasm build
//! loads. Every other table (each topic's, each practice bank's, the deck's)
//! is handed in by the registry ([`install_tables`]); this module knows none
//! of them.

use crate::params::{Notice, Problem};
use crate::sim::{Metric, Unit};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
    pub fn from_code(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
    pub fn other(self) -> Lang {
        match self {
            Lang::En => Lang::Zh,
            Lang::Zh => Lang::En,
        }
    }
}

/// A table of texts `(key, English, 中文)`. Natively (the tests, the README
/// and the generator of the text files) it is the table itself. In the wasm
/// build it is empty: the browser loads the texts of the language shown,
/// `strings.<lang>.json`, written by the native binary at build time
/// (`warpscope strings <dir>`, a trunk hook), so that a page carries one
/// language, not both, and no text is compiled into the code.
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! texts {
    ($($entry:tt)*) => { &[$($entry)*] };
}
/// See the native definition: in the wasm build a table is empty.
#[cfg(target_arch = "wasm32")]
#[macro_export]
macro_rules! texts {
    ($($entry:tt)*) => {
        &[]
    };
}

/// Texts needed before or without the text files: the panic card (the app's
/// state is gone, and it shows both languages) and the message shown when a
/// text file can't be loaded. Compiled into every build.
pub static RESIDENT: &[(&str, &str, &str)] = &[
    ("panic.title", "Something went wrong", "出错了"),
    (
        "panic.body",
        "Warpscope hit an internal error and stopped. Please report the link you were on.",
        "Warpscope 遇到内部错误并已停止。请报告出错时的链接。",
    ),
    ("panic.link", "Back to the start page", "返回首页"),
    (
        "strings.failed",
        "The texts could not be loaded ({file}). Check the connection and reload the page.",
        "无法加载界面文字（{file}）。请检查网络后重新加载页面。",
    ),
    ("strings.reload", "Reload", "重新加载"),
];

/// The shared vocabulary: app chrome, notices, the player, and parameters,
/// choices and metrics used by more than one topic. Each topic's own texts
/// are in its folder (`topics/<id>/mod.rs`, `STRINGS`).
/// (key, English, 中文)
static TABLE: &[(&str, &str, &str)] = crate::texts![
    // App chrome
    ("app.name", "Warpscope", "Warpscope"),
    ("app.tagline", "CS336 Lecture 5, GPUs and TPUs: an interactive lab", "CS336 第 5 讲 GPU 与 TPU：交互式实验室"),
    ("app.home", "All topics", "全部主题"),
    ("app.lang-switch", "中文", "English"),
    ("app.lang-switch.title", "Switch language (lang=zh / lang=en)", "切换语言（lang=zh / lang=en）"),
    ("app.present", "Projector mode", "投影模式"),
    ("app.present.title", "Large type, thick lines, high contrast (key P)", "大字号、粗线条、高对比度（按 P）"),
    ("app.present.exit", "Exit projector mode (P)", "退出投影模式（P）"),
    ("app.footer", "Every number on these pages is computed by an exact simulation in your browser; the URL holds the whole state, so any view can be shared as a link.", "本站的每个数字都由浏览器中的精确模拟算出；网址保存了全部状态，任何画面都可以用链接分享。"),
    // Landing
    ("landing.title", "See how GPUs and TPUs work", "看见 GPU 与 TPU 如何工作"),
    ("landing.intro", "Each panel below is one topic of the lecture, backed by an exact, steppable simulation. Drag the sliders, step through the cycles, and share the link.", "下面每个面板对应讲义中的一个主题，背后是精确、可逐步执行的模拟。拖动滑块、逐周期播放，并分享链接。"),
    ("landing.section", "Notes §{s} · demo {d}", "讲义 §{s} · 配套代码 {d}"),
    ("landing.open", "Open", "打开"),
    ("landing.part.tpu", "Part 4: TPUs", "第四部分：TPU"),
    ("landing.part.gpu", "Part 1: How a GPU works", "第一部分：GPU 是怎么工作的"),
    ("landing.part.fast", "Part 2: Making ML workloads fast on GPUs", "第二部分：让 ML 负载在 GPU 上跑得快"),
    // Threads panel
    ("param.n", "Elements n", "元素个数 n"),
    ("param.n.doc", "How many elements the kernel processes", "核函数要处理的元素个数"),
    ("param.block", "Threads per block", "每块线程数"),
    ("param.block.doc", "blockDim: threads in one block (at most 1024)", "blockDim：一个线程块中的线程数（最多 1024）"),
    // Divergence panel
    ("param.step", "Step", "步"),
    ("metric.step", "Step", "步"),
    // Coalescing panel
    ("param.dtype", "Data type", "数据类型"),
    ("param.section", "Burst section (bytes)", "突发段（字节）"),
    ("choice.dtype.fp64", "fp64 (8 B)", "fp64（8 字节）"),
    ("choice.dtype.fp32", "fp32 (4 B)", "fp32（4 字节）"),
    ("choice.dtype.bf16", "bf16 (2 B)", "bf16（2 字节）"),
    ("choice.dtype.fp16", "fp16 (2 B)", "fp16（2 字节）"),
    ("choice.dtype.fp8", "fp8 (1 B)", "fp8（1 字节）"),
    ("choice.section.32", "32 B", "32 字节"),
    ("choice.section.64", "64 B", "64 字节"),
    ("choice.section.128", "128 B", "128 字节"),
    ("metric.useful-fraction", "Useful bytes", "有效字节占比"),
    ("metric.useful-fraction.doc", "Bytes the lanes asked for ÷ bytes moved", "lane 请求的字节 ÷ 实际搬运的字节"),
    // Occupancy panel
    ("param.smem", "Shared memory per block (bytes)", "每块共享内存（字节）"),
    ("param.smem.doc", "Allocated in 128-byte units, plus 1 KiB reserved by the system per block", "以 128 字节为单位分配，另加系统为每块保留的 1 KiB"),
    ("word.warps", "warp slots", "warp 槽位"),
    ("word.blocks", "block slots", "块槽位"),
    ("word.registers", "registers", "寄存器"),
    ("word.shared-memory", "shared memory", "共享内存"),
    ("landing.part.flash", "Part 3: Putting it together, FlashAttention", "第三部分：把一切组合起来——FlashAttention"),
    // Online softmax
    // FlashAttention
    ("param.d", "Head dimension d", "头维度 d"),
    // Attention memory
    // Tiling
    ("param.m", "Rows m (0 = n)", "行数 m（0 表示 = n）"),
    ("param.tile", "Tile T", "块大小 T"),
    ("metric.intensity", "Intensity (FLOP/byte)", "算术强度（FLOP/字节）"),
    // Quantization
    ("metric.tiles", "Tiles", "块数"),
    // Waves
    ("param.gpu", "GPU", "GPU"),
    ("param.tm", "Output tile rows tm", "输出块行数 tm"),
    ("param.tn", "Output tile columns tn", "输出块列数 tn"),
    ("choice.gpu.a100", "A100 (108 SMs)", "A100（108 个 SM）"),
    ("choice.gpu.h100", "H100 (132 SMs)", "H100（132 个 SM）"),
    ("choice.gpu.h200", "H200 (132 SMs)", "H200（132 个 SM）"),
    ("choice.gpu.b200", "B200 (148 SMs)", "B200（148 个 SM）"),
    // GPU vs TPU
    // Hardware
    ("choice.gpu.custom", "Custom", "自定义"),
    ("custom.peak", "Peak (TFLOP/s)", "峰值（TFLOP/s）"),
    ("custom.bw", "Bandwidth (GB/s)", "带宽（GB/s）"),
    ("custom.m4-pro", "Apple M4 Pro (notes §5.4: 5.5 TFLOP/s fp32, 215 GB/s)", "Apple M4 Pro（讲义 §5.4：fp32 5.5 TFLOP/s，215 GB/s）"),
    // Roofline
    ("metric.intensity.doc", "FLOPs ÷ bytes moved to and from HBM", "FLOPs ÷ 与 HBM 之间搬运的字节数"),
    ("word.memory", "memory", "内存"),
    ("word.yes", "yes", "是"),
    ("lecture.table", "The lecture's figures beside this simulation (a row loads its configuration)", "讲义中的数字与本模拟对照（点击一行载入该配置）"),
    ("lecture.load", "Click to load this configuration", "点击载入这一配置"),
    ("lecture.printed", " (lecture: {v})", "（讲义：{v}）"),
    ("lecture.differs", "differs from the lecture", "与讲义不同"),
    ("word.no", "no", "否"),
    ("word.compute", "compute", "计算"),
    // Fusion
    // Recompute
    // Roofline inset
    ("inset.title", "Where this sits on the roofline ({gpu}, {dtype})", "在 roofline 上的位置（{gpu}，{dtype}）"),
    ("inset.fused", "fused", "融合"),
    ("inset.unfused", "unfused", "未融合"),
    ("inset.flash", "flash", "flash"),
    ("inset.standard", "standard", "标准"),
    ("inset.this", "this configuration", "当前配置"),
    // Not found / broken links
    ("notfound.title", "No such page", "没有这个页面"),
    ("notfound.body", "The link “{path}” does not name a Warpscope topic. Here is the list of topics.", "链接“{path}”不对应任何主题。以下是全部主题。"),
    // Notices
    ("notice.title", "Some link parameters were adjusted", "链接中的部分参数已被调整"),
    ("notice.out-of-range", "{param}={given} is outside {min}–{max}; using {used}.", "{param}={given} 超出范围 {min}–{max}，已改用 {used}。"),
    ("notice.malformed", "{param}={given} is not a valid value; using {used}.", "{param}={given} 不是有效值，已改用 {used}。"),
    ("notice.invalid", "{param}={given}: {reason}; using {used}.", "{param}={given}：{reason}；已改用 {used}。"),
    ("notice.too-long", "longer than {max} characters", "超过 {max} 个字符"),
    ("notice.peak-range", "a peak from 0.001 to 100000 TFLOP/s", "峰值须在 0.001 到 100000 TFLOP/s 之间"),
    ("notice.peak-number", "a decimal number of TFLOP/s", "须为十进制数（单位 TFLOP/s）"),
    ("notice.unknown", "{param} is not a parameter of this page; ignored.", "{param} 不是本页面的参数，已忽略。"),
    ("notice.broken", "The link's query could not be read; using defaults.", "无法解析链接中的参数，已使用默认值。"),
    ("notice.broken-link", "The address “#{given}” could not be read; here is the start page.", "无法识别地址“#{given}”，已转到首页。"),
    ("notice.dismiss", "Dismiss", "关闭"),
    // Measured overlays
    ("measured.label", "Measured on an {device}, {date} (measure/ in the repository; method and provenance in assets/measured/h200.json).", "在 {device} 上实测，{date}（仓库中的 measure/；方法与来源见 assets/measured/h200.json）。"),
    ("param.measured", "Measured (H200)", "实测（H200）"),
    ("param.measured.doc", "Show measurements from a real NVIDIA H200 beside the model (measured=1) or the model alone (measured=0)", "在模型旁显示真实 NVIDIA H200 的实测数据（measured=1），或只显示模型（measured=0）"),
    ("choice.measured.1", "shown", "显示"),
    ("choice.measured.0", "hidden", "隐藏"),
    ("notice.repeated", "{param} was given {times} times; using the last, {used} (ignored: {given}).", "{param} 出现了 {times} 次；使用最后一个 {used}（已忽略：{given}）。"),
    // Player
    ("player.play", "Play", "播放"),
    ("player.pause", "Pause", "暂停"),
    ("player.step", "Step", "前进"),
    ("player.back", "Back", "后退"),
    ("player.start", "To start", "到开头"),
    ("player.end", "To end", "到结尾"),
    ("player.speed", "Speed", "速度"),
    ("player.per-second", "{n}/s", "{n}/秒"),
    ("player.fit", "{n}/s (all in {s} s)", "{n}/秒（{s} 秒放完）"),
    ("player.keys", "Keys: Space play/pause · ←/→ or a clicker (PageDown/PageUp) step · Home/End · P projector", "按键：空格 播放/暂停 · ←/→ 或翻页笔（PageDown/PageUp）单步 · Home/End · P 投影"),
    ("player.position", "{pos} / {len}", "{pos} / {len}"),
    ("panel.presets", "Lecture presets", "讲义示例"),
    // Canvas
    ("canvas.save", "Save PNG", "保存 PNG"),
    // Systolic panel
    ("param.k", "K (inner dim)", "K（内维度）"),
    ("param.k.doc", "Length of each dot product: A is rows×K, B is K×cols", "每个点积的长度：A 为 行×K，B 为 K×列"),
    ("param.seed", "Seed", "随机种子"),
    ("param.seed.doc", "Seed of the random inputs", "随机输入的种子"),
    ("param.speed", "Speed", "速度"),
    // Metrics
    ("metric.max-abs-error", "Max abs error", "最大绝对误差"),
    ("metric.max-abs-error.doc", "Largest difference from the reference computation", "与参考计算的最大差值"),
];

/// (key, English, 中文): one text of a table.
pub type Entry = (&'static str, &'static str, &'static str);

/// The tables of the rest of the app (each topic's, practice's, the deck's),
/// handed in once by whoever assembles the app (`topics::install_texts`):
/// this module knows none of them. Empty in the wasm build, whose texts
/// come from the text files.
struct Handed {
    tables: Vec<&'static [Entry]>,
    index: std::collections::HashMap<&'static str, &'static Entry>,
}

#[cfg(not(test))]
static HANDED: std::sync::OnceLock<&'static Handed> = std::sync::OnceLock::new();
#[cfg(test)]
thread_local! {
    /// Per test (each runs on its own thread): a test that needs the app's
    /// texts installs them itself, so none passes by another's side effect.
    static HANDED: std::cell::Cell<Option<&'static Handed>> = const { std::cell::Cell::new(None) };
}

fn handed() -> Option<&'static Handed> {
    #[cfg(not(test))]
    return HANDED.get().copied();
    #[cfg(test)]
    return HANDED.with(|h| h.get());
}

/// Hands in the app's tables (the first call counts; later ones are ignored).
pub fn install_tables(tables: Vec<&'static [Entry]>) {
    if handed().is_some() {
        return;
    }
    let index =
        [RESIDENT, TABLE].into_iter().chain(tables.iter().copied()).flat_map(|t| t.iter()).map(|e| (e.0, e)).collect();
    let h: &'static Handed = Box::leak(Box::new(Handed { tables, index }));
    #[cfg(not(test))]
    let _ = HANDED.set(h);
    #[cfg(test)]
    HANDED.with(|c| c.set(Some(h)));
}

/// Every table: the always-resident one, the shared one, then those handed in.
pub fn tables() -> impl Iterator<Item = &'static [Entry]> {
    [RESIDENT, TABLE].into_iter().chain(handed().into_iter().flat_map(|h| h.tables.iter().copied()))
}

fn lookup(key: &str) -> Option<&'static Entry> {
    match handed() {
        Some(h) => h.index.get(key).copied(),
        // Before the tables are handed in: this module's own.
        None => [RESIDENT, TABLE].into_iter().flat_map(|t| t.iter()).find(|e| e.0 == key),
    }
}

/// The texts of one language loaded from its file (`strings.<lang>.json`):
/// key → text. Set once per language; in the wasm build the only source
/// besides [`RESIDENT`].
static LOADED: [std::sync::OnceLock<std::collections::HashMap<String, String>>; 2] =
    [std::sync::OnceLock::new(), std::sync::OnceLock::new()];

fn loaded(lang: Lang) -> Option<&'static std::collections::HashMap<String, String>> {
    LOADED[lang as usize].get()
}

/// Can `lang` be shown: its file is loaded (natively the tables always are)?
pub fn is_loaded(lang: Lang) -> bool {
    cfg!(not(target_arch = "wasm32")) || loaded(lang).is_some()
}

/// The name of a language's text file, next to `index.html`.
pub fn file_name(lang: Lang) -> String {
    format!("strings.{}.json", lang.code())
}

/// The fingerprint of the sources this binary was built from (`build.rs`),
/// written into the text files as [`BUILD_KEY`].
pub const BUILD: &str = env!("WARPSCOPE_BUILD");
pub const BUILD_KEY: &str = "_build";

/// Adopts a language's text file (a JSON object of key → text, with the
/// build's fingerprint). A file of another build is refused; a second file
/// for the same language is ignored: the first one stays.
pub fn install(lang: Lang, json: &str) -> Result<(), String> {
    let mut map: std::collections::HashMap<String, String> = serde_json::from_str(json).map_err(|e| e.to_string())?;
    match map.remove(BUILD_KEY) {
        Some(b) if b == BUILD => {}
        _ => return Err("texts of another build".into()),
    }
    if map.is_empty() {
        return Err("no texts".into());
    }
    let _ = LOADED[lang as usize].set(map);
    Ok(())
}

/// A language's text file: every key of every table with its text in
/// `lang`, sorted by key (the resident texts are left out: they are
/// compiled in). Natively only: the wasm build has no tables.
#[cfg(not(target_arch = "wasm32"))]
pub fn file_contents(lang: Lang) -> String {
    let mut map: std::collections::BTreeMap<&str, &str> = tables()
        .flat_map(|t| t.iter())
        .filter(|(k, ..)| !RESIDENT.iter().any(|r| r.0 == *k))
        .map(|(k, en, zh)| (*k, if lang == Lang::En { *en } else { *zh }))
        .collect();
    map.insert(BUILD_KEY, BUILD);
    serde_json::to_string(&map).expect("strings serialise")
}

/// The text of `key` in `lang`, from the loaded file, else the tables.
pub(crate) fn text(lang: Lang, key: &str) -> Option<&'static str> {
    if let Some(s) = loaded(lang).and_then(|m| m.get(key)) {
        return Some(s.as_str());
    }
    lookup(key).map(|(_, en, zh)| if lang == Lang::En { *en } else { *zh })
}

/// Is there a text for `key`?
pub fn has(key: &str) -> bool {
    lookup(key).is_some() || LOADED.iter().any(|l| l.get().is_some_and(|m| m.contains_key(key)))
}

/// A text that can't be shown as meant (a missing key, an unfilled
/// `{placeholder}`): in the browser a console error, which every end-to-end
/// test fails on; in native tests a panic. Never a panic in the app.
fn report(problem: String) {
    #[cfg(target_arch = "wasm32")]
    web_sys::console::error_1(&format!("warpscope i18n: {problem}").into());
    #[cfg(all(test, not(target_arch = "wasm32")))]
    panic!("i18n: {problem}");
    #[cfg(all(not(test), not(target_arch = "wasm32")))]
    let _ = problem;
}

/// The text of `key` in `lang`; a missing key shows itself and is reported
/// (see [`report`]), never panics.
pub fn tr(lang: Lang, key: &str) -> String {
    match text(lang, key) {
        Some(s) => s.to_string(),
        None => {
            report(format!("missing key {key}"));
            key.to_string()
        }
    }
}

/// The `{name}` placeholders of a template, in order.
pub fn placeholders(s: &str) -> Vec<&str> {
    s.split('{')
        .skip(1)
        .filter_map(|p| p.split_once('}'))
        .map(|(h, _)| h)
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .collect()
}

/// `<kind>.<topic>.<name>` if the table has it, else `<kind>.<name>`: how a
/// panel gives a shared parameter or metric its own label.
pub fn topic_key(kind: &str, topic: &str, name: &str) -> String {
    let specific = format!("{kind}.{topic}.{name}");
    if has(&specific) {
        specific
    } else {
        format!("{kind}.{name}")
    }
}

/// [`tr`] with `{name}` placeholders filled in: the one checked path for
/// text with arguments. A placeholder of the template without an argument is
/// reported (see [`report`]) — "load A tile ({ti}, 3)" never ships silently.
pub fn trf(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let template = tr(lang, key);
    let missing: Vec<&str> =
        placeholders(&template).into_iter().filter(|h| !args.iter().any(|(name, _)| name == h)).collect();
    if !missing.is_empty() {
        report(format!("{key}: no value for {{{}}}", missing.join("}, {")));
    }
    // One pass, so a value that happens to contain `{name}` is left alone.
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template.as_str();
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.split_once('}').and_then(|(h, tail)| args.iter().find(|(n, _)| *n == h).map(|(_, v)| (v, tail))) {
            Some((value, tail)) => {
                out.push_str(value);
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `s` safe inside HTML text and double-quoted attributes: for the few
/// places that build markup as a string (texts come from a file, values
/// from the URL).
pub fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// How a metric is shown to a person (the raw value goes in `data-value`).
pub fn format_metric(m: &Metric) -> String {
    match m.unit {
        Unit::Count => crate::format::grouped(m.value.max(0.0) as u64),
        Unit::Percent => {
            let pct = 100.0 * m.value;
            if (pct - pct.round()).abs() < 1e-9 {
                format!("{pct:.0}%")
            } else {
                format!("{pct:.1}%")
            }
        }
        Unit::Word => m.word.unwrap_or("").to_string(),
        Unit::Flag => if m.value != 0.0 { "yes" } else { "no" }.to_string(),
        Unit::Bytes => crate::format::bytes(m.value),
        Unit::KiB => crate::format::kib(m.value),
        Unit::Real => {
            let v = m.value;
            if v != 0.0 && v.abs() < 1e-3 {
                format!("{v:.2e}")
            } else if (v - v.round()).abs() < 1e-9 {
                format!("{v:.0}")
            } else if v.abs() >= 100.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            }
        }
    }
}

/// The exact value behind a rounded one (bytes: "738,197,504 B"), for a
/// tooltip; `None` where the shown value is already exact.
pub fn exact_value(m: &Metric) -> Option<String> {
    (matches!(m.unit, Unit::Bytes | Unit::KiB) && m.value >= 1e3)
        .then(|| format!("{} B", crate::format::grouped(m.value.max(0.0) as u64)))
}

/// At most `max` characters of `s` (a value quoted in a notice can be a
/// 10,000-character string), with an ellipsis if cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().take(max + 1).count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// One line of text for a URL notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    let n = &Notice { param: shorten(&n.param, 40), given: shorten(&n.given, 60), problem: n.problem.clone() };
    match &n.problem {
        Problem::Repeated { times, used } => trf(
            lang,
            "notice.repeated",
            &[("param", &n.param), ("given", &n.given), ("times", &times.to_string()), ("used", &shorten(used, 60))],
        ),
        Problem::OutOfRange { min, max, used } => trf(
            lang,
            "notice.out-of-range",
            &[
                ("param", &n.param),
                ("given", &n.given),
                ("min", &min.to_string()),
                ("max", &max.to_string()),
                ("used", &used.to_string()),
            ],
        ),
        Problem::Malformed { used } => {
            trf(lang, "notice.malformed", &[("param", &n.param), ("given", &n.given), ("used", used)])
        }
        Problem::Unknown => trf(lang, "notice.unknown", &[("param", &n.param)]),
        Problem::Invalid { reason, used } => {
            let args: Vec<(&str, &str)> = reason.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let (reason, used) = (shorten(&trf(lang, reason.key, &args), 120), shorten(used, 60));
            trf(
                lang,
                "notice.invalid",
                &[("param", &n.param), ("given", &n.given), ("reason", &reason), ("used", &used)],
            )
        }
        Problem::BrokenQuery => tr(lang, "notice.broken"),
        Problem::BrokenLink => trf(lang, "notice.broken-link", &[("given", &n.given)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "missing key")]
    fn a_missing_key_is_reported() {
        tr(Lang::En, "no.such.key");
    }

    #[test]
    #[should_panic(expected = "no value for {n}")]
    fn an_unfilled_placeholder_is_reported() {
        trf(Lang::En, "player.per-second", &[]);
    }

    #[test]
    fn values_are_inserted_once() {
        assert_eq!(
            trf(Lang::En, "player.per-second", &[("n", "{n}")]),
            trf(Lang::En, "player.per-second", &[("n", "{n}")])
        );
        assert!(trf(Lang::En, "player.per-second", &[("n", "{n}")]).contains("{n}"));
        assert_eq!(placeholders("a {b} {c-d} {} {x y}"), ["b", "c-d"]);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_html(r#"<img src=x onerror="a&b">"#), "&lt;img src=x onerror=&quot;a&amp;b&quot;&gt;");
    }

    #[test]
    fn formatting() {
        crate::topics::install_texts();
        assert_eq!(crate::format::grouped(33554432), "33,554,432");
        assert_eq!(crate::format::grouped(12), "12");
        assert_eq!(format_metric(&Metric::percent("u", 0.5)), "50%");
        assert_eq!(format_metric(&Metric::percent("u", 8.0 / 22.0)), "36.4%");
        assert_eq!(format_metric(&Metric::real("r", 8.0)), "8");
        assert_eq!(format_metric(&Metric::real("e", 2.78e-16)), "2.78e-16");
        assert_eq!(format_metric(&Metric::real("e", 0.0)), "0");
        assert_eq!(trf(Lang::Zh, "player.per-second", &[("n", "5")]), "5/秒");
        assert_eq!(topic_key("param", "online-softmax", "block"), "param.online-softmax.block");
        assert_eq!(topic_key("param", "threads", "block"), "param.block");
        assert_eq!(crate::format::bytes(67108864.0), "67.1 MB");
        assert_eq!(crate::format::bytes(17179869184.0), "17.2 GB");
        assert_eq!(crate::format::bytes(16384.0), "16.4 kB");
        assert_eq!(crate::format::bytes(12.0), "12 B");
    }
}
