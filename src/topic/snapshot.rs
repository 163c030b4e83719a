//! A topic's static snapshot (issue 33): its default view as the build
//! writes it to a static file, shown while the wasm arrives
//! (`crate::prerender::snap`). Each topic's `mod.rs` has a native-only
//! `pub fn snapshot(lang: Lang, width: f64) -> Snapshot`, which the registry
//! lists (`topics::SNAPSHOTS`, written by build.rs from the registry's
//! items): a topic without one does not compile, and a topic without a
//! static view says why ([`Snapshot::Exempt`]).

use crate::i18n::Lang;
use crate::scene::Scene;
use crate::sim::Metric;

/// What the snapshot shows in the stage's drawing.
#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// The drawing, as the panel's canvas paints it at the width asked for.
    Scene(Scene),
    /// A chart (`crate::draw::chart`, as the panel's canvas draws it) as an
    /// `<svg>` element, its title above it: see [`chart`].
    Chart { title: String, svg: String },
}

/// What the panel shows right above its drawing (in the drawing's column).
#[derive(Clone, Debug, PartialEq)]
pub enum Above {
    Nothing,
    /// A chart title (`<h2 class="chart-title">`).
    Title(String),
    /// A row of phase chips (`.phase-row`): each chip's text, its tint (CSS
    /// colour) and whether it is the current phase.
    Chips(Vec<(String, String, bool)>),
}

/// The default view (the URL with no parameters) as its panel first shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub above: Above,
    pub stage: Stage,
    /// The canvas's label (its caption), for the SVG's `aria-label`.
    pub label: String,
    /// The key figures the panel shows beside the drawing at this position,
    /// computed by the simulation (`data-metric` names and raw values).
    pub figures: Vec<Metric>,
    /// Figures shown pending (no value), as the panel shows them while its
    /// check runs, and the text key shown in their place: a rounding error
    /// that the browser's maths computes to other last bits than the
    /// build's (flash's max |O − naive|: 1.1e-15 in the wasm, 1.3e-15
    /// natively), so no number here could promise the app's.
    pub pending: (Vec<&'static str>, &'static str),
}

/// What a topic's static snapshot is.
#[derive(Clone, Debug, PartialEq)]
pub enum Snapshot {
    View(View),
    /// No static snapshot, and why (shown in `docs/` and the tests' output).
    Exempt(&'static str),
}

/// The hook every topic's `mod.rs` defines (native only): its default view
/// in `lang` with its drawing `width` CSS pixels wide.
pub type SnapshotFn = fn(Lang, f64) -> Snapshot;

/// A stage chart `title` drawn by `draw` as SVG, sized as a panel's stage
/// chart in a column `width` CSS pixels wide (`ui::kit::panel::Panel::chart_size`:
/// the column less 4, at least 240 wide, three quarters as tall; the app
/// also fits it to the screen's height, which a static page leaves to its
/// stylesheet), `phone_ratio` × its width tall where it is narrower than
/// 520 (a taller chart on a phone, as `#/llm`'s) if that is taller. `draw`
/// gets the drawing area, the look of a screen (not projected, one pixel
/// per CSS pixel) and the size. A chart that does not draw is an empty
/// string, which the registry's test catches (every chart is an `<svg>`).
#[cfg(not(target_arch = "wasm32"))]
pub fn chart(
    title: String,
    width: f64,
    phone_ratio: f64,
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<crate::draw::chart::svg::SvgBackend<'_>, plotters::coord::Shift>,
        crate::draw::chart::Look,
        (f64, f64),
    ) -> Option<()>,
) -> Stage {
    let w = (width - 4.0).max(240.0).floor();
    let h = (w * 0.75).max(220.0).floor();
    let h = if w < 520.0 { h.max((w * phone_ratio).floor()) } else { h };
    let look = crate::draw::chart::Look::scaled(false, 1.0, 1.0);
    let svg = crate::draw::chart::svg::chart_svg(w, h, "snap-svg", &title, |root| draw(root, look, (w, h)));
    Stage::Chart { title, svg: svg.unwrap_or_default() }
}

/// A roofline as a stage chart (see [`chart`]): `title` above it, `spec`
/// drawn at the width and ratio `chart` takes.
#[cfg(not(target_arch = "wasm32"))]
pub fn roofline_chart(
    title: String,
    width: f64,
    phone_ratio: f64,
    spec: &crate::draw::chart::roofline::RooflineSpec,
) -> Stage {
    use crate::draw::chart::roofline::{draw, Roofline};
    chart(title, width, phone_ratio, |root, look, (width, height)| {
        let p = Roofline {
            peak: spec.peak,
            bandwidth: spec.bandwidth,
            dots: &spec.dots,
            x_desc: &spec.x_desc,
            width,
            height,
            present: false,
            ridge_label: &spec.ridge_label,
        };
        draw(root, &p, look)
    })
}
