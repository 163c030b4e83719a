//! `#/flash`: FlashAttention forward and backward, tile by tile (notes
//! §8.3–8.4, demos 2–3 of 05).

use super::frame::{legend_item, setter, Choice, PanelFrame};
use super::inset::RooflineInset;
use crate::draw::flash::{colors, draw};
use crate::i18n::{format_bytes, group_digits};
use crate::params::Value;
use crate::scene::Theme;
use crate::sim::flash::{Flash, Pass, NUMERIC_MAX_N};
use crate::sim::roofline::Work;
use crate::topics::{flash_params, flash_pass, FLASH};
use crate::ui::app::AppCtx;
use crate::ui::canvas::{use_width, SceneCanvas, SceneRef};
use crate::ui::player::Player;
use crate::ui::readouts::Readouts;
use crate::ui::slider::Slider;
use crate::ui::url_state::{use_url_state, Action};
use std::rc::Rc;
use yew::prelude::*;

fn sci(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v:.2e}")
    }
}

fn num(v: f64) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        format!("{v:.5}")
    }
}

#[component]
pub fn FlashPanel() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let st = use_url_state(&FLASH);
    let v = st.values.clone();
    let params = flash_params(&v);
    let pass = flash_pass(&v);
    let sim = use_memo(params, |p| Flash::new(*p));
    let step = v.int("step") as u64;
    let stage = use_node_ref();
    let width = use_width(stage.clone(), 860.0).min(1000.0);
    let tile = sim.tile_at(pass, step);
    let caption = match tile {
        None => ctx.t("flash.start"),
        Some((i, j)) => ctx.tf(
            if pass == Pass::Fwd { "flash.current.fwd" } else { "flash.current.bwd" },
            &[("t", &step.to_string()), ("i", &i.to_string()), ("j", &j.to_string())],
        ),
    };
    let scene = {
        let sim = sim.clone();
        use_memo(
            (params, pass, step, width as u32, ctx.present, caption.clone()),
            move |(_, pass, s, w, present, cap)| {
                SceneRef(Rc::new(draw(&sim, *pass, *s, &Theme::for_mode(*present), *w as f64, cap)))
            },
        )
    };
    let set = |name: &'static str| setter(&st.dispatch, name);
    let on_seek = {
        let d = st.dispatch.clone();
        Callback::from(move |c: u64| d.emit(Action::Set("step", Value::Int(c as i64))))
    };
    // The current query block's rows after this tile (forward, with numbers).
    let rows_view = match (pass, tile, sim.numeric.as_ref()) {
        (Pass::Fwd, Some((i, j)), Some(numbers)) => {
            // Only the rows shown are replayed: this runs on every step.
            let stn = sim.row_state(numbers, i, Some(j), ROWS_SHOWN);
            let shown = stn.m.len();
            html! {
                <>
                    <h2 class="chart-title">{ ctx.tf("flash.rows", &[("i", &i.to_string())]) }</h2>
                    <table class="ledger" data-testid="flash-rows">
                        <thead><tr><th>{ ctx.t("flash.row") }</th><th>{"mᵢ"}</th><th>{"ℓᵢ"}</th><th>{"e^(m − m′)"}</th><th>{"Oᵢ[0..3] / ℓᵢ"}</th></tr></thead>
                        <tbody>
                            { for (0..shown).map(|r| {
                                let o: Vec<String> = (0..params.d.min(MAX_D_SHOWN)).map(|x| num(stn.o[r * params.d.max(1) + x] / stn.l[r])).collect();
                                html! { <tr>
                                    <td>{ i * sim.p.bq + r }</td>
                                    <td class="mono">{ num(stn.m[r]) }</td>
                                    <td class="mono">{ num(stn.l[r]) }</td>
                                    <td class={classes!("mono", (stn.rescale[r] < 1.0 && j > 0).then_some("hot"))}>{ num(stn.rescale[r]) }</td>
                                    <td class="mono">{ o.join(", ") }</td>
                                </tr> }
                            }) }
                        </tbody>
                    </table>
                    <p class="muted">{ ctx.t("flash.final") }</p>
                </>
            }
        }
        (Pass::Bwd, _, _) => html! { <p class="muted">{ ctx.t("flash.bwd-note") }</p> },
        _ => html! {},
    };
    let (std_b, fl_b) = (sim.hbm_bytes_standard(pass), sim.hbm_bytes_flash(pass));
    let sram_line = ctx.tf(
        "flash.sram",
        &[
            ("used", &format!("{:.1} KB", sim.sram_bytes() as f64 / 1024.0)),
            ("have", &format!("{} KB", params.sram / 1024)),
        ],
    );
    let checks = match sim.numeric.as_ref() {
        Some(numbers) => html! {
            <>
                <p class={classes!("check", if numbers.err < 1e-10 { "ok" } else { "bad" })} data-testid="check-fwd">
                    { ctx.tf("flash.check.fwd", &[("e", &sci(numbers.err))]) }</p>
                <p class={classes!("check", if numbers.grad_err < 1e-9 { "ok" } else { "bad" })} data-testid="check-bwd">
                    { ctx.tf("flash.check.bwd", &[("e", &sci(numbers.grad_err))]) }</p>
            </>
        },
        None => {
            html! { <p class="muted" data-testid="check-large">{ ctx.tf("flash.check.large", &[("max", &NUMERIC_MAX_N.to_string())]) }</p> }
        }
    };
    let controls = html! {
        <>
            <Choice name="pass" options={&["fwd", "bwd"][..]} value={v.choice("pass")} dispatch={st.dispatch.clone()} />
            <Slider topic="flash" name="n" value={v.int("n")} min={1} max={65536} log={true} on_change={set("n")} />
            <Slider topic="flash" name="d" value={v.int("d")} min={1} max={256} log={true} on_change={set("d")} />
            <Slider topic="flash" name="bq" value={v.int("bq")} min={1} max={v.int("n").max(1)} log={true} on_change={set("bq")} />
            <Slider topic="flash" name="bk" value={v.int("bk")} min={1} max={v.int("n").max(1)} log={true} on_change={set("bk")} />
            <Choice name="causal" options={&["0", "1"][..]} value={v.choice("causal")} dispatch={st.dispatch.clone()} />
            <Choice name="dtype" options={&["fp32", "bf16", "fp16", "fp8"][..]} value={v.choice("dtype")} dispatch={st.dispatch.clone()} />
            <Slider topic="flash" name="sram" value={v.int("sram")} min={1} max={1024} log={true} on_change={set("sram")} />
            <Slider topic="flash" name="seed" value={v.int("seed")} min={0} max={1000} on_change={set("seed")} />
        </>
    };
    let c = colors(&Theme::normal());
    let stage_html = html! {
        <>
            <h2 class="chart-title">{ ctx.t("flash.grid") }</h2>
            <SceneCanvas scene={(*scene).clone()} name={format!("flash-{}-n{}-step{}", v.choice("pass"), params.n, step)} label={caption.clone()} />
            <div class="legend">
                { legend_item(&ctx, c[0], "flash.legend.done") }
                { legend_item(&ctx, c[1], "flash.legend.current") }
                { legend_item(&ctx, c[2], "flash.legend.pending") }
                { legend_item(&ctx, c[3], "flash.legend.skipped") }
            </div>
            <Player pos={step} len={sim.steps()} speed={v.int("speed")} unit="param.step" on_seek={on_seek} on_speed={set("speed")} />
            <Readouts topic="flash" metrics={Rc::new(sim.metrics(pass, step))} />
            { checks }
            { rows_view }
            <h2 class="chart-title">{ ctx.t("flash.ledger") }</h2>
            <table class="ledger" data-testid="flash-ledger">
                <tbody>
                    <tr><td>{ ctx.t("flash.ledger.standard") }</td><td class="num">{ format_bytes(std_b as f64) }</td><td class="num mono">{ group_digits(std_b) }{" B"}</td></tr>
                    <tr><td>{ ctx.t("flash.ledger.flash") }</td><td class="num">{ format_bytes(fl_b as f64) }</td><td class="num mono">{ group_digits(fl_b) }{" B"}</td></tr>
                    <tr><td colspan="3" class="hot">{ ctx.tf("flash.ledger.saving", &[("x", &format!("{:.1}", std_b as f64 / fl_b.max(1) as f64))]) }</td></tr>
                </tbody>
            </table>
            <p class={classes!("check", if sim.fits_sram() { "ok" } else { "bad" })} data-testid="sram-check">
                { sram_line }{" — "}{ ctx.t(if sim.fits_sram() { "flash.sram.fits" } else { "flash.sram.too-big" }) }
            </p>
            <RooflineInset gpu={v.choice("gpu")} dtype={v.choice("dtype")} dispatch={st.dispatch.clone()} points={Rc::new(vec![
                ("inset.flash", Work { flops: sim.flops(pass) as f64, bytes: fl_b as f64 }),
                ("inset.standard", Work { flops: sim.flops_standard(pass) as f64, bytes: std_b as f64 }),
            ])} />
            if pass == Pass::Bwd {
                <p data-testid="recompute">{ ctx.tf("flash.recompute", &[
                    ("flops", &group_digits(sim.recompute_flops())),
                    ("bytes", &format_bytes(sim.bytes_not_stored() as f64)),
                ]) }</p>
            }
        </>
    };
    let explain = html! {
        <>
            <p class="current">{ ctx.t("flash.explain") }</p>
            <p class="lecture-check">{ ctx.t("flash.lecture") }</p>
        </>
    };
    html! {
        <PanelFrame id="flash" sections="8.3–8.4" demo="05 · 2–3" notices={st.notices.clone()} on_dismiss={st.dismiss.clone()}
            controls={controls} stage={stage_html} explain={explain} stage_ref={stage} />
    }
}

const MAX_D_SHOWN: usize = 3;
const ROWS_SHOWN: usize = 6;
