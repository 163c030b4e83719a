//! The start page (the lecture's parts, and under each its panels; the
//! way back to the last panel and to the deck) and the not-found page.

use crate::topic::Part;
use crate::topics::METAS as TOPICS;
use crate::ui::kit::ctx::{AppCtx, Route};
use yew::prelude::*;
use yew_router::prelude::*;

/// The landing page: the lecture's parts, and under each the panels that exist.
#[component]
pub fn Landing() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let parts: Vec<Part> = Part::ALL.into_iter().filter(|p| TOPICS.iter().any(|t| t.part == *p)).collect();
    html! {
        <div class="landing">
            <h1>{ ctx.t("landing.title") }</h1>
            <p class="lead">{ ctx.t("landing.intro") }</p>
            <crate::ui::app::pages::lecture::LectureLinks />
            <ContinueLink />
            <DeckLine />
            { for parts.iter().map(|part| html! {
                <section class="landing-part">
                    <h2>{ ctx.t(part.key()) }</h2>
                    <div class="cards">
                        { for TOPICS.iter().filter(|t| t.part == *part).map(|&meta| {
                            let params: Vec<&str> = meta.params.iter().map(|p| p.name).collect();
                            html! {
                                <div class="card" data-topic={meta.id} data-params={params.join(",")} data-param-spec={meta.params_json()}>
                                    <Link<Route, Vec<(String, String)>> to={Route::Topic { id: meta.id.to_string() }}
                                        query={Some(ctx.globals())} classes="card-link">
                                        <span class="card-section">{ crate::ui::kit::ctx::section_line(&ctx, meta) }</span>
                                        <span class="card-title">{ ctx.t(&format!("topic.{}.title", meta.id)) }</span>
                                        <span class="card-summary">{ ctx.t(&format!("topic.{}.summary", meta.id)) }</span>
                                        <span class="card-open">{ ctx.t("landing.open") }{" →"}</span>
                                    </Link<Route, Vec<(String, String)>>>
                                </div>
                            }
                        }) }
                    </div>
                </section>
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct NotFoundProps {
    pub path: String,
}

#[component]
pub fn NotFoundPage(props: &NotFoundProps) -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    html! {
        <div class="not-found" data-testid="not-found">
            <div class="notices" role="status" data-testid="notices">
                <p class="notice" data-notice-param="route">{ ctx.tf("notfound.body", &[("path", &props.path)]) }</p>
            </div>
            <h1>{ ctx.t("notfound.title") }</h1>
            <Landing />
        </div>
    }
}

/// The landing page's "continue with …" link to the last panel visited.
#[component]
pub fn ContinueLink() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let last: Option<String> = crate::ui::kit::storage::get_str(crate::ui::kit::tools::LAST_KEY);
    let Some(t) = last.as_deref().and_then(crate::ui::kit::ctx::find) else { return html! {} };
    let title = ctx.t(&format!("topic.{}.title", t.id));
    html! {
        <p class="continue" data-testid="continue">
            <Link<Route, Vec<(String, String)>> to={Route::Topic { id: t.id.to_string() }} query={Some(ctx.globals())}>
                { ctx.tf("landing.continue", &[("title", &title)]) }
            </Link<Route, Vec<(String, String)>>>
        </p>
    }
}

/// The landing page's way to the deck, for the lecturer: what a deck is
/// for, and the deck with its number of views.
#[component]
fn DeckLine() -> Html {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let n = crate::deck::stored_len(crate::ui::kit::storage::get(crate::ui::kit::tools::DECK_KEY).as_deref());
    html! {
        <p class="landing-deck" data-testid="landing-deck">
            { ctx.t("landing.deck") }{" "}
            <Link<Route, Vec<(String, String)>> to={Route::Deck} query={Some(ctx.globals())} classes="deck-open">
                { ctx.tf("deck.open-n", &[("n", &n.to_string())]) }
            </Link<Route, Vec<(String, String)>>>
        </p>
    }
}
