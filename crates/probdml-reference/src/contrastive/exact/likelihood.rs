//! Reference vMF likelihood: the product of explicit log densities (LAM App. D eqs. (46)–(51)).

use super::compensated::{dot_dd, two_prod, Neumaier};
use super::pairs::is_hard_negative;
use crate::contrastive::input::row;
use crate::contrastive::input::ClassLikelihood;
use crate::contrastive::input::{check_batch, check_margin, PairCounts};
use crate::error::{require_finite, require_nonnegative, require_sphere_dim, Result};
use crate::labels::IntoLabels;
use crate::vmf::exact::{log_norm_const, log_norm_const_dd};

/// ln N^S(x | s·μ, κ) = ln C_M(κ) + s·κ·μᵀx as a double-double (s = ±1: attractive or
/// repulsive, eqs. (46)–(47)), with the 256-bit normaliser and a Dot2 product.
/// `log_norm` is ln C_M(κ) as a double-double, computed once per κ by the caller.
fn log_density_dd(
    x: &[f64],
    mu: &[f64],
    sign: f64,
    kappa: f64,
    log_norm: (f64, f64),
) -> (f64, f64) {
    let mut acc = Neumaier::new();
    acc.add_pair(log_norm);
    let (d_hi, d_lo) = dot_dd(mu, x);
    let (p, e) = two_prod(sign * kappa, d_hi);
    acc.add_pair((p, e + sign * kappa * d_lo));
    acc.pair()
}

/// [`negative_log_likelihood`] as an unevaluated double-double `hi + lo` (about 2⁻¹⁰⁰ relative),
/// for finite differences that must not lose the gradient to the rounding of a large constant.
///
/// The formula is evaluated at the rows **as given** (checked, not renormalised): a finite
/// difference steps a coordinate off the sphere by ~10⁻⁸, inside the unit-vector tolerance, and
/// renormalising each step in `f64` would add a rounding of ~10⁻¹⁶ per coordinate that the
/// quotient divides by the step. [`negative_log_likelihood`] renormalises first.
///
/// # Errors
///
/// Exactly those of `crate::contrastive::negative_log_likelihood`.
pub fn negative_log_likelihood_dd<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<(f64, f64)> {
    require_sphere_dim("dim", dim)?;
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (labels, counts) = (&*batch.labels, batch.counts);
    check_margin(margin)?;
    let (kp, kn) = (1.0 / counts.positives as f64, 1.0 / counts.negatives as f64);
    let (log_c_p, log_c_n) = (log_norm_const_dd(dim, kp), log_norm_const_dd(dim, kn));
    let mut acc = Neumaier::new();
    for i in 0..counts.n {
        for j in 0..counts.n {
            let (zi, zj) = (row(z, dim, i), row(z, dim, j));
            let (hi, lo) = if labels[i] == labels[j] {
                log_density_dd(zi, zj, 1.0, kp, log_c_p)
            } else if is_hard_negative(z, dim, labels, margin, i, j) {
                log_density_dd(zi, zj, -1.0, kn, log_c_n)
            } else {
                continue;
            };
            acc.add_pair((-hi, -lo));
        }
    }
    Ok(acc.pair())
}

/// Reference twin of `crate::contrastive::negative_log_likelihood`: −Σ of the n² − |N∖N_m|
/// explicit vMF log densities ln C_M(κ) ± κ z_jᵀz_i, one per ordered pair.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn negative_log_likelihood<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<f64> {
    require_sphere_dim("dim", dim)?;
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (hi, lo) = negative_log_likelihood_dd(&batch.z, dim, &*batch.labels, margin)?;
    Ok(hi + lo)
}

/// Reference twin of `crate::contrastive::likelihood_constant`: the same closed form with the
/// 256-bit normaliser and a compensated sum.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn likelihood_constant(dim: usize, counts: &PairCounts, margin: f64) -> Result<f64> {
    require_sphere_dim("dim", dim)?;
    check_margin(margin)?;
    crate::contrastive::input::check_pair_counts(counts)?;
    let (p, n, inside) = (
        counts.positives as f64,
        counts.negatives as f64,
        counts.negatives_inside as f64,
    );
    let mut acc = Neumaier::new();
    acc.add_pair(two_prod(-p, log_norm_const(dim, 1.0 / p)));
    acc.add(-1.0);
    acc.add_pair(two_prod(-inside, log_norm_const(dim, 1.0 / n)));
    acc.add(-(inside / n) * (0.5 * margin * margin - 1.0));
    Ok(acc.total())
}

/// Reference twin of `crate::contrastive::class_likelihood`: ν by compensated sums, κ from a
/// Dot2 norm, the normalisers at 256 bits.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn class_likelihood<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    class: usize,
    kappa_positive: f64,
    kappa_negative: f64,
) -> Result<ClassLikelihood> {
    require_sphere_dim("dim", dim)?;
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    require_nonnegative("kappa_positive", kappa_positive)?;
    require_nonnegative("kappa_negative", kappa_negative)?;
    let mut acc = vec![Neumaier::new(); dim];
    let mut members = 0usize;
    for (j, &c) in labels.iter().enumerate() {
        let weight = if c == class {
            members += 1;
            kappa_positive
        } else {
            -kappa_negative
        };
        for (a, &x) in acc.iter_mut().zip(row(z, dim, j)) {
            a.add_pair(two_prod(weight, x));
        }
    }
    let natural: Vec<f64> = acc.iter().map(Neumaier::total).collect();
    let (s_hi, s_lo) = dot_dd(&natural, &natural);
    let kappa = (s_hi + s_lo).sqrt();
    require_finite("kappa", kappa)?;
    let log_norm = log_norm_const(dim, kappa);
    let mut scale = Neumaier::new();
    scale.add_pair(two_prod(
        members as f64,
        log_norm_const(dim, kappa_positive),
    ));
    scale.add_pair(two_prod(
        (counts.n - members) as f64,
        log_norm_const(dim, kappa_negative),
    ));
    scale.add(-log_norm);
    Ok(ClassLikelihood {
        natural,
        kappa,
        log_norm_const: log_norm,
        log_scale: scale.total(),
    })
}
