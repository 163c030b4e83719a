//! Long work in slices between frames (the exact checks of `#/flash` and
//! `#/systolic`, `#/your-machine`'s measurements): a clock, two ways to hand
//! the browser back its turn, and one slice of work.

use wasm_bindgen::{JsCast, JsValue};

/// Milliseconds since the page started (`performance.now()`).
pub fn now() -> f64 {
    super::dom::window().performance().map_or(0.0, |p| p.now())
}

/// Let the browser handle input and paint: resolves in a new task, posted
/// through a `MessageChannel` (a chain of `setTimeout(0)` is clamped to 4 ms
/// a link, which would leave the CPU idle 40 % of the time), or a timer
/// where there is none.
pub async fn next_task() {
    use js_sys::{Function, Reflect};
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let posted = (|| -> Option<()> {
            let ctor: Function = Reflect::get(&js_sys::global(), &"MessageChannel".into()).ok()?.dyn_into().ok()?;
            let channel = Reflect::construct(&ctor, &js_sys::Array::new()).ok()?;
            let (port1, port2) =
                (Reflect::get(&channel, &"port1".into()).ok()?, Reflect::get(&channel, &"port2".into()).ok()?);
            Reflect::set(&port1, &"onmessage".into(), &resolve).ok()?;
            let post: Function = Reflect::get(&port2, &"postMessage".into()).ok()?.dyn_into().ok()?;
            post.call1(&port2, &JsValue::from(0)).ok()?;
            Some(())
        })();
        if posted.is_none() {
            let _ = super::dom::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

/// Resolve when the browser has nothing more urgent to do: a task at
/// background priority (`scheduler.postTask`), so input, rendering and
/// painting go first, yet the work never waits on an idle period that may
/// not come (a `requestIdleCallback` chain on a page that keeps producing
/// frames once stalled a check for over 30 s in CI). Where there is no
/// `scheduler`, an idle callback with a 50 ms timeout; else a zero timeout.
pub async fn at_background_priority() {
    use js_sys::{Function, Object, Reflect};
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let method = |obj: &JsValue, name: &str| -> Option<Function> {
            Reflect::get(obj, &name.into()).ok()?.dyn_into::<Function>().ok()
        };
        let options = |key: &str, value: JsValue| {
            let o = Object::new();
            let _ = Reflect::set(&o, &key.into(), &value);
            o
        };
        let posted = Reflect::get(&global, &"scheduler".into())
            .ok()
            .filter(|s| s.is_object())
            .and_then(|s| Some((method(&s, "postTask")?, s)))
            .and_then(|(post, s)| post.call2(&s, &resolve, &options("priority", "background".into())).ok())
            .or_else(|| {
                let idle = method(&global, "requestIdleCallback")?;
                idle.call2(&global, &resolve, &options("timeout", 50.into())).ok()
            });
        if posted.is_none() {
            let _ = super::dom::window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// One slice of work: `piece` (short, true when all is done) again and again
/// for about `ms`; whether all is done.
pub fn slice(ms: f64, mut piece: impl FnMut() -> bool) -> bool {
    let t0 = now();
    loop {
        let done = piece();
        if done || now() - t0 >= ms {
            return done;
        }
    }
}
