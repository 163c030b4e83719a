//! What a topic's view may call: one player, one slider, one canvas adapter,
//! the chart helpers, the panel frame and hook (`panel`), readouts, shared
//! widgets, export, and what they stand on (context, URL state, DOM and
//! theme, chunk and text loading). Nothing here names the registry
//! (`crate::topics`) or the app above it (`crate::ui::app`).

pub mod background;
pub mod canvas;
pub mod chart;
pub mod chunk;
pub mod ctx;
pub mod custom_gpu;
pub mod dom;
pub mod export;
pub mod inset;
pub mod lecture_table;
pub mod measured;
pub mod paint;
pub mod panel;
pub mod part;
pub mod player;
pub mod practice;
pub mod readouts;
pub mod slider;
pub mod storage;
pub mod texts;
pub mod tools;
pub mod url_state;
pub mod widgets;
