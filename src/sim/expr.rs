//! A small, safe integer expression language for branch conditions
//! (`tid % 2 == 0`, `(tid / 32) % 2 == 0`, `tid < 100 && !(lane == 3)`).
//!
//! Variables: `tid`, `warp`, `lane`. Integers; `+ - * / %`; comparisons
//! `== != < <= > >=`; `&& || !`; parentheses. Comparisons and logic give 0 or
//! 1; a condition is true when non-zero. Parsing is a precedence climber with
//! a depth limit, so no input can overflow the stack; arithmetic wraps and
//! division or remainder by zero is an error naming the lane.

use std::fmt;

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

/// A parse error at byte `pos` of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub pos: usize,
    pub msg: &'static str,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.msg, self.pos + 1)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    Var(Var),
    Op(&'static str),
    LParen,
    RParen,
}

fn lex(src: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    if src.len() > MAX_LEN {
        return Err(ParseError { pos: MAX_LEN, msg: "expression too long" });
    }
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n = src[start..i].parse::<i64>().map_err(|_| ParseError { pos: start, msg: "number too large" })?;
            out.push((start, Tok::Num(n)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let v = match &src[start..i] {
                "tid" | "threadIdx" => Var::Tid,
                "warp" => Var::Warp,
                "lane" => Var::Lane,
                _ => return Err(ParseError { pos: start, msg: "unknown name: use tid, warp or lane" }),
            };
            out.push((start, Tok::Var(v)));
            continue;
        }
        let two = if i + 1 < b.len() { &src[i..i + 2] } else { "" };
        let op2 = ["==", "!=", "<=", ">=", "&&", "||"].into_iter().find(|o| *o == two);
        if let Some(o) = op2 {
            out.push((start, Tok::Op(o)));
            i += 2;
            continue;
        }
        let tok = match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'+' => Tok::Op("+"),
            b'-' => Tok::Op("-"),
            b'*' => Tok::Op("*"),
            b'/' => Tok::Op("/"),
            b'%' => Tok::Op("%"),
            b'<' => Tok::Op("<"),
            b'>' => Tok::Op(">"),
            b'!' => Tok::Op("!"),
            b'=' => return Err(ParseError { pos: start, msg: "use == to compare" }),
            b'&' => return Err(ParseError { pos: start, msg: "use && for “and”" }),
            b'|' => return Err(ParseError { pos: start, msg: "use || for “or”" }),
            _ => return Err(ParseError { pos: start, msg: "unexpected character" }),
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
            return Err(ParseError { pos: self.pos(), msg: "nested too deeply" });
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
            return Err(ParseError { pos: self.pos(), msg: "nested too deeply" });
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
                    _ => Err(ParseError { pos: self.pos(), msg: "missing )" }),
                }
            }
            Some((_, Tok::RParen)) => Err(ParseError { pos, msg: "unexpected )" }),
            Some(_) => Err(ParseError { pos, msg: "expected a number, a name or (" }),
            None => Err(ParseError { pos, msg: "expression ends too soon" }),
        }
    }
}

pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let toks = lex(src)?;
    if toks.is_empty() {
        return Err(ParseError { pos: 0, msg: "empty expression" });
    }
    let mut p = Parser { toks, i: 0, end: src.len() };
    let e = p.expr(0, 0)?;
    if p.i < p.toks.len() {
        let msg = if p.toks[p.i].1 == Tok::RParen { "unexpected )" } else { "expected an operator" };
        return Err(ParseError { pos: p.pos(), msg });
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
        assert_eq!(parse("tid % 2 = 0").unwrap_err(), ParseError { pos: 8, msg: "use == to compare" });
        assert_eq!(parse("tid <").unwrap_err().pos, 5);
        assert_eq!(parse("(tid").unwrap_err().msg, "missing )");
        assert_eq!(parse("tid)").unwrap_err(), ParseError { pos: 3, msg: "unexpected )" });
        assert_eq!(parse("foo < 3").unwrap_err().pos, 0);
        assert_eq!(parse("tid 3").unwrap_err().msg, "expected an operator");
        assert_eq!(parse("").unwrap_err().msg, "empty expression");
        assert_eq!(parse(&"(".repeat(100)).unwrap_err().msg, "nested too deeply");
        assert!(parse("99999999999999999999").is_err());
        assert!(parse(&"1+".repeat(150)).is_err());
    }

    proptest! {
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
