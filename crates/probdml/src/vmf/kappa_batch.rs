//! κ̂ = A_M⁻¹(R̄) for one dimension and many mean resultant lengths.

use super::complement::{complement_and_slope, complement_and_slope_debye_lanes, use_debye};
use super::kappa::{
    banerjee, kappa_mle_kernel, kappa_sra_kernel, residual_from_complement, residual_from_ratio,
    sra_step,
};
use crate::error::{require_batch, require_sphere_dim, Result};
use crate::instruction_set::dispatch;
use crate::special::debye::{
    bessel_i_ratio_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};

/// Writes the maximum-likelihood concentration `κ̂_i = A_M⁻¹(R̄_i)` into `out[i]` for every
/// `R̄_i` of `rbars`: the same bits as [`kappa_mle`](super::kappa_mle)`(dim, R̄_i)`.
///
/// # Formula
///
/// $$ A_M(\hat\kappa) = \bar R,\qquad A_M(\kappa) = \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)} $$
///
/// (LAM App. C; Sra 2012, eq. (4)), solved per value by [`kappa_mle`](super::kappa_mle)'s
/// safeguarded Halley iteration from Banerjee's start. The input is checked once for the batch,
/// and the instruction set is chosen once; each solve then runs inlined in that choice. The
/// solves take different numbers of steps, so they are not run in lanes.
///
/// # When to prefer it
///
/// For many `R̄` of one dimension (LAM's per-class or per-embedding concentrations): it saves
/// the per-call checks and instruction-set choice of the scalar loop; the Halley steps, which
/// dominate, are the same.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) for `dim < 2`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ rbars.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `R̄_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for one outside `[0, 1)`;
/// [`Error::NoConvergence`](crate::Error::NoConvergence) as [`kappa_mle`](super::kappa_mle).
///
/// # Examples
///
/// ```
/// use probdml::vmf::{kappa_mle, kappa_mle_batch};
/// let rbars = [0.0, 0.1, 0.5, 0.9, 0.999];
/// let mut out = [0.0; 5];
/// kappa_mle_batch(128, &rbars, &mut out).unwrap();
/// for (r, k) in rbars.iter().zip(&out) {
///     assert_eq!(k.to_bits(), kappa_mle(128, *r).unwrap().to_bits());
/// }
/// assert!(kappa_mle_batch(128, &[1.0], &mut [0.0]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kappa_mle_batch(dim: usize, rbars: &[f64], out: &mut [f64]) -> Result<()> {
    check_rbars(dim, rbars, out.len())?;
    dispatch(
        #[inline(always)]
        || {
            for (o, &r) in out.iter_mut().zip(rbars) {
                *o = kappa_mle_kernel(dim, r)?;
            }
            Ok(())
        },
    )
}

/// Writes Sra's estimate of the concentration (Banerjee's start followed by `newton_steps`
/// Newton steps) into `out[i]` for every `R̄_i` of `rbars`: the same bits as
/// [`kappa_sra`](super::kappa_sra)`(dim, R̄_i, newton_steps)`.
///
/// # Formula
///
/// $$ \kappa_0 = \frac{\bar R (M - \bar R^2)}{(1-\bar R)(1+\bar R)},\qquad
///    \kappa_{t+1} = \kappa_t - \frac{A_M(\kappa_t) - \bar R}{A_M'(\kappa_t)} $$
///
/// (Banerjee et al. 2005, eq. 4.4; Sra 2012, eqs. 5–6), with the residual and slope of
/// [`kappa_sra`](super::kappa_sra) (the complement form for `R̄ > ½`).
///
/// # How the batch is faster
///
/// Every value takes the same number of steps, so for `M ≥ 42` (order `M/2 − 1 ≥ 20`, the
/// uniform expansion of chapter 01) the values run in lanes that the compiler vectorises: the
/// `R̄ ≤ ½` and the `R̄ > ½` values are gathered apart (their residuals differ), and each group
/// of lanes evaluates `A_M` or `(1 − A_M, A_M')` for all its lanes at once, with the straight-
/// line elementary functions of `special/` in place of the C library's. A lane whose κ leaves
/// the lanes' domain (`κ ≥ 10¹⁵⁰`, or for `R̄ > ½` outside the expansion's region) takes the
/// scalar function there, so every value is the scalar call's. Below `M = 42` the scalar
/// function runs per value, with the checks and the choice of instruction set made once.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) for `dim < 2`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ rbars.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `R̄_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for one outside `[0, 1)`.
///
/// # Examples
///
/// ```
/// use probdml::vmf::{kappa_sra, kappa_sra_batch};
/// let rbars = [0.0, 0.1, 0.5, 0.9, 0.999];
/// let mut out = [0.0; 5];
/// kappa_sra_batch(512, &rbars, 2, &mut out).unwrap();
/// for (r, k) in rbars.iter().zip(&out) {
///     assert_eq!(k.to_bits(), kappa_sra(512, *r, 2).unwrap().to_bits());
/// }
/// assert!(kappa_sra_batch(512, &[1.0], 2, &mut [0.0]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn kappa_sra_batch(
    dim: usize,
    rbars: &[f64],
    newton_steps: usize,
    out: &mut [f64],
) -> Result<()> {
    check_rbars(dim, rbars, out.len())?;
    dispatch(
        #[inline(always)]
        || kappa_sra_batch_unchecked(dim, rbars, newton_steps, out),
    );
    Ok(())
}

/// The checks of both batches: a sphere dimension, one output per `R̄`, every `R̄` in `[0, 1)`.
fn check_rbars(dim: usize, rbars: &[f64], out_len: usize) -> Result<()> {
    require_sphere_dim("dim", dim)?;
    require_batch(
        "rbars",
        rbars,
        out_len,
        (0.0, 1.0),
        "every mean resultant length must satisfy 0 <= rbar < 1",
    )
}

/// Indices of up to [`DEBYE_LANES`] values of one side of `R̄ = ½`.
struct Gathered {
    index: [usize; DEBYE_LANES],
    len: usize,
}

/// [`kappa_sra_batch`] after its checks.
#[inline(always)]
fn kappa_sra_batch_unchecked(dim: usize, rbars: &[f64], steps: usize, out: &mut [f64]) {
    if 0.5 * dim as f64 - 1.0 < DEBYE_MIN_ORDER {
        for (o, &r) in out.iter_mut().zip(rbars) {
            *o = kappa_sra_kernel(dim, r, steps);
        }
        return;
    }
    let empty = || Gathered {
        index: [0; DEBYE_LANES],
        len: 0,
    };
    // [0]: 0 < R̄ ≤ ½ (residual A − R̄), [1]: R̄ > ½ (the complement form).
    let mut sides = [empty(), empty()];
    for (i, &r) in rbars.iter().enumerate() {
        if r == 0.0 {
            out[i] = 0.0;
            continue;
        }
        let side = usize::from(r > 0.5);
        let gathered = &mut sides[side];
        gathered.index[gathered.len] = i;
        gathered.len += 1;
        if gathered.len == DEBYE_LANES {
            sra_lanes(dim, rbars, side == 1, gathered, steps, out);
            gathered.len = 0;
        }
    }
    for (side, gathered) in sides.iter().enumerate() {
        if gathered.len > 0 {
            sra_lanes(dim, rbars, side == 1, gathered, steps, out);
        }
    }
}

/// Sra's iteration for the gathered values of one side, in lanes (spare lanes repeat the last
/// value); `above_half` picks the residual.
#[inline(always)]
fn sra_lanes(
    dim: usize,
    rbars: &[f64],
    above_half: bool,
    gathered: &Gathered,
    steps: usize,
    out: &mut [f64],
) {
    const L: usize = DEBYE_LANES;
    let nu = 0.5 * dim as f64 - 1.0;
    let mut rbar = [0.0; L];
    for (l, r) in rbar.iter_mut().enumerate() {
        *r = rbars[gathered.index[l.min(gathered.len - 1)]];
    }
    let mut kappa = [0.0; L];
    for l in 0..L {
        kappa[l] = banerjee(dim, rbar[l]);
    }
    let mut active = [true; L];
    // `false` once a lane's κ left the lanes' domain: that value is computed again by the
    // scalar function.
    let mut in_lanes = [true; L];
    let (mut x, mut g, mut slope) = ([0.0; L], [0.0; L], [0.0; L]);
    for _ in 0..steps {
        if !active.contains(&true) {
            break;
        }
        for l in 0..L {
            let inside = kappa[l] > 0.0 && kappa[l] < DEBYE_LANES_MAX_ARGUMENT;
            in_lanes[l] &= inside || !active[l];
            x[l] = if inside { kappa[l] } else { 1.0 };
        }
        if above_half {
            let (delta, debye_slope) = complement_and_slope_debye_lanes(dim, &x);
            for l in 0..L {
                let (d, s) = if use_debye(dim, x[l]) {
                    (delta[l], debye_slope[l])
                } else {
                    complement_and_slope(dim, x[l])
                };
                (g[l], slope[l]) = (residual_from_complement(rbar[l], d), s);
            }
        } else {
            let mut a = [0.0; L];
            bessel_i_ratio_debye_lanes(nu, &x, &mut a);
            for l in 0..L {
                (g[l], slope[l]) = residual_from_ratio(dim, rbar[l], x[l], a[l]);
            }
        }
        for l in 0..L {
            if active[l] {
                match sra_step(kappa[l], g[l], slope[l]) {
                    Some(next) => kappa[l] = next,
                    None => active[l] = false,
                }
            }
        }
    }
    for l in 0..gathered.len {
        out[gathered.index[l]] = if in_lanes[l] {
            kappa[l]
        } else {
            kappa_sra_kernel(dim, rbar[l], steps)
        };
    }
}
