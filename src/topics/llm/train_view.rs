//! `#/llm?phase=train`: the training lens's panel. The stage is the memory
//! timeline of one step (player: point by point), beside the key figures;
//! then the waterfall of effects, the host- or GPU-bound verdict, the
//! measured step and the accuracy table.

use super::lens::{accuracy_frame, file_date, waterfall_html, WfRow};
use super::train;
use crate::draw::train::{draw, part_colors, Labels};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::train::measured::{self, Fit};
use crate::sim::train::memory::{Point, Timeline};
use crate::sim::train::time::Effect;
use crate::sim::Steppable;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, legend_item, preset_row, Preset};
use std::rc::Rc;
use yew::prelude::*;

/// The translated name of a point of the timeline.
pub fn point_label(ctx: &AppCtx, p: Point) -> String {
    match p {
        Point::Start => ctx.t("llm.train.point.start"),
        Point::Embedding => ctx.t("llm.train.point.embedding"),
        Point::Forward(i) => ctx.tf("llm.train.point.forward", &[("i", &(i + 1).to_string())]),
        Point::Head => ctx.t("llm.train.point.head"),
        Point::HeadBackward => ctx.t("llm.train.point.head-backward"),
        Point::Backward(i) => ctx.tf("llm.train.point.backward", &[("i", &(i + 1).to_string())]),
        Point::EmbeddingBackward => ctx.t("llm.train.point.embedding-backward"),
        Point::Optimizer => ctx.t("llm.train.point.optimizer"),
        Point::End => ctx.t("llm.train.point.end"),
    }
}

fn gb(x: f64) -> String {
    format!("{:.1}", x / 1e9)
}

/// The assignment's five sizes at batch 4, context 512, as presets.
fn presets() -> Vec<Preset> {
    crate::sim::train::PRESETS
        .iter()
        .map(|pr| Preset {
            label: match pr.code {
                "cs336-small" => "choice.model.cs336-small",
                "cs336-medium" => "choice.model.cs336-medium",
                "cs336-large" => "choice.model.cs336-large",
                "cs336-xl" => "choice.model.cs336-xl",
                _ => "choice.model.cs336-2.7b",
            },
            id: pr.code,
            values: vec![
                ("phase", Value::Choice("train")),
                ("model", Value::Choice(pr.code)),
                ("batch", Value::Int(4)),
                ("seq", Value::Int(512)),
            ],
        })
        .collect()
}

/// The training lens's controls, stage and explanation.
pub fn train_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let v = &p.v;
    let c = train::config(v);
    let g = super::gpu(v);
    let tl = Timeline::new(c);
    let step = (v.int("step") as u64).min(tl.steps());
    let points = train::timeline(v);
    let (peak, _) = tl.peak();
    let capacity = g.hbm_gb * 1e9;
    let peak_label = ctx.tf("llm.train.timeline.peak", &[("gb", &gb(peak))]);
    let cap_label = if capacity > 0.0 {
        ctx.tf("llm.train.timeline.capacity", &[("gpu", g.name), ("gb", &format!("{:.0}", g.hbm_gb))])
    } else {
        String::new()
    };
    let (fwd, bwd, opt, axis) = (
        ctx.t("llm.train.phase.forward"),
        ctx.t("llm.train.phase.backward"),
        ctx.t("llm.train.phase.optimizer"),
        ctx.t("llm.train.timeline.axis"),
    );
    let labels = Labels { phases: [&fwd, &bwd, &opt], peak: &peak_label, capacity: &cap_label, axis: &axis };
    let width = p.width.min(1100.0);
    let scene = SceneRef(Rc::new(draw(&points, step as usize, capacity, &theme, width, &labels)));
    let colors = part_colors(&theme);
    let legend_keys = [
        "llm.train.legend.params",
        "llm.train.legend.optimizer",
        "llm.train.legend.grads",
        "llm.train.legend.activations",
        "llm.train.legend.scores",
        "llm.train.legend.transient",
    ];
    let here = &points[step as usize];
    let fits = train::fits(&c, &g);
    let no_fit = (!fits).then(|| {
        ctx.tf("llm.train.no-fit", &[("need", &gb(peak)), ("gpu", g.name), ("have", &format!("{:.0}", g.hbm_gb))])
    });

    // The waterfall.
    let (plain, rows, total) = train::waterfall(v);
    let r = Fit::shipped().rates;
    let phases = train::phases(v);
    let kernels = phases.launches.iter().sum::<f64>();
    let pct = |x: f64| format!("{:.0}", 100.0 * x);
    let us = |x: f64| format!("{:.1}", x * 1e6);
    let source = |e: Effect| match e {
        Effect::Rates => ctx.tf(
            "llm.train.source.rates",
            &[("fp32", &pct(r.mm[0])), ("tf32", &pct(r.mm[1])), ("bf16", &pct(r.mm[2])), ("bw", &pct(r.bw))],
        ),
        Effect::Host => ctx.tf(
            "llm.train.source.host",
            &[
                ("fwd", &us(r.host[0])),
                ("bwd", &us(r.host[1])),
                ("opt", &us(r.host[2])),
                ("k", &format!("{kernels:.0}")),
            ],
        ),
        e => ctx.t(&format!("llm.train.source.{}", e.code())),
    };
    let wf_rows: Vec<WfRow> = rows
        .iter()
        .map(|r| {
            WfRow::new(ctx, "llm.train", r.effect.code(), r.on, r.ms, train::toggled(v, r.effect), source(r.effect))
        })
        .collect();
    let waterfall = waterfall_html(p, ctx, "train-waterfall", plain, &wf_rows, total, 2);
    // Host- or GPU-bound, honestly: a host-bound phase is a range.
    let bound_names: Vec<String> = (0..3)
        .filter(|&i| phases.host_bound(i))
        .map(|i| ctx.t(["llm.train.phase.forward", "llm.train.phase.backward", "llm.train.phase.optimizer"][i]))
        .collect();
    let verdict = if bound_names.is_empty() {
        html! { <p class="muted" data-testid="host-bound" data-value="0">{ ctx.t("llm.train.gpu-bound") }</p> }
    } else {
        let lo: f64 = (0..3).map(|i| phases.gpu[i].max(phases.host[i])).sum::<f64>() * 1e3;
        let hi: f64 = (0..3).map(|i| phases.gpu[i] + phases.host[i]).sum::<f64>() * 1e3;
        html! {
            <p class="notice" data-testid="host-bound" data-value="1" data-lo={lo.to_string()} data-hi={hi.to_string()}>
                { ctx.tf("llm.train.host-bound", &[("phases", &bound_names.join(", ")), ("lo", &format!("{lo:.1}")), ("hi", &format!("{hi:.1}"))]) }
            </p>
        }
    };
    // Measured beside predicted.
    // The key figures once: the readouts and the measured line both show them.
    let figures = train::metrics(v);
    let m: Vec<f64> = figures.iter().map(|f| f.value).collect();
    let measured_html = if v.choice("measured") == "1" {
        let point = match train::measured(v) {
            Some(s) if s.oom => {
                html! { <p class="formula" data-measured="oom">{ ctx.t("llm.train.measured.oom") }</p> }
            }
            Some(s) => {
                let f2 = |x: f64| format!("{x:.2}");
                html! {
                    <p class="formula" data-measured="train-step-ms" data-value={s.step_ms.to_string()}
                        data-fwd={s.ms[0].to_string()} data-bwd={s.ms[1].to_string()} data-opt={s.ms[2].to_string()} data-peak={s.peak.to_string()}>
                        { ctx.tf("llm.train.measured.point", &[
                            ("fwd", &f2(s.ms[0])), ("bwd", &f2(s.ms[1])), ("opt", &f2(s.ms[2])), ("peak", &gb(s.peak)),
                            ("pfwd", &f2(m[0])), ("pbwd", &f2(m[1])), ("popt", &f2(m[2])), ("ppeak", &format!("{:.1}", m[4])),
                        ]) }
                    </p>
                }
            }
            None => html! { <p class="muted">{ ctx.t("llm.train.measured.none") }</p> },
        };
        html! {
            <section class="measured" data-testid="measured-train">
                { chart_title(ctx, "llm.train.measured.title") }
                { point }
                { accuracy(ctx) }
                <p class="measured-note">{ ctx.tf("llm.train.measured.label", &[("date", file_date(measured::STEPS_CSV))]) }</p>
            </section>
        }
    } else {
        html! {}
    };
    let controls = html! {
        <>
            { p.controls(&["model"]) }
            if v.choice("model") == "custom" {
                { p.controls(&["layers", "dmodel", "heads", "ffn", "vocab"]) }
            }
            { p.controls(&["phase", "batch", "seq", "precision", "attention", "optimizer", "checkpoint", "ops", "gpu", "measured"]) }
            { preset_row(ctx, "llm.train.presets", &presets(), &p.dispatch) }
        </>
    };
    let stage = html! {
        <>
            <SceneCanvas scene={scene} name={format!("train-step{step}")} label={ctx.t("llm.train.timeline")} />
            <div class="legend">
                { for legend_keys.iter().zip(colors).map(|(k, col)| legend_item(ctx, col, k)) }
            </div>
            <Player pos={step} len={tl.steps()} speed={v.int("speed")} unit="param.step"
                on_seek={p.seek("step")} on_speed={p.set("speed")} export={None} />
            <p class="formula" data-testid="train-point" data-value={(here.1.total() / 1e9).to_string()}>
                { ctx.tf("llm.train.point", &[("point", &point_label(ctx, here.0)), ("gb", &gb(here.1.total()))]) }
            </p>
            if let Some(msg) = no_fit {
                <p class="notice" data-testid="no-fit" role="status">{ msg }</p>
            }
            { readouts(ctx, "llm", &figures) }
            { chart_title(ctx, "llm.train.waterfall") }
            { waterfall }
            { verdict }
            { measured_html }
            <p class="muted">{ ctx.t("llm.train.links") }</p>
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The accuracy table of the training lens (held-out checks).
fn accuracy(ctx: &AppCtx) -> Html {
    let pct = |x: f64| format!("{:.1} %", 100.0 * x);
    let rows = measured::accuracy()
        .iter()
        .map(|a| {
            let goal =
                if a.goal.0.is_nan() { "—".to_string() } else { format!("{} / {}", pct(a.goal.0), pct(a.goal.1)) };
            html! {
                <tr data-check={a.check} data-median={a.median.to_string()} data-worst={a.worst.to_string()}>
                    <td>{ ctx.t(&format!("llm.train.acc.{}", a.check)) }</td>
                    <td class="num">{ a.points }</td>
                    <td class="num">{ pct(a.median) }</td>
                    <td class="num">{ pct(a.worst) }</td>
                    <td class="num">{ goal }</td>
                </tr>
            }
        })
        .collect::<Html>();
    let head = [
        "llm.train.acc.col.check",
        "llm.train.acc.col.n",
        "llm.train.acc.col.median",
        "llm.train.acc.col.worst",
        "llm.train.acc.col.goal",
    ];
    accuracy_frame(ctx, "llm.train.accuracy", "train-accuracy", &head, rows)
}
