//! `#/hardware` and `#/roofline` (notes §1–2, §4, §5, §6.2), both reading the
//! one model in `sim::roofline`.

use super::frame::{setter, Choice, PanelFrame, Preset, Presets};
use crate::params::Value;
use crate::sim::roofline::{self, attainable_tflops, block_scaled_bits, op_work, HARDWARE as PRESETS};
use crate::sim::Metric;
use crate::topics::{machine, roofline_work, HARDWARE, ROOFLINE};
use crate::ui::app::AppCtx;
use crate::ui::canvas::use_width;
use crate::ui::chart::{LogChart, LogSeries, RoofDot, RooflineChart};
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::use_url_state;
use std::rc::Rc;
use yew::prelude::*;

fn short(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

#[component]
pub fn HardwarePanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&HARDWARE);
    let v = st.values.clone();
    let h = machine(&v);
    let dtype = v.choice("dtype");
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let d = st.dispatch.clone();
    let ridge = h.ridge(dtype);
    let metrics = vec![
        Metric::real("ridge", ridge),
        Metric::real("peak-tflops", h.peak_tflops(dtype)),
        Metric::real("bandwidth-tbps", h.hbm_tbps),
    ];
    let level = |key: &str, size: String, scope: &str, speed: String| {
        html! {
            <tr><td>{ ctx.t(key) }</td><td class="num">{ size }</td><td>{ ctx.t(scope) }</td><td>{ speed }</td></tr>
        }
    };
    let known = |x: f64, unit: &str| if x > 0.0 { format!("{x} {unit}") } else { "—".to_string() };
    let years: Vec<f64> = (0..=20).map(|y| y as f64).collect();
    let growth = |per2: f64| years.iter().map(|&y| (y, per2.powf(y / 2.0))).collect::<Vec<_>>();
    let series = Rc::new(vec![
        LogSeries {
            label: ctx.t("hardware.growth.compute"),
            color: crate::scene::Rgba::rgb(235, 110, 20),
            points: growth(3.0),
        },
        LogSeries {
            label: ctx.t("hardware.growth.dram"),
            color: crate::scene::Rgba::rgb(20, 90, 200),
            points: growth(1.6),
        },
        LogSeries {
            label: ctx.t("hardware.growth.ici"),
            color: crate::scene::Rgba::rgb(16, 130, 60),
            points: growth(1.4),
        },
    ]);
    let controls = html! {
        <>
            <Choice name="gpu" options={&["a100", "h100", "h200", "b200", "custom"][..]} value={v.choice("gpu")} dispatch={d.clone()} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={dtype} dispatch={d.clone()} />
            if v.choice("gpu") == "custom" {
                <Slider name="peak" value={v.int("peak")} min={1} max={100_000} log={true} on_change={setter(&d, "peak")} />
                <Slider name="bw" value={v.int("bw")} min={1} max={100_000} log={true} on_change={setter(&d, "bw")} />
            }
        </>
    };
    let stage_html = html! {
        <>
            <Readouts topic="hardware" metrics={Rc::new(metrics)} />
            <p class="formula" data-testid="ridge">{ ctx.tf("hardware.ridge", &[
                ("peak", &short(h.peak_tflops(dtype))), ("bw", &h.hbm_tbps.to_string()), ("r", &format!("{ridge:.0}")),
            ]) }</p>
            <h2 class="chart-title">{ ctx.t("hardware.hierarchy") }</h2>
            <table class="ledger" data-testid="hierarchy">
                <tbody>
                    { level("hardware.level.regs", known(h.regs_kb_per_sm, "KB"), "hardware.per-sm", ctx.t("hardware.speed.regs")) }
                    { level("hardware.level.smem", known(h.smem_kb_per_sm, "KB"), "hardware.per-sm", ctx.t("hardware.speed.smem")) }
                    { level("hardware.level.l2", known(h.l2_mb, "MB"), "hardware.chip", ctx.t("hardware.speed.l2")) }
                    { level("hardware.level.hbm", known(h.hbm_gb, "GB"), "hardware.chip", ctx.tf("hardware.speed.hbm", &[("bw", &format!("{:.2}", h.hbm_tbps))])) }
                </tbody>
            </table>
            <h2 class="chart-title">{ ctx.t("hardware.table") }</h2>
            <table class="ledger" data-testid="gpu-table">
                <thead><tr><th>{"GPU"}</th><th>{"SMs"}</th><th>{"BF16"}</th><th>{"HBM"}</th><th>{ ctx.t("metric.ridge") }</th></tr></thead>
                <tbody>
                    { for PRESETS.iter().map(|g| html! {
                        <tr data-gpu={g.code}>
                            <td>{ g.name }</td><td class="num">{ g.sms }</td>
                            <td class="num">{ format!("{:.0} TFLOP/s", g.bf16_tflops) }</td>
                            <td class="num">{ format!("{:.2} TB/s", g.hbm_tbps) }</td>
                            <td class="num">{ format!("{:.0}", g.ridge("bf16")) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <h2 class="chart-title">{ ctx.t("hardware.growth") }</h2>
            <LogChart series={series} marker={0.0} x_desc={ctx.t("hardware.years")} y_desc={ctx.t("hardware.growth.axis")}
                width={(width - 4.0).max(240.0)} height={240.0} present={ctx.present} growth={true} label={ctx.t("hardware.growth")} />
            <p class="muted">{ ctx.tf("hardware.source", &[("s", h.source)]) }</p>
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("hardware.explain") }</p><p class="lecture-check">{ ctx.t("hardware.lecture") }</p></> };
    html! {
        <PanelFrame id="hardware" sections="1–2, 4" demo="01 · 1" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

#[component]
pub fn RooflinePanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&ROOFLINE);
    let v = st.values.clone();
    let h = *roofline::hardware(v.choice("gpu"));
    let dtype = v.choice("dtype");
    let op = v.choice("op");
    let work = roofline_work(&v, op);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let d = st.dispatch.clone();
    let e = roofline::dtype_bytes(dtype);
    let ops = ["relu", "dot", "matvec", "matmul", "decode"];
    let mut dots: Vec<RoofDot> = ops
        .iter()
        .map(|o| {
            let w = roofline_work(&v, o);
            RoofDot {
                label: ctx.t(&format!("choice.op.{o}")),
                intensity: w.intensity(),
                tflops: attainable_tflops(&h, dtype, w.intensity()),
                selected: *o == op,
            }
        })
        .collect();
    if op == "custom" {
        dots.push(RoofDot {
            label: ctx.t("choice.op.custom"),
            intensity: work.intensity(),
            tflops: attainable_tflops(&h, dtype, work.intensity()),
            selected: true,
        });
    }
    let rows = ops.iter().map(|o| {
        let w = roofline_work(&v, o);
        let a = attainable_tflops(&h, dtype, w.intensity());
        html! {
            <tr class={classes!((*o == op).then_some("current"))}>
                <td>{ ctx.t(&format!("choice.op.{o}")) }</td>
                <td class="num">{ short(w.intensity()) }</td>
                <td class="num">{ format!("{} TFLOP/s", short(a)) }</td>
                <td class="num">{ format!("{:.1}%", 100.0 * a / h.peak_tflops(dtype)) }</td>
            </tr>
        }
    });
    let relu = op_work("relu", 1.0, 0.0, 0.0, e);
    let precision = ctx.tf(
        "roofline.precision",
        &[
            ("b", &format!("{}", relu.bytes)),
            ("dtype", dtype),
            ("mx", &block_scaled_bits(8.0, 8.0, 32.0).to_string()),
            ("nv", &block_scaled_bits(4.0, 8.0, 16.0).to_string()),
        ],
    );
    let batch_case = |b: i64| Preset {
        label: match b {
            1 => "roofline.b1",
            8 => "roofline.b8",
            64 => "roofline.b64",
            256 => "roofline.b256",
            _ => "roofline.b1024",
        },
        id: match b {
            1 => "b1",
            8 => "b8",
            64 => "b64",
            256 => "b256",
            _ => "b1024",
        },
        values: vec![
            ("gpu", Value::Choice("h100")),
            ("dtype", Value::Choice("bf16")),
            ("op", Value::Choice("decode")),
            ("d", Value::Int(8192)),
            ("batch", Value::Int(b)),
        ],
    };
    let presets = Rc::new([1, 8, 64, 256, 1024].map(batch_case).into_iter().collect::<Vec<_>>());
    let controls = html! {
        <>
            <Choice name="gpu" options={&["a100", "h100", "h200", "b200"][..]} value={v.choice("gpu")} dispatch={d.clone()} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={dtype} dispatch={d.clone()} />
            <Choice name="op" options={&["relu", "dot", "matvec", "matmul", "decode", "custom"][..]} value={op} dispatch={d.clone()} />
            <Slider topic="roofline" name="n" value={v.int("n")} min={1} max={65536} log={true} on_change={setter(&d, "n")} />
            <Slider topic="roofline" name="d" value={v.int("d")} min={1} max={65536} log={true} on_change={setter(&d, "d")} />
            <Slider name="batch" value={v.int("batch")} min={1} max={65536} log={true} on_change={setter(&d, "batch")} />
            if op == "custom" {
                <Slider name="flops" value={v.int("flops")} min={1} max={1_000_000_000_000_000} log={true} on_change={setter(&d, "flops")} />
                <Slider name="bytes" value={v.int("bytes")} min={1} max={1_000_000_000_000_000} log={true} on_change={setter(&d, "bytes")} />
            }
            <Presets title="roofline.presets" presets={presets} dispatch={d.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <Readouts topic="roofline" metrics={Rc::new(roofline::metrics(&h, dtype, work))} />
            <h2 class="chart-title">{ ctx.t("roofline.chart") }</h2>
            <RooflineChart peak={h.peak_tflops(dtype)} bandwidth={h.hbm_tbps} dots={Rc::new(dots)} x_desc={"FLOP / byte"}
                width={(width - 4.0).max(240.0)} height={if ctx.present { 420.0 } else { 360.0 }} present={ctx.present}
                label={ctx.t("roofline.chart")} />
            <h2 class="chart-title">{ ctx.t("roofline.table") }</h2>
            <table class="ledger" data-testid="ops-table">
                <thead><tr><th>{ ctx.t("roofline.col.op") }</th><th>{ ctx.t("roofline.col.intensity") }</th>
                    <th>{ ctx.t("roofline.col.attainable") }</th><th>{ ctx.t("roofline.col.peak") }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="muted">{ ctx.tf("roofline.decode", &[("d", &v.int("d").to_string())]) }</p>
            <p data-testid="precision">{ precision }</p>
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("roofline.explain") }</p><p class="lecture-check">{ ctx.t("roofline.lecture") }</p></> };
    html! {
        <PanelFrame id="roofline" sections="5, 6.2" demo="01 · 2–3" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
