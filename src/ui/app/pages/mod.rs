//! The routed pages besides the panels: the start and not-found pages
//! (`landing`), and the deck, lecture and practice-round pages, each a
//! `#[wasm_split]` chunk of its own loaded on first use (see `shell`).

pub mod deck;
pub mod landing;
pub mod lecture;
pub mod practice_round;
