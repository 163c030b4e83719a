//! The start page as static HTML, written at build time into `index.html`'s
//! boot placeholder (`<div id="boot">`) by the native binary (`warpscope
//! strings <dir>`, Trunk.toml's post_build hook), in both languages: a first
//! visit sees the topic cards while the wasm is still arriving (issue 33).
//!
//! The markup is the app's own first render of `#/` (src/ui/app/shell and
//! src/ui/app/pages/landing.rs: the same elements and classes, so the same
//! stylesheet lays it out identically) for a first visit (no last panel, no
//! deck, no study path stored); `web/pre.js` marks `<html>` with the language
//! and the route before the body paints, and the stylesheet shows the copy of
//! that language on the start route only. The app removes the placeholder
//! with its copies when its first render goes in (src/ui/app/mod.rs);
//! tests/e2e/static-start.test.mjs checks that nothing moves.
//!
//! Without `data-testid`s: the tests' selectors name the app's elements.

use crate::i18n::{tr, trf, Lang};
use crate::topic::{Part, TopicMeta};

pub mod snap;

/// The placeholder trunk's staged `index.html` carries (index.html).
pub const PLACEHOLDER: &str = r#"<div id="boot" class="boot">Warpscope…</div>"#;

/// `text` for HTML text and double-quoted attribute values. (one escape for the app, the
/// static pages and the SVG: `i18n::escape_html`).
pub fn esc(text: &str) -> String {
    crate::i18n::escape_html(text)
}

/// The `lang` attribute the app gives `<html>` for a language.
pub fn html_lang(lang: Lang) -> &'static str {
    if lang == Lang::Zh {
        "zh-CN"
    } else {
        "en"
    }
}

/// A topic card's section line (as `ui::kit::ctx::section_line`).
pub fn section_line(lang: Lang, meta: &TopicMeta) -> String {
    let sections = meta.sections.join(", ");
    match meta.demo {
        "" | "—" => trf(lang, "landing.section-notes", &[("s", &sections)]),
        demo => trf(lang, "landing.section", &[("s", &sections), ("d", demo)]),
    }
}

/// The app's site header (brand, practice, language, projector), its links
/// carrying the page's globals `q` (src/ui/app/shell).
pub fn site_header(lang: Lang, q: &str) -> String {
    let t = |key: &str| esc(&tr(lang, key));
    let mut h = String::with_capacity(1024);
    h.push_str(&format!(
        r##"<header class="site-header"><a class="brand" href="#/?{q}"><span class="brand-mark">◆</span><span class="brand-name">{}</span><span class="brand-tagline">{}</span></a>"##,
        t("app.name"),
        t("app.tagline")
    ));
    h.push_str(&format!(
        r##"<nav class="site-nav"><a class="practice-toggle" title="{}" href="#/practice?{q}">{}</a><button class="lang-switch" title="{}">{}</button><button class="present-toggle" title="{}" aria-pressed="false">{}</button></nav></header>"##,
        t("practice.toggle.title"),
        t("practice.toggle"),
        t("app.lang-switch.title"),
        t("app.lang-switch"),
        t("app.present.title"),
        t("app.present")
    ));
    h
}

/// The app's shell around its start page, in `lang`, as a first visit sees
/// it: `<div class="app">` with its header, the landing page and the footer.
pub fn start_page(lang: Lang, topics: &[&TopicMeta]) -> String {
    let t = |key: &str| esc(&tr(lang, key));
    let code = lang.code();
    // The app's links carry the page's globals (`AppCtx::globals`): `lang=`.
    let q = format!("lang={code}");
    let mut h = String::with_capacity(32 * 1024);
    h.push_str(&format!(r#"<div class="app static-start" data-lang="{code}" lang="{}">"#, html_lang(lang)));
    h.push_str(&site_header(lang, &q));
    h.push_str(r#"<main class="site-main"><div class="landing">"#);
    h.push_str(&format!(r#"<h1>{}</h1><p class="lead">{}</p>"#, t("landing.title"), t("landing.intro")));
    h.push_str(r#"<div class="lecture-links">"#);
    h.push_str(&format!(
        r##"<a class="lecture-link primary" href="#/lecture?{q}"><strong>{}</strong><span>{}</span></a>"##,
        t("lecture.present"),
        t("lecture.present.title")
    ));
    h.push_str(&format!(
        r##"<a class="lecture-link" href="#/lecture?study=1&amp;{q}"><strong>{}</strong><span>{}</span></a>"##,
        t("lecture.study"),
        t("lecture.study.title")
    ));
    h.push_str(&format!(
        r##"<a class="lecture-link" href="#/practice?{q}"><strong>{}</strong><span>{}</span></a></div>"##,
        t("practice.round.start"),
        t("practice.round.intro")
    ));
    // No deck stored on a first visit.
    h.push_str(&format!(
        r##"<p class="landing-deck">{} <a href="#/deck?{q}" class="deck-open">{}</a></p>"##,
        t("landing.deck"),
        esc(&trf(lang, "deck.open-n", &[("n", "0")]))
    ));
    for part in Part::ALL.into_iter().filter(|p| topics.iter().any(|t| t.part == *p)) {
        h.push_str(&format!(r#"<section class="landing-part"><h2>{}</h2><div class="cards">"#, t(part.key())));
        for meta in topics.iter().filter(|t| t.part == part) {
            // Without the app card's data-params / data-param-spec (what
            // tools and tests read from the app's cards): 2.4 of the static
            // pages' 9.3 KB gzip on every entry point, and nothing shown.
            h.push_str(&format!(
                r##"<div class="card" data-topic="{id}"><a class="card-link" href="#/{id}?{q}"><span class="card-section">{}</span><span class="card-title">{}</span><span class="card-summary">{}</span><span class="card-open">{} →</span></a></div>"##,
                esc(&section_line(lang, meta)),
                t(&format!("topic.{}.title", meta.id)),
                t(&format!("topic.{}.summary", meta.id)),
                t("landing.open"),
                id = meta.id,
            ));
        }
        h.push_str("</div></section>");
    }
    h.push_str("</div></main>");
    h.push_str(&format!(r#"<footer class="site-footer"><p>{}</p></footer></div>"#, t("app.footer")));
    h
}

/// The boot placeholder with the start page of both languages in it, and
/// the boot line (shown on every other route, and without script).
pub fn boot_block(topics: &[&TopicMeta]) -> String {
    format!(
        r#"<div id="boot" class="boot"><span class="boot-line">Warpscope…</span>{}{}</div>"#,
        start_page(Lang::En, topics),
        start_page(Lang::Zh, topics)
    )
}

/// `index.html` with its boot placeholder filled; an error if it has none
/// (or more than one).
pub fn fill(index_html: &str, topics: &[&TopicMeta]) -> Result<String, String> {
    match index_html.matches(PLACEHOLDER).count() {
        1 => Ok(index_html.replacen(PLACEHOLDER, &boot_block(topics), 1)),
        n => Err(format!("index.html has {n} boot placeholders ({PLACEHOLDER}), not one")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> &'static [&'static TopicMeta] {
        crate::topics::install_texts();
        crate::topics::METAS
    }

    /// The text content of a fragment (tags out), entities left as written.
    pub(super) fn text_of(html: &str) -> String {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn every_topic_has_a_card_in_both_languages() {
        let metas = setup();
        for lang in [Lang::En, Lang::Zh] {
            let page = start_page(lang, metas);
            assert_eq!(page.matches(r#"<div class="card" "#).count(), metas.len(), "{lang:?}");
            for m in metas {
                assert!(page.contains(&format!(r##"href="#/{}?lang={}""##, m.id, lang.code())), "{}", m.id);
                let title = esc(&tr(lang, &format!("topic.{}.title", m.id)));
                assert!(page.contains(&format!(r#"<span class="card-title">{title}</span>"#)), "{} {lang:?}", m.id);
            }
        }
    }

    #[test]
    fn no_raw_key_or_placeholder_and_the_languages_differ() {
        let metas = setup();
        let (en, zh) = (start_page(Lang::En, metas), start_page(Lang::Zh, metas));
        for page in [&en, &zh] {
            let text = text_of(page);
            // A raw key is its namespace then more key ("topic.flash.title"),
            // not a sentence that ends on the word ("the smallest topic.").
            for raw in ["landing.", "topic.", "lecture.", "practice.", "deck.", "app."] {
                let keyish = text.match_indices(raw).any(|(i, _)| {
                    text[i + raw.len()..].chars().next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                });
                assert!(!keyish, "{raw:?} in the text of a static start page");
            }
            for raw in ["{", "}"] {
                assert!(!text.contains(raw), "{raw:?} in the text of a static start page");
            }
        }
        assert!(en.contains(r#"data-lang="en" lang="en""#) && zh.contains(r#"data-lang="zh" lang="zh-CN""#));
        assert_ne!(text_of(&en), text_of(&zh));
        // The Chinese page is in Chinese: its title is not the English one.
        assert_ne!(tr(Lang::En, "landing.title"), tr(Lang::Zh, "landing.title"));
        assert!(zh.contains(&esc(&tr(Lang::Zh, "landing.title"))));
    }

    #[test]
    fn tags_balance() {
        let page = boot_block(setup());
        for tag in
            ["div", "a", "span", "section", "main", "header", "footer", "nav", "p", "button", "strong", "h1", "h2"]
        {
            let open = page.matches(&format!("<{tag}>")).count() + page.matches(&format!("<{tag} ")).count();
            assert_eq!(open, page.matches(&format!("</{tag}>")).count(), "<{tag}>");
        }
    }

    #[test]
    fn fills_the_one_placeholder() {
        let metas = setup();
        let html = format!("<body>\n    {PLACEHOLDER}\n    <noscript>x</noscript></body>");
        let filled = fill(&html, metas).unwrap();
        assert!(filled.starts_with(
            r#"<body>
    <div id="boot" class="boot"><span class="boot-line">Warpscope…</span><div class="app static-start" data-lang="en""#
        ));
        assert!(filled.ends_with("</div></div>\n    <noscript>x</noscript></body>"));
        assert!(fill("<body></body>", metas).is_err());
        assert!(fill(&filled, metas).is_err(), "filled twice");
    }

    #[test]
    fn escapes() {
        assert_eq!(esc(r#"a<b & "c">"#), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
