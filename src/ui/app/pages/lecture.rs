//! The lecture as a built-in path (`#/lecture`): present the built-in deck
//! (`crate::lecture_deck`) exactly as any deck is presented, copy it into the
//! lecturer's own deck, or study it (`#/lecture?study=1`): the views one by
//! one with the panel embedded, a practice question and a summary of key
//! numbers at the end of each part, progress kept in local storage. Also
//! the landing page's two entries and its "continue where you left off".

use crate::lecture_deck::{self as lecture, Answered, Stop, Study, Sum, PARTS, SKIPPED, VIEWS};
use crate::practice::{self, Given, Grade};
use crate::ui::kit::ctx::{query_pairs, AppCtx};
use crate::ui::kit::practice::Ask;
use crate::ui::kit::storage::{self, Trouble};
use crate::ui::kit::tools::{base_url, present, store, trouble_why, DECK_KEY};
use std::rc::Rc;
use yew::prelude::*;
use yew_router::prelude::*;

/// The student's progress through the lecture.
pub const STUDY_KEY: &str = "warpscope.lecture.study";

fn load_study() -> Study {
    storage::get_json::<Study>(STUDY_KEY).map(Study::checked).unwrap_or_default()
}

fn save_study(s: &Study) {
    let _ = storage::set_json(STUDY_KEY, s);
}

#[derive(Properties, PartialEq)]
struct StudyFrameProps {
    src: String,
    testid: &'static str,
}

/// Polls of an embedded panel, every [`FRAME_POLL_MS`], before its frame is
/// left as it is (a panel that never paints keeps the usual height).
const FRAME_POLLS: u32 = 120;
const FRAME_POLL_MS: u32 = 250;

/// An embedded panel (`embed=1`, the same origin) in a frame as tall as what
/// it shows, at most the usual height (style/lecture.css): once its stage is
/// painted and has kept its size for a poll, the frame is cut to the stage's
/// bottom. Threads' and occupancy's short drawings, waves' strip and chart,
/// left half the frame blank. Measured once per view (the embed fits its
/// drawing to the frame: measuring again after a cut could cut again).
#[component]
fn StudyFrame(p: &StudyFrameProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let frame = use_node_ref();
    {
        let frame = frame.clone();
        use_effect_with(p.src.clone(), move |_| {
            let last = std::cell::Cell::new(None::<i32>);
            let polls = std::cell::Cell::new(0u32);
            let interval: Rc<std::cell::RefCell<Option<gloo::timers::callback::Interval>>> = Rc::default();
            let stop = interval.clone();
            *interval.borrow_mut() = Some(gloo::timers::callback::Interval::new(FRAME_POLL_MS, move || {
                polls.set(polls.get() + 1);
                let done = match frame_content_height(&frame) {
                    Some((content, shown)) if last.get() == Some(content) => {
                        // Cut only a band worth cutting, never grow.
                        if content + 24 < shown {
                            if let Some(el) = frame.cast::<web_sys::HtmlElement>() {
                                let _ = el.style().set_property("height", &format!("{content}px"));
                                let _ = el.set_attribute("data-fitted", &content.to_string());
                            }
                        }
                        true
                    }
                    Some((content, _)) => {
                        last.set(Some(content));
                        false
                    }
                    None => false,
                };
                if done || polls.get() >= FRAME_POLLS {
                    // Dropping the interval from its own tick is deferred to the next turn.
                    let stop = stop.clone();
                    yew::platform::spawn_local(async move {
                        stop.borrow_mut().take();
                    });
                }
            }));
            move || drop(interval.borrow_mut().take())
        });
    }
    html! {
        <iframe class="study-frame" data-testid={p.testid} ref={frame} src={p.src.clone()}
            title={ctx.t("lecture.study.frame")} loading="lazy"></iframe>
    }
}

/// The embedded panel's content height (its stage's bottom and the page's
/// padding under it, CSS pixels, with the frame's border) and the frame's
/// height now, once the stage is painted (a scene's canvas, or a chart).
fn frame_content_height(frame: &NodeRef) -> Option<(i32, i32)> {
    use wasm_bindgen::JsCast;
    let el = frame.cast::<web_sys::Element>()?;
    // The frame's document belongs to its own window: `instanceof Document`
    // (dyn_into) is false for it, its methods are the same.
    let doc = js_sys::Reflect::get(&el, &"contentDocument".into()).ok().filter(|d| d.is_object())?;
    let doc: web_sys::Document = doc.unchecked_into();
    doc.query_selector(".stage canvas[data-painted=\"1\"], .stage .chart canvas").ok()??;
    let stage = doc.query_selector(".stage").ok()??;
    let bottom = stage.get_bounding_client_rect().bottom();
    let scrolled = doc.document_element().map(|e| e.scroll_top()).unwrap_or(0) as f64;
    let border = (el.get_bounding_client_rect().height() - el.client_height() as f64).max(0.0);
    let content = (bottom + scrolled + 14.0 + border).ceil() as i32;
    Some((content, el.get_bounding_client_rect().height().round() as i32))
}

/// `#/<url>` with `extra` global pairs added (`lang`, `embed`).
fn view_href(url: &str, extra: &[(&str, &str)]) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    let extra: Vec<String> = extra.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("#{url}{sep}{}", extra.join("&"))
}

/// The pairs every link of these pages carries: the language, and projector
/// mode when projected (a projected start page stays projected).
fn keep(ctx: &AppCtx) -> Vec<(&'static str, &'static str)> {
    let mut pairs = vec![("lang", ctx.asked_lang.code())];
    if ctx.present {
        pairs.push(("present", "1"));
    }
    pairs
}

/// `keep` as a query (`lang=en&present=1`).
fn keep_query(ctx: &AppCtx) -> String {
    keep(ctx).iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&")
}

/// `#/lecture` and `#/lecture?study=1`.
#[component]
pub fn LecturePage() -> Html {
    let location = use_location().expect("inside a router");
    let study = query_pairs(&location).unwrap_or_default().iter().any(|(k, v)| k == "study" && v == "1");
    if study {
        html! { <StudyPath /> }
    } else {
        html! { <PresentPage /> }
    }
}

/// The lecture for a lecturer: present it, make it one's own, the outline.
#[component]
fn PresentPage() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let copied = use_state(|| None::<Result<usize, Trouble>>);
    let lang = ctx.asked_lang.code();
    let deck = lecture::deck(&|k| ctx.t(k));
    let start = {
        let deck = deck.clone();
        Callback::from(move |_: MouseEvent| present(&deck, lang))
    };
    let mine = {
        let deck = deck.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(Some(store(DECK_KEY, &deck).map(|()| deck.views.len())));
        })
    };
    let skipped: Vec<String> = SKIPPED.iter().map(|s| s.to_string()).collect();
    html! {
        <div class="lecture-page" data-testid="lecture-page" data-views={VIEWS.len().to_string()}>
            <h1>{ ctx.t("lecture.title") }</h1>
            <p class="lead">{ ctx.t("lecture.intro") }</p>
            <div class="lecture-buttons">
                <button class="tool primary" data-testid="lecture-present" title={ctx.t("lecture.present.title")}
                    onclick={start}>{ ctx.t("lecture.present") }</button>
                <a class="tool" data-testid="lecture-study" title={ctx.t("lecture.study.title")}
                    href={format!("#/lecture?study=1&{}", keep_query(&ctx))}>{ ctx.t("lecture.study") }</a>
                <button class="tool" data-testid="lecture-mine" title={ctx.t("lecture.mine.title")}
                    onclick={mine}>{ ctx.t("lecture.mine") }</button>
                if let Some(Ok(n)) = *copied {
                    { crate::ui::kit::tools::added_to_deck(&ctx, "lecture-mine-done", &ctx.tf("lecture.mine.done", &[("n", &n.to_string())])) }
                }
                if let Some(Err(t)) = *copied {
                    <span class="tool-status bad" role="alert" data-testid="deck-unsaved">
                        { ctx.tf("frame.deck-unsaved", &[("why", &trouble_why(&ctx, t)), ("n", &VIEWS.len().to_string())]) }
                    </span>
                }
            </div>
            <p class="muted">{ ctx.t("deck.keys") }</p>
            <h2>{ ctx.t("lecture.outline") }{" · "}{ ctx.tf("lecture.count", &[("n", &VIEWS.len().to_string())]) }</h2>
            { for PARTS.iter().map(|part| html! {
                <section class="lecture-part" data-part={part.id}>
                    <h3>{ ctx.t(&part.title_key()) }</h3>
                    <ol class="lecture-views" start={(part.first + 1).to_string()}>
                        { for VIEWS[part.first..=part.last].iter().map(|v| html! {
                            <li class="lecture-view" data-testid="lecture-view" data-id={v.id} data-slide={v.slide.to_string()}
                                data-url={v.url} data-numbers={v.numbers.join(",")}>
                                <span class="lecture-slide">{ ctx.tf("lecture.slide", &[("n", &v.slide.to_string())]) }</span>
                                <a class="lecture-view-title" href={view_href(v.url, &keep(&ctx))}>{ ctx.t(&v.title_key()) }</a>
                                <span class="lecture-view-note">{ ctx.t(&v.note_key()) }</span>
                            </li>
                        }) }
                    </ol>
                </section>
            }) }
            <p class="muted" data-testid="lecture-skipped">{ ctx.tf("lecture.skipped", &[("slides", &skipped.join(", "))]) }</p>
        </div>
    }
}

/// Where a study stands, in words ("Part 2, view 3 of 12 (slide 18)").
fn where_text(ctx: &AppCtx, s: &Study) -> String {
    match lecture::stops().get(s.stop).copied() {
        Some(Stop::View(i)) => {
            let part = &PARTS[lecture::part_of(i)];
            ctx.tf(
                "lecture.where.view",
                &[
                    ("part", &ctx.t(&part.title_key())),
                    ("k", &(i - part.first + 1).to_string()),
                    ("n", &(part.last - part.first + 1).to_string()),
                    ("slide", &VIEWS[i].slide.to_string()),
                ],
            )
        }
        Some(Stop::Check(p)) => ctx.tf("lecture.where.check", &[("part", &ctx.t(&PARTS[p].title_key()))]),
        None => String::new(),
    }
}

/// The landing page's first offer: present or study the lecture, and
/// "continue where you left off" once a study has begun. Projected, the
/// first presents the built-in deck's view 1 at once (the lecturer is at
/// the projector); on a screen it opens the lecture's page.
#[component]
pub fn LectureLinks() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let lang = ctx.asked_lang.code();
    // As `load_study`, without serde_json: the start page's module carries none.
    let study = storage::get(STUDY_KEY).as_deref().and_then(Study::read).map(Study::checked).unwrap_or_default();
    let query = keep_query(&ctx);
    let (present_href, present_click) = if ctx.present {
        // The first view's link needs no texts; the deck stored for the
        // presentation carries the views' titles and notes, whose file (a
        // part of its own, `lecture_deck::TEXTS_PART`) the click fetches
        // first: the start page does not download it.
        let untitled = lecture::deck(&|_| String::new());
        let href = untitled.views.first().map_or_else(String::new, |v| crate::deck::present_hash(v, 1, lang));
        let (shown, page) = (ctx.lang, format!("#/lecture?{query}"));
        let click = Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            let page = page.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match crate::ui::kit::texts::load_parts(shown, &[lecture::TEXTS_PART]).await {
                    Ok(()) => present(&lecture::deck(&|k| crate::i18n::tr(shown, k)), lang),
                    // Without them (offline, say), the lecture's page says why.
                    Err(_) => {
                        let _ = crate::ui::kit::dom::window().location().set_hash(&page);
                    }
                }
            });
        });
        (href, Some(click))
    } else {
        (format!("#/lecture?{query}"), None)
    };
    html! {
        <div class="lecture-links" data-testid="lecture-links">
            <a class="lecture-link primary" data-testid="landing-present" href={present_href} onclick={present_click}>
                <strong>{ ctx.t("lecture.present") }</strong>
                <span>{ ctx.t("lecture.present.title") }</span>
            </a>
            <a class="lecture-link" data-testid="landing-study" href={format!("#/lecture?study=1&{query}")}>
                <strong>{ ctx.t("lecture.study") }</strong>
                <span>{ ctx.t("lecture.study.title") }</span>
            </a>
            // The practice round, from every screen (a phone's header has
            // no room for its link).
            <a class="lecture-link" data-testid="landing-practice" href={format!("#/practice?{query}")}>
                <strong>{ ctx.t("practice.round.start") }</strong>
                <span>{ ctx.t("practice.round.intro") }</span>
            </a>
            if study.started() {
                <p class="continue lecture-continue">
                    <a data-testid="lecture-continue" data-stop={study.stop.to_string()} href={format!("#/lecture?study=1&{query}")}>
                        { ctx.tf("lecture.continue", &[("where", &where_text(&ctx, &study))]) }
                    </a>
                </p>
            }
        </div>
    }
}

/// The figures of one summary line, computed by the panel's own code.
fn summary_line(ctx: &AppCtx, s: &Sum) -> Option<String> {
    match *s {
        Sum::Row { route, row } => {
            let (label, cells) = crate::topics::summary_row(route, row)?;
            let cells: Vec<String> = cells
                .iter()
                .map(|(metric, computed)| {
                    format!("{} {computed}", ctx.t(&crate::i18n::topic_key("metric", route, metric)))
                })
                .collect();
            let label = format!("{} · {}", ctx.t(&format!("topic.{route}.title")), ctx.t(label));
            Some(ctx.tf("lecture.sum.row", &[("label", &label), ("cells", &cells.join(" · "))]))
        }
        Sum::Attention { n } => {
            let (standard, flash) = lecture::attention_bytes(n);
            Some(ctx.tf(
                "lecture.sum.attention",
                &[
                    ("n", &crate::format::grouped(n)),
                    ("standard", &crate::format::bytes(standard as f64)),
                    ("flash", &crate::format::bytes(flash as f64)),
                ],
            ))
        }
    }
}

fn given_of(a: &Answered) -> Option<Given> {
    a.number.map(Given::Number).or(a.choice.map(Given::Choice))
}

/// `#/lecture?study=1`: one stop at a time, resumable.
#[component]
fn StudyPath() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let study = use_state(load_study);
    let lang = ctx.asked_lang.code();
    let stops = lecture::stops();
    let set = {
        let study = study.clone();
        Callback::from(move |s: Study| {
            save_study(&s);
            study.set(s);
            if let Some(w) = crate::ui::kit::dom::window().document().and_then(|d| d.document_element()) {
                w.set_scroll_top(0);
            }
        })
    };
    let go = |by: isize| {
        let set = set.clone();
        let study = study.clone();
        Callback::from(move |_: MouseEvent| set.emit((*study).clone().go(by)))
    };
    let stop = stops[study.stop];
    let blocked = matches!(stop, Stop::Check(p) if study.answer(PARTS[p].id).is_none());
    let last = study.stop + 1 == stops.len();
    let body = match stop {
        Stop::View(i) => {
            let v = &VIEWS[i];
            let part = &PARTS[lecture::part_of(i)];
            let src = format!("{}{}", base_url(), view_href(v.url, &[("embed", "1"), ("lang", lang)]));
            html! {
                <section class="study-view" data-testid="study-view" data-id={v.id} data-slide={v.slide.to_string()} data-url={v.url}>
                    <p class="muted study-where">{ ctx.t(&part.title_key()) }{" · "}{ ctx.tf("lecture.study.view", &[("k", &(i - part.first + 1).to_string()), ("n", &(part.last - part.first + 1).to_string()), ("slide", &v.slide.to_string())]) }</p>
                    <h2 class="study-title">{ ctx.t(&v.title_key()) }</h2>
                    <p class="study-note" data-testid="study-note">{ ctx.t(&v.note_key()) }</p>
                    <StudyFrame key={src.clone()} src={src.clone()} testid="study-frame" />
                    <p><a data-testid="study-open" href={view_href(v.url, &keep(&ctx))}>{ ctx.t("lecture.study.open") }{" →"}</a></p>
                </section>
            }
        }
        Stop::Check(p) => {
            let part = &PARTS[p];
            html! { <StudyCheck key={part.id} part={p} study={(*study).clone()} on_change={set.clone()} /> }
        }
    };
    let answered: Vec<Grade> = PARTS
        .iter()
        .filter_map(|p| study.answer(p.id))
        .filter_map(|a| match a.grade.as_str() {
            "right" => Some(Grade::Right),
            "close" => Some(Grade::Close),
            _ => None,
        })
        .collect();
    let finished = last && !blocked;
    let nav = |place: &'static str| {
        // The top bar's buttons carry the test ids; the bottom copy is for after a long page.
        let id = |name: &str| if place == "top" { name.to_string() } else { format!("{name}-{place}") };
        html! {
            <nav class={classes!("study-nav", place)}>
                <button class="tool" data-testid={id("study-prev")} disabled={study.stop == 0} onclick={go(-1)}>{ ctx.t("lecture.study.prev") }</button>
                if finished {
                    <button class="tool" data-testid={id("study-restart")} onclick={ let set = set.clone(); Callback::from(move |_: MouseEvent| set.emit(Study::default())) }>
                        { ctx.t("lecture.study.restart") }
                    </button>
                } else {
                    <button class="tool primary" data-testid={id("study-next")} disabled={blocked} onclick={go(1)}>
                        { ctx.t(if matches!(stop, Stop::Check(_)) { "lecture.study.next-part" } else { "lecture.study.next" }) }
                    </button>
                }
                if blocked {
                    <span class="muted">{ ctx.t("lecture.study.reveal-first") }</span>
                }
            </nav>
        }
    };
    html! {
        <div class="lecture-page study" data-testid="study-path" data-stop={study.stop.to_string()} data-stops={stops.len().to_string()}>
            <h1>{ ctx.t("lecture.study.heading") }</h1>
            <div class="study-progress">
                <span data-testid="study-position">{ ctx.tf("lecture.study.position", &[("k", &(study.stop + 1).to_string()), ("n", &stops.len().to_string())]) }</span>
                <progress max={stops.len().to_string()} value={(study.stop + 1).to_string()} aria-hidden="true"></progress>
                { nav("top") }
            </div>
            { body }
            if finished {
                <p class="study-done" data-testid="study-done">
                    { ctx.tf("lecture.study.done", &[
                        ("right", &answered.iter().filter(|g| **g == Grade::Right).count().to_string()),
                        ("close", &answered.iter().filter(|g| **g == Grade::Close).count().to_string()),
                        ("n", &PARTS.len().to_string()),
                    ]) }
                </p>
            }
            { nav("bottom") }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StudyCheckProps {
    part: usize,
    study: Study,
    on_change: Callback<Study>,
}

/// The end of a part: its question (predict, then reveal: the panel shows
/// the question's configuration) and the part's key numbers.
#[component]
fn StudyCheck(p: &StudyCheckProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let part = &PARTS[p.part];
    let lang = ctx.asked_lang.code();
    let Some(topic) = crate::topics::find(part.practice) else { return html! {} };
    let q = Rc::new(practice::question(topic.practice, part.seed()));
    let done = p.study.answer(part.id).cloned();
    let on_reveal = {
        let study = p.study.clone();
        let on_change = p.on_change.clone();
        let q = q.clone();
        let id = part.id;
        Callback::from(move |g: Option<Given>| {
            let grade = g.map_or("none", |g| q.answer.grade(g).code());
            let (number, choice) = match g {
                Some(Given::Number(x)) => (Some(x), None),
                Some(Given::Choice(i)) => (None, Some(i)),
                None => (None, None),
            };
            on_change.emit(study.clone().answered(Answered { part: id.into(), grade: grade.into(), number, choice }));
        })
    };
    let revealed = done.as_ref().map(given_of);
    let frame = done.as_ref().map(|_| {
        let url = crate::deck::view_url(&format!("/{}", q.topic), &q.query());
        format!("{}{}", base_url(), view_href(&url, &[("embed", "1"), ("lang", lang)]))
    });
    let part_title = ctx.t(&part.title_key());
    html! {
        <section class="study-check practice-card" data-testid="study-check" data-part={part.id}
            data-topic={q.topic} data-seed={q.seed.to_string()} data-revealed={done.is_some().to_string()}>
            <h2>{ ctx.tf("lecture.study.check", &[("part", &part_title)]) }</h2>
            <p class="muted">{ ctx.t("lecture.study.predict") }</p>
            <Ask key={format!("{}-{}", part.id, done.is_some())} q={q.clone()} {revealed} {on_reveal} />
            if let Some(src) = frame {
                <StudyFrame key={src.clone()} src={src.clone()} testid="study-answer-frame" />
            }
            <h3>{ ctx.t("lecture.study.summary") }</h3>
            <ul class="study-summary" data-testid="study-summary">
                { for part.summary.iter().filter_map(|s| summary_line(&ctx, s)).map(|line| html! {
                    <li data-testid="summary-line">{ line }</li>
                }) }
            </ul>
        </section>
    }
}
