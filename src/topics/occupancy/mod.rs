//! `#/occupancy`: its URL parameters, its registry entry and the typed conversion
//! from URL values to simulation parameters.

use crate::params::{ParamSpec, Value, Values};
use crate::sim::occupancy::{self, compute, Arch, Kernel};
use crate::topic::*;

pub mod practice;
#[cfg(target_arch = "wasm32")]
pub mod view;

pub static PARAMS: [ParamSpec; 4] = [
    ParamSpec::choice("arch", &["sm80", "sm90", "sm100"], "sm90"),
    ParamSpec::int("threads", 1, 1024, 256),
    ParamSpec::int("regs", 1, 255, 32),
    ParamSpec::int("smem", 0, 227 * 1024, 0),
];

pub static META: TopicMeta = TopicMeta::new("occupancy", Part::Fast, &PARAMS).notes(&["6.7"], "02 · 4").metrics(&[
    "occupancy",
    "blocks-per-sm",
    "active-warps",
    "limiter",
]);

/// Everything this route owns (the registry lists it); its texts are `texts.tsv`.
pub static TOPIC: Topic = Topic::new(&META, crate::texts!("texts.tsv"), &practice::BANK).lecture(lecture_rows);

pub fn occupancy_kernel(v: &Values) -> (&'static occupancy::Arch, occupancy::Kernel) {
    (
        occupancy::arch(v.choice("arch")),
        occupancy::Kernel { threads: v.int("threads") as u32, regs: v.int("regs") as u32, smem: v.int("smem") as u32 },
    )
}

/// The lecture's H100 cases (notes §6.7): label key (also the `data-preset`
/// id), threads per block and registers per thread.
pub const LECTURE_CASES: [(&str, i64, i64); 3] = [
    ("occupancy.preset.256x32", 256, 32),
    ("occupancy.preset.256x64", 256, 64),
    ("occupancy.preset.128x160", 128, 160),
];

/// The notes' §6.7 cases beside the model (H100).
pub fn lecture_rows(v: &Values) -> Vec<crate::lecture::Row> {
    let cases = LECTURE_CASES.iter().map(|&(label, threads, regs)| (label, lecture_case(threads, regs)));
    crate::lecture::table(v, cases, ["occupancy"], [["100%"], ["50%"], ["19%"]], |v| {
        let (arch, k) = occupancy_kernel(v);
        occupancy::compute(arch, k).metrics()
    })
}

/// The values one lecture case sets.
pub fn lecture_case(threads: i64, regs: i64) -> Vec<(&'static str, Value)> {
    vec![
        ("arch", Value::Choice("sm90")),
        ("threads", Value::Int(threads)),
        ("regs", Value::Int(regs)),
        ("smem", Value::Int(0)),
    ]
}

/// One of the panel's charts: occupancy against one parameter, the others
/// held at the kernel's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// Threads per block, in whole warps (32, 64, …, 1024).
    Threads,
    /// Registers per thread, 1 to 255.
    Regs,
    /// Shared memory per block in whole KB, 0 to the block's maximum.
    Smem,
}

/// A sweep's points: occupancy at `x0`, `x0 + dx`, … (chart units).
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub x0: f64,
    pub dx: f64,
    pub ys: Vec<f64>,
}

impl Sweep {
    pub const ALL: [Sweep; 3] = [Sweep::Threads, Sweep::Regs, Sweep::Smem];

    /// The URL parameter it varies (and that a click on its chart sets).
    pub fn param(self) -> &'static str {
        match self {
            Sweep::Threads => "threads",
            Sweep::Regs => "regs",
            Sweep::Smem => "smem",
        }
    }

    /// Translation key of the chart's title.
    pub fn title_key(self) -> &'static str {
        match self {
            Sweep::Threads => "occupancy.chart.threads",
            Sweep::Regs => "occupancy.chart.regs",
            Sweep::Smem => "occupancy.chart.smem",
        }
    }

    /// Translation key of the chart's x axis.
    pub fn axis_key(self) -> &'static str {
        match self {
            Sweep::Threads => "param.threads",
            Sweep::Regs => "param.regs",
            Sweep::Smem => "occupancy.axis.smem-kb",
        }
    }

    /// Parameter units per chart unit (shared memory is charted in KB).
    fn scale(self) -> f64 {
        match self {
            Sweep::Smem => 1024.0,
            _ => 1.0,
        }
    }

    /// Occupancy along the sweep for kernel `k` on `a`.
    pub fn curve(self, a: &Arch, k: Kernel) -> Curve {
        let occ = |k: Kernel| compute(a, k).occupancy;
        match self {
            Sweep::Threads => {
                Curve { x0: 32.0, dx: 32.0, ys: (1..=32).map(|i| occ(Kernel { threads: i * 32, ..k })).collect() }
            }
            Sweep::Regs => Curve { x0: 1.0, dx: 1.0, ys: (1..=255).map(|r| occ(Kernel { regs: r, ..k })).collect() },
            Sweep::Smem => Curve {
                x0: 0.0,
                dx: 1.0,
                ys: (0..=a.max_smem_per_block / 1024).map(|kb| occ(Kernel { smem: kb * 1024, ..k })).collect(),
            },
        }
    }

    /// Where kernel `k` is on the chart's x axis.
    pub fn cursor(self, k: Kernel) -> f64 {
        let v = match self {
            Sweep::Threads => k.threads,
            Sweep::Regs => k.regs,
            Sweep::Smem => k.smem,
        };
        v as f64 / self.scale()
    }

    /// The parameter's value at chart position `x` (a click on the chart).
    pub fn value_at(self, x: u64) -> i64 {
        (x as f64 * self.scale()) as i64
    }
}

/// The static snapshot (`crate::topic::snapshot`): the default kernel's
/// blocks on one SM, drawn as the panel draws them, and its key figures.
#[cfg(not(target_arch = "wasm32"))]
pub fn snapshot(lang: crate::i18n::Lang, width: f64) -> crate::topic::snapshot::Snapshot {
    use crate::i18n::{tr, trf};
    use crate::topic::snapshot::{Above, Snapshot, Stage, View};
    let (v, _) = META.parse(&[]);
    let (arch, k) = occupancy_kernel(&v);
    let o = compute(arch, k);
    let labels: [String; 4] = occupancy::Resource::ALL
        .map(|r| trf(lang, &format!("occupancy.limit.{}", r.code()), &[("n", &o.limits[r as usize].to_string())]));
    let block_label = |b: u32| trf(lang, "occupancy.block.short", &[("b", &b.to_string())]);
    let scene = crate::draw::occupancy::draw(arch, &o, &crate::scene::Theme::normal(), width, &labels, &block_label);
    Snapshot::View(View {
        above: Above::Title(tr(lang, "occupancy.sm")),
        stage: Stage::Scene(scene),
        label: tr(lang, "occupancy.sm"),
        figures: o.metrics(),
        pending: (vec![], ""),
    })
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_limits_are_counted_in_blocks() {
        crate::topics::install_texts();
        use crate::i18n::{trf, Lang};
        assert_eq!(trf(Lang::En, "occupancy.limit.registers", &[("n", "3")]), "Registers: 3 blocks");
        assert_eq!(trf(Lang::Zh, "occupancy.limit.shared-memory", &[("n", "4")]), "共享内存：4 个块");
    }

    use super::*;
    use crate::sim::occupancy::{arch, Resource};

    use crate::topic::q;

    #[test]
    fn lecture_deep_links() {
        let (v, n) = META.parse(&q(&[("threads", "128"), ("regs", "160")]));
        assert!(n.is_empty());
        let (a, k) = occupancy_kernel(&v);
        assert_eq!(compute(a, k).active_warps, 12);
        // 48 KB + 1 KB reserved per block: 228 / 49 = 4 blocks.
        let (v, _) = META.parse(&q(&[("arch", "sm90"), ("threads", "128"), ("regs", "32"), ("smem", "49152")]));
        let (a, k) = occupancy_kernel(&v);
        let o = compute(a, k);
        assert_eq!((o.blocks, o.limiter), (4, Resource::SharedMemory));
    }

    #[test]
    fn lecture_cases_give_the_lecture_numbers() {
        crate::topics::install_texts();
        // notes §6.7 (H100): 256 × 32 → 100 %; 256 × 64 → 50 %; 128 × 160 → 19 %.
        let expected = [(1.0, Resource::Warps), (0.5, Resource::Registers), (0.1875, Resource::Registers)];
        let start = Values::defaults(&PARAMS).with("arch", Value::Choice("sm80")).with("smem", Value::Int(90_000));
        for ((key, threads, regs), (occ, limiter)) in LECTURE_CASES.iter().zip(expected) {
            let v = lecture_case(*threads, *regs).into_iter().fold(start.clone(), |acc, (n, x)| acc.with(n, x));
            let (a, k) = occupancy_kernel(&v);
            let o = compute(a, k);
            assert_eq!((o.occupancy, o.limiter), (occ, limiter), "{key}");
            assert!(crate::i18n::has(key));
        }
    }

    #[test]
    fn sweeps_cover_each_range_and_pass_through_the_kernel() {
        crate::topics::install_texts();
        for code in ["sm80", "sm90", "sm100"] {
            let a = arch(code);
            for k in [Kernel { threads: 128, regs: 160, smem: 0 }, Kernel { threads: 256, regs: 33, smem: 48 * 1024 }] {
                let here = compute(a, k).occupancy;
                for s in Sweep::ALL {
                    let c = s.curve(a, k);
                    let len = match s {
                        Sweep::Threads => 32,
                        Sweep::Regs => 255,
                        Sweep::Smem => (a.max_smem_per_block / 1024 + 1) as usize,
                    };
                    assert_eq!(c.ys.len(), len, "{code} {s:?}");
                    assert!(c.ys.iter().all(|y| (0.0..=1.0).contains(y)));
                    // The kernel lies on every curve, at its cursor.
                    let i = ((s.cursor(k) - c.x0) / c.dx).round() as usize;
                    assert_eq!(c.ys[i], here, "{code} {s:?}");
                    // A click at the cursor sets the kernel's own value.
                    let own = Values::defaults(&PARAMS)
                        .with("threads", Value::Int(k.threads as i64))
                        .with("regs", Value::Int(k.regs as i64))
                        .with("smem", Value::Int(k.smem as i64));
                    assert_eq!(s.value_at(s.cursor(k) as u64), own.int(s.param()), "{s:?}");
                    assert!(crate::i18n::has(s.title_key()) && crate::i18n::has(s.axis_key()));
                }
                assert_eq!(Sweep::Smem.value_at(48), 48 * 1024);
                assert_eq!(Sweep::Threads.value_at(128), 128);
            }
        }
        // More registers never raise occupancy.
        let c = Sweep::Regs.curve(arch("sm90"), Kernel { threads: 256, regs: 32, smem: 0 });
        assert!(c.ys.windows(2).all(|w| w[1] <= w[0]));
    }
}
