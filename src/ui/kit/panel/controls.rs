//! A panel's controls, generated from the parameters' specs: a slider
//! for an integer or a position, a segmented control for a choice.

use super::Panel;
use crate::params::Kind;
use crate::ui::kit::slider::{slider, Slider};
use crate::ui::kit::widgets::{choice, preset_row, Preset};
use yew::prelude::*;

impl Panel {
    /// The controls of several parameters, in this order (see [`Panel::control`]).
    pub fn controls(&self, names: &[&'static str]) -> Html {
        names.iter().map(|&name| self.control(name)).collect()
    }

    /// The controls of `names`, then the row of `presets` titled `title`
    /// (a translation key).
    pub fn controls_with_presets(&self, names: &[&'static str], title: &'static str, presets: &[Preset]) -> Html {
        html! {
            <>
                { self.controls(names) }
                { preset_row(&self.ctx, title, presets, &self.dispatch) }
            </>
        }
    }

    /// The control of one parameter, generated from its spec: a slider for
    /// an integer or a position (range, log scale and dependent maximum from
    /// the registry), a segmented control for a choice. Text parameters have
    /// panel-specific editors.
    pub fn control(&self, name: &'static str) -> Html {
        let meta = self.meta;
        let Some(spec) = meta.params.iter().find(|s| s.name == name) else {
            web_sys::console::error_1(&format!("warpscope: {} has no parameter {}", meta.id, name).into());
            return html! {};
        };
        let v = &self.v;
        let (min, max) = match spec.kind {
            Kind::Int { min, max, .. } => {
                let max = meta.dependent_max(v, spec.name).map_or(max, |m| m.min(max));
                (min, max.max(min))
            }
            Kind::Position => (0, meta.position_max.map_or(0, |f| f(v)).min(i64::MAX as u64) as i64),
            Kind::Choice { options, .. } => {
                return choice(&self.ctx, spec.name, options, v.choice(spec.name), &self.dispatch);
            }
            Kind::Text { .. } => return html! {},
        };
        let on_change = self.set(spec.name);
        slider(
            &self.ctx,
            &Slider { topic: meta.id, name: spec.name, value: v.int(spec.name), min, max, log: spec.log, on_change },
        )
    }
}
