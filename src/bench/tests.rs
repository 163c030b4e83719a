use super::*;

#[test]
fn kernels_compute_what_they_say() {
    let x: Vec<f32> = (0..1000).map(pattern).collect();
    let mut y = vec![0.0; 1000];
    copy_f32(&x, &mut y);
    assert_eq!(x, y);
    axpb(&x, &mut y, 2.0, 1.0);
    assert!(y.iter().zip(&x).all(|(y, x)| *y == x * 2.0 + 1.0));
    let h: Vec<u16> = (0..999).map(|i| i as u16 * 3).collect();
    let mut g = vec![0u16; 999];
    copy_u16(&h, &mut g);
    assert_eq!(h, g);
    let n = 37;
    let m: Vec<f32> = (0..n * n).map(pattern).collect();
    let mut t = vec![0.0; n * n];
    transpose_rows(&m, &mut t, n, 0, 20);
    transpose_rows(&m, &mut t, n, 20, n);
    for i in 0..n {
        for j in 0..n {
            assert_eq!(t[j * n + i], m[i * n + j]);
        }
    }
}

#[test]
fn blocked_matmul_equals_the_plain_one() {
    for n in [8, 40, 64, 136] {
        let a: Vec<f32> = (0..n * n).map(|i| pattern(i) / 64.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| pattern(i * 5 + 1) / 64.0).collect();
        let mut c = vec![7.0; n * n];
        matmul_rows(&a, &b, &mut c, n, 0, 5);
        matmul_rows(&a, &b, &mut c, n, 5, n);
        for i in 0..n {
            for j in 0..n {
                let want: f32 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
                assert!((c[i * n + j] - want).abs() <= 1e-3 * want.abs().max(1.0), "n={n} ({i},{j})");
            }
        }
    }
}

#[test]
fn every_task_checks_out_after_a_repetition() {
    let n = CHUNK + 100;
    for kernel in [Kernel::Copy, Kernel::Scale, Kernel::Unfused, Kernel::Fused, Kernel::CopyF32, Kernel::CopyU16] {
        let mut w = Work::new(Task { kernel, n });
        assert!(!w.check());
        w.run(w.task.pieces() * 2 - 1);
        assert!(w.check(), "{kernel:?}");
    }
    for (kernel, n) in [(Kernel::Straight, 300), (Kernel::Transposed, 1100), (Kernel::Matmul, 96)] {
        let mut w = Work::new(Task { kernel, n });
        w.run(w.task.pieces());
        assert!(w.check(), "{kernel:?}");
    }
}

#[test]
fn intensities_are_the_lectures() {
    // notes §5.4: x*2 is 0.125 FLOP/byte in f32, x*2+1 0.25 when fused; matmul n/6.
    let t = |kernel, n| Task { kernel, n };
    let i = |t: Task| t.flops() / t.bytes();
    assert_eq!(i(t(Kernel::Scale, 1000)), 0.125);
    assert_eq!(i(t(Kernel::Fused, 1000)), 0.25);
    assert_eq!(i(t(Kernel::Unfused, 1000)), 0.125);
    assert!((i(t(Kernel::Matmul, 64)) - 10.67).abs() < 0.01);
    assert!((i(t(Kernel::Matmul, 1024)) - 170.7).abs() < 0.1);
}

#[test]
fn the_meter_warms_up_grows_batches_and_ends_on_a_repetition() {
    // Runs a meter to the end, each repetition taking `ms`: its batches.
    let run = |m: &mut Meter, ms: f64| {
        let mut batches = vec![];
        while !m.done() {
            let k = m.next();
            batches.push(k);
            m.record(k, ms * k as f64);
            assert!(batches.len() < 1000);
        }
        batches
    };
    let mut m = Meter::new(3, 10.0);
    let batches = run(&mut m, 0.3);
    assert_eq!(m.run % 3, 0);
    assert!(batches.iter().all(|&k| k <= 3));
    assert!((m.ms_per_rep() - 0.9).abs() < 1e-9);
    // One piece per repetition: the batch doubles while short.
    let mut m = Meter::new(1, 5.0);
    let ks = run(&mut m, 0.01);
    assert!(ks.windows(2).all(|w| w[1] >= w[0]) && *ks.last().unwrap() >= 64);
    assert!((m.ms_per_rep() - 0.01).abs() < 1e-9);
}

fn tiny() -> Plan {
    Plan {
        sweep: vec![1 << 14, 1 << 21],
        fusion_n: CHUNK + 8,
        transpose_n: 128,
        halves_n: 5000,
        matmul: vec![32, 64],
        budget_ms: 1.0,
    }
}

#[test]
fn a_session_with_a_fake_clock_gives_results_that_round_trip() {
    let mut s = Session::new(tiny());
    let mut steps = 0;
    while let Some(k) = s.batch() {
        s.run(k);
        s.record(k, 0.25 * k as f64);
        steps += 1;
        assert!(s.progress() <= 1.0);
        assert!(steps < 100_000);
    }
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    assert_eq!(s.progress(), 1.0);
    let r = s.results().unwrap();
    assert_eq!(r.sweep.len(), 2);
    assert_eq!(r.sweep[0].0, 14);
    let text = r.encode();
    assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || "._*-".contains(c)), "{text}");
    assert_eq!(Results::decode(&text).unwrap(), r);
    assert_eq!(Results::decode(&text).unwrap().encode(), text);
}

fn sample() -> Results {
    Results {
        sweep: vec![(14, 61.23), (20, 40.5), (28, 9.876)],
        fusion: [8388608.0, 6.123, 12.87, 6.2],
        transpose: [4096.0, 14.1, 120.5],
        halves: [16777216.0, 12.25, 6.5],
        matmul: vec![(256, 21.5), (512, 24.75)],
    }
}

#[test]
fn the_url_and_the_json_hold_the_same_numbers() {
    let r = sample();
    assert_eq!(r.rounded(), r);
    let text = r.encode();
    assert_eq!(
        text,
        "S14-61.23_20-40.5_28-9.876*F8388608-6.123-12.87-6.2*T4096-14.1-120.5*H16777216-12.25-6.5*M256-21.5_512-24.75"
    );
    let back = Results::decode(&text).unwrap();
    assert_eq!(back, r);
    // The JSON's numbers, in order, before the derived figures, are the URL's.
    let json = r.to_json();
    let head = json.split(r#""derived""#).next().unwrap();
    let nums: Vec<f64> = head
        .split(':')
        .skip(1)
        .map(|t| t.split(|c: char| !(c.is_ascii_digit() || c == '.')).next().unwrap())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(nums, back.numbers());
    assert!(json.contains(r#""bandwidth_gbps":9.876"#) && json.contains(r#""peak_gflops":24.75"#), "{json}");
    assert!((r.ridge() - 24.75 / 9.876).abs() < 1e-12);
    assert!((r.unfused_ratio() - 12.87 / 6.123).abs() < 1e-12);
}

#[test]
fn bad_texts_are_refused_with_a_reason() {
    assert!(check_results("").is_ok());
    for bad in [
        "abc",
        "-3",
        "100000",
        "1e9",
        "%",
        "S14-1*F1-2-3*T1-2-3*H1-2-3",
        "S14-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1e5",
        "S14-1*F1-2-3-4*T1-2-3*H1-2*M8-1",
        "S99-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1",
        "S14-inf*F1-2-3-4*T1-2-3*H1-2-3*M8-1",
        "S14-1*F0.5-2-3-4*T1-2-3*H1-2-3*M8-1",
    ] {
        assert!(check_results(bad).is_err(), "{bad}");
    }
    assert!(check_results("S14-1*F1-2-3-4*T1-2-3*H1-2-3*M8-1").is_ok());
    assert!(check_results(&"9".repeat(MAX_ENCODED + 1)).is_err());
}
