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
    ("landing.part.gpu", "Part 1: How a GPU works", "第一部分：GPU 是怎么工作的"),
    ("landing.part.fast", "Part 2: Making ML workloads fast on GPUs", "第二部分：让 ML 负载在 GPU 上跑得快"),
    // Threads panel
    ("topic.threads.title", "Threads, blocks, warps", "线程、线程块与 warp"),
    ("topic.threads.summary", "Every thread finds its element by i = blockIdx × blockDim + threadIdx; the last block is padded, so some threads must do nothing.", "每个线程用 i = blockIdx × blockDim + threadIdx 找到自己的元素；最后一个块被补齐，所以有些线程什么也不做。"),
    ("param.n", "Elements n", "元素个数 n"),
    ("param.n.doc", "How many elements the kernel processes", "核函数要处理的元素个数"),
    ("param.block", "Threads per block", "每块线程数"),
    ("param.block.doc", "blockDim: threads in one block (at most 1024)", "blockDim：一个线程块中的线程数（最多 1024）"),
    ("param.thread", "Selected thread", "选中的线程"),
    ("param.thread.doc", "Global thread number to inspect", "要查看的线程（全局编号）"),
    ("threads.formula", "i = blockIdx × blockDim + threadIdx = {b} × {d} + {t} = {i}", "i = blockIdx × blockDim + threadIdx = {b} × {d} + {t} = {i}"),
    ("threads.active", "{i} < n = {n}: this thread processes element {i}.", "{i} < n = {n}：该线程处理第 {i} 个元素。"),
    ("threads.idle", "{i} ≥ n = {n}: the guard if (i < n) is false; this thread does nothing.", "{i} ≥ n = {n}：边界检查 if (i < n) 不成立，该线程什么也不做。"),
    ("threads.where", "block {b}, warp {w} (lane {l})", "第 {b} 块，第 {w} 个 warp（lane {l}）"),
    ("threads.explain", "The grid has ceil(n / blockDim) blocks, so the last block is padded up to a whole block: those threads exist and are scheduled, but fail the bounds check. Inside a block, every 32 consecutive threads form a warp, the unit the hardware actually schedules; a block size that is not a multiple of 32 leaves part of its last warp empty.", "网格有 ceil(n / blockDim) 个块，最后一块被补成完整的块：多出的线程照样存在、照样被调度，只是过不了边界检查。块内每 32 个连续线程组成一个 warp，这是硬件真正调度的单位；块大小不是 32 的倍数时，最后一个 warp 有一部分是空的。"),
    ("threads.lecture", "Lecture check (notes §3.1): n = 1000, 256 threads per block → 4 blocks, 1024 threads, 24 idle.", "讲义对照（§3.1）：n = 1000、每块 256 线程 → 4 个块、1024 个线程、24 个空闲。"),
    ("threads.preset", "n = 1000, 256 threads per block", "n = 1000，每块 256 线程"),
    ("threads.more-blocks", "… {n} more blocks …", "……另有 {n} 个块……"),
    ("threads.legend.active", "thread with an element", "有元素可处理的线程"),
    ("threads.legend.idle", "idle thread (i ≥ n)", "空闲线程（i ≥ n）"),
    ("threads.legend.selected", "selected thread", "选中的线程"),
    ("metric.blocks", "Blocks", "线程块数"),
    ("metric.threads", "Threads launched", "启动的线程数"),
    ("metric.idle-threads", "Idle threads", "空闲线程数"),
    ("metric.warps", "Warps", "warp 数"),
    // Divergence panel
    ("topic.divergence.title", "Warp divergence", "分支发散"),
    ("topic.divergence.summary", "The 32 lanes of a warp share one instruction stream: when they disagree on a branch, the warp runs both sides, one after the other.", "一个 warp 的 32 个线程共用一条指令流：它们在分支上意见不一时，warp 只能先后执行两边。"),
    ("param.warps", "Warps", "warp 数"),
    ("param.warps.doc", "Warps of 32 threads (tid = 32 × warp + lane)", "每个 warp 32 个线程（tid = 32 × warp + lane）"),
    ("param.cond", "Branch condition", "分支条件"),
    ("param.cond.doc", "Over tid, warp, lane: integers, + − * / %, == != < <= > >=, && || !, parentheses", "变量 tid、warp、lane；整数、+ − * / %、== != < <= > >=、&& || !、括号"),
    ("param.then", "if-branch steps", "if 分支步数"),
    ("param.else", "else-branch steps", "else 分支步数"),
    ("param.after", "Common steps after", "之后的公共步数"),
    ("param.step", "Step", "步"),
    ("divergence.presets", "Lecture conditions", "讲义中的条件"),
    ("divergence.apply", "Apply", "应用"),
    ("divergence.error", "Condition error: {msg}", "条件有误：{msg}"),
    ("divergence.div-zero", "Division by zero for thread tid = {tid}.", "线程 tid = {tid} 出现除以零。"),
    ("divergence.current", "Step {t}: warp {w} runs its {part} instruction {s}: {n} of 32 lanes active", "第 {t} 步：warp {w} 执行 {part} 的第 {s} 条指令：32 个 lane 中 {n} 个活跃"),
    ("divergence.part.then", "if-branch", "if 分支"),
    ("divergence.part.else", "else-branch", "else 分支"),
    ("divergence.part.after", "common code", "公共代码"),
    ("divergence.start", "Step 0: nothing issued yet", "第 0 步：尚未发射指令"),
    ("divergence.explain", "One scheduler issues one warp-instruction per step, the warps taking turns. A warp whose lanes all agree runs only the branch they take; a divergent warp runs the if-branch with the else-lanes masked off, then the else-branch with the if-lanes masked off.", "一个调度器每步发射一条 warp 指令，各 warp 轮流。lane 意见一致的 warp 只执行它们走的分支；发散的 warp 先执行 if 分支（else 的 lane 被屏蔽），再执行 else 分支（if 的 lane 被屏蔽）。"),
    ("divergence.why", "Why two utilizations? The notes' figure averages, over warps, the steps a warp would need if its lanes were independent ÷ the steps it takes (a warp counts the same whether 4 or 16 of its lanes wait). SIMT efficiency, as Nsight Compute reports it, counts lane-slots: active lanes ÷ 32 × instructions issued. With tid < 100 only warp 3 diverges, and only 4 of its lanes take the if-branch: 88 % by warps, 80 % by lanes.", "为什么有两个利用率？讲义的数字按 warp 平均：lane 各自独立时所需步数 ÷ 实际步数（不论 warp 里是 4 个还是 16 个 lane 在等，都按一个 warp 算）。Nsight Compute 报告的 SIMT 效率按 lane 计：活跃 lane 数 ÷（32 × 发射的指令数）。tid < 100 时只有 warp 3 发散，其中只有 4 个 lane 走 if 分支：按 warp 算 88%，按 lane 算 80%。"),
    ("divergence.lecture", "Lecture check (notes §6.1, 4 warps, 10 + 10 steps): tid%2==0 → 80 steps, 50 %; (tid/32)%2==0 → 40, 100 %; tid<100 → 50, 88 %.", "讲义对照（§6.1，4 个 warp，两个分支各 10 步）：tid%2==0 → 80 步、50%；(tid/32)%2==0 → 40 步、100%；tid<100 → 50 步、88%。"),
    ("divergence.legend.then", "if-branch", "if 分支"),
    ("divergence.legend.else", "else-branch", "else 分支"),
    ("divergence.legend.after", "common code", "公共代码"),
    ("divergence.legend.masked", "masked lane", "被屏蔽的 lane"),
    ("metric.step", "Step", "步"),
    ("metric.total-steps", "Total steps", "总步数"),
    ("metric.warp-utilization", "Utilization (by warp)", "利用率（按 warp）"),
    ("metric.warp-utilization.doc", "Mean over warps of ideal ÷ actual steps (the notes' table)", "各 warp 的 理想步数 ÷ 实际步数 的平均（讲义中的表）"),
    ("metric.simt-efficiency", "SIMT efficiency (by lane)", "SIMT 效率（按 lane）"),
    ("metric.simt-efficiency.doc", "Active lane-slots ÷ all lane-slots issued (Nsight Compute's warp execution efficiency)", "活跃 lane·步 ÷ 全部 lane·步（Nsight Compute 的 warp 执行效率）"),
    // Coalescing panel
    ("topic.coalescing.title", "Memory coalescing", "合并访存"),
    ("topic.coalescing.summary", "DRAM is read in aligned bursts: a warp whose 32 addresses fall in one burst section costs one transaction; scattered addresses cost up to 32.", "DRAM 按对齐的突发段读取：一个 warp 的 32 个地址落在同一段里只需一次事务；地址分散时最多要 32 次。"),
    ("param.dtype", "Data type", "数据类型"),
    ("param.pattern", "Access pattern", "访问模式"),
    ("param.stride", "Stride (elements)", "步长（元素）"),
    ("param.stride.doc", "Lane t reads x[offset + t × stride]", "第 t 个 lane 读 x[offset + t × stride]"),
    ("param.offset", "Offset (elements)", "偏移（元素）"),
    ("param.offset.doc", "Start of the access; not a multiple of the section means misaligned", "访问起点；不是段大小的整数倍就是未对齐"),
    ("param.rowlen", "Row length (elements)", "行长（元素）"),
    ("param.rowlen.doc", "Row length of the row-major matrix for row / column reads", "按行存储矩阵的行长（用于按行 / 按列读取）"),
    ("param.section", "Burst section (bytes)", "突发段（字节）"),
    ("choice.dtype.fp64", "fp64 (8 B)", "fp64（8 字节）"),
    ("choice.dtype.fp32", "fp32 (4 B)", "fp32（4 字节）"),
    ("choice.dtype.bf16", "bf16 (2 B)", "bf16（2 字节）"),
    ("choice.dtype.fp16", "fp16 (2 B)", "fp16（2 字节）"),
    ("choice.dtype.fp8", "fp8 (1 B)", "fp8（1 字节）"),
    ("choice.pattern.stride", "x[t × stride]", "x[t × stride]"),
    ("choice.pattern.row", "Along a row", "沿一行"),
    ("choice.pattern.column", "Down a column", "沿一列"),
    ("choice.pattern.random", "Random", "随机"),
    ("choice.section.32", "32 B", "32 字节"),
    ("choice.section.64", "64 B", "64 字节"),
    ("choice.section.128", "128 B", "128 字节"),
    ("coalescing.lanes", "The 32 lanes of one warp", "一个 warp 的 32 个 lane"),
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
    ("metric.useful-fraction", "Useful bytes", "有效字节占比"),
    ("metric.useful-fraction.doc", "Bytes the lanes asked for ÷ bytes moved", "lane 请求的字节 ÷ 实际搬运的字节"),
    ("metric.bytes-moved", "Bytes moved", "搬运字节数"),
    // Occupancy panel
    ("topic.occupancy.title", "Occupancy", "占用率"),
    ("topic.occupancy.summary", "How many warps can live on one SM at once, and which resource (registers, shared memory, warp or block slots) runs out first.", "一个 SM 同时能驻留多少个 warp，以及哪种资源（寄存器、共享内存、warp 或块的名额）最先用完。"),
    ("param.arch", "GPU", "GPU"),
    ("param.threads", "Threads per block", "每块线程数"),
    ("param.regs", "Registers per thread", "每线程寄存器数"),
    ("param.regs.doc", "At most 255; allocated per warp in units of 256", "最多 255；按 warp 以 256 为单位分配"),
    ("param.smem", "Shared memory per block (bytes)", "每块共享内存（字节）"),
    ("param.smem.doc", "Allocated in 128-byte units, plus 1 KB reserved by the system per block", "以 128 字节为单位分配，另加系统为每块保留的 1 KB"),
    ("choice.arch.sm80", "A100 (sm_80)", "A100（sm_80）"),
    ("choice.arch.sm90", "H100 / H200 (sm_90)", "H100 / H200（sm_90）"),
    ("choice.arch.sm100", "B200 (sm_100)", "B200（sm_100）"),
    ("occupancy.sm", "One SM's 64 warp slots (one colour per resident block)", "一个 SM 的 64 个 warp 槽位（每个驻留块一种颜色）"),
    ("occupancy.limits", "Blocks per SM allowed by each resource", "各资源允许的每 SM 块数"),
    ("occupancy.limit.warps", "Warp slots: {n}", "warp 槽位：{n}"),
    ("occupancy.limit.blocks", "Block slots: {n}", "块槽位：{n}"),
    ("occupancy.limit.registers", "Registers: {n}", "寄存器：{n}"),
    ("occupancy.limit.shared-memory", "Shared memory: {n}", "共享内存：{n}"),
    ("occupancy.detail", "{w} warps per block · {r} registers per warp (allocated) · {s} bytes of shared memory per block (allocated)", "每块 {w} 个 warp · 每 warp 分配 {r} 个寄存器 · 每块分配 {s} 字节共享内存"),
    ("occupancy.axis.smem-kb", "Shared memory per block (KB)", "每块共享内存（KB）"),
    ("occupancy.chart.threads", "Occupancy against threads per block", "占用率随每块线程数的变化"),
    ("occupancy.chart.regs", "Occupancy against registers per thread", "占用率随每线程寄存器数的变化"),
    ("occupancy.chart.smem", "Occupancy against shared memory per block (KB)", "占用率随每块共享内存（KB）的变化"),
    ("occupancy.explain", "Resident warps let the SM hide memory latency: while one warp waits for memory, another runs. Each block needs its warps, registers and shared memory for its whole life, so the scarcest resource decides how many blocks fit. Low occupancy is not always slow: a kernel whose threads each do a lot of work (thread coarsening) or reuse data well can run fast with few warps.", "驻留的 warp 让 SM 能掩盖内存延迟：一个 warp 等内存时，另一个 warp 可以执行。每个块在整个生命周期内都占着自己的 warp、寄存器和共享内存，所以最紧缺的资源决定能放下几个块。占用率低不一定慢：每个线程做很多工作（线程粗化）或数据复用很好的核函数，warp 少也能跑得很快。"),
    ("occupancy.lecture", "Lecture check (notes §6.7, H100): 256 threads × 32 registers → 100 %; 256 × 64 → 50 %; 128 × 160 → 19 %.", "讲义对照（§6.7，H100）：256 线程 × 32 寄存器 → 100%；256 × 64 → 50%；128 × 160 → 19%。"),
    ("occupancy.presets", "Lecture cases", "讲义示例"),
    ("occupancy.preset.256x32", "256 threads × 32 registers", "256 线程 × 32 寄存器"),
    ("occupancy.preset.256x64", "256 threads × 64 registers", "256 线程 × 64 寄存器"),
    ("occupancy.preset.128x160", "128 threads × 160 registers", "128 线程 × 160 寄存器"),
    ("metric.occupancy", "Occupancy", "占用率"),
    ("metric.occupancy.doc", "Resident warps ÷ the SM's maximum (64)", "驻留 warp 数 ÷ SM 上限（64）"),
    ("metric.blocks-per-sm", "Blocks per SM", "每 SM 块数"),
    ("metric.active-warps", "Resident warps", "驻留 warp 数"),
    ("metric.limiter", "Limited by", "瓶颈资源"),
    ("word.warps", "warp slots", "warp 槽位"),
    ("word.blocks", "block slots", "块槽位"),
    ("word.registers", "registers", "寄存器"),
    ("word.shared-memory", "shared memory", "共享内存"),
    ("landing.part.flash", "Part 3: Putting it together, FlashAttention", "第三部分：把一切组合起来——FlashAttention"),
    // Online softmax
    ("topic.online-softmax.title", "Online softmax", "在线 softmax"),
    ("topic.online-softmax.summary", "One pass for the maximum and the sum: keep a running maximum, and rescale the running sum whenever the maximum grows.", "一趟同时求最大值和指数和：维护运行中的最大值，最大值变大时给累加和换基准。"),
    ("param.x", "Input vector x", "输入向量 x"),
    ("param.x.doc", "Comma-separated numbers (at most 4096)", "逗号分隔的数（最多 4096 个）"),
    ("softmax.random", "Random vector", "随机向量"),
    ("softmax.vector-error", "Vector error: {msg}", "向量有误：{msg}"),
    ("softmax.table.block", "Block", "块"),
    ("softmax.table.values", "Values", "数值"),
    ("softmax.table.bmax", "Block max", "块内最大值"),
    ("softmax.table.m", "m (running max)", "m（运行最大值）"),
    ("softmax.table.rescale", "e^(m − m′) on old ℓ", "旧 ℓ 乘以 e^(m − m′)"),
    ("softmax.table.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("softmax.probs", "Probabilities p = e^(x − m) / ℓ", "概率 p = e^(x − m) / ℓ"),
    ("softmax.probs-wait", "The probabilities appear once every block is processed.", "处理完所有块后显示概率。"),
    ("softmax.passes", "Passes over x in memory", "对内存中 x 的扫描次数"),
    ("softmax.passes.three", "Three-pass softmax: read x for the max, read x for the sum, read x to normalise: 3 reads.", "三趟 softmax：读 x 求最大值、读 x 求和、读 x 归一化：3 次读取。"),
    ("softmax.passes.online", "Online softmax: read x once for m and ℓ together; the normalising read is the only other one, and inside FlashAttention it is folded into the output O, so x (the scores S) is read once.", "在线 softmax：读一次 x 同时得到 m 和 ℓ；另外只剩归一化那一次读取，而在 FlashAttention 中它被并入输出 O，所以 x（即分数 S）只读一次。"),
    ("softmax.explain", "When a block raises the maximum from m to m′, every term already in ℓ was e^(x − m); multiplying ℓ by e^(m − m′) turns each into e^(x − m′), the new base (the telescoping of the notes). The final m and ℓ are exactly the three-pass ones.", "当某一块把最大值从 m 提高到 m′ 时，ℓ 中已有的每一项都是 e^(x − m)；把 ℓ 乘以 e^(m − m′)，每一项就变成以新基准表示的 e^(x − m′)（讲义所说的“伸缩求和”）。最终的 m 和 ℓ 与三趟算法完全相同。"),
    ("softmax.lecture", "Lecture check (notes §8.2): the online result equals softmax; the notes' demo measures 5 × 10⁻¹⁰ against torch.softmax in float32. Computed here in float64, the difference is at the level of 10⁻¹⁶.", "讲义对照（§8.2）：在线算法与 softmax 一致；讲义的演示用 float32 与 torch.softmax 比较，差 5 × 10⁻¹⁰。这里用 float64 计算，差异在 10⁻¹⁶ 量级。"),
    ("metric.m", "m (running max)", "m（运行最大值）"),
    ("metric.l", "ℓ (running sum)", "ℓ（运行指数和）"),
    ("metric.online-softmax.max-abs-error", "Max |p − softmax(x)|", "最大 |p − softmax(x)|"),
    ("metric.online-softmax.max-abs-error.doc", "Online result against the three-pass softmax", "在线算法与三趟 softmax 之差"),
    ("metric.flash.max-abs-error", "Max |O − naive|", "最大 |O − 朴素|"),
    ("metric.flash.max-abs-error.doc", "Flash output against naive attention (n ≤ 1024)", "Flash 输出与朴素注意力之差（n ≤ 1024）"),
    // FlashAttention
    ("topic.flash.title", "FlashAttention, forward and backward", "FlashAttention 前向与反向"),
    ("topic.flash.summary", "Tiling, online softmax, fusion and recomputation: the n × n matrices S and P never reach HBM, and the result is exact.", "分块、在线 softmax、融合与重计算：n × n 的 S 和 P 从不写回显存，结果是精确的。"),
    ("param.d", "Head dimension d", "头维度 d"),
    ("param.bq", "Query block bq", "query 块大小 bq"),
    ("param.bk", "Key block bk", "key 块大小 bk"),
    ("param.causal", "Mask", "掩码"),
    ("param.pass", "Pass", "阶段"),
    ("param.sram", "SRAM per thread block (KB)", "每线程块 SRAM（KB）"),
    ("param.sram.doc", "Shared memory one thread block may use; H100: 228 KB per SM", "一个线程块可用的共享内存；H100 每 SM 228 KB"),
    ("choice.causal.0", "None", "无"),
    ("choice.causal.1", "Causal", "因果"),
    ("choice.pass.fwd", "Forward", "前向"),
    ("choice.pass.bwd", "Backward", "反向"),
    ("flash.grid", "Tiles of S: query blocks i (rows) × key blocks j (columns)", "S 的分块：query 块 i（行）× key 块 j（列）"),
    ("flash.legend.done", "computed", "已计算"),
    ("flash.legend.current", "this step", "本步"),
    ("flash.legend.pending", "to do", "待计算"),
    ("flash.legend.skipped", "skipped (causal mask)", "跳过（因果掩码）"),
    ("flash.start", "Step 0: no tile computed yet", "第 0 步：尚未计算任何分块"),
    ("flash.current.fwd", "Step {t}: query block {i} × key block {j}: S = QᵢKⱼᵀ/√d in SRAM, update m, ℓ, O", "第 {t} 步：query 块 {i} × key 块 {j}：在 SRAM 中算 S = QᵢKⱼᵀ/√d，更新 m、ℓ、O"),
    ("flash.current.bwd", "Step {t}: key block {j} × query block {i}: recompute P = e^(S − L), add to dVⱼ, dKⱼ and dQᵢ", "第 {t} 步：key 块 {j} × query 块 {i}：重算 P = e^(S − L)，累加到 dVⱼ、dKⱼ 和 dQᵢ"),
    ("flash.rows", "Query block {i}, first rows, after this tile", "query 块 {i} 的前几行（本分块之后）"),
    ("flash.row", "Row", "行"),
    ("flash.final", "At the end: O = O / ℓ, L = m + log ℓ (kept for the backward pass)", "最后：O = O / ℓ，L = m + log ℓ（留给反向）"),
    ("flash.bwd-note", "D = rowsum(dO ∘ O) is computed once per row; P is recomputed from L tile by tile, never stored.", "D = rowsum(dO ∘ O) 每行只算一次；P 由 L 逐块重算，从不存储。"),
    ("flash.ledger", "HBM traffic of this pass", "本阶段的显存（HBM）流量"),
    ("flash.ledger.standard", "Standard attention (S and P written and read)", "标准注意力（写入并读出 S 和 P）"),
    ("flash.ledger.flash", "FlashAttention", "FlashAttention"),
    ("flash.ledger.saving", "{x}× less traffic", "流量减少为 1/{x}"),
    ("flash.sram", "SRAM working set (Qᵢ, Kⱼ, Vⱼ, the S tile, Oᵢ, m, ℓ): {used} of {have}", "SRAM 工作集（Qᵢ、Kⱼ、Vⱼ、S 分块、Oᵢ、m、ℓ）：{used} / {have}"),
    ("flash.sram.fits", "fits", "放得下"),
    ("flash.sram.too-big", "does not fit: use smaller blocks", "放不下：请用更小的块"),
    ("flash.recompute", "Recomputation: {flops} FLOPs to rebuild S and P, instead of storing P ({bytes})", "重计算：用 {flops} 次浮点运算重建 S 和 P，代替存储 P（{bytes}）"),
    ("flash.check.fwd", "Forward: max |O − naive attention| = {e}", "前向：max |O − 朴素注意力| = {e}"),
    ("flash.check.bwd", "Backward: max |gradient − direct gradient| over dQ, dK, dV = {e}", "反向：dQ、dK、dV 与直接求导的最大差 = {e}"),
    ("flash.check.large", "Values and checks are computed for n ≤ {max}; the tiles and the ledger are exact for any n.", "数值与校验只对 n ≤ {max} 计算；分块与流量账对任意 n 都精确。"),
    ("flash.explain", "Each query block is one thread block on the GPU; its Qᵢ, the current Kⱼ and Vⱼ, the score tile and the running O, m and ℓ stay in SRAM. Whenever a new tile raises a row's maximum, the old ℓ and O are rescaled by e^(m − m′), exactly as in online softmax. Nothing n × n is ever written to HBM. The backward pass recomputes P from the saved logsumexp L instead of reading a stored P: more FLOPs, far fewer bytes, and attention is memory-bound.", "每个 query 块对应 GPU 上的一个线程块；它的 Qᵢ、当前的 Kⱼ 和 Vⱼ、分数块以及运行中的 O、m、ℓ 都留在 SRAM 里。新分块使某行最大值变大时，旧的 ℓ 和 O 乘以 e^(m − m′) 换基准，与在线 softmax 完全相同。任何 n × n 的东西都不写回显存。反向时由保存的 logsumexp L 重算 P，而不是读取存下来的 P：计算多一些，字节少得多——而注意力是内存受限的。"),
    ("flash.lecture", "Lecture check (notes §8.3–8.4): FlashAttention is exact: forward differences from standard attention of order 10⁻¹⁶, gradients of order 10⁻¹⁵ (float64 here, as in the demos).", "讲义对照（§8.3–8.4）：FlashAttention 是精确计算：前向与标准注意力的差在 10⁻¹⁶ 量级，梯度差在 10⁻¹⁵ 量级（这里与演示一样用 float64）。"),
    ("metric.tiles-computed", "Tiles computed", "计算的分块数"),
    ("metric.tiles-skipped", "Tiles skipped", "跳过的分块数"),
    ("metric.grad-max-abs-error", "Max gradient error", "最大梯度误差"),
    ("metric.grad-max-abs-error.doc", "Flash gradients against gradients computed directly from the full P", "Flash 梯度与由完整 P 直接求得的梯度之差"),
    ("metric.hbm-bytes-flash", "HBM bytes, flash", "显存流量（flash）"),
    ("metric.hbm-bytes-standard", "HBM bytes, standard", "显存流量（标准）"),
    ("metric.sram-bytes", "SRAM working set", "SRAM 工作集"),
    // Attention memory
    ("topic.attention-memory.title", "Attention memory: O(n²) against O(n)", "注意力显存：O(n²) 对 O(n)"),
    ("topic.attention-memory.summary", "Standard attention stores two n × n matrices per head; FlashAttention stores one or two numbers per row.", "标准注意力每个头要存两个 n × n 矩阵；FlashAttention 每行只存一两个数。"),
    ("param.stats", "Flash statistics", "Flash 保存的统计量"),
    ("choice.stats.l", "L = m + log ℓ (FlashAttention-2)", "L = m + log ℓ（FlashAttention-2）"),
    ("choice.stats.ml", "m and ℓ (FlashAttention-1)", "m 和 ℓ（FlashAttention-1）"),
    ("memory.chart", "Bytes for one head against sequence length n (log–log)", "单个头所需字节数随序列长度 n 的变化（双对数）"),
    ("memory.series.standard", "standard: S and P", "标准：S 和 P"),
    ("memory.series.flash", "flash: statistics", "flash：统计量"),
    ("memory.series.qkvo", "Q, K, V, O (both)", "Q、K、V、O（两者都要）"),
    ("memory.table", "The lecture's table (one head, bf16, d = 128), computed", "讲义中的表（单头，bf16，d = 128），由模拟算出"),
    ("memory.table.n", "n", "n"),
    ("memory.table.standard", "Standard: S and P", "标准：S 和 P"),
    ("memory.table.flash", "Flash: extra", "Flash：额外"),
    ("memory.show", "Show", "查看"),
    ("memory.explain", "S and P are n × n for every head: 2 n² values, quadratic in the sequence length. FlashAttention keeps only per-row softmax statistics in fp32 (the logsumexp L, or m and ℓ), linear in n; Q, K, V and O are needed by both. In training this also removes the attention matrices from the activations saved for backward.", "S 和 P 对每个头都是 n × n：2n² 个数，随序列长度平方增长。FlashAttention 只保存每行的 softmax 统计量（fp32 的 logsumexp L，或 m 和 ℓ），随 n 线性增长；Q、K、V、O 两者都需要。训练时，这也把注意力矩阵从为反向保存的激活中去掉了。"),
    ("memory.lecture", "Lecture check (notes §8.5): 4096 → 0.07 GB against 0.02 MB; 16384 → 1.07 GB against 0.07 MB; 65536 → 17.2 GB against 0.26 MB.", "讲义对照（§8.5）：4096 → 0.07 GB 对 0.02 MB；16384 → 1.07 GB 对 0.07 MB；65536 → 17.2 GB 对 0.26 MB。"),
    ("metric.standard-bytes", "Standard: S and P", "标准：S 和 P"),
    ("metric.flash-extra-bytes", "Flash: extra memory", "Flash：额外显存"),
    ("metric.ratio", "Ratio", "倍数"),
    // Tiling
    ("topic.tiling.title", "Tiled matmul: counting reuse", "分块矩阵乘法：数一数复用"),
    ("topic.tiling.summary", "Load a T × T tile of A and of B into shared memory, do every multiply-add they allow, move on: each value is read n/T times instead of n.", "把 A 和 B 各一个 T × T 的小块搬进共享内存，做完它们能做的全部乘加，再换下一对：每个值只读 n/T 次，而不是 n 次。"),
    ("param.tiling.n", "Matrix size n", "矩阵大小 n"),
    ("param.m", "Rows m (0 = n)", "行数 m（0 表示 = n）"),
    ("param.tiling.k", "Inner k (0 = n)", "内维度 k（0 表示 = n）"),
    ("param.waves.k", "Inner k (0 = n)", "内维度 k（0 表示 = n）"),
    ("param.tile", "Tile T", "块大小 T"),
    ("param.mode", "Method", "方式"),
    ("param.tiling.smem", "Shared memory per SM (KB)", "每 SM 共享内存（KB）"),
    ("param.tiling.smem.doc", "H100: 228 KB", "H100：228 KB"),
    ("choice.mode.naive", "Naive", "朴素"),
    ("choice.mode.tiled", "Tiled", "分块"),
    ("tiling.step.tiled", "Step {s} of {p}: load A tile ({ti}, {s0}) and B tile ({s0}, {tj}) into shared memory, then {macs} multiply-adds for output tile ({ti}, {tj})", "第 {s} / {p} 步：把 A 的块 ({ti}, {s0}) 和 B 的块 ({s0}, {tj}) 搬进共享内存，再为输出块 ({ti}, {tj}) 做 {macs} 次乘加"),
    ("tiling.step.naive", "Step {s} of {p}: every output element of tile ({ti}, {tj}) reads A[i, {s0}] and B[{s0}, j] from global memory", "第 {s} / {p} 步：输出块 ({ti}, {tj}) 的每个元素都从显存读 A[i, {s0}] 和 B[{s0}, j]"),
    ("param.ti", "Output tile row", "输出块的行号"),
    ("param.tj", "Output tile column", "输出块的列号"),
    ("tiling.start", "Step 0: nothing loaded yet", "第 0 步：尚未读取"),
    ("tiling.counters", "This output tile so far: {loads} elements read from global memory, {macs} multiply-adds ({ratio} per element read)", "这个输出块到目前为止：从显存读 {loads} 个元素，做 {macs} 次乘加（每读一个元素做 {ratio} 次）"),
    ("tiling.fit", "Two {t} × {t} tiles of {dtype}: {bytes} of shared memory; the largest T that fits in {smem} KB is {max}.", "两个 {t} × {t} 的 {dtype} 小块：占 {bytes} 共享内存；{smem} KB 中能放下的最大 T 为 {max}。"),
    ("tiling.fit.no", "Two {t} × {t} tiles of {dtype} need {bytes}: more than {smem} KB. The largest T that fits is {max}.", "两个 {t} × {t} 的 {dtype} 小块需要 {bytes}：超过 {smem} KB。能放下的最大 T 为 {max}。"),
    ("tiling.explain", "Naively every output element reads its whole row of A and column of B: each input value is read n times (2n³ reads). Tiled, a thread block loads one tile of A and one of B per phase and reuses each loaded value T times from shared memory, so global reads fall to 2n³/T and the arithmetic intensity rises T-fold. The tile size is bounded by shared memory: two T × T tiles must fit.", "朴素做法中每个输出元素都读 A 的一整行和 B 的一整列：每个输入值被读 n 次（共 2n³ 次）。分块后，线程块每个阶段搬入 A 和 B 各一个小块，每个搬来的值在共享内存中被复用 T 次，于是显存读取降到 2n³/T，算术强度提高 T 倍。块的大小受共享内存限制：两个 T × T 的块必须放得下。"),
    ("tiling.lecture", "Lecture check (notes §6.6, n = 256, fp32): naive 33,554,432 reads, intensity 0.25; T = 4 → 8,388,608, 1; T = 16 → 2,097,152, 4; T = 64 → 524,288, 16. Largest T in 228 KB: about 170.", "讲义对照（§6.6，n = 256，FP32）：朴素 33,554,432 次读取、强度 0.25；T = 4 → 8,388,608、1；T = 16 → 2,097,152、4；T = 64 → 524,288、16。228 KB 中最大的 T 约为 170。"),
    ("tiling.presets", "Lecture cases (n = 256, fp32)", "讲义示例（n = 256，FP32）"),
    ("tiling.preset.naive", "Naive", "朴素"),
    ("tiling.preset.t4", "T = 4", "T = 4"),
    ("tiling.preset.t16", "T = 16", "T = 16"),
    ("tiling.preset.t64", "T = 64", "T = 64"),
    ("metric.global-reads", "Global reads (elements)", "显存读取（元素）"),
    ("metric.global-bytes", "Global bytes", "显存字节数"),
    ("metric.intensity", "Intensity (FLOP/byte)", "算术强度（FLOP/字节）"),
    ("metric.smem-bytes", "Shared memory used", "共享内存用量"),
    ("metric.max-tile", "Largest T that fits", "能放下的最大 T"),
    // Quantization
    ("topic.quantization.title", "Tile quantization and alignment", "块量化与对齐"),
    ("topic.quantization.summary", "A size one past a multiple of the tile adds a whole row and column of mostly empty tiles; a row that is not a multiple of the memory section misaligns every tile load.", "尺寸比块大小的整数倍多 1，就要多出一整行一整列几乎空的块；行字节数不是内存段的整数倍，每次搬块都对不齐。"),
    ("param.quantization.n", "Columns n", "列数 n"),
    ("quantization.grid", "Output tiles: useful area, and padding computed for nothing", "输出分块：有效区域与白算的填充"),
    ("quantization.align.yes", "Each row is {row} bytes, a multiple of the {section}-byte section: tile rows start on section boundaries.", "每行 {row} 字节，是 {section} 字节段的整数倍：块的每一行都从段边界开始。"),
    ("quantization.align.no", "Each row is {row} bytes, not a multiple of the {section}-byte section: tile rows start mid-section, costing {extra} extra transactions per {t}-row tile load (pad the row to {padded} elements to fix it).", "每行 {row} 字节，不是 {section} 字节段的整数倍：块的行从段中间开始，每搬一个 {t} 行的块要多 {extra} 次事务（把行填充到 {padded} 个元素即可解决）。"),
    ("quantization.explain", "The GPU computes whole tiles: when n is not a multiple of T, the last row and column of tiles are mostly padding, but cost as much as full ones. And when a row's bytes are not a multiple of the memory transaction size, the rows of a tile start at different offsets within sections, so a tile load touches extra sections. Choosing sizes that are multiples of 64 or 128 is the cheapest optimisation there is.", "GPU 按整块计算：n 不是 T 的整数倍时，最后一行和一列的块大部分是填充，却和满块一样费时。行的字节数不是内存事务大小的整数倍时，块的各行在段内的起点不同，搬一个块要多碰几个段。维度取 64 或 128 的倍数是最便宜的优化。"),
    ("quantization.lecture", "Lecture check (notes §6.6): tile 128: n = 1024 → 100 % useful; n = 1025 → 79 %.", "讲义对照（§6.6）：块大小 128：n = 1024 → 有效 100%；n = 1025 → 79%。"),
    ("quantization.presets", "Lecture cases (tile 128)", "讲义示例（块 128）"),
    ("quantization.preset.1024", "n = 1024", "n = 1024"),
    ("quantization.preset.1025", "n = 1025", "n = 1025"),
    ("metric.tiles", "Tiles", "块数"),
    ("metric.aligned", "Rows aligned", "行已对齐"),
    ("metric.extra-transactions", "Extra transactions per tile load", "每次搬块多出的事务"),
    ("metric.quantization.useful-fraction", "Useful tile area", "块的有效面积"),
    // Waves
    ("topic.waves.title", "Wave quantization and the sawtooth", "波次量化与锯齿曲线"),
    ("topic.waves.summary", "Output tiles go to SMs in waves; one tile more than a multiple of the SM count costs a whole extra wave.", "输出块按波次分给各个 SM；比 SM 数的整数倍多一个块，就要多跑一整波。"),
    ("param.gpu", "GPU", "GPU"),
    ("param.sms", "SMs (0 = the GPU's)", "SM 数（0 表示用该 GPU 的）"),
    ("param.waves.n", "Matrix size n", "矩阵大小 n"),
    ("param.tm", "Output tile rows tm", "输出块行数 tm"),
    ("param.tn", "Output tile columns tn", "输出块列数 tn"),
    ("param.ref", "Reference n", "参考 n"),
    ("choice.gpu.a100", "A100 (108 SMs)", "A100（108 个 SM）"),
    ("choice.gpu.h100", "H100 (132 SMs)", "H100（132 个 SM）"),
    ("choice.gpu.h200", "H200 (132 SMs)", "H200（132 个 SM）"),
    ("choice.gpu.b200", "B200 (148 SMs)", "B200（148 个 SM）"),
    ("waves.grid", "Which SM computes which output tile, wave by wave", "每一波中哪个 SM 计算哪个输出块"),
    ("waves.legend.busy", "SM computing a tile", "计算某块的 SM"),
    ("waves.legend.idle", "idle SM", "空闲的 SM"),
    ("waves.chart", "Modelled throughput (TFLOP/s) against n; click to choose n", "模型估计的吞吐量（TFLOP/s）随 n 的变化；点击选择 n"),
    ("waves.why.same", "From n − 1 to n: same tiles and waves; throughput changes only through the work per tile.", "从 n − 1 到 n：块数和波数都不变，吞吐量只随每块的工作量变化。"),
    ("waves.why.tiles", "From n − 1 to n: tile quantization: a new row or column of tiles ({a} → {b} tiles), mostly padding.", "从 n − 1 到 n：块量化：多出一行或一列块（{a} → {b} 个），大部分是填充。"),
    ("waves.why.waves", "From n − 1 to n: wave quantization: {a} → {b} waves; the last wave has {last} tiles for {sms} SMs.", "从 n − 1 到 n：波次量化：{a} → {b} 波；最后一波只有 {last} 个块给 {sms} 个 SM。"),
    ("waves.time-k", "The notes' relative time counts waves (every wave equally long). If a wave's length grows with k, as each tile's K loop does, the same comparison gives {x}.", "讲义的相对耗时只数波数（每一波一样长）。如果一波的时长随 k 增长（每块的 K 循环确实如此），同样的比较得到 {x}。"),
    ("waves.measured", "Measured series from assets/measured/matmul-{gpu}.csv overlaid.", "已叠加 assets/measured/matmul-{gpu}.csv 中的实测数据。"),
    ("waves.model", "Model: each wave runs its tiles at the SMs' share of the bf16 peak, padded tiles cost full price, and the run cannot beat moving A, B and C through HBM once.", "模型：每一波以各 SM 分得的 bf16 峰值算力计算其块，填充的块照样全价，整个运算不可能快过把 A、B、C 从显存搬一遍。"),
    ("waves.explain", "The curve rises because bigger products have more arithmetic per byte; it drops where n crosses a multiple of the tile size (tile quantization: a new row of mostly empty tiles) and where the tile count crosses a multiple of the SM count (wave quantization: an extra wave in which most SMs idle).", "曲线上升，是因为矩阵越大每字节的计算越多；在 n 越过块大小的整数倍处下降（块量化：多一行几乎空的块），在块数越过 SM 数的整数倍处也下降（波次量化：多一波，其中大部分 SM 空闲）。"),
    ("waves.lecture", "Lecture check (notes §7, A100, 256 × 128 tiles): n = 1792 → 98 tiles, 1 wave, 91 %; 1793 → 120 tiles, 2 waves, 56 %; 2560 → 200 tiles, 2 waves, 93 %, relative FLOPs 2.92, relative time 2.0.", "讲义对照（§7，A100，256 × 128 输出块）：n = 1792 → 98 块、1 波、91%；1793 → 120 块、2 波、56%；2560 → 200 块、2 波、93%，相对计算量 2.92，相对耗时 2.0。"),
    ("waves.presets", "Lecture cases (A100)", "讲义示例（A100）"),
    ("waves.preset.1792", "n = 1792", "n = 1792"),
    ("waves.preset.1793", "n = 1793", "n = 1793"),
    ("waves.preset.2560", "n = 2560", "n = 2560"),
    ("metric.waves", "Waves", "波数"),
    ("metric.sm-utilization", "SM utilization", "SM 利用率"),
    ("metric.sm-utilization.doc", "Tiles ÷ (waves × SMs)", "块数 ÷（波数 × SM 数）"),
    ("metric.relative-flops", "FLOPs vs reference", "相对参考的计算量"),
    ("metric.relative-time", "Time vs reference (waves)", "相对参考的耗时（按波数）"),
    // GPU vs TPU
    ("topic.gpu-vs-tpu.title", "GPU vs TPU: the same matmul", "GPU 与 TPU：同一个矩阵乘法"),
    ("topic.gpu-vs-tpu.summary", "Few huge systolic arrays against many SMs with Tensor Cores: passes and padding on one side, tiles and waves on the other.", "少数巨大的脉动阵列，对比许多带 Tensor Core 的 SM：一边是遍数与填充，一边是分块与波次。"),
    ("param.mxu", "TPU MXU", "TPU MXU"),
    ("param.gpu-vs-tpu.m", "Rows m (tokens)", "行数 m（token 数）"),
    ("param.gpu-vs-tpu.k", "Inner k", "内维度 k"),
    ("param.gpu-vs-tpu.n", "Columns n", "列数 n"),
    ("choice.mxu.128", "128 × 128 (v2–v5)", "128 × 128（v2–v5）"),
    ("choice.mxu.256", "256 × 256 (v6e)", "256 × 256（v6e）"),
    ("gputpu.tpu", "TPU: weight blocks of B through one MXU", "TPU：B 的权重块依次通过一个 MXU"),
    ("gputpu.gpu", "GPU: output tiles of C over the SMs, by wave", "GPU：C 的输出块按波次分给各 SM"),
    ("gputpu.tpu.detail", "{passes} passes × ({m} + 2 × {s} − 2) cycles = {cycles} cycles", "{passes} 遍 ×（{m} + 2 × {s} − 2）个周期 = {cycles} 个周期"),
    ("gputpu.gpu.detail", "{waves} waves × {tm}·{tn}·{k} / {rate} MAC per SM-cycle = {cycles} cycles", "{waves} 波 × {tm}·{tn}·{k} / 每 SM 每周期 {rate} 次乘加 = {cycles} 个周期"),
    ("gputpu.systolic", "Watch one pass on the systolic array", "在脉动阵列面板中观看一遍"),
    ("gputpu.terms", "Terminology (notes §9.1)", "术语对照（讲义 §9.1）"),
    ("gputpu.term.gpu", "GPU", "GPU"),
    ("gputpu.term.tpu", "TPU", "TPU"),
    ("gputpu.term.1", "SM (132 on H100)", "SM（H100 有 132 个）"),
    ("gputpu.term.1t", "TensorCore (a few per chip)", "TensorCore（每芯片少数几个）"),
    ("gputpu.term.2", "Tensor Cores (small matrix units)", "Tensor Core（小矩阵单元）"),
    ("gputpu.term.2t", "MXU (128 × 128 or 256 × 256 systolic array)", "MXU（128 × 128 或 256 × 256 脉动阵列）"),
    ("gputpu.term.3", "warp (32 threads in lockstep)", "warp（32 个线程同步执行）"),
    ("gputpu.term.3t", "none: only blocks", "没有：只有“块”"),
    ("gputpu.term.4", "shared memory / L1 (SRAM)", "共享内存 / L1（SRAM）"),
    ("gputpu.term.4t", "VMEM (vector memory, SRAM)", "VMEM（向量存储，SRAM）"),
    ("gputpu.term.5", "CUDA cores (scalar/vector)", "CUDA 核（标量/向量）"),
    ("gputpu.term.5t", "VPU (vector unit) and scalar unit", "VPU（向量单元）与标量单元"),
    ("gputpu.term.6", "NVLink / NVSwitch", "NVLink / NVSwitch"),
    ("gputpu.term.6t", "ICI (inter-chip interconnect, pods)", "ICI（芯片间互连，组成 pod）"),
    ("gputpu.explain", "Both are light control logic plus fast matrix units plus fast on-chip memory. The TPU's MXU gets reuse from its structure, but a dimension smaller than the array (few tokens, small k or n) leaves most PEs idle, and every pass pays fill and drain. The GPU splits the output into tiles over many SMs, so its waste is tile padding and the last, partly idle wave.", "两者都是轻量的控制逻辑 + 很快的矩阵单元 + 很快的片上存储。TPU 的 MXU 靠结构获得复用，但某一维比阵列小（token 少、k 或 n 小）时大部分 PE 闲着，而且每一遍都要付填充和排空的代价。GPU 把输出切块分给许多 SM，它的浪费是块的填充和最后那一波部分空闲。"),
    ("metric.mxu-passes", "MXU passes", "MXU 遍数"),
    ("metric.mxu-utilization", "MXU utilization", "MXU 利用率"),
    ("metric.gpu-waves", "GPU waves", "GPU 波数"),
    ("metric.gpu-utilization", "GPU utilization", "GPU 利用率"),
    // Hardware
    ("topic.hardware.title", "Hardware: compute against memory", "硬件：算力对比内存"),
    ("topic.hardware.summary", "SMs, Tensor Cores and a memory hierarchy; compute grows faster than bandwidth, so the ridge point keeps rising.", "SM、Tensor Core 与存储层次；算力比带宽涨得快，所以平衡点不断升高。"),
    ("param.hardware.gpu", "GPU", "GPU"),
    ("param.peak", "Custom peak (TFLOP/s)", "自定义峰值（TFLOP/s）"),
    ("param.bw", "Custom bandwidth (GB/s)", "自定义带宽（GB/s）"),
    ("choice.gpu.custom", "Custom", "自定义"),
    ("hardware.hierarchy", "Memory hierarchy (closer is faster, smaller, costlier)", "存储层次（越近越快、越小、越贵）"),
    ("hardware.level.regs", "Registers", "寄存器"),
    ("hardware.level.smem", "Shared memory / L1", "共享内存 / L1"),
    ("hardware.level.l2", "L2 cache", "L2 缓存"),
    ("hardware.level.hbm", "HBM (global memory)", "HBM（全局内存）"),
    ("hardware.per-sm", "per SM", "每 SM"),
    ("hardware.chip", "whole chip", "整个芯片"),
    ("hardware.ridge", "Ridge point: {peak} TFLOP/s ÷ {bw} TB/s = {r} FLOP per byte: every byte read from HBM must feed about {r} operations to keep the compute busy.", "平衡点：{peak} TFLOP/s ÷ {bw} TB/s = 每字节 {r} 次运算：每从 HBM 读一个字节，要做约 {r} 次运算，计算单元才不会闲着。"),
    ("hardware.table", "The lecture's table (notes §4)", "讲义中的表（§4）"),
    ("hardware.growth", "Growth per 2 years (CS336 slides, after Gholami et al., “AI and Memory Wall”): compute 3.0×, DRAM bandwidth 1.6×, interconnect 1.4×", "每两年的增长（CS336 课件，引自 Gholami 等《AI and Memory Wall》）：算力 3.0 倍，DRAM 带宽 1.6 倍，互连 1.4 倍"),
    ("hardware.growth.compute", "compute 3.0× / 2 years", "算力 3.0 倍/两年"),
    ("hardware.growth.dram", "DRAM bandwidth 1.6× / 2 years", "DRAM 带宽 1.6 倍/两年"),
    ("hardware.growth.ici", "interconnect 1.4× / 2 years", "互连 1.4 倍/两年"),
    ("hardware.speed.regs", "fastest", "最快"),
    ("hardware.speed.smem", "very fast: ~23 cycles latency (slides)", "很快：延迟约 23 个周期（课件）"),
    ("hardware.speed.l2", "fast", "较快"),
    ("hardware.speed.hbm", "slowest: ~290 cycles latency (slides), {bw} TB/s", "最慢：延迟约 290 个周期（课件），{bw} TB/s"),
    ("hardware.years", "years", "年"),
    ("hardware.growth.axis", "growth", "增长倍数"),
    ("hardware.source", "Sources: {s}", "来源：{s}"),
    ("hardware.explain", "Tensor Cores make matrix multiplication more than ten times faster than other floating-point work (H100: about 990 TFLOP/s bf16 against 67 fp32), so anything that is not a matmul is comparatively expensive. Fast GPU code respects the hierarchy: keep data close to the compute and go to HBM as rarely as possible.", "Tensor Core 让矩阵乘法比其他浮点运算快十倍以上（H100：bf16 约 990 TFLOP/s，fp32 约 67），所以凡是不能写成矩阵乘法的运算都相对很贵。快的 GPU 程序尊重存储层次：让数据待在离计算近的地方，尽量少去 HBM。"),
    ("hardware.lecture", "Lecture check (notes §4): A100 312 TFLOP/s, 2.0 TB/s → 156 FLOP/byte; H100 990, 3.35 → 295; B200 2250, 8.0 → 281.", "讲义对照（§4）：A100 312 TFLOP/s、2.0 TB/s → 156 FLOP/字节；H100 990、3.35 → 295；B200 2250、8.0 → 281。"),
    ("metric.ridge", "Ridge point (FLOP/byte)", "平衡点（FLOP/字节）"),
    ("metric.peak-tflops", "Peak (TFLOP/s)", "峰值（TFLOP/s）"),
    ("metric.bandwidth-tbps", "HBM bandwidth (TB/s)", "HBM 带宽（TB/s）"),
    // Roofline
    ("topic.roofline.title", "Roofline", "Roofline 模型"),
    ("topic.roofline.summary", "Attainable = min(peak, intensity × bandwidth): only big matmuls reach the roof; elementwise ops and small-batch decoding are stuck on the slope.", "可达算力 = min(峰值, 强度 × 带宽)：只有大矩阵乘法能碰到屋顶；逐元素运算和小批次解码都卡在斜坡上。"),
    ("param.op", "Operation", "运算"),
    ("param.roofline.n", "Size n", "规模 n"),
    ("param.roofline.d", "Model width d (decode)", "模型宽度 d（解码）"),
    ("param.batch", "Tokens in the batch B (decode)", "批次中的 token 数 B（解码）"),
    ("param.flops", "Custom FLOPs", "自定义 FLOPs"),
    ("param.bytes", "Custom bytes", "自定义字节数"),
    ("choice.op.relu", "ReLU", "ReLU"),
    ("choice.op.dot", "Dot product", "点积"),
    ("choice.op.matvec", "Matrix × vector", "矩阵 × 向量"),
    ("choice.op.matmul", "Matrix × matrix", "矩阵 × 矩阵"),
    ("choice.op.decode", "Decode (d × d by B)", "解码（d × d 乘 B）"),
    ("choice.op.custom", "Custom", "自定义"),
    ("roofline.chart", "Roofline (log–log): TFLOP/s against FLOP per byte", "Roofline（双对数）：TFLOP/s 对 FLOP/字节"),
    ("roofline.table", "The lecture's operations at this size", "讲义中的运算（当前规模）"),
    ("roofline.col.op", "Operation", "运算"),
    ("roofline.col.intensity", "Intensity", "强度"),
    ("roofline.col.attainable", "Attainable", "可达"),
    ("roofline.col.peak", "of peak", "占峰值"),
    ("roofline.decode", "Decode, d = {d}: intensity ≈ B because the weights are read once and used by B tokens", "解码，d = {d}：强度约等于 B，因为权重读一次、被 B 个 token 使用"),
    ("roofline.precision", "Precision (notes §6.2): fewer bits, fewer bytes. ReLU moves {b} bytes per FLOP in {dtype}; block-scaled formats add a shared scale: MXFP8 (E4M3 + one E8M0 scale per 32 values) = {mx} bits per value, NVFP4 (one scale per 16) = {nv} bits.", "低精度（§6.2）：位数少，字节就少。{dtype} 下 ReLU 每次运算搬 {b} 字节；分块缩放格式再加一个共享的缩放因子：MXFP8（E4M3 + 每 32 个值一个 E8M0 缩放）= 每值 {mx} 位，NVFP4（每 16 个值一个缩放）= {nv} 位。"),
    ("roofline.explain", "An operation is limited by the slower of computing (FLOPs ÷ peak) and moving data (bytes ÷ bandwidth). Below the ridge point it is memory-bound: it rises along the slope with its intensity; above it, compute-bound on the flat roof. A matmul's intensity is about n/3, far past the ridge; decoding one token per request has intensity about 1.", "一个运算的耗时由计算（FLOPs ÷ 峰值）和搬数据（字节 ÷ 带宽）中较慢的决定。平衡点以下是内存受限：沿斜线随强度上升；以上是计算受限：在平顶上。矩阵乘法的强度约 n/3，远超平衡点；每个请求一次只解码一个 token，强度约为 1。"),
    ("roofline.lecture", "Lecture check (H100, bf16, n = 4096): ReLU 0.25 → 0.8 TFLOP/s (0.1 %); dot 0.5 → 1.7; matvec 1.0 → 3.3; matmul 1365 → 990 (100 %). Decode (d = 8192): B = 1, 8, 64, 256, 1024 → intensity 1.0, 8.0, 63, 241, 819 → 0.3 %, 2.7 %, 21 %, 82 %, 100 %.", "讲义对照（H100，bf16，n = 4096）：ReLU 0.25 → 0.8 TFLOP/s（0.1%）；点积 0.5 → 1.7；矩阵×向量 1.0 → 3.3；矩阵×矩阵 1365 → 990（100%）。解码（d = 8192）：B = 1、8、64、256、1024 → 强度 1.0、8.0、63、241、819 → 0.3%、2.7%、21%、82%、100%。"),
    ("roofline.presets", "Decode batches (d = 8192)", "解码批次（d = 8192）"),
    ("metric.intensity.doc", "FLOPs ÷ bytes moved to and from HBM", "FLOPs ÷ 与 HBM 之间搬运的字节数"),
    ("roofline.b1", "B = 1", "B = 1"),
    ("roofline.b8", "B = 8", "B = 8"),
    ("roofline.b64", "B = 64", "B = 64"),
    ("roofline.b256", "B = 256", "B = 256"),
    ("roofline.b1024", "B = 1024", "B = 1024"),
    ("metric.attainable-tflops", "Attainable (TFLOP/s)", "可达算力（TFLOP/s）"),
    ("metric.percent-of-peak", "Of peak", "占峰值"),
    ("metric.bound", "Bound by", "受限于"),
    ("word.memory", "memory", "内存"),
    ("word.compute", "compute", "计算"),
    // Fusion
    ("topic.fusion.title", "Operator fusion", "算子融合"),
    ("topic.fusion.summary", "One kernel per operation sends every intermediate result to HBM and back; one fused kernel reads each input once and writes once.", "每个运算一个核函数，每个中间结果都要写回显存再读出来；融合成一个核函数，每个输入只读一次、只写一次。"),
    ("param.expr", "Elementwise expression", "逐元素表达式"),
    ("param.expr.doc", "Names are inputs of n elements; + − * / ^, sin cos tan exp log tanh sqrt abs sigmoid relu, max(a, b) min(a, b)", "名字表示 n 个元素的输入；+ − * / ^，sin cos tan exp log tanh sqrt abs sigmoid relu，max(a, b) min(a, b)"),
    ("param.fusion.n", "Elements n", "元素个数 n"),
    ("fusion.presets", "Presets", "预设"),
    ("fusion.preset.sincos", "sin²x + cos²x", "sin²x + cos²x"),
    ("fusion.preset.gelu", "GELU (tanh form)", "GELU（tanh 形式）"),
    ("fusion.preset.relu-affine", "ReLU(x·w + b)", "ReLU(x·w + b)"),
    ("fusion.preset.silu", "SiLU", "SiLU"),
    ("fusion.error", "Expression error: {msg}", "表达式有误：{msg}"),
    ("fusion.timeline", "Unfused: one kernel per operation", "未融合：每个运算一个核函数"),
    ("fusion.fused", "Fused: one kernel reads {inputs} once and writes the result once", "融合：一个核函数读 {inputs} 各一次，结果写一次"),
    ("fusion.col.kernel", "Kernel", "核函数"),
    ("fusion.col.reads", "Reads", "读"),
    ("fusion.col.writes", "Writes", "写"),
    ("fusion.total", "Total: {r}n reads + {w}n writes = {t}n, against {f}n fused", "合计：读 {r}n + 写 {w}n = {t}n，融合后为 {f}n"),
    ("fusion.explain", "The factory metaphor of the lecture: the warehouse (HBM) is far from the factory (the compute). Running each step as its own kernel ships every half-finished product back to the warehouse and out again. A fused kernel keeps intermediates in registers; elementwise chains like these are what torch.compile fuses automatically.", "讲义中的工厂比喻：仓库（显存）离工厂（计算单元）很远。每一步都单独做成一个核函数，就要把每个半成品运回仓库再运出来。融合的核函数把中间结果留在寄存器里；像这样的逐元素链，torch.compile 可以自动融合。"),
    ("fusion.lecture", "Lecture check (notes §6.3): sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n: at most 5.5× faster (measured 5.4× on an Apple GPU).", "讲义对照（§6.3）：sin²x + cos²x → 5 个核函数，读 6n + 写 5n = 11n，对比 2n：最多快 5.5 倍（在 Apple GPU 上实测 5.4 倍）。"),
    ("metric.kernels-unfused", "Kernels, unfused", "未融合的核函数数"),
    ("metric.bytes-unfused", "HBM bytes, unfused", "显存流量（未融合）"),
    ("metric.bytes-fused", "HBM bytes, fused", "显存流量（融合）"),
    ("metric.speedup-bound", "Speed-up bound", "加速上限"),
    ("metric.speedup-bound.doc", "Unfused bytes ÷ fused bytes: the most fusion can gain on a memory-bound chain", "未融合字节 ÷ 融合字节：内存受限时融合最多能快多少"),
    // Recompute
    ("topic.recompute.title", "Recomputation", "重计算"),
    ("topic.recompute.summary", "Throw activations away and recompute them in backward: more FLOPs, fewer bytes, and bytes are what cost.", "把激活扔掉、反向时重算：多算一些，少搬一些，而搬数据才是贵的。"),
    ("param.depth", "Stacked sigmoids", "叠加的 sigmoid 个数"),
    ("param.recompute.n", "Elements n", "元素个数 n"),
    ("param.upstream", "Count the upstream-gradient read", "是否计入读取上游梯度"),
    ("choice.upstream.1", "Yes (notes: 9 vs 5)", "计入（讲义：9 对 5）"),
    ("choice.upstream.0", "No (slides: 8 vs 4)", "不计入（课件：8 对 4）"),
    ("recompute.ledger", "Memory accesses (arrays of n elements)", "显存访问（以 n 个元素的数组计）"),
    ("recompute.store", "Store activations", "保存中间结果"),
    ("recompute.recompute", "Recompute", "重计算"),
    ("recompute.forward", "Forward", "前向"),
    ("recompute.backward", "Backward", "反向"),
    ("recompute.total", "Total", "合计"),
    ("recompute.why-differ", "Why two counts: the notes count reading the upstream gradient in backward (9 against 5); the slides leave it out because both versions must read it (8 against 4). The difference between the versions is the same: {d} accesses.", "为什么有两种计数：讲义把反向时读取上游梯度算进去（9 对 5）；课件不算，因为两个版本都要读它（8 对 4）。两个版本之差不变：{d} 次访问。"),
    ("recompute.extra", "Recomputing costs {k} extra sigmoid evaluations per element in backward, done in registers.", "重计算在反向时每个元素多算 {k} 次 sigmoid，都在寄存器里完成。"),
    ("recompute.explain", "Backward needs the forward's intermediate values. Storing them costs writes in forward and reads in backward; recomputing them from x inside the fused backward kernel costs only arithmetic, which is cheap when the operation is memory-bound. Activation checkpointing (lecture 2) is the same idea at the granularity of whole layers.", "反向需要前向的中间值。把它们存下来，前向要写、反向要读；在融合的反向核函数里从 x 重算，只花计算——当运算内存受限时这很便宜。激活检查点（第 2 讲）是同样的思想，粒度是整层。"),
    ("recompute.lecture", "Lecture check (notes §6.4): three sigmoids: 9 against 5 accesses (slides: 8 against 4); saved for backward 12.6 MB against 4.2 MB.", "讲义对照（§6.4）：三个 sigmoid：9 对 5 次访问（课件：8 对 4）；为反向保存 12.6 MB 对 4.2 MB。"),
    ("metric.accesses-store", "Accesses, storing", "访问次数（保存）"),
    ("metric.accesses-recompute", "Accesses, recomputing", "访问次数（重计算）"),
    ("metric.saved-bytes-store", "Saved for backward, storing", "为反向保存（保存）"),
    ("metric.saved-bytes-recompute", "Saved for backward, recomputing", "为反向保存（重计算）"),
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
    // Panic card
    ("panic.title", "Something went wrong", "出错了"),
    ("panic.body", "Warpscope hit an internal error and stopped. Please report the link you were on.", "Warpscope 遇到内部错误并已停止。请报告出错时的链接。"),
    ("panic.link", "Back to the start page", "返回首页"),
    // Notices
    ("notice.title", "Some link parameters were adjusted", "链接中的部分参数已被调整"),
    ("notice.out-of-range", "{param}={given} is outside {min}–{max}; using {used}.", "{param}={given} 超出范围 {min}–{max}，已改用 {used}。"),
    ("notice.malformed", "{param}={given} is not a valid value; using {used}.", "{param}={given} 不是有效值，已改用 {used}。"),
    ("notice.invalid", "{param}={given}: {reason}; using {used}.", "{param}={given}：{reason}；已改用 {used}。"),
    ("notice.unknown", "{param} is not a parameter of this panel; ignored.", "{param} 不是本面板的参数，已忽略。"),
    ("notice.broken", "The link's query could not be read; using defaults.", "无法解析链接中的参数，已使用默认值。"),
    ("notice.broken-link", "The address “#{given}” could not be read; here is the start page.", "无法识别地址“#{given}”，已转到首页。"),
    ("notice.dismiss", "Dismiss", "关闭"),
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
    ("param.seed.doc", "Seed of the random inputs", "随机输入的种子"),
    ("param.systolic.seed", "Seed", "随机种子"),
    ("param.systolic.seed.doc", "Seed of the operand generator (digits 0–9)", "操作数生成器的种子（0–9 的整数）"),
    ("param.online-softmax.block", "Block size", "块大小"),
    ("param.online-softmax.block.doc", "Values processed per step", "每步处理的数值个数"),
    ("param.flash.n", "Sequence length n", "序列长度 n"),
    ("param.attention-memory.n", "Sequence length n", "序列长度 n"),
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
    ("metric.max-abs-error", "Max abs error", "最大绝对误差"),
    ("metric.max-abs-error.doc", "Largest difference from the reference computation", "与参考计算的最大差值"),
    ("metric.systolic.max-abs-error", "Max |C − A·B|", "最大 |C − A·B|"),
    ("metric.systolic.max-abs-error.doc", "Final array output against A·B computed directly", "阵列最终输出与直接计算的 A·B 之差"),
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

/// Bytes with decimal units and three significant digits (`67.1 MB`, `17.2 GB`).
pub fn format_bytes(b: f64) -> String {
    let units = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)];
    for (u, scale) in units {
        if b >= scale {
            let v = b / scale;
            let digits = if v >= 100.0 {
                0
            } else if v >= 10.0 {
                1
            } else {
                2
            };
            return format!("{v:.digits$} {u}");
        }
    }
    format!("{b:.0} B")
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
        Unit::Word => m.word.unwrap_or("").to_string(),
        Unit::Bytes => format_bytes(m.value),
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
            let (reason, used) = (shorten(reason, 120), shorten(used, 60));
            trf(lang, "notice.invalid", &[("param", &n.param), ("given", &n.given), ("reason", &reason), ("used", &used)])
        }
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
        assert_eq!(format_metric(&Metric::real("e", 2.78e-16)), "2.78e-16");
        assert_eq!(format_metric(&Metric::real("e", 0.0)), "0");
        assert_eq!(trf(Lang::Zh, "player.per-second", &[("n", "5")]), "5/秒");
        assert_eq!(tr(Lang::En, "no.such.key"), "no.such.key");
        assert_eq!(topic_key("param", "online-softmax", "block"), "param.online-softmax.block");
        assert_eq!(topic_key("param", "threads", "block"), "param.block");
        assert_eq!(format_bytes(67108864.0), "67.1 MB");
        assert_eq!(format_bytes(17179869184.0), "17.2 GB");
        assert_eq!(format_bytes(16384.0), "16.4 kB");
        assert_eq!(format_bytes(12.0), "12 B");
    }
}
