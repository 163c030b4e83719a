//! The lecture as a built-in deck: one view per slide of CS336 Lecture 5 that
//! a panel can show, in the slides' order, each at the configuration the
//! slide discusses, with a note citing its slide (`#/lecture`); and the same
//! path for a student, cut into parts that each end with a practice question
//! and a summary of the part's key numbers (`#/lecture?study=1`).
//!
//! Pure data and logic: no web types, and no registry (the routes and the
//! parsing of a view's query are handed in by the caller, the texts come
//! through [`crate::i18n`]).

use crate::deck::{Deck, View};
use crate::i18n::Lang;
use serde::{Deserialize, Serialize};

/// One view of the lecture: the slide it follows, the panel's URL (as after
/// `#`), and the rows of `tests/lecture_numbers.md` whose numbers it shows
/// (each row's URL is this view's). Title and note: the translation keys
/// `lecture.view.<id>.title` and `lecture.view.<id>.note`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LectureView {
    pub id: &'static str,
    pub slide: u32,
    pub url: &'static str,
    pub numbers: &'static [&'static str],
}

impl LectureView {
    pub fn title_key(&self) -> String {
        format!("lecture.view.{}.title", self.id)
    }
    pub fn note_key(&self) -> String {
        format!("lecture.view.{}.note", self.id)
    }
    /// The route (`waves` of `/waves?n=…`).
    pub fn route(&self) -> &'static str {
        self.url.trim_start_matches('/').split('?').next().unwrap_or("")
    }
    /// The view's query as decoded pairs.
    pub fn query(&self) -> Vec<(String, String)> {
        query_pairs(self.url)
    }
}

const fn v(id: &'static str, slide: u32, url: &'static str, numbers: &'static [&'static str]) -> LectureView {
    LectureView { id, slide, url, numbers }
}

/// The FlashAttention paper's configuration (A100, batch 64, 16 heads, n = 1024).
const FLASH_PAPER: &str = "/flash?n=1024&d=64&heads=16&batch=64&dtype=fp16&sram=192&blocks=sram&order=kv&std=kernels&causal=1&gpu=a100&pass=fwd&step=0";

/// Every view, in the slides' order.
pub static VIEWS: &[LectureView] = &[
    // Part 1: how a GPU works (slides 2–13).
    v("s2", 2, "/waves?gpu=a100&n=1792&tm=256&tn=128&ref=1792", &["n7-1792"]),
    v("s7", 7, "/hardware?gpu=b200&dtype=bf16", &["n4-b200"]),
    v("s8", 8, "/hardware?gpu=h100&dtype=bf16", &["n2.1-sms", "n2.1-bf16", "n4-h100"]),
    v("s9", 9, "/hardware?gpu=a100&dtype=bf16", &["s-a100-128", "n4-a100"]),
    v("s10", 10, "/hardware?gpu=h100&dtype=bf16", &["n2.2"]),
    v("s11", 11, "/threads?n=1000&block=256", &["n3.1"]),
    v("s12", 12, "/occupancy?arch=sm90&threads=256&regs=32&smem=0", &["n6.7-256x32"]),
    v("s13", 13, "/gpu-vs-tpu?m=512&k=4096&n=4096&mxu=128&gpu=h100&tm=128&tn=128", &[]),
    v("s13-mxu", 13, "/systolic?rows=8&cols=8&k=8&dataflow=os", &["n9.2-8x8k8", "n9.2-reuse"]),
    // Part 2: performance, the roofline and the first tricks (slides 17–36).
    v("s17", 17, "/hardware?gpu=h100&dtype=fp32", &["n2.1-fp32"]),
    v("s18", 18, "/hardware?gpu=h100&dtype=bf16", &["s-growth"]),
    v("s20", 20, "/waves?gpu=a100&n=2560&tm=256&tn=128&ref=1792", &["n7-2560"]),
    v("s21-relu", 21, "/roofline?gpu=h100&dtype=bf16&op=relu&n=4096", &["n5.2-relu"]),
    v("s21-matmul", 21, "/roofline?gpu=h100&dtype=bf16&op=matmul&n=4096", &["n5.2-matmul"]),
    v("s23", 23, "/divergence?warps=1&cond=tid%3C4&then=2&else=2&after=0", &["s-diverge8"]),
    v("s26", 26, "/roofline?gpu=h100&dtype=fp32&op=relu&n=4096", &["n6.2-relu"]),
    v("s28", 28, "/fusion?expr=sin(x)%5E2%20%2B%20cos(x)%5E2&n=16777216&dtype=fp32", &["n6.3"]),
    v("s32", 32, "/recompute?depth=3&upstream=0", &["s6.4"]),
    v("s33", 33, "/recompute?depth=3&upstream=1", &["n6.4"]),
    v("s34", 34, "/coalescing?dtype=fp32&pattern=stride&stride=1&section=128", &["s6.5"]),
    v("s36", 36, "/coalescing?dtype=fp32&pattern=column&rowlen=1024&section=128", &[]),
    // Part 3: tiling and the matmul mystery (slides 39–45).
    v("s39", 39, "/tiling?n=256&tile=16&dtype=fp32&mode=tiled", &["n6.6-tiled16"]),
    v("s40", 40, "/tiling?n=256&tile=64&dtype=fp32&mode=tiled", &["n6.6-tiled64"]),
    v("s41", 41, "/quantization?n=257&tile=128&dtype=fp32&section=128", &[]),
    v("s42", 42, "/quantization?n=1025&tile=128&dtype=fp32&section=128", &["n6.6-q1025"]),
    v("s44", 44, "/quantization?n=1024&tile=128&dtype=fp32&section=128", &["n6.6-q1024"]),
    v("s45-1792", 45, "/waves?gpu=a100&n=1792&tm=256&tn=128&ref=1792", &["n7-1792"]),
    v("s45-1793", 45, "/waves?gpu=a100&n=1793&tm=256&tn=128&ref=1792", &["n7-1793", "s7-wave2"]),
    // Part 4: FlashAttention (slides 47–51).
    v("s47", 47, FLASH_PAPER, &["s-fa-gb", "n8.5-order"]),
    v("s48", 48, "/attention-memory?n=65536&d=128&dtype=bf16&stats=l", &["n8.1", "n8.5-65536"]),
    v("s49", 49, "/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=fwd&step=20&dtype=bf16&sram=228", &["n8.3-exact"]),
    v("s50", 50, "/online-softmax?x=1,3,2,5&block=2&step=2", &["n8.2"]),
    v("s51", 51, "/flash?n=64&d=64&bq=64&bk=32&causal=0&seed=1&pass=fwd&step=0&dtype=bf16&sram=228", &[]),
    v(
        "s51-bwd",
        51,
        "/flash?n=256&d=64&bq=32&bk=32&causal=1&seed=1&pass=bwd&step=0&dtype=bf16&sram=228",
        &["n8.4-exact"],
    ),
];

/// Slides of the digest with nothing a panel simulates (history, a fitted
/// scaling law, an overview, a recap): no view; the README lists them.
pub const SKIPPED: &[u32] = &[5, 6, 22, 46];

/// A key number of a part, computed at its end by the panel's simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sum {
    /// Row `row` of the lecture table of the topic `route` (`Topic::lecture`,
    /// computed on the topic's default values).
    Row { route: &'static str, row: usize },
    /// One attention head of length `n` (d = 128, bf16): the standard
    /// implementation's S and P against FlashAttention's statistics.
    Attention { n: u64 },
}

/// A part of the study path: its views (`first..=last` of [`VIEWS`]), the
/// topic whose practice bank asks its question, and its summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StudyPart {
    pub id: &'static str,
    pub first: usize,
    pub last: usize,
    pub practice: &'static str,
    pub summary: &'static [Sum],
}

impl StudyPart {
    /// Translation key of its heading.
    pub fn title_key(&self) -> String {
        format!("lecture.part.{}", self.id)
    }
    /// The question's seed: fixed per part, so a resumed study asks the same.
    pub fn seed(&self) -> u64 {
        PARTS.iter().position(|p| p.id == self.id).unwrap_or(0) as u64 * 7919 + 25
    }
}

pub static PARTS: &[StudyPart] = &[
    StudyPart {
        id: "gpu",
        first: 0,
        last: 8,
        practice: "threads",
        summary: &[Sum::Row { route: "hardware", row: 1 }, Sum::Row { route: "occupancy", row: 0 }],
    },
    StudyPart {
        id: "fast",
        first: 9,
        last: 20,
        practice: "roofline",
        summary: &[
            Sum::Row { route: "roofline", row: 0 },
            Sum::Row { route: "roofline", row: 3 },
            Sum::Row { route: "divergence", row: 0 },
            Sum::Row { route: "coalescing", row: 2 },
        ],
    },
    StudyPart {
        id: "tiling",
        first: 21,
        last: 27,
        practice: "waves",
        summary: &[
            Sum::Row { route: "tiling", row: 0 },
            Sum::Row { route: "tiling", row: 3 },
            Sum::Row { route: "quantization", row: 1 },
            Sum::Row { route: "waves", row: 1 },
        ],
    },
    StudyPart {
        id: "flash",
        first: 28,
        last: 33,
        practice: "online-softmax",
        summary: &[Sum::Attention { n: 4096 }, Sum::Attention { n: 65536 }],
    },
];

/// [`Sum::Attention`]'s figures: bytes of S and P (bf16) for one head of
/// length `n`, and FlashAttention's statistics (the row sums `l`).
pub fn attention_bytes(n: u64) -> (u64, u64) {
    use crate::sim::attention_memory::{flash_extra_bytes, standard_bytes};
    (standard_bytes(n, 2), flash_extra_bytes(n, false))
}

/// One stop of the study path: a view, or the check at the end of a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    View(usize),
    Check(usize),
}

/// Every stop, in order: each part's views, then its check.
pub fn stops() -> Vec<Stop> {
    PARTS
        .iter()
        .enumerate()
        .flat_map(|(p, part)| (part.first..=part.last).map(Stop::View).chain(std::iter::once(Stop::Check(p))))
        .collect()
}

/// The part a view belongs to.
pub fn part_of(view: usize) -> usize {
    PARTS.iter().position(|p| (p.first..=p.last).contains(&view)).unwrap_or(0)
}

/// A student's progress, as kept in local storage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The stop reached (index into [`stops`]).
    #[serde(default)]
    pub stop: usize,
    /// Each part's answer once revealed.
    #[serde(default)]
    pub answers: Vec<Answered>,
}

/// A part's question, answered: the grade code (`right`, `close`, `wrong`,
/// `none`) and what was given (a number or the index of a choice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    pub part: String,
    pub grade: String,
    #[serde(default)]
    pub number: Option<f64>,
    #[serde(default)]
    pub choice: Option<usize>,
}

impl Study {
    /// Kept inside the path (a stored value from an older deck is clamped).
    pub fn checked(mut self) -> Study {
        self.stop = self.stop.min(stops().len() - 1);
        self.answers.retain(|a| PARTS.iter().any(|x| x.id == a.part));
        self
    }
    pub fn answer(&self, part: &str) -> Option<&Answered> {
        self.answers.iter().find(|a| a.part == part)
    }
    pub fn answered(mut self, a: Answered) -> Study {
        self.answers.retain(|x| x.part != a.part);
        self.answers.push(a);
        self
    }
    /// Moved by `by` stops, inside the path.
    pub fn go(mut self, by: isize) -> Study {
        self.stop = (self.stop as isize + by).clamp(0, stops().len() as isize - 1) as usize;
        self
    }
    /// Anything to resume: a stop past the first or an answer.
    pub fn started(&self) -> bool {
        self.stop > 0 || !self.answers.is_empty()
    }
}

/// The built-in deck, its texts from `t` (a translation lookup).
pub fn deck(t: &dyn Fn(&str) -> String) -> Deck {
    Deck {
        title: t("lecture.deck.title"),
        views: VIEWS
            .iter()
            .map(|v| View { url: v.url.to_string(), title: t(&v.title_key()), note: t(&v.note_key()) })
            .collect(),
    }
}

/// The built-in deck in `lang`, if `deck` is the built-in deck untouched in a
/// language whose texts `text` has (what a presented deck shows after a
/// language switch); any other deck as it is.
pub fn localized(deck: Deck, lang: Lang, text: &dyn Fn(Lang, &str) -> Option<String>) -> Deck {
    let built = |l: Lang| -> Option<Deck> {
        let title = text(l, "lecture.deck.title")?;
        let mut views = Vec::with_capacity(VIEWS.len());
        for v in VIEWS {
            views.push(View { url: v.url.to_string(), title: text(l, &v.title_key())?, note: text(l, &v.note_key())? });
        }
        Some(Deck { title, views })
    };
    let builtin = [Lang::En, Lang::Zh].into_iter().any(|l| built(l).as_ref() == Some(&deck));
    match (builtin, built(lang)) {
        (true, Some(d)) => d,
        _ => deck,
    }
}

/// A URL's query (after `?`) as decoded pairs.
pub fn query_pairs(url: &str) -> Vec<(String, String)> {
    let Some((_, q)) = url.split_once('?') else { return Vec::new() };
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Percent-decoding (`+` stays a plus: the views write spaces as `%20`).
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(x) = hex {
                out.push(x);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How many notices a panel's parser raises for a route and query (`None`:
/// no such panel).
pub type Notices<'a> = &'a dyn Fn(&str, &[(String, String)]) -> Option<usize>;

/// Problems of the deck against the app: views whose route is not a panel,
/// whose query the panel corrects (`notices(route, query)` gives how many
/// notices the panel's parser raises, `None` for no such panel), or whose
/// note does not cite its slide in a language (`t(lang, key)`).
pub fn problems(notices: Notices, t: &dyn Fn(Lang, &str) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for v in VIEWS {
        match notices(v.route(), &v.query()) {
            None => out.push(format!("{}: {} is not a panel", v.id, v.url)),
            Some(0) => {}
            Some(n) => out.push(format!("{}: {} raises {n} notice(s)", v.id, v.url)),
        }
        let en = t(Lang::En, &v.note_key());
        let zh = t(Lang::Zh, &v.note_key());
        if !en.contains(&format!("Slide {}", v.slide)) && !en.contains(&format!("slide {}", v.slide)) {
            out.push(format!("{}: the English note does not cite slide {}", v.id, v.slide));
        }
        if !zh.contains(&format!("第{}页", v.slide)) {
            out.push(format!("{}: the Chinese note does not cite 第{}页", v.id, v.slide));
        }
        for (lang, s) in [("en", &en), ("zh", &zh)] {
            if s.chars().count() > crate::deck::MAX_TEXT {
                out.push(format!("{}: the {lang} note is longer than a deck keeps", v.id));
            }
        }
    }
    out
}

/// Texts of the lecture pages, its views and its study path.
#[rustfmt::skip]
pub static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("lecture.deck.title", "CS336 Lecture 5: GPUs", "CS336 第5讲：GPU"),
    ("lecture.title", "The lecture, slide by slide", "按幻灯片走完这一讲"),
    ("lecture.intro", "CS336 Lecture 5 as a path through the panels: one view per slide that a simulation can show, in the slides' order, each at the configuration the slide discusses. Present it with a clicker, or study it at your own pace.", "把 CS336 第5讲变成一条穿过各个面板的路径：凡是模拟能展示的幻灯片都有一个画面，按幻灯片顺序排列，每个画面都设成该页讨论的配置。可以用翻页笔放映，也可以按自己的节奏学习。"),
    ("lecture.present", "Present the lecture ▶", "放映这一讲 ▶"),
    ("lecture.present.title", "Present the built-in deck: PageDown (or a clicker) steps each panel to its end, then opens the next view", "放映内置序列：PageDown（或翻页笔）先把面板播放到最后，再打开下一个画面"),
    ("lecture.study", "Study the lecture", "学习这一讲"),
    ("lecture.study.title", "The same path at your own pace, with a question at the end of each part", "按自己的节奏走同一条路径，每部分结尾有一道题"),
    ("lecture.mine", "Make it mine", "改成我的序列"),
    ("lecture.mine.title", "Copy the lecture into your own deck (replaces it) to rename, annotate and reorder", "把这一讲复制到你自己的序列（会替换原有的），再改名、加备注、调整顺序"),
    ("lecture.mine.done", "Copied into your deck: {n} views.", "已复制到你的序列：{n} 个画面。"),
    ("lecture.outline", "The views", "画面列表"),
    ("lecture.slide", "Slide {n}", "第{n}页"),
    ("lecture.skipped", "Slides without a view: {slides} (the history of transistors and GPUs, the scaling-law fit, the overview of the tricks and the recap of part 2: nothing here simulates them).", "没有画面的幻灯片：{slides}（晶体管与 GPU 的历史、scaling law 的拟合、优化技巧总览和第二部分小结：这里没有模拟它们）。"),
    ("lecture.count", "{n} views", "{n} 个画面"),
    ("lecture.open", "Open", "打开"),
    ("lecture.continue", "Continue the lecture where you left off: {where} →", "从上次停下的地方继续学习：{where} →"),
    ("lecture.where.view", "{part}, view {k} of {n} (slide {slide})", "{part}，第 {k} / {n} 个画面（第{slide}页）"),
    ("lecture.where.check", "{part}, the question", "{part}，练习题"),
    ("lecture.part.gpu", "Part 1: How a GPU works", "第一部分：GPU 是怎么工作的"),
    ("lecture.part.fast", "Part 2: The roofline and the first tricks", "第二部分：Roofline 与前几个技巧"),
    ("lecture.part.tiling", "Part 3: Tiling and the matmul mystery", "第三部分：分块与矩阵乘法之谜"),
    ("lecture.part.flash", "Part 4: FlashAttention", "第四部分：FlashAttention"),
    ("lecture.study.heading", "Studying the lecture", "学习这一讲"),
    ("lecture.study.position", "Stop {k} of {n}", "第 {k} / {n} 站"),
    ("lecture.study.view", "View {k} of {n} in this part · slide {slide}", "本部分第 {k} / {n} 个画面 · 第{slide}页"),
    ("lecture.study.prev", "← Back", "← 上一步"),
    ("lecture.study.next", "Next →", "下一步 →"),
    ("lecture.study.open", "Explore this view on its panel", "在面板上探索这个画面"),
    ("lecture.study.frame", "The panel of this view", "这个画面的面板"),
    ("lecture.study.check", "End of {part}: check yourself", "{part} · 检验一下"),
    ("lecture.study.predict", "Predict first, then reveal: the panel below then shows the question's configuration.", "先预测，再揭晓：揭晓后下面的面板会显示这道题的配置。"),
    ("lecture.study.summary", "Key numbers of this part (computed now by the simulations)", "本部分的关键数字（由模拟现场算出）"),
    ("lecture.study.answered", "Your answer: {grade}", "你的回答：{grade}"),
    ("lecture.study.next-part", "On to the next part →", "进入下一部分 →"),
    ("lecture.study.done", "You have finished the lecture. Answers: {right} right, {close} close of {n}.", "这一讲学完了。回答：{n} 题中 {right} 题正确，{close} 题接近。"),
    ("lecture.study.restart", "Start again", "重新开始"),
    ("lecture.study.reveal-first", "Reveal the answer to go on.", "揭晓答案后才能继续。"),
    ("lecture.sum.row", "{label}: {cells}", "{label}：{cells}"),
    ("lecture.sum.attention", "One head, n = {n} (d = 128, bf16): S and P take {standard}; FlashAttention keeps {flash} of statistics", "单个注意力头，n = {n}（d = 128，bf16）：S 和 P 占 {standard}；FlashAttention 只存 {flash} 的统计量"),
    ("lecture.view.s2.title", "Why look inside a GPU", "为什么要看懂 GPU"),
    ("lecture.view.s2.note", "Slide 2: two goals. Know when and why a GPU is slow (the wiggles of the matmul curve) and how fast algorithms such as FlashAttention are designed.", "第2页：本课两个目标。弄懂 GPU 何时、为何变慢（矩阵乘法性能曲线的起伏：计算强度、分块、波量化），并学会设计 FlashAttention 这样的快算法。这里是 A100 上这条曲线的一个点。"),
    ("lecture.view.s7.title", "Compute scaled a thousandfold", "算力增长了上千倍"),
    ("lecture.view.s7.note", "Slide 7: chip compute grew over 1000× in ten years (number formats, instructions, process, sparsity). No LLM scaling without GPU scaling: compare the generations.", "第7页：单芯片算力十年增长超过 1000 倍，来自数值格式、复杂指令、制程和稀疏性。没有 GPU 的扩展就没有 LLM 的扩展。在这里比较各代 GPU 的峰值。"),
    ("lecture.view.s8.title", "CPU vs GPU: throughput", "CPU 与 GPU：吞吐量"),
    ("lecture.view.s8.note", "Slide 8: a CPU spends its area on control and cache to finish one task fast (latency); a GPU on ALUs, to finish many at once (throughput).", "第8页：CPU 把芯片面积花在控制逻辑和缓存上，让单个任务尽快完成（延迟）；GPU 把面积花在大量 ALU 上，让许多任务一起完成（吞吐量）。H100：大量 SM，极高峰值。"),
    ("lecture.view.s9.title", "SMs and SPs", "SM 与 SP"),
    ("lecture.view.s9.note", "Slide 9: a GPU is many streaming multiprocessors (SMs), each with many streaming processors and Tensor Cores. The A100 die has 128 SMs, of which 108 are enabled.", "第9页：GPU 由许多流式多处理器（SM）组成，每个 SM 含许多流处理器和 Tensor Core。A100 芯片有 128 个 SM，其中 108 个启用。"),
    ("lecture.view.s10.title", "The memory hierarchy", "内存层次"),
    ("lecture.view.s10.note", "Slide 10: the closer to the SM, the faster the memory: registers and shared memory inside the SM, L2 on the chip, HBM off it. Performance is mostly about memory.", "第10页：离 SM 越近，内存越快：寄存器和共享内存在 SM 内，L2 在芯片上，HBM 在芯片外。性能的关键主要在内存。"),
    ("lecture.view.s11.title", "Threads, blocks, warps", "线程、线程块、Warp"),
    ("lecture.view.s11.note", "Slide 11: threads run one instruction on different data (SIMT); a block runs on one SM; the SM schedules warps of 32 threads. Here 1000 elements, blocks of 256.", "第11页：线程对不同数据执行同一条指令（SIMT）；一个线程块在一个 SM 上运行；32 个线程组成的 Warp 是 SM 调度的单位。1000 个元素，每块 256 个线程。"),
    ("lecture.view.s12.title", "The memory model", "内存模型"),
    ("lecture.view.s12.note", "Slide 12: each thread has registers, a block shares its SM's shared memory, blocks meet only in global memory. What a block asks of an SM decides how many fit.", "第12页：每个线程有自己的寄存器，同一线程块共享所在 SM 的共享内存，块之间只能经全局内存通信。一个块占用多少寄存器和共享内存，决定了一个 SM 能同时容纳几个块。"),
    ("lecture.view.s13.title", "The TPU, next to the GPU", "TPU 与 GPU 对照"),
    ("lecture.view.s13.note", "Slide 13: a TPU is the same idea at a high level: light control, a big matrix unit (MXU), fast on-chip memory, HBM. Fewer, larger cores than the GPU's SMs, and no warps.", "第13页：从高层看 TPU 与 GPU 思路相同：轻量控制、大型矩阵乘法单元（MXU）、快速片上内存和 HBM。核心比 GPU 的 SM 少而大，也没有 Warp。"),
    ("lecture.view.s13-mxu.title", "The MXU: a systolic array", "MXU：脉动阵列"),
    ("lecture.view.s13-mxu.note", "Slide 13: the TPU's matrix unit is a systolic array. Each operand is read once and passed from cell to cell, used by a whole row or column. Step it cycle by cycle.", "第13页：TPU 的矩阵单元是脉动阵列。每个操作数只读一次，在单元之间传递，被整行或整列使用。逐周期播放看看。"),
    ("lecture.view.s17.title", "Matmul is privileged", "矩阵乘法是“特权运算”"),
    ("lecture.view.s17.note", "Slide 17: Tensor Cores make matmul more than ten times faster than other floating-point work. Compare this FP32 peak with the BF16 matmul peak: spend your FLOPs on matmuls.", "第17页：Tensor Core 让矩阵乘法比其他浮点运算快十倍以上。把这里的 FP32 峰值与 BF16 矩阵乘法峰值相比：让 FLOP 尽量花在矩阵乘法上。"),
    ("lecture.view.s18.title", "Compute outgrows memory", "算力增长快于内存"),
    ("lecture.view.s18.note", "Slide 18: hardware FLOPS grow faster every two years than DRAM bandwidth, and interconnect slower still. Modern GPUs wait for data more than they compute.", "第18页：每两年硬件 FLOPS 的增长快于 DRAM 带宽，互联带宽更慢。现代 GPU 更多是在等数据，而不是在计算。"),
    ("lecture.view.s20.title", "The matmul mystery", "矩阵乘法之谜"),
    ("lecture.view.s20.note", "Slide 20: the square-matmul curve is not monotone: it wiggles with compute intensity, tiling and wave quantization. By the end you can explain every wiggle. Move n and watch.", "第20页：方阵乘法的性能曲线并不单调，随计算强度、分块和波量化起伏。学完本课你能解释每一个起伏。拖动 n 看看。"),
    ("lecture.view.s21-relu.title", "Roofline: memory-bound", "Roofline：内存受限"),
    ("lecture.view.s21-relu.note", "Slide 21: at low operational intensity the roofline's diagonal rules: ReLU moves bytes and does almost no math, so it gets a tiny share of the peak.", "第21页：操作强度低时，受 roofline 的斜线部分限制：ReLU 搬运字节却几乎不做计算，只能拿到峰值的极小一部分。"),
    ("lecture.view.s21-matmul.title", "Roofline: compute-bound", "Roofline：计算受限"),
    ("lecture.view.s21-matmul.note", "Slide 21: a large dense matmul sits on the flat part of the roofline: enough FLOPs per byte that the compute units, not memory, set the pace.", "第21页：大型稠密矩阵乘法落在 roofline 的平坦部分：每字节的 FLOP 足够多，决定速度的是计算单元而不是内存。"),
    ("lecture.view.s23.title", "Trick 0: control divergence", "技巧 0：控制分歧"),
    ("lecture.view.s23.note", "Slide 23: if (threadIdx.x < 4) splits a warp. The two branches run one after the other while the other lanes wait, so half the warp is idle.", "第23页：if (threadIdx.x < 4) 让 Warp 分化，两个分支先后执行，另一半线程空等，Warp 一半时间闲置。"),
    ("lecture.view.s26.title", "Trick 1: low precision", "技巧 1：低精度"),
    ("lecture.view.s26.note", "Slide 26: fewer bits, fewer bytes to move. ReLU in FP32 moves 8 bytes per FLOP, in BF16 4: switch the dtype and the intensity doubles.", "第26页：比特越少，要搬运的字节越少。FP32 的 ReLU 每 FLOP 搬 8 字节，BF16 只要 4 字节：切换 dtype，看强度翻倍。Tensor Core 以 16 位相乘、FP32 累加。"),
    ("lecture.view.s28.title", "Trick 2: operator fusion", "技巧 2：算子融合"),
    ("lecture.view.s28.note", "Slide 28: the factory and the warehouse. sin²x + cos²x as five kernels goes back to memory after every step; fused, it reads once and writes once.", "第28页：工厂与仓库的比喻。把 sin²x + cos²x 写成 5 个 kernel，每一步都要回内存；融合后只读一次、写一次。"),
    ("lecture.view.s32.title", "Trick 3: store the activations", "技巧 3：存储激活值"),
    ("lecture.view.s32.note", "Slide 32: three sigmoids, done naively. The forward pass writes every activation to global memory and the backward pass reads them back: count the accesses.", "第32页：朴素实现的三层 sigmoid。前向把每个激活值写入全局内存，反向再读回来：数一数访存次数。"),
    ("lecture.view.s33.title", "Trick 3: recompute them", "技巧 3：重计算"),
    ("lecture.view.s33.note", "Slide 33: recompute the activations in the backward pass instead of storing them: spare FLOPs buy scarce bandwidth. Here counting the upstream gradient too, as the notes do.", "第33页：反向传播时重新计算激活值而不是存下来：用富余的计算换稀缺的带宽。这里像讲义那样把上游梯度也算在内。"),
    ("lecture.view.s34.title", "Trick 4: burst mode", "技巧 4：突发传输"),
    ("lecture.view.s34.note", "Slide 34: DRAM returns a whole burst section for any address in it. When a warp's 32 addresses fall in one section, one request serves them all.", "第34页：访问任一地址时，DRAM 返回它所在的整个 burst section。一个 Warp 的 32 个地址落在同一 section 时，一次请求就能满足所有线程。"),
    ("lecture.view.s36.title", "Trick 4: coalescing in a matmul", "技巧 4：矩阵乘法中的合并访问"),
    ("lecture.view.s36.note", "Slide 36: in a row-major matrix, threads that each take a different row of one column are a row apart: one burst each. Walk along the row to coalesce.", "第36页：行主序矩阵中，若每个线程取同一列的不同行，相邻线程地址相隔一整行：每个线程一次 burst。把访问模式切换为按行即可合并。"),
    ("lecture.view.s39.title", "Trick 5: tiling", "技巧 5：分块"),
    ("lecture.view.s39.note", "Slide 39: load a tile of each input into shared memory, do all the work it allows there, then load the next: global memory is read far less often. Step through the tiles.", "第39页：把每个输入的一块载入共享内存，在那里做完能做的计算，再载入下一块：全局内存读取大大减少。逐块播放看看。"),
    ("lecture.view.s40.title", "Tiling: reads fall by T", "分块：读取减少 T 倍"),
    ("lecture.view.s40.note", "Slide 40: without tiles each input is read N times, with tiles N/T times. A bigger tile (limited by shared memory) means fewer reads and a higher intensity.", "第40页：不分块时每个输入读 N 次，分块后读 N/T 次。tile 越大（受共享内存限制），读取越少、强度越高。"),
    ("lecture.view.s41.title", "Tiles that do not divide", "不能整除的 tile"),
    ("lecture.view.s41.note", "Slide 41: 257 is not a multiple of 128. The last row and column of tiles hold almost nothing, yet cost as much as full ones.", "第41页：257 不是 128 的倍数。最后一行、一列 tile 几乎是空的，却和满 tile 一样占资源。"),
    ("lecture.view.s42.title", "Alignment", "内存对齐"),
    ("lecture.view.s42.note", "Slide 42: when rows do not start on a burst boundary, a tile's load that one burst could serve takes two. Odd sizes lose both ways.", "第42页：若每行不是从 burst 边界开始，本来一次 burst 能载入的 tile 需要两次。奇数尺寸两头吃亏。"),
    ("lecture.view.s44.title", "Divisibility colours the curve", "可整除性决定曲线"),
    ("lecture.view.s44.note", "Slide 44: sizes divisible by 128 are fastest, then by 32, and prime sizes slowest. Pad dimensions to a multiple of 64 (nanoGPT's vocabulary: 50257 → 50304).", "第44页：能被 128 整除的尺寸最快，其次是 32，质数最慢。把维度补到 64 的倍数（nanoGPT 的词表：50257 → 50304）。"),
    ("lecture.view.s45-1792.title", "Wave quantization: one wave", "波量化：一波"),
    ("lecture.view.s45-1792.note", "Slide 45: n = 1792 in 256 × 128 tiles gives fewer tiles than the A100 has SMs: one wave, nearly every SM busy.", "第45页：n = 1792、256 × 128 的 tile，tile 数少于 A100 的 SM 数：一波完成，几乎所有 SM 都在忙。"),
    ("lecture.view.s45-1793.title", "Wave quantization: two waves", "波量化：两波"),
    ("lecture.view.s45-1793.note", "Slide 45: one more row and column, n = 1793, and the tiles overflow the SMs: a second wave runs a handful of tiles while most SMs idle. The time doubles for the same work.", "第45页：只多一行一列，n = 1793，tile 就超过 SM 数：第二波只跑少数 tile，大多数 SM 空闲。同样的工作，时间翻倍。"),
    ("lecture.view.s47.title", "FlashAttention: the result", "FlashAttention：结果"),
    ("lecture.view.s47.note", "Slide 47: FlashAttention moves far less HBM traffic than standard attention and runs several times faster. Here the paper's configuration, modelled.", "第47页：FlashAttention 的 HBM 读写远少于标准 attention（论文：40.3 GB 对 4.4 GB），速度快好几倍。这里用模型重现论文的配置。"),
    ("lecture.view.s48.title", "Attention's n × n matrix", "Attention 的 n × n 矩阵"),
    ("lecture.view.s48.note", "Slide 48: softmax(QKᵀ/√d)V. The matmuls tile easily; the n × n scores and probabilities are the problem: at long sequences they dwarf everything else.", "第48页：softmax(QKᵀ/√d)V。矩阵乘法很容易分块；麻烦在 n × n 的分数和概率矩阵：序列一长，它们远超其他一切。"),
    ("lecture.view.s49.title", "FlashAttention's tiles", "FlashAttention 的分块"),
    ("lecture.view.s49.note", "Slide 49: blocks of K and V are copied into SRAM, blocks of Q stream through, the output goes to HBM. Step the tiles: the result equals standard attention.", "第49页：K 和 V 的块被复制到 SRAM，Q 的块依次流过，输出写回 HBM。逐块播放：结果与标准 attention 相同。"),
    ("lecture.view.s50.title", "Online softmax", "Online softmax"),
    ("lecture.view.s50.note", "Slide 50: keep a running max and a running sum, rescaled whenever the max grows: softmax in one pass, tile by tile, exactly.", "第50页：维护运行最大值和运行求和，最大值变大时按比例修正：一次遍历、逐块地精确算出 softmax。"),
    ("lecture.view.s51.title", "The forward pass, tile by tile", "逐块的前向传播"),
    ("lecture.view.s51.note", "Slide 51: S(1) = Q K(1)ᵀ, then S(2) = Q K(2)ᵀ; the softmax of each is corrected as the max changes, and the output is exact. One query block, two key blocks.", "第51页：先算 S(1) = Q K(1)ᵀ，再算 S(2) = Q K(2)ᵀ；随最大值变化修正各自的 softmax，输出是精确的。一个 query 块，两个 key 块。"),
    ("lecture.view.s51-bwd.title", "Tiling + fusion + online softmax + recomputation", "分块 + 融合 + online softmax + 重计算"),
    ("lecture.view.s51-bwd.note", "Slide 51: FlashAttention is every trick together. The backward pass never stores the n × n matrix: it recomputes it tile by tile, and the gradients still match.", "第51页：FlashAttention 是所有技巧的组合。反向传播从不存储 n × n 矩阵，而是逐块重算，梯度依然一致。"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_follow_the_slides() {
        assert!(VIEWS.len() >= 25);
        assert!(VIEWS.windows(2).all(|w| w[0].slide <= w[1].slide), "in the slides' order");
        for (i, v) in VIEWS.iter().enumerate() {
            assert!(VIEWS[..i].iter().all(|u| u.id != v.id), "{} repeated", v.id);
            assert!(!SKIPPED.contains(&v.slide));
        }
        assert!(VIEWS.len() <= crate::deck::MAX_VIEWS);
    }

    #[test]
    fn parts_cover_every_view_once() {
        let mut next = 0;
        for p in PARTS {
            assert_eq!(p.first, next, "{}", p.id);
            assert!(p.last >= p.first);
            next = p.last + 1;
        }
        assert_eq!(next, VIEWS.len());
        assert_eq!(stops().len(), VIEWS.len() + PARTS.len());
        assert_eq!(stops().last(), Some(&Stop::Check(PARTS.len() - 1)));
        assert_eq!(part_of(0), 0);
        assert_eq!(part_of(VIEWS.len() - 1), PARTS.len() - 1);
    }

    #[test]
    fn queries_decode() {
        let v = VIEWS.iter().find(|v| v.id == "s28").unwrap();
        assert_eq!(v.route(), "fusion");
        assert!(v.query().contains(&("expr".to_string(), "sin(x)^2 + cos(x)^2".to_string())));
        let d = VIEWS.iter().find(|v| v.id == "s23").unwrap();
        assert!(d.query().contains(&("cond".to_string(), "tid<4".to_string())));
        assert_eq!(query_pairs("/waves"), vec![]);
        assert_eq!(decode("a%2"), "a%2");
    }

    #[test]
    fn study_progress_stays_inside_the_path() {
        let a = |part: &str, grade: &str| Answered {
            part: part.into(),
            grade: grade.into(),
            number: Some(1.5),
            choice: None,
        };
        let s = Study { stop: 9999, answers: vec![a("nope", "right")] }.checked();
        assert_eq!(s.stop, stops().len() - 1);
        assert!(s.answers.is_empty());
        let s = Study::default().go(-3);
        assert_eq!(s.stop, 0);
        assert!(!s.started());
        let s = s.go(2).answered(a("gpu", "close")).answered(a("gpu", "right"));
        assert_eq!(s.stop, 2);
        assert!(s.started());
        assert_eq!(s.answer("gpu").map(|a| a.grade.as_str()), Some("right"));
        assert_eq!(s.answers.len(), 1);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Study>(&json).unwrap(), s);
        assert_eq!(serde_json::from_str::<Study>("{}").unwrap(), Study::default());
        let seeds: Vec<u64> = PARTS.iter().map(|p| p.seed()).collect();
        assert!(seeds.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn the_deck_localizes_only_when_untouched() {
        let text = |l: Lang, k: &str| {
            STRINGS.iter().find(|e| e.0 == k).map(|e| if l == Lang::En { e.1.to_string() } else { e.2.to_string() })
        };
        let en = deck(&|k| text(Lang::En, k).unwrap());
        let zh = deck(&|k| text(Lang::Zh, k).unwrap());
        assert_eq!(en.views.len(), VIEWS.len());
        assert_eq!(localized(en.clone(), Lang::Zh, &text), zh);
        assert_eq!(localized(zh.clone(), Lang::En, &text), en);
        let mut mine = en.clone();
        mine.views[0].note = "my own words".into();
        assert_eq!(localized(mine.clone(), Lang::Zh, &text), mine);
        // Without the other language's texts, the deck stays as it is.
        assert_eq!(localized(en.clone(), Lang::Zh, &|l, k| (l == Lang::En).then(|| text(l, k)).flatten()), en);
    }
}
