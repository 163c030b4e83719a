//! The UI half of the topic registry: each pure [`TopicMeta`] paired with the
//! component that shows it. Adding a panel: its sim, its draw, its panel
//! module, its entry in `topics::ALL` and one line here.

use crate::topics::{self, TopicMeta};
use yew::prelude::*;

pub struct Topic {
    pub meta: &'static TopicMeta,
    pub view: fn() -> Html,
}

pub static TOPICS: [Topic; 16] = [
    Topic { meta: &topics::HARDWARE, view: || html! { <super::panels::roofline::HardwarePanel /> } },
    Topic { meta: &topics::THREADS, view: || html! { <super::panels::threads::ThreadsPanel /> } },
    Topic { meta: &topics::ROOFLINE, view: || html! { <super::panels::roofline::RooflinePanel /> } },
    Topic { meta: &topics::DIVERGENCE, view: || html! { <super::panels::divergence::DivergencePanel /> } },
    Topic { meta: &topics::FUSION, view: || html! { <super::panels::fusion::FusionPanel /> } },
    Topic { meta: &topics::RECOMPUTE, view: || html! { <super::panels::fusion::RecomputePanel /> } },
    Topic { meta: &topics::COALESCING, view: || html! { <super::panels::coalescing::CoalescingPanel /> } },
    Topic { meta: &topics::TILING, view: || html! { <super::panels::matmul::TilingPanel /> } },
    Topic { meta: &topics::QUANTIZATION, view: || html! { <super::panels::matmul::QuantizationPanel /> } },
    Topic { meta: &topics::OCCUPANCY, view: || html! { <super::panels::occupancy::OccupancyPanel /> } },
    Topic { meta: &topics::WAVES, view: || html! { <super::panels::matmul::WavesPanel /> } },
    Topic { meta: &topics::ONLINE_SOFTMAX, view: || html! { <super::panels::softmax::SoftmaxPanel /> } },
    Topic { meta: &topics::FLASH, view: || html! { <super::panels::flash::FlashPanel /> } },
    Topic { meta: &topics::ATTENTION_MEMORY, view: || html! { <super::panels::memory::MemoryPanel /> } },
    Topic { meta: &topics::GPU_TPU, view: || html! { <super::panels::matmul::GpuTpuPanel /> } },
    Topic { meta: &topics::SYSTOLIC, view: || html! { <super::panels::systolic::SystolicPanel /> } },
];

pub fn find(id: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.meta.id == id)
}
