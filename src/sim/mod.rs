//! The pure core: one module per concept of the lecture (one may serve
//! several routes).
//!
//! Nothing in here knows about the browser. Every model is a deterministic
//! function of its parameters (randomness only through [`SplitMix64`] with an
//! explicit seed). The models that step (the systolic array, divergence,
//! online softmax, a matmul tile run, a FlashAttention pass) implement
//! [`Steppable`]: the state at any step is computed directly, so step, back
//! and jump (scrubbing) all cost the same; the others (rooflines, ledgers,
//! occupancy, coalescing, …) are closed forms of their parameters.

pub mod attention_memory;
pub mod coalescing;
pub mod divergence;
pub mod expr;
pub mod flash;
pub mod fusion;
pub mod hw;
pub mod llm;
pub mod matmul;
pub mod measured;
pub mod occupancy;
pub mod recompute;
pub mod roofline;
pub mod softmax;
pub mod systolic;
pub mod threads;
pub mod train;

/// A simulation whose state can be asked for at any step `0..=steps()`.
///
/// Step 0 is the initial state (nothing has happened yet); step `steps()` is the
/// final state. `step`, `back` and `jump` of the player are all `state_at`.
pub trait Steppable {
    /// What one step's state looks like.
    type State;
    /// The number of steps; valid positions are `0..=steps()`.
    fn steps(&self) -> u64;
    /// The state after `t` steps (`t` is clamped to `0..=steps()`).
    fn state_at(&self, t: u64) -> Self::State;
    /// The key figures at step `t`, in display order.
    fn metrics(&self, t: u64) -> Vec<Metric>;
    /// The state one step after `prev`, the state at `t`. Simulations with
    /// an incremental form (an online update, a register transfer) compute it
    /// from `prev`; the laws below check that it agrees with `state_at(t + 1)`.
    fn step_from(&self, prev: &Self::State, t: u64) -> Self::State {
        let _ = prev;
        self.state_at(t + 1)
    }
}

/// The laws every [`Steppable`] obeys, checked by one generic test over all of
/// them (`sim::laws::steppable_laws`): `state_at` is pure and clamped; the
/// player's step then back is the identity; a jump to `t` equals `t` steps
/// from the start (through `step_from`); the metrics name the same figures at
/// every step.
#[cfg(test)]
pub(crate) fn check_steppable_laws<S: Steppable>(s: &S)
where
    S::State: PartialEq + std::fmt::Debug,
{
    let n = s.steps();
    let raw = |t: u64| s.metrics(t).iter().map(|m| (m.name, m.raw())).collect::<Vec<_>>();
    let names: Vec<&str> = s.metrics(0).iter().map(|m| m.name).collect();
    let mut probes = vec![0, 1, n / 3, n / 2, n.saturating_sub(1), n];
    probes.retain(|&t| t <= n);
    for &t in &probes {
        assert_eq!(s.state_at(t), s.state_at(t), "state_at({t}) is not pure");
        assert_eq!(raw(t), raw(t), "metrics({t}) are not pure");
        assert_eq!(s.metrics(t).iter().map(|m| m.name).collect::<Vec<_>>(), names, "metrics({t}) change names");
        let mut c = Cursor::at(n, t);
        c.step();
        c.back();
        assert_eq!(c.pos(), if t == n { n.saturating_sub(1) } else { t }, "step then back from {t}");
        if t < n {
            assert_eq!(s.step_from(&s.state_at(t), t), s.state_at(t + 1), "one step from {t}");
        }
    }
    assert_eq!(s.state_at(n.saturating_add(5)), s.state_at(n), "past the end is the end");
    let mut walked = s.state_at(0);
    for t in 0..n.min(300) {
        walked = s.step_from(&walked, t);
        assert_eq!(walked, s.state_at(t + 1), "{} steps against a jump", t + 1);
    }
}

/// How a metric's raw value is shown to a person (the raw value always goes
/// into `data-value` untouched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// An integer count.
    Count,
    /// A fraction in 0..=1 shown as a percentage.
    Percent,
    /// A plain real number.
    Real,
    /// A number of bytes (shown with decimal units: kB, MB, GB).
    Bytes,
    /// Bytes of on-chip memory (registers, shared memory, SRAM), shown in
    /// KiB (1024 B) as NVIDIA's data sheets count them ("228 KB" per SM).
    KiB,
    /// A word (`Metric::word`), e.g. the limiting resource; shown translated
    /// as `word.<word>`.
    Word,
    /// Yes or no: `data-value` 1 or 0, shown as `word.yes` / `word.no`.
    Flag,
}

/// One key figure: `name` is both the `data-metric` attribute and the
/// translation key `metric.<name>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    pub name: &'static str,
    pub value: f64,
    pub unit: Unit,
    /// For [`Unit::Word`]: the word (it is also what `data-value` holds).
    pub word: Option<&'static str>,
}

impl Metric {
    pub fn count(name: &'static str, value: u64) -> Self {
        Metric { name, value: value as f64, unit: Unit::Count, word: None }
    }
    pub fn percent(name: &'static str, value: f64) -> Self {
        Metric { name, value, unit: Unit::Percent, word: None }
    }
    pub fn real(name: &'static str, value: f64) -> Self {
        Metric { name, value, unit: Unit::Real, word: None }
    }
    pub fn bytes(name: &'static str, value: u64) -> Self {
        Metric { name, value: value as f64, unit: Unit::Bytes, word: None }
    }
    /// Bytes of on-chip memory, shown in KiB.
    pub fn kib(name: &'static str, value: u64) -> Self {
        Metric { name, value: value as f64, unit: Unit::KiB, word: None }
    }
    pub fn flag(name: &'static str, yes: bool) -> Self {
        Metric { name, value: yes as u8 as f64, unit: Unit::Flag, word: None }
    }
    /// The translation key of the word shown instead of the number, if any.
    pub fn word_key(&self) -> Option<String> {
        match (self.unit, self.word) {
            (Unit::Flag, _) => Some(if self.value != 0.0 { "word.yes" } else { "word.no" }.to_string()),
            (_, Some(w)) => Some(format!("word.{w}")),
            _ => None,
        }
    }
    pub fn word(name: &'static str, word: &'static str) -> Self {
        Metric { name, value: f64::NAN, unit: Unit::Word, word: Some(word) }
    }
    /// What goes in `data-value`: the raw number, or the word.
    pub fn raw(&self) -> String {
        match self.word {
            Some(w) => w.to_string(),
            None => self.value.to_string(),
        }
    }
}

/// A tiny, fast, seeded generator (SplitMix64). Same seed, same numbers, on
/// every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi` (the tiny modulo bias is irrelevant for teaching data).
    pub fn range_i32(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (hi as i64 - lo as i64 + 1) as u64;
        (lo as i64 + (self.next_u64() % span) as i64) as i32
    }
}

/// A player's fastest offer plays the whole run in about this many seconds
/// (a folded GEMM of 11,280 cycles takes 47 minutes at 4 steps a second).
pub const FIT_SECONDS: u64 = 10;

/// The speed (steps per second, within `1..=max`) that plays `len` steps in
/// about [`FIT_SECONDS`].
pub fn fit_speed(len: u64, max: i64) -> i64 {
    (len.div_ceil(FIT_SECONDS).min(i64::MAX as u64) as i64).clamp(1, max.max(1))
}

/// A position in `0..=len`: what the player moves. Step, back and jump are
/// all clamped, so no sequence of presses can leave the range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    pos: u64,
    len: u64,
}

impl Cursor {
    pub fn new(len: u64) -> Self {
        Cursor { pos: 0, len }
    }
    pub fn at(len: u64, pos: u64) -> Self {
        Cursor { pos: pos.min(len), len }
    }
    pub fn pos(&self) -> u64 {
        self.pos
    }
    pub fn len(&self) -> u64 {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn at_end(&self) -> bool {
        self.pos == self.len
    }
    pub fn step(&mut self) {
        self.pos = (self.pos + 1).min(self.len);
    }
    pub fn back(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }
    pub fn jump(&mut self, t: u64) {
        self.pos = t.min(self.len);
    }
    /// Advance by `n` steps (used by playback at speeds above one step a frame).
    pub fn advance(&mut self, n: u64) {
        self.pos = self.pos.saturating_add(n).min(self.len);
    }
}

/// The laws of [`Steppable`] over every stepping simulation.
#[cfg(test)]
mod laws;

#[cfg(test)]
mod tests {
    #[test]
    fn the_fit_speed_plays_a_run_in_seconds() {
        use super::{fit_speed, FIT_SECONDS};
        // The lecture's weight-stationary example: 11,280 cycles.
        assert_eq!(fit_speed(11_280, 100_000), 1128);
        assert!(11_280 / fit_speed(11_280, 100_000) as u64 <= FIT_SECONDS);
        assert_eq!(fit_speed(12, 1000), 2);
        assert_eq!(fit_speed(0, 1000), 1);
        assert_eq!(fit_speed(u64::MAX, 1000), 1000);
    }

    use super::*;

    #[test]
    fn splitmix_is_deterministic_and_in_range() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..1000 {
            let x = a.range_i32(-3, 9);
            assert_eq!(x, b.range_i32(-3, 9));
            assert!((-3..=9).contains(&x));
        }
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
    }
}
