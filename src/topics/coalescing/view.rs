//! The `#/coalescing` panel: one warp's loads against DRAM burst sections
//! (notes §6.5, demo 3 of 02).

use crate::draw::coalescing::{draw, Labels};
use crate::scene::Theme;
use crate::sim::coalescing::Access;
use crate::sim::measured::Table;
use crate::ui::kit::canvas::{SceneCanvas, SceneRef};
use crate::ui::kit::ctx::AppCtx;
use crate::ui::kit::lecture_table::lecture_table;
use crate::ui::kit::measured::{measured_grid, measured_note, use_measured};
use crate::ui::kit::panel::Panel;
use crate::ui::kit::readouts::readouts;
use crate::ui::kit::widgets::{preset_row, Preset};
use std::rc::Rc;
use yew::prelude::*;

#[hook]
pub fn use_coalescing_panel(p: &Panel, ctx: &AppCtx, theme: Theme) -> Html {
    let params = super::coalescing_params(&p.v);
    let access = use_memo(params, |p| Access::new(*p));
    let scene = {
        let access = access.clone();
        let ctx = ctx.clone();
        use_memo((params, p.width as u32, ctx.present, ctx.lang), move |(_, w, _, _)| {
            let skipped = |n: u64| ctx.tf("coalescing.skipped", &[("n", &n.to_string())]);
            let more = |n: u64| ctx.tf("coalescing.more", &[("n", &n.to_string())]);
            let lanes = ctx.t("coalescing.lanes.short");
            let labels = Labels { lanes: &lanes, skipped: &skipped, more: &more };
            SceneRef(Rc::new(draw(&access, &theme, *w as f64, &labels)))
        })
    };
    let presets = super::LECTURE_CASES
        .iter()
        .map(|&(id, pattern, stride)| Preset { label: id, id, values: super::lecture_case(pattern, stride) })
        .collect::<Vec<_>>();
    let shown = |name: &str| super::shown(params.pattern, name);
    let controls = html! {
        <>
            { p.controls(&["dtype", "pattern"]) }
            if shown("stride") {
                { p.control("stride") }
            }
            if shown("rowlen") {
                { p.control("rowlen") }
            }
            { p.controls(&["offset", "section"]) }
            if shown("seed") {
                { p.control("seed") }
            }
            { preset_row(ctx, "coalescing.presets", &presets, &p.dispatch) }
            { p.control("measured") }
        </>
    };
    let table = use_measured(super::COALESCING_FILE, p.v.choice("measured") == "1");
    let current = match params.pattern {
        crate::sim::coalescing::Pattern::Stride => Some(Some(params.stride)),
        crate::sim::coalescing::Pattern::Random => Some(None),
        _ => None,
    };
    // The verdict reads the whole table (both dtypes, every stride): once per table.
    let verdict = {
        let t = table.clone();
        use_memo(table.as_ref().map(|t| Rc::as_ptr(t) as usize), move |_| t.as_deref().and_then(super::verdict))
    };
    let measured = table.map(|t| measured_overlay(ctx, &t, params.elem_bytes, current, verdict.as_ref().as_ref()));
    let stage = html! {
        <>
            <h2 class="chart-title">{ ctx.t("coalescing.lanes") }{" → "}{ ctx.t("coalescing.sections") }</h2>
            <SceneCanvas scene={(*scene).clone()} name={format!("coalescing-{}-{}", p.v.choice("pattern"), p.v.int("stride"))}
                label={ctx.t("coalescing.sections")} />
            { readouts(ctx, "coalescing", &access.metrics()) }
            { lecture_table(ctx, "coalescing", "lecture.table", &super::lecture_rows(&p.v), &p.dispatch) }
            <p class="muted" data-testid="sector-view">{ super::sector_view(ctx.lang, params) }</p>
            { measured.unwrap_or_default() }
        </>
    };
    p.frame(controls, stage, p.explain())
}

/// The overlay: measured GB/s of the panel's element size against stride,
/// beside the 128-byte and 32-byte models; the verdict and the differences.
/// `current`: the panel's stride (`Some(None)` = random; `None` = neither).
fn measured_overlay(
    ctx: &AppCtx,
    t: &Rc<Table>,
    elem_bytes: u64,
    current: Option<Option<u64>>,
    verdict: Option<&super::Verdict>,
) -> Html {
    let dtype = super::measured_dtype(elem_bytes);
    let eb = super::measured_elem_bytes(t, dtype).unwrap_or(4);
    let mut strides: Vec<Option<u64>> = super::MEASURED_STRIDES.iter().copied().map(Some).collect();
    if let Some(Some(s)) = current {
        if !strides.contains(&Some(s)) && super::measured_gbps(t, dtype, 8, Some(s)).is_some() {
            strides.push(Some(s));
            strides.sort_unstable();
        }
    }
    strides.push(None);
    let cell = |x: Option<f64>, name: String| match x {
        Some(x) => html! { <td data-measured={name} data-value={x.to_string()}>{ format!("{x:.0}") }</td> },
        None => html! { <td>{ "—" }</td> },
    };
    let rows = strides.iter().map(|&s| {
        let id = s.map_or("random".to_string(), |s| s.to_string());
        let m1 = super::measured_gbps(t, dtype, 1, s);
        let m8 = super::measured_gbps(t, dtype, 8, s);
        let (g128, g32) = (super::model_gbps(eb, s, 128), super::model_gbps(eb, s, 32));
        let ratio = |g: f64, name: &str| {
            let r = m8.map(|m| g / m);
            match r {
                Some(r) => html! { <td data-measured={format!("{name}-{id}")} data-value={r.to_string()}>{ format!("{r:.2}×") }</td> },
                None => html! { <td>{ "—" }</td> },
            }
        };
        let here = current == Some(s);
        html! {
            <tr class={classes!(here.then_some("current"))} data-stride={id.clone()}>
                <th scope="row">{ s.map_or(ctx.t("coalescing.measured.random"), |s| s.to_string()) }</th>
                { cell(m1, format!("gbps-1-{id}")) }
                { cell(m8, format!("gbps-8-{id}")) }
                <td>{ format!("{g128:.0}") }</td>
                { ratio(g128, "ratio-128") }
                <td>{ format!("{g32:.0}") }</td>
                { ratio(g32, "ratio-32") }
            </tr>
        }
    });
    let beyond = match current {
        Some(Some(s)) if super::measured_gbps(t, dtype, 8, Some(s)).is_none() => {
            html! { <p class="muted">{ ctx.tf("coalescing.measured.beyond", &[("s", &s.to_string())]) }</p> }
        }
        _ => html! {},
    };
    let peak = format!("{:.0}", super::peak_gbps());
    html! {
        <section class="measured" data-testid="measured-coalescing">
            <h2 class="chart-title">{ ctx.tf("coalescing.measured.title", &[("dtype", dtype)]) }</h2>
            { measured_grid(ctx, &["coalescing.measured.stride", "coalescing.measured.m1", "coalescing.measured.m8",
                "coalescing.measured.model128", "coalescing.measured.ratio128", "coalescing.measured.model32",
                "coalescing.measured.ratio32"], rows.collect()) }
            <p class="muted">{ ctx.tf("coalescing.measured.model-note", &[("peak", &peak)]) }</p>
            { beyond }
            if let Some(v) = verdict {
                <p class="current" data-testid="measured-verdict" data-measured="coalescing-supports" data-value={v.supports.to_string()}>
                    { super::verdict_text(ctx.lang, v) }
                </p>
                <span hidden=true data-measured="implied-128-max" data-value={v.max_implied_128.to_string()} />
                <span hidden=true data-measured="implied-32-max" data-value={v.max_implied_32.to_string()} />
                <span hidden=true data-measured="implied-32-shared-min" data-value={v.shared_32.0.to_string()} />
                <span hidden=true data-measured="implied-32-shared-max" data-value={v.shared_32.1.to_string()} />
            }
            <p class="current">{ super::gap_text(ctx.lang, t, dtype) }</p>
            { measured_note(ctx, t) }
        </section>
    }
}

crate::ui::kit::panel::panel!(use_coalescing_panel);
