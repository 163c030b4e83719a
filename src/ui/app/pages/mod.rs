//! The routed pages besides the panels and the start page: each is a
//! `#[wasm_split]` chunk of its own, loaded on first use (see `shell.rs`).

pub mod deck;
pub mod lecture;
pub mod practice_round;
