//! A scene: what a canvas should show, as plain data. Drawing functions in
//! `draw/` turn simulation state into a `Scene` (pure, tested natively); the
//! thin canvas adapter in `ui::canvas` paints it.

/// The canvas's fonts (`ui::kit::paint`; the static snapshots' SVG, `scene_svg`, uses the same).
pub const FONT_STACK: &str = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";

/// A colour with alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba(r, g, b, 255)
    }
    pub fn css(self) -> String {
        if self.3 == 255 {
            format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
        } else {
            format!("rgba({},{},{},{:.3})", self.0, self.1, self.2, self.3 as f64 / 255.0)
        }
    }
    /// Linear mix: `t = 0` gives `self`, `t = 1` gives `other`.
    pub fn mix(self, other: Rgba, t: f32) -> Rgba {
        let t = t.clamp(0.0, 1.0);
        let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Rgba(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2), m(self.3, other.3))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: Option<Rgba>,
        stroke: Option<(Rgba, f64)>,
    },
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        color: Rgba,
        width: f64,
    },
    /// `(x, y)` is the anchor at the text's vertical middle.
    Text {
        x: f64,
        y: f64,
        text: String,
        size: f64,
        color: Rgba,
        align: Align,
        bold: bool,
    },
    /// An image of `px_w × px_h` RGBA pixels scaled (without smoothing) into the rectangle.
    Bitmap {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        px_w: u32,
        px_h: u32,
        rgba: Vec<u8>,
    },
}

/// Sizes are CSS pixels; the adapter multiplies by devicePixelRatio.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub background: Rgba,
    pub shapes: Vec<Shape>,
}

impl Scene {
    pub fn new(width: f64, height: f64, background: Rgba) -> Self {
        Scene { width, height, background, shapes: Vec::new() }
    }
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: Option<Rgba>, stroke: Option<(Rgba, f64)>) {
        self.shapes.push(Shape::Rect { x, y, w, h, fill, stroke });
    }
    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Rgba, width: f64) {
        self.shapes.push(Shape::Line { x1, y1, x2, y2, color, width });
    }
    #[allow(clippy::too_many_arguments)] // a drawing primitive: position, content, style
    pub fn text(&mut self, x: f64, y: f64, text: impl Into<String>, size: f64, color: Rgba, align: Align, bold: bool) {
        self.shapes.push(Shape::Text { x, y, text: text.into(), size, color, align, bold });
    }
    /// `text` in lines no wider than `max_w` (see [`wrap`]), the first
    /// line's middle at `y`, each line `1.25 × size` below the one before;
    /// returns the height the lines take.
    #[allow(clippy::too_many_arguments)] // text() and a width
    pub fn text_wrapped(&mut self, x: f64, y: f64, text: &str, size: f64, max_w: f64, color: Rgba, bold: bool) -> f64 {
        // [`text_width`] measures regular type; bold Latin letters are up to
        // a fifth wider ("TPU" 2.2 em, not 1.7): a bold line wraps with room
        // to spare, or it runs into what stands beside it.
        let room = if bold { max_w * 0.92 } else { max_w };
        self.text_lines(x, y, &wrap(text, size, room), size, color, bold)
    }
    /// Lines of text (from [`wrap`]) as [`Scene::text_wrapped`] draws them.
    pub fn text_lines(&mut self, x: f64, y: f64, lines: &[String], size: f64, color: Rgba, bold: bool) -> f64 {
        for (i, line) in lines.iter().filter(|l| !l.is_empty()).enumerate() {
            self.text(x, y + i as f64 * size * 1.25, line.as_str(), size, color, Align::Left, bold);
        }
        lines.len() as f64 * size * 1.25
    }
    /// The size of the smallest non-blank text of at least `min` pixels.
    pub fn smallest_text(&self, min: f64) -> Option<f64> {
        self.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { size, text, .. } if *size >= min && !text.trim().is_empty() => Some(*size),
                _ => None,
            })
            .reduce(f64::min)
    }
    /// Each non-empty text's box: (text, left, top, right, bottom), at a
    /// bold letter's width a fifth over [`text_width`] (tests of overlap).
    pub fn text_boxes(&self) -> Vec<(String, f64, f64, f64, f64)> {
        self.shapes
            .iter()
            .filter_map(|sh| match sh {
                Shape::Text { x, y, text, size, align, bold, .. } if !text.trim().is_empty() => {
                    let w = text_width(text, *size) * if *bold { 1.2 } else { 1.0 };
                    let left = match align {
                        Align::Left => *x,
                        Align::Center => x - w / 2.0,
                        Align::Right => x - w,
                    };
                    Some((text.clone(), left, y - size / 2.0, left + w, y + size / 2.0))
                }
                _ => None,
            })
            .collect()
    }
    /// All the text in the scene (for tests).
    pub fn texts(&self) -> Vec<&str> {
        self.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// What a screen reader reads for the canvas: `caption`, then the text the
    /// scene draws (labels and figures), each once, in drawing order, up to
    /// about 600 characters.
    pub fn text_alternative(&self, caption: &str) -> String {
        let caption = caption.trim();
        let mut out = caption.to_string();
        let mut seen: Vec<&str> = Vec::new();
        // The drawing often prints the caption itself, whole or wrapped over
        // lines: read it once, not again among the labels (a line of two or
        // more words found in the caption; a lone figure like "12" is kept).
        let in_caption = |t: &str| t == caption || (t.contains(' ') && caption.contains(t));
        for text in self.texts().into_iter().map(str::trim) {
            if text.is_empty() || seen.contains(&text) || in_caption(text) {
                continue;
            }
            if out.len() + text.len() > 600 {
                out.push_str(" …");
                break;
            }
            seen.push(text);
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(text);
        }
        out
    }
}

impl Shape {
    /// Is this a text smaller than `min` pixels? Projected, such a label is
    /// left out rather than shown as noise (its figures stay in the text
    /// alternative and the readouts).
    pub fn text_under(&self, min: f64) -> bool {
        matches!(self, Shape::Text { size, .. } if *size < min)
    }

    /// The same shape moved by `(dx, dy)`.
    pub fn moved(&self, dx: f64, dy: f64) -> Shape {
        let mut s = self.clone();
        match &mut s {
            Shape::Rect { x, y, .. } | Shape::Text { x, y, .. } | Shape::Bitmap { x, y, .. } => {
                *x += dx;
                *y += dy;
            }
            Shape::Line { x1, y1, x2, y2, .. } => {
                *x1 += dx;
                *x2 += dx;
                *y1 += dy;
                *y2 += dy;
            }
        }
        s
    }
}

/// Is `c` drawn a full em wide (CJK ideographs, kana, hangul, full-width forms)?
fn wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

/// The width of `text` at `size` pixels, estimated without a canvas: about
/// 0.56 em per character of a bold sans-serif font, a full em for CJK.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if wide(c) { 1.0 } else { 0.56 }).sum::<f64>() * size
}

/// `text` broken into lines no wider than `max_w` at `size` pixels: at
/// spaces, and between any two CJK characters. A word wider than a line
/// keeps a line of its own.
pub fn wrap(text: &str, size: f64, max_w: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // Pieces that may start a line: a word with the spaces after it, or one
    // CJK character. Closing punctuation stays with what it closes.
    let closing = |c: char| "，。、；：！？）」』》〉】”’,.;:!?)".contains(c);
    // A number (or the "/" after one) keeps what follows it (its unit, or
    // "/ 16"): never "17.9" at a line's end and "µs" at the next one's start.
    let holds_next = |p: &str| {
        let last = p.split_whitespace().last().unwrap_or("");
        last == "/"
            || (last.starts_with(|c: char| c.is_ascii_digit()) && last.chars().all(|c| "0123456789.,%".contains(c)))
    };
    let mut pieces: Vec<String> = Vec::new();
    for c in text.chars() {
        let starts = pieces.is_empty()
            || (!pieces.last().is_some_and(|p| holds_next(p))
                && ((wide(c) && !closing(c))
                    || (c != ' '
                        && !closing(c)
                        && pieces.last().is_some_and(|p| p.ends_with(' ') || p.chars().last().is_some_and(wide)))));
        if starts {
            pieces.push(c.to_string());
        } else {
            pieces.last_mut().expect("a piece").push(c);
        }
    }
    for piece in pieces {
        let candidate = format!("{line}{piece}");
        if line.is_empty() || text_width(candidate.trim_end(), size) <= max_w {
            line = candidate;
        } else {
            lines.push(line.trim_end().to_string());
            line = piece.trim_start().to_string();
        }
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// The height a chart's title (a bold `h2` at the page's 1rem, line height
/// 1.5, .3rem under it) takes over `width` CSS pixels, in the page's usual
/// type (16 px, 21 px projected; `type_scale` times that on a wide projected
/// screen): what a chart sized to the screen reserves above itself. A long
/// title wraps; reserving one line for it pushes the chart off the screen.
pub fn chart_title_reserve(title: &str, width: f64, present: bool, type_scale: f64) -> f64 {
    let rem = if present { 21.0 } else { 16.0 };
    // Bold type runs wider than [`text_width`]'s estimate (see `Scene::text_wrapped`).
    let lines = wrap(title, rem * type_scale, width.max(1.0) * 0.92).len().max(1) as f64;
    (lines * 1.5 + 0.3) * rem + 4.0
}

/// A slide of a scene: the panel's title above it and its key figures
/// (label, value) in a grid below, for "save PNG with figures".
pub fn slide(scene: &Scene, title: &str, figures: &[(String, String)], theme: &Theme) -> Scene {
    const PAD: f64 = 16.0;
    const CELL_W: f64 = 210.0;
    const CELL_H: f64 = 54.0;
    let ts = theme.text_scale;
    let width = scene.width.max(2.0 * CELL_W + 2.0 * PAD);
    let cols = (((width - 2.0 * PAD) / CELL_W).floor() as usize).max(1);
    let rows = figures.len().div_ceil(cols);
    let top = PAD + 30.0 * ts;
    let below = top + scene.height + 12.0;
    let height = below + rows as f64 * CELL_H * ts + PAD;
    let mut out = Scene::new(width, height, scene.background);
    out.text(PAD, PAD + 12.0 * ts, title, 20.0 * ts, theme.fg, Align::Left, true);
    out.shapes.extend(scene.shapes.iter().map(|s| s.moved(0.0, top)));
    for (i, (label, value)) in figures.iter().enumerate() {
        let x = PAD + (i % cols) as f64 * CELL_W;
        let y = below + (i / cols) as f64 * CELL_H * ts;
        out.rect(x, y, CELL_W - 8.0, CELL_H * ts - 6.0, None, Some((theme.grid, 1.0)));
        out.text(x + 8.0, y + 13.0 * ts, label.as_str(), 12.0 * ts, theme.muted, Align::Left, false);
        out.text(x + 8.0, y + 33.0 * ts, value.as_str(), 19.0 * ts, theme.fg, Align::Left, true);
    }
    out
}

/// Colours and scales for normal and projector ("present") mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub present: bool,
    pub bg: Rgba,
    pub fg: Rgba,
    pub muted: Rgba,
    pub grid: Rgba,
    pub waiting: Rgba,
    pub busy: Rgba,
    pub busy_hot: Rgba,
    pub done: Rgba,
    pub weight: Rgba,
    pub a_color: Rgba,
    pub b_color: Rgba,
    pub fill_tint: Rgba,
    pub steady_tint: Rgba,
    pub drain_tint: Rgba,
    pub load_tint: Rgba,
    /// Multiplies every font size.
    pub text_scale: f64,
    /// Multiplies every line width.
    pub line_scale: f64,
}

impl Theme {
    pub fn normal() -> Self {
        Theme {
            present: false,
            bg: Rgba::rgb(255, 255, 255),
            fg: Rgba::rgb(28, 32, 40),
            muted: Rgba::rgb(110, 118, 132),
            grid: Rgba::rgb(196, 202, 212),
            waiting: Rgba::rgb(238, 240, 245),
            busy: Rgba::rgb(255, 196, 120),
            busy_hot: Rgba::rgb(235, 110, 20),
            done: Rgba::rgb(120, 160, 235),
            weight: Rgba::rgb(214, 196, 245),
            a_color: Rgba::rgb(20, 90, 200),
            b_color: Rgba::rgb(16, 130, 60),
            fill_tint: Rgba::rgb(70, 130, 230),
            steady_tint: Rgba::rgb(30, 150, 80),
            drain_tint: Rgba::rgb(225, 120, 30),
            load_tint: Rgba::rgb(110, 60, 160),
            text_scale: 1.0,
            line_scale: 1.0,
        }
    }
    /// High contrast, large type, thick lines: legible projected at 1024×768.
    pub fn present() -> Self {
        Theme {
            present: true,
            fg: Rgba::rgb(0, 0, 0),
            muted: Rgba::rgb(40, 40, 40),
            grid: Rgba::rgb(60, 60, 60),
            waiting: Rgba::rgb(230, 230, 230),
            busy: Rgba::rgb(255, 170, 60),
            busy_hot: Rgba::rgb(220, 80, 0),
            done: Rgba::rgb(80, 130, 230),
            a_color: Rgba::rgb(0, 50, 180),
            b_color: Rgba::rgb(0, 100, 30),
            text_scale: 1.5,
            line_scale: 2.0,
            ..Theme::normal()
        }
    }
    /// The smallest text a drawing may use in this mode: 12 px (legible in
    /// a 960 × 540 embed), 18 px projected.
    pub fn min_text(&self) -> f64 {
        12.0 * self.text_scale
    }
    pub fn for_mode(present: bool) -> Self {
        if present {
            Self::present()
        } else {
            Self::normal()
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_chart_title_reserves_its_lines() {
        use super::chart_title_reserve;
        let growth = "Growth per 2 years (CS336 slides, after Gholami et al., “AI and Memory Wall”): compute 3.0×, DRAM bandwidth 1.6×, interconnect 1.4×";
        // One line: about the 36 px the short titles reserve projected.
        let one = chart_title_reserve("Roofline", 640.0, true, 1.0);
        assert!((36.0..44.0).contains(&one), "{one}");
        // Projected at 1024 × 768 the growth line takes three lines in a 645 px column.
        let three = chart_title_reserve(growth, 645.0, true, 1.0);
        assert!(three >= 3.0 * 31.5, "{three}");
        // On a wide projected screen the type grows, and so do the lines.
        assert!(chart_title_reserve(growth, 1000.0, true, 1.28) > chart_title_reserve(growth, 1000.0, true, 1.0));
        assert!(chart_title_reserve(growth, 1100.0, false, 1.0) < three);
    }

    #[test]
    fn wrapping() {
        // 0.56 em per Latin character: 10 px text, 60 px lines hold 10 characters.
        assert_eq!(wrap("one two three four", 10.0, 60.0), ["one two", "three four"]);
        assert_eq!(wrap("short", 10.0, 60.0), ["short"]);
        assert_eq!(wrap("", 10.0, 60.0), [""]);
        assert_eq!(wrap("unbreakableword x", 10.0, 30.0), ["unbreakableword", "x"]);
        // CJK: a full em each, breaks between any two.
        assert_eq!(wrap("脉动阵列周期", 10.0, 40.0), ["脉动阵列", "周期"]);
        // Closing punctuation never starts a line.
        assert_eq!(wrap("脉动阵列，周期", 10.0, 40.0), ["脉动阵", "列，周期"]);
        assert_eq!(wrap("   ", 10.0, 60.0), [""]);
        assert_eq!(wrap("a b", 10.0, 0.0), ["a", "b"]);
        assert_eq!(wrap("a b", 10.0, f64::NAN), ["a", "b"]);
        // A number and what follows it stay on one line.
        assert_eq!(wrap("H100 takes 17.9 µs", 10.0, 90.0), ["H100 takes", "17.9 µs"]);
        assert_eq!(wrap("H100 takes", 10.0, 30.0), ["H100", "takes"], "a name is not a number");
        assert_eq!(wrap("Cycle 0 / 16 PE", 10.0, 50.0), ["Cycle", "0 / 16 PE"]);
        assert_eq!(wrap("带宽 1.6 倍", 10.0, 40.0), ["带宽", "1.6 倍"]);
        assert_eq!(wrap("周期 3：A 进入", 10.0, 40.0).concat().replace(' ', ""), "周期3：A进入");
        for line in wrap("Output-stationary: row i of A enters from the left i cycles late", 12.0, 150.0) {
            assert!(text_width(&line, 12.0) <= 150.0 || !line.contains(' '), "{line}");
        }
        let mut scene = Scene::new(100.0, 100.0, Rgba::rgb(0, 0, 0));
        let h = scene.text_wrapped(0.0, 10.0, "one two three four", 10.0, 60.0, Rgba::rgb(1, 1, 1), false);
        assert_eq!(scene.texts(), ["one two", "three four"]);
        assert_eq!(h, 25.0);
        scene.text_wrapped(0.0, 10.0, "", 10.0, 60.0, Rgba::rgb(1, 1, 1), true);
        assert_eq!(scene.texts().len(), 2, "no empty text shape");
        // Bold is wider than text_width measures: it wraps with room to spare
        // ("three four" is 56 px regular, about 65 bold).
        let mut bold = Scene::new(100.0, 100.0, Rgba::rgb(0, 0, 0));
        bold.text_wrapped(0.0, 10.0, "three four", 10.0, 60.0, Rgba::rgb(1, 1, 1), true);
        assert_eq!(bold.texts(), ["three", "four"]);
    }

    use super::*;

    #[test]
    fn css_and_mix() {
        assert_eq!(Rgba::rgb(255, 0, 16).css(), "#ff0010");
        assert_eq!(Rgba(0, 0, 0, 0).css(), "rgba(0,0,0,0.000)");
        assert_eq!(Rgba::rgb(0, 0, 0).mix(Rgba::rgb(200, 100, 50), 0.5), Rgba::rgb(100, 50, 25));
    }

    #[test]
    fn slide_keeps_the_scene_and_adds_title_and_figures() {
        let th = Theme::normal();
        let mut sc = Scene::new(300.0, 200.0, th.bg);
        sc.text(10.0, 10.0, "cell", 12.0, th.fg, Align::Left, false);
        let figs = vec![("Cycles".to_string(), "12".to_string()), ("Utilization".to_string(), "50%".to_string())];
        let s = slide(&sc, "Systolic array", &figs, &th);
        assert_eq!(s.texts(), vec!["Systolic array", "cell", "Cycles", "12", "Utilization", "50%"]);
        assert!(s.width >= 300.0 && s.height > 200.0 + 54.0);
        let moved = s.shapes.iter().find_map(|x| match x {
            Shape::Text { text, y, .. } if text == "cell" => Some(*y),
            _ => None,
        });
        assert!(moved.unwrap() > 10.0);
    }

    #[test]
    fn text_alternative_reads_caption_then_each_label_once() {
        let mut s = Scene::new(100.0, 100.0, Rgba::rgb(255, 255, 255));
        for t in ["PE 0,0", " 12 ", "PE 0,0", "", "A"] {
            s.text(0.0, 0.0, t, 10.0, Rgba::rgb(0, 0, 0), Align::Left, false);
        }
        assert_eq!(s.text_alternative("Cycle 3 of 12"), "Cycle 3 of 12; PE 0,0; 12; A");
        assert_eq!(s.text_alternative(""), "PE 0,0; 12; A");
        // The caption drawn on the canvas (whole, or wrapped over two lines) is read once.
        let mut c = Scene::new(100.0, 100.0, Rgba::rgb(255, 255, 255));
        for t in ["Step 3: warp 0 runs the then-branch", "Step 3: warp 0", "runs the then-branch", "lane 7"] {
            c.text(0.0, 0.0, t, 10.0, Rgba::rgb(0, 0, 0), Align::Left, false);
        }
        assert_eq!(
            c.text_alternative("Step 3: warp 0 runs the then-branch"),
            "Step 3: warp 0 runs the then-branch; lane 7"
        );
        for _ in 0..200 {
            s.text(0.0, 0.0, format!("{}", s.shapes.len()), 10.0, Rgba::rgb(0, 0, 0), Align::Left, false);
        }
        let long = s.text_alternative("c");
        assert!(long.len() <= 610 && long.ends_with(" …"), "{long}");
    }

    #[test]
    fn small_text_can_be_left_out() {
        let th = Theme::present();
        let mut sc = Scene::new(100.0, 100.0, th.bg);
        sc.text(0.0, 0.0, "big", 20.0, th.fg, Align::Left, false);
        sc.text(0.0, 0.0, "tiny", 9.0, th.fg, Align::Left, false);
        sc.rect(0.0, 0.0, 5.0, 5.0, Some(th.fg), None);
        let kept: Vec<&Shape> = sc.shapes.iter().filter(|s| !s.text_under(17.5)).collect();
        assert_eq!(kept.len(), 2);
        assert!(matches!(kept[0], Shape::Text { text, .. } if text == "big"));
        assert_eq!(sc.smallest_text(17.5), Some(20.0));
        assert_eq!(sc.smallest_text(0.0), Some(9.0));
        assert_eq!(Scene::new(1.0, 1.0, th.bg).smallest_text(0.0), None);
    }
}
