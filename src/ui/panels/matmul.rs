//! The matmul panels: `#/tiling`, `#/quantization`, `#/waves`, `#/gpu-vs-tpu`
//! (notes §6.6, §7, §9.1).

use super::frame::{legend_item, setter, Choice, PanelFrame, Preset, Presets};
use super::inset::RooflineInset;
use crate::draw::matmul::{draw_compare, draw_quantization, draw_tiling, draw_waves};
use crate::i18n::{format_bytes, group_digits};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::matmul::{gpu, max_tile, modelled_tflops};
use crate::sim::roofline::Work;
use crate::sim::Metric;
use crate::topics::{gpu_tpu, quantization, tiling, tiling_steps, waves_at, GPU_TPU, QUANTIZATION, TILING, WAVES};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::chart::{Chart, SeriesChart};
use crate::ui::player::Player;
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::use_url_state;
use std::rc::Rc;
use yew::prelude::*;

/// GET a text file next to the app; `None` if it is missing or unreadable.
async fn fetch_text(url: &str) -> Option<String> {
    use wasm_bindgen::JsCast;
    let resp = wasm_bindgen_futures::JsFuture::from(crate::ui::window().fetch_with_str(url)).await.ok()?;
    let resp: web_sys::Response = resp.dyn_into().ok()?;
    if !resp.ok() {
        return None;
    }
    wasm_bindgen_futures::JsFuture::from(resp.text().ok()?).await.ok()?.as_string()
}

const DTYPES: &[&str] = &["fp32", "bf16", "fp16", "fp8"];
const GPUS: &[&str] = &["a100", "h100", "h200", "b200"];

#[component]
pub fn TilingPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&TILING);
    let v = st.values.clone();
    let t = tiling(&v);
    let step = v.int("step") as u64;
    let steps = tiling_steps(&t);
    let (ti, tj) = (v.int("ti") as u64, v.int("tj") as u64);
    let rows = (t.m - (ti * t.t).min(t.m)).min(t.t);
    let cols = (t.n - (tj * t.t).min(t.n)).min(t.t);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let caption = if step == 0 {
        ctx.t("tiling.start")
    } else {
        let (s0, macs) = if t.tiled {
            let kk = (t.k - (step - 1) * t.t).min(t.t);
            (step - 1, rows * cols * kk)
        } else {
            (step - 1, rows * cols)
        };
        ctx.tf(
            if t.tiled { "tiling.step.tiled" } else { "tiling.step.naive" },
            &[
                ("s", &step.to_string()),
                ("p", &steps.to_string()),
                ("s0", &s0.to_string()),
                ("ti", &ti.to_string()),
                ("tj", &tj.to_string()),
                ("macs", &group_digits(macs)),
            ],
        )
    };
    // Drawn again only when what it shows changes (not on a speed or smem change).
    let scene = use_memo(
        (t, ti, tj, step, width as u32, ctx.present, caption.clone()),
        |(t, ti, tj, step, w, present, cap)| {
            SceneRef(Rc::new(draw_tiling(t, *ti, *tj, *step, &Theme::for_mode(*present), *w as f64, cap)))
        },
    );
    let (loads, macs) =
        if t.tiled { t.tile_progress(ti, tj, step) } else { (2 * rows * cols * step, rows * cols * step) };
    let smem = v.int("smem") as u64 * 1024;
    let maxt = max_tile(smem, t.elem_bytes);
    let fit_key = if 2 * t.t * t.t * t.elem_bytes <= smem { "tiling.fit" } else { "tiling.fit.no" };
    let fit = ctx.tf(
        fit_key,
        &[
            ("t", &t.t.to_string()),
            ("dtype", v.choice("dtype")),
            ("bytes", &format_bytes((2 * t.t * t.t * t.elem_bytes) as f64)),
            ("smem", &v.int("smem").to_string()),
            ("max", &maxt.to_string()),
        ],
    );
    let case = |id: &'static str, mode: &'static str, tile: i64| Preset {
        label: id,
        id,
        values: vec![
            ("n", Value::Int(256)),
            ("m", Value::Int(0)),
            ("k", Value::Int(0)),
            ("dtype", Value::Choice("fp32")),
            ("mode", Value::Choice(mode)),
            ("tile", Value::Int(tile)),
            ("step", Value::Int(0)),
            ("ti", Value::Int(0)),
            ("tj", Value::Int(0)),
        ],
    };
    let presets = Rc::new(vec![
        case("tiling.preset.naive", "naive", 16),
        case("tiling.preset.t4", "tiled", 4),
        case("tiling.preset.t16", "tiled", 16),
        case("tiling.preset.t64", "tiled", 64),
    ]);
    let d = st.dispatch.clone();
    let controls = html! {
        <>
            <Choice name="mode" options={&["naive", "tiled"][..]} value={v.choice("mode")} dispatch={d.clone()} />
            <Slider topic="tiling" name="n" value={v.int("n")} min={1} max={4096} log={true} on_change={setter(&d, "n")} />
            <Slider topic="tiling" name="m" value={v.int("m")} min={0} max={4096} on_change={setter(&d, "m")} />
            <Slider topic="tiling" name="k" value={v.int("k")} min={0} max={4096} on_change={setter(&d, "k")} />
            <Slider name="tile" value={v.int("tile")} min={1} max={256} log={true} on_change={setter(&d, "tile")} />
            <Slider name="ti" value={v.int("ti")} min={0} max={(t.m.div_ceil(t.t) - 1) as i64} on_change={setter(&d, "ti")} />
            <Slider name="tj" value={v.int("tj")} min={0} max={(t.n.div_ceil(t.t) - 1) as i64} on_change={setter(&d, "tj")} />
            <Choice name="dtype" options={DTYPES} value={v.choice("dtype")} dispatch={d.clone()} />
            <Slider topic="tiling" name="smem" value={v.int("smem")} min={1} max={1024} log={true} on_change={setter(&d, "smem")} />
            <Presets title="tiling.presets" presets={presets} dispatch={d.clone()} />
        </>
    };
    let ratio = if loads == 0 { "—".to_string() } else { format!("{:.2}", macs as f64 / loads as f64) };
    let stage_html = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("tiling-{}-n{}-t{}-s{}", v.choice("mode"), t.n, t.t, step)} label={caption.clone()} />
            <Player pos={step} len={steps} speed={v.int("speed")} unit="param.step" on_seek={setter(&d, "step").reform(|s: u64| s as i64)} on_speed={setter(&d, "speed")} />
            <p class="formula" data-testid="tile-counters">{ ctx.tf("tiling.counters", &[("loads", &group_digits(loads)), ("macs", &group_digits(macs)), ("ratio", &ratio)]) }</p>
            <Readouts topic="tiling" metrics={Rc::new([vec![Metric::count("step", step)], t.metrics(smem)].concat())} />
            <p class={classes!("check", if fit_key == "tiling.fit" { "ok" } else { "bad" })} data-testid="smem-fit">{ fit }</p>
            <RooflineInset gpu={v.choice("gpu")} dtype={v.choice("dtype")} dispatch={d.clone()} points={Rc::new(vec![
                ("inset.this", Work { flops: t.flops() as f64, bytes: t.global_bytes() as f64 }),
            ])} />
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("tiling.explain") }</p><p class="lecture-check">{ ctx.t("tiling.lecture") }</p></> };
    html! {
        <PanelFrame id="tiling" sections="6.6" demo="04" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

#[component]
pub fn QuantizationPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&QUANTIZATION);
    let v = st.values.clone();
    let q = quantization(&v);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(900.0);
    let scene = SceneRef(Rc::new(draw_quantization(&q, &Theme::for_mode(ctx.present), width)));
    let row = q.n * q.elem_bytes;
    let per_section = (q.section / q.elem_bytes).max(1);
    let padded = q.n.div_ceil(per_section) * per_section;
    let align = if q.aligned() {
        ctx.tf("quantization.align.yes", &[("row", &row.to_string()), ("section", &q.section.to_string())])
    } else {
        ctx.tf(
            "quantization.align.no",
            &[
                ("row", &row.to_string()),
                ("section", &q.section.to_string()),
                ("extra", &q.extra_transactions().to_string()),
                ("t", &q.t.min(q.m).to_string()),
                ("padded", &padded.to_string()),
            ],
        )
    };
    let case = |id: &'static str, n: i64| Preset {
        label: id,
        id,
        values: vec![
            ("n", Value::Int(n)),
            ("m", Value::Int(0)),
            ("tile", Value::Int(128)),
            ("dtype", Value::Choice("fp32")),
        ],
    };
    let presets = Rc::new(vec![case("quantization.preset.1024", 1024), case("quantization.preset.1025", 1025)]);
    let d = st.dispatch.clone();
    let controls = html! {
        <>
            <Slider topic="quantization" name="n" value={v.int("n")} min={1} max={8192} log={true} on_change={setter(&d, "n")} />
            <Slider name="m" value={v.int("m")} min={0} max={8192} on_change={setter(&d, "m")} />
            <Slider name="tile" value={v.int("tile")} min={1} max={512} log={true} on_change={setter(&d, "tile")} />
            <Choice name="dtype" options={DTYPES} value={v.choice("dtype")} dispatch={d.clone()} />
            <Choice name="section" options={&["32", "64", "128"][..]} value={v.choice("section")} dispatch={d.clone()} />
            <Presets title="quantization.presets" presets={presets} dispatch={d.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("quantization.grid") }</h2>
            <SceneCanvas scene={scene} name={format!("quantization-n{}-t{}", q.n, q.t)} label={ctx.t("quantization.grid")} />
            <Readouts topic="quantization" metrics={Rc::new(q.metrics())} />
            <p class={classes!("check", if q.aligned() { "ok" } else { "bad" })} data-testid="alignment">{ align }</p>
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("quantization.explain") }</p><p class="lecture-check">{ ctx.t("quantization.lecture") }</p></> };
    html! {
        <PanelFrame id="quantization" sections="6.6, 7" demo="04" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

#[component]
pub fn WavesPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&WAVES);
    let v = st.values.clone();
    let n = v.int("n") as u64;
    let w = waves_at(&v, n);
    let r = waves_at(&v, v.int("ref") as u64);
    let g = gpu(v.choice("gpu"));
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let theme = Theme::for_mode(ctx.present);
    let scene = SceneRef(Rc::new(draw_waves(&w, &theme, width)));
    const X0: u64 = 128;
    const X1: u64 = 8192;
    // An optional measured series, `assets/measured/matmul-<gpu>.csv` (lines
    // "n,tflops"); without the file the chart shows the model alone.
    let measured = use_state(Vec::<(f64, f64)>::new);
    {
        let measured = measured.clone();
        use_effect_with(g.code, move |code| {
            let code = code.to_string();
            measured.set(Vec::new());
            yew::platform::spawn_local(async move {
                // The index names the files that exist, so no request 404s.
                let Some(index) = fetch_text("assets/measured/available.txt").await else { return };
                if !index.lines().map(str::trim).any(|l| l == code) {
                    return;
                }
                if let Some(text) = fetch_text(&format!("assets/measured/matmul-{code}.csv")).await {
                    measured.set(crate::sim::matmul::parse_measured(&text));
                }
            });
        });
    }
    let chart = {
        let v = v.clone();
        let ctx = ctx.clone();
        let overlay = (*measured).clone();
        let key = (
            v.choice("gpu"),
            v.int("sms"),
            v.int("m"),
            v.int("k"),
            v.int("tm"),
            v.int("tn"),
            ctx.present,
            ctx.lang,
            overlay.len(),
        );
        use_memo(key, move |_| {
            let per_sm_peak = g.peak_tflops / g.sms as f64;
            let sms = waves_at(&v, X0).sms as f64;
            Rc::new(SeriesChart {
                ys: (X0..=X1).map(|x| modelled_tflops(&waves_at(&v, x), g)).collect(),
                x0: X0 as f64,
                dx: 1.0,
                y_max: per_sm_peak * sms,
                bands: vec![],
                x_desc: "n".into(),
                y_desc: "TFLOP/s".into(),
                color: Theme::for_mode(ctx.present).fill_tint,
                present: ctx.present,
                overlay,
            })
        })
    };
    let prev = waves_at(&v, n.saturating_sub(1).max(1));
    let why = if n <= 1 {
        String::new()
    } else if prev.waves() != w.waves() {
        ctx.tf(
            "waves.why.waves",
            &[
                ("a", &prev.waves().to_string()),
                ("b", &w.waves().to_string()),
                ("last", &(w.tiles() - (w.waves() - 1) * w.sms).to_string()),
                ("sms", &w.sms.to_string()),
            ],
        )
    } else if prev.tiles() != w.tiles() {
        ctx.tf("waves.why.tiles", &[("a", &prev.tiles().to_string()), ("b", &w.tiles().to_string())])
    } else {
        ctx.t("waves.why.same")
    };
    let metrics = vec![
        Metric::count("tiles", w.tiles()),
        Metric::count("waves", w.waves()),
        Metric::percent("sm-utilization", w.sm_utilization()),
        Metric::real("relative-flops", w.flops() / r.flops()),
        Metric::real("relative-time", w.time_waves() / r.time_waves()),
    ];
    let time_k = w.time_waves_k() / r.time_waves_k();
    let d = st.dispatch.clone();
    let case = |n: i64| Preset {
        label: match n {
            1792 => "waves.preset.1792",
            1793 => "waves.preset.1793",
            _ => "waves.preset.2560",
        },
        id: match n {
            1792 => "n1792",
            1793 => "n1793",
            _ => "n2560",
        },
        values: vec![
            ("gpu", Value::Choice("a100")),
            ("sms", Value::Int(0)),
            ("n", Value::Int(n)),
            ("m", Value::Int(0)),
            ("k", Value::Int(0)),
            ("tm", Value::Int(256)),
            ("tn", Value::Int(128)),
            ("ref", Value::Int(1792)),
        ],
    };
    let presets = Rc::new(vec![case(1792), case(1793), case(2560)]);
    let controls = html! {
        <>
            <Choice name="gpu" options={GPUS} value={v.choice("gpu")} dispatch={d.clone()} />
            <Slider name="sms" value={v.int("sms")} min={0} max={1024} on_change={setter(&d, "sms")} />
            <Slider topic="waves" name="n" value={v.int("n")} min={1} max={16384} log={true} on_change={setter(&d, "n")} />
            <Slider name="m" value={v.int("m")} min={0} max={16384} on_change={setter(&d, "m")} />
            <Slider topic="waves" name="k" value={v.int("k")} min={0} max={16384} on_change={setter(&d, "k")} />
            <Slider name="tm" value={v.int("tm")} min={1} max={1024} log={true} on_change={setter(&d, "tm")} />
            <Slider name="tn" value={v.int("tn")} min={1} max={1024} log={true} on_change={setter(&d, "tn")} />
            <Slider name="ref" value={v.int("ref")} min={1} max={16384} log={true} on_change={setter(&d, "ref")} />
            <Presets title="waves.presets" presets={presets} dispatch={d.clone()} />
        </>
    };
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("waves.grid") }</h2>
            <SceneCanvas scene={scene} name={format!("waves-{}-n{}", g.code, n)} label={ctx.t("waves.grid")} />
            <div class="legend">
                { legend_item(&ctx, theme.busy_hot, "waves.legend.busy") }
                { legend_item(&ctx, theme.waiting, "waves.legend.idle") }
            </div>
            <Readouts topic="waves" metrics={Rc::new(metrics)} />
            <p class="formula" data-testid="why">{ why }</p>
            <p class="muted">{ ctx.tf("waves.time-k", &[("x", &format!("{time_k:.2}"))]) }</p>
            <h2 class="chart-title">{ ctx.t("waves.chart") }</h2>
            <Chart data={(*chart).clone()} width={(width - 4.0).max(240.0)} height={if ctx.present { 260.0 } else { 220.0 }}
                cursor={n as f64} on_seek={setter(&d, "n").reform(|x: u64| x as i64)} label={ctx.t("waves.chart")} />
            <p class="muted">{ ctx.t("waves.model") }</p>
            if !measured.is_empty() {
                <p class="muted" data-testid="measured">{ ctx.tf("waves.measured", &[("gpu", g.code)]) }</p>
            }
        </>
    };
    let explain = html! { <><p class="current">{ ctx.t("waves.explain") }</p><p class="lecture-check">{ ctx.t("waves.lecture") }</p></> };
    html! {
        <PanelFrame id="waves" sections="7" demo="02 · 5" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

#[component]
pub fn GpuTpuPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&GPU_TPU);
    let v = st.values.clone();
    let c = gpu_tpu(&v);
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let titles = [ctx.t("gputpu.tpu"), ctx.t("gputpu.gpu")];
    let scene = use_memo((c, width as u32, ctx.present, titles.clone()), |(c, w, present, titles)| {
        SceneRef(Rc::new(draw_compare(c, &Theme::for_mode(*present), *w as f64, [&titles[0], &titles[1]])))
    });
    let d = st.dispatch.clone();
    let tpu_detail = ctx.tf(
        "gputpu.tpu.detail",
        &[
            ("passes", &c.mxu_passes().to_string()),
            ("m", &c.m.to_string()),
            ("s", &c.mxu.to_string()),
            ("cycles", &group_digits(c.mxu_cycles())),
        ],
    );
    let gpu_detail = ctx.tf(
        "gputpu.gpu.detail",
        &[
            ("waves", &c.waves().waves().to_string()),
            ("tm", &c.tm.to_string()),
            ("tn", &c.tn.to_string()),
            ("k", &c.k.to_string()),
            ("rate", &c.macs_per_sm_cycle.to_string()),
            ("cycles", &group_digits(c.gpu_cycles())),
        ],
    );
    let systolic_link = format!(
        "#/systolic?rows={s}&cols={s}&k={k}&dataflow=ws&seed=1&cycle=0&lang={l}",
        s = c.mxu,
        k = c.k.min(4096),
        l = ctx.lang.code()
    );
    let controls = html! {
        <>
            <Slider topic="gpu-vs-tpu" name="m" value={v.int("m")} min={1} max={16384} log={true} on_change={setter(&d, "m")} />
            <Slider topic="gpu-vs-tpu" name="k" value={v.int("k")} min={1} max={16384} log={true} on_change={setter(&d, "k")} />
            <Slider topic="gpu-vs-tpu" name="n" value={v.int("n")} min={1} max={16384} log={true} on_change={setter(&d, "n")} />
            <Choice name="mxu" options={&["128", "256"][..]} value={v.choice("mxu")} dispatch={d.clone()} />
            <Choice name="gpu" options={GPUS} value={v.choice("gpu")} dispatch={d.clone()} />
            <Slider name="tm" value={v.int("tm")} min={1} max={1024} log={true} on_change={setter(&d, "tm")} />
            <Slider name="tn" value={v.int("tn")} min={1} max={1024} log={true} on_change={setter(&d, "tn")} />
        </>
    };
    let term = |i: usize| html! { <tr><td>{ ctx.t(&format!("gputpu.term.{i}")) }</td><td>{ ctx.t(&format!("gputpu.term.{i}t")) }</td></tr> };
    let stage_html = html! {
        <>
            <SceneCanvas scene={(*scene).clone()} name={format!("gpu-vs-tpu-{}x{}x{}", c.m, c.k, c.n)} label={ctx.t("topic.gpu-vs-tpu.title")} />
            <Readouts topic="gpu-vs-tpu" metrics={Rc::new(c.metrics())} />
            <p class="formula" data-testid="tpu-detail">{ tpu_detail }</p>
            <p class="formula" data-testid="gpu-detail">{ gpu_detail }</p>
            <p><a href={systolic_link} data-testid="systolic-link">{ ctx.t("gputpu.systolic") }{" →"}</a></p>
            <h2 class="chart-title">{ ctx.t("gputpu.terms") }</h2>
            <table class="ledger" data-testid="terms">
                <thead><tr><th>{ ctx.t("gputpu.term.gpu") }</th><th>{ ctx.t("gputpu.term.tpu") }</th></tr></thead>
                <tbody>{ for (1..=6).map(term) }</tbody>
            </table>
        </>
    };
    let explain = html! { <p class="current">{ ctx.t("gputpu.explain") }</p> };
    html! {
        <PanelFrame id="gpu-vs-tpu" sections="9.1" demo="06" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}
