//! The drawer a panel's controls sit in: open or closed, remembered per
//! mode (normal, projecting).

use yew::prelude::*;

/// Is the controls drawer open? Its default follows projector mode.
#[hook]
pub fn use_drawer(present: bool) -> UseStateHandle<bool> {
    let drawer = use_state(|| drawer_default(present));
    {
        let drawer = drawer.clone();
        use_effect_with(present, move |present| drawer.set(drawer_default(*present)));
    }
    drawer
}

/// Opens or closes the drawer, and remembers it for the mode.
pub fn toggle_drawer(drawer: UseStateHandle<bool>, present: bool) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        let key = format!("{DRAWER_KEY}.{}", if present { "present" } else { "normal" });
        let _ = crate::ui::kit::storage::set_json(&key, &!*drawer);
        drawer.set(!*drawer);
    })
}

const DRAWER_KEY: &str = "warpscope.drawer";

/// Is the controls drawer open? Remembered per mode; by default open on a
/// wide screen, closed when projecting and on a phone.
fn drawer_default(present: bool) -> bool {
    let key = format!("{DRAWER_KEY}.{}", if present { "present" } else { "normal" });
    if let Some(open) = crate::ui::kit::storage::get_json::<bool>(&key) {
        return open;
    }
    let wide = crate::ui::kit::dom::window().inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(1280.0) >= 900.0;
    wide && !present
}
