//! The one translation table. Every piece of UI text is a key here with an
//! English and a Chinese text; `{name}` placeholders are filled by [`trf`].

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

/// (key, English, 中文)
static TABLE: &[(&str, &str, &str)] = &[
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
    // Not found / broken links
    ("notfound.title", "No such page", "没有这个页面"),
    ("notfound.body", "The link “{path}” does not name a Warpscope topic. Here is the list of topics.", "链接“{path}”不对应任何主题。以下是全部主题。"),
    // Panic card
    ("panic.title", "Something went wrong", "出错了"),
    ("panic.body", "Warpscope hit an internal error and stopped. Please report the link you were on.", "Warpscope 遇到内部错误并已停止。请报告出错时的链接。"),
    ("panic.link", "Back to the start page", "返回首页"),
    // Notices
    ("notice.title", "Some link parameters were adjusted", "链接中的部分参数已被调整"),
    ("notice.out-of-range", "{param}={given} is outside {min}–{max}; using {used}.", "{param}={given} 超出范围 {min}–{max}，已改用 {used}。"),
    ("notice.malformed", "{param}={given} is not a valid value; using {used}.", "{param}={given} 不是有效值，已改用 {used}。"),
    ("notice.unknown", "{param} is not a parameter of this panel; ignored.", "{param} 不是本面板的参数，已忽略。"),
    ("notice.broken", "The link's query could not be read; using defaults.", "无法解析链接中的参数，已使用默认值。"),
    ("notice.broken-link", "The address “#{given}” could not be read; here is the start page.", "无法识别地址“#{given}”，已转到首页。"),
    ("notice.dismiss", "Dismiss", "关闭"),
    // Player
    ("player.play", "Play", "播放"),
    ("player.pause", "Pause", "暂停"),
    ("player.step", "Step", "前进"),
    ("player.back", "Back", "后退"),
    ("player.start", "To start", "到开头"),
    ("player.end", "To end", "到结尾"),
    ("player.speed", "Speed", "速度"),
    ("player.per-second", "{n}/s", "{n}/秒"),
    ("player.keys", "Keys: Space play/pause · ←/→ step · Home/End · P projector", "按键：空格 播放/暂停 · ←/→ 单步 · Home/End · P 投影"),
    ("player.position", "{pos} / {len}", "{pos} / {len}"),
    // Canvas
    ("canvas.save", "Save PNG", "保存 PNG"),
    // Systolic panel
    ("topic.systolic.title", "Systolic array (TPU MXU)", "脉动阵列（TPU 的 MXU）"),
    ("topic.systolic.summary", "Operands pulse through a grid of multiply-accumulate units: each value is read once and reused by a whole row or column of PEs.", "数据有节奏地流过乘加单元网格：每个数据只读一次，被一整行或一整列 PE 重复使用。"),
    ("param.rows", "Rows", "行数"),
    ("param.rows.doc", "PE rows, and rows of A (TPU v2–v5: 128, v6e: 256)", "PE 行数，也是 A 的行数（TPU v2–v5 为 128，v6e 为 256）"),
    ("param.cols", "Columns", "列数"),
    ("param.cols.doc", "PE columns, and columns of B", "PE 列数，也是 B 的列数"),
    ("param.k", "K (inner dim)", "K（内维度）"),
    ("param.k.doc", "Length of each dot product: A is rows×K, B is K×cols", "每个点积的长度：A 为 行×K，B 为 K×列"),
    ("param.dataflow", "Dataflow", "数据流"),
    ("param.dataflow.doc", "Which value stays put in each PE", "每个 PE 中固定不动的是哪个值"),
    ("param.seed", "Seed", "随机种子"),
    ("param.seed.doc", "Seed of the operand generator (digits 0–9)", "操作数生成器的种子（0–9 的整数）"),
    ("param.cycle", "Cycle", "周期"),
    ("param.speed", "Speed", "速度"),
    ("choice.dataflow.os", "Output-stationary", "输出固定"),
    ("choice.dataflow.ws", "Weight-stationary", "权重固定"),
    ("systolic.os.explain", "Output-stationary (the lecture's version): row i of A enters from the left i cycles late and moves one PE right per cycle; column j of B enters from the top j cycles late and moves one PE down. A[i][k] and B[k][j] meet in PE (i, j) in cycle i+j+k+1, which multiplies them and adds the product to its own C[i][j]. Each value is read from memory once and used by a whole row (A) or column (B) of PEs.", "输出固定（讲义中的版本）：A 的第 i 行晚 i 个周期从左边进入，每周期右移一格；B 的第 j 列晚 j 个周期从上边进入，每周期下移一格。A[i][k] 和 B[k][j] 在第 i+j+k+1 个周期到达 PE (i, j)，PE 把它们相乘并累加到自己的 C[i][j]。每个数据只从内存读一次，被一整行（A）或一整列（B）的 PE 使用。"),
    ("systolic.ws.explain", "Weight-stationary (the lecture's exercise): B is cut along K into chunks of `rows` rows; each chunk is first pushed down into the PEs, one row per cycle, and stays there. Then the rows of A stream in from the left, skewed; each PE multiplies the passing value by its weight, adds the partial sum from above and passes it down; finished sums leave the bottom into the output accumulators. Real TPUs load the next chunk behind the current one (double buffering) and stream thousands of vectors per load; here the load is a phase of its own so you can watch it, and only `rows` vectors stream, so load, fill and drain weigh heavily.", "权重固定（讲义中的练习）：把 B 沿 K 切成每块 `行数` 行；每块先逐行下推装入 PE，之后固定不动。然后 A 的各行错位地从左边流入；每个 PE 把经过的值乘以自己的权重，加上从上方传来的部分和，再向下传；算完的和从底部流出，累加到输出缓冲。真实的 TPU 会在计算当前块时同时装入下一块（双缓冲），每次装载后流过成千上万个向量；这里把装载单独作为一个阶段便于观察，且只流过 `行数` 个向量，所以装载、填充和排空的占比很大。"),
    ("systolic.lecture", "Lecture check (notes §9.2): 4×4, K=6 → 12 cycles, 50 %; 8×8, K=8 → 36 %; 8×8, K=512 → 97 %; result equal to A·B.", "讲义对照（§9.2）：4×4、K=6 → 12 个周期、利用率 50%；8×8、K=8 → 36%；8×8、K=512 → 97%；结果与 A·B 一致。"),
    ("systolic.presets", "Lecture presets", "讲义示例"),
    ("systolic.preset.4x4", "4×4, K=6", "4×4，K=6"),
    ("systolic.preset.8x8", "8×8, K=8", "8×8，K=8"),
    ("systolic.preset.8x8-512", "8×8, K=512", "8×8，K=512"),
    ("systolic.preset.tpu", "TPU v5 MXU 128×128, K=512", "TPU v5 MXU 128×128，K=512"),
    ("systolic.timeline", "Busy PEs per cycle", "每周期忙碌的 PE 数"),
    ("systolic.chunk", "weight chunk {q} of {n}", "权重块 {q}/{n}"),
    ("systolic.legend.waiting", "waiting", "等待"),
    ("systolic.legend.busy", "multiply-accumulate this cycle", "本周期做乘加"),
    ("systolic.legend.done", "finished", "已完成"),
    ("systolic.legend.weight", "holds a weight", "存有权重"),
    ("systolic.a-queue", "A", "A"),
    ("systolic.b-queue", "B", "B"),
    ("systolic.w-queue", "B (weights)", "B（权重）"),
    ("systolic.out", "C (outputs)", "C（输出）"),
    ("systolic.result", "Result", "结果"),
    ("systolic.result.ok", "C equals A·B computed directly.", "C 与直接计算的 A·B 完全一致。"),
    ("systolic.result.bad", "C differs from A·B!", "C 与 A·B 不一致！"),
    ("systolic.large", "Heat map: each pixel is one PE.", "热力图：每个像素是一个 PE。"),
    ("phase.start", "Start: nothing has entered", "开始：尚无数据进入"),
    ("phase.load", "Loading weights", "装载权重"),
    ("phase.fill", "Fill: operands still arriving", "填充：数据仍在流入"),
    ("phase.steady", "Steady state: every PE busy", "稳态：所有 PE 都在工作"),
    ("phase.drain", "Drain: PEs finishing", "排空：PE 陆续完成"),
    ("phase.fill-drain", "Fill and drain at once (K is short)", "填充与排空同时发生（K 太短）"),
    // Metrics
    ("metric.cycle", "Cycle", "周期"),
    ("metric.total-cycles", "Total cycles", "总周期数"),
    ("metric.utilization", "Utilization", "利用率"),
    ("metric.utilization.doc", "Busy PE-cycles ÷ (PEs × total cycles)", "忙碌的 PE·周期 ÷（PE 数 × 总周期数）"),
    ("metric.busy-pes", "Busy PEs now", "当前忙碌 PE"),
    ("metric.max-abs-error", "Max |C − A·B|", "最大 |C − A·B|"),
    ("metric.max-abs-error.doc", "Final array output against A·B computed directly", "阵列最终输出与直接计算的 A·B 之差"),
    ("metric.reads-per-operand", "Reads per operand", "每个操作数读取次数"),
    ("metric.reads-per-operand.doc", "Times each element of A and B is fetched from memory", "A、B 中每个元素从内存读取的次数"),
    ("metric.uses-per-operand", "Uses per operand", "每个操作数使用次数"),
    ("metric.uses-per-operand.doc", "PEs that use each element of A and B (the reuse a GPU gets from tiling)", "使用 A、B 中每个元素的 PE 数（GPU 靠分块获得的复用）"),
];

fn lookup(key: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    TABLE.iter().find(|(k, _, _)| *k == key)
}

/// Is there a text for `key`?
pub fn has(key: &str) -> bool {
    lookup(key).is_some()
}

/// The text of `key` in `lang`; a missing key shows itself (and fails the
/// registry test), never panics.
pub fn tr(lang: Lang, key: &str) -> String {
    match lookup(key) {
        Some((_, en, zh)) => match lang {
            Lang::En => en.to_string(),
            Lang::Zh => zh.to_string(),
        },
        None => key.to_string(),
    }
}

/// [`tr`] with `{name}` placeholders filled in.
pub fn trf(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let mut s = tr(lang, key);
    for (name, value) in args {
        s = s.replace(&format!("{{{name}}}"), value);
    }
    s
}

/// Thousands separators for counts (`1,234,567`).
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// How a metric is shown to a person (the raw value goes in `data-value`).
pub fn format_metric(m: &Metric) -> String {
    match m.unit {
        Unit::Count => group_digits(m.value.max(0.0) as u64),
        Unit::Percent => {
            let pct = 100.0 * m.value;
            if (pct - pct.round()).abs() < 1e-9 {
                format!("{pct:.0}%")
            } else {
                format!("{pct:.1}%")
            }
        }
        Unit::Real => {
            let v = m.value;
            if (v - v.round()).abs() < 1e-9 {
                format!("{v:.0}")
            } else if v.abs() >= 100.0 {
                format!("{v:.1}")
            } else {
                format!("{v:.2}")
            }
        }
    }
}

/// One line of text for a URL notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    match &n.problem {
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
        Problem::BrokenQuery => tr(lang, "notice.broken"),
        Problem::BrokenLink => trf(lang, "notice.broken-link", &[("given", &n.given)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Kind;
    use crate::topics::ALL;

    #[test]
    fn keys_are_unique_and_both_languages_present() {
        for (i, (k, en, zh)) in TABLE.iter().enumerate() {
            assert!(TABLE[..i].iter().all(|(o, _, _)| o != k), "duplicate key {k}");
            assert!(!en.trim().is_empty() && !zh.trim().is_empty(), "{k} lacks a language");
        }
    }

    #[test]
    fn placeholders_match_between_languages() {
        let holes = |s: &str| {
            let mut v: Vec<String> =
                s.split('{').skip(1).filter_map(|p| p.split_once('}')).map(|(h, _)| h.to_string()).collect();
            v.sort();
            v
        };
        for (k, en, zh) in TABLE {
            assert_eq!(holes(en), holes(zh), "placeholders differ in {k}");
        }
    }

    /// Every topic is fully translated: title, summary, every parameter, every
    /// choice and every metric.
    #[test]
    fn every_topic_is_translated() {
        for t in ALL {
            for key in [format!("topic.{}.title", t.id), format!("topic.{}.summary", t.id)] {
                assert!(has(&key), "missing {key}");
            }
            for p in t.params {
                assert!(has(&format!("param.{}", p.name)), "missing param.{}", p.name);
                if let Kind::Choice { options, .. } = p.kind {
                    for o in options {
                        assert!(has(&format!("choice.{}.{o}", p.name)), "missing choice.{}.{o}", p.name);
                    }
                }
            }
            for m in t.metrics {
                assert!(has(&format!("metric.{m}")), "missing metric.{m}");
            }
        }
    }

    #[test]
    fn formatting() {
        assert_eq!(group_digits(33554432), "33,554,432");
        assert_eq!(group_digits(12), "12");
        assert_eq!(format_metric(&Metric::percent("u", 0.5)), "50%");
        assert_eq!(format_metric(&Metric::percent("u", 8.0 / 22.0)), "36.4%");
        assert_eq!(format_metric(&Metric::real("r", 8.0)), "8");
        assert_eq!(trf(Lang::Zh, "player.per-second", &[("n", "5")]), "5/秒");
        assert_eq!(tr(Lang::En, "no.such.key"), "no.such.key");
    }
}
