//! Exports for slides: a run as an animated GIF (the panel's own scenes,
//! painted offscreen with the canvas adapter, encoded by `animation`), and
//! "PNG with figures" (the canvas with the panel's title and key figures).

use super::ctx::AppCtx;
use super::paint::{paint_scaled, Scratch};
use crate::animation::{delay_cs, frame_positions, GifWriter, MAX_FRAMES};
use crate::scene::{slide, Scene, Theme};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What a stepping panel offers for export: a file name and its scene at
/// any position (the same drawing as on screen).
#[derive(Clone)]
pub struct Export {
    pub name: String,
    pub scene_at: Rc<dyn Fn(u64) -> Scene>,
}

impl PartialEq for Export {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && Rc::ptr_eq(&self.scene_at, &o.scene_at)
    }
}

fn offscreen() -> Option<HtmlCanvasElement> {
    super::dom::window().document()?.create_element("canvas").ok()?.dyn_into::<HtmlCanvasElement>().ok()
}

/// The RGBA pixels of `scene` painted at `scale` pixels per CSS pixel.
fn rasterize(canvas: &HtmlCanvasElement, scene: &Scene, scale: f64, scratch: &mut Scratch) -> Option<Vec<u8>> {
    paint_scaled(canvas, scene, scratch, scale, 0.0);
    let ctx = super::paint::context_2d(canvas)?;
    let img = ctx.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).ok()?;
    Some(img.data().0)
}

#[derive(Clone, PartialEq)]
enum Job {
    Idle,
    Running { done: usize, of: usize },
    Done { frames: usize, bytes: usize },
    Failed(String),
}

#[derive(Properties, PartialEq)]
pub struct GifExportProps {
    pub export: Export,
    pub pos: u64,
    pub len: u64,
    /// Playback speed (steps per second): the GIF's frame rate.
    pub speed: i64,
}

/// "GIF…": the button, and when open the form (its own chunk: the form,
/// the offscreen painting and the encoder load only when asked for).
#[component]
pub fn GifExport(p: &GifExportProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <div class="gif-export">
            <button class="tool" data-testid="gif-open" aria-expanded={open.to_string()} onclick={toggle}>{ ctx.t("export.gif") }</button>
            if *open {
                <LazyGifForm export={p.export.clone()} pos={p.pos} len={p.len} speed={p.speed} />
            }
        </div>
    }
}

/// The GIF form, as its chunk gives it.
type GifFormView = fn(&GifExportProps) -> Html;

/// Where the split build cuts: the form and the encoder are reached only
/// from here.
#[wasm_split_helpers::wasm_split(gif_export, fallible)]
fn gif_form() -> Result<GifFormView, wasm_split_helpers::SplitLoaderError> {
    Ok(|p| html! { <GifForm export={p.export.clone()} pos={p.pos} len={p.len} speed={p.speed} /> })
}

super::chunk::chunks!(static GIF_FORM: GifFormView);

/// The form once its chunk is in: until then "loading…", or an error with Retry.
#[component]
fn LazyGifForm(p: &GifExportProps) -> Html {
    use super::chunk::{pending, state_name, use_chunk, Chunk};
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let chunk = use_chunk(GIF_FORM, "gif-export", || Box::pin(gif_form()), &[]);
    if let Chunk::Ready(view) = chunk {
        return view(p);
    }
    html! {
        <div class="gif-form" data-testid="gif-form" data-chunk="gif-export" data-chunk-state={state_name(&chunk)}>
            { pending(&ctx, &chunk, "page.loading", "page.load-failed") }
        </div>
    }
}

/// Choose a step range, the number of frames and a scale; a progress bar and
/// Cancel while it encodes; the file downloads when done.
#[component]
fn GifForm(p: &GifExportProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let from = use_state(|| 0u64);
    let to = use_state(|| p.len);
    let frames = use_state(|| (p.len + 1).min(120));
    let scale = use_state(|| 1u32);
    let job = use_state(|| Job::Idle);
    let cancel = use_mut_ref(|| Rc::new(Cell::new(false)));
    {
        let (to, frames) = (to.clone(), frames.clone());
        use_effect_with(p.len, move |len| {
            to.set(*len);
            frames.set((*len + 1).min(120));
        });
    }
    let num = |state: &UseStateHandle<u64>, max: u64| {
        let state = state.clone();
        Callback::from(move |e: Event| {
            if let Some(v) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|i| i.value().trim().parse::<u64>().ok())
            {
                state.set(v.min(max));
            }
        })
    };
    let start = {
        let (export, job, cancel) = (p.export.clone(), job.clone(), cancel.clone());
        let (from, to, frames, scale, speed) = (*from, *to, *frames, *scale, p.speed);
        Callback::from(move |_: MouseEvent| {
            let stop = Rc::new(Cell::new(false));
            *cancel.borrow_mut() = stop.clone();
            let (export, job) = (export.clone(), job.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let positions = frame_positions(from, to, frames.clamp(1, MAX_FRAMES));
                let stride = if positions.len() > 1 { (positions[1] - positions[0]).max(1) } else { 1 };
                let delay = delay_cs(speed, stride);
                let result = encode(&export, &positions, scale as f64, delay, &stop, &job).await;
                job.set(match result {
                    Ok(Some((n, bytes))) => {
                        let len = bytes.len();
                        let arr = js_sys::Uint8Array::from(bytes.as_slice());
                        let opts = web_sys::BlobPropertyBag::new();
                        opts.set_type("image/gif");
                        if let Ok(blob) =
                            web_sys::Blob::new_with_u8_array_sequence_and_options(&js_sys::Array::of1(&arr), &opts)
                        {
                            super::dom::download_blob(&format!("{}.gif", export.name), &blob);
                        }
                        Job::Done { frames: n, bytes: len }
                    }
                    Ok(None) => Job::Idle,
                    Err(e) => Job::Failed(e),
                });
            });
        })
    };
    let stop = {
        let cancel = cancel.clone();
        Callback::from(move |_: MouseEvent| cancel.borrow().set(true))
    };
    let running = matches!(*job, Job::Running { .. });
    html! {
        <div class="gif-form" data-testid="gif-form">
            <label>{ ctx.t("export.from") }
                <input type="number" min="0" max={p.len.to_string()} value={from.to_string()} onchange={num(&from, p.len)} data-testid="gif-from" /></label>
            <label>{ ctx.t("export.to") }
                <input type="number" min="0" max={p.len.to_string()} value={to.to_string()} onchange={num(&to, p.len)} data-testid="gif-to" /></label>
            <label>{ ctx.t("export.frames") }
                <input type="number" min="1" max={MAX_FRAMES.to_string()} value={frames.to_string()} onchange={num(&frames, MAX_FRAMES)} data-testid="gif-frames" /></label>
            <label>{ ctx.t("export.scale") }
                <select onchange={{
                    let scale = scale.clone();
                    Callback::from(move |e: Event| {
                        if let Some(v) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()).and_then(|s| s.value().parse().ok()) {
                            scale.set(v);
                        }
                    })
                }}>
                    <option value="1" selected={*scale == 1}>{"1×"}</option>
                    <option value="2" selected={*scale == 2}>{"2×"}</option>
                </select></label>
            if running {
                <button class="tool" data-testid="gif-cancel" onclick={stop}>{ ctx.t("export.cancel") }</button>
            } else {
                <button class="tool primary" data-testid="gif-start" onclick={start}>{ ctx.t("export.start") }</button>
            }
            { match &*job {
                Job::Idle => html! {},
                Job::Running { done, of } => html! {
                    <progress data-testid="gif-progress" max={of.to_string()} value={done.to_string()}></progress>
                },
                Job::Done { frames, bytes } => html! {
                    <span class="tool-status" data-testid="gif-done" data-frames={frames.to_string()} data-bytes={bytes.to_string()}>
                        { ctx.tf("export.done", &[("frames", &frames.to_string()), ("kb", &format!("{:.0}", *bytes as f64 / 1024.0))]) }
                    </span>
                },
                Job::Failed(e) => html! { <span class="check bad">{ e.clone() }</span> },
            } }
        </div>
    }
}

/// Paint and encode each position; `None` if cancelled.
async fn encode(
    export: &Export,
    positions: &[u64],
    scale: f64,
    delay: u16,
    stop: &Cell<bool>,
    job: &UseStateHandle<Job>,
) -> Result<Option<(usize, Vec<u8>)>, String> {
    let canvas = offscreen().ok_or("no canvas")?;
    let mut scratch = Scratch::default();
    let first = (export.scene_at)(positions[0]);
    let (w, h) = ((first.width * scale).round() as u16, (first.height * scale).round().max(1.0) as u16);
    let mut gif = GifWriter::new(w, h)?;
    for (i, &pos) in positions.iter().enumerate() {
        if stop.get() {
            return Ok(None);
        }
        let mut scene = (export.scene_at)(pos);
        // Every frame the size of the first (a GIF has one screen size).
        scene.width = first.width;
        scene.height = first.height;
        let rgba = rasterize(&canvas, &scene, scale, &mut scratch).ok_or("no pixels")?;
        gif.add(&rgba, delay)?;
        job.set(Job::Running { done: i + 1, of: positions.len() });
        super::dom::next_frame().await;
    }
    let n = gif.frames();
    Ok(Some((n, gif.finish()?)))
}

/// Save the canvas with the panel's title and key figures as one PNG.
pub fn save_slide(scene: &Scene, name: &str, present: bool) {
    let Some(doc) = super::dom::window().document() else { return };
    let title =
        doc.query_selector(".panel-header h1").ok().flatten().and_then(|h| h.text_content()).unwrap_or_default();
    let mut figures = Vec::new();
    if let Ok(list) = doc.query_selector_all(".stage > .readouts .metric") {
        for i in 0..list.length() {
            let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
            let text =
                |sel: &str| el.query_selector(sel).ok().flatten().and_then(|e| e.text_content()).unwrap_or_default();
            figures.push((text(".metric-label"), text(".metric-value")));
        }
    }
    let s = slide(scene, title.trim(), &figures, &Theme::for_mode(present));
    let Some(canvas) = offscreen() else { return };
    paint_scaled(&canvas, &s, &mut Scratch::default(), 2.0, 0.0);
    super::dom::save_png(&canvas, &format!("{name}-figures"));
}
