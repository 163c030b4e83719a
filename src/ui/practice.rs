//! Practice mode in the browser: the `practice`/`q` global parameters, the
//! header toggle, the question card a panel's frame shows when practice is
//! on (predict, then reveal: the panel is hidden, then set to the question's
//! configuration), and the practice round at `#/practice` with its score
//! history in local storage (nothing leaves the browser).

use super::app::{key_belongs_to_control, query_pairs, AppCtx, Route};
use super::url_state::Action;
use crate::params::{Notice, Problem};
use crate::practice::{self, Answer, Given, Grade, Question};
use crate::topics::Part;
use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

const HISTORY_KEY: &str = "warpscope.practice.rounds";
const HISTORY_LEN: usize = 20;

/// `practice=1` and `q=<seed>`, carried by every link like `lang`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mode {
    pub on: bool,
    pub q: Option<u64>,
}

impl Mode {
    /// Read from the query; a value that can't be used gives a notice.
    pub fn read(pairs: &[(String, String)], notices: &mut Vec<Notice>) -> Mode {
        let last = |k: &str| pairs.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let mut bad = |param: &str, given: String, used: &str| {
            notices.push(Notice { param: param.into(), given, problem: Problem::Malformed { used: used.into() } })
        };
        let on = match last("practice") {
            Some(v) if v == "1" => true,
            Some(v) if v == "0" => false,
            Some(v) => {
                bad("practice", v, "0");
                false
            }
            None => false,
        };
        let q = match last("q") {
            Some(v) => match v.parse::<u64>() {
                Ok(x) if x <= u32::MAX as u64 => Some(x),
                _ => {
                    bad("q", v, "—");
                    None
                }
            },
            None => None,
        };
        Mode { on, q }
    }
    pub fn globals(&self) -> Vec<(String, String)> {
        let mut g = Vec::new();
        if self.on {
            g.push(("practice".to_string(), "1".to_string()));
            if let Some(q) = self.q {
                g.push(("q".to_string(), q.to_string()));
            }
        }
        g
    }
}

/// A fresh seed for a new question or round (the UI's only randomness; the
/// question itself is a pure function of it).
fn fresh_seed() -> u64 {
    (js_sys::Math::random() * u32::MAX as f64) as u64
}

/// `#/<path>?k=v&…`, values encoded.
fn href(path: &str, pairs: &[(String, String)]) -> String {
    let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", crate::deck::encode(v))).collect();
    format!("#/{path}?{}", q.join("&"))
}

/// The link that opens a question on its panel.
pub fn question_href(q: &Question, ctx: &AppCtx) -> String {
    let mut pairs = q.query();
    pairs.push(("lang".into(), ctx.asked_lang.code().into()));
    pairs.push(("practice".into(), "1".into()));
    pairs.push(("q".into(), q.seed.to_string()));
    href(q.topic, &pairs)
}

/// Replace some query parameters of the current page, keeping the rest.
#[hook]
fn use_set_query() -> Callback<Vec<(&'static str, Option<String>)>> {
    let navigator = use_navigator().expect("inside a router");
    let location = use_location().expect("inside a router");
    let route = use_route::<Route>().unwrap_or(Route::Home);
    let pairs = query_pairs(&location).unwrap_or_default();
    Callback::from(move |changes: Vec<(&'static str, Option<String>)>| {
        let mut q: Vec<(String, String)> =
            pairs.iter().filter(|(k, _)| !changes.iter().any(|(c, _)| c == k)).cloned().collect();
        q.extend(changes.into_iter().filter_map(|(k, v)| v.map(|v| (k.to_string(), v))));
        let _ = navigator.replace_with_query(&route, &q);
    })
}

/// The header's toggle: on a panel it switches practice mode; elsewhere it
/// opens the practice round.
#[component]
pub fn PracticeToggle() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let route = use_route::<Route>().unwrap_or(Route::Home);
    let set = use_set_query();
    let on = ctx.practice.on;
    match route {
        Route::Topic { .. } => {
            let onclick = Callback::from(move |_: MouseEvent| {
                let seed = (!on).then(|| fresh_seed().to_string());
                set.emit(vec![("practice", (!on).then(|| "1".to_string())), ("q", seed)]);
            });
            html! {
                <button class="practice-toggle" data-testid="practice-toggle" aria-pressed={on.to_string()}
                    title={ctx.t("practice.toggle.title")} onclick={onclick}>{ ctx.t("practice.toggle") }</button>
            }
        }
        _ => html! {
            <a class="practice-toggle" data-testid="practice-toggle" title={ctx.t("practice.toggle.title")}
                href={href("practice", &[("lang".into(), ctx.asked_lang.code().into())])}>{ ctx.t("practice.toggle") }</a>
        },
    }
}

/// Marks the page while an answer is hidden (the stylesheet blurs the
/// panel's body and explanation past reading), unmarked on reveal and when
/// it goes.
#[hook]
fn use_hidden_mark(hidden: bool) {
    use_effect_with(hidden, |hidden| {
        let root = super::window().document().and_then(|d| d.document_element());
        if let Some(r) = &root {
            let _ =
                if *hidden { r.set_attribute("data-practice", "hidden") } else { r.remove_attribute("data-practice") };
        }
        move || {
            if let Some(r) = root {
                let _ = r.remove_attribute("data-practice");
            }
        }
    });
}

#[derive(Properties, PartialEq)]
pub struct PracticeCardProps {
    /// The panel's topic.
    pub topic: &'static str,
    /// Where the panel's changes go (a revealed question sets its state).
    pub dispatch: Callback<Action>,
}

/// Inside a panel's frame: the question of `q=` when practice is on.
#[component]
pub fn PracticeCard(p: &PracticeCardProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let set = use_set_query();
    let mode = ctx.practice;
    // Practice without a question yet: draw one and put it in the URL.
    {
        let set = set.clone();
        use_effect_with(mode, move |m| {
            if m.on && m.q.is_none() {
                // After the panel's own first URL write (its effect runs after this one).
                gloo::timers::callback::Timeout::new(0, move || set.emit(vec![("q", Some(fresh_seed().to_string()))]))
                    .forget();
            }
        });
    }
    // Phones have no room for the toggle in the header: it is here instead.
    let phone = html! { <div class="practice-phone"><PracticeToggle /></div> };
    let topic = p.topic;
    let Some(q) = mode.q.filter(|_| mode.on).and_then(|s| practice::question(topic, s)) else {
        return phone;
    };
    let key = format!("{topic}-{}", q.seed);
    html! { <>{ phone }<PanelQuestion {key} q={Rc::new(q)} dispatch={p.dispatch.clone()} /></> }
}

#[derive(Properties, PartialEq)]
struct PanelQuestionProps {
    q: Rc<Question>,
    dispatch: Callback<Action>,
}

/// One question on a panel: hidden panel, prediction, reveal (the panel
/// takes the question's configuration).
#[component]
fn PanelQuestion(p: &PanelQuestionProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let set = use_set_query();
    let revealed = use_state(|| None::<Option<Given>>);
    use_hidden_mark(revealed.is_none());
    let on_reveal = {
        let revealed = revealed.clone();
        let dispatch = p.dispatch.clone();
        let state = p.q.state.clone();
        Callback::from(move |given: Option<Given>| {
            dispatch.emit(Action::Replace(state.clone()));
            revealed.set(Some(given));
        })
    };
    let next = Callback::from(move |_: MouseEvent| set.emit(vec![("q", Some(fresh_seed().to_string()))]));
    let title = ctx.t(&format!("topic.{}.title", p.q.topic));
    html! {
        <section class="practice-card" data-testid="practice-card" data-topic={p.q.topic} data-kind={p.q.kind}
            data-seed={p.q.seed.to_string()} data-revealed={revealed.is_some().to_string()}>
            <header class="practice-head">
                <h2>{ ctx.t("practice.heading") }</h2>
                <span class="practice-meta">{ ctx.tf("practice.question-of", &[("q", &p.q.seed.to_string()), ("topic", &title)]) }</span>
            </header>
            <Ask q={p.q.clone()} revealed={*revealed} on_reveal={on_reveal} />
            if revealed.is_none() {
                <p class="practice-hidden-note">{ ctx.t("practice.hidden") }</p>
            }
            <nav class="practice-actions">
                <button class="practice-next" data-testid="practice-next" onclick={next}>{ ctx.t("practice.next") }</button>
                <a class="practice-link" data-testid="practice-link" href={question_href(&p.q, &ctx)}>{ ctx.t("practice.link") }</a>
                <a class="practice-round-link" href={href("practice", &[("lang".into(), ctx.asked_lang.code().into())])}>{ ctx.t("practice.round.start") }</a>
            </nav>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct AskProps {
    pub q: Rc<Question>,
    /// `Some(given)` once revealed.
    pub revealed: Option<Option<Given>>,
    pub on_reveal: Callback<Option<Given>>,
}

/// A question's text with its `code` spans shown as code (never raw backticks).
fn rich(text: &str) -> Html {
    html! {
        { for practice::code_spans(text).into_iter().map(|(code, t)| {
            if code { html! { <code>{ t.to_string() }</code> } } else { html! { { t.to_string() } } }
        }) }
    }
}

/// The question, the prediction (a number or a choice) and, once revealed,
/// the grade, the simulation's answer and why. In projector mode the
/// prediction is left to the room: only the key R (or the button) reveals.
/// A prediction that is not a number ("五十") is not revealed as "no
/// prediction": the box says it could not read it.
#[component]
pub fn Ask(p: &AskProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let draft = use_state(String::new);
    let picked = use_state(|| None::<usize>);
    let unreadable = use_state(|| false);
    let typed = practice::read_number(&draft);
    let given = match &p.q.answer {
        Answer::Number { .. } => match typed {
            practice::Typed::Number(x) => Some(Given::Number(x)),
            _ => None,
        },
        Answer::Choice(_) => picked.map(Given::Choice),
    };
    // Reveal, unless the box holds something that isn't a number.
    let attempt = {
        let on_reveal = p.on_reveal.clone();
        let unreadable = unreadable.clone();
        let refuse = matches!(p.q.answer, Answer::Number { .. }) && typed == practice::Typed::Unreadable;
        Callback::from(move |_: ()| {
            if refuse {
                unreadable.set(true);
            } else {
                on_reveal.emit(given);
            }
        })
    };
    // R reveals (unless typing in a field).
    {
        let attempt = attempt.clone();
        let done = p.revealed.is_some();
        use_effect_with((given.map(|g| format!("{g:?}")), typed == practice::Typed::Unreadable, done), move |_| {
            let doc = super::window().document().expect("document");
            let listener = EventListener::new(&doc, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if (e.key() == "r" || e.key() == "R") && !key_belongs_to_control(e) && !done {
                    attempt.emit(());
                }
            });
            move || drop(listener)
        });
    }
    let lang = ctx.lang;
    let prompt =
        html! { <p class="practice-prompt" data-testid="practice-prompt">{ rich(&p.q.prompt.render(lang)) }</p> };
    let Some(given_then) = p.revealed else {
        let reveal = {
            let attempt = attempt.clone();
            Callback::from(move |_: MouseEvent| attempt.emit(()))
        };
        let input = match &p.q.answer {
            Answer::Number { .. } => {
                let draft2 = draft.clone();
                let unreadable2 = unreadable.clone();
                let oninput = Callback::from(move |e: InputEvent| {
                    if let Some(el) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                        draft2.set(el.value());
                        unreadable2.set(false);
                    }
                });
                let attempt = attempt.clone();
                let onkeydown = Callback::from(move |e: KeyboardEvent| {
                    if e.key() == "Enter" {
                        attempt.emit(());
                    }
                });
                let bad = *unreadable && typed == practice::Typed::Unreadable;
                html! {
                    <>
                        <label class="practice-input-label">{ ctx.t("practice.your-answer") }
                            <input class={classes!("practice-input", bad.then_some("bad"))} data-testid="practice-input" type="text" inputmode="decimal"
                                autocomplete="off" aria-invalid={bad.to_string()} value={(*draft).clone()} {oninput} {onkeydown} />
                        </label>
                        if bad {
                            <p class="practice-unreadable" role="alert" data-testid="practice-unreadable">
                                { ctx.tf("practice.unreadable", &[("given", &draft.trim().chars().take(40).collect::<String>())]) }
                            </p>
                        }
                    </>
                }
            }
            Answer::Choice(options) => html! {
                <div class="practice-choices" role="group" aria-label={ctx.t("practice.your-answer")}>
                    { for options.iter().enumerate().map(|(i, c)| {
                        let picked2 = picked.clone();
                        html! {
                            <button class="practice-choice" data-testid="practice-choice" data-index={i.to_string()}
                                aria-pressed={(*picked == Some(i)).to_string()}
                                onclick={Callback::from(move |_: MouseEvent| picked2.set(Some(i)))}>
                                { c.label.render(lang) }
                            </button>
                        }
                    }) }
                </div>
            },
        };
        return html! {
            <div class="practice-ask">
                { prompt }
                // Projected, the room predicts: the options stay up, a number is left to them.
                if ctx.present {
                    <p class="practice-key-hint" data-testid="practice-key-hint">{ ctx.t("practice.reveal.key") }</p>
                }
                if !ctx.present || matches!(p.q.answer, Answer::Choice(_)) {
                    { input }
                }
                <button class="practice-reveal" data-testid="practice-reveal" onclick={reveal}>{ ctx.t("practice.reveal") }</button>
            </div>
        };
    };
    let grade = given_then.map(|g| p.q.answer.grade(g));
    let (code, label) = match grade {
        Some(g) => (g.code(), ctx.t(&format!("practice.{}", g.code()))),
        None => ("none", ctx.t("practice.none")),
    };
    let you = given_then.map(|g| match (g, &p.q.answer) {
        (Given::Number(x), _) => practice::fmt(x),
        (Given::Choice(i), Answer::Choice(o)) => o.get(i).map(|c| c.label.render(lang)).unwrap_or_default(),
        _ => String::new(),
    });
    let raw = match &p.q.answer {
        Answer::Number { value, .. } => value.to_string(),
        Answer::Choice(o) => o.iter().position(|c| c.right).unwrap_or(0).to_string(),
    };
    html! {
        <div class="practice-ask revealed">
            { prompt }
            <div class={classes!("practice-result", format!("grade-{code}"))} data-testid="practice-grade" data-grade={code}>
                <strong class="practice-grade">{ label }</strong>
                if let Some(you) = you {
                    <span class="practice-you">{ ctx.tf("practice.you", &[("value", &you)]) }</span>
                }
                <span class="practice-answer" data-testid="practice-answer" data-value={raw}>
                    { ctx.tf("practice.answer", &[("value", &p.q.answer.shown(lang))]) }
                </span>
            </div>
            <p class="practice-explain" data-testid="practice-explain">{ rich(&p.q.explain.render(lang)) }</p>
        </div>
    }
}

/// One finished round, as kept in local storage.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Record {
    round: u64,
    part: String,
    right: u32,
    close: u32,
    n: u32,
}

fn history() -> Vec<Record> {
    LocalStorage::get::<Vec<Record>>(HISTORY_KEY).unwrap_or_default()
}

fn remember(r: Record) {
    let mut h = history();
    if h.iter().any(|x| x.round == r.round && x.part == r.part) {
        return;
    }
    h.insert(0, r);
    h.truncate(HISTORY_LEN);
    let _ = LocalStorage::set(HISTORY_KEY, h);
}

fn part_label(ctx: &AppCtx, part: Option<Part>) -> String {
    match part {
        Some(p) => ctx.t(p.key()),
        None => ctx.t("practice.round.all"),
    }
}

/// `#/practice?round=<seed>&part=gpu|fast|flash|tpu`: ten questions, a
/// score, the ones to review with links to their panels, earlier scores.
#[component]
pub fn RoundPage() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let location = use_location().expect("inside a router");
    let set = use_set_query();
    let pairs = query_pairs(&location).unwrap_or_default();
    let get = |k: &str| pairs.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let part = get("part").and_then(|c| practice::part_from_code(&c));
    let seed = get("round").and_then(|s| s.parse::<u64>().ok()).filter(|s| *s <= u32::MAX as u64);
    {
        let set = set.clone();
        use_effect_with(seed, move |s| {
            if s.is_none() {
                set.emit(vec![("round", Some(fresh_seed().to_string()))]);
            }
        });
    }
    let answers = use_state(Vec::<Option<Given>>::new);
    let revealed = use_state(|| false);
    // A new round (or part) starts over.
    {
        let answers = answers.clone();
        let revealed = revealed.clone();
        use_effect_with((seed, part), move |_| {
            answers.set(Vec::new());
            revealed.set(false);
        });
    }
    let Some(seed) = seed else { return html! {} };
    let round = practice::round(seed, part);
    let questions: Vec<Rc<Question>> =
        round.items.iter().filter_map(|(t, s)| practice::question(t, *s)).map(Rc::new).collect();
    let n = questions.len();
    let i = answers.len();
    let parts = std::iter::once(None).chain(Part::ALL.into_iter().map(Some));
    let lang_pair = ("lang".to_string(), ctx.asked_lang.code().to_string());
    let part_links = html! {
        <nav class="practice-parts">
            { for parts.map(|p| {
                let mut q = vec![lang_pair.clone()];
                if let Some(p) = p { q.push(("part".into(), practice::part_code(p).into())); }
                html! {
                    <a class="seg" aria-pressed={(p == part).to_string()} data-part={p.map_or("all", practice::part_code)}
                        href={href("practice", &q)}>{ part_label(&ctx, p) }</a>
                }
            }) }
        </nav>
    };
    let again = {
        let set = set.clone();
        Callback::from(move |_: MouseEvent| set.emit(vec![("round", Some(fresh_seed().to_string()))]))
    };
    let body = if i < n {
        let q = questions[i].clone();
        let on_reveal = {
            let revealed = revealed.clone();
            let answers = answers.clone();
            Callback::from(move |g: Option<Given>| {
                let mut a = (*answers).clone();
                a.push(g);
                answers.set(a);
                revealed.set(true);
            })
        };
        html! {
            <section class="practice-card" data-testid="round-question" data-index={i.to_string()}
                data-topic={q.topic} data-seed={q.seed.to_string()}>
                <header class="practice-head">
                    <h2>{ ctx.tf("practice.round.progress", &[("i", &(i + 1).to_string()), ("n", &n.to_string())]) }</h2>
                    <span class="practice-meta">{ ctx.t(&format!("topic.{}.title", q.topic)) }</span>
                </header>
                <Ask key={format!("{seed}-{i}")} q={q} revealed={None::<Option<Given>>} on_reveal={on_reveal} />
            </section>
        }
    } else {
        html! {}
    };
    // The question just answered stays up, revealed, until "next".
    let last = if *revealed && i > 0 {
        let q = questions[i - 1].clone();
        let next = {
            let revealed = revealed.clone();
            Callback::from(move |_: MouseEvent| revealed.set(false))
        };
        Some(html! {
            <section class="practice-card" data-testid="round-question" data-index={(i - 1).to_string()}
                data-topic={q.topic} data-seed={q.seed.to_string()} data-revealed="true">
                <header class="practice-head">
                    <h2>{ ctx.tf("practice.round.progress", &[("i", &i.to_string()), ("n", &n.to_string())]) }</h2>
                    <span class="practice-meta">{ ctx.t(&format!("topic.{}.title", q.topic)) }</span>
                </header>
                <Ask key={format!("{seed}-{}-done", i - 1)} q={q.clone()} revealed={Some(answers[i - 1])} on_reveal={Callback::noop()} />
                <nav class="practice-actions">
                    <button class="practice-next" data-testid="round-next" onclick={next}>
                        { ctx.t(if i < n { "practice.round.next" } else { "practice.round.finish" }) }
                    </button>
                    <a class="practice-link" href={question_href(&q, &ctx)}>{ ctx.t("practice.round.open") }</a>
                </nav>
            </section>
        })
    } else {
        None
    };
    let finished = i >= n && !*revealed;
    // A question revealed without a prediction scores as not right, and is
    // labelled "No prediction" here as on its panel.
    let grades: Vec<Option<Grade>> =
        questions.iter().zip(answers.iter()).map(|(q, g)| g.map(|g| q.answer.grade(g))).collect();
    let right = grades.iter().filter(|g| **g == Some(Grade::Right)).count();
    let close = grades.iter().filter(|g| **g == Some(Grade::Close)).count();
    let part_code = part.map_or("all", practice::part_code).to_string();
    {
        let rec =
            Record { round: seed, part: part_code.clone(), right: right as u32, close: close as u32, n: n as u32 };
        use_effect_with((finished, seed, part_code.clone()), move |(done, _, _)| {
            if *done {
                remember(rec);
            }
        });
    }
    let score = if finished {
        let missed: Vec<(Rc<Question>, Option<Grade>, Option<Given>)> = questions
            .iter()
            .cloned()
            .zip(grades.iter().copied())
            .zip(answers.iter().copied())
            .filter(|((_, g), _)| *g != Some(Grade::Right))
            .map(|((q, g), a)| (q, g, a))
            .collect();
        html! {
            <section class="practice-score" data-testid="round-score" data-right={right.to_string()}
                data-close={close.to_string()} data-n={n.to_string()}>
                <h2>{ ctx.tf("practice.round.score", &[("right", &right.to_string()), ("close", &close.to_string()), ("n", &n.to_string())]) }</h2>
                <h3>{ ctx.t("practice.round.review") }</h3>
                if missed.is_empty() {
                    <p>{ ctx.t("practice.round.perfect") }</p>
                } else {
                    <ol class="practice-review" data-testid="round-review">
                        { for missed.iter().map(|(q, g, given)| {
                            let code = g.map_or("none", |g| g.code());
                            let you = given.map(|g| match (g, &q.answer) {
                                (Given::Number(x), _) => practice::fmt(x),
                                (Given::Choice(i), Answer::Choice(o)) => o.get(i).map(|c| c.label.render(ctx.lang)).unwrap_or_default(),
                                _ => String::new(),
                            });
                            html! {
                                <li data-topic={q.topic} data-grade={code}>
                                    <span class={classes!("practice-grade", format!("grade-{code}"))}>{ ctx.t(&format!("practice.{code}")) }</span>
                                    {" "}{ rich(&q.prompt.render(ctx.lang)) }
                                    <span class="practice-review-answer">
                                        if let Some(you) = you {
                                            <span class="practice-you">{ ctx.tf("practice.you", &[("value", &you)]) }</span>{" "}
                                        }
                                        <span class="practice-answer" data-testid="review-answer">{ ctx.tf("practice.answer", &[("value", &q.answer.shown(ctx.lang))]) }</span>
                                    </span>
                                    {" "}<a class="practice-link" data-testid="review-link" href={question_href(q, &ctx)}>{ ctx.t("practice.round.open") }</a>
                                </li>
                            }
                        }) }
                    </ol>
                }
                <button class="practice-next" data-testid="round-again" onclick={again.clone()}>{ ctx.t("practice.round.again") }</button>
            </section>
        }
    } else {
        html! {}
    };
    let earlier = history();
    html! {
        <div class="practice-page" data-testid="practice-round" data-round={seed.to_string()}>
            <h1>{ ctx.t("practice.round") }{": "}{ part_label(&ctx, part) }</h1>
            <p class="lead">{ ctx.t("practice.round.intro") }</p>
            { part_links }
            { score }
            { for last }
            if !*revealed { { body } }
            if !earlier.is_empty() {
                <section class="practice-history" data-testid="round-history">
                    <h3>{ ctx.t("practice.round.history") }</h3>
                    <ul>
                        { for earlier.iter().map(|r| {
                            let label = format!("#{} · {}", r.round, part_label(&ctx, practice::part_from_code(&r.part)));
                            html! { <li>{ ctx.tf("practice.round.history.row", &[("when", &label), ("right", &r.right.to_string()), ("close", &r.close.to_string()), ("n", &r.n.to_string())]) }</li> }
                        }) }
                    </ul>
                </section>
            }
        </div>
    }
}
