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

/// Resolve when the browser is idle (`requestIdleCallback`, else a zero
/// timeout), so that input, rendering and painting always go first.
pub async fn when_idle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let w = super::dom::window();
        let idle = js_sys::Reflect::get(&w, &"requestIdleCallback".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match idle {
            Some(f) => {
                let _ = f.call1(&w, &resolve);
            }
            None => {
                let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
            }
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
