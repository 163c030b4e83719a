//! A text in no language yet: a translation key and its `{placeholders}`'
//! values, written in the reader's language when shown ([`Message::render`],
//! in `i18n`). Why a URL value is unusable, a practice question, its
//! explanation: the same thing.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Message {
    pub fn new(key: &'static str, args: &[(&'static str, String)]) -> Self {
        Message { key, args: args.to_vec() }
    }
    /// A text without placeholders.
    pub fn key(key: &'static str) -> Self {
        Message { key, args: Vec::new() }
    }
}
