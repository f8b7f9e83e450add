//! # Probabilistic ProxyNCA++ (nivMF eqs. (1), (2), (5)–(7), Supp. F)
//!
//! Claims proved here:
//!
//! 1. **Gradients**: the analytic gradients of `nivmf::proxy_nca_loss` with respect to the
//!    embeddings, the proxies and the nivMF concentrations equal forward-mode derivatives
//!    (`num-dual`) of the loss written out at `M = 3`, where `ln C_3(κ) = ln κ − ln 4π − ln sinh κ`
//!    and `A_3(κ) = coth κ − 1/κ` are elementary, for Cos, L2, nivMF, heuristic nivMF, EL-vMF,
//!    B-vMF and KL-vMF, to `NIVMF_PROXY_GRADIENT` relative to the largest entry.
//! 2. **Fast ≈ exact**: the loss and distances agree with the reference (256-bit normalisers,
//!    compensated sums) to `NIVMF_PROXY_LOSS`, and the gradients with its Richardson central
//!    differences to `NIVMF_PROXY_FD`, at `M = 8`.
//! 3. **EL-nivMF** (eq. (5)): the Monte Carlo distance with `N` draws is unbiased for
//!    `−ln ∫ρζ` in the sense that `(1/N)Σ f(x_i)` lies within `MONTE_CARLO_SIGMAS` computed
//!    standard errors of the quadrature value `∫ρζ` on `S²`; its gradient (draws held fixed)
//!    equals central differences of the same Monte Carlo loss.
//! 4. **Supp. F** eqs. (42)–(45): `∂L^{Cos}/∂s_c = (π_c − 1[c = c*])/t` and
//!    `∂L^{L2}/∂s_c = 2κ_{p_c}κ_z(π_c − 1[c = c*])/t` — the latter scales with `κ_pκ_z` — checked
//!    against forward-mode derivatives in `s`. **Erratum:** the second line of eq. (45) writes
//!    the softmax weight as `exp((κ_p² + 2κ_pκ_z s)/t)`; from `d = κ_p² + κ_z² − 2κ_pκ_z s` it is
//!    `exp((−κ_p² + 2κ_pκ_z s)/t)` (pinned below with proxies of different norms, where the two
//!    differ).
//!    **Erratum (main text, §3.5 eqs. (8)–(9)):** the "else" branch (`p ≠ p*`) prints the true
//!    class's weight `π_{p*}`; the proxy's own `π_p` is right (finite differences, pinned below).
//! 5. **The sign of the KL logit** (a bug of the nivMF reference code): the logit is
//!    `−KL(ζ‖ρ_c)/t`; with `+KL` the true class would get the *smallest* probability. Pinned as
//!    a regression.

// derivation: nivmf::proxy_nca_loss
// derivation: nivmf::proxy_anchor_loss
// derivation: nivmf::joint_proxy_loss

use crate::support;
use num_dual::{Dual64, DualNum};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::Labels;
use probdml_proofs::registry::budget;
use std::f64::consts::PI;

const DIM: usize = 3;
const LABELS: [usize; 3] = [0, 2, 3];

fn embeddings() -> Vec<f64> {
    vec![2.0, -1.0, 0.5, 0.3, 7.0, -4.0, -9.0, 3.0, 12.0]
}
fn proxies() -> Vec<f64> {
    vec![
        5.0, -2.0, 1.0, 0.0, 8.0, 1.0, 1.0, 9.0, -6.0, -20.0, 5.0, 18.0,
    ]
}
fn concentrations() -> Vec<f64> {
    vec![0.5, 2.0, 7.0, 3.0, 3.0, 1.0, 10.0, 0.8, 4.0, 2.5, 6.0, 1.5]
}

const DETERMINISTIC: [ProxyDistance; 7] = [
    ProxyDistance::Cosine,
    ProxyDistance::L2,
    ProxyDistance::NivMf,
    ProxyDistance::NivMfHeuristic,
    ProxyDistance::ElVmf,
    ProxyDistance::BVmf,
    ProxyDistance::KlVmf,
];

type D = Dual64;

fn ln_c3(k: D) -> D {
    k.ln() - (4.0 * PI).ln() - k.sinh().ln()
}
fn a3(k: D) -> D {
    k.tanh().recip() - k.recip()
}
fn norm(v: &[D]) -> D {
    v.iter().fold(D::from(0.0), |s, &x| s + x * x).sqrt()
}
fn dotd(a: &[D], b: &[D]) -> D {
    a.iter().zip(b).fold(D::from(0.0), |s, (&x, &y)| s + x * y)
}

/// The loss written out at M = 3 in dual numbers, independently of the crate.
fn dual_loss(kind: ProxyDistance, z: &[D], p: &[D], k: &[D], t: f64) -> D {
    let c = p.len() / DIM;
    let mut total = D::from(0.0);
    for (row, zb) in z.chunks(DIM).enumerate() {
        let kz = norm(zb);
        let uz: Vec<D> = zb.iter().map(|&v| v / kz).collect();
        let d: Vec<D> = (0..c)
            .map(|ci| {
                let pc = &p[ci * DIM..(ci + 1) * DIM];
                let kp = norm(pc);
                let up: Vec<D> = pc.iter().map(|&v| v / kp).collect();
                let kc = &k.get(ci * DIM..(ci + 1) * DIM).unwrap_or(&[]);
                match kind {
                    ProxyDistance::Cosine => -dotd(&uz, &up),
                    ProxyDistance::L2 => zb
                        .iter()
                        .zip(pc)
                        .fold(D::from(0.0), |s, (&a, &b)| s + (a - b) * (a - b)),
                    ProxyDistance::ElVmf | ProxyDistance::BVmf => {
                        let g = if kind == ProxyDistance::ElVmf {
                            1.0
                        } else {
                            0.5
                        };
                        let s: Vec<D> = zb.iter().zip(pc).map(|(&a, &b)| a + b).collect();
                        ln_c3(norm(&s) * g) - ln_c3(kz) * g - ln_c3(kp) * g
                    }
                    ProxyDistance::KlVmf => {
                        ln_c3(kz) - ln_c3(kp) + a3(kz) * (kz - kp * dotd(&uz, &up))
                    }
                    ProxyDistance::NivMf | ProxyDistance::NivMfHeuristic => {
                        let u: Vec<D> = uz.iter().zip(*kc).map(|(&a, &b)| a * b).collect();
                        let v: Vec<D> = up.iter().zip(*kc).map(|(&a, &b)| a * b).collect();
                        let (a, kt) = (norm(&u), norm(&v));
                        let log_det = kc.iter().fold(D::from(0.0), |s, &x| s + x.ln());
                        let jac = if kind == ProxyDistance::NivMf {
                            a.ln() * DIM as f64
                        } else {
                            kt.ln()
                        };
                        -(ln_c3(kt) + log_det - jac + dotd(&u, &v) / a)
                    }
                    ProxyDistance::ElNivMf { .. } => unreachable!(),
                }
            })
            .collect();
        let lse = d.iter().fold(D::from(0.0), |s, &x| s + (-x / t).exp()).ln();
        total += d[LABELS[row]] / t + lse;
    }
    total / (z.len() / DIM) as f64
}

fn seeded(x: &[f64], at: Option<usize>) -> Vec<D> {
    x.iter()
        .enumerate()
        .map(|(i, &v)| D::new(v, if Some(i) == at { 1.0 } else { 0.0 }))
        .collect()
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0_f64, |m, x| m.max(x.abs()))
}

/// Claim 1.
#[test]
fn gradients_match_forward_mode() {
    let (z, p, k) = (embeddings(), proxies(), concentrations());
    for kind in DETERMINISTIC {
        // L2 distances are in the hundreds here: a temperature that keeps the softmax away from
        // saturation, where 1 − π rounds and the gradient is below the rounding floor.
        let t = if kind == ProxyDistance::L2 {
            100.0
        } else {
            0.7
        };
        let conc = if kind.uses_concentrations() {
            k.clone()
        } else {
            Vec::new()
        };
        let batch = ProxyBatch {
            embeddings: &z,
            labels: Labels::Usize(&LABELS),
            proxies: &p,
            concentrations: &conc,
            dim: DIM,
        };
        let out = nivmf::proxy_nca_loss(kind, &batch, t).unwrap();
        let plain = dual_loss(
            kind,
            &seeded(&z, None),
            &seeded(&p, None),
            &seeded(&conc, None),
            t,
        );
        assert!(
            (out.loss - plain.re).abs() <= 1e-13 * plain.re.abs().max(1.0),
            "{kind:?}: loss"
        );
        let gz: Vec<f64> = (0..z.len())
            .map(|i| {
                dual_loss(
                    kind,
                    &seeded(&z, Some(i)),
                    &seeded(&p, None),
                    &seeded(&conc, None),
                    t,
                )
                .eps
            })
            .collect();
        let gp: Vec<f64> = (0..p.len())
            .map(|i| {
                dual_loss(
                    kind,
                    &seeded(&z, None),
                    &seeded(&p, Some(i)),
                    &seeded(&conc, None),
                    t,
                )
                .eps
            })
            .collect();
        let gk: Vec<f64> = (0..conc.len())
            .map(|i| {
                dual_loss(
                    kind,
                    &seeded(&z, None),
                    &seeded(&p, None),
                    &seeded(&conc, Some(i)),
                    t,
                )
                .eps
            })
            .collect();
        for (name, got, want) in [
            ("embeddings", &out.grad_embeddings, &gz),
            ("proxies", &out.grad_proxies, &gp),
            ("concentrations", &out.grad_concentrations, &gk),
        ] {
            assert_eq!(got.len(), want.len(), "{kind:?} {name}");
            let scale = max_abs(want).max(1e-300);
            for (i, (a, b)) in got.iter().zip(want.iter()).enumerate() {
                assert!(
                    (a - b).abs() <= budget::NIVMF_PROXY_GRADIENT * scale,
                    "{kind:?} ∂L/∂{name}[{i}]: analytic {a}, forward-mode {b}"
                );
            }
        }
    }
}

/// Claim 2 at M = 8.
#[test]
fn fast_matches_exact_at_m8() {
    // Two embeddings against three proxies: the reference's central differences cost four
    // 256-bit evaluations of the whole loss per parameter.
    let dim = 8;
    let labels = [0usize, 2];
    let z: Vec<f64> = (0..2 * dim)
        .map(|i| ((i as f64) * 0.37).sin() * 6.0 + 0.5)
        .collect();
    let p: Vec<f64> = (0..4 * dim)
        .map(|i| ((i as f64) * 0.91 + 1.0).cos() * 9.0)
        .collect();
    let k: Vec<f64> = (0..4 * dim)
        .map(|i| 1.0 + ((i as f64) * 1.7).sin().abs() * 8.0)
        .collect();
    for kind in DETERMINISTIC {
        let conc = if kind.uses_concentrations() {
            k.clone()
        } else {
            Vec::new()
        };
        let batch = ProxyBatch {
            embeddings: &z,
            labels: Labels::Usize(&labels),
            proxies: &p,
            concentrations: &conc,
            dim,
        };
        let fast = nivmf::proxy_nca_loss(kind, &batch, 0.5).unwrap();
        let exact = nivmf::exact::proxy_nca_loss(kind, &batch, 0.5).unwrap();
        support::check_at(
            "nivmf::proxy_nca_loss",
            format!("{kind:?}: loss"),
            fast.loss,
            exact.loss,
        );
        // Entrywise, relative to max(1, max|d|).
        support::check_slice(
            "nivmf::proxy_nca_loss",
            format!("{kind:?}: distances"),
            &fast.distances,
            &exact.distances,
        );
        for (got, want) in [
            (&fast.grad_embeddings, &exact.grad_embeddings),
            (&fast.grad_proxies, &exact.grad_proxies),
            (&fast.grad_concentrations, &exact.grad_concentrations),
        ] {
            let scale = max_abs(want).max(1e-300);
            for (a, b) in got.iter().zip(want.iter()) {
                assert!(
                    (a - b).abs() <= budget::NIVMF_PROXY_FD * scale,
                    "{kind:?}: {a} vs {b}"
                );
            }
        }
    }
}

/// Claim 3: EL-nivMF.
#[test]
fn el_nivmf_monte_carlo_and_its_gradient() {
    let (z, p, k) = (embeddings(), proxies(), concentrations());
    // Unbiasedness of (1/N)Σ f(x_i) for ∫ρζ, one (embedding, proxy) pair, against quadrature.
    let n = 20_000;
    let one = ProxyBatch {
        embeddings: &z[..3],
        labels: Labels::Usize(&[0]),
        proxies: &p[..3],
        concentrations: &k[..3],
        dim: DIM,
    };
    let exact = nivmf::exact::proxy_nca_loss(
        ProxyDistance::ElNivMf {
            samples: 1,
            seed: 0,
        },
        &one,
        1.0,
    )
    .unwrap();
    let integral = (-exact.distances[0]).exp();
    // Per-draw values f(x_i) from N single-draw distances with different seeds.
    let values: Vec<f64> = (0..n as u64)
        .map(|seed| {
            let out = nivmf::proxy_nca_loss(ProxyDistance::ElNivMf { samples: 1, seed }, &one, 1.0)
                .unwrap();
            (-out.distances[0]).exp()
        })
        .collect();
    let mean = values.iter().sum::<f64>() / n as f64;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
    let sigma = (var / n as f64).sqrt();
    println!("EL-nivMF: MC {mean:.6} ± {sigma:.6}, quadrature {integral:.6}");
    assert!((mean - integral).abs() <= budget::MONTE_CARLO_SIGMAS * sigma);
    assert!(sigma < 0.05 * integral);
    // The gradient with the draws held fixed against central differences of the same loss.
    let kind = ProxyDistance::ElNivMf {
        samples: 7,
        seed: 42,
    };
    let batch = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&LABELS),
        proxies: &p,
        concentrations: &k,
        dim: DIM,
    };
    let out = nivmf::proxy_nca_loss(kind, &batch, 0.7).unwrap();
    let loss = |z: &[f64], p: &[f64], k: &[f64]| {
        let b = ProxyBatch {
            embeddings: z,
            labels: Labels::Usize(&LABELS),
            proxies: p,
            concentrations: k,
            dim: DIM,
        };
        nivmf::proxy_nca_loss(kind, &b, 0.7).unwrap().loss
    };
    let fd = |v: &[f64], i: usize, f: &dyn Fn(&[f64]) -> f64| {
        let h = 1e-5 * v[i].abs().max(1.0);
        let (mut a, mut b) = (v.to_vec(), v.to_vec());
        a[i] += h;
        b[i] -= h;
        (f(&a) - f(&b)) / (2.0 * h)
    };
    let scale = max_abs(&out.grad_proxies).max(max_abs(&out.grad_concentrations));
    for (name, grad, base) in [
        ("p", &out.grad_proxies, &p),
        ("κ", &out.grad_concentrations, &k),
    ] {
        assert_eq!(
            grad.len(),
            base.len(),
            "∂L/∂{name}: one entry per parameter"
        );
        for (i, &g) in grad.iter().enumerate() {
            let want = match name {
                "p" => fd(base, i, &|v| loss(&z, v, &k)),
                _ => fd(base, i, &|v| loss(&z, &p, v)),
            };
            assert!(
                (g - want).abs() <= 1e-6 * scale,
                "∂L/∂{name}[{i}]: {g} vs {want}"
            );
        }
    }
    // The embedding gradient flows through the direction ẑ with the draws fixed: check it along
    // tangent directions, z(h) = ‖z‖(z + he)/‖z + he‖, which keep κ_z (hence Wood's w_i) fixed.
    for row in 0..3 {
        let zb = &z[row * DIM..(row + 1) * DIM];
        let kz = zb.iter().map(|v| v * v).sum::<f64>().sqrt();
        for axis in 0..DIM {
            let mut e = [0.0; DIM];
            e[axis] = 1.0;
            let proj: f64 = e.iter().zip(zb).map(|(a, b)| a * b).sum::<f64>() / (kz * kz);
            let e: Vec<f64> = e.iter().zip(zb).map(|(a, b)| a - proj * b).collect();
            let moved = |h: f64| {
                let mut zz = z.clone();
                let v: Vec<f64> = zb.iter().zip(&e).map(|(a, b)| a + h * b).collect();
                let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                for i in 0..DIM {
                    zz[row * DIM + i] = kz * v[i] / n;
                }
                loss(&zz, &p, &k)
            };
            let h = 1e-5;
            let want = (moved(h) - moved(-h)) / (2.0 * h);
            let got: f64 = (0..DIM)
                .map(|i| out.grad_embeddings[row * DIM + i] * e[i])
                .sum();
            let gscale = max_abs(&out.grad_embeddings);
            assert!(
                (got - want).abs() <= 1e-6 * gscale,
                "row {row}, tangent {axis}: {got} vs {want}"
            );
        }
    }
}

/// Claim 4: Supp. F eqs. (42)–(45) in the cosine s_c, and the erratum of eq. (45).
#[test]
fn supp_f_gradients_in_the_cosine() {
    let t = 0.5;
    let (kz, kp) = (3.0, [2.0, 5.0, 1.5]);
    let s = [0.3, -0.2, 0.8];
    let label = 0;
    for l2 in [false, true] {
        let loss = |s: &[D]| -> D {
            let d: Vec<D> = (0..3)
                .map(|c| {
                    if l2 {
                        (s[c] * (-2.0 * kp[c] * kz)) + kp[c] * kp[c] + kz * kz
                    } else {
                        -s[c]
                    }
                })
                .collect();
            let lse = d.iter().fold(D::from(0.0), |a, &x| a + (-x / t).exp()).ln();
            d[label] / t + lse
        };
        let plain: Vec<D> = s.iter().map(|&v| D::from(v)).collect();
        let d: Vec<f64> = (0..3)
            .map(|c| {
                if l2 {
                    kp[c] * kp[c] + kz * kz - 2.0 * kp[c] * kz * s[c]
                } else {
                    -s[c]
                }
            })
            .collect();
        let w: Vec<f64> = d.iter().map(|x| (-x / t).exp()).collect();
        let total: f64 = w.iter().sum();
        for c in 0..3 {
            let mut seeded = plain.clone();
            seeded[c] = D::new(s[c], 1.0);
            let got = loss(&seeded).eps;
            let pi = w[c] / total;
            let scale = if l2 { 2.0 * kp[c] * kz } else { 1.0 };
            let want = scale / t * (if c == label { -1.0 + pi } else { pi });
            assert!(
                (got - want).abs() <= 1e-13 * want.abs().max(1.0),
                "l2 = {l2}, c = {c}"
            );
            if l2 {
                // Eq. (45) as printed: exp((κ_p² + 2κ_pκ_z s)/t) normalised over c.
                let printed: Vec<f64> = (0..3)
                    .map(|j| ((kp[j] * kp[j] + 2.0 * kp[j] * kz * s[j]) / t).exp())
                    .collect();
                let pi_printed = printed[c] / printed.iter().sum::<f64>();
                let corrected: Vec<f64> = (0..3)
                    .map(|j| ((-kp[j] * kp[j] + 2.0 * kp[j] * kz * s[j]) / t).exp())
                    .collect();
                let pi_corrected = corrected[c] / corrected.iter().sum::<f64>();
                assert!((pi_corrected - pi).abs() < 1e-14);
                if c == 1 {
                    // κ_p = 5 dominates the printed weights: π = 0.9999… instead of the true value.
                    assert!(
                        (pi_printed - pi).abs() > 0.5,
                        "printed {pi_printed} vs {pi}"
                    );
                }
            }
        }
    }
}

/// Claim 5: the KL logit is −KL/t (the reference code feeds +KL).
#[test]
fn kl_logit_sign_regression() {
    // One embedding next to proxy 0, far from proxies 1 and 2.
    let z = [9.0, 1.0, 0.0];
    let p = [10.0, 0.0, 0.0, 0.0, 10.0, 0.0, -10.0, 0.0, 0.0];
    let batch = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&[0]),
        proxies: &p,
        concentrations: &[],
        dim: 3,
    };
    let out = nivmf::proxy_nca_loss(ProxyDistance::KlVmf, &batch, 1.0).unwrap();
    let d = &out.distances;
    assert!(d[0] < d[1] && d[1] < d[2]);
    // Pinned: the true class has probability e^{−L} ≈ 1 under −KL logits.
    assert!(out.loss < 1e-3, "{}", out.loss);
    // Under +KL logits the true class would be the least likely.
    let plus: Vec<f64> = d.iter().map(|x| x.exp()).collect();
    let p_true_plus = plus[0] / plus.iter().sum::<f64>();
    assert!(p_true_plus < 1e-3);
    // And descending the loss pulls z towards its proxy: −∂L/∂z has a positive component along
    // μ_p − μ_z (here −z₂ direction).
    assert!(out.grad_embeddings[1] > 0.0);
}

/// ProxyAnchor (Kim et al. 2020 eq. (4)) and the joint loss of eq. (7): fast against the
/// reference's compensated loss and central differences; the joint gradient is the sum.
#[test]
fn proxy_anchor_and_joint_loss() {
    let (z, p, k) = (embeddings(), proxies(), concentrations());
    // Labels with two embeddings of class 2 and none of class 1: P⁺ ≠ P.
    let labels = [2, 2, 0];
    let batch = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&labels),
        proxies: &p,
        concentrations: &k,
        dim: DIM,
    };
    for (alpha, delta) in [(32.0, 0.1), (4.0, -0.2)] {
        let fast = nivmf::proxy_anchor_loss(&batch, alpha, delta).unwrap();
        let exact = nivmf::exact::proxy_anchor_loss(&batch, alpha, delta).unwrap();
        support::check_at(
            "nivmf::proxy_anchor_loss",
            format!("α = {alpha}, δ = {delta}"),
            fast.loss,
            exact.loss,
        );
        for (got, want) in [
            (&fast.grad_embeddings, &exact.grad_embeddings),
            (&fast.grad_proxies, &exact.grad_proxies),
        ] {
            let scale = max_abs(want);
            for (a, b) in got.iter().zip(want.iter()) {
                assert!(
                    (a - b).abs() <= budget::NIVMF_PROXY_FD * scale,
                    "α = {alpha}: {a} vs {b}"
                );
            }
        }
    }
    let (samples, seed, t, omega) = (5, 11, 0.5, 0.3);
    let joint = nivmf::joint_proxy_loss(&batch, samples, seed, t, omega, 32.0, 0.1).unwrap();
    let nca = nivmf::proxy_nca_loss(ProxyDistance::ElNivMf { samples, seed }, &batch, t).unwrap();
    let anchor = nivmf::proxy_anchor_loss(&batch, 32.0, 0.1).unwrap();
    assert!((joint.loss - (nca.loss + omega * anchor.loss)).abs() <= 1e-14 * joint.loss.abs());
    for i in 0..z.len() {
        let want = nca.grad_embeddings[i] + omega * anchor.grad_embeddings[i];
        assert!((joint.grad_embeddings[i] - want).abs() <= 1e-15 * want.abs().max(1.0));
    }
    assert_eq!(joint.grad_concentrations, nca.grad_concentrations);
}

/// Refutation: nivMF main text §3.5, eqs. (8)–(9), the gradients of `L^{Cos}_{NCA++}` and
/// `L^{L2}_{NCA++}` in the cosine `s_p = cos(μ_p, μ_z)`. Their "else" branch (`p ≠ p*`) prints
/// the weight of the **true** class, `exp(−d(ρ*, ζ)/t) / Σ_c exp(−d(ρ_c, ζ)/t) = π_{p*}`.
/// Differentiating eq. (1) in `s_p` gives the proxy's **own** weight `π_p` (times `2κ_pκ_z` for
/// L2), as Supp. F eqs. (43)–(44) write it with `ρ` in place of `ρ*`. Central finite
/// differences of the loss decide, at a point where the three weights differ
/// (`π ≈ (0.24, 0.09, 0.66)` for Cos): they match `π_p` to 10⁻⁸ and miss the printed `π_{p*}`
/// by more than a third of its value.
#[test]
fn refutation_main_text_gradient_uses_the_proxys_own_weight() {
    let t = 0.5;
    let (kz, kp) = (3.0, [2.0, 5.0, 1.5]);
    let s = [0.3, -0.2, 0.8];
    let label = 0;
    for l2 in [false, true] {
        let distances = |s: &[f64]| -> Vec<f64> {
            (0..3)
                .map(|c| {
                    if l2 {
                        kp[c] * kp[c] + kz * kz - 2.0 * kp[c] * kz * s[c]
                    } else {
                        -s[c]
                    }
                })
                .collect()
        };
        // Eq. (1): L = d(ρ*, ζ)/t + ln Σ_c exp(−d(ρ_c, ζ)/t).
        let loss = |s: &[f64]| -> f64 {
            let d = distances(s);
            d[label] / t + d.iter().map(|x| (-x / t).exp()).sum::<f64>().ln()
        };
        let d = distances(&s);
        let w: Vec<f64> = d.iter().map(|x| (-x / t).exp()).collect();
        let total: f64 = w.iter().sum();
        let pi: Vec<f64> = w.iter().map(|x| x / total).collect();
        for p in (0..3).filter(|&p| p != label) {
            let h = 1e-6;
            let (mut up, mut down) = (s, s);
            up[p] += h;
            down[p] -= h;
            let finite_difference = (loss(&up) - loss(&down)) / (2.0 * h);
            let scale = if l2 { 2.0 * kp[p] * kz / t } else { 1.0 / t };
            let own = scale * pi[p];
            let printed = scale * pi[label];
            println!(
                "{}: p = {p}: finite difference {finite_difference:.10}, own weight {own:.10}, \
                 printed (true class) {printed:.10}",
                if l2 { "L2" } else { "Cos" }
            );
            assert!(
                (finite_difference - own).abs() <= 1e-8 * own.abs().max(1.0),
                "p = {p}: {finite_difference} vs π_p-form {own}"
            );
            assert!(
                (finite_difference - printed).abs() > printed.abs() / 3.0,
                "p = {p}: the printed π_p* form is right after all: {finite_difference} vs {printed}"
            );
        }
    }
}

/// Claim 2 at M = 64 for the Bhattacharyya distance, where the loss takes the lane kernel's
/// direct route (M ≥ 42) from `κ_m = ½‖z + p‖` computed in the loss: its distances are those
/// of the public `nivmf::bhattacharyya_distance` of each (embedding, proxy) pair. The embeddings
/// are longer than the proxies: a wrongly formed `κ_m` then stays finite, and only the values
/// can show it (a NaN one would send the loss to the fallback route).
#[test]
fn bhattacharyya_distances_at_large_order() {
    let dim = 64;
    let labels = [1usize, 0];
    let z: Vec<f64> = (0..2 * dim)
        .map(|i| ((i as f64) * 0.37).sin() * 12.0 + 0.5)
        .collect();
    let p: Vec<f64> = (0..3 * dim)
        .map(|i| ((i as f64) * 0.91 + 1.0).cos() * 3.0)
        .collect();
    let batch = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&labels),
        proxies: &p,
        concentrations: &[],
        dim,
    };
    let out = nivmf::proxy_nca_loss(ProxyDistance::BVmf, &batch, 0.5).unwrap();
    let want: Vec<f64> = z
        .chunks(dim)
        .flat_map(|zb| {
            p.chunks(dim)
                .map(move |pc| nivmf::bhattacharyya_distance(zb, pc).unwrap())
        })
        .collect();
    support::check_slice(
        "nivmf::proxy_nca_loss",
        "BVmf at M = 64: distances",
        &out.distances,
        &want,
    );
}
