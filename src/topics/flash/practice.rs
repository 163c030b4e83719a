//! Practice on `#/flash`: tiles computed under a causal mask, HBM bytes of
//! standard attention against flash, whether a block's working set fits in
//! SRAM.

use super::{flash_params, META};
use crate::params::Values;
use crate::practice::{a, ask, bank, values, yes_no, Answer, Made, Rng};
use crate::sim::flash::{Flash, Pass};
use crate::sim::hw::ML_DTYPES;

bank!("tiles" => tiles, "hbm" => hbm, "sram" => sram);

fn case(r: &mut Rng, causal: bool) -> Values {
    let n = r.pick(&[64, 96, 128, 200, 256, 512, 1024]);
    let (bq, bk) = (r.pick(&[16, 32, 64]), r.pick(&[16, 32, 64]));
    let d = r.pick(&[32, 64, 128]);
    let sram = r.pick(&[48, 100, 164, 228]);
    values(
        &META,
        &[
            ("n", n.to_string()),
            ("d", d.to_string()),
            ("bq", bq.to_string()),
            ("bk", bk.to_string()),
            ("causal", if causal { "1" } else { "0" }.into()),
            ("dtype", r.pick(ML_DTYPES).into()),
            ("sram", sram.to_string()),
        ],
    )
}

fn sim(v: &Values) -> Flash {
    Flash::schedule_only(flash_params(v))
}

fn args(v: &Values) -> Vec<(&'static str, String)> {
    let f = sim(v);
    let (std, fl) = (f.hbm_bytes_standard(Pass::Fwd), f.hbm_bytes_flash(Pass::Fwd));
    vec![
        a("n", f.p.n),
        a("d", f.p.d),
        a("bq", f.p.bq),
        a("bk", f.p.bk),
        a("dtype", v.choice("dtype")),
        a("e", f.p.elem_bytes),
        a("tr", f.tile_rows()),
        a("tc", f.tile_cols()),
        a("total", f.tile_rows() * f.tile_cols()),
        a("skipped", f.tiles_skipped()),
        a("computed", f.tiles_computed()),
        a("std", crate::format::bytes(std as f64)),
        a("flash", crate::format::bytes(fl as f64)),
        a("x", crate::format::number((10.0 * std as f64 / fl as f64).round() / 10.0)),
        a("sram", v.int("sram")),
        a("need", crate::format::number(f.sram_bytes() as f64)),
        a("budget", crate::format::number(f.p.sram as f64)),
    ]
}

fn tiles(r: &mut Rng) -> Made {
    let v = case(r, true);
    let f = sim(&v);
    let answer = Answer::count(f.tiles_computed()).with_traps(&[(f.tile_rows() * f.tile_cols()) as f64]);
    ask("practice.flash.tiles", answer, "practice.flash.tiles.why", args, v)
}

fn hbm(r: &mut Rng) -> Made {
    let causal = r.below(2) == 0;
    let v = case(r, causal);
    let answer = Answer::real(sim(&v).hbm_bytes_standard(Pass::Fwd) as f64 / 1e3, 0.02);
    ask("practice.flash.hbm", answer, "practice.flash.hbm.why", args, v)
}

fn sram(r: &mut Rng) -> Made {
    let v = case(r, true);
    let f = sim(&v);
    let answer = yes_no(f.fits_sram());
    let prompt = "practice.flash.sram";
    ask(prompt, answer, if f.fits_sram() { "practice.flash.sram.yes" } else { "practice.flash.sram.no" }, args, v)
}
