//! The UI half of the topic registry: each pure [`TopicMeta`] paired with the
//! component that shows it and the part of the lecture it belongs to.

use crate::topics::{self, TopicMeta};
use yew::prelude::*;

pub struct Topic {
    pub meta: &'static TopicMeta,
    /// Translation key of the lecture part the landing page files it under.
    pub part: &'static str,
    pub view: fn() -> Html,
}

pub static TOPICS: [Topic; 1] = [Topic {
    meta: &topics::SYSTOLIC,
    part: "landing.part.tpu",
    view: || html! { <super::panels::systolic::SystolicPanel /> },
}];

pub fn find(id: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.meta.id == id)
}
