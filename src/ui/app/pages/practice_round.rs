//! The practice round page (`#/practice`): ten questions across the panels
//! of the registry (or of one part of the lecture), the review and the
//! rounds played before.

use crate::params::{Notice, Problem, GLOBAL_PARAMS};
use crate::practice::{self, Answer, Given, Grade, Question};
use crate::topic::Part;
use crate::topics;
use crate::ui::kit::ctx::{query_pairs, AppCtx, Route};
use crate::ui::kit::practice::{
    fresh_seed, href, mark_answered, question_href, rich, use_set_query, Ask, HISTORY_KEY, HISTORY_LEN,
};
use crate::ui::kit::readouts::Notices;
use crate::ui::kit::storage;
use std::rc::Rc;
use yew::prelude::*;
use yew_router::prelude::*;

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
    storage::get_json::<Vec<Record>>(HISTORY_KEY).unwrap_or_default()
}

fn remember(r: Record) {
    let mut h = history();
    if h.iter().any(|x| x.round == r.round && x.part == r.part) {
        return;
    }
    h.insert(0, r);
    h.truncate(HISTORY_LEN);
    let _ = storage::set_json(HISTORY_KEY, &h);
}

fn part_label(ctx: &AppCtx, part: Option<Part>) -> String {
    match part {
        Some(p) => ctx.t(p.key()),
        None => ctx.t("practice.round.all"),
    }
}

/// The round's parameters, read by their specs (`practice::ROUND_PARAMS`)
/// and written back in their canonical form: a round that is absent or not
/// a number is a fresh one; out of range, the nearest; an unknown part, all
/// parts. Each with a notice but the absent round.
struct RoundParams {
    seed: u64,
    part: Option<Part>,
    /// The notices shown, and their dismissal.
    notices: Vec<Notice>,
    dismiss: Callback<()>,
}

#[hook]
fn use_round_params() -> RoundParams {
    let location = use_location().expect("inside a router");
    let navigator = use_navigator().expect("inside a router");
    let pairs = query_pairs(&location).unwrap_or_default();
    let (values, mut notices) = crate::params::parse(&practice::ROUND_PARAMS, &pairs);
    let fresh = *use_state(fresh_seed);
    let malformed = |n: &Notice| n.param == "round" && matches!(n.problem, Problem::Malformed { .. });
    let seed = if pairs.iter().any(|(k, _)| k == "round") && !notices.iter().any(malformed) {
        values.int("round") as u64
    } else {
        fresh
    };
    for n in notices.iter_mut().filter(|n| n.param == "round") {
        if let Problem::Malformed { used } = &mut n.problem {
            *used = seed.to_string();
        }
    }
    let part = practice::part_from_code(values.choice("part"));
    // The URL as the page reads it: the round, the part, the globals as given.
    let canonical: Vec<(String, String)> = std::iter::once(("round".to_string(), seed.to_string()))
        .chain(part.map(|p| ("part".to_string(), practice::part_code(p).to_string())))
        .chain(pairs.iter().filter(|(k, _)| GLOBAL_PARAMS.contains(&k.as_str())).cloned())
        .collect();
    {
        let canonical = canonical.clone();
        use_effect_with((pairs.clone(), canonical), move |(pairs, canonical)| {
            if pairs != canonical {
                let _ = navigator.replace_with_query(&Route::Practice, canonical);
            }
        });
    }
    // The notices stay up over the page's own rewrite of the URL (its
    // canonical form), and go with any other change or when dismissed.
    let shown = use_mut_ref(|| (Vec::<(String, String)>::new(), Vec::<Notice>::new()));
    {
        let mut st = shown.borrow_mut();
        if !notices.is_empty() {
            *st = (canonical.clone(), notices);
        } else if st.0 != pairs {
            *st = (Vec::new(), Vec::new());
        }
    }
    let dismiss = {
        let shown = shown.clone();
        let refresh = use_force_update();
        Callback::from(move |_: ()| {
            shown.borrow_mut().1.clear();
            refresh.force_update();
        })
    };
    let notices = shown.borrow().1.clone();
    RoundParams { seed, part, notices, dismiss }
}

/// The answers given so far in the round, and whether the last one is shown
/// revealed; a new round (or part) starts over.
#[hook]
fn use_answers(seed: u64, part: Option<Part>) -> (UseStateHandle<Vec<Option<Given>>>, UseStateHandle<bool>) {
    let answers = use_state(Vec::<Option<Given>>::new);
    let revealed = use_state(|| false);
    {
        let answers = answers.clone();
        let revealed = revealed.clone();
        use_effect_with((seed, part), move |_| {
            answers.set(Vec::new());
            revealed.set(false);
        });
    }
    (answers, revealed)
}

/// `#/practice?round=<seed>&part=gpu|fast|flash|tpu`: ten questions, a
/// score, the ones to review with links to their panels, earlier scores.
#[component]
pub fn RoundPage() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let set = use_set_query();
    let RoundParams { seed, part, notices, dismiss } = use_round_params();
    let (answers, revealed) = use_answers(seed, part);
    let round = practice::round(seed, part, topics::ALL);
    let questions: Vec<Rc<Question>> = round
        .items
        .iter()
        .filter_map(|(t, s)| topics::find(t).map(|t| practice::question(t.practice, *s)))
        .map(Rc::new)
        .collect();
    let n = questions.len();
    let i = answers.len();
    let body = if i < n {
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
        question_card(&ctx, seed, i, n, questions[i].clone(), on_reveal)
    } else {
        html! {}
    };
    // The question just answered stays up, revealed, until "next".
    let last = (*revealed && i > 0).then(|| {
        let next = {
            let revealed = revealed.clone();
            Callback::from(move |_: MouseEvent| revealed.set(false))
        };
        answered_card(&ctx, seed, i, n, questions[i - 1].clone(), answers[i - 1], next)
    });
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
        let again = Callback::from(move |_: MouseEvent| set.emit(vec![("round", Some(fresh_seed().to_string()))]));
        score_view(&ctx, &questions, &grades, &answers, (right, close, n), again)
    } else {
        html! {}
    };
    html! {
        <div class="practice-page" data-testid="practice-round" data-round={seed.to_string()}>
            <h1>{ ctx.t("practice.round") }{": "}{ part_label(&ctx, part) }</h1>
            <Notices notices={notices} on_dismiss={dismiss} />
            <p class="lead">{ ctx.t("practice.round.intro") }</p>
            { part_links(&ctx, part) }
            { score }
            { for last }
            if !*revealed { { body } }
            { history_view(&ctx) }
        </div>
    }
}

/// The links to a round of every part, and of each part of the lecture.
fn part_links(ctx: &AppCtx, part: Option<Part>) -> Html {
    let parts = std::iter::once(None).chain(Part::ALL.into_iter().map(Some));
    let lang_pair = ("lang".to_string(), ctx.asked_lang.code().to_string());
    html! {
        <nav class="practice-parts">
            { for parts.map(|p| {
                let mut q = vec![lang_pair.clone()];
                if let Some(p) = p { q.push(("part".into(), practice::part_code(p).into())); }
                html! {
                    <a class="seg" aria-pressed={(p == part).to_string()} data-part={p.map_or("all", practice::part_code)}
                        href={href("practice", &q)}>{ part_label(ctx, p) }</a>
                }
            }) }
        </nav>
    }
}

/// Question `i` (of `n`), to answer.
fn question_card(
    ctx: &AppCtx,
    seed: u64,
    i: usize,
    n: usize,
    q: Rc<Question>,
    on_reveal: Callback<Option<Given>>,
) -> Html {
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
}

/// The question just answered (the `i`th of `n`), revealed, with "next"
/// and a link to its panel.
fn answered_card(
    ctx: &AppCtx,
    seed: u64,
    i: usize,
    n: usize,
    q: Rc<Question>,
    given: Option<Given>,
    next: Callback<MouseEvent>,
) -> Html {
    html! {
        <section class="practice-card" data-testid="round-question" data-index={(i - 1).to_string()}
            data-topic={q.topic} data-seed={q.seed.to_string()} data-revealed="true">
            <header class="practice-head">
                <h2>{ ctx.tf("practice.round.progress", &[("i", &i.to_string()), ("n", &n.to_string())]) }</h2>
                <span class="practice-meta">{ ctx.t(&format!("topic.{}.title", q.topic)) }</span>
            </header>
            <Ask key={format!("{seed}-{}-done", i - 1)} q={q.clone()} revealed={Some(given)} on_reveal={Callback::noop()} />
            <nav class="practice-actions">
                <button class="practice-next" data-testid="round-next" onclick={next}>
                    { ctx.t(if i < n { "practice.round.next" } else { "practice.round.finish" }) }
                </button>
                <a class="practice-link" href={question_href(&q, ctx)}
                    onclick={{ let (q, g) = (q.clone(), given); Callback::from(move |_: MouseEvent| mark_answered(&q, g)) }}>
                    { ctx.t("practice.round.open") }
                </a>
            </nav>
        </section>
    }
}

/// The score of a finished round, the questions to review and "again".
fn score_view(
    ctx: &AppCtx,
    questions: &[Rc<Question>],
    grades: &[Option<Grade>],
    answers: &[Option<Given>],
    (right, close, n): (usize, usize, usize),
    again: Callback<MouseEvent>,
) -> Html {
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
                            (Given::Number(x), _) => crate::format::number(x),
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
                                {" "}<a class="practice-link" data-testid="review-link" href={question_href(q, ctx)}
                                    onclick={{ let (q, g) = (q.clone(), *given); Callback::from(move |_: MouseEvent| mark_answered(&q, g)) }}>
                                    { ctx.t("practice.round.open") }
                                </a>
                            </li>
                        }
                    }) }
                </ol>
            }
            <button class="practice-next" data-testid="round-again" onclick={again.clone()}>{ ctx.t("practice.round.again") }</button>
        </section>
    }
}

/// The rounds played before, newest first.
fn history_view(ctx: &AppCtx) -> Html {
    let earlier = history();
    if earlier.is_empty() {
        return html! {};
    }
    html! {
        <section class="practice-history" data-testid="round-history">
            <h3>{ ctx.t("practice.round.history") }</h3>
            <ul>
                { for earlier.iter().map(|r| {
                    let label = format!("#{} · {}", r.round, part_label(ctx, practice::part_from_code(&r.part)));
                    html! { <li>{ ctx.tf("practice.round.history.row", &[("when", &label), ("right", &r.right.to_string()), ("close", &r.close.to_string()), ("n", &r.n.to_string())]) }</li> }
                }) }
            </ul>
        </section>
    }
}
