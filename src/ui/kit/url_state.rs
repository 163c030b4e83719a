//! `use_url_state`: a panel's whole state, kept in the URL.
//!
//! The URL is read (through yew-router's serde query decoding) and validated
//! by the topic's pure `parse`; the panel works on a reducer copy so that fast
//! changes (playback, dragging a slider) stay smooth, and every change is
//! written back with `history.replaceState` after the frame that shows it,
//! at most every 200 ms (browsers throttle faster writes), the last one
//! always. A URL that changes from
//! outside (back button, edited link) is adopted, with its notices, in the
//! same render that shows it.

use super::ctx::{query_pairs, AppCtx, Route};
use crate::params::{Notice, Problem, Value, Values};
use crate::topic::TopicMeta;
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;
use yew_router::history::{HashHistory, History};
use yew_router::prelude::*;

const WRITE_EVERY_MS: u32 = 200;

#[derive(Clone)]
pub enum Action {
    /// Set one parameter (clamped like a URL value; the position is kept
    /// inside the run).
    Set(&'static str, Value),
    /// Set several at once (presets).
    SetMany(Vec<(&'static str, Value)>),
    /// Take values read from the URL.
    Replace(Values),
}

pub struct PanelValues {
    meta: &'static TopicMeta,
    pub values: Values,
}

impl PartialEq for PanelValues {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl Reducible for PanelValues {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let values = match action {
            Action::Set(name, v) => self.values.with(name, v),
            // A preset opens at its first step, unless it names one.
            Action::SetMany(list) => {
                let pos = self.meta.position_param().filter(|p| list.iter().all(|(n, _)| n != p));
                let start = pos.map(|p| (p, Value::Int(0)));
                list.into_iter().chain(start).fold(self.values.clone(), |acc, (n, v)| acc.with(n, v))
            }
            Action::Replace(v) => v,
        };
        let values = self.meta.normalize(values);
        if values == self.values {
            return self;
        }
        Rc::new(PanelValues { meta: self.meta, values })
    }
}

#[derive(Default)]
struct Writer {
    /// The throttle interval after a write.
    timer: Option<Timeout>,
    /// A write is on its way (after the next paint).
    scheduled: bool,
    pending: Option<Vec<(String, String)>>,
    /// The number of the last write, kept in the history entry's state, so
    /// that its echo (the router's location update) is not taken for an
    /// outside change. Anything else that arrives — even a query equal to
    /// one written before (back, an edited link, a deck moving on) — is a
    /// real navigation, and the URL wins. 0: no write since the last
    /// adopted navigation (numbers start at 1), so nothing is an echo.
    seq: u64,
    /// The query the URL shows, as far as this panel knows: the last one it
    /// wrote or adopted.
    shown: Option<Vec<(String, String)>>,
    /// How many outside changes have been adopted (the write effect runs
    /// after each, to rewrite a non-canonical spelling).
    adopted: u64,
}

type WriteFn = Rc<dyn Fn(&[(String, String)], u64)>;

/// Resolve in a task after the next frame has been painted.
async fn after_paint() {
    super::dom::next_frame().await;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = super::dom::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Ask for `q` to be written. `history.replaceState` can take milliseconds
/// (more on a busy machine), so the first write of a burst waits until the
/// frame that shows the change has been painted; later ones are throttled.
/// The panel's very first write (its URL as it mounts) goes at once: others
/// on the page (a practice question adding its seed) write after it.
fn request_write(this: &Rc<RefCell<Writer>>, q: Vec<(String, String)>, write: WriteFn) {
    let mut w = this.borrow_mut();
    w.pending = Some(q);
    if w.timer.is_some() || w.scheduled {
        return;
    }
    if w.shown.is_none() {
        drop(w);
        flush(this, write);
        return;
    }
    w.scheduled = true;
    drop(w);
    let this = this.clone();
    yew::platform::spawn_local(async move {
        after_paint().await;
        this.borrow_mut().scheduled = false;
        flush(&this, write);
    });
}

/// Write the pending query, if any (a navigation or leaving the panel drops
/// it), and hold the next write for [`WRITE_EVERY_MS`].
fn flush(this: &Rc<RefCell<Writer>>, write: WriteFn) {
    let Some(q) = this.borrow_mut().pending.take() else { return };
    // Unique across panel instances: a history entry written by a panel
    // that has since unmounted can never pass for this one's echo.
    thread_local!(static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    let seq = NEXT.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    this.borrow_mut().seq = seq;
    write(&q, seq);
    this.borrow_mut().shown = Some(q);
    let again = this.clone();
    let timer = Timeout::new(WRITE_EVERY_MS, move || {
        again.borrow_mut().timer = None;
        flush(&again, write);
    });
    this.borrow_mut().timer = Some(timer);
}

thread_local! {
    /// Writes the shown panel's pending change at once (see [`flush_pending`]).
    static FLUSH: RefCell<Option<Rc<dyn Fn()>>> = const { RefCell::new(None) };
}

/// Write the shown panel's latest change to the URL now, if it is still
/// waiting (the paint, the throttle): whoever rewrites the URL next (the
/// shell's P, a language switch) starts from the panel's state as shown,
/// not from a URL a step or two behind it.
pub fn flush_pending() {
    if let Some(f) = FLUSH.with(|f| f.borrow().clone()) {
        f();
    }
}

pub struct UrlState {
    pub values: Values,
    pub notices: Rc<Vec<Notice>>,
    pub dispatch: Callback<Action>,
    pub dismiss: Callback<()>,
}

/// The values and notices of a URL's query (`None`: it could not be decoded).
fn read(meta: &'static TopicMeta, pairs: Option<&[(String, String)]>) -> (Values, Vec<Notice>) {
    let (values, mut notices) = meta.parse(pairs.unwrap_or_default());
    if pairs.is_none() {
        notices.push(Notice { param: "?".into(), given: String::new(), problem: Problem::BrokenQuery });
    }
    (values, notices)
}

#[hook]
pub fn use_url_state(meta: &'static TopicMeta) -> UrlState {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // The panel listens to the history itself rather than through the
    // router's location context (`use_location`), which would render the
    // whole panel again for each of its own throttled writes, and would show
    // an outside change only one render late (an effect adopting it, then a
    // second render with its values). Here an outside change is adopted the
    // moment it happens, so it costs one render, as a slider change does.
    let state = use_reducer(|| {
        let pairs = query_pairs(&HashHistory::new().location());
        PanelValues { meta, values: read(meta, pairs.as_deref()).0 }
    });
    let notices = use_state(|| Rc::new(read(meta, query_pairs(&HashHistory::new().location()).as_deref()).1));
    let writer = use_mut_ref(Writer::default);
    let navigator = use_navigator().expect("inside a router");

    let write: WriteFn = Rc::new(move |q: &[(String, String)], seq: u64| {
        let _ = navigator.replace_with_query_and_state(&Route::Topic { id: meta.id.to_string() }, q, seq);
    });

    // Adopt a URL that changed from outside: anything but the echo of this
    // panel's own last write (back, an edited link, a deck moving on), even
    // a query equal to one written before. The URL wins.
    {
        let dispatch = state.dispatcher();
        let notices = notices.setter();
        let writer = writer.clone();
        use_effect_with((), move |_| {
            let history = HashHistory::new(); // the router's own (one per page)
            let listener = history.clone().listen(move || {
                let location = history.location();
                if Route::recognize(location.path()) != Some(Route::Topic { id: meta.id.to_string() }) {
                    return; // another page: the shell swaps this panel out
                }
                let echo = location.state::<u64>().is_some_and(|s| *s == writer.borrow().seq);
                if echo {
                    return;
                }
                let pairs = query_pairs(&location);
                let (values, found) = read(meta, pairs.as_deref());
                // Only globals changed (practice mode adding its `q`, the
                // language): the notices about this panel's values stand.
                let globals_only = found.is_empty()
                    && matches!((&writer.borrow().shown, &pairs), (Some(a), Some(b)) if crate::params::same_own_query(a, b));
                {
                    let mut w = writer.borrow_mut();
                    w.shown = pairs;
                    w.adopted += 1;
                    // The entry shown now is not this panel's last write: an
                    // older entry that still carries that write's number (Back,
                    // before a write for this one has landed) is not its echo.
                    w.seq = 0;
                }
                dispatch.dispatch(Action::Replace(values));
                if !globals_only {
                    notices.set(Rc::new(found));
                }
            });
            move || drop(listener)
        });
    }

    // Write every change back (throttled), with the global parameters. A
    // query the URL already shows is not written again (an adopted URL in
    // its canonical spelling), and a write still pending from before it is
    // dropped: the navigation wins. An adopted URL in another spelling
    // (`rows=` → `rows=4`) is rewritten.
    {
        let writer = writer.clone();
        let write = write.clone();
        let adopted = writer.borrow().adopted;
        let globals = ctx.globals();
        use_effect_with((state.values.clone(), globals, adopted), move |(values, globals, _)| {
            let mut q = values.to_query();
            q.extend(globals.iter().cloned());
            if writer.borrow().shown.as_ref() == Some(&q) {
                writer.borrow_mut().pending = None;
            } else {
                request_write(&writer, q, write);
            }
        });
    }

    // While shown, others may ask for the pending write at once; leaving
    // the panel cancels it (it would drag the URL back).
    {
        let writer = writer.clone();
        let write = write.clone();
        use_effect_with((), move |_| {
            let now: Rc<dyn Fn()> = {
                let writer = writer.clone();
                Rc::new(move || {
                    if writer.borrow().pending.is_some() {
                        writer.borrow_mut().timer = None;
                        flush(&writer, write.clone());
                    }
                })
            };
            FLUSH.with(|f| *f.borrow_mut() = Some(now.clone()));
            move || {
                FLUSH.with(|f| {
                    let mut f = f.borrow_mut();
                    if f.as_ref().is_some_and(|g| Rc::ptr_eq(g, &now)) {
                        *f = None;
                    }
                });
                let mut w = writer.borrow_mut();
                w.timer = None;
                w.pending = None;
            }
        });
    }

    // The same callbacks at every render (a callback compares by pointer):
    // the parts of a panel that take them are not rendered again when only
    // the position moved.
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| Callback::from(move |a: Action| dispatcher.dispatch(a)))).clone()
    };
    let dismiss = {
        let set = notices.setter();
        (*use_memo((), move |_| Callback::from(move |_| set.set(Rc::new(Vec::new()))))).clone()
    };
    UrlState { values: state.values.clone(), notices: (*notices).clone(), dispatch, dismiss }
}
