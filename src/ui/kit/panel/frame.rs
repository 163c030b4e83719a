//! The frame every panel is shown in: header (section, title, tools),
//! notices, the practice card, the controls drawer beside the stage, and
//! the explanation below.

use super::drawer::toggle_drawer;
use super::Panel;
use crate::ui::kit::canvas::FitCtx;
use crate::ui::kit::ctx::MetaRef;
use crate::ui::kit::practice::{BankRef, PracticeCard, PracticeToggle};
use crate::ui::kit::readouts::Notices;
use crate::ui::kit::tools::{DeckProgress, PanelTools};
use yew::prelude::*;

impl Panel {
    /// The panel in its frame: a one-line header (section, title, tools,
    /// previous and next panel), notices, the controls drawer beside the
    /// stage (canvas, then player and key figures beside it on wide
    /// screens), and the secondary material below. `embed=1` keeps the stage
    /// only.
    pub fn frame(&self, controls: Html, stage: Html, explain: Html) -> Html {
        let ctx = &self.ctx;
        let meta = self.meta;
        let open = *self.drawer;
        let toggle_drawer = toggle_drawer(self.drawer.clone(), ctx.present);
        let drawer_id = format!("controls-{}", meta.id);
        let title = ctx.t(&format!("topic.{}.title", meta.id));
        html! {
            <ContextProvider<FitCtx> context={FitCtx { report: self.fit.report.clone(), max_height: self.fit.bx.height }}>
                <article class={classes!("panel", format!("panel-{}", meta.id))} data-topic={meta.id}>
                    if !ctx.embed {
                        <header class="panel-header">
                            <div class="panel-titles">
                                <p class="panel-section">{ crate::ui::kit::ctx::section_line(ctx, meta) }</p>
                                <h1>{ title.clone() }</h1>
                            </div>
                            <div class="panel-tools">
                                <button class="drawer-toggle" data-testid="drawer-toggle" aria-controls={drawer_id.clone()}
                                    aria-expanded={open.to_string()} onclick={toggle_drawer}>
                                    <span aria-hidden="true">{ "☰ " }</span>{ ctx.t("frame.controls") }
                                </button>
                                <PanelTools meta={MetaRef(meta)} title={title} />
                                // Phones have no room for the toggle in the site header: it is
                                // in the panel's row of tools instead.
                                <span class="practice-phone"><PracticeToggle /></span>
                            </div>
                            <p class="panel-summary">{ ctx.t(&format!("topic.{}.summary", meta.id)) }</p>
                        </header>
                        <DeckProgress />
                    }
                    <Notices notices={(*self.notices).clone()} on_dismiss={self.dismiss.clone()} />
                    if !ctx.embed {
                        <PracticeCard bank={BankRef(self.topic.practice)} dispatch={self.dispatch.clone()} />
                    }
                    <div class={classes!("panel-body", (open && !ctx.embed).then_some("drawer-open"))}>
                        if !ctx.embed {
                            <aside class="controls" id={drawer_id} hidden={!open}>{ controls }</aside>
                        }
                        <section class="stage" ref={self.stage.clone()}>{ stage }</section>
                    </div>
                    if !ctx.embed {
                        <section class="explain">{ explain }</section>
                    }
                </article>
            </ContextProvider<FitCtx>>
        }
    }
}
