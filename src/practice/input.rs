//! What a learner types and what a question shows, as pure functions: the
//! prediction box's number (or why it can't be read), and a question's text
//! cut into prose and `code` spans (shown as code, never as raw backticks).

/// The prediction box's content.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Typed {
    /// Nothing typed: revealing is "no prediction".
    Empty,
    Number(f64),
    /// Something that is not a number ("五十", "abc"): revealing is refused
    /// with a message, never silently "no prediction".
    Unreadable,
}

/// A number as a person may type it: "1,234", "48 %", "1.5e3", and the
/// full-width digits and signs of a Chinese input method ("５０", "１．５").
pub fn read_number(s: &str) -> Typed {
    let t: String = s
        .chars()
        .map(|c| match c {
            '\u{FF10}'..='\u{FF19}' => char::from(b'0' + (c as u32 - 0xFF10) as u8),
            '．' | '。' => '.',
            '－' | '−' => '-',
            '＋' => '+',
            'Ｅ' | 'ｅ' => 'e',
            c => c,
        })
        .filter(|c| !matches!(c, ',' | '，' | '%' | '％' | ' ' | '\u{3000}' | '_'))
        .collect();
    if t.is_empty() {
        return Typed::Empty;
    }
    match t.parse::<f64>() {
        Ok(x) if x.is_finite() => Typed::Number(x),
        _ => Typed::Unreadable,
    }
}

/// A text cut at its backticks: `(is_code, text)` pieces, in order. An
/// unmatched backtick is kept as a character of the prose.
pub fn code_spans(s: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else { break };
        if open > 0 {
            out.push((false, &rest[..open]));
        }
        out.push((true, &rest[open + 1..open + 1 + len]));
        rest = &rest[open + 1 + len + 1..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_typed() {
        assert_eq!(read_number(""), Typed::Empty);
        assert_eq!(read_number("  "), Typed::Empty);
        assert_eq!(read_number("1,234"), Typed::Number(1234.0));
        assert_eq!(read_number("48 %"), Typed::Number(48.0));
        assert_eq!(read_number("1.5e3"), Typed::Number(1500.0));
        assert_eq!(read_number("５０"), Typed::Number(50.0));
        assert_eq!(read_number("１．５"), Typed::Number(1.5));
        assert_eq!(read_number("－３"), Typed::Number(-3.0));
        // Words are not numbers: the box says so instead of revealing.
        assert_eq!(read_number("五十"), Typed::Unreadable);
        assert_eq!(read_number("abc"), Typed::Unreadable);
        assert_eq!(read_number("inf"), Typed::Unreadable);
        assert_eq!(read_number("1e999"), Typed::Unreadable);
    }

    #[test]
    fn backticks_become_code() {
        assert_eq!(
            code_spans("run `if (tid<100)` now"),
            vec![(false, "run "), (true, "if (tid<100)"), (false, " now")]
        );
        assert_eq!(code_spans("`x` and `y`"), vec![(true, "x"), (false, " and "), (true, "y")]);
        assert_eq!(code_spans("no code"), vec![(false, "no code")]);
        assert_eq!(code_spans("a ` b"), vec![(false, "a ` b")]);
        assert_eq!(code_spans(""), Vec::<(bool, &str)>::new());
    }

    /// Every question of every bank, in both languages: after cutting, no
    /// backtick is left in its prompt or explanation.
    #[test]
    fn no_raw_backticks_in_questions() {
        use crate::i18n::Lang;
        crate::topics::install_texts();
        for b in crate::topics::ALL.iter().map(|t| t.practice) {
            for seed in 0..40 {
                let q = crate::practice::question(b, seed);
                for lang in [Lang::En, Lang::Zh] {
                    for text in [q.prompt.render(lang), q.explain.render(lang)] {
                        for (_, piece) in code_spans(&text) {
                            assert!(!piece.contains('`'), "{} #{seed}: {text}", b.topic);
                        }
                    }
                }
            }
        }
    }
}
