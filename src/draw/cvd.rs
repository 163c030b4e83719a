//! The palette under the common colour-vision deficiencies. Each colour is
//! simulated for protanopia, deuteranopia and tritanopia at full severity
//! (Machado, Oliveira & Fernandes 2009, the matrices applied in linear sRGB),
//! then compared in CIELAB (D65): the colours that tell states apart must stay
//! at least ΔE*ab 10 apart for every deficiency (about four times a just
//! noticeable difference). Every state also has a word: a legend entry, a
//! chip's text or a figure.

use crate::scene::{Rgba, Theme};

const MACHADO: [(&str, [[f64; 3]; 3]); 3] = [
    ("protanopia", [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    (
        "deuteranopia",
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    ),
    ("tritanopia", [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
];

fn linear(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The colour as seen with deficiency `m`, in CIELAB.
fn seen(c: Rgba, m: &[[f64; 3]; 3]) -> [f64; 3] {
    let l = [linear(c.0), linear(c.1), linear(c.2)];
    lab(std::array::from_fn(|i| (0..3).map(|j| m[i][j] * l[j]).sum::<f64>().clamp(0.0, 1.0)))
}

/// The smallest ΔE*ab between two colours of `set` under any of the deficiencies.
fn worst(set: &[(&str, Rgba)]) -> (f64, String) {
    let mut out = (f64::MAX, String::new());
    for (name, m) in &MACHADO {
        for (i, (a, ca)) in set.iter().enumerate() {
            for (b, cb) in &set[i + 1..] {
                let (p, q) = (seen(*ca, m), seen(*cb, m));
                let d = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f64>().sqrt();
                if d < out.0 {
                    out = (d, format!("{a}/{b} under {name}"));
                }
            }
        }
    }
    out
}

#[test]
fn state_colours_stay_apart_under_colour_vision_deficiencies() {
    use super::divergence::part_color;
    use crate::sim::divergence::Part;
    for th in [Theme::normal(), Theme::present()] {
        let sets: [&[(&str, Rgba)]; 4] = [
            &[("waiting", th.waiting), ("busy", th.busy), ("busy-hot", th.busy_hot), ("done", th.done)],
            &[("fill", th.fill_tint), ("steady", th.steady_tint), ("drain", th.drain_tint), ("load", th.load_tint)],
            &[("A", th.a_color), ("B", th.b_color)],
            &[
                ("then", part_color(Part::Then)),
                ("else", part_color(Part::Else)),
                ("after", part_color(Part::After)),
                ("idle", th.waiting),
            ],
        ];
        for set in sets {
            let (d, pair) = worst(set);
            assert!(d >= 10.0, "{pair}: ΔE {d:.1} (present: {})", th.present);
        }
    }
}

#[test]
fn the_simulation_keeps_grey_grey_and_merges_red_and_green_for_protanopia() {
    let protan = &MACHADO[0].1;
    let grey = seen(Rgba::rgb(128, 128, 128), protan);
    assert!(grey[1].abs() < 1.0 && grey[2].abs() < 1.0, "{grey:?}");
    let identity = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    let (red, green) = (Rgba::rgb(220, 40, 40), Rgba::rgb(40, 160, 40));
    let delta = |m: &[[f64; 3]; 3]| {
        let (p, q) = (seen(red, m), seen(green, m));
        (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f64>().sqrt()
    };
    assert!(delta(protan) < 0.5 * delta(&identity), "{} vs {}", delta(protan), delta(&identity));
}
