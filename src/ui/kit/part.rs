//! [`part`]: a piece of a view as a component of its own, rendered again
//! only when what it shows changed (a panel's controls, tables and texts
//! while its position moves).

use std::rc::Rc;
use yew::prelude::*;

/// What a [`part`] is rendered again for, compared by value.
#[derive(Clone)]
pub struct Deps {
    deps: Rc<dyn std::any::Any>,
    same: fn(&dyn std::any::Any, &dyn std::any::Any) -> bool,
}

fn same_deps<D: PartialEq + 'static>(a: &dyn std::any::Any, b: &dyn std::any::Any) -> bool {
    matches!((a.downcast_ref::<D>(), b.downcast_ref::<D>()), (Some(a), Some(b)) if a == b)
}

impl PartialEq for Deps {
    fn eq(&self, other: &Self) -> bool {
        (self.same)(&*self.deps, &*other.deps)
    }
}

#[derive(Properties, PartialEq)]
pub struct PartProps {
    deps: Deps,
    /// Compared by its deps only.
    view: PartView,
}

#[derive(Clone)]
struct PartView(Rc<dyn Fn() -> Html>);

impl PartialEq for PartView {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A part of a panel's view as a component of its own.
#[component]
fn Part(p: &PartProps) -> Html {
    (p.view.0)()
}

/// A part of a panel's view that is rendered again (and its DOM compared)
/// only when `deps` changed: the controls, tables and explanations of a
/// panel whose position moved stay as they are. `view` must read nothing
/// that `deps` doesn't hold (it captures values; callbacks it captures must
/// be stable, like `Panel::set`'s and the dispatch).
pub fn part<D: PartialEq + 'static>(deps: D, view: impl Fn() -> Html + 'static) -> Html {
    let deps = Deps { deps: Rc::new(deps), same: same_deps::<D> };
    html! { <Part {deps} view={PartView(Rc::new(view))} /> }
}
