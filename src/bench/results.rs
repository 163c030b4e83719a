//! A finished run's numbers: their rounding, the URL form (`r`) and its
//! check, the JSON export and the derived figures (roofs, ridge, ratios).

/// A finished run, as kept in the URL and exported as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// (log2 of the working set in bytes, GB/s) of the copy sweep.
    pub sweep: Vec<(u32, f64)>,
    /// [elements, ms of x*2, ms of x*2+1 unfused, ms of x*2+1 fused].
    pub fusion: [f64; 4],
    /// [side, ms straight copy, ms transposed copy].
    pub transpose: [f64; 3],
    /// [elements, ms f32 copy, ms u16 copy].
    pub halves: [f64; 3],
    /// (n, GFLOP/s) of the matmuls.
    pub matmul: Vec<(u32, f64)>,
}

/// Four significant digits, as the URL keeps a number.
pub fn round4(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 0.0;
    }
    format!("{x:.3e}").parse().unwrap_or(0.0)
}

/// A size (exact) followed by times (four significant digits).
fn keep_size<const N: usize>(v: [f64; N]) -> [f64; N] {
    let mut out = v.map(round4);
    out[0] = v[0];
    out
}

/// The largest text the `r` parameter takes.
pub const MAX_ENCODED: usize = 600;

impl Results {
    pub fn rounded(&self) -> Self {
        Results {
            sweep: self.sweep.iter().map(|&(e, g)| (e, round4(g))).collect(),
            fusion: keep_size(self.fusion),
            transpose: keep_size(self.transpose),
            halves: keep_size(self.halves),
            matmul: self.matmul.iter().map(|&(n, g)| (n, round4(g))).collect(),
        }
    }

    /// Bandwidth at the largest working set (GB/s): the memory roof.
    pub fn bandwidth_gbps(&self) -> f64 {
        self.sweep.iter().max_by_key(|(e, _)| *e).map_or(0.0, |(_, g)| *g)
    }
    /// The fastest matmul (GFLOP/s): the compute roof.
    pub fn peak_gflops(&self) -> f64 {
        self.matmul.iter().map(|(_, g)| *g).fold(0.0, f64::max)
    }
    /// Where the roofs meet (FLOP/byte).
    pub fn ridge(&self) -> f64 {
        self.peak_gflops() / self.bandwidth_gbps().max(1e-12)
    }
    /// Time of x*2+1 unfused ÷ time of x*2 (about 2: twice the bytes).
    pub fn unfused_ratio(&self) -> f64 {
        self.fusion[2] / self.fusion[1].max(1e-12)
    }
    /// Time of x*2+1 fused ÷ time of x*2 (about 1: the same bytes).
    pub fn fused_ratio(&self) -> f64 {
        self.fusion[3] / self.fusion[1].max(1e-12)
    }
    /// Time of the transposed copy ÷ the straight one.
    pub fn transpose_ratio(&self) -> f64 {
        self.transpose[2] / self.transpose[1].max(1e-12)
    }
    /// Time of the f32 copy ÷ the u16 copy (about 2: half the bytes).
    pub fn u16_speedup(&self) -> f64 {
        self.halves[1] / self.halves[2].max(1e-12)
    }
    /// GFLOP/s of x*2, x*2+1 unfused and fused.
    pub fn elementwise_gflops(&self) -> [f64; 3] {
        let n = self.fusion[0];
        [n / (self.fusion[1] * 1e6), 2.0 * n / (self.fusion[2] * 1e6), 2.0 * n / (self.fusion[3] * 1e6)]
    }

    /// The URL form: sections joined by `*`, items by `_`, numbers by `-`
    /// (characters a query keeps as they are): `S<log2 bytes>-<GB/s>_…`,
    /// `F<n>-<ms x*2>-<ms unfused>-<ms fused>`, `T<side>-<ms>-<ms>`,
    /// `H<n>-<ms f32>-<ms u16>`, `M<n>-<GFLOP/s>_…`.
    pub fn encode(&self) -> String {
        let join = |v: &[f64]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("-");
        let pairs = |v: &[(u32, f64)]| v.iter().map(|(k, g)| format!("{k}-{g}")).collect::<Vec<_>>().join("_");
        format!(
            "S{}*F{}*T{}*H{}*M{}",
            pairs(&self.sweep),
            join(&self.fusion),
            join(&self.transpose),
            join(&self.halves),
            pairs(&self.matmul)
        )
    }

    /// The inverse of [`Results::encode`], with the reason a text is unusable.
    pub fn decode(s: &str) -> Result<Results, String> {
        if s.len() > MAX_ENCODED {
            return Err(format!("longer than {MAX_ENCODED} characters"));
        }
        let sections: Vec<&str> = s.split('*').collect();
        let [sw, fu, tr, ha, mm] = sections[..] else {
            return Err("expected five sections S*F*T*H*M".into());
        };
        let num = |t: &str| -> Result<f64, String> {
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                return Err(format!("not a number: {t:?}"));
            }
            t.parse::<f64>().map_err(|_| format!("not a number: {t:?}")).and_then(|x| {
                if x.is_finite() && x <= 1e12 {
                    Ok(x)
                } else {
                    Err(format!("out of range: {t}"))
                }
            })
        };
        let body = |sec: &str, tag: char| -> Result<String, String> {
            sec.strip_prefix(tag).map(str::to_string).ok_or_else(|| format!("section {tag} missing"))
        };
        let pairs = |sec: &str, tag: char, max_key: u32| -> Result<Vec<(u32, f64)>, String> {
            let b = body(sec, tag)?;
            let out = b
                .split('_')
                .map(|item| match item.split('-').collect::<Vec<_>>()[..] {
                    [k, g] => {
                        let k = num(k)?;
                        if k.fract() != 0.0 || k < 1.0 || k > max_key as f64 {
                            return Err(format!("bad size {k} in {tag}"));
                        }
                        Ok((k as u32, num(g)?))
                    }
                    _ => Err(format!("bad item {item:?} in {tag}")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            if out.len() > 16 {
                return Err(format!("too many items in {tag}"));
            }
            Ok(out)
        };
        fn fixed<const N: usize>(
            b: String,
            tag: char,
            num: &dyn Fn(&str) -> Result<f64, String>,
        ) -> Result<[f64; N], String> {
            let v = b.split('-').map(num).collect::<Result<Vec<_>, _>>()?;
            v.try_into().map_err(|_| format!("section {tag} needs {N} numbers"))
        }
        let fusion = fixed::<4>(body(fu, 'F')?, 'F', &num)?;
        let transpose = fixed::<3>(body(tr, 'T')?, 'T', &num)?;
        let halves = fixed::<3>(body(ha, 'H')?, 'H', &num)?;
        for (v, tag) in [(fusion[0], 'F'), (transpose[0], 'T'), (halves[0], 'H')] {
            if v.fract() != 0.0 || v < 1.0 {
                return Err(format!("bad size in {tag}"));
            }
        }
        let r = Results { sweep: pairs(sw, 'S', 40)?, fusion, transpose, halves, matmul: pairs(mm, 'M', 1 << 16)? };
        Ok(r)
    }

    /// Every number in the order both the URL and the JSON write them.
    pub fn numbers(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.sweep.iter().flat_map(|&(e, g)| [(1u64 << e) as f64, g]).collect();
        v.extend(self.fusion);
        v.extend(self.transpose);
        v.extend(self.halves);
        v.extend(self.matmul.iter().flat_map(|&(n, g)| [n as f64, g]));
        v
    }

    /// The export: the same numbers as the URL (sizes in bytes for the
    /// sweep), then the derived figures.
    pub fn to_json(&self) -> String {
        let sweep: Vec<String> =
            self.sweep.iter().map(|&(e, g)| format!(r#"{{"bytes":{},"gbps":{g}}}"#, 1u64 << e)).collect();
        let mm: Vec<String> = self.matmul.iter().map(|&(n, g)| format!(r#"{{"n":{n},"gflops":{g}}}"#)).collect();
        let [fn_, x2, un, fu] = self.fusion;
        let [tn, st, tt] = self.transpose;
        let [hn, f32ms, u16ms] = self.halves;
        format!(
            concat!(
                r#"{{"sweep":[{}],"fusion":{{"elements":{},"x2_ms":{},"unfused_ms":{},"fused_ms":{}}},"#,
                r#""transpose":{{"side":{},"straight_ms":{},"transposed_ms":{}}},"#,
                r#""halves":{{"elements":{},"f32_ms":{},"u16_ms":{}}},"matmul":[{}],"#,
                r#""derived":{{"bandwidth_gbps":{},"peak_gflops":{},"ridge_flop_per_byte":{},"unfused_over_x2":{},"fused_over_x2":{}}}}}"#
            ),
            sweep.join(","),
            fn_,
            x2,
            un,
            fu,
            tn,
            st,
            tt,
            hn,
            f32ms,
            u16ms,
            mm.join(","),
            self.bandwidth_gbps(),
            self.peak_gflops(),
            self.ridge(),
            self.unfused_ratio(),
            self.fused_ratio()
        )
    }
}

/// The check of the `r` URL parameter: empty (not measured yet) or a
/// [`Results::encode`] text.
pub fn check_results(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    Results::decode(s).map(|_| ())
}
