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

/// Bytes with decimal units and three significant digits (`67.1 MB`, `17.2 GB`).
pub fn format_bytes(b: f64) -> String {
    let units = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)];
    for (u, scale) in units {
        if b >= scale {
            let v = b / scale;
            let digits = if v >= 100.0 { 0 } else if v >= 10.0 { 1 } else { 2 };
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
        Problem::Invalid { reason, used } => {
            trf(lang, "notice.invalid", &[("param", &n.param), ("given", &n.given), ("reason", reason), ("used", used)])
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
        assert_eq!(trf(Lang::Zh, "player.per-second", &[("n", "5")]), "5/秒");
        assert_eq!(tr(Lang::En, "no.such.key"), "no.such.key");
        assert_eq!(format_bytes(67108864.0), "67.1 MB");
        assert_eq!(format_bytes(17179869184.0), "17.2 GB");
        assert_eq!(format_bytes(16384.0), "16.4 kB");
        assert_eq!(format_bytes(12.0), "12 B");
    }
}
