//! Where `vmf::log_norm_const_batch` spends its time: per value for each `M` of
//! `examples/compare_peers.rs` (2500 κ log-spaced over 10⁻³ … 10⁴) and per κ range within it,
//! against the scalar loop; then the mix that `scripts/peers/python_view.py` hands the Python
//! binding (143 unsorted κ, log-uniform over 10⁻² … 10^2.5, for each 2 ≤ M < 700), with its
//! M < 42 part apart. Best of 20–200 calls each.
//!
//! Run: `cargo run --release --example log_norm_const_regimes`
//! (`ONLY=128` runs the batch at one M in a loop, for a profiler).

use probdml::vmf;
use std::hint::black_box;
use std::time::Instant;

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut b = f64::INFINITY;
    for _ in 0..reps {
        let t = Instant::now();
        f();
        b = b.min(t.elapsed().as_secs_f64());
    }
    b
}

fn main() {
    let n = 2500;
    let kappas: Vec<f64> = (0..n)
        .map(|i| 10f64.powf(-3.0 + 7.0 * i as f64 / 2499.0))
        .collect();
    let mut out = vec![0.0; n];
    if let Ok(m) = std::env::var("ONLY") {
        let dim: usize = m.parse().expect("ONLY names a dimension");
        for _ in 0..4000 {
            vmf::log_norm_const_batch(dim, black_box(&kappas), &mut out).expect("valid κ");
        }
        return;
    }
    let ranges: [(f64, f64); 6] = [
        (0.0, 1.0),
        (1.0, 10.0),
        (10.0, 32.0),
        (32.0, 100.0),
        (100.0, 1e3),
        (1e3, 1e5),
    ];
    for dim in [3usize, 16, 128, 512] {
        let t = best(200, || {
            vmf::log_norm_const_batch(dim, black_box(&kappas), &mut out).expect("valid κ")
        });
        let ts = best(50, || {
            for (o, &k) in out.iter_mut().zip(&kappas) {
                *o = vmf::log_norm_const(dim, black_box(k));
            }
        });
        print!(
            "M={dim}: batch {:.1} ns/value, scalar {:.1} ns/value |",
            t / n as f64 * 1e9,
            ts / n as f64 * 1e9
        );
        for (lo, hi) in ranges {
            let sub: Vec<f64> = kappas
                .iter()
                .copied()
                .filter(|&k| k >= lo && k < hi)
                .collect();
            let mut o = vec![0.0; sub.len()];
            let t = best(200, || {
                vmf::log_norm_const_batch(dim, black_box(&sub), &mut o).expect("valid κ")
            });
            print!(
                " [{lo:e},{hi:e}) n={} {:.1}",
                sub.len(),
                t / sub.len() as f64 * 1e9
            );
        }
        println!();
    }
    // python view mix: dims 2..700, kappa 10^U(-2,2.5), ~143 per dim
    let mut s = 12345u64;
    let mut rnd = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut total = 0.0;
    let mut total_small = 0.0;
    let per = 143;
    for dim in 2..700usize {
        let ks: Vec<f64> = (0..per).map(|_| 10f64.powf(-2.0 + 4.5 * rnd())).collect();
        let mut o = vec![0.0; per];
        let t = best(20, || {
            vmf::log_norm_const_batch(dim, black_box(&ks), &mut o).expect("valid κ")
        });
        total += t;
        if dim < 42 {
            total_small += t;
        }
    }
    println!(
        "python mix: total {:.2} ms for {} values ({:.1} ns/value), M<42 part {:.2} ms",
        total * 1e3,
        698 * per,
        total / (698 * per) as f64 * 1e9,
        total_small * 1e3
    );
}
