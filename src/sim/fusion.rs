//! Operator fusion and recomputation (notes §6.3–6.4, demo 03): a ledger of
//! kernels, HBM reads and writes.
//!
//! Fusion: an elementwise expression over named inputs (each `n` elements).
//! Unfused, every operation is its own kernel: it reads its non-constant
//! operands (n each) and writes its result (n). Fused, one kernel reads each
//! distinct input once and writes once. Expressions: numbers, names,
//! `+ - * /`, `^` (power), unary `-`, and functions `sin cos tan exp log tanh
//! sqrt abs sigmoid relu` (one argument) and `max min` (two); parsed with a
//! depth limit, errors point at the character.

use super::expr::Syntax;
use super::Metric;

pub const MAX_LEN: usize = 300;
const MAX_DEPTH: usize = 40;

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Num(f64),
    Input(String),
    /// An operation (a kernel when unfused): its name and operands.
    Op(String, Vec<Node>),
}

/// A parse error at character `pos`, of the kinds the condition parser
/// shares ([`Syntax`]), so both panels show it in the reader's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FusionError {
    pub pos: usize,
    pub kind: Syntax,
}

const FUNCS1: [&str; 10] = ["sin", "cos", "tan", "exp", "log", "tanh", "sqrt", "abs", "sigmoid", "relu"];
const FUNCS2: [&str; 2] = ["max", "min"];

struct P<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn err<T>(&self, kind: Syntax) -> Result<T, FusionError> {
        Err(FusionError { pos: self.i.min(self.s.len()), kind })
    }
    fn expr(&mut self, depth: usize) -> Result<Node, FusionError> {
        if depth > MAX_DEPTH {
            return self.err(Syntax::NestedTooDeeply);
        }
        self.left_assoc(depth, [(b'+', "add"), (b'-', "sub")], Self::term)
    }
    fn term(&mut self, depth: usize) -> Result<Node, FusionError> {
        self.left_assoc(depth, [(b'*', "mul"), (b'/', "div")], Self::power)
    }
    /// `operand (op operand)*`, left-associative, for the two operators `ops`.
    fn left_assoc(
        &mut self,
        depth: usize,
        ops: [(u8, &str); 2],
        operand: fn(&mut Self, usize) -> Result<Node, FusionError>,
    ) -> Result<Node, FusionError> {
        let mut lhs = operand(self, depth + 1)?;
        while let Some((_, name)) = self.peek().and_then(|c| ops.iter().find(|(o, _)| *o == c)) {
            self.i += 1;
            let rhs = operand(self, depth + 1)?;
            lhs = Node::Op((*name).into(), vec![lhs, rhs]);
        }
        Ok(lhs)
    }
    fn power(&mut self, depth: usize) -> Result<Node, FusionError> {
        let base = self.unary(depth + 1)?;
        if self.peek() == Some(b'^') {
            self.i += 1;
            let exp = self.unary(depth + 1)?;
            return Ok(Node::Op("pow".into(), vec![base, exp]));
        }
        Ok(base)
    }
    fn unary(&mut self, depth: usize) -> Result<Node, FusionError> {
        if depth > MAX_DEPTH {
            return self.err(Syntax::NestedTooDeeply);
        }
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                Ok(Node::Op("neg".into(), vec![self.unary(depth + 1)?]))
            }
            Some(b'(') => {
                self.i += 1;
                let e = self.expr(depth + 1)?;
                if self.peek() != Some(b')') {
                    return self.err(Syntax::MissingParen);
                }
                self.i += 1;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || c == b'.' => {
                let start = self.i;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || self.s[self.i] == b'.') {
                    self.i += 1;
                }
                match self.src[start..self.i].parse::<f64>() {
                    Ok(v) => Ok(Node::Num(v)),
                    Err(_) => Err(FusionError { pos: start, kind: Syntax::NotANumber }),
                }
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let start = self.i;
                while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
                    self.i += 1;
                }
                let name = &self.src[start..self.i];
                let is1 = FUNCS1.contains(&name);
                let is2 = FUNCS2.contains(&name);
                if !(is1 || is2) {
                    if self.peek() == Some(b'(') {
                        return Err(FusionError { pos: start, kind: Syntax::UnknownFunction });
                    }
                    return Ok(Node::Input(name.to_string()));
                }
                if self.peek() != Some(b'(') {
                    return self.err(Syntax::NeedsParens);
                }
                self.i += 1;
                let mut args = vec![self.expr(depth + 1)?];
                if is2 {
                    if self.peek() != Some(b',') {
                        return self.err(Syntax::TwoArguments);
                    }
                    self.i += 1;
                    args.push(self.expr(depth + 1)?);
                }
                if self.peek() != Some(b')') {
                    return self.err(Syntax::MissingParen);
                }
                self.i += 1;
                Ok(Node::Op(name.to_string(), args))
            }
            Some(_) => self.err(Syntax::ExpectedOperand),
            None => self.err(Syntax::EndsTooSoon),
        }
    }
}

pub fn parse(src: &str) -> Result<Node, FusionError> {
    if src.chars().take(MAX_LEN + 1).count() > MAX_LEN {
        return Err(FusionError { pos: MAX_LEN, kind: Syntax::TooLong });
    }
    // Positions are in characters; everything before the first non-ASCII
    // character is ASCII, so its byte and character positions agree.
    if let Some((pos, c)) = src.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
        return Err(FusionError { pos, kind: super::expr::unexpected_char(c) });
    }
    let mut p = P { s: src.as_bytes(), src, i: 0 };
    if p.peek().is_none() {
        return Err(FusionError { pos: 0, kind: Syntax::Empty });
    }
    let e = p.expr(0)?;
    if p.peek().is_some() {
        return p.err(Syntax::ExpectedOperator);
    }
    Ok(e)
}

/// One kernel of the unfused version.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub op: String,
    /// Arrays (n elements each) it reads: inputs or earlier results.
    pub reads: usize,
    /// Human-readable operands ("x", "t1", "2").
    pub operands: Vec<String>,
    /// Its result's name (t1, t2, …).
    pub out: String,
}

impl Kernel {
    /// Its call as written in the timeline: `op(a, b)`.
    pub fn call(&self) -> String {
        format!("{}({})", self.op, self.operands.join(", "))
    }
}

/// The unfused kernel sequence (post-order: operands first).
pub fn kernels(e: &Node) -> Vec<Kernel> {
    fn go(e: &Node, out: &mut Vec<Kernel>) -> String {
        match e {
            Node::Num(v) => format!("{v}"),
            Node::Input(s) => s.clone(),
            Node::Op(op, args) => {
                let mut operands = Vec::new();
                let mut reads = 0;
                for a in args {
                    let name = go(a, out);
                    if !matches!(a, Node::Num(_)) {
                        reads += 1;
                    }
                    operands.push(name);
                }
                let name = format!("t{}", out.len() + 1);
                out.push(Kernel { op: op.clone(), reads, operands, out: name.clone() });
                name
            }
        }
    }
    let mut out = Vec::new();
    go(e, &mut out);
    out
}

/// Distinct named inputs.
pub fn inputs(e: &Node) -> Vec<String> {
    fn go(e: &Node, v: &mut Vec<String>) {
        match e {
            Node::Input(s) if !v.contains(s) => v.push(s.clone()),
            Node::Op(_, args) => args.iter().for_each(|a| go(a, v)),
            _ => {}
        }
    }
    let mut v = Vec::new();
    go(e, &mut v);
    v
}

/// The ledger in arrays of n elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ledger {
    pub kernels: usize,
    pub reads_unfused: usize,
    pub writes_unfused: usize,
    pub reads_fused: usize,
    pub writes_fused: usize,
}

pub fn ledger(e: &Node) -> Ledger {
    let ks = kernels(e);
    let ops = ks.len();
    Ledger {
        kernels: ops,
        reads_unfused: ks.iter().map(|k| k.reads).sum(),
        writes_unfused: ops,
        reads_fused: inputs(e).len(),
        // A bare input or constant still has to be written once.
        writes_fused: 1,
    }
}

impl Ledger {
    /// Arrays of n elements moved unfused: every kernel's reads and writes.
    pub fn arrays_unfused(&self) -> usize {
        self.reads_unfused + self.writes_unfused
    }
    /// Arrays of n elements moved fused: each input once, the result once.
    pub fn arrays_fused(&self) -> usize {
        self.reads_fused + self.writes_fused
    }
    /// HBM bytes of the unfused chain over `n` elements of `elem_bytes`.
    pub fn bytes_unfused(&self, n: u64, elem_bytes: u64) -> u64 {
        self.arrays_unfused() as u64 * n * elem_bytes
    }
    /// HBM bytes of the fused kernel.
    pub fn bytes_fused(&self, n: u64, elem_bytes: u64) -> u64 {
        self.arrays_fused() as u64 * n * elem_bytes
    }
    /// Arithmetic: one operation per kernel per element, the same fused or not.
    pub fn flops(&self, n: u64) -> u64 {
        self.kernels as u64 * n
    }
    pub fn metrics(&self, n: u64, elem_bytes: u64) -> Vec<Metric> {
        let unfused = self.bytes_unfused(n, elem_bytes);
        let fused = self.bytes_fused(n, elem_bytes);
        vec![
            Metric::count("kernels-unfused", self.kernels as u64),
            Metric::bytes("bytes-unfused", unfused),
            Metric::bytes("bytes-fused", fused),
            Metric::real("speedup-bound", unfused as f64 / fused as f64),
        ]
    }
}

/// Presets: (id, expression).
pub const PRESETS: [(&str, &str); 4] = [
    ("sincos", "sin(x)^2 + cos(x)^2"),
    ("gelu", "0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x^3)))"),
    ("relu-affine", "relu(x * w + b)"),
    ("silu", "x * sigmoid(x)"),
];

/// Recomputation (notes §6.4): `depth` stacked sigmoids on n elements,
/// storing every activation for backward, or only x and recomputing in
/// registers. `upstream` counts the read of the upstream gradient (the notes
/// do, 9 vs 5; the slides do not, 8 vs 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Recompute {
    pub depth: u64,
    pub n: u64,
    pub elem_bytes: u64,
    pub upstream: bool,
}

impl Recompute {
    /// Memory accesses (arrays of n) of forward + backward when storing:
    /// forward reads x and writes s₁…s_L; backward reads [the upstream
    /// gradient and] s₁…s_L and writes the input gradient.
    pub fn accesses_store(&self) -> u64 {
        (1 + self.depth) + (self.upstream as u64 + self.depth + 1)
    }
    /// Recomputing: forward reads x and writes s_L; backward reads [the
    /// upstream gradient and] x and writes the input gradient.
    pub fn accesses_recompute(&self) -> u64 {
        2 + (self.upstream as u64 + 2)
    }
    /// Bytes kept from forward for backward: s₁…s_L, or just x.
    pub fn saved_bytes_store(&self) -> u64 {
        self.depth * self.n * self.elem_bytes
    }
    pub fn saved_bytes_recompute(&self) -> u64 {
        self.n * self.elem_bytes
    }
    /// How many fewer accesses recomputing makes (the same whether or not
    /// the upstream-gradient read is counted: both versions make it).
    pub fn accesses_saved(&self) -> u64 {
        self.accesses_store() - self.accesses_recompute()
    }
    /// Extra sigmoids evaluated in backward by recomputing.
    pub fn extra_sigmoids(&self) -> u64 {
        self.depth
    }
    pub fn metrics(&self) -> Vec<Metric> {
        vec![
            Metric::count("accesses-store", self.accesses_store()),
            Metric::count("accesses-recompute", self.accesses_recompute()),
            Metric::bytes("saved-bytes-store", self.saved_bytes_store()),
            Metric::bytes("saved-bytes-recompute", self.saved_bytes_recompute()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lecture_fusion_table() {
        // notes §6.3: sin²x + cos²x → 5 kernels, 6n reads + 5n writes = 11n against 2n, 5.5×.
        let e = parse(PRESETS[0].1).unwrap();
        let l = ledger(&e);
        assert_eq!((l.kernels, l.reads_unfused, l.writes_unfused), (5, 6, 5));
        assert_eq!((l.reads_fused, l.writes_fused), (1, 1));
        let m = l.metrics(1000, 4);
        assert_eq!(m[3].value, 5.5);
        assert_eq!((l.arrays_unfused(), l.arrays_fused()), (11, 2));
        assert_eq!((l.bytes_unfused(1000, 4), l.bytes_fused(1000, 4), l.flops(1000)), (44_000, 8_000, 5_000));
        let ks = kernels(&e);
        assert_eq!(
            ks.iter().map(Kernel::call).collect::<Vec<_>>(),
            ["sin(x)", "pow(t1, 2)", "cos(x)", "pow(t3, 2)", "add(t2, t4)"]
        );
        for (_, p) in PRESETS {
            assert!(parse(p).is_ok(), "{p}");
        }
        assert_eq!(inputs(&parse("relu(x * w + b)").unwrap()), ["x", "w", "b"]);
    }

    #[test]
    fn lecture_recompute() {
        let notes = Recompute { depth: 3, n: 1 << 20, elem_bytes: 4, upstream: true };
        assert_eq!((notes.accesses_store(), notes.accesses_recompute()), (9, 5));
        let slides = Recompute { upstream: false, ..notes };
        assert_eq!((slides.accesses_store(), slides.accesses_recompute()), (8, 4));
        assert_eq!((notes.accesses_saved(), slides.accesses_saved()), (4, 4));
        // 12.6 MB against 4.2 MB saved for backward.
        assert_eq!(format!("{:.1}", notes.saved_bytes_store() as f64 / 1e6), "12.6");
        assert_eq!(format!("{:.1}", notes.saved_bytes_recompute() as f64 / 1e6), "4.2");
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(parse("sin(x").unwrap_err().kind, Syntax::MissingParen);
        assert_eq!(parse("foo(x)").unwrap_err(), FusionError { pos: 0, kind: Syntax::UnknownFunction });
        assert_eq!(parse("x +").unwrap_err().kind, Syntax::EndsTooSoon);
        assert_eq!(parse("max(x)").unwrap_err().kind, Syntax::TwoArguments);
        assert_eq!(parse("x y").unwrap_err().pos, 2);
        assert!(parse(&"(".repeat(200)).is_err());
        assert!(parse("x × 2").is_err());
    }

    #[test]
    fn wide_characters_are_errors_at_their_character() {
        assert_eq!(parse("sin（x）").unwrap_err().pos, 3);
        assert_eq!(parse("sin（x）").unwrap_err().kind, Syntax::FullWidth);
        assert_eq!(parse("x + 线").unwrap_err(), FusionError { pos: 4, kind: Syntax::UnexpectedChar });
        assert_eq!(parse("🚀").unwrap_err().pos, 0);
        assert_eq!(parse(&"é".repeat(MAX_LEN + 1)).unwrap_err().kind, Syntax::TooLong);
    }

    proptest! {
        /// Arbitrary Unicode never panics; an error points inside the input.
        #[test]
        fn never_panics_on_unicode(s in "\\PC{0,80}") {
            if let Err(e) = parse(&s) {
                prop_assert!(e.pos <= s.chars().count().max(MAX_LEN));
            }
        }

        #[test]
        fn fused_never_moves_more(s in "[-+*/^() 0-9xyw.]{1,40}|sin\\(x\\)|max\\(x, y\\)") {
            if let Ok(e) = parse(&s) {
                let l = ledger(&e);
                prop_assert!(l.reads_fused + l.writes_fused <= l.reads_unfused + l.writes_unfused || l.kernels == 0);
            }
        }
        #[test]
        fn recompute_never_saves_more(depth in 1u64..20, n in 1u64..1_000_000, up in any::<bool>()) {
            let r = Recompute { depth, n, elem_bytes: 2, upstream: up };
            prop_assert!(r.saved_bytes_recompute() <= r.saved_bytes_store());
            prop_assert!(r.accesses_recompute() <= r.accesses_store());
        }
    }
}
