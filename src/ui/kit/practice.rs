//! Practice mode in the browser: the `practice`/`q` global parameters, the
//! header toggle, the question card a panel's frame shows when practice is
//! on (predict, then reveal: the panel is hidden, then set to the question's
//! configuration), and the practice round at `#/practice` with its score
//! history in local storage (nothing leaves the browser).

use super::ctx::{key_belongs_to_control, query_pairs, AppCtx, Route};
use super::url_state::Action;
use crate::practice::{self, Answer, Given, Question};
use gloo::events::EventListener;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

pub const HISTORY_KEY: &str = "warpscope.practice.rounds";
pub const HISTORY_LEN: usize = 20;

/// A fresh seed for a new question or round (the UI's only randomness; the
/// question itself is a pure function of it).
pub fn fresh_seed() -> u64 {
    (js_sys::Math::random() * u32::MAX as f64) as u64
}

/// `#/<path>?k=v&…`, values encoded.
pub fn href(path: &str, pairs: &[(String, String)]) -> String {
    let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", crate::deck::encode(v))).collect();
    format!("#/{path}?{}", q.join("&"))
}

/// The practice round's address: the language, and projector mode when
/// projected (a projected page's links stay projected).
fn round_href(ctx: &AppCtx) -> String {
    let mut pairs = vec![("lang".to_string(), ctx.asked_lang.code().to_string())];
    if ctx.present {
        pairs.push(("present".into(), "1".into()));
    }
    href("practice", &pairs)
}

/// The link that opens a question on its panel.
pub fn question_href(q: &Question, ctx: &AppCtx) -> String {
    let mut pairs = q.query();
    pairs.push(("lang".into(), ctx.asked_lang.code().into()));
    pairs.push(("practice".into(), "1".into()));
    pairs.push(("q".into(), q.seed.to_string()));
    href(q.topic, &pairs)
}

/// Where a link from the round's review leaves the prediction for the panel
/// it opens (this tab only).
const ANSWERED_KEY: &str = "warpscope.practice.answered";

/// Remember that `q` was answered (`given`; `None`: no prediction): the
/// panel that a link from the round opens shows it revealed, with the
/// grade and the answer. The link itself stays a plain question, unrevealed
/// for anyone it is shared with: the prediction was this learner's.
pub fn mark_answered(q: &Question, given: Option<Given>) {
    let given = match given {
        Some(Given::Number(x)) => format!("n{x}"),
        Some(Given::Choice(i)) => format!("c{i}"),
        None => "-".into(),
    };
    let _ = super::storage::session_set_json(ANSWERED_KEY, &format!("{}|{}|{given}", q.topic, q.seed));
}

/// The prediction left by [`mark_answered`] for this question, taken (once).
fn take_answered(q: &Question) -> Option<Option<Given>> {
    let s = super::storage::session_get_json::<String>(ANSWERED_KEY)?;
    let mut parts = s.splitn(3, '|');
    let (topic, seed, given) = (parts.next()?, parts.next()?, parts.next()?);
    if topic != q.topic || seed != q.seed.to_string() {
        return None;
    }
    let _ = super::storage::session_remove(ANSWERED_KEY);
    match (given.get(..1), given.get(1..)) {
        (Some("n"), Some(x)) => Some(x.parse().ok().map(Given::Number)),
        (Some("c"), Some(i)) => Some(i.parse().ok().map(Given::Choice)),
        _ => Some(None),
    }
}

/// Replace some query parameters of the current page, keeping the rest.
#[hook]
pub fn use_set_query() -> Callback<Vec<(&'static str, Option<String>)>> {
    let navigator = use_navigator().expect("inside a router");
    // The address as it is when used (the hook's users are not rendered
    // again for every change of the address, which a subscription to the
    // router's location would do: each jump, each of a panel's writes).
    Callback::from(move |changes: Vec<(&'static str, Option<String>)>| {
        let now = yew_router::history::History::location(&yew_router::history::HashHistory::new());
        let route = Route::recognize(now.path()).unwrap_or(Route::Home);
        let pairs = query_pairs(&now).unwrap_or_default();
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
                href={round_href(&ctx)}>{ ctx.t("practice.toggle") }</a>
        },
    }
}

/// Marks the page while an answer is hidden (the stylesheet blurs the
/// panel's body and explanation past reading), unmarked on reveal and when
/// it goes.
#[hook]
fn use_hidden_mark(hidden: bool) {
    use_effect_with(hidden, |hidden| {
        let root = super::dom::window().document().and_then(|d| d.document_element());
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
    /// The panel's topic's practice bank.
    pub bank: BankRef,
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
    let Some(q) = mode.q.filter(|_| mode.on).map(|s| practice::question(p.bank.0, s)) else {
        return html! {};
    };
    let key = format!("{}-{}", q.topic, q.seed);
    html! { <LazyQuestion {key} q={Rc::new(q)} dispatch={p.dispatch.clone()} /> }
}

/// A panel's question card, as its chunk gives it (the split build, issue 24).
type QuestionView = fn(Rc<Question>, Callback<Action>) -> Html;

/// Where the split build cuts: the question card's code (prediction,
/// reveal, grading) is reached only from here, so a panel loads it only in
/// practice mode.
#[wasm_split_helpers::wasm_split(practice_question, fallible)]
fn question_view() -> Result<QuestionView, wasm_split_helpers::SplitLoaderError> {
    Ok(|q, dispatch| html! { <PanelQuestion q={q} dispatch={dispatch} /> })
}

super::chunk::chunks!(static QUESTION_VIEW: QuestionView);

/// The question card once its chunk is in: until then a card saying
/// "loading…", or, if the chunk can't be fetched, an error with Retry.
#[component]
fn LazyQuestion(p: &PanelQuestionProps) -> Html {
    use super::chunk::{pending, state_name, use_chunk, Chunk};
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let chunk = use_chunk(QUESTION_VIEW, "practice-question", || Box::pin(question_view()), &[]);
    if let Chunk::Ready(view) = chunk {
        return view(p.q.clone(), p.dispatch.clone());
    }
    html! {
        <section class="practice-card practice-pending" data-chunk="practice-question"
            data-chunk-state={state_name(&chunk)}>
            { pending(&ctx, &chunk, "page.loading", "page.load-failed") }
        </section>
    }
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
    // Opened from the round's review: revealed at once, the panel at the
    // question's configuration (the link carries it).
    let revealed = use_state(|| take_answered(&p.q));
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
                <a class="practice-round-link" href={round_href(&ctx)}>{ ctx.t("practice.round.start") }</a>
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
pub fn rich(text: &str) -> Html {
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
            let doc = super::dom::window().document().expect("document");
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
        (Given::Number(x), _) => crate::format::number(x),
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
/// A topic's practice bank, compared by address.
#[derive(Clone, Copy)]
pub struct BankRef(pub &'static practice::Bank);

impl PartialEq for BankRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
