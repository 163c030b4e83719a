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
    /// A chart the browser draws (plotters, `ui::kit::chart`): its title and
    /// an empty frame of its size, `height` CSS pixels tall at the width asked
    /// for; `why` says why it is not drawn here.
    Chart { title: String, height: f64, why: &'static str },
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
