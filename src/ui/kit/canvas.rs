//! The thin canvas adapter: paints a [`Scene`] on a `<canvas>` at the device's
//! pixel ratio, in an animation frame (several changes in one frame paint
//! once; unmounting cancels it), and offers "save as PNG".

use super::ctx::AppCtx;
use super::dom::save_png;
use super::paint::{paint, Scratch};
use crate::scene::Scene;
use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// A scene shared by pointer: comparing two is O(1).
#[derive(Clone)]
pub struct SceneRef(pub Rc<Scene>);

impl PartialEq for SceneRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The width in CSS pixels of the element behind `node`, kept up to date on
/// window resize (and on projector-mode changes, which re-render).
#[hook]
pub fn use_width(node: NodeRef, fallback: f64) -> f64 {
    let width = use_state(|| fallback);
    {
        let width = width.clone();
        use_effect_with(node, move |node| {
            let measure = {
                let node = node.clone();
                let width = width.clone();
                move || {
                    if let Some(el) = node.cast::<web_sys::Element>() {
                        let w = el.client_width() as f64;
                        if w > 0.0 && (w - *width).abs() >= 1.0 {
                            width.set(w);
                        }
                    }
                }
            };
            measure();
            let listener = EventListener::new(&super::dom::window(), "resize", move |_| measure());
            move || drop(listener)
        });
    }
    *width
}

/// Projected, canvas text under this size (CSS pixels) is left out: it
/// can't be read from the room (labels squeezed into small cells).
pub const PROJECTED_MIN_TEXT: f64 = 12.0;

/// How far (CSS pixels) a drawing may run past the height it must fit in:
/// the page's fit (ui::kit::panel::fit::refit) redraws it narrower only
/// beyond this, so the canvas isn't scaled down for it either (a 476 px
/// drawing in 474 px showed 18 px text at 17.9).
pub const FIT_SLACK: f64 = 2.0;

/// Scaled down to fit the screen's height, a canvas's text stays this large
/// (CSS pixels) at least: below it the canvas is left taller than the
/// screen (a phone scrolls to its bottom) rather than shown unreadable.
pub const FIT_MIN_TEXT: f64 = 10.0;

/// The canvas's CSS size: its drawing size, scaled down (never stretched)
/// to its column's width and to the height it must fit in, but not so far
/// that its smallest text (`smallest`, in the drawing's pixels) falls under
/// [`FIT_MIN_TEXT`]: on a phone the width alone then sets the size.
fn canvas_style(w: f64, h: f64, max_h: Option<f64>, smallest: Option<f64>) -> String {
    let floor = smallest.map_or(0.0, |t| w * FIT_MIN_TEXT / t.max(1.0));
    let fit_w = max_h.map(|m| format!(", {:.1}px", ((m + FIT_SLACK) * w / h.max(1.0)).max(floor))).unwrap_or_default();
    format!("width:min({w}px, 100%{fit_w});aspect-ratio:{w} / {h};height:auto")
}

/// Where a canvas inside a panel's frame reports the size it was drawn at, and the
/// height it must fit in (scaled down below that, as a last resort).
#[derive(Clone, PartialEq)]
pub struct FitCtx {
    pub report: Callback<(f64, f64)>,
    pub max_height: f64,
}

#[derive(Properties, PartialEq)]
pub struct SceneCanvasProps {
    pub scene: SceneRef,
    /// File name (without `.png`) for "save as PNG".
    pub name: AttrValue,
    /// Accessible description of what is drawn.
    pub label: AttrValue,
    /// A click on the drawing, in the scene's coordinates (CSS pixels of
    /// the drawing, whatever size it is shown at).
    #[prop_or_default]
    pub on_click: Option<Callback<(f64, f64)>>,
}

#[component]
pub fn SceneCanvas(props: &SceneCanvasProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = use_node_ref();
    let scratch = use_mut_ref(Scratch::default);
    let frame = use_mut_ref(|| None::<AnimationFrame>);
    let fit = use_context::<FitCtx>();
    // Report the size drawn at, so that the panel can redraw to fit the
    // screen (before this scene is painted: no flash of the wrong size).
    {
        let report = fit.as_ref().map(|f| f.report.clone());
        use_effect_with(props.scene.clone(), move |scene| {
            if let Some(r) = report {
                r.emit((scene.0.width, scene.0.height));
            }
        });
    }
    {
        let canvas = canvas.clone();
        let frame = frame.clone();
        let scratch = scratch.clone();
        let present = ctx.present;
        use_effect_with((props.scene.clone(), present), move |(scene, present)| {
            let scene = scene.0.clone();
            // Projected, no illegible text (see `Shape::text_under`).
            let min_text = if *present { PROJECTED_MIN_TEXT } else { 0.0 };
            // The smallest text drawn (the legibility test scales it by the canvas's size on screen).
            let smallest = scene.smallest_text(min_text);
            // Replacing the handle cancels a frame not yet painted.
            *frame.borrow_mut() = Some(request_animation_frame(move |_| {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let perf = super::dom::window().performance();
                    let t0 = perf.as_ref().map(|p| p.now());
                    paint(&c, &scene, &mut scratch.borrow_mut(), min_text);
                    // How long the paint took (read by the benchmark).
                    if let (Some(p), Some(t0)) = (perf, t0) {
                        let _ = c.set_attribute("data-paint-ms", &format!("{:.3}", p.now() - t0));
                    }
                    let _ = c.set_attribute("data-painted", "1");
                    if let Some(size) = smallest {
                        let _ = c.set_attribute("data-min-font", &format!("{size:.1}"));
                    }
                }
            }));
            move || {
                frame.borrow_mut().take();
            }
        });
    }
    // The smallest text painted (projected, what is under PROJECTED_MIN_TEXT is left out).
    let smallest = use_memo((props.scene.clone(), ctx.present), |(scene, present)| {
        scene.0.smallest_text(if *present { PROJECTED_MIN_TEXT } else { 0.0 })
    });
    let on_save = {
        let canvas = canvas.clone();
        let name = props.name.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                save_png(&c, &name);
            }
        })
    };
    let on_save_slide = {
        let scene = props.scene.0.clone();
        let name = props.name.clone();
        let present = ctx.present;
        Callback::from(move |_: MouseEvent| super::export::save_slide(&scene, &name, present))
    };
    let onclick = props.on_click.clone().map(|cb| {
        let (w, h) = (props.scene.0.width, props.scene.0.height);
        Callback::from(move |e: MouseEvent| {
            let Some(el) = e.target_dyn_into::<web_sys::Element>() else { return };
            let r = el.get_bounding_client_rect();
            if r.width() > 0.0 && r.height() > 0.0 {
                let x = (e.client_x() as f64 - r.left()) * w / r.width();
                let y = (e.client_y() as f64 - r.top()) * h / r.height();
                cb.emit((x, y));
            }
        })
    });
    html! {
        <figure class="scene">
            <canvas ref={canvas} role="img" {onclick} aria-label={props.scene.0.text_alternative(&props.label)} data-testid="scene-canvas"
                style={canvas_style(props.scene.0.width, props.scene.0.height, fit.map(|f| f.max_height), *smallest)} />
            <figcaption>
                <button class="save-png" data-testid="save-png" onclick={on_save}>{ ctx.t("canvas.save") }</button>
                <button class="save-png" data-testid="save-png-figures" title={ctx.t("canvas.save-figures.title")}
                    onclick={on_save_slide}>{ ctx.t("canvas.save-figures") }</button>
            </figcaption>
        </figure>
    }
}
