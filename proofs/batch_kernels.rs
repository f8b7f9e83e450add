//! Claim: each batch kernel returns, for every input, what its scalar function returns — the
//! same bits (`special::log_bessel_i_batch`, `vmf::mean_resultant_length_batch`,
//! `vmf::kappa_mle_batch`, `vmf::kappa_sra_batch`, `vmf::VonMisesFisher::sample_n_into`, and `vmf::log_norm_const_batch`
//! for `M ≠ 3`), or within 4 ulps where the batch evaluates another closed form
//! (`log_norm_const_batch` at `M = 3`, ln C_3(κ) = −ln 4π − ln(sinh κ/κ)).
//!
//! The scalar functions carry the error budgets against the 256-bit references
//! (`proofs/special_bessel.rs`, `proofs/special_ratio.rs`, `proofs/vmf_normaliser.rs`,
//! `proofs/vmf_kappa.rs`, `proofs/vmf_sampler.rs`); bit-identity hands those budgets to the batch
//! kernels. A few points are also checked against the references directly.
//!
//! Inputs by category: every regime boundary of `special/log_bessel_i.rs` (x = 32, x = ¾ν²,
//! ν = 20), the lane kernels' range edges (0, the smallest subnormal, `MIN_POSITIVE`, 10¹⁵⁰
//! and just above), log-spaced grids, seeded random values, and lengths that are not a multiple
//! of the sixteen lanes.
// derivation: special::log_bessel_i_batch
// derivation: vmf::mean_resultant_length_batch
// derivation: vmf::kappa_mle_batch
// derivation: vmf::kappa_sra_batch
// derivation: vmf::VonMisesFisher::sample_n_into

use crate::support;
use probdml::special::{self, exact};
use probdml::vmf::{self, VonMisesFisher};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Arguments for one order: every regime and range edge, a grid and random values; 203 values
/// (not a multiple of 16).
fn arguments(nu: f64, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut xs = vec![
        0.0,
        5e-324,
        1e-310,
        f64::MIN_POSITIVE,
        1e-300,
        31.999_999_999_999_996,
        32.0,
        0.75 * nu * nu,
        0.75 * (nu + 1.0) * (nu + 1.0),
        1e150,
        1.000_000_000_000_000_2e150,
        1e200,
        f64::MAX,
    ];
    xs.extend((0..=120).map(|i| 10f64.powf(-8.0 + 16.0 * i as f64 / 120.0)));
    while xs.len() < 203 {
        xs.push(10f64.powf(rng.random_range(-6.0..6.0)));
    }
    xs
}

const ORDERS: [f64; 14] = [
    0.0, 0.5, 1.0, 1.5, 7.0, 19.5, 19.999, 20.0, 20.5, 63.0, 127.0, 255.0, 1023.0, 5e4,
];

/// Each order's arguments as generated (unsorted: below ν = 20 the batch visits them sorted by
/// regime) and sorted (visited in their own order, in chunks of one regime and per value
/// across a boundary).
#[test]
fn log_bessel_i_batch_is_the_scalar_function_bit_for_bit() {
    for (seed, &nu) in ORDERS.iter().enumerate() {
        let unsorted = arguments(nu, seed as u64);
        let mut sorted = unsorted.clone();
        sorted.sort_by(f64::total_cmp);
        for (order, xs) in [("unsorted", unsorted), ("sorted", sorted)] {
            let mut out = vec![0.0; xs.len()];
            special::log_bessel_i_batch(nu, &xs, &mut out).expect("valid input");
            for (&x, &v) in xs.iter().zip(&out) {
                let want = special::log_bessel_i(nu, x);
                assert_eq!(
                    v.to_bits(),
                    want.to_bits(),
                    "ν = {nu}, x = {x:e} ({order}): {v} vs {want}"
                );
            }
        }
    }
}

#[test]
fn log_bessel_i_batch_meets_the_reference_budget() {
    let (nu, xs) = (255.0, [1e-3, 1.0, 170.0, 3e4]);
    let mut out = [0.0; 4];
    special::log_bessel_i_batch(nu, &xs, &mut out).expect("valid input");
    for (&x, &v) in xs.iter().zip(&out) {
        let want = exact::log_bessel_i(nu, x);
        support::check_at(
            "special::log_bessel_i_batch",
            format!("ν = {nu}, x = {x}"),
            v,
            want,
        );
    }
}

/// Every `M` from 2 to 64 (the orders below, at and above the Debye threshold ν = 20, half
/// and whole), and 128, 512, 1000.
fn dimensions() -> Vec<usize> {
    (2..=64).chain([128, 512, 1000]).collect()
}

/// Concentrations over every regime of each `M`.
fn concentrations(dim: usize) -> Vec<f64> {
    let nu = dim as f64 / 2.0 - 1.0;
    arguments(nu, dim as u64)
}

#[test]
fn log_norm_const_batch_is_the_scalar_function_for_every_dimension() {
    for dim in dimensions() {
        let kappas = concentrations(dim);
        let mut out = vec![0.0; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).expect("valid input");
        for (&k, &v) in kappas.iter().zip(&out) {
            let want = vmf::log_norm_const(dim, k);
            if dim == 3 {
                // Another closed form: within 4 ulps of the scalar kernel (its budget).
                let ulps = (v.to_bits() as i64 - want.to_bits() as i64).unsigned_abs();
                assert!(ulps <= 4, "M = 3, κ = {k:e}: {ulps} ulps");
            } else {
                assert_eq!(v.to_bits(), want.to_bits(), "M = {dim}, κ = {k:e}");
            }
        }
    }
}

#[test]
fn mean_resultant_length_batch_is_the_scalar_function_for_every_dimension() {
    for dim in dimensions() {
        let kappas = concentrations(dim);
        let mut out = vec![0.0; kappas.len()];
        vmf::mean_resultant_length_batch(dim, &kappas, &mut out).expect("valid input");
        for (&k, &v) in kappas.iter().zip(&out) {
            let want = vmf::mean_resultant_length(dim, k);
            assert_eq!(
                v.to_bits(),
                want.to_bits(),
                "M = {dim}, κ = {k:e}: {v} vs {want}"
            );
        }
    }
}

#[test]
fn kappa_mle_batch_is_the_scalar_function() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut rbars: Vec<f64> = (0..100).map(|i| i as f64 / 100.0).collect();
    rbars.extend([
        1e-300,
        1e-12,
        0.5,
        0.999_999,
        1.0 - 1e-12,
        1.0 - f64::EPSILON,
    ]);
    rbars.extend((0..51).map(|_| rng.random_range(0.0..1.0)));
    for dim in [2, 3, 5, 16, 41, 42, 128, 512] {
        let mut out = vec![0.0; rbars.len()];
        vmf::kappa_mle_batch(dim, &rbars, &mut out).expect("R̄ in [0, 1)");
        for (&r, &k) in rbars.iter().zip(&out) {
            let want = vmf::kappa_mle(dim, r).expect("R̄ in [0, 1)");
            assert_eq!(k.to_bits(), want.to_bits(), "M = {dim}, R̄ = {r}");
        }
    }
}

/// Sra's iteration in lanes against the scalar function, at every step count from Banerjee's
/// start alone to five steps: both sides of `R̄ = ½` (the two residuals, gathered apart) mixed
/// in one batch, `R̄ = 0`, the ends of `[0, 1)`, dimensions on both sides of `M = 42` (where the
/// lanes start), and the dimensions where the complement route leaves the uniform expansion
/// for some κ (`M = 42 … 100`, where the radius 50 is reached only for larger κ).
#[test]
fn kappa_sra_batch_is_the_scalar_function() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut rbars: Vec<f64> = (0..100).map(|i| i as f64 / 100.0).collect();
    rbars.extend([
        1e-300,
        1e-12,
        0.5,
        0.5_f64.next_up(),
        0.999_999,
        1.0 - 1e-12,
        1.0 - f64::EPSILON,
    ]);
    rbars.extend((0..60).map(|_| rng.random_range(0.0..1.0)));
    for dim in [2, 3, 41, 42, 43, 64, 100, 128, 512, 4096, 100_000] {
        for steps in 0..=5 {
            let mut out = vec![0.0; rbars.len()];
            vmf::kappa_sra_batch(dim, &rbars, steps, &mut out).expect("R̄ in [0, 1)");
            for (&r, &k) in rbars.iter().zip(&out) {
                let want = vmf::kappa_sra(dim, r, steps).expect("R̄ in [0, 1)");
                assert_eq!(
                    k.to_bits(),
                    want.to_bits(),
                    "M = {dim}, R̄ = {r}, {steps} steps"
                );
            }
        }
    }
}

/// Where `sample_n_into` has no cosines to draw in lanes (`M = 2`, its own rotation; `κ = 0`,
/// normalised normals), it draws what a loop of `sample_into` draws. For `M ≥ 3`, `κ > 0` its
/// stream is its own (Wood's test eight proposals at a time, `vmf/wood.rs`), and its law is
/// tested by `proofs/vmf_sampler_law.rs` (`sample_n_into_whole_law`).
#[test]
fn sample_n_into_draws_what_a_loop_of_sample_into_draws() {
    for (dim, kappa) in [(2, 3.0), (2, 1e6), (3, 0.0), (128, 0.0)] {
        let mut mu: Vec<f64> = (0..dim).map(|i| (i as f64 + 1.0).sin()).collect();
        let norm = mu.iter().map(|v| v * v).sum::<f64>().sqrt();
        mu.iter_mut().for_each(|v| *v /= norm);
        let sampler = VonMisesFisher::new(&mu, kappa).expect("valid vMF");
        let n = 37;
        let mut batch = vec![0.0; n * dim];
        sampler
            .sample_n_into(&mut ChaCha8Rng::seed_from_u64(9), n, &mut batch)
            .expect("n·M entries");
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut one = vec![0.0; dim];
        for row in batch.chunks_exact(dim) {
            sampler.sample_into(&mut rng, &mut one).expect("M entries");
            let (a, b): (Vec<u64>, Vec<u64>) = (
                row.iter().map(|v| v.to_bits()).collect(),
                one.iter().map(|v| v.to_bits()).collect(),
            );
            assert_eq!(a, b, "M = {dim}, κ = {kappa}");
        }
    }
}

#[test]
fn batch_kernels_refuse_bad_input_by_name() {
    let mut out = [0.0; 2];
    let err = special::log_bessel_i_batch(1.0, &[1.0, f64::NAN], &mut out).unwrap_err();
    assert!(err.to_string().contains("xs"), "{err}");
    let err = special::log_bessel_i_batch(-1.0, &[1.0, 2.0], &mut out).unwrap_err();
    assert!(err.to_string().contains("nu"), "{err}");
    let err = vmf::mean_resultant_length_batch(10, &[1.0, -2.0], &mut out).unwrap_err();
    assert!(err.to_string().contains("kappas"), "{err}");
    let err = vmf::mean_resultant_length_batch(10, &[1.0], &mut out).unwrap_err();
    assert!(err.to_string().contains("out"), "{err}");
    let err = vmf::kappa_mle_batch(10, &[0.5, 1.0], &mut out).unwrap_err();
    assert!(err.to_string().contains("rbars"), "{err}");
    let err = vmf::kappa_mle_batch(1, &[0.5, 0.5], &mut out).unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
    let err = vmf::kappa_sra_batch(512, &[0.5, -0.1], 2, &mut out).unwrap_err();
    assert!(err.to_string().contains("rbars"), "{err}");
    let err = vmf::kappa_sra_batch(512, &[0.5], 2, &mut out).unwrap_err();
    assert!(err.to_string().contains("out"), "{err}");
    let err = vmf::kappa_sra_batch(1, &[0.5, 0.5], 2, &mut out).unwrap_err();
    assert!(err.to_string().contains("dim"), "{err}");
    let sampler = VonMisesFisher::new(&[1.0, 0.0, 0.0], 1.0).expect("valid vMF");
    let err = sampler
        .sample_n_into(&mut ChaCha8Rng::seed_from_u64(1), 2, &mut [0.0; 5])
        .unwrap_err();
    assert!(err.to_string().contains("out"), "{err}");
}
