//! [`Topic`]: everything one route owns, declared in its folder.

use super::TopicMeta;
use crate::i18n::Texts;
use crate::lecture::Row;
use crate::params::Values;
use crate::practice::Bank;

/// One route's parts, declared in its folder (`topics/<id>/mod.rs`) as
///
/// ```ignore
/// pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK)
///     .lecture(lecture_rows)              // optional: the notes' table beside the model
///     .measured(&["h200-figures.csv"]);   // optional: files of assets/measured/ it reads
/// ```
///
/// The registry (`crate::topics::ALL`) lists every `TOPIC`; the browser view
/// is the folder's `view::panel` (see `crate::ui::kit::panel::panel!`).
pub struct Topic {
    pub meta: &'static TopicMeta,
    /// The topic's texts (`texts.tsv` in its folder), looked up through [`crate::i18n`].
    pub strings: Texts,
    /// Predict-then-reveal questions from the topic's own simulation.
    pub practice: &'static Bank,
    /// The lecture's printed figures beside the model, for given values.
    pub lecture: Option<fn(&Values) -> Vec<Row>>,
    /// The tables of `assets/measured/` the panel overlays.
    pub measured: &'static [&'static str],
}

impl Topic {
    pub const fn new(meta: &'static TopicMeta, strings: Texts, practice: &'static Bank) -> Self {
        Topic { meta, strings, practice, lecture: None, measured: &[] }
    }

    /// With the lecture's table (checked for every topic by one registry test).
    pub const fn lecture(self, rows: fn(&Values) -> Vec<Row>) -> Self {
        Topic { lecture: Some(rows), ..self }
    }

    /// With measured tables (each parsed by one registry test).
    pub const fn measured(self, files: &'static [&'static str]) -> Self {
        Topic { measured: files, ..self }
    }

    pub fn id(&self) -> &'static str {
        self.meta.id
    }
}
