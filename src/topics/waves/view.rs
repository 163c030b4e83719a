//! The `#/waves` panel: wave quantization and the sawtooth (notes §7, demo
//! 5 of 02).

use crate::draw::matmul::draw_waves;
use crate::scene::Theme;
use crate::sim::hw;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::chart::{Chart, SeriesChart};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::measured::{measured_note, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{beside_scene, chart_title, legend_item, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_waves_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let v = &p.v;
    let n = v.int("n") as u64;
    let w = super::waves_at(v, n);
    let g = hw::gpu(v.choice("gpu"));
    let wave_label = |i: u64| ctx.tf("waves.wave", &[("w", &i.to_string())]);
    let scene = SceneRef(Rc::new(draw_waves(&w, &theme, p.width, &wave_label)));
    // The measured H200 sweep (h200-matmul.csv), overlaid on the H200's model.
    let table = use_measured(super::MATMUL_FILE, v.choice("measured") == "1");
    let on_gpu = table.as_ref().is_some_and(|t| super::measured_on(t, g));
    let measured: Vec<(f64, f64)> = match &table {
        Some(t) if on_gpu => super::measured_series(t),
        _ => Vec::new(),
    };
    let align = table.as_ref().and_then(|t| {
        let a = super::alignment(t)?;
        let ratio = super::model_over_measured(v, t);
        let texts = super::measured_text(ctx.lang, &a, ratio);
        Some((a, ratio, texts))
    });
    let chart = {
        let v = v.clone();
        let present = ctx.present;
        let overlay = measured.clone();
        let key = (
            v.choice("gpu"),
            v.int("sms"),
            v.int("m"),
            v.int("k"),
            v.int("tm"),
            v.int("tn"),
            present,
            ctx.lang,
            overlay.len(),
        );
        use_memo(key, move |_| {
            let (ys, y_max) = super::curve(&v);
            Rc::new(SeriesChart {
                ys,
                x0: super::CURVE_N.0 as f64,
                dx: 1.0,
                y_max,
                bands: vec![],
                x_desc: "n".into(),
                y_desc: "TFLOP/s".into(),
                color: theme.fill_tint,
                present,
                overlay,
            })
        })
    };
    let presets = super::LECTURE_CASES
        .iter()
        .map(|&(label, id, n)| Preset { label, id, values: super::lecture_case(n) })
        .collect::<Vec<_>>();
    let controls = p.controls_with_presets(
        &["gpu", "sms", "n", "m", "k", "tm", "tn", "ref", "measured"],
        "waves.presets",
        &presets,
    );
    let on_seek = p.seek("n");
    let stage = html! {
        <>
            { chart_title(ctx, "waves.grid") }
            <SceneCanvas scene={scene} name={format!("waves-{}-n{}", g.code, n)} label={ctx.t("waves.grid")} />
            <div class="legend">
                { legend_item(ctx, theme.busy_hot, "waves.legend.busy") }
                { legend_item(ctx, theme.waiting, "waves.legend.idle") }
            </div>
            { readouts(ctx, "waves", &super::metrics(v)) }
            // The sawtooth right under the strip (never taller than
            // draw::matmul::WAVES_MAX_H), beside the key figures.
            { beside_scene(html! {
                <>
                    { chart_title(ctx, "waves.chart") }
                    <Chart data={(*chart).clone()} width={(p.width - 4.0).max(240.0)} height={if ctx.present { 260.0 } else { 220.0 }}
                        cursor={n as f64} on_seek={on_seek} label={ctx.t("waves.chart")} />
                </>
            }, true) }
            <p class="muted">{ ctx.t("waves.model") }</p>
            { lecture_table(ctx, "waves", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            <p class="formula" data-testid="why" data-sms={w.sms.to_string()} data-last-wave-tiles={w.last_wave_tiles().to_string()}
                data-idle-sms={(w.sms - w.last_wave_tiles()).to_string()}>{ super::why(ctx.lang, v) }</p>
            <p class="muted">{ ctx.tf("waves.time-k", &[("x", &format!("{:.2}", super::time_k(v)))]) }</p>
            if !measured.is_empty() {
                <p class="muted" data-testid="measured">{ ctx.tf("waves.measured", &[("gpu", g.name)]) }</p>
            }
            if let Some(t) = table.clone() {
                <section class="measured" data-testid="measured-waves">
                    { chart_title(ctx, "waves.measured.title") }
                    if !on_gpu {
                        <p class="muted">{ ctx.t("waves.measured.other-gpu") }</p>
                    }
                    if let Some((a, ratio, texts)) = align.clone() {
                        <span hidden=true data-measured="tflops-mult64" data-value={a.mult64.to_string()} />
                        <span hidden=true data-measured="tflops-mult8" data-value={a.mult8.to_string()} />
                        <span hidden=true data-measured="tflops-odd" data-value={a.odd.to_string()} />
                        <span hidden=true data-measured="alignment-ratio" data-value={a.ratio.to_string()} />
                        <p class="current">{ texts[0].clone() }</p>
                        if let Some([m128, m32, rest]) = super::by_divisor(&t) {
                            <p class="current" data-testid="by-divisor" data-m128={m128.to_string()} data-m32={m32.to_string()} data-rest={rest.to_string()}>
                                { ctx.tf("waves.measured.divisors", &[("m128", &format!("{m128:.0}")), ("m32", &format!("{m32:.0}")), ("rest", &format!("{rest:.0}"))]) }
                            </p>
                        }
                        <p class="current" data-measured="model-over-measured"
                            data-value={ratio.map(|r| r.to_string()).unwrap_or_default()}>{ texts[1].clone() }</p>
                    }
                    { measured_note(ctx, &t) }
                </section>
            }
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_waves_panel);
