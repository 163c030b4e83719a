//! Practice on `#/recompute`: memory accesses when storing activations,
//! accesses saved by recomputing, bytes kept for backward.

use super::{ledger_rows, recompute, RECOMPUTE};
use crate::params::Values;
use crate::practice::{a, bank, values, Answer, Made, Rng, Text};

bank!("recompute": "store" => store, "saved" => saved, "kept" => kept);

fn case(r: &mut Rng) -> Values {
    let depth = r.int(2, 8);
    let upstream = r.pick(&["1", "0"]);
    let n = r.pow2(16, 26);
    let dtype = r.pick(&["fp32", "bf16"]);
    values(
        &RECOMPUTE,
        &[("depth", depth.to_string()), ("n", n.to_string()), ("dtype", dtype.into()), ("upstream", upstream.into())],
    )
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let r = recompute(v);
    let [s, c] = ledger_rows(&r);
    vec![
        a("depth", r.depth),
        a("n", crate::format::number(r.n as f64)),
        a("dtype", v.choice("dtype")),
        a("store_f", s.forward),
        a("store_b", s.backward),
        a("store", s.total),
        a("re_f", c.forward),
        a("re_b", c.backward),
        a("re", c.total),
        a("kept_s", crate::format::bytes(r.saved_bytes_store() as f64)),
        a("kept_r", crate::format::bytes(r.saved_bytes_recompute() as f64)),
    ]
}

/// The question with or without the upstream gradient's read counted.
fn prompt(keys: [&'static str; 2], v: &Values) -> Text {
    Text::new(keys[(v.choice("upstream") == "1") as usize], &args(v))
}

fn store(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: prompt(["practice.recompute.store", "practice.recompute.store.dy"], &v),
        answer: Answer::count(recompute(&v).accesses_store()),
        explain: Text::new("practice.recompute.why", &args(&v)),
        state: v,
    }
}

fn saved(r: &mut Rng) -> Made {
    let v = case(r);
    Made {
        prompt: prompt(["practice.recompute.saved", "practice.recompute.saved.dy"], &v),
        answer: Answer::count(recompute(&v).accesses_saved()),
        explain: Text::new("practice.recompute.why", &args(&v)),
        state: v,
    }
}

fn kept(r: &mut Rng) -> Made {
    let v = case(r);
    let c = recompute(&v);
    Made {
        prompt: Text::new("practice.recompute.kept", &args(&v)),
        answer: Answer::real(c.saved_bytes_store() as f64 / 1e6, 0.02),
        explain: Text::new("practice.recompute.kept.why", &args(&v)),
        state: v,
    }
}

#[rustfmt::skip]
static STRINGS: &[(&str, &str, &str)] = crate::texts![
    ("practice.recompute.store", "{depth} sigmoids in a row, forward and backward, not counting the read of the upstream gradient: if every activation is stored for backward, how many arrays are read or written in HBM?", "连续 {depth} 个 sigmoid，前向加反向，不计上游梯度的读取：如果为反向保存每个激活值，一共要读写多少个 HBM 数组？"),
    ("practice.recompute.store.dy", "{depth} sigmoids in a row, forward and backward, counting the read of the upstream gradient dy: if every activation is stored for backward, how many arrays are read or written in HBM?", "连续 {depth} 个 sigmoid，前向加反向，计入上游梯度 dy 的读取：如果为反向保存每个激活值，一共要读写多少个 HBM 数组？"),
    ("practice.recompute.saved", "{depth} sigmoids in a row, forward and backward, not counting the read of the upstream gradient: how many fewer HBM array accesses does recomputing the sigmoids from x make than storing them?", "连续 {depth} 个 sigmoid，前向加反向，不计上游梯度的读取：从 x 重算 sigmoid 比保存它们少读写多少个 HBM 数组？"),
    ("practice.recompute.saved.dy", "{depth} sigmoids in a row, forward and backward, counting the read of the upstream gradient dy: how many fewer HBM array accesses does recomputing the sigmoids from x make than storing them?", "连续 {depth} 个 sigmoid，前向加反向，计入上游梯度 dy 的读取：从 x 重算 sigmoid 比保存它们少读写多少个 HBM 数组？"),
    ("practice.recompute.why", "Storing: forward {store_f}, backward {store_b}: {store} accesses. Recomputing: forward {re_f}, backward {re_b}: {re}. The {depth} extra sigmoids run in registers, almost free for a memory-bound kernel.", "保存：前向 {store_f}，反向 {store_b}：共 {store} 次。重算：前向 {re_f}，反向 {re_b}：共 {re} 次。多算的 {depth} 个 sigmoid 在寄存器里完成，对内存受限的核函数几乎免费。"),
    ("practice.recompute.kept", "{depth} sigmoids in a row on n = {n} elements in {dtype}: storing every activation for backward keeps how many MB?", "对 n = {n} 个 {dtype} 元素连续做 {depth} 个 sigmoid：为反向保存每个激活值要占多少 MB？"),
    ("practice.recompute.kept.why", "{depth} activations of n elements: {kept_s}. Recomputing keeps only x: {kept_r}.", "{depth} 个长度为 n 的激活值：{kept_s}。重算只需保存 x：{kept_r}。"),
];
