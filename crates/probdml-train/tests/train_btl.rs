//! The BTL and PFE training methods (chapter 05 in tensor form, `probdml_train::method`):
//!
//! * the tensor CLT NLL and its autograd gradient against the math crate's fast twin
//!   [`triplet::nll_gradient`] on identical f64 inputs (random batches, diagonal and isotropic
//!   variances, σ² from 10⁻⁶ to 10³), and on tiny sizes against the exact twin (dual numbers
//!   through the dense moments); budget [`budget::TRIPLET_GRADIENT`] (entrywise
//!   `|Δ| ≤ 10⁻¹⁰·max|reference|`, the NLL to `10⁻¹⁰·max(1, |NLL|)`);
//! * the Gaussian-prior KL against [`triplet::gaussian_kl`] (and the quadrature twin), its
//!   gradient against central differences of the math crate's value;
//! * the vMF KL to the uniform prior against [`vmf::kl_to_uniform`] and its exact twin, the
//!   gradient against central differences of the exact twin, κ from 10⁻⁶ to 10⁵;
//! * the whole BTL loss against [`triplet::loss`];
//! * PFE's mutual likelihood score against a plain f64 evaluation of PFE eq. (3) and its
//!   gradient against central differences of that evaluation (the math crate has no MLS);
//! * the triplet miner's output is valid and hardest-first;
//! * bad input is a `TrainError`, never a panic;
//! * each method learns the seeded synthetic set (loss falls, mAP@1 far above chance 0.1) in
//!   a few seconds, and PFE leaves the deterministic weights untouched.

use probdml::{triplet, vmf};
use probdml_proofs::registry::budget;
use probdml_train::checkpoint;
use probdml_train::checkpoint::TrainingState;
use probdml_train::config::{MethodConfig, MethodKind, OptimiserOptions, TrainConfig, ValidConfig};
use probdml_train::json;
use probdml_train::loss::bayesian_triplet::{gaussian_kl_rows, vmf_kl_rows, TripletBatch};
use probdml_train::method::btl::BtlOptions;
use probdml_train::method::pfe::{mls_loss, mutual_likelihood_score};
use probdml_train::mining::triplets::{MinedTriplets, Negatives};
use probdml_train::pipeline;
use probdml_train::TrainError;
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;
use tch::{Device, Kind, Tensor};

mod train_support;
use train_support::{host, leaf, learning_run, scratch, serial};

/// The options of a BTL run's method.
fn btl_options(config: &mut TrainConfig) -> &mut BtlOptions {
    match &mut config.method {
        MethodConfig::BtlGaussian(o) => &mut o.btl,
        MethodConfig::BtlVmf(o) => &mut o.btl,
        other => panic!("{} is not a BTL method", other.name()),
    }
}

/// `config` (of a method that starts from a deterministic checkpoint) starting from `dir`.
fn warm_start(config: &mut TrainConfig, dir: PathBuf) {
    config
        .method
        .warm_start_mut()
        .expect("a method that starts from a checkpoint")
        .init_checkpoint = Some(dir);
}

/// A variance drawn log-uniformly in [1e-6, 1e3], with the extremes themselves 1 time in 8.
fn variance(rng: &mut rand::rngs::StdRng) -> f64 {
    match rng.random_range(0..16) {
        0 => 1e-6,
        1 => 1e3,
        _ => 10f64.powf(rng.random_range(-6.0..3.0)),
    }
}

/// A random batch: T, D, six row-major arrays (variances T × D, or T × 1 when `isotropic`).
struct Case {
    t: usize,
    d: usize,
    isotropic: bool,
    mu: [Vec<f64>; 3],
    var: [Vec<f64>; 3],
    margin: f64,
}

impl Case {
    fn random(rng: &mut rand::rngs::StdRng, max_t: usize, max_d: usize) -> Self {
        let (t, d) = (rng.random_range(1..=max_t), rng.random_range(1..=max_d));
        let isotropic = rng.random_bool(0.5);
        let vd = if isotropic { 1 } else { d };
        let mu = std::array::from_fn(|_| (0..t * d).map(|_| rng.random_range(-2.0..2.0)).collect());
        let var = std::array::from_fn(|_| (0..t * vd).map(|_| variance(rng)).collect());
        let margin = if rng.random_bool(0.3) {
            0.0
        } else {
            rng.random_range(0.0..1.5)
        };
        Self {
            t,
            d,
            isotropic,
            mu,
            var,
            margin,
        }
    }

    /// The variances as the math crate takes them: T × D (isotropic ones repeated).
    fn full_var(&self, k: usize) -> Vec<f64> {
        if !self.isotropic {
            return self.var[k].clone();
        }
        self.var[k]
            .iter()
            .flat_map(|v| std::iter::repeat_n(*v, self.d))
            .collect()
    }

    /// (NLL, gradients μ_a, σ²_a, μ_p, σ²_p, μ_n, σ²_n) by the tensor code and autograd.
    fn tensor(&self) -> (f64, [Vec<f64>; 6]) {
        let vd = if self.isotropic { 1 } else { self.d };
        let mu: Vec<Tensor> = self
            .mu
            .iter()
            .map(|m| leaf(m, &[self.t as i64, self.d as i64]))
            .collect();
        let var: Vec<Tensor> = self
            .var
            .iter()
            .map(|v| leaf(v, &[self.t as i64, vd as i64]))
            .collect();
        let nll = TripletBatch {
            mu_a: &mu[0],
            var_a: &var[0],
            mu_p: &mu[1],
            var_p: &var[1],
            mu_n: &mu[2],
            var_n: &var[2],
        }
        .clt_nll(self.margin)
        .unwrap();
        nll.backward();
        let g = |x: &Tensor| host(&x.grad());
        (
            nll.double_value(&[]),
            [
                g(&mu[0]),
                g(&var[0]),
                g(&mu[1]),
                g(&var[1]),
                g(&mu[2]),
                g(&var[2]),
            ],
        )
    }

    /// The reference's gradients, the variance ones summed over D for isotropic variances.
    fn reference(&self, r: &triplet::TripletGradient) -> [Vec<f64>; 6] {
        let fold = |g: &[f64]| -> Vec<f64> {
            if self.isotropic {
                g.chunks(self.d).map(|c| c.iter().sum()).collect()
            } else {
                g.to_vec()
            }
        };
        [
            r.mu_a.clone(),
            fold(&r.var_a),
            r.mu_p.clone(),
            fold(&r.var_p),
            r.mu_n.clone(),
            fold(&r.var_n),
        ]
    }
}

fn assert_gradients_close(ours: &[Vec<f64>; 6], want: &[Vec<f64>; 6], tol: f64, what: &str) {
    let scale = want
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(f64::MIN_POSITIVE);
    let names = ["mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n"];
    for (k, (a, b)) in ours.iter().zip(want).enumerate() {
        assert_eq!(a.len(), b.len(), "{what}: {} length", names[k]);
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            assert!(
                (x - y).abs() <= tol * scale,
                "{what}: ∂/∂{}[{i}] tensor {x:e} vs math crate {y:e} (scale {scale:e})",
                names[k]
            );
        }
    }
}

#[test]
fn clt_nll_and_gradient_equal_the_fast_twin() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let tol = budget::TRIPLET_GRADIENT;
    for case_no in 0..300 {
        let c = Case::random(&mut rng, 8, 6);
        let (nll, grads) = c.tensor();
        let (va, vp, vn) = (c.full_var(0), c.full_var(1), c.full_var(2));
        let r = triplet::nll_gradient(&c.mu[0], &va, &c.mu[1], &vp, &c.mu[2], &vn, c.d, c.margin)
            .unwrap();
        let what = format!("case {case_no} (T={}, D={}, iso {})", c.t, c.d, c.isotropic);
        assert!(
            (nll - r.nll).abs() <= tol * r.nll.abs().max(1.0),
            "{what}: NLL tensor {nll:e} vs math crate {:e}",
            r.nll
        );
        assert_gradients_close(&grads, &c.reference(&r), tol, &what);
    }
}

#[test]
fn clt_nll_and_gradient_equal_the_exact_twin_on_tiny_sizes() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(6);
    let tol = budget::TRIPLET_GRADIENT;
    for case_no in 0..40 {
        let c = Case::random(&mut rng, 2, 3);
        let (nll, grads) = c.tensor();
        let (va, vp, vn) = (c.full_var(0), c.full_var(1), c.full_var(2));
        let r = triplet::exact::nll_gradient(
            &c.mu[0], &va, &c.mu[1], &vp, &c.mu[2], &vn, c.d, c.margin,
        )
        .unwrap();
        let what = format!("exact case {case_no} (T={}, D={})", c.t, c.d);
        assert!(
            (nll - r.nll).abs() <= tol * r.nll.abs().max(1.0),
            "{what}: NLL tensor {nll:e} vs exact {:e}",
            r.nll
        );
        assert_gradients_close(&grads, &c.reference(&r), tol, &what);
    }
}

/// Var τ = 0: a satisfied triplet contributes 0 with zero gradient (as the math crate), a
/// violated one is an error naming var_a.
#[test]
fn deterministic_triplets_are_the_indicator() {
    let zero = leaf(&[0.0, 0.0], &[1, 2]);
    let (a, p, n) = (
        leaf(&[0.0, 0.0], &[1, 2]),
        leaf(&[0.1, 0.0], &[1, 2]),
        leaf(&[2.0, 0.0], &[1, 2]),
    );
    let batch = TripletBatch {
        mu_a: &a,
        var_a: &zero,
        mu_p: &p,
        var_p: &zero,
        mu_n: &n,
        var_n: &zero,
    };
    let nll = batch.clt_nll(0.5).unwrap();
    assert_eq!(nll.double_value(&[]), 0.0);
    let r = triplet::nll_gradient(
        &[0.0, 0.0],
        &[0.0; 2],
        &[0.1, 0.0],
        &[0.0; 2],
        &[2.0, 0.0],
        &[0.0; 2],
        2,
        0.5,
    )
    .unwrap();
    assert_eq!(r.nll, 0.0);
    nll.backward();
    assert_eq!(host(&a.grad()), vec![0.0, 0.0]);
    let violated = TripletBatch {
        mu_n: &p,
        mu_p: &n,
        ..batch
    };
    match violated.clt_nll(0.5) {
        Err(TrainError::InvalidConfig { arg, .. }) => assert_eq!(arg, "var_a"),
        other => panic!("a violated deterministic triplet must be an error, got {other:?}"),
    }
}

#[test]
fn gaussian_kl_equals_the_math_crate_and_its_gradient_the_difference_quotient() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for case_no in 0..200 {
        let (t, d) = (rng.random_range(1..5usize), rng.random_range(1..7usize));
        let isotropic = rng.random_bool(0.5);
        let vd = if isotropic { 1 } else { d };
        let mu: Vec<f64> = (0..t * d).map(|_| rng.random_range(-2.0..2.0)).collect();
        let var: Vec<f64> = (0..t * vd).map(|_| variance(&mut rng)).collect();
        let prior = 1.0 / d as f64;
        let (mu_t, var_t) = (
            leaf(&mu, &[t as i64, d as i64]),
            leaf(&var, &[t as i64, vd as i64]),
        );
        let kl = gaussian_kl_rows(&mu_t, &var_t, prior).unwrap();
        kl.sum(Kind::Double).backward();
        let (kl, g_mu, g_var) = (host(&kl), host(&mu_t.grad()), host(&var_t.grad()));
        for r in 0..t {
            let row_mu = &mu[r * d..(r + 1) * d];
            let row_var: Vec<f64> = (0..d)
                .map(|k| if isotropic { var[r] } else { var[r * d + k] })
                .collect();
            let want = triplet::gaussian_kl(row_mu, &row_var, prior).unwrap();
            let what = format!("case {case_no} row {r}");
            // Both sum D terms each bounded by their own magnitude: relative 1e-12 of the sum
            // of |terms| (μ²/s² dominates or the ratio terms do).
            let terms: f64 = row_mu.iter().map(|m| m * m / prior).sum::<f64>()
                + row_var
                    .iter()
                    .map(|v| v / prior + (v / prior).ln().abs() + 1.0)
                    .sum::<f64>();
            assert!(
                (kl[r] - want).abs() <= 1e-12 * terms,
                "{what}: KL tensor {:e} vs math crate {want:e}",
                kl[r]
            );
            if d <= 3 {
                let exact = triplet::exact::gaussian_kl(row_mu, &row_var, prior).unwrap();
                assert!(
                    (kl[r] - exact).abs() <= 1e-9 * terms,
                    "{what}: vs exact {exact:e}"
                );
            }
            // Central differences of the math crate's value, step relative to the entry (the
            // variances are > 0): with the rounding noise of the quotient, ~1e-15·|f|/h.
            let fd = |f: &dyn Fn(f64) -> f64, x: f64| {
                let h = 1e-6 * x.abs().max(1e-3);
                ((f(x + h) - f(x - h)) / (2.0 * h), 1e-14 * f(x).abs() / h)
            };
            for k in 0..d {
                let f = |x: f64| {
                    let mut m = row_mu.to_vec();
                    m[k] = x;
                    triplet::gaussian_kl(&m, &row_var, prior).unwrap()
                };
                let (want, noise) = fd(&f, row_mu[k]);
                let got = g_mu[r * d + k];
                assert!(
                    (got - want).abs() <= 1e-6 * (1.0 + want.abs()) + noise,
                    "{what}: ∂KL/∂μ[{k}] {got:e} vs {want:e}"
                );
            }
            let var_entries = if isotropic { 1 } else { d };
            for k in 0..var_entries {
                let f = |x: f64| {
                    let v: Vec<f64> = (0..d)
                        .map(|j| if isotropic || j == k { x } else { row_var[j] })
                        .collect();
                    triplet::gaussian_kl(row_mu, &v, prior).unwrap()
                };
                let x = if isotropic { var[r] } else { var[r * d + k] };
                let (want, noise) = fd(&f, x);
                let got = g_var[r * vd + k];
                assert!(
                    (got - want).abs() <= 1e-6 * (1.0 + want.abs()) + noise,
                    "{what}: ∂KL/∂σ²[{k}] at σ² = {x:e}: {got:e} vs {want:e}"
                );
            }
        }
    }
}

#[test]
fn vmf_kl_and_its_gradient_equal_chapter_02() {
    let kappas = [
        0.0, 1e-6, 1e-3, 0.1, 0.5, 1.0, 3.0, 10.0, 47.0, 300.0, 1e3, 1e4, 1e5,
    ];
    for dim in [2usize, 3, 8, 128] {
        let k = Tensor::from_slice(&kappas).set_requires_grad(true);
        let kl = vmf_kl_rows(&k, dim).unwrap();
        kl.sum(Kind::Double).backward();
        let (kl, grad) = (host(&kl), host(&k.grad()));
        for (i, &kappa) in kappas.iter().enumerate() {
            let fast = vmf::kl_to_uniform(dim, kappa);
            let exact = vmf::exact::kl_to_uniform(dim, kappa);
            assert_eq!(kl[i], fast, "D={dim} κ={kappa}");
            assert!(
                (kl[i] - exact).abs() <= 1e-10 * exact.max(1e-300) + 1e-300,
                "D={dim} κ={kappa}: {} vs exact {exact:e}",
                kl[i]
            );
            // dKL/dκ against central differences of the exact twin (≈ κ/D near 0,
            // ≈ (D − 1)/(2κ) for large κ).
            if kappa > 0.0 {
                let h = 1e-5 * kappa;
                let fd = (vmf::exact::kl_to_uniform(dim, kappa + h)
                    - vmf::exact::kl_to_uniform(dim, kappa - h))
                    / (2.0 * h);
                assert!(
                    (grad[i] - fd).abs() <= 1e-6 * fd.abs() + 1e-12,
                    "D={dim} κ={kappa}: dKL/dκ {} vs difference quotient {fd:e}",
                    grad[i]
                );
            } else {
                assert_eq!(grad[i], 0.0, "D={dim}: dKL/dκ at κ = 0");
            }
        }
    }
}

/// The whole BTL objective: tensor NLL + 1e-6·(KL̄_a + KL̄_p + KL̄_n) against triplet::loss.
#[test]
fn btl_loss_equals_the_math_crate_loss() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for _ in 0..50 {
        let mut c = Case::random(&mut rng, 6, 4);
        c.margin = 0.0;
        let vd = if c.isotropic { 1 } else { c.d };
        let mu: Vec<Tensor> =
            c.mu.iter()
                .map(|m| leaf(m, &[c.t as i64, c.d as i64]))
                .collect();
        let var: Vec<Tensor> = c
            .var
            .iter()
            .map(|v| leaf(v, &[c.t as i64, vd as i64]))
            .collect();
        let prior = 1.0 / c.d as f64;
        let nll = TripletBatch {
            mu_a: &mu[0],
            var_a: &var[0],
            mu_p: &mu[1],
            var_p: &var[1],
            mu_n: &mu[2],
            var_n: &var[2],
        }
        .clt_nll(0.0)
        .unwrap();
        let kls: Vec<Tensor> = (0..3)
            .map(|k| {
                gaussian_kl_rows(&mu[k], &var[k], prior)
                    .unwrap()
                    .mean(Kind::Double)
            })
            .collect();
        let ours =
            (&nll + (&kls[0] + &kls[1] + &kls[2]) * triplet::DEFAULT_KL_SCALE).double_value(&[]);
        let r = triplet::nll_gradient(
            &c.mu[0],
            &c.full_var(0),
            &c.mu[1],
            &c.full_var(1),
            &c.mu[2],
            &c.full_var(2),
            c.d,
            0.0,
        )
        .unwrap();
        let kl_means: Vec<f64> = (0..3)
            .map(|k| {
                let v = c.full_var(k);
                (0..c.t)
                    .map(|r| {
                        triplet::gaussian_kl(
                            &c.mu[k][r * c.d..(r + 1) * c.d],
                            &v[r * c.d..(r + 1) * c.d],
                            prior,
                        )
                        .unwrap()
                    })
                    .sum::<f64>()
                    / c.t as f64
            })
            .collect();
        let want = triplet::loss(r.nll, &kl_means, triplet::DEFAULT_KL_SCALE).unwrap();
        assert!(
            (ours - want).abs() <= budget::TRIPLET_GRADIENT * want.abs().max(1.0),
            "loss {ours:e} vs {want:e}"
        );
    }
}

/// PFE eq. (3) in plain f64: the reference of the tensor MLS.
fn mls_reference(mi: &[f64], vi: &[f64], mj: &[f64], vj: &[f64]) -> f64 {
    let d = mi.len() as f64;
    let sum: f64 = (0..mi.len())
        .map(|l| {
            let s = vi[l] + vj[l];
            (mi[l] - mj[l]).powi(2) / s + s.ln()
        })
        .sum();
    -0.5 * sum - 0.5 * d * (2.0 * std::f64::consts::PI).ln()
}

#[test]
fn mutual_likelihood_score_and_gradient_equal_pfe_eq_3() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(9);
    for case_no in 0..100 {
        let (p, d) = (rng.random_range(1..5usize), rng.random_range(1..6usize));
        let draw = |rng: &mut rand::rngs::StdRng, var: bool| -> Vec<f64> {
            (0..p * d)
                .map(|_| {
                    if var {
                        variance(rng)
                    } else {
                        rng.random_range(-1.0..1.0)
                    }
                })
                .collect()
        };
        let (mi, vi, mj, vj) = (
            draw(&mut rng, false),
            draw(&mut rng, true),
            draw(&mut rng, false),
            draw(&mut rng, true),
        );
        let t = [
            leaf(&mi, &[p as i64, d as i64]),
            leaf(&vi, &[p as i64, d as i64]),
            leaf(&mj, &[p as i64, d as i64]),
            leaf(&vj, &[p as i64, d as i64]),
        ];
        let s = mutual_likelihood_score(&t[0], &t[1], &t[2], &t[3]);
        s.sum(Kind::Double).backward();
        let got = host(&s);
        let grad_vi = host(&t[1].grad());
        let grad_mi = host(&t[0].grad());
        for r in 0..p {
            let row = |x: &[f64]| x[r * d..(r + 1) * d].to_vec();
            let want = mls_reference(&row(&mi), &row(&vi), &row(&mj), &row(&vj));
            assert!(
                (got[r] - want).abs() <= 1e-12 * want.abs().max(1.0),
                "case {case_no}: MLS {} vs {want:e}",
                got[r]
            );
            for l in 0..d {
                for (which, grad) in [(0usize, &grad_mi), (1, &grad_vi)] {
                    let base = if which == 0 { row(&mi) } else { row(&vi) };
                    // A step relative to the entry (σ² reaches 1e-6), and the quotient's
                    // rounding noise ~1e-14·|MLS|/h.
                    let h = 1e-6 * base[l].abs().max(if which == 0 { 1e-3 } else { 0.0 });
                    let eval = |x: f64| {
                        let mut v = base.clone();
                        v[l] = x;
                        if which == 0 {
                            mls_reference(&v, &row(&vi), &row(&mj), &row(&vj))
                        } else {
                            mls_reference(&row(&mi), &v, &row(&mj), &row(&vj))
                        }
                    };
                    let fd = (eval(base[l] + h) - eval(base[l] - h)) / (2.0 * h);
                    let noise = 1e-14 * eval(base[l]).abs() / h;
                    let g = grad[r * d + l];
                    assert!(
                        (g - fd).abs() <= 1e-6 * (1.0 + fd.abs()) + noise,
                        "case {case_no}: ∂MLS/∂{}[{l}] {g:e} vs {fd:e}",
                        if which == 0 { "μ_i" } else { "σ²_i" }
                    );
                }
            }
        }
    }
    // The loss is −mean MLS over the same-class pairs i < j only.
    let mu = Tensor::from_slice(&[0.0f64, 0.0, 1.0, 0.0, 0.0, 1.0]).view([3, 2]);
    let var = Tensor::full([3, 2], 0.5, (Kind::Double, Device::Cpu));
    let labels = Tensor::from_slice(&[4i64, 4, 7]);
    let (loss, pairs) = mls_loss(&mu, &var, &labels).unwrap();
    assert_eq!(pairs, 1);
    let want = -mls_reference(&[0.0, 0.0], &[0.5, 0.5], &[1.0, 0.0], &[0.5, 0.5]);
    assert!((loss.double_value(&[]) - want).abs() < 1e-14);
    assert!(mls_loss(&mu, &var, &Tensor::from_slice(&[1i64, 2, 3])).is_none());
}

#[test]
fn the_miner_returns_valid_triplets_with_hardest_or_random_negatives() {
    let _guard = serial();
    tch::manual_seed(1);
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    for _ in 0..20 {
        let b = rng.random_range(2..40usize);
        let labels: Vec<i64> = (0..b).map(|_| rng.random_range(0..4)).collect();
        let z: Vec<f64> = (0..b * 3).map(|_| rng.random_range(-1.0..1.0)).collect();
        let zt = Tensor::from_slice(&z).view([b as i64, 3]);
        let hardest = rng.random_bool(0.5);
        let choice = if hardest {
            Negatives::Hardest
        } else {
            Negatives::Random
        };
        let mined = MinedTriplets::mine(&zt, &Tensor::from_slice(&labels), 5, choice);
        let (a, p, n) = (
            Vec::<i64>::try_from(&mined.anchor).unwrap(),
            Vec::<i64>::try_from(&mined.positive).unwrap(),
            Vec::<i64>::try_from(&mined.negative).unwrap(),
        );
        let d2 = |i: usize, j: usize| -> f64 {
            (0..3).map(|k| (z[i * 3 + k] - z[j * 3 + k]).powi(2)).sum()
        };
        let fewest = (0..b)
            .map(|i| labels.iter().filter(|l| **l != labels[i]).count())
            .min()
            .unwrap();
        let k = 5.min(fewest);
        let anchors = (0..b)
            .filter(|&i| (0..b).any(|j| j != i && labels[j] == labels[i]))
            .count();
        assert_eq!(a.len(), if k == 0 { 0 } else { anchors * k });
        for t in 0..a.len() {
            let (ai, pi, ni) = (a[t] as usize, p[t] as usize, n[t] as usize);
            assert!(ai != pi && labels[ai] == labels[pi] && labels[ai] != labels[ni]);
            let chosen: Vec<usize> = (0..a.len())
                .filter(|&s| a[s] as usize == ai)
                .map(|s| n[s] as usize)
                .collect();
            let mut distinct = chosen.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), k, "the negatives of an anchor are distinct");
            if !hardest {
                continue;
            }
            // No negative outside the chosen ones is closer than the farthest chosen one.
            let worst = chosen.iter().map(|&j| d2(ai, j)).fold(0.0, f64::max);
            for j in (0..b).filter(|&j| labels[j] != labels[ai] && !chosen.contains(&j)) {
                assert!(d2(ai, j) >= worst - 1e-12);
            }
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let ok = leaf(&[0.1, 0.2, 0.3, 0.4], &[2, 2]);
    let var = leaf(&[0.5, 0.5], &[2, 1]);
    let wide = leaf(&[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], &[2, 3]);
    let nan = leaf(&[0.5, f64::NAN], &[2, 1]);
    let inf = leaf(&[f64::INFINITY, 0.5], &[2, 1]);
    let negative = leaf(&[-0.5, 0.5], &[2, 1]);
    let arg_of = |r: Result<Tensor, TrainError>| match r {
        Err(TrainError::InvalidConfig { arg, .. }) => arg,
        other => panic!("expected an InvalidConfig error, got {other:?}"),
    };
    let batch = |mu_n: &Tensor, var_p: &Tensor| {
        TripletBatch {
            mu_a: &ok,
            var_a: &var,
            mu_p: &ok,
            var_p,
            mu_n,
            var_n: &var,
        }
        .clt_nll(0.1)
    };
    assert_eq!(arg_of(batch(&wide, &var)), "mu_n");
    assert_eq!(arg_of(batch(&ok, &nan)), "var_p");
    assert_eq!(arg_of(batch(&ok, &inf)), "var_p");
    assert_eq!(arg_of(batch(&ok, &negative)), "var_p");
    assert_eq!(arg_of(batch(&ok, &leaf(&[0.5; 6], &[2, 3]))), "var_p");
    let good = TripletBatch {
        mu_a: &ok,
        var_a: &var,
        mu_p: &ok,
        var_p: &var,
        mu_n: &ok,
        var_n: &var,
    };
    assert_eq!(arg_of(good.clt_nll(-1.0)), "margin");
    assert_eq!(arg_of(good.clt_nll(f64::NAN)), "margin");
    assert_eq!(arg_of(gaussian_kl_rows(&ok, &negative, 0.5)), "var");
    assert_eq!(arg_of(gaussian_kl_rows(&ok, &nan, 0.5)), "var");
    assert_eq!(arg_of(gaussian_kl_rows(&ok, &var, 0.0)), "prior_var");
    let kappa = |v: f64| Tensor::from_slice(&[1.0, v]);
    assert_eq!(arg_of(vmf_kl_rows(&kappa(-1.0), 3)), "kappa");
    assert_eq!(arg_of(vmf_kl_rows(&kappa(f64::NAN), 3)), "kappa");
    assert_eq!(arg_of(vmf_kl_rows(&kappa(f64::INFINITY), 3)), "kappa");
    assert_eq!(arg_of(vmf_kl_rows(&kappa(1.0), 1)), "latent-dim");
    // PFE without a deterministic checkpoint, or with a wrong one, fails before any step.
    let _guard = serial();
    let config = learning_run(MethodKind::Pfe);
    let train = probdml_train::method::TensorSet::new(
        &pipeline::load_data(&config.data, config.seed, &PathBuf::from("unused"))
            .unwrap()
            .train,
        config.data.geometry(),
        Device::Cpu,
    )
    .unwrap();
    match probdml_train::trainer::train(
        &ValidConfig::new(config.clone()).unwrap(),
        &train,
        Device::Cpu,
        None,
        false,
    ) {
        Err(TrainError::InvalidConfig { arg, .. }) => assert_eq!(arg, "init-checkpoint"),
        other => panic!("PFE without --init-checkpoint: {other:?}"),
    }
    let mut missing = config.clone();
    warm_start(&mut missing, scratch("train-btl", "no-such-run"));
    assert!(matches!(
        probdml_train::trainer::train(
            &ValidConfig::new(missing.clone()).unwrap(),
            &train,
            Device::Cpu,
            None,
            false
        ),
        Err(TrainError::Checkpoint { .. })
    ));
    // A method that starts from no checkpoint has no place for one: the flag is refused.
    let no_warm_start =
        train_support::TrainCommand::into_folder(&scratch("train-btl", "no-warm-start"))
            .with(&[
                ("--method", "hib"),
                (
                    "--init-checkpoint",
                    scratch("train-btl", "no-such-run").to_str().unwrap(),
                ),
            ])
            .run();
    assert!(
        !no_warm_start.success() && no_warm_start.stderr.contains("invalid `init-checkpoint`"),
        "--init-checkpoint with HIB: {no_warm_start:?}"
    );
}

/// BTL with `--init-checkpoint` starts its backbone and μ head from the deterministic weights
/// bit for bit and keeps its fresh σ² head; a checkpoint of another method is refused naming
/// the flag.
#[test]
fn btl_starts_from_a_deterministic_checkpoint_when_given_one() {
    let _guard = serial();
    let det_out = scratch("train-btl", "warm-start-det");
    let mut det = learning_run(MethodKind::Deterministic);
    det.optimiser.epochs = 1;
    train_support::train_and_evaluate(&det, &PathBuf::from("unused"), &det_out, false, Device::Cpu)
        .unwrap();
    let saved = checkpoint::read_tensors(&det_out.join(checkpoint::MODEL)).unwrap();
    for method in [MethodKind::BtlGaussian, MethodKind::BtlVmf] {
        let mut config = learning_run(method);
        warm_start(&mut config, det_out.clone());
        config.validate().unwrap();
        let fresh = probdml_train::method::build(&learning_run(method), Device::Cpu, 11).unwrap();
        let mut warm = probdml_train::method::build(&config, Device::Cpu, 11).unwrap();
        warm.initialise().unwrap();
        let fresh_vars = fresh.network().vs.variables();
        let mut copied = 0;
        for (name, var) in warm.network().vs.variables() {
            match saved.iter().find(|(n, _)| *n == name) {
                Some((_, t)) if name.starts_with("backbone.") || name.starts_with("head.") => {
                    assert!(var.equal(t), "{}: `{name}` not copied", method.name());
                    copied += 1;
                }
                _ => assert!(
                    var.equal(&fresh_vars[&name]),
                    "{}: `{name}` is not the fresh initialisation",
                    method.name()
                ),
            }
        }
        assert!(copied > 0);
    }
    // A BTL checkpoint is not a deterministic one.
    let btl_out = scratch("train-btl", "warm-start-btl");
    train_support::train_and_evaluate(
        &TrainConfig {
            optimiser: OptimiserOptions {
                epochs: 1,
                ..learning_run(MethodKind::BtlGaussian).optimiser
            },
            ..learning_run(MethodKind::BtlGaussian)
        },
        &PathBuf::from("unused"),
        &btl_out,
        false,
        Device::Cpu,
    )
    .unwrap();
    let mut config = learning_run(MethodKind::BtlVmf);
    warm_start(&mut config, btl_out);
    let mut wrong = probdml_train::method::build(&config, Device::Cpu, 11).unwrap();
    match wrong.initialise() {
        Err(TrainError::InvalidConfig { arg, .. }) => assert_eq!(arg, "init-checkpoint"),
        other => panic!("a BTL checkpoint as --init-checkpoint: {other:?}"),
    }
}

/// Trains `method` on the synthetic set; returns (first and last epoch's mean loss, mAP@1,
/// AUROC, output folder).
fn learns(method: MethodKind) -> (f64, f64, f64, f64, PathBuf) {
    let _guard = serial();
    let out = scratch("train-btl", method.name());
    let summary = train_support::train_and_evaluate(
        &learning_run(method),
        &PathBuf::from("unused"),
        &out,
        false,
        Device::Cpu,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", method.name()));
    let state: TrainingState = json::read_json(&out.join(checkpoint::STATE)).unwrap();
    let first = state.history.first().unwrap().mean_loss;
    let last = state.history.last().unwrap().mean_loss;
    let m = summary.metrics;
    let untrained =
        train_support::evaluate_retrieval_start(&summary.config, &out.join("untrained"))
            .unwrap_or_else(|e| panic!("{} untrained: {e}", method.name()));
    eprintln!(
        "{}: loss {first} → {last}, mAP@1 {:.3} (untrained {:.3}), AUROC {:?}",
        method.name(),
        m.map_at_1,
        untrained.map_at_1,
        m.auroc
    );
    assert!(
        m.map_at_1 > untrained.map_at_1 + train_support::MAP_GAIN,
        "{}: mAP@1 {:.3} is not {} above the untrained model's {:.3}",
        method.name(),
        m.map_at_1,
        train_support::MAP_GAIN,
        untrained.map_at_1
    );
    assert_eq!(m.id_count, 200);
    assert!(
        m.ece.is_some() && m.ausc.is_some(),
        "{}: uncertainty metrics",
        method.name()
    );
    (first, last, m.map_at_1, m.auroc.unwrap(), out)
}

#[test]
fn btl_gaussian_learns_the_synthetic_set() {
    let (first, last, map1, auroc, _) = learns(MethodKind::BtlGaussian);
    // Measured 81 % (btl-gaussian) and 82 % (btl-vmf) at this seed.
    assert!(
        (first - last) / first.abs() > 0.15,
        "loss {first} → {last} did not fall by 15 %"
    );
    assert!(map1 > 0.5, "mAP@1 {map1} barely above chance 0.1");
    assert!(auroc.is_finite());
}

#[test]
fn btl_vmf_learns_the_synthetic_set() {
    let (first, last, map1, auroc, _) = learns(MethodKind::BtlVmf);
    // Measured 81 % (btl-gaussian) and 82 % (btl-vmf) at this seed.
    assert!(
        (first - last) / first.abs() > 0.15,
        "loss {first} → {last} did not fall by 15 %"
    );
    assert!(map1 > 0.5, "mAP@1 {map1} barely above chance 0.1");
    assert!(auroc.is_finite());
}

/// PFE trains its σ² head on a deterministic run it trains first (train without
/// --init-checkpoint), and leaves that run's backbone and μ head bit for bit untouched.
#[test]
fn pfe_learns_sigma_on_a_frozen_deterministic_model() {
    let (first, last, map1, _, out) = learns(MethodKind::Pfe);
    // The mutual likelihood score moves slowly with the σ² head alone: measured 2.9 %.
    assert!(
        (first - last) / first.abs() > 0.01,
        "PFE loss {first} → {last} did not fall by 1 %"
    );
    assert!(map1 > 0.5, "mAP@1 {map1} barely above chance 0.1");
    let det = checkpoint::read_tensors(
        &out.join(probdml_train::checkpoint::layout::PFE_DETERMINISTIC)
            .join(checkpoint::MODEL),
    )
    .unwrap();
    let pfe = checkpoint::read_tensors(&out.join(checkpoint::MODEL)).unwrap();
    for (name, t) in &det {
        let ours = &pfe.iter().find(|(n, _)| n == name).unwrap().1;
        assert!(t.equal(ours), "PFE changed the frozen `{name}`");
    }
    assert!(pfe.iter().any(|(n, _)| n.starts_with("head_var.")));
    // The deterministic run's retrieval is PFE's (same μ).
    let det_metrics: probdml_train::evaluate::Metrics = json::read_json(
        &out.join(probdml_train::checkpoint::layout::PFE_DETERMINISTIC)
            .join("metrics.json"),
    )
    .unwrap();
    assert_eq!(det_metrics.map_at_1, map1);
}

/// A σ² head that turns non-finite stops the step with `NonFinite` naming the head and the
/// step (never a panic, never a silent NaN loss).
#[test]
fn a_non_finite_variance_head_stops_the_step_naming_it() {
    use probdml_train::guards::Position;
    use probdml_train::method::{self, Batch};
    let _guard = serial();
    let images = Tensor::rand([8, 1, 28, 28], (Kind::Float, Device::Cpu));
    let labels = Tensor::from_slice(&[0i64, 0, 1, 1, 2, 2, 3, 3]);
    let at = Position {
        epoch: 2,
        step: 7,
        global_step: 19,
    };
    for kind in [MethodKind::BtlGaussian, MethodKind::BtlVmf, MethodKind::Pfe] {
        let config = learning_run(kind);
        let mut m = method::build(&config, Device::Cpu, 1).unwrap();
        for (name, mut t) in m.var_store().variables() {
            if name.starts_with("head_var.fc2.bias") {
                let _ = tch::no_grad(|| t.fill_(f64::NAN));
            }
        }
        let step = m.step(&Batch {
            images: &images,
            labels: &labels,
            at,
            train_size: images.size()[0],
        });
        match step {
            Err(TrainError::NonFinite {
                tensor,
                epoch,
                step,
                ..
            }) => {
                assert!(
                    tensor.contains("head_var"),
                    "{}: names {tensor}",
                    kind.name()
                );
                assert_eq!((epoch, step), (2, 7));
            }
            other => panic!("{}: expected NonFinite, got {other:?}", kind.name()),
        }
    }
}

/// Every image starts at σ² = `BTL_INITIAL_VARIANCE` (the head's last layer starts at zero
/// weights and softplus⁻¹ of it; `variance_head` module docs), whatever its pixels: the
/// predicted uncertainty (σ² for the Gaussian prior, 1/κ = σ² for the vMF prior) of random
/// images equals it to f32 rounding of the bias (|Δσ²| ≤ σ'(b)·|b|·2⁻²⁴ ≈ 3e-9).
#[test]
fn btl_variance_starts_at_its_set_value_for_every_image() {
    use probdml_train::method;
    use probdml_train::method::btl::BTL_INITIAL_VARIANCE;
    use probdml_train::prediction::{PredictRequest, Prediction};
    let _guard = serial();
    tch::manual_seed(4);
    let images = Tensor::rand([32, 1, 28, 28], (Kind::Float, Device::Cpu)) * 3.0;
    for kind in [MethodKind::BtlGaussian, MethodKind::BtlVmf] {
        let m = method::build(&learning_run(kind), Device::Cpu, 5).unwrap();
        let request = PredictRequest {
            samples: 2,
            seed: 1,
            batch: 0,
            device: Device::Cpu,
        };
        match m.predict(&images, &request).unwrap() {
            Prediction::Distribution { uncertainty, .. } => {
                let u = host(&uncertainty.to_kind(Kind::Double));
                assert_eq!(u.len(), 32);
                for v in u {
                    assert!(
                        (v - BTL_INITIAL_VARIANCE).abs() <= 1e-8,
                        "{}: initial σ² {v}",
                        kind.name()
                    );
                }
            }
            other => panic!("{}: {other:?}", kind.name()),
        }
    }
}

/// `--btl-negatives` reaches the miner: from the same weights, batch and generator state (so
/// the same positives), the hardest negatives give every anchor a closer negative than a
/// uniform draw, hence a larger first-step loss; uniform negatives are the default, and a
/// configuration written before the option existed (when the hardest were the only rule) reads
/// as the hardest.
#[test]
fn the_btl_negatives_option_chooses_the_miner() {
    use probdml_train::guards::Position;
    use probdml_train::method::{self, Batch};
    let _guard = serial();
    tch::manual_seed(2);
    let images = Tensor::rand([64, 1, 28, 28], (Kind::Float, Device::Cpu));
    let labels = Tensor::arange(64, (Kind::Int64, Device::Cpu)).remainder(8);
    let at = Position {
        epoch: 1,
        step: 0,
        global_step: 0,
    };
    for kind in [MethodKind::BtlGaussian, MethodKind::BtlVmf] {
        let loss = |negatives: Negatives| -> f64 {
            let mut config = learning_run(kind);
            btl_options(&mut config).negatives = negatives;
            let mut m = method::build(&config, Device::Cpu, 9).unwrap();
            tch::manual_seed(77);
            let step = m
                .step(&Batch {
                    images: &images,
                    labels: &labels,
                    at,
                    train_size: 64,
                })
                .unwrap();
            assert_eq!(step.pairs, 64 * 5);
            step.loss.double_value(&[])
        };
        let (hardest, random) = (loss(Negatives::Hardest), loss(Negatives::Random));
        assert!(
            hardest > random,
            "{}: hardest-negative loss {hardest} not above the random one {random}",
            kind.name()
        );
    }
    let mut json_value = serde_json::to_value(learning_run(MethodKind::BtlGaussian)).unwrap();
    json_value.as_object_mut().unwrap().remove("btl");
    let mut old: TrainConfig = serde_json::from_value(json_value).unwrap();
    assert_eq!(btl_options(&mut old).negatives, Negatives::Hardest);
    assert_eq!(BtlOptions::default().negatives, Negatives::Random);
    let mut random = learning_run(MethodKind::BtlVmf);
    btl_options(&mut random).negatives = Negatives::Random;
    let text = serde_json::to_string(&random).unwrap();
    assert!(text.contains("\"negatives\":\"random\""), "{text}");
    let mut back: TrainConfig = serde_json::from_str(&text).unwrap();
    assert_eq!(btl_options(&mut back).negatives, Negatives::Random);
}
