//! The player's keys (Space, ←/→, Home/End, a clicker's PageDown/PageUp,
//! past the ends of a deck's view the next or previous view) and a swipe
//! across the canvas on a touch screen.

use super::playback::Playback;
use crate::i18n::Lang;
use crate::ui::kit::ctx::key_belongs_to_control;
use gloo::events::EventListener;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Keys, and a swipe across the canvas on a touch screen; `deck`: the view
/// of the deck being presented, if any.
#[hook]
pub fn use_player_keys(pb: &Playback, deck: Option<usize>, lang: Lang) {
    let (toggle, step, back, to_start, to_end) =
        (pb.toggle.clone(), pb.step.clone(), pb.back.clone(), pb.to_start.clone(), pb.to_end.clone());
    let live = pb.live.clone();
    use_effect_with((deck, lang), move |&(deck, lang)| {
        // What a key does: true if it was the player's.
        let act = Rc::new(move |key: &str| -> bool {
            // Presenting a deck: past the last step, the next view; before
            // the first, the previous one.
            if let Some(k) = deck {
                let (pos, len) = (live.borrow().pos, live.borrow().len);
                let to = match key {
                    "PageDown" if pos >= len => Some(k + 1),
                    "PageUp" if pos == 0 => Some(k.saturating_sub(1)),
                    _ => None,
                };
                if let Some(to) = to {
                    return crate::ui::kit::tools::deck_go(lang.code(), to);
                }
            }
            let action = match key {
                " " | "Spacebar" => &toggle,
                "ArrowRight" | "PageDown" => &step,
                "ArrowLeft" | "PageUp" => &back,
                "Home" => &to_start,
                "End" => &to_end,
                _ => return false,
            };
            action.emit(());
            true
        });
        let doc = crate::ui::kit::dom::window().document().expect("document");
        let opts = gloo::events::EventListenerOptions::enable_prevent_default();
        let keys = {
            let act = act.clone();
            EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                let e = e.dyn_ref::<web_sys::KeyboardEvent>().expect("KeyboardEvent");
                // Presentation clickers send PageDown / PageUp: they step the
                // player whatever was clicked last (a slider, a preset), and
                // never scroll the page or change a parameter.
                let clicker = matches!(e.key().as_str(), "PageDown" | "PageUp");
                if clicker && (e.ctrl_key() || e.meta_key() || e.alt_key()) {
                    return;
                }
                let typing = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                    .is_some_and(|i| i.type_() == "text");
                if (!clicker && key_belongs_to_control(e)) || (clicker && typing) {
                    return;
                }
                if act(&e.key()) {
                    e.prevent_default();
                }
            })
        };
        // A finger swiped sideways over the canvas turns a page, as a
        // clicker does: to the left the next step, to the right the one
        // before (the canvas lets the browser scroll only vertically).
        let start = Rc::new(std::cell::Cell::new(None::<(f64, f64, f64)>));
        let touch_on_canvas = |e: &web_sys::Event| {
            let e = e.dyn_ref::<web_sys::PointerEvent>()?;
            let on_canvas = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| el.closest(".scene canvas").ok().flatten().is_some());
            // One finger only: a second one (a pinch) never turns a page.
            (e.pointer_type() == "touch" && e.is_primary() && on_canvas)
                .then(|| (e.client_x() as f64, e.client_y() as f64, e.time_stamp()))
        };
        let down = {
            let start = start.clone();
            EventListener::new(&doc, "pointerdown", move |e| start.set(touch_on_canvas(e)))
        };
        let up = {
            let start = start.clone();
            EventListener::new(&doc, "pointerup", move |e| {
                if let (Some((x0, y0, t0)), Some((x1, y1, t1))) = (start.take(), touch_on_canvas(e)) {
                    let (dx, dy) = (x1 - x0, y1 - y0);
                    if swipe(dx, dy, t1 - t0) {
                        act(if dx < 0.0 { "PageDown" } else { "PageUp" });
                    }
                }
            })
        };
        let cancel = EventListener::new(&doc, "pointercancel", move |_| start.set(None));
        keys_listening(1);
        move || {
            drop((keys, down, up, cancel));
            keys_listening(-1);
        }
    });
}

thread_local! {
    static LISTENING: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// `<html data-player-keys="n">`: how many players listen to the keys now.
/// A readiness signal (the e2e tests wait for it before pressing a key:
/// Yew may paint a panel before its effects, the listeners, have run).
fn keys_listening(delta: i32) {
    let n = LISTENING.with(|l| {
        l.set(l.get() + delta);
        l.get()
    });
    if let Some(root) = crate::ui::kit::dom::window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-player-keys", &n.to_string());
    }
}

/// A sideways swipe: at least 40 px, mostly horizontal, within 800 ms.
fn swipe(dx: f64, dy: f64, ms: f64) -> bool {
    dx.abs() >= 40.0 && dx.abs() > 2.0 * dy.abs() && ms <= 800.0
}
