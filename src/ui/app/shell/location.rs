//! The shell's part of the address: the path and the global parameters.

use crate::ui::kit::ctx::{query_pairs, Route};
use yew::prelude::*;
use yew_router::Routable;

/// What the shell reads from the address: the path, and of the query on
/// the start page and the lecture page all of it, elsewhere only the global parameters (a panel
/// or page reads its own).
#[derive(Clone, PartialEq)]
pub struct ShellLocation {
    pub path: String,
    /// `None`: the query could not be decoded.
    pub pairs: Option<Vec<(String, String)>>,
    /// The query as given, when it could not be decoded (for its notice).
    pub broken: String,
}

impl ShellLocation {
    fn now() -> Self {
        let location = yew_router::history::History::location(&yew_router::history::HashHistory::new());
        // The start page and the lecture page have no panel to own their
        // query: the shell reads all of it (and names what it cannot use).
        let whole = matches!(Route::recognize(location.path()), Some(Route::Home | Route::Lecture));
        let pairs = query_pairs(&location).map(|q| {
            if whole {
                q
            } else {
                q.into_iter().filter(|(k, _)| crate::params::GLOBAL_PARAMS.contains(&k.as_str())).collect()
            }
        });
        let broken = if pairs.is_none() { location.query_str().to_string() } else { String::new() };
        ShellLocation { path: location.path().to_string(), pairs, broken }
    }
}

/// The shell's part of the address, rendered again only when it changes:
/// a panel's own parameters changing (a jump through the URL, the panel's
/// writes of its state) leave the shell as it is. (The router's location
/// context would render the shell on every change of the address.)
#[hook]
pub fn use_shell_location() -> ShellLocation {
    let location = use_state_eq(ShellLocation::now);
    {
        let set = location.setter();
        use_effect_with((), move |_| {
            let history = yew_router::history::HashHistory::new(); // the router's own (one per page)
            set.set(ShellLocation::now());
            let listener = yew_router::history::History::listen(&history, move || set.set(ShellLocation::now()));
            move || drop(listener)
        });
    }
    (*location).clone()
}
