//! Playback: the animation-frame loop that advances the position at the
//! player's speed, and the moves (play/pause, step, back, start, end, jump)
//! that ask the panel for a new position.

use crate::sim::Cursor;
use gloo::render::{request_animation_frame, AnimationFrame};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the loop and the keys read between renders: the latest position,
/// length, speed and seek callback.
pub struct Live {
    pub pos: u64,
    pub len: u64,
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

/// Where the panel has the player now, and where it asks for another
/// position.
pub struct Position {
    pub pos: u64,
    pub len: u64,
    /// Steps per second while playing.
    pub speed: i64,
    pub on_seek: Callback<u64>,
}

/// A player's state and its moves.
pub struct Playback {
    pub playing: UseStateHandle<bool>,
    pub live: Rc<RefCell<Live>>,
    /// Go to a position (a move by hand: pauses playback).
    pub jump: Callback<u64>,
    pub toggle: Callback<()>,
    pub step: Callback<()>,
    pub back: Callback<()>,
    pub to_start: Callback<()>,
    pub to_end: Callback<()>,
}

#[hook]
pub fn use_playback(p: Position) -> Playback {
    let playing = use_state(|| false);
    let live = use_mut_ref(|| Live {
        pos: p.pos,
        len: p.len,
        speed: p.speed as f64,
        on_seek: p.on_seek.clone(),
        last_ts: None,
        carry: 0.0,
        frame: None,
    });
    {
        let mut l = live.borrow_mut();
        l.pos = p.pos;
        l.len = p.len;
        l.speed = p.speed as f64;
        l.on_seek = p.on_seek.clone();
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
        let on_seek = p.on_seek.clone();
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
    let jump = {
        let seek = seek.clone();
        let playing = playing.clone();
        Callback::from(move |v: u64| {
            playing.set(false);
            seek(&|c| c.jump(v));
        })
    };
    let step = moved(|c| c.step());
    let back = moved(|c| c.back());
    let to_start = moved(|c| c.jump(0));
    let to_end = moved(|c| c.jump(u64::MAX));
    Playback { playing, live, jump, toggle, step, back, to_start, to_end }
}
