// derivation: laplace::online_update
// derivation: laplace::predictive_summary
//! # The online Laplace and the vMF predictive (LAM App. C, E)
//!
//! **Claim 1 (accumulation).** With α = 0 and λ = 0 (a fixed θ), T steps of `online_update`
//! give exactly Λ_T = Λ₀ + Σ_t mean_s ReLU(H_θ(θ_{t,s})) and leave θ unchanged. The per-sample
//! Hessians are small integers (negatives included, to exercise the ReLU), S is a power of two
//! and σ_prior² dyadic, so every sum is exact and the proof asserts bit equality.
//!
//! **Claim 2 (memory factor and step).** With a constant Hessian c and gradient g,
//! Λ_T = (1 − α)^T Λ₀ + c Σ_{k<T} (1 − α)^k and θ_T = θ₀ − Tλg, within `LAPLACE`.
//!
//! **Claim 3 (predictive, no spread).** When all S weight samples are equal, 1/κ̂ = 0 exactly and
//! μ̂ = Wx/‖Wx‖ within `LAPLACE`.
//!
//! **Claim 4 (predictive = chapter 02).** For spread-out samples, μ̂ is chapter 02's
//! `mean_resultant` direction and 1/κ̂ = 1/`kappa_sra(M, R̄, 0)`, within `LAPLACE` amplified by
//! 1/(1 − R̄²) — the conditioning of the chapter-02 route, which forms 1 − R̄² by cancellation.
use crate::support;
use probdml::laplace::{self, online_update, predictive_summary};

use probdml::vmf;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use support::config;

const ONLINE: &str = "laplace::online_update";
const PREDICTIVE: &str = "laplace::predictive_summary";

proptest! {
    #![proptest_config(config(256, 0x04_1a_03))]

    #[test]
    fn claim1_exact_accumulation(n in 1usize..6, log_s in 0u32..4, steps in 1usize..20,
                                 log_var in -3i32..4, theta0 in prop::collection::vec(-5.0..5.0f64, 6),
                                 salt in 0u64..1000, seed in any::<u64>()) {
        let s = 1usize << log_s;
        let prior_variance = 2f64.powi(log_var);
        let mut mean = theta0[..n].to_vec();
        let mut precision = laplace::prior_precision(n, prior_variance).unwrap();
        let mut expected = precision.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut counter = salt;
        for _ in 0..steps {
            let mut relu_sum = vec![0.0; n];
            online_update(&mut mean, &mut precision, &mut rng, s, 0.0, 0.0, |theta, g, h| {
                for k in 0..n {
                    g[k] = theta[k];
                    h[k] = ((counter * 7 + k as u64 * 3) % 11) as f64 - 4.0;
                    relu_sum[k] += h[k].max(0.0);
                }
                counter += 1;
            }).unwrap();
            for k in 0..n { expected[k] += relu_sum[k] / s as f64; }
        }
        prop_assert_eq!(&precision, &expected);
        prop_assert_eq!(&mean[..], &theta0[..n]);
    }

    #[test]
    fn claim2_memory_factor_and_step(alpha in prop_oneof![Just(0.0), Just(0.001), 0.0..1.0f64],
                                     c in 0.0..10.0f64, g in -3.0..3.0f64, lr in 0.0..0.1f64,
                                     steps in 1usize..30, s in 1usize..5, seed in any::<u64>()) {
        let prior = 2.0;
        let mut mean = vec![1.0, -1.0];
        let mut precision = laplace::prior_precision(2, 1.0 / prior).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..steps {
            online_update(&mut mean, &mut precision, &mut rng, s, lr, alpha, |_, gr, h| {
                gr.fill(g);
                h.fill(c);
            }).unwrap();
        }
        let keep = 1.0 - alpha;
        let t = steps as i32;
        let geometric: f64 = (0..t).map(|k| keep.powi(k)).sum();
        let lambda = keep.powi(t) * prior + c * geometric;
        for &p in &precision { support::check_at(ONLINE, "precision", p, lambda); }
        for (m, m0) in mean.iter().zip([1.0, -1.0]) {
            let want = m0 - steps as f64 * lr * g;
            support::check_with_magnitude(ONLINE, "mean", *m, want, 1.0 + steps as f64 * lr * g.abs());
        }
    }

    #[test]
    fn claim3_equal_samples(m in 2usize..8, f in 1usize..6, s in 1usize..20,
                            w in prop::collection::vec(-2.0..2.0f64, 48), x in prop::collection::vec(0.1..2.0f64, 6)) {
        let w = &w[..m * f];
        let x = &x[..f];
        let y: Vec<f64> = w.chunks_exact(f).map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum()).collect();
        let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        prop_assume!(r > 1e-3);
        let samples: Vec<f64> = (0..s).flat_map(|_| w.iter().copied()).collect();
        let p = predictive_summary(&samples, m, x).unwrap();
        prop_assert_eq!(p.inverse_kappa, 0.0);
        let direction: Vec<f64> = y.iter().map(|v| v / r).collect();
        // A unit vector: absolute.
        support::check_slice_with_magnitude(PREDICTIVE, "μ̂ = y/‖y‖", &p.direction, &direction, 1.0);
    }

    #[test]
    fn claim4_matches_chapter_02(m in 2usize..6, f in 1usize..5, s in 2usize..40, spread in 0.1..1.0f64,
                                 w in prop::collection::vec(-2.0..2.0f64, 30), x in prop::collection::vec(0.1..2.0f64, 5),
                                 noise in prop::collection::vec(-1.0..1.0f64, 40 * 30)) {
        let (w, x) = (&w[..m * f], &x[..f]);
        let samples: Vec<f64> = (0..s).flat_map(|t| w.iter().enumerate().map(move |(k, v)| (k, v, t)))
            .map(|(k, v, t)| v + spread * noise[t * 30 + k]).collect();
        let z: Vec<f64> = samples.chunks_exact(m * f).flat_map(|ws| {
            let y: Vec<f64> = ws.chunks_exact(f).map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum()).collect();
            let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
            y.into_iter().map(move |v| v / r)
        }).collect();
        let Ok(mr) = vmf::mean_resultant(&z, m) else { return Ok(()) };
        prop_assume!(mr.rbar > 0.05 && mr.rbar < 1.0);
        let p = predictive_summary(&samples, m, x).unwrap();
        support::check_slice_with_magnitude(PREDICTIVE, "μ̂", &p.direction, &mr.direction, 1.0);
        let reference = 1.0 / vmf::kappa_sra(m, mr.rbar, 0).unwrap();
        let amplification = 1.0 / (1.0 - mr.rbar * mr.rbar);
        let case = format!("1/κ̂ at R̄ = {}", mr.rbar);
        support::check_with_magnitude(PREDICTIVE, case, p.inverse_kappa, reference, amplification * reference);
    }
}
