//! Fitting a panel's drawing to the screen: the box its canvas may fill
//! (the stage's column, the height left below its top), measured as the
//! page moves, and the drawing width that makes the drawing fit it, refined
//! from the sizes the canvas reports through [`FitCtx`](crate::ui::kit::canvas::FitCtx).

use crate::ui::kit::canvas::FIT_SLACK;
use std::rc::Rc;
use yew::prelude::*;

/// Widest a stage's drawing gets (CSS pixels).
const MAX_STAGE_WIDTH: f64 = 1800.0;
/// A phone's screen: at most this wide (CSS pixels; style/main.css's phone rules).
const PHONE_PX: f64 = 600.0;
/// Narrowest width a canvas is redrawn at to fit the screen's height; below
/// it the drawing is scaled down instead.
const MIN_FIT_WIDTH: f64 = 420.0;

/// The box a panel's canvas may fill: its column's width and the height left
/// between the top of the stage and the bottom of the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageBox {
    pub width: f64,
    pub height: f64,
    /// The page's type over its usual size (more than 1 on a wide projected
    /// screen, where the type grows with the width: style/main.css).
    pub type_scale: f64,
}

/// The next drawing width, given the box and a drawing of `drawn.1` CSS pixels
/// tall at width `drawn.0`: narrower when it overflows the box's height,
/// wider again (up to the column) when it leaves much of it empty; `None`
/// when the current width is good. Texts keep their size, so the height
/// does not scale with the width: the estimate is refined over a few draws.
pub fn refit(bx: StageBox, drawn: (f64, f64)) -> Option<f64> {
    let (w, h) = drawn;
    let full = bx.width.min(MAX_STAGE_WIDTH);
    let floor = MIN_FIT_WIDTH.min(full);
    if h <= 0.0 || w <= 0.0 {
        return None;
    }
    let target = if h > bx.height + FIT_SLACK && w > floor + 1.0 {
        w * bx.height / h
    } else if h < bx.height * 0.9 && w < full - 1.0 {
        w * bx.height * 0.97 / h
    } else {
        return None;
    };
    let target = target.clamp(floor, full).floor();
    ((target - w).abs() >= 2.0).then_some(target)
}

/// How wide a panel's canvas is drawn: the stage's [`StageBox`], and the
/// width in it that makes the drawing fit the screen's height, refined as
/// the canvas reports the size it was drawn at ([`FitCtx`](crate::ui::kit::canvas::FitCtx)).
#[derive(Clone, PartialEq)]
pub struct Fit {
    pub bx: StageBox,
    /// The width to draw at (CSS pixels).
    pub width: f64,
    /// Where the canvas reports `(width, height)` drawn.
    pub report: Callback<(f64, f64)>,
}

/// The stage's box and the width to draw in it (see [`Fit`]).
#[hook]
pub fn use_fit(stage: NodeRef, present: bool, notices: usize) -> Fit {
    let bx = use_stage_box(stage, present, notices);
    // The width the canvas is drawn at, kept per box: a new box (resize,
    // drawer, projector mode) starts again from the column's width.
    let fitted = use_mut_ref(|| (bx, bx.width));
    let refresh = use_force_update();
    if fitted.borrow().0 != bx {
        *fitted.borrow_mut() = (bx, bx.width);
    }
    let width = fitted.borrow().1.clamp(1.0, MAX_STAGE_WIDTH);
    // One callback for the panel's life (the canvas's context doesn't change).
    let report = (*use_memo((), move |_| {
        Callback::from(move |drawn: (f64, f64)| {
            let next = refit(fitted.borrow().0, drawn);
            if let Some(w) = next {
                if (fitted.borrow().1 - w).abs() >= 2.0 {
                    fitted.borrow_mut().1 = w;
                    refresh.force_update();
                }
            }
        })
    }))
    .clone();
    Fit { bx, width, report }
}

/// The stage's [`StageBox`], measured after each render that can move it
/// (projector mode, notices) and whenever the stage or the window resizes.
/// The width is that of the canvas's column (`.scene`) if there is one.
#[hook]
fn use_stage_box(node: NodeRef, present: bool, notices: usize) -> StageBox {
    // The first render (before the stage exists to be measured) uses the box
    // of the frame that waited for this panel's chunk where that is the
    // stage's box (a narrow screen): one render at the right width instead
    // of two (a wide default, then the measured width).
    let bx = use_state(|| {
        PENDING_BOX.with(|b| b.take()).unwrap_or(StageBox { width: 860.0, height: 640.0, type_scale: 1.0 })
    });
    {
        let bx = bx.clone();
        use_effect_with((node, present, notices), move |(node, _, _)| {
            let measure = {
                let node = node.clone();
                let bx = bx.clone();
                Rc::new(move || {
                    if let Some(next) = measure_box(&node) {
                        if (next.width - bx.width).abs() >= 1.0 || (next.height - bx.height).abs() >= 1.0 {
                            bx.set(next);
                        }
                    }
                })
            };
            measure();
            let on_resize = measure.clone();
            let listener =
                gloo::events::EventListener::new(&crate::ui::kit::dom::window(), "resize", move |_| on_resize());
            let observer = node.cast::<web_sys::Element>().and_then(|el| {
                let m = measure.clone();
                let cb = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || m());
                let obs = web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(cb.as_ref())).ok()?;
                obs.observe(&el);
                // The panel too: the stage moves without resizing when what is
                // above it grows (the deck's bar, its title wrapping onto a
                // second line between two views of one panel), and the height
                // left under its top changes with it.
                if let Ok(Some(panel)) = el.closest(".panel") {
                    obs.observe(&panel);
                }
                Some((obs, cb))
            });
            move || {
                drop(listener);
                if let Some((obs, _cb)) = observer {
                    obs.disconnect();
                }
            }
        });
    }
    *bx
}

thread_local! {
    /// The stage's box measured on the frame waiting for a panel's chunk.
    static PENDING_BOX: std::cell::Cell<Option<StageBox>> = const { std::cell::Cell::new(None) };
}

/// Measure the frame waiting for a panel's chunk (`.stage-pending`, at the
/// stage's place), for the panel's first render: kept only on a narrow
/// screen, where the drawing's column is the stage's whole width (on a wide
/// one the figures' column beside it is not there yet).
pub fn remember_pending_box(stage: &web_sys::Element) {
    let bx = measure_in(stage, stage).filter(|_| stacked(stage));
    PENDING_BOX.with(|b| b.set(bx));
}

/// Does the stage stack its canvas over the player and figures? The
/// stylesheet says, by the same media query that lays the stage out in two
/// columns (`--stacked` on `.stage`, style/main.css), so that the rule has
/// one place (the stage's width said it wrongly between 900 and ~1070 px,
/// where the columns are side by side on a stage under 760 px).
fn stacked(stage: &web_sys::Element) -> bool {
    crate::ui::kit::dom::window()
        .get_computed_style(stage)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("--stacked").ok())
        .is_none_or(|v| v.trim() != "0")
}

fn measure_box(node: &NodeRef) -> Option<StageBox> {
    let stage = node.cast::<web_sys::Element>()?;
    let column = stage.query_selector(":scope > .scene").ok().flatten().unwrap_or_else(|| stage.clone());
    measure_in(&stage, &column)
}

fn measure_in(stage: &web_sys::Element, column: &web_sys::Element) -> Option<StageBox> {
    let w = crate::ui::kit::dom::window();
    let width = column.client_width() as f64;
    if width <= 0.0 {
        return None;
    }
    let inner_h = w.inner_height().ok()?.as_f64()?;
    let top = column.get_bounding_client_rect().top() + w.scroll_y().unwrap_or(0.0);
    // The canvas's column is beside the player on wide screens; stacked
    // (narrow screens), the player and key figures go under it.
    let stacked = stacked(stage);
    let class = |c: &str| w.document().and_then(|d| d.document_element()).is_some_and(|e| e.class_list().contains(c));
    let embed = class("embed");
    let present = class("present");
    let type_scale = crate::ui::kit::dom::type_scale(present);
    // What goes under the canvas (its caption, the export buttons) grows with the type.
    let below = type_scale
        * match (stacked, embed) {
            (true, _) => 150.0,
            (false, true) => 8.0,
            (false, false) => 46.0,
        };
    let inner_w = w.inner_width().ok()?.as_f64()?;
    let height = if present && stacked && inner_w <= PHONE_PX {
        // A phone presenting: the header and the deck's bar fill most of its
        // first screen. The drawing gets a screen of its own (scrolled to)
        // and the column's width, rather than the little height left under
        // the bar (it was shrunk to 171 of 326 px, its text to 9.4 px).
        (inner_h - below).max(200.0).floor()
    } else {
        (inner_h - top - below).max(inner_h * 0.45).max(200.0).floor()
    };
    Some(StageBox { width: width.floor(), height, type_scale })
}
