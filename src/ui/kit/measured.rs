//! Measured data next to the models: [`use_measured`] fetches one table of
//! `assets/measured/` (once per page: tables are cached), and
//! [`measured_note`] is the label every overlay carries ("measured on an
//! NVIDIA H200, <date>"); [`measured_table`], [`measured_grid`],
//! [`measured_cell`] and [`ratio_cell`] are the tables' shared markup.

use super::ctx::AppCtx;
use crate::sim::measured::Table;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// GET a text file next to the app; `None` if it is missing or unreadable.
pub async fn fetch_text(url: &str) -> Option<String> {
    use wasm_bindgen::JsCast;
    let resp = wasm_bindgen_futures::JsFuture::from(super::dom::window().fetch_with_str(url)).await.ok()?;
    let resp: web_sys::Response = resp.dyn_into().ok()?;
    if !resp.ok() {
        return None;
    }
    wasm_bindgen_futures::JsFuture::from(resp.text().ok()?).await.ok()?.as_string()
}

thread_local! {
    /// The tables fetched so far, by file name: a handful, so a list (a
    /// hash map would cost its own copy of the hashing code).
    static CACHE: RefCell<Vec<(&'static str, Rc<Table>)>> = const { RefCell::new(Vec::new()) };
}

/// The cached table `file`, if it has been fetched.
fn cached(file: &str) -> Option<Rc<Table>> {
    CACHE.with(|c| c.borrow().iter().find(|(f, _)| *f == file).map(|(_, t)| t.clone()))
}

/// The table `assets/measured/<file>` (a `sim::measured` constant), once it
/// has arrived; `None` before, or when `enabled` is false (an overlay
/// switched off fetches nothing).
#[hook]
pub fn use_measured(file: &'static str, enabled: bool) -> Option<Rc<Table>> {
    let table = use_state(|| cached(file));
    {
        let table = table.clone();
        use_effect_with((file, enabled), move |&(file, enabled)| {
            if enabled && table.is_none() {
                if let Some(t) = cached(file) {
                    table.set(Some(t));
                } else {
                    yew::platform::spawn_local(async move {
                        if let Some(text) = fetch_text(&format!("assets/measured/{file}")).await {
                            let t = Rc::new(Table::parse(&text));
                            CACHE.with(|c| c.borrow_mut().push((file, t.clone())));
                            table.set(Some(t));
                        }
                    });
                }
            }
        });
    }
    if enabled {
        (*table).clone()
    } else {
        None
    }
}

/// "Measured on an NVIDIA H200, 2026-11-29" (from the table's metadata).
pub fn measured_note(ctx: &AppCtx, table: &Table) -> Html {
    let device = table.meta("device").unwrap_or("—");
    let date = table.meta("date").unwrap_or("—");
    html! {
        <p class="measured-note" data-testid="measured-note">
            { ctx.tf("measured.label", &[("device", device), ("date", date)]) }
        </p>
    }
}

/// A measured table, scrollable on a phone: its head and its rows.
pub fn measured_table(head: Html, rows: Html) -> Html {
    table_in("ledger", head, rows)
}

/// A compact measured grid (column heads `keys`; the first column names the
/// row, the others are numbers, right-aligned under right-aligned heads).
pub fn measured_grid(ctx: &AppCtx, keys: &[&str], rows: Html) -> Html {
    let th =
        |(i, k): (usize, &&str)| html! { <th scope="col" class={classes!((i > 0).then_some("num"))}>{ ctx.t(k) }</th> };
    let head = html! { <thead><tr>{ for keys.iter().enumerate().map(th) }</tr></thead> };
    table_in("ledger measured-table", head, rows)
}

fn table_in(class: &'static str, head: Html, rows: Html) -> Html {
    html! {
        <div class="measured-scroll"><table {class}>
            { head }
            <tbody>{ rows }</tbody>
        </table></div>
    }
}

/// A measured figure's cell: `data-measured="<name>"` with its raw
/// `data-value` (what the tests read), showing `shown`.
pub fn measured_cell(name: String, value: f64, shown: String) -> Html {
    html! { <td class="num" data-measured={name} data-value={value.to_string()}>{ shown }</td> }
}

/// The model ÷ measured cell of row `id` (`<id>.model-over-measured`).
pub fn ratio_cell(id: &str, ratio: f64, digits: usize) -> Html {
    measured_cell(format!("{id}.model-over-measured"), ratio, format!("{ratio:.digits$}"))
}
