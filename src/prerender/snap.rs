//! Static snapshots of the panels (issue 33): each topic's default view (its
//! drawing as SVG, `crate::scene_svg`, and its key figures) as a small HTML
//! fragment per route, language and screen class, written by the build hook
//! (`warpscope strings <dir>`) into `<dir>/snap/`. `web/pre.js` fetches the
//! one a plain URL of a topic route needs (no query but `lang=`) at once and
//! puts it into `#boot`, where the stylesheet shows it (`data-route="snap"`)
//! until the app's first render removes `#boot`, as for the start page.
//!
//! The markup is the app's panel frame (src/ui/kit/panel/frame.rs) and key
//! figures (src/ui/kit/readouts.rs): the same elements and classes, so the
//! app's stylesheet lays it out as it lays out the panel. The file names
//! carry the build's fingerprint, which `index.html` names (on pre.js's tag),
//! so a deploy never serves a snapshot of another build.

use super::{esc, html_lang, section_line, site_header};
use crate::i18n::{exact_value, format_metric, has, topic_key, tr, trf, Lang};
use crate::scene_svg::svg;
use crate::sim::Metric;
use crate::topic::snapshot::{Above, Snapshot, Stage, View};
use crate::topic::TopicMeta;

/// The screen classes a snapshot is written for, as `(name, drawing width)`:
/// the stage's layout changes at 900 CSS pixels (style/main.css: the key
/// figures beside the drawing above it, below it under it); the width is
/// the one the app draws its canvas at there: a 390 px phone's stage column
/// (390 − 2 × 1.2rem of `.site-main`), and a 1440 × 900 desktop's canvas
/// column (the stage beside the open controls drawer, less the side column of
/// figures). `web/pre.js` picks by `matchMedia("(min-width: 900px)")`.
pub const WIDTHS: [(&str, f64); 2] = [("narrow", 351.0), ("wide", 816.0)];

/// On a wide screen a panel with this many key figures or more has a wider
/// side column (style/main.css: `--side-w` 390 px, not 300, three figures
/// to a row), so its canvas column is [`MANY_FIGURES_NARROWER`] narrower.
pub const MANY_FIGURES: usize = 9;
pub const MANY_FIGURES_NARROWER: f64 = 90.0;

/// The width a wide screen's canvas column has beside `figures` key figures.
pub fn wide_width(figures: usize) -> f64 {
    WIDTHS[1].1 - if figures >= MANY_FIGURES { MANY_FIGURES_NARROWER } else { 0.0 }
}

/// Where the build writes the snapshots, under the site's root.
pub const DIR: &str = "snap";

/// The file of `route` in `lang` for a screen `class` of build `build`
/// (relative to the site's root): `snap/<route>.<lang>.<class>-<build>.html`.
/// The build as a `-<hex>` suffix, as trunk's hashed names: the service
/// worker (web/sw.js) serves such a file from its cache first and drops it
/// when a new index.html no longer names it, so snapshots of old builds never
/// pile up in the cache (they are not precached: see ARCHITECTURE.md).
pub fn file_name(route: &str, lang: Lang, class: &str, build: &str) -> String {
    format!("{DIR}/{route}.{}.{class}-{build}.html", lang.code())
}

/// The key figures as the app's `readouts` renders them: a `data-metric`
/// element per figure with its raw `data-value`, the translated label (a
/// topic's own label first) and the value formatted as the app formats it.
/// Figures named in `pending.0` are shown pending, as `readouts_pending`
/// shows them: no `data-value`, the text `pending.1` in place of the value.
pub fn readouts(lang: Lang, topic: &str, figures: &[Metric], pending: &(Vec<&'static str>, &'static str)) -> String {
    let mut h = String::from(r#"<div class="readouts" role="group">"#);
    for m in figures {
        let label_key = topic_key("metric", topic, m.name);
        let doc_key = format!("{label_key}.doc");
        let doc = has(&doc_key).then(|| tr(lang, &doc_key));
        if pending.0.contains(&m.name) {
            h.push_str(&format!(
                r#"<div class="metric checking" data-metric="{}" data-state="checking" aria-busy="true" data-progress="0.00"{}><span class="metric-label">{}</span><span class="metric-value muted">{}</span></div>"#,
                esc(m.name),
                doc.map(|t| format!(r#" title="{}""#, esc(&t))).unwrap_or_default(),
                esc(&tr(lang, &label_key)),
                esc(&tr(lang, pending.1)),
            ));
            continue;
        }
        let title = match (doc, exact_value(m)) {
            (Some(d), Some(x)) => Some(format!("{d} ({x})")),
            (d, x) => d.or(x),
        };
        let value = match m.word_key() {
            Some(key) => esc(&tr(lang, &key)),
            None => {
                let text = format_metric(m);
                let chars = text.chars().count().max(1);
                format!(r#"<span class="fit" style="--chars:{chars}">{}</span>"#, esc(&text))
            }
        };
        h.push_str(&format!(
            r#"<div class="metric" data-metric="{}" data-value="{}"{}><span class="metric-label">{}</span><span class="metric-value">{value}</span></div>"#,
            esc(m.name),
            esc(&m.raw()),
            title.map(|t| format!(r#" title="{}""#, esc(&t))).unwrap_or_default(),
            esc(&tr(lang, &label_key)),
        ));
    }
    h.push_str("</div>");
    h
}

/// What the panel shows right above the drawing (as the app's
/// `chart_title` and systolic's phase chips).
fn above(view: &View) -> String {
    match &view.above {
        Above::Nothing => String::new(),
        Above::Title(t) => format!(r#"<h2 class="chart-title">{}</h2>"#, esc(t)),
        Above::Chips(chips) => {
            let mut h = String::from(r#"<div class="phase-row">"#);
            for (text, tint, active) in chips {
                h.push_str(&format!(
                    r#"<span class="phase-chip{}"{} style="--tint:{}">{}</span>"#,
                    if *active { " active" } else { "" },
                    if *active { r#" aria-current="step""# } else { "" },
                    esc(tint),
                    esc(text)
                ));
            }
            h.push_str("</div>");
            h
        }
    }
}

/// The stage's drawing: the scene or the chart (its title above it) as SVG
/// in the canvas's place.
fn stage(view: &View) -> (String, Vec<String>) {
    match &view.stage {
        Stage::Scene(scene) => {
            let s = svg(scene, "snap-svg", &view.label);
            (format!(r#"<figure class="scene snap-scene">{}</figure>"#, s.markup), s.skipped)
        }
        Stage::Chart { title, svg } => (
            format!(
                r#"<figure class="scene chart-scene snap-scene"><h2 class="chart-title">{}</h2>{svg}</figure>"#,
                esc(title)
            ),
            vec![],
        ),
    }
}

/// A topic's snapshot page in `lang`: the app's shell (site header and
/// footer) around the panel's frame (header with section, title, the
/// controls button, the tools and summary; on a `wide` screen the open
/// controls drawer's box) and its stage (what is above the drawing, the
/// drawing, the key figures); with what the SVG left out (see
/// [`crate::scene_svg::Svg`]).
/// The panel's row of tools as a first visit sees them (src/ui/kit/tools.rs:
/// "+ Deck", the deck of 0 views, "Embed", the neighbours in lecture order;
/// on a phone the practice toggle), the links carrying `lang=`.
fn tools(lang: Lang, meta: &TopicMeta, topics: &[&TopicMeta], q: &str) -> String {
    let t = |key: &str| esc(&tr(lang, key));
    let i = topics.iter().position(|m| m.id == meta.id).unwrap_or(0);
    let link = |other: Option<&&TopicMeta>, rel: &str, arrow: &str| match other {
        Some(m) => format!(
            r##"<a class="neighbour {rel}" href="#/{}?{q}"><span aria-hidden="true">{arrow}</span><span class="sr-only">{}</span></a>"##,
            m.id,
            esc(&trf(lang, &format!("frame.{rel}"), &[("title", &tr(lang, &format!("topic.{}.title", m.id)))]))
        ),
        None => String::new(),
    };
    format!(
        r##"<button class="tool" title="{}">{}</button><a class="tool deck-open" href="#/deck?{q}"><span title="{}">{}</span></a><button class="tool" title="{}" aria-expanded="false">{}</button><nav class="neighbours" aria-label="{}">{}<span class="neighbour-pos">{}/{}</span>{}</nav>"##,
        t("frame.deck-add.title"),
        t("frame.deck-add"),
        t("frame.deck-open.title"),
        esc(&trf(lang, "frame.deck-open.n", &[("n", "0")])),
        t("frame.embed.title"),
        t("frame.embed"),
        t("frame.neighbours"),
        link(i.checked_sub(1).and_then(|j| topics.get(j)), "prev", "←"),
        i + 1,
        topics.len(),
        link(topics.get(i + 1), "next", "→"),
    ) + &format!(
        r##"<span class="practice-phone"><a class="practice-toggle" title="{}" href="#/practice?{q}">{}</a></span>"##,
        t("practice.toggle.title"),
        t("practice.toggle")
    )
}

pub fn page(lang: Lang, meta: &TopicMeta, topics: &[&TopicMeta], view: &View, wide: bool) -> (String, Vec<String>) {
    let code = lang.code();
    let id = meta.id;
    let q = format!("lang={code}");
    let (drawing, skipped) = stage(view);
    let drawing = above(view) + &drawing;
    let mut h = String::with_capacity(16 * 1024);
    h.push_str(&format!(
        r#"<div class="app static-snap" data-lang="{code}" lang="{}" data-snap="{id}">"#,
        html_lang(lang)
    ));
    h.push_str(&site_header(lang, &q));
    h.push_str(&format!(
        r#"<main class="site-main"><article class="panel panel-{id}" data-topic="{id}"><header class="panel-header"><div class="panel-titles"><p class="panel-section">{}</p><h1>{}</h1></div><div class="panel-tools"><button class="drawer-toggle" aria-expanded="{wide}"><span aria-hidden="true">☰ </span>{}</button>{}</div><p class="panel-summary">{}</p></header>"#,
        esc(&section_line(lang, meta)),
        esc(&tr(lang, &format!("topic.{id}.title"))),
        esc(&tr(lang, "frame.controls")),
        tools(lang, meta, topics, &q),
        esc(&tr(lang, &format!("topic.{id}.summary"))),
    ));
    h.push_str(&format!(
        // On a wide screen the controls drawer is open on a first visit
        // (src/ui/kit/panel/drawer.rs): its box, empty, so the stage is where
        // the panel's will be.
        r#"<div class="panel-body{}">{}<section class="stage">{drawing}{}</section></div></article></main>"#,
        if wide { " drawer-open" } else { "" },
        if wide { r#"<aside class="controls snap-controls"></aside>"# } else { "" },
        readouts(lang, id, &view.figures, &view.pending)
    ));
    h.push_str(&format!(r#"<footer class="site-footer"><p>{}</p></footer></div>"#, esc(&tr(lang, "app.footer"))));
    (h, skipped)
}

/// A topic without a snapshot: its route and why.
pub type Exempt = (&'static str, &'static str);

/// Every snapshot file of the registry's topics for build `build`, as
/// `(file name, contents)`, and each exempt topic with its reason.
pub fn files(
    topics: &[&TopicMeta],
    hooks: &[crate::topic::snapshot::SnapshotFn],
    build: &str,
) -> (Vec<(String, String)>, Vec<Exempt>) {
    let mut out = Vec::new();
    let mut exempt = Vec::new();
    for (meta, hook) in topics.iter().zip(hooks) {
        for lang in [Lang::En, Lang::Zh] {
            for (class, width) in WIDTHS {
                let snapshot = match hook(lang, width) {
                    // Drawn again in the narrower column many figures leave.
                    Snapshot::View(v) if class == "wide" && wide_width(v.figures.len()) != width => {
                        hook(lang, wide_width(v.figures.len()))
                    }
                    s => s,
                };
                match snapshot {
                    Snapshot::View(view) => {
                        let (html, skipped) = page(lang, meta, topics, &view, class == "wide");
                        assert!(skipped.is_empty(), "{}'s snapshot left out {skipped:?}", meta.id);
                        out.push((file_name(meta.id, lang, class, build), html));
                    }
                    Snapshot::Exempt(why) => {
                        if lang == Lang::En && class == WIDTHS[0].0 {
                            exempt.push((meta.id, why));
                        }
                    }
                }
            }
        }
    }
    (out, exempt)
}

/// The routes that have a snapshot, space-separated (what pre.js reads).
pub fn routes(files: &[(String, String)]) -> String {
    let mut routes: Vec<&str> =
        files.iter().filter_map(|(name, _)| name.strip_prefix("snap/")?.split('.').next()).collect();
    routes.dedup();
    routes.join(" ")
}

/// pre.js's tag in the staged `index.html`.
pub const PRE_TAG: &str = r#"<script src="./pre.js"></script>"#;

/// `index.html` with pre.js's tag naming the snapshots of this build
/// (`data-snap`: the build, `data-snap-routes`: the routes that have one);
/// an error if the tag is not there once.
pub fn stamp(index_html: &str, build: &str, routes: &str) -> Result<String, String> {
    match index_html.matches(PRE_TAG).count() {
        1 => Ok(index_html.replacen(
            PRE_TAG,
            &format!(
                r#"<script src="./pre.js" data-snap="{}" data-snap-routes="{}"></script>"#,
                esc(build),
                esc(routes)
            ),
            1,
        )),
        n => Err(format!("index.html has {n} pre.js tags ({PRE_TAG}), not one")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topics::{METAS, SNAPSHOTS};

    fn setup() {
        crate::topics::install_texts();
    }

    #[test]
    fn every_topic_has_a_snapshot_or_says_why_not() {
        setup();
        assert_eq!(METAS.len(), SNAPSHOTS.len());
        let (files, exempt) = files(METAS, SNAPSHOTS, "b");
        for meta in METAS {
            let written = files.iter().filter(|(n, _)| n.starts_with(&format!("snap/{}.", meta.id))).count();
            let why = exempt.iter().find(|(id, _)| *id == meta.id);
            match why {
                Some((_, why)) => {
                    assert_eq!(written, 0, "{}", meta.id);
                    assert!(why.len() > 20, "{}: a reason, not {why:?}", meta.id);
                    eprintln!("no snapshot for #/{}: {why}", meta.id);
                }
                None => assert_eq!(written, 4, "#/{}: both languages, both screen classes", meta.id),
            }
        }
        // Each page draws its stage (a scene or a chart: a chart that failed
        // to draw would be an empty string).
        for (name, html) in &files {
            assert_eq!(html.matches("<svg ").count(), 1, "{name}");
        }
        // The panels the first-paint bench measures have one.
        for id in ["systolic", "flash", "online-softmax", "llm"] {
            assert!(exempt.iter().all(|(e, _)| *e != id), "#/{id}");
        }
        assert_eq!(routes(&files).split(' ').count(), METAS.len() - exempt.len());
    }

    /// `(name, data-value, shown value)` of each figure in a page.
    fn figures_of(html: &str) -> Vec<(String, String, String)> {
        html.split(r#"<div class="metric" data-metric=""#)
            .skip(1)
            .map(|part| {
                let name = part.split('"').next().unwrap().to_string();
                let raw = part.split(r#"data-value=""#).nth(1).unwrap().split('"').next().unwrap().to_string();
                let shown = part.split(r#"<span class="metric-value">"#).nth(1).unwrap();
                let shown = crate::prerender::tests::text_of(shown.split("</div>").next().unwrap());
                (name, raw, shown)
            })
            .collect()
    }

    #[test]
    fn the_figures_are_the_simulations_at_the_default_view() {
        setup();
        for (meta, hook) in METAS.iter().zip(SNAPSHOTS) {
            for lang in [Lang::En, Lang::Zh] {
                let Snapshot::View(view) = hook(lang, WIDTHS[0].1) else { continue };
                let (html, _) = page(lang, meta, METAS, &view, false);
                let shown = figures_of(&html);
                assert!(!shown.is_empty(), "#/{} has key figures", meta.id);
                let valued: Vec<&Metric> = view.figures.iter().filter(|m| !view.pending.0.contains(&m.name)).collect();
                assert_eq!(shown.len(), valued.len());
                assert_eq!(html.matches(r#"data-state="checking""#).count(), view.pending.0.len());
                for (m, (name, raw, text)) in valued.into_iter().zip(&shown) {
                    assert_eq!(name, m.name);
                    assert_eq!(raw, &esc(&m.raw()));
                    let want = match m.word_key() {
                        Some(k) => tr(lang, &k),
                        None => format_metric(m),
                    };
                    assert_eq!(text, &esc(&want), "#/{} {}", meta.id, m.name);
                    assert!(!m.raw().contains("NaN"), "#/{} {} is computed", meta.id, m.name);
                    // Every figure the snapshot shows is one the panel declares.
                    assert!(meta.metrics.contains(&m.name), "#/{} shows {} it does not declare", meta.id, m.name);
                }
            }
        }
    }

    #[test]
    fn many_figures_draw_in_the_narrower_column_they_leave() {
        setup();
        let (files, _) = files(METAS, SNAPSHOTS, "b");
        let svg_width = |name: &str| {
            let (_, html) = files.iter().find(|(n, _)| n == name).expect(name);
            html.split(r#"class="snap-svg" width=""#).nth(1).unwrap().split('"').next().unwrap().to_string()
        };
        // #/gpu-vs-tpu shows ten figures (three to a row beside its drawing),
        // #/tiling six; a phone has no side column.
        assert_eq!(wide_width(10), 726.0);
        assert_eq!(svg_width("snap/gpu-vs-tpu.en.wide-b.html"), "726");
        assert_eq!(svg_width("snap/tiling.en.wide-b.html"), "816");
        assert_eq!(svg_width("snap/gpu-vs-tpu.zh.narrow-b.html"), "351");
    }

    #[test]
    fn the_systolic_snapshot_is_its_first_cycle() {
        use crate::sim::systolic::Systolic;
        use crate::topics::systolic;
        setup();
        let (v, _) = systolic::META.parse(&[]);
        let sim = Systolic::new(systolic::systolic_params(&v));
        sim.check();
        let Snapshot::View(view) = systolic::snapshot(Lang::Zh, 351.0) else { panic!("systolic has a snapshot") };
        let want: Vec<Metric> =
            sim.metrics_checked(0).into_iter().filter(|m| systolic::CARDS.contains(&m.name)).collect();
        assert_eq!(view.figures, want);
        assert!(view.figures.iter().any(|m| m.name == "max-abs-error" && m.value == 0.0), "the check ran");
        let Stage::Scene(scene) = &view.stage else { panic!("a drawing") };
        assert_eq!(scene.width, 351.0);
        assert!(view.label.starts_with(&tr(Lang::Zh, "param.cycle")));
    }

    #[test]
    fn a_page_is_the_panel_frame_in_its_language_with_balanced_tags() {
        setup();
        let meta = METAS.iter().find(|m| m.id == "online-softmax").unwrap();
        for lang in [Lang::En, Lang::Zh] {
            let Snapshot::View(view) = crate::topics::online_softmax::snapshot(lang, 816.0) else { panic!() };
            let (html, skipped) = page(lang, meta, METAS, &view, true);
            assert!(skipped.is_empty());
            assert!(html.starts_with(&format!(r#"<div class="app static-snap" data-lang="{}""#, lang.code())));
            assert!(html.contains(&format!("<h1>{}</h1>", esc(&tr(lang, "topic.online-softmax.title")))));
            assert!(html.contains(r#"<figure class="scene snap-scene"><svg "#));
            assert!(html.contains(r#"width="816""#));
            for tag in [
                "div", "a", "span", "main", "header", "footer", "nav", "p", "button", "h1", "svg", "figure", "article",
                "section", "text", "h2", "aside",
            ] {
                let open = html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
                assert_eq!(open, html.matches(&format!("</{tag}>")).count(), "<{tag}> {lang:?}");
            }
        }
        let Snapshot::View(view) = crate::topics::online_softmax::snapshot(Lang::En, 351.0) else { panic!() };
        let en = page(Lang::En, meta, METAS, &view, false);
        assert!(!en.0.contains("{") && !en.0.contains("topic.online-softmax"), "no raw key or placeholder");
    }

    #[test]
    fn flash_shows_its_checks_pending() {
        setup();
        let Snapshot::View(view) = crate::topics::flash::snapshot(Lang::En, 816.0) else { panic!() };
        assert_eq!(view.pending.0, ["max-abs-error", "grad-max-abs-error"]);
        let meta = METAS.iter().find(|m| m.id == "flash").unwrap();
        let (html, _) = page(Lang::En, meta, METAS, &view, true);
        assert!(html
            .contains(&format!(r#"<span class="metric-value muted">{}</span>"#, esc(&tr(Lang::En, "flash.checking")))));
        assert!(!html.contains("NaN"));
    }

    #[test]
    fn the_llm_snapshot_is_its_roofline_drawn_and_its_figures() {
        setup();
        let Snapshot::View(view) = crate::topics::llm::snapshot(Lang::En, 351.0) else { panic!() };
        let Stage::Chart { svg, .. } = &view.stage else { panic!("a chart") };
        let height: f64 = svg.split(r#" height=""#).nth(1).and_then(|h| h.split('"').next()).unwrap().parse().unwrap();
        assert!(height > 351.0, "taller than wide on a phone: {height}");
        // Every operator that computes is a dot, labelled in the page's language.
        let (v, _) = crate::topics::llm::META.parse(&[]);
        let dots = crate::topics::llm::roofline_spec(&v, Lang::En).dots;
        assert!(!dots.is_empty());
        assert_eq!(svg.matches("<circle").count(), dots.len());
        // (Dots on one spot share a label, their names joined and wrapped.)
        let texts: Vec<&str> =
            svg.split("<text ").skip(1).map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap()).collect();
        let texts = texts.join(" ");
        for d in &dots {
            assert!(texts.contains(&esc(&d.label)), "{} in {texts}", d.label);
        }
        let raw = |ms: &[Metric]| ms.iter().map(|m| (m.name, m.raw())).collect::<Vec<_>>();
        assert_eq!(raw(&view.figures), raw(&crate::topics::llm::metrics(&v)));
    }

    #[test]
    fn names_and_the_stamp() {
        assert_eq!(file_name("flash", Lang::Zh, "wide", "0123"), "snap/flash.zh.wide-0123.html");
        let html = format!("<head>\n{PRE_TAG}\n</head>");
        let stamped = stamp(&html, "0123", "flash systolic").unwrap();
        assert!(
            stamped.contains(r#"<script src="./pre.js" data-snap="0123" data-snap-routes="flash systolic"></script>"#)
        );
        assert!(stamp(&stamped, "0123", "x").is_err(), "stamped twice");
        let files = vec![
            ("snap/flash.en.narrow.b.html".to_string(), String::new()),
            ("snap/flash.zh.wide.b.html".to_string(), String::new()),
            ("snap/online-softmax.en.narrow.b.html".to_string(), String::new()),
        ];
        assert_eq!(routes(&files), "flash online-softmax");
    }
}
