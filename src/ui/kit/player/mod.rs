//! The one player: play/pause, step, back, start/end, a scrub slider and a
//! speed control, with keys Space, ←/→, Home/End. It owns no simulation state:
//! it reads `pos`/`len` and asks for a new position through `on_seek`.

use super::ctx::{key_belongs_to_control, AppCtx};
use crate::sim::Cursor;
use gloo::events::EventListener;
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Playback speeds offered, in steps per second.
pub const SPEEDS: [i64; 9] = [1, 2, 4, 8, 16, 32, 64, 250, 1000];
use crate::sim::{fit_speed, FIT_SECONDS};

#[derive(Properties, PartialEq)]
pub struct PlayerProps {
    pub pos: u64,
    pub len: u64,
    /// Steps per second while playing.
    pub speed: i64,
    /// The fastest the panel's `speed` parameter allows.
    #[prop_or(1000)]
    pub max_speed: i64,
    pub on_seek: Callback<u64>,
    pub on_speed: Callback<i64>,
    /// Translation key of what a step is called (`param.cycle`).
    pub unit: &'static str,
    /// The panel's scenes, for the animated GIF export (none: no export).
    #[prop_or_default]
    pub export: Option<super::export::Export>,
}

struct Live {
    pos: u64,
    len: u64,
    speed: f64,
    on_seek: Callback<u64>,
    last_ts: Option<f64>,
    carry: f64,
    frame: Option<AnimationFrame>,
}

fn schedule(live: Rc<RefCell<Live>>, playing: UseStateHandle<bool>) {
    let again = live.clone();
    let frame = request_animation_frame(move |ts| {
        let (next, done) = {
            let mut l = again.borrow_mut();
            let dt = l.last_ts.map(|t| (ts - t) / 1000.0).unwrap_or(0.0).min(0.25);
            l.last_ts = Some(ts);
            l.carry += dt * l.speed;
            let n = l.carry.floor();
            l.carry -= n;
            let mut c = Cursor::at(l.len, l.pos);
            c.advance(n as u64);
            (c.pos(), c.at_end())
        };
        if next != again.borrow().pos {
            again.borrow_mut().pos = next;
            let cb = again.borrow().on_seek.clone();
            cb.emit(next);
        }
        if done {
            again.borrow_mut().frame = None;
            playing.set(false);
        } else {
            schedule(again, playing);
        }
    });
    live.borrow_mut().frame = Some(frame);
}

/// Player icons as inline SVG (no font needs to have the glyphs).
fn icon_svg(name: &str) -> Html {
    let path = match name {
        "start" => "M2 4h2.5v16H2z M13 4v16L5 12z M21 4v16l-8-8z",
        "back" => "M18 4v16L6 12z",
        "play" => "M7 4v16l13-8z",
        "pause" => "M6 4h4.5v16H6z M13.5 4H18v16h-4.5z",
        "step" => "M4 4v16l11.5-8z M16.5 4H19v16h-2.5z",
        _ => "M3 4v16l8-8z M11 4v16l8-8z M19.5 4H22v16h-2.5z",
    };
    html! {
        <svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <path d={path} fill="currentColor" />
        </svg>
    }
}

#[component]
pub fn Player(props: &PlayerProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let playing = use_state(|| false);
    let live = use_mut_ref(|| Live {
        pos: props.pos,
        len: props.len,
        speed: props.speed as f64,
        on_seek: props.on_seek.clone(),
        last_ts: None,
        carry: 0.0,
        frame: None,
    });
    {
        let mut l = live.borrow_mut();
        l.pos = props.pos;
        l.len = props.len;
        l.speed = props.speed as f64;
        l.on_seek = props.on_seek.clone();
    }

    // Start / stop the animation-frame loop; unmounting cancels it.
    {
        let live = live.clone();
        let playing_h = playing.clone();
        use_effect_with(*playing, move |playing| {
            if *playing {
                live.borrow_mut().last_ts = None;
                live.borrow_mut().carry = 0.0;
                schedule(live.clone(), playing_h);
            }
            move || {
                live.borrow_mut().frame = None;
            }
        });
    }

    let seek = {
        let on_seek = props.on_seek.clone();
        let live = live.clone();
        move |f: &dyn Fn(&mut Cursor)| {
            let (len, pos) = (live.borrow().len, live.borrow().pos);
            let mut c = Cursor::at(len, pos);
            f(&mut c);
            live.borrow_mut().pos = c.pos();
            on_seek.emit(c.pos());
        }
    };
    let seek = Rc::new(seek);
    let toggle = {
        let playing = playing.clone();
        let seek = seek.clone();
        let live = live.clone();
        Callback::from(move |_: ()| {
            if !*playing {
                // Playing from the end starts over.
                let (len, pos) = (live.borrow().len, live.borrow().pos);
                if pos >= len {
                    seek(&|c| c.jump(0));
                }
            }
            playing.set(!*playing);
        })
    };
    // A move by hand pauses playback.
    let moved = |f: fn(&mut Cursor)| {
        let seek = seek.clone();
        let playing = playing.clone();
        Callback::from(move |_: ()| {
            playing.set(false);
            seek(&f);
        })
    };
    let step = moved(|c| c.step());
    let back = moved(|c| c.back());
    let to_start = moved(|c| c.jump(0));
    let to_end = moved(|c| c.jump(u64::MAX));

    // Keys, and a swipe across the canvas on a touch screen.
    {
        let (toggle, step, back, to_start, to_end) =
            (toggle.clone(), step.clone(), back.clone(), to_start.clone(), to_end.clone());
        let live = live.clone();
        use_effect_with((ctx.deck, ctx.asked_lang), move |&(deck, lang)| {
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
                        return super::tools::deck_go(lang.code(), to);
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
            let doc = super::dom::window().document().expect("document");
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
            move || drop((keys, down, up, cancel))
        });
    }

    let on_scrub = {
        let seek = seek.clone();
        let playing = playing.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .and_then(|i| i.value().parse::<u64>().ok());
            if let Some(v) = v {
                playing.set(false);
                seek(&|c| c.jump(v));
            }
        })
    };
    let on_speed = {
        let cb = props.on_speed.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                .and_then(|s| s.value().parse::<i64>().ok());
            if let Some(v) = v {
                cb.emit(v);
            }
        })
    };
    let btn = |label: &str, icon: &'static str, testid: &'static str, cb: &Callback<()>, disabled: bool| {
        let cb = cb.clone();
        html! {
            <button class="player-btn" data-testid={testid} title={label.to_string()} aria-label={label.to_string()}
                disabled={disabled} onclick={Callback::from(move |_: MouseEvent| cb.emit(()))}>
                { icon_svg(icon) }
            </button>
        }
    };
    let (pos, len) = (props.pos, props.len);
    let fit = fit_speed(len, props.max_speed);
    let mut speeds: Vec<i64> = SPEEDS.iter().copied().filter(|s| *s <= props.max_speed).collect();
    for s in [props.speed, fit] {
        if !speeds.contains(&s) {
            speeds.push(s);
        }
    }
    speeds.sort_unstable();
    html! {
        <div class="player" data-testid="player" data-playing={playing.to_string()}>
            <div class="player-buttons">
                { btn(&ctx.t("player.start"), "start", "player-start", &to_start, pos == 0) }
                { btn(&ctx.t("player.back"), "back", "player-back", &back, pos == 0) }
                { btn(&ctx.t(if *playing { "player.pause" } else { "player.play" }), if *playing { "pause" } else { "play" }, "player-play", &toggle, len == 0) }
                { btn(&ctx.t("player.step"), "step", "player-step", &step, pos >= len) }
                { btn(&ctx.t("player.end"), "end", "player-end", &to_end, pos >= len) }
            </div>
            <input class="player-scrub" data-testid="player-scrub" type="range" min="0" max={len.to_string()} step="1"
                value={pos.to_string()} oninput={on_scrub} aria-label={ctx.t(props.unit)} />
            // Position and speed: one row, the speed wrapping under the
            // position where the player is narrow (a projector's side column).
            <div class="player-row">
            <span class="player-position">
                { ctx.t(props.unit) }{" "}
                { ctx.tf("player.position", &[("pos", &pos.to_string()), ("len", &len.to_string())]) }
            </span>
            <label class="player-speed">
                { ctx.t("player.speed") }
                <select data-testid="player-speed" onchange={on_speed}>
                    { for speeds.iter().map(|s| html! {
                        <option value={s.to_string()} selected={*s == props.speed} data-fit={(*s == fit).then_some("1")}>
                            if *s == fit {
                                { ctx.tf("player.fit", &[("n", &s.to_string()), ("s", &FIT_SECONDS.to_string())]) }
                            } else {
                                { ctx.tf("player.per-second", &[("n", &s.to_string())]) }
                            }
                        </option>
                    }) }
                </select>
            </label>
            </div>
            <p class="player-keys">{ ctx.t("player.keys") }</p>
            if let Some(export) = props.export.clone() {
                <super::export::GifExport export={export} pos={pos} len={len} speed={props.speed} />
            }
        </div>
    }
}

/// A sideways swipe: at least 40 px, mostly horizontal, within 800 ms.
fn swipe(dx: f64, dy: f64, ms: f64) -> bool {
    dx.abs() >= 40.0 && dx.abs() > 2.0 * dy.abs() && ms <= 800.0
}
