//! The `#/recompute` panel: recomputation (notes §6.4, demo 03): the reads
//! and writes between HBM and the SM, forward then backward, stepped.

use crate::scene::Theme;
use crate::sim::recompute::Run;
use crate::sim::Steppable;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::export::Export;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::panel::Panel;
use crate::ui::kit::player::Player;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{chart_title, legend_item};
use std::rc::Rc;
use yew::prelude::*;

/// The drawing of `run` at step `t` in the context's language and mode.
fn scene(ctx: &AppCtx, th: &Theme, run: &Run, t: u64, width: f64) -> crate::scene::Scene {
    super::drawing(ctx.lang, th, run, t, width)
}

#[hook]
pub fn use_recompute_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let r = super::recompute(&p.v);
    let run = Run::new(r);
    let step = (p.v.int("step") as u64).min(run.steps());
    let drawn = {
        let (ctx, run) = (ctx.clone(), run.clone());
        use_memo((r, step, p.width as u32, ctx.present, ctx.lang), move |(_, t, w, _, _)| {
            SceneRef(Rc::new(scene(&ctx, &theme, &run, *t, *w as f64)))
        })
    };
    let export = {
        let (ctx, run, width) = (ctx.clone(), run.clone(), p.width);
        use_memo((r, p.width as u32, ctx.present, ctx.lang), move |_| Export {
            name: "recompute".into(),
            scene_at: Rc::new(move |t| scene(&ctx, &theme, &run, t, width)),
        })
    };
    let rows = super::ledger_rows(&r).map(|row| {
        html! {
            <tr><td>{ ctx.t(row.key) }</td><td>{ row.forward }</td><td>{ row.backward }</td>
                <td class="num"><strong>{ row.total }</strong></td></tr>
        }
    });
    let controls = html! {
        <>
            { p.controls(&["depth", "n", "dtype", "upstream"]) }
        </>
    };
    // The slides' "5/8", read both ways (computed for this depth).
    let slides_58 = {
        let (mixed, without, with) = super::slides_fractions(&p.v);
        let with_up = crate::sim::fusion::Recompute { upstream: true, ..r };
        let without_up = crate::sim::fusion::Recompute { upstream: false, ..r };
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        let args = [
            ("r", with_up.accesses_recompute().to_string()),
            ("s", without_up.accesses_store().to_string()),
            ("mixed", pct(mixed)),
            ("s2", without_up.accesses_store().to_string()),
            ("r2", without_up.accesses_recompute().to_string()),
            ("without", pct(without)),
            ("s1", with_up.accesses_store().to_string()),
            ("r1", with_up.accesses_recompute().to_string()),
            ("with", pct(with)),
        ];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        html! {
            <p class="muted" data-testid="slides-58" data-value={mixed.to_string()} data-without={without.to_string()} data-with={with.to_string()}>
                { ctx.tf("recompute.slides-58", &args) }
            </p>
        }
    };
    let mut figures = r.metrics();
    figures.extend(run.metrics(step));
    let stage = html! {
        <>
            <SceneCanvas scene={(*drawn).clone()} name={format!("recompute-step{step}")} label={ctx.t("recompute.drawing")} />
            <div class="legend">
                { legend_item(ctx, theme.a_color, "recompute.legend.read") }
                { legend_item(ctx, theme.busy_hot, "recompute.legend.write") }
            </div>
            <Player pos={step} len={run.steps()} speed={p.v.int("speed")} unit="param.step"
                on_seek={p.seek("step")} on_speed={p.set("speed")} export={Some((*export).clone())} />
            { readouts(ctx, "recompute", &figures) }
            { lecture_table(ctx, "recompute", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            { chart_title(ctx, "recompute.ledger") }
            <table class="ledger" data-testid="recompute-ledger">
                <thead><tr><th></th><th>{ ctx.t("recompute.forward") }</th><th>{ ctx.t("recompute.backward") }</th><th>{ ctx.t("recompute.total") }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <p class="formula">{ format!("{}: {} · {}: {}",
                ctx.t("metric.saved-bytes-store"), crate::format::bytes(r.saved_bytes_store() as f64),
                ctx.t("metric.saved-bytes-recompute"), crate::format::bytes(r.saved_bytes_recompute() as f64)) }</p>
            <p class="muted">{ ctx.tf("recompute.why-differ", &[("d", &r.accesses_saved().to_string())]) }</p>
            <p class="muted" data-testid="extra-sigmoids" data-value={r.extra_sigmoids().to_string()}>{ ctx.tf("recompute.extra", &[("k", &r.extra_sigmoids().to_string())]) }</p>
            { slides_58 }
        </>
    };
    p.frame(controls, stage, p.explain())
}

crate::ui::kit::panel::panel!(use_recompute_panel);
