//! The one player: play/pause, step, back, start/end, a scrub slider and a
//! speed control, with keys Space, ←/→, Home/End. It owns no simulation state:
//! it reads `pos`/`len` and asks for a new position through `on_seek`.

mod keys;
mod playback;

use crate::ui::kit::ctx::AppCtx;
use keys::use_player_keys;
use playback::{use_playback, Position};
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
    pub export: Option<crate::ui::kit::export::Export>,
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
    let pb =
        use_playback(Position { pos: props.pos, len: props.len, speed: props.speed, on_seek: props.on_seek.clone() });
    use_player_keys(&pb, ctx.deck, ctx.asked_lang);
    let on_scrub = {
        let jump = pb.jump.clone();
        Callback::from(move |e: InputEvent| {
            let v = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                .and_then(|i| i.value().parse::<u64>().ok());
            if let Some(v) = v {
                jump.emit(v);
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
        <div class="player" data-testid="player" data-playing={pb.playing.to_string()}>
            <div class="player-buttons">
                { btn(&ctx.t("player.start"), "start", "player-start", &pb.to_start, pos == 0) }
                { btn(&ctx.t("player.back"), "back", "player-back", &pb.back, pos == 0) }
                { btn(&ctx.t(if *pb.playing { "player.pause" } else { "player.play" }), if *pb.playing { "pause" } else { "play" }, "player-play", &pb.toggle, len == 0) }
                { btn(&ctx.t("player.step"), "step", "player-step", &pb.step, pos >= len) }
                { btn(&ctx.t("player.end"), "end", "player-end", &pb.to_end, pos >= len) }
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
                <crate::ui::kit::export::GifExport export={export} pos={pos} len={len} speed={props.speed} />
            }
        </div>
    }
}
