//! A small, safe integer expression language for branch conditions
//! (`tid % 2 == 0`, `(tid / 32) % 2 == 0`, `tid < 100 && !(lane == 3)`).
//!
//! Variables: `tid`, `warp`, `lane`. Integers; `+ - * / %`; comparisons
//! `== != < <= > >=`; `&& || !`; parentheses. Comparisons and logic give 0 or
//! 1; a condition is true when non-zero. Parsing is a precedence climber with
//! a depth limit, so no input can overflow the stack; arithmetic wraps and
//! division or remainder by zero is an error naming the lane.

pub const MAX_LEN: usize = 200;
const MAX_DEPTH: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Tid,
    Warp,
    Lane,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    Var(Var),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// What is wrong with an expression: typed, so that the panel shows it in
/// the reader's language (see [`Syntax::key`]). Shared
/// by this parser and fusion's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Empty,
    TooLong,
    NumberTooLarge,
    NotANumber,
    /// A name the language doesn't know (`tid`, `warp`, `lane` here).
    UnknownName,
    UnknownFunction,
    /// A function name without `(…)`.
    NeedsParens,
    /// `max`/`min` without a second argument.
    TwoArguments,
    /// `=` where `==` was meant.
    UseEq,
    /// `&` where `&&` was meant.
    UseAnd,
    /// `|` where `||` was meant.
    UseOr,
    /// A full-width form (`（`, `＜`, `５`) from a Chinese input method.
    FullWidth,
    UnexpectedChar,
    NestedTooDeeply,
    MissingParen,
    UnexpectedParen,
    /// Where a number, a name or `(` should be (a function too, in fusion).
    ExpectedOperand,
    ExpectedOperator,
    EndsTooSoon,
}

impl Syntax {
    pub const ALL: [Syntax; 19] = [
        Syntax::Empty,
        Syntax::TooLong,
        Syntax::NumberTooLarge,
        Syntax::NotANumber,
        Syntax::UnknownName,
        Syntax::UnknownFunction,
        Syntax::NeedsParens,
        Syntax::TwoArguments,
        Syntax::UseEq,
        Syntax::UseAnd,
        Syntax::UseOr,
        Syntax::FullWidth,
        Syntax::UnexpectedChar,
        Syntax::NestedTooDeeply,
        Syntax::MissingParen,
        Syntax::UnexpectedParen,
        Syntax::ExpectedOperand,
        Syntax::ExpectedOperator,
        Syntax::EndsTooSoon,
    ];

    /// Its translation key (the texts are in the divergence topic's table;
    /// each has an `{at}`, the 1-based character).
    pub fn key(self) -> &'static str {
        match self {
            Syntax::Empty => "syntax.empty",
            Syntax::TooLong => "syntax.too-long",
            Syntax::NumberTooLarge => "syntax.number-too-large",
            Syntax::NotANumber => "syntax.not-a-number",
            Syntax::UnknownName => "syntax.unknown-name",
            Syntax::UnknownFunction => "syntax.unknown-function",
            Syntax::NeedsParens => "syntax.needs-parens",
            Syntax::TwoArguments => "syntax.two-arguments",
            Syntax::UseEq => "syntax.use-eq",
            Syntax::UseAnd => "syntax.use-and",
            Syntax::UseOr => "syntax.use-or",
            Syntax::FullWidth => "syntax.full-width",
            Syntax::UnexpectedChar => "syntax.unexpected-char",
            Syntax::NestedTooDeeply => "syntax.nested-too-deeply",
            Syntax::MissingParen => "syntax.missing-paren",
            Syntax::UnexpectedParen => "syntax.unexpected-paren",
            Syntax::ExpectedOperand => "syntax.expected-operand",
            Syntax::ExpectedOperator => "syntax.expected-operator",
            Syntax::EndsTooSoon => "syntax.ends-too-soon",
        }
    }
}

/// A parse error at character `pos` (0-based, in `char`s) of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: usize,
    pub kind: Syntax,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Var(Var),
    Op(&'static str),
    LParen,
    RParen,
}

/// The error for a character the language has no use for. Chinese input
/// methods type full-width forms (`（`, `＜`, `５`): name the fix.
pub fn unexpected_char(c: char) -> Syntax {
    if ('\u{FF01}'..='\u{FF5E}').contains(&c) || c == '\u{3000}' {
        Syntax::FullWidth
    } else {
        Syntax::UnexpectedChar
    }
}

/// Display columns of a character in a monospace font: East Asian wide and
/// full-width characters and emoji take two.
fn columns(c: char) -> usize {
    let u = c as u32;
    let wide = matches!(u,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF | 0x20000..=0x3FFFD);
    if wide {
        2
    } else {
        1
    }
}

/// The line that goes under `src` to point at character `pos` (a caret after
/// as many columns as the characters before it take).
pub fn caret_line(src: &str, pos: usize) -> String {
    let cols: usize = src.chars().take(pos).map(columns).sum();
    format!("{}^", " ".repeat(cols))
}

/// Tokens with their positions in characters (not bytes: a caret under the
/// input must line up, and slicing by a byte position could split a
/// multi-byte character).
fn lex(src: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    let chars: Vec<char> = src.chars().take(MAX_LEN + 1).collect();
    if chars.len() > MAX_LEN || src.len() > 4 * MAX_LEN {
        return Err(ParseError { pos: MAX_LEN, kind: Syntax::TooLong });
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let n = text.parse::<i64>().map_err(|_| ParseError { pos: start, kind: Syntax::NumberTooLarge })?;
            out.push((start, Tok::Num(n)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let v = match word.as_str() {
                "tid" | "threadIdx" => Var::Tid,
                "warp" => Var::Warp,
                "lane" => Var::Lane,
                _ => return Err(ParseError { pos: start, kind: Syntax::UnknownName }),
            };
            out.push((start, Tok::Var(v)));
            continue;
        }
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let op2 = ["==", "!=", "<=", ">=", "&&", "||"].into_iter().find(|o| {
            let mut it = o.chars();
            it.next() == Some(c) && it.next() == Some(next)
        });
        if let Some(o) = op2 {
            out.push((start, Tok::Op(o)));
            i += 2;
            continue;
        }
        let tok = match c {
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '+' => Tok::Op("+"),
            '-' => Tok::Op("-"),
            '*' => Tok::Op("*"),
            '/' => Tok::Op("/"),
            '%' => Tok::Op("%"),
            '<' => Tok::Op("<"),
            '>' => Tok::Op(">"),
            '!' => Tok::Op("!"),
            '=' => return Err(ParseError { pos: start, kind: Syntax::UseEq }),
            '&' => return Err(ParseError { pos: start, kind: Syntax::UseAnd }),
            '|' => return Err(ParseError { pos: start, kind: Syntax::UseOr }),
            _ => return Err(ParseError { pos: start, kind: unexpected_char(c) }),
        };
        out.push((start, tok));
        i += 1;
    }
    Ok(out)
}

fn binop(op: &str) -> Option<(BinOp, u8)> {
    Some(match op {
        "||" => (BinOp::Or, 1),
        "&&" => (BinOp::And, 2),
        "==" => (BinOp::Eq, 3),
        "!=" => (BinOp::Ne, 3),
        "<" => (BinOp::Lt, 4),
        "<=" => (BinOp::Le, 4),
        ">" => (BinOp::Gt, 4),
        ">=" => (BinOp::Ge, 4),
        "+" => (BinOp::Add, 5),
        "-" => (BinOp::Sub, 5),
        "*" => (BinOp::Mul, 6),
        "/" => (BinOp::Div, 6),
        "%" => (BinOp::Rem, 6),
        _ => return None,
    })
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    i: usize,
    end: usize,
}

impl Parser {
    fn pos(&self) -> usize {
        self.toks.get(self.i).map(|t| t.0).unwrap_or(self.end)
    }

    fn expr(&mut self, min_prec: u8, depth: usize) -> Result<Expr, ParseError> {
        if depth > MAX_DEPTH {
            return Err(ParseError { pos: self.pos(), kind: Syntax::NestedTooDeeply });
        }
        let mut lhs = self.unary(depth)?;
        while let Some((_, Tok::Op(op))) = self.toks.get(self.i) {
            let Some((bop, prec)) = binop(op) else { break };
            if prec < min_prec {
                break;
            }
            self.i += 1;
            let rhs = self.expr(prec + 1, depth + 1)?;
            lhs = Expr::Bin(bop, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, ParseError> {
        if depth > MAX_DEPTH {
            return Err(ParseError { pos: self.pos(), kind: Syntax::NestedTooDeeply });
        }
        let pos = self.pos();
        match self.toks.get(self.i).cloned() {
            Some((_, Tok::Num(n))) => {
                self.i += 1;
                Ok(Expr::Num(n))
            }
            Some((_, Tok::Var(v))) => {
                self.i += 1;
                Ok(Expr::Var(v))
            }
            Some((_, Tok::Op("-"))) => {
                self.i += 1;
                Ok(Expr::Neg(Box::new(self.unary(depth + 1)?)))
            }
            Some((_, Tok::Op("!"))) => {
                self.i += 1;
                Ok(Expr::Not(Box::new(self.unary(depth + 1)?)))
            }
            Some((_, Tok::LParen)) => {
                self.i += 1;
                let e = self.expr(0, depth + 1)?;
                match self.toks.get(self.i) {
                    Some((_, Tok::RParen)) => {
                        self.i += 1;
                        Ok(e)
                    }
                    _ => Err(ParseError { pos: self.pos(), kind: Syntax::MissingParen }),
                }
            }
            Some((_, Tok::RParen)) => Err(ParseError { pos, kind: Syntax::UnexpectedParen }),
            Some(_) => Err(ParseError { pos, kind: Syntax::ExpectedOperand }),
            None => Err(ParseError { pos, kind: Syntax::EndsTooSoon }),
        }
    }
}

pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let toks = lex(src)?;
    if toks.is_empty() {
        return Err(ParseError { pos: 0, kind: Syntax::Empty });
    }
    let mut p = Parser { toks, i: 0, end: src.chars().count() };
    let e = p.expr(0, 0)?;
    if p.i < p.toks.len() {
        let kind = if p.toks[p.i].1 == Tok::RParen { Syntax::UnexpectedParen } else { Syntax::ExpectedOperator };
        return Err(ParseError { pos: p.pos(), kind });
    }
    Ok(e)
}

/// Division or remainder by zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivByZero;

pub fn eval(e: &Expr, tid: i64, warp: i64, lane: i64) -> Result<i64, DivByZero> {
    Ok(match e {
        Expr::Num(n) => *n,
        Expr::Var(Var::Tid) => tid,
        Expr::Var(Var::Warp) => warp,
        Expr::Var(Var::Lane) => lane,
        Expr::Neg(x) => eval(x, tid, warp, lane)?.wrapping_neg(),
        Expr::Not(x) => (eval(x, tid, warp, lane)? == 0) as i64,
        Expr::Bin(op, a, b) => {
            let x = eval(a, tid, warp, lane)?;
            // && and || short-circuit, as in CUDA C.
            match op {
                BinOp::And => return Ok((x != 0 && eval(b, tid, warp, lane)? != 0) as i64),
                BinOp::Or => return Ok((x != 0 || eval(b, tid, warp, lane)? != 0) as i64),
                _ => {}
            }
            let y = eval(b, tid, warp, lane)?;
            match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div => x.checked_div(y).ok_or(DivByZero)?,
                BinOp::Rem => x.checked_rem(y).ok_or(DivByZero)?,
                BinOp::Eq => (x == y) as i64,
                BinOp::Ne => (x != y) as i64,
                BinOp::Lt => (x < y) as i64,
                BinOp::Le => (x <= y) as i64,
                BinOp::Gt => (x > y) as i64,
                BinOp::Ge => (x >= y) as i64,
                BinOp::And | BinOp::Or => unreachable!(),
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ev(s: &str, tid: i64) -> i64 {
        eval(&parse(s).unwrap(), tid, tid / 32, tid % 32).unwrap()
    }

    #[test]
    fn lecture_conditions() {
        assert_eq!(ev("tid%2==0", 4), 1);
        assert_eq!(ev("tid%2==0", 5), 0);
        assert_eq!(ev("(tid/32)%2==0", 31), 1);
        assert_eq!(ev("(tid/32)%2==0", 32), 0);
        assert_eq!(ev("tid<100", 99), 1);
        assert_eq!(ev("threadIdx < 100", 100), 0);
    }

    #[test]
    fn precedence_and_logic() {
        assert_eq!(ev("1 + 2 * 3", 0), 7);
        assert_eq!(ev("(1 + 2) * 3", 0), 9);
        assert_eq!(ev("10 - 4 - 3", 0), 3);
        assert_eq!(ev("-3 % 2", 0), -1);
        assert_eq!(ev("!(lane == 3) && warp < 2 || tid == 100", 100), 1);
        assert_eq!(ev("1 < 2 == 1", 0), 1);
        // Short circuit: no division by zero.
        assert_eq!(ev("0 && 1 / 0", 0), 0);
        assert_eq!(eval(&parse("tid / (lane - lane)").unwrap(), 1, 0, 1), Err(DivByZero));
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(parse("tid % 2 = 0").unwrap_err(), ParseError { pos: 8, kind: Syntax::UseEq });
        assert_eq!(parse("tid <").unwrap_err().pos, 5);
        assert_eq!(parse("(tid").unwrap_err().kind, Syntax::MissingParen);
        assert_eq!(parse("tid)").unwrap_err(), ParseError { pos: 3, kind: Syntax::UnexpectedParen });
        assert_eq!(parse("foo < 3").unwrap_err().pos, 0);
        assert_eq!(parse("tid 3").unwrap_err().kind, Syntax::ExpectedOperator);
        assert_eq!(parse("").unwrap_err().kind, Syntax::Empty);
        assert_eq!(parse(&"(".repeat(100)).unwrap_err().kind, Syntax::NestedTooDeeply);
        assert!(parse("99999999999999999999").is_err());
        assert!(parse(&"1+".repeat(150)).is_err());
    }

    #[test]
    fn wide_characters_are_errors_at_their_character() {
        // What a Chinese input method types: full-width digits and brackets,
        // CJK words, emoji. Positions are in characters, not bytes.
        assert_eq!(parse("\u{FF15}").unwrap_err().pos, 0);
        let e = parse("tid\u{FF08}2").unwrap_err();
        assert_eq!(e.pos, 3);
        assert_eq!(e.kind, Syntax::FullWidth);
        assert_eq!(parse("tid（2").unwrap_err().pos, 3);
        assert_eq!(parse("线程").unwrap_err(), ParseError { pos: 0, kind: Syntax::UnexpectedChar });
        assert_eq!(parse("🚀").unwrap_err().pos, 0);
        assert_eq!(parse("tid < 1线").unwrap_err().pos, 7);
        assert_eq!(parse("tid <").unwrap_err().pos, 5);
        assert_eq!(parse(&"线".repeat(MAX_LEN + 1)).unwrap_err().kind, Syntax::TooLong);
    }

    #[test]
    fn caret_lines_up_under_wide_characters() {
        assert_eq!(caret_line("tid <", 5), "     ^");
        assert_eq!(caret_line("线程", 1), "  ^");
        assert_eq!(caret_line("ab", 99), "  ^");
    }

    proptest! {
        /// Arbitrary Unicode: parse never panics, and an error's position is
        /// a character index inside the input (or just past its end).
        #[test]
        fn never_panics_on_unicode(s in "\\PC{0,80}", tid in 0i64..4096) {
            match parse(&s) {
                Ok(e) => { let _ = eval(&e, tid, tid / 32, tid % 32); }
                Err(e) => prop_assert!(e.pos <= s.chars().count().max(MAX_LEN)),
            }
        }

        /// Mixed ASCII operators and multi-byte characters.
        #[test]
        fn never_panics_on_mixed(s in "[-+*/%<>=!&|() 0-9a-z_（）＜＝线程🚀é]{0,60}") {
            let _ = parse(&s);
        }

        /// Any input: parse returns (never panics), and anything that parses
        /// evaluates without panicking.
        #[test]
        fn never_panics(s in "[-+*/%<>=!&|() 0-9a-z_]{0,60}", tid in 0i64..4096) {
            if let Ok(e) = parse(&s) {
                let _ = eval(&e, tid, tid / 32, tid % 32);
            }
        }

        #[test]
        fn arithmetic_matches_rust(a in -1000i64..1000, b in 1i64..1000) {
            prop_assert_eq!(ev(&format!("{a} / {b}").replace("--", "- -"), 0), a / b);
            prop_assert_eq!(ev(&format!("({a}) % {b}"), 0), a % b);
            prop_assert_eq!(ev(&format!("({a}) < {b}"), 0), (a < b) as i64);
        }
    }
}
