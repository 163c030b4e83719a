//! The browser's storage, fallible: every read and write of `localStorage`
//! and `sessionStorage` goes through here. With site data blocked, merely
//! reaching `window.localStorage` throws (gloo's `LocalStorage` then panics
//! and the page is blank); with storage full, a write throws. Here a blocked
//! storage reads as empty, a write that fails is kept in this page's memory
//! (later reads see it: the page keeps working until it is left) and says
//! why it failed, and [`trouble`] tells the shell to say so.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Why a value could not be saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// The browser blocks site data (reaching storage throws).
    Blocked,
    /// The write was refused (storage full).
    Full,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Area {
    Local,
    Session,
}

thread_local! {
    /// Values whose last write failed: what this page works from.
    static MEMORY: RefCell<HashMap<(Area, String), Option<String>>> = RefCell::new(HashMap::new());
    /// The last failure, for the shell's notice.
    static TROUBLE: Cell<Option<Trouble>> = const { Cell::new(None) };
}

fn raw(area: Area) -> Option<web_sys::Storage> {
    let w = web_sys::window()?;
    let s = match area {
        Area::Local => w.local_storage(),
        Area::Session => w.session_storage(),
    };
    s.ok().flatten()
}

fn note(t: Trouble) {
    TROUBLE.with(|c| c.set(Some(t)));
}

fn get_in(area: Area, key: &str) -> Option<String> {
    if let Some(v) = MEMORY.with(|m| m.borrow().get(&(area, key.to_string())).cloned()) {
        return v;
    }
    match raw(area) {
        Some(s) => s.get_item(key).ok().flatten(),
        None => {
            note(Trouble::Blocked);
            None
        }
    }
}

fn set_in(area: Area, key: &str, value: Option<String>) -> Result<(), Trouble> {
    let written = match raw(area) {
        None => Err(Trouble::Blocked),
        Some(s) => match &value {
            Some(v) => s.set_item(key, v).map_err(|_| Trouble::Full),
            None => s.remove_item(key).map_err(|_| Trouble::Full),
        },
    };
    MEMORY.with(|m| {
        let mut m = m.borrow_mut();
        match written {
            Ok(()) => m.remove(&(area, key.to_string())),
            Err(_) => m.insert((area, key.to_string()), value),
        }
    });
    if let Err(t) = written {
        note(t);
    }
    written
}

/// The text stored under `key` (this page's unsaved value first).
pub fn get(key: &str) -> Option<String> {
    get_in(Area::Local, key)
}

/// Store `value` under `key`; on failure it is kept in memory and the
/// reason returned.
pub fn set(key: &str, value: &str) -> Result<(), Trouble> {
    set_in(Area::Local, key, Some(value.to_string()))
}

pub fn remove(key: &str) -> Result<(), Trouble> {
    set_in(Area::Local, key, None)
}

/// A JSON string (as gloo's storage wrote it), `None` if absent or not one;
/// read without serde_json (`crate::json`), which the main module does not carry.
pub fn get_str(key: &str) -> Option<String> {
    get(key).and_then(|s| crate::json::parse(&s)?.str().map(String::from))
}

/// Store `value` as a JSON string, as [`set_json`] would.
pub fn set_str(key: &str, value: &str) -> Result<(), Trouble> {
    set(key, &crate::json::quote(value))
}

/// A JSON value (as gloo's storage wrote it), `None` if absent or not one.
pub fn get_json<T: DeserializeOwned>(key: &str) -> Option<T> {
    get(key).and_then(|s| serde_json::from_str(&s).ok())
}

pub fn set_json<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<(), Trouble> {
    set(key, &serde_json::to_string(value).unwrap_or_default())
}

pub fn session_get_json<T: DeserializeOwned>(key: &str) -> Option<T> {
    get_in(Area::Session, key).and_then(|s| serde_json::from_str(&s).ok())
}

pub fn session_set_json<T: Serialize + ?Sized>(key: &str, value: &T) -> Result<(), Trouble> {
    set_in(Area::Session, key, Some(serde_json::to_string(value).unwrap_or_default()))
}

pub fn session_remove(key: &str) -> Result<(), Trouble> {
    set_in(Area::Session, key, None)
}

/// Does the browser block site data (reaching `localStorage` throws)?
pub fn blocked() -> bool {
    raw(Area::Local).is_none()
}

/// The trouble this page has with storage, if any: blocked now, or the
/// last failure while a value is still unsaved.
pub fn trouble() -> Option<Trouble> {
    if blocked() {
        return Some(Trouble::Blocked);
    }
    let unsaved = MEMORY.with(|m| !m.borrow().is_empty());
    unsaved.then(|| TROUBLE.with(|c| c.get())).flatten()
}

/// The text key of a trouble's notice.
pub fn trouble_key(t: Trouble) -> &'static str {
    match t {
        Trouble::Blocked => "storage.blocked",
        Trouble::Full => "storage.full",
    }
}
