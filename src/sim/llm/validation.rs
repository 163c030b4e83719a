//! Validation: the measured steps, and how close the prediction comes to
//! them (the accuracy table README prints).

use super::calibration::{fitted_model, h200, median, Calibration, DECODE_CSV, GQA_DECODE_CSV, PREFILL_CSV};
use super::effects::{step_time, Fit, On};
use super::shape::{dtypes, preset, Case, Phase};
use crate::sim::measured::Table;
use std::sync::OnceLock;

/// A measured step: model code, phase, batch, ctx (decode) or seq (prefill), graphs, ms.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub model: String,
    pub phase: Phase,
    pub batch: u64,
    pub n: u64,
    pub graphs: bool,
    /// The step the prediction is held against. A CUDA graph: the median of
    /// its isolated replays. Eager: its fastest isolated call of the run (15
    /// calls in 5 passes over the grid), i.e. the step with the host at full
    /// speed; the host spends part of any run in a slower state
    /// (`h200-llm-host_probe.csv`: a bare launch takes 7 µs or 10–18 µs).
    pub ms: f64,
    /// The median of the calls' pass medians (eager: mixes in the host's
    /// slow states; equal in kind to `ms` for graphs).
    pub typical_ms: f64,
    /// How the step called decode attention: the per-head layout (the g
    /// query heads of a KV head as g rows of one SDPA call; `true`, the
    /// effect `per-head`), or one call over all query heads with
    /// `enable_gqa` (`false`; only grouped-query models were run so).
    pub per_head: bool,
}

/// Every measured step of the main run (`run_llm.py`, 2026-12-01, the
/// per-head decode layout; the rows that ran): the fit's data.
pub fn measured() -> &'static [Measured] {
    static M: OnceLock<Vec<Measured>> = OnceLock::new();
    M.get_or_init(|| parse_steps(&[(DECODE_CSV, Phase::Decode, "ctx"), (PREFILL_CSV, Phase::Prefill, "seq")], true))
}

/// The grouped-query models' decode steps with one `enable_gqa` SDPA call a
/// layer (2026-12-03): never in a fit, the check of the default decode kernel.
pub fn measured_gqa() -> &'static [Measured] {
    static M: OnceLock<Vec<Measured>> = OnceLock::new();
    M.get_or_init(|| parse_steps(&[(GQA_DECODE_CSV, Phase::Decode, "ctx")], false))
}

fn parse_steps(files: &[(&str, Phase, &str)], per_head: bool) -> Vec<Measured> {
    {
        let mut out = Vec::new();
        for &(text, phase, col) in files {
            let t = Table::parse(text);
            for r in &t.rows {
                let (Some(model), Some(b), Some(n), Some(gr), Some(ms), Some(min)) = (
                    t.text(r, "model"),
                    t.num(r, "batch"),
                    t.num(r, col),
                    t.num(r, "graphs"),
                    t.num(r, "ms"),
                    t.num(r, "min_ms"),
                ) else {
                    continue;
                };
                if gr < 0.0 {
                    continue;
                }
                let graphs = gr > 0.5;
                out.push(Measured {
                    model: model.to_string(),
                    phase,
                    batch: b as u64,
                    n: n as u64,
                    graphs,
                    ms: if graphs { ms } else { min },
                    typical_ms: ms,
                    per_head,
                })
            }
        }
        out
    }
}

impl Measured {
    /// The case it measured (H200, bf16 weights and KV).
    pub fn case(&self) -> Option<Case> {
        let p = preset(&self.model)?;
        Some(Case {
            shape: p.shape,
            phase: self.phase,
            batch: self.batch,
            ctx: if self.phase == Phase::Decode { self.n } else { 0 },
            seq: if self.phase == Phase::Prefill { self.n } else { 1 },
            dt: dtypes("bf16", "bf16"),
            graphs: self.graphs,
        })
    }
    /// Held out of every fit: the models not used to choose or tune any
    /// effect (the calibration curves come from separate microbenchmarks;
    /// these models' steps were only compared at the end).
    pub fn held_out(&self) -> bool {
        !fitted_model(&self.model)
    }
}

/// The measured step for a case, if one was measured (H200, bf16, a
/// preset): with `per_head` off, a grouped-query model's decode step run
/// with one `enable_gqa` call when there is one; otherwise the main run's
/// (per-head layout; for a model without grouped queries both layouts are
/// the same call). `Measured::per_head` says which it is.
pub fn measured_for(model: &str, c: &Case, gpu_code: &str, per_head: bool) -> Option<&'static Measured> {
    if gpu_code != "h200" || c.dt != dtypes("bf16", "bf16") {
        return None;
    }
    let n = if c.phase == Phase::Decode { c.ctx } else { c.seq };
    let hit = |m: &&Measured| {
        m.model == model && m.phase == c.phase && m.batch == c.batch && m.n == n && m.graphs == c.graphs
    };
    let gqa = if per_head { None } else { measured_gqa().iter().find(hit) };
    gqa.or_else(|| measured().iter().find(hit))
}

/// The measured decode steps of a model at a context and launch mode, in
/// the layout `per_head` asks for where it was run (see [`measured_for`]).
pub fn measured_decode_batches(model: &str, ctx: u64, graphs: bool, per_head: bool) -> Vec<&'static Measured> {
    let pick = |set: &'static [Measured]| -> Vec<&'static Measured> {
        set.iter()
            .filter(|m| m.model == model && m.phase == Phase::Decode && m.n == ctx && m.graphs == graphs)
            .collect()
    };
    let gqa = if per_head { Vec::new() } else { pick(measured_gqa()) };
    if gqa.is_empty() {
        pick(measured())
    } else {
        gqa
    }
}

/// Every `enable_gqa` decode step against the prediction with the default
/// effects (an engine's split-KV decode kernel, `On::ALL`), graphs and
/// eager, as rows of the accuracy table (decode, held out; computed once).
pub fn gqa_accuracy() -> &'static [AccuracyRow] {
    static ROWS: OnceLock<Vec<AccuracyRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        [true, false]
            .into_iter()
            .filter_map(|graphs| {
                summarize(measured_gqa().iter().filter(|m| m.graphs == graphs), On::ALL, Phase::Decode, graphs, true)
            })
            .collect()
    })
}

/// [`gqa_accuracy`] as docs/measurements/2026-12-03-llm-gqa-decode.md prints
/// it, with every point (a test keeps that copy equal).
pub fn gqa_accuracy_markdown() -> String {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let name = |m: &str| preset(m).map_or(m.to_string(), |p| p.name.to_string());
    let mut s = String::from("| steps | n | median | worst | against the median calls |\n|---|---|---|---|---|\n");
    for r in gqa_accuracy() {
        let (model, b, n, ratio) = &r.worst_case;
        s += &format!(
            "| decode, {} | {} | {} | {} ({}, B {b}, ctx {n}: {ratio:.2}×) | {} |\n",
            if r.graphs { "graph" } else { "eager" },
            r.count,
            pct(r.median),
            pct(r.worst),
            name(model),
            if r.graphs { "(the same)".to_string() } else { format!("{} / {}", pct(r.typical.0), pct(r.typical.1)) },
        );
    }
    let cal = Calibration::shipped();
    s += "\nEvery point (ms; the prediction with the default effects, and with `per-head` on, as the \
          main run's kernel):\n\n| model | B | ctx | launch | measured | predicted | ratio | per-head predicted | \
          per-head measured (main run) |\n|---|---|---|---|---|---|---|---|---|\n";
    for m in measured_gqa() {
        let Some(c) = m.case() else { continue };
        let p = step_time(&c, h200(), cal, On::ALL) * 1e3;
        let ph = step_time(&c, h200(), cal, On::MEASURED) * 1e3;
        let main = measured_for(&m.model, &c, "h200", true)
            .filter(|x| x.per_head)
            .map_or("—".to_string(), |x| format!("{:.2}", x.ms));
        s += &format!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2}× | {:.2} | {} |\n",
            name(&m.model),
            m.batch,
            m.n,
            if m.graphs { "graph" } else { "eager" },
            m.ms,
            p,
            p / m.ms,
            ph,
            main
        );
    }
    s
}

/// One row of the accuracy table.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    pub phase: Phase,
    pub graphs: bool,
    pub held_out: bool,
    pub count: usize,
    /// Median and largest |prediction ÷ measured − 1|.
    pub median: f64,
    pub worst: f64,
    /// The worst case: model, batch, ctx or seq, prediction ÷ measured.
    pub worst_case: (String, u64, u64, f64),
    /// Median and largest |prediction ÷ typical − 1| against the median
    /// calls (`Measured::typical_ms`: for eager, the host's slow states mixed in).
    pub typical: (f64, f64),
}

/// Prediction against measurement over the shipped grid: decode and
/// prefill, graphs and eager, fitted and held-out models (computed once).
pub fn accuracy_table() -> &'static [AccuracyRow] {
    static ROWS: OnceLock<Vec<AccuracyRow>> = OnceLock::new();
    ROWS.get_or_init(accuracy_rows)
}

fn accuracy_rows() -> Vec<AccuracyRow> {
    let mut rows = Vec::new();
    for phase in [Phase::Decode, Phase::Prefill] {
        for graphs in [true, false] {
            for held_out in [false, true] {
                let points =
                    measured().iter().filter(|m| m.phase == phase && m.graphs == graphs && m.held_out() == held_out);
                rows.extend(summarize(points, On::MEASURED, phase, graphs, held_out));
            }
        }
    }
    rows
}

/// One row of the table: these measured steps against the prediction with
/// these effects (`None` if there are none).
fn summarize<'a>(
    points: impl Iterator<Item = &'a Measured>,
    on: On,
    phase: Phase,
    graphs: bool,
    held_out: bool,
) -> Option<AccuracyRow> {
    let cal = Calibration::shipped();
    let mut errs: Vec<(f64, &Measured, f64)> = Vec::new();
    let mut typical = Vec::new();
    for m in points {
        let Some(c) = m.case() else { continue };
        let p = step_time(&c, h200(), cal, on) * 1e3;
        let r = p / m.ms;
        errs.push(((r - 1.0).abs(), m, r));
        typical.push((p / m.typical_ms - 1.0).abs());
    }
    let w = errs.iter().max_by(|a, b| a.0.total_cmp(&b.0))?;
    Some(AccuracyRow {
        phase,
        graphs,
        held_out,
        count: errs.len(),
        median: median(errs.iter().map(|e| e.0).collect()),
        worst: w.0,
        worst_case: (w.1.model.clone(), w.1.batch, w.1.n, w.2),
        typical: (median(typical.clone()), typical.iter().copied().fold(0.0, f64::max)),
    })
}

/// The accuracy table as docs/measurements/2026-12-01-llm-accuracy.md prints it
/// (markdown, from [`accuracy_table`]): a test keeps that copy equal to it.
pub fn accuracy_markdown() -> String {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let (f, cal) = (Fit::shipped(), Calibration::shipped());
    let us = |x: f64| format!("{:.2} µs", x * 1e6);
    let mut s = format!(
        "Constants: graph gap {} per kernel and eager gap {} per kernel (fitted); the host's stages \
         × in-situ factor {:.2} (measured), about {} per kernel of a LLaMA decode layer and {} of a \
         GPT-2 one.\n\n",
        us(f.graph_gap),
        us(f.eager_gap),
        cal.host_in_situ,
        us(f.host_llama),
        us(f.host_gpt2)
    );
    s += "| steps | models | n | median | worst | against the median calls |\n|---|---|---|---|---|---|\n";
    for r in accuracy_table() {
        let (model, b, n, ratio) = &r.worst_case;
        let name = preset(model).map_or(model.as_str(), |p| p.name);
        let at = match r.phase {
            Phase::Decode => format!("B {b}, ctx {n}"),
            Phase::Prefill => format!("B {b}, {n} tokens"),
        };
        s += &format!(
            "| {}, {} | {} | {} | {} | {} ({name}, {at}: {ratio:.2}×) | {} |\n",
            if r.phase == Phase::Decode { "decode" } else { "prefill" },
            if r.graphs { "graph" } else { "eager" },
            if r.held_out { "held out" } else { "fitted" },
            r.count,
            pct(r.median),
            pct(r.worst),
            if r.graphs { "(the same)".to_string() } else { format!("{} / {}", pct(r.typical.0), pct(r.typical.1)) },
        );
    }
    s
}
