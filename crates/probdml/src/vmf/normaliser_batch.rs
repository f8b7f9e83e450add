//! ln C_M(κ) for one dimension and many concentrations (the ProxyNCA++ training path): the per-pair
//! normalisers of the PPK and KL distances of ProxyNCA++ (`B·C` values of `κ` per batch, one `M`).

use crate::compensated::DoubleDouble;
use crate::error::{require_concentrations, Result};
use crate::special::debye::{
    log_bessel_i_scaled_debye_lanes, log_bessel_i_scaled_debye_plus_half_ln_2pi,
    log_bessel_i_scaled_debye_plus_half_ln_2pi_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT,
    DEBYE_MIN_ORDER,
};
use crate::special::half_order::{by_side_of_half, ln_sinhc_large_lanes, ln_sinhc_small_lanes};
use crate::special::small_order_lanes::SmallOrderLanes;
use crate::special::{log_bessel_i_scaled, LN_2PI};

/// Writes `ln C_M(κ_i)` into `out[i]` for every `κ_i` of `kappas`.
///
/// # Formula
///
/// $$ \ln C_M(\kappa) = -\tfrac M2\ln 2\pi - g(\tfrac M2 - 1, \kappa),\qquad
///    g(\nu,\kappa) = \ln I_\nu(\kappa) - \nu\ln\kappa $$
///
/// (nivMF eq. (2)): the same kernels as [`log_norm_const`](super::log_norm_const), with
/// the order `ν = M/2 − 1` and the double-double constant formed once for the batch (for
/// `ν ≥ 20`, `−((M−1)/2) ln 2π`, which takes in the expansion's own `−½ ln 2π`) and the input
/// checked once. The values are bit-identical to the scalar call for
/// `M ≠ 3`; at `M = 3` the closed form `ln C_3(κ) = −ln 4π − ln(sinh κ/κ)` is evaluated in
/// vectorised lanes, within 4 ulps of the scalar call (measured: 1) and within the same budget
/// of the 256-bit reference (`proofs/nivmf_normaliser_batch.rs`); the criterion bench
/// `benches/nivmf.rs` measures the per-value cost against the scalar loop.
///
/// # Errors
///
/// [`Error::InvalidDimension`](crate::Error::InvalidDimension) for `dim < 2`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ kappas.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `κ_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a negative one.
///
/// # Examples
///
/// ```
/// use probdml::vmf::{log_norm_const, log_norm_const_batch};
/// let kappas = [0.0, 1e-3, 5.0, 50.0, 1e5];
/// let mut out = [0.0; 5];
/// log_norm_const_batch(128, &kappas, &mut out).unwrap();
/// for (k, v) in kappas.iter().zip(&out) {
///     assert_eq!(*v, log_norm_const(128, *k));
/// }
/// assert!(log_norm_const_batch(128, &[-1.0], &mut [0.0]).is_err());
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_norm_const_batch(dim: usize, kappas: &[f64], out: &mut [f64]) -> Result<()> {
    require_concentrations(dim, kappas, out.len())?;
    crate::instruction_set::dispatch(
        #[inline(always)]
        || log_norm_const_batch_unchecked(dim, kappas, out),
    );
    Ok(())
}

/// The kernel of [`log_norm_const_batch`] without checks (`dim ≥ 2`, `κ` finite and `≥ 0`,
/// equal lengths).
///
/// For `ν = M/2 − 1 ≥ 20` (the Debye regime of every `κ`, so no per-value regime dispatch) the
/// values go through the expansion in lanes of [`DEBYE_LANES`], which the compiler vectorises;
/// the lane kernel performs the scalar kernel's operations, so the bits are the same
/// (`proofs/nivmf_normaliser_batch.rs`). At `M = 3` the closed form in lanes
/// (`log_norm_const_s2_lanes`). Otherwise (`M < 42`) the regimes depend on `κ`: the
/// concentrations are visited sorted by regime (and by octave within the series), so that each
/// regime (series, recurrence, Hankel) is one run that goes through its lanes with the order's prefactor formed once
/// (`special/small_order_lanes.rs`, the same bits; `small_order_by_regime`).
#[inline(always)]
pub(crate) fn log_norm_const_batch_unchecked(dim: usize, kappas: &[f64], out: &mut [f64]) {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    if dim == 3 {
        log_norm_const_s2_lanes(kappas, out);
        return;
    }
    if order.hi < DEBYE_MIN_ORDER {
        let constant = log_norm_const_offset(dim);
        match SmallOrderLanes::new(order) {
            Some(small) => small_order_by_regime(small, constant, kappas, out),
            None => {
                for (o, &k) in out.iter_mut().zip(kappas) {
                    *o = constant.sub(log_bessel_i_scaled(order, k)).to_f64();
                }
            }
        }
        return;
    }
    // ν ≥ 20: the scalar kernel's route, −((M−1)/2) ln 2π − (g + ½ ln 2π).
    let constant = log_norm_const_offset_debye(dim);
    let mut x = [0.0; DEBYE_LANES];
    let mut h = [DoubleDouble::from_f64(0.0); DEBYE_LANES];
    for (oc, kc) in out.chunks_mut(DEBYE_LANES).zip(kappas.chunks(DEBYE_LANES)) {
        // A short last chunk leaves earlier (valid) arguments in the spare lanes.
        for (xi, &k) in x.iter_mut().zip(kc) {
            *xi = k.min(DEBYE_LANES_MAX_ARGUMENT);
        }
        log_bessel_i_scaled_debye_plus_half_ln_2pi_lanes(order, &x, &mut h);
        for (o, hi) in oc.iter_mut().zip(&h) {
            *o = constant.sub(*hi).to_f64();
        }
    }
    // κ > 10¹⁵⁰ (x² near overflow): the scalar kernel, with its range branches.
    for (o, &k) in out.iter_mut().zip(kappas) {
        if k > DEBYE_LANES_MAX_ARGUMENT {
            *o = log_norm_const_kernel(dim, k);
        }
    }
}

/// ln C_M(κ) for `M ≥ 2` and finite `κ ≥ 0`: the scalar function's kernel. For `ν ≥ 20` the
/// Debye expansion's own constant `−½ ln 2π` is folded into the normaliser's,
/// `ln C_M = −((M−1)/2) ln 2π − (g + ½ ln 2π)`: one double-double addition fewer per value,
/// which the batch kernel's lanes repeat; below, `−(M/2) ln 2π − g` with `g` by regime.
#[inline(always)]
pub(crate) fn log_norm_const_kernel(dim: usize, kappa: f64) -> f64 {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    if order.hi >= DEBYE_MIN_ORDER {
        log_norm_const_offset_debye(dim)
            .sub(log_bessel_i_scaled_debye_plus_half_ln_2pi(order, kappa))
            .to_f64()
    } else {
        log_norm_const_offset(dim)
            .sub(log_bessel_i_scaled(order, kappa))
            .to_f64()
    }
}

/// ln C_M(κ_i) for a few `κ_i` of one `M` (finite, `≥ 0`): the scalar function's bits. For
/// `ν ≥ 20` and `κ_i ≤ 10¹⁵⁰` the `L` values share one vectorised Debye call (the two or three
/// normalisers of a PPK cost about one); otherwise one scalar call each.
#[inline(always)]
pub(crate) fn log_norm_const_lanes<const L: usize>(dim: usize, kappas: &[f64; L]) -> [f64; L] {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    let mut out = [0.0; L];
    if order.hi >= DEBYE_MIN_ORDER && kappas.iter().all(|&k| k <= DEBYE_LANES_MAX_ARGUMENT) {
        let mut h = [DoubleDouble::from_f64(0.0); L];
        log_bessel_i_scaled_debye_plus_half_ln_2pi_lanes(order, kappas, &mut h);
        let constant = log_norm_const_offset_debye(dim);
        for (o, hi) in out.iter_mut().zip(&h) {
            *o = constant.sub(*hi).to_f64();
        }
    } else {
        for (o, &k) in out.iter_mut().zip(kappas) {
            *o = log_norm_const_kernel(dim, k);
        }
    }
    out
}

/// `−((M−1)/2) ln 2π` in double-double, the constant of `ln C_M = −((M−1)/2) ln 2π − (g + ½ ln 2π)`
/// for `ν = M/2 − 1 ≥ 20` (`(M−1)/2` is exact).
#[inline(always)]
fn log_norm_const_offset_debye(dim: usize) -> DoubleDouble {
    DoubleDouble::from_pair(LN_2PI).mul_f64(-((dim - 1) as f64 / 2.0))
}

/// `M < 42`, `M ≠ 3`: every regime of the scalar kernel as one run of lanes
/// ([`SmallOrderLanes::scaled_by_regime`]), `ln C_M = −(M/2) ln 2π − g` per value.
#[inline(always)]
fn small_order_by_regime(
    small: SmallOrderLanes,
    constant: DoubleDouble,
    kappas: &[f64],
    out: &mut [f64],
) {
    let mut v = [0.0; DEBYE_LANES];
    small.scaled_by_regime(
        kappas,
        #[inline(always)]
        |chunk, _, g| {
            // Every lane first (vectorised), then the chunk's values to their places.
            for (vi, gi) in v.iter_mut().zip(g) {
                *vi = constant.sub(*gi).to_f64();
            }
            for (&i, &vi) in chunk.iter().zip(&v) {
                out[i] = vi;
            }
        },
    );
}

/// `−ln 4π` as a double-double (mpmath, 40 digits): `ln C_3(0)`.
const LN_C3_AT_ZERO: (f64, f64) = (-2.5310242469692907, -5.664688743963382e-17);

/// `ln C_3(κ) = −ln 4π − ln(sinh κ/κ)` (`C_3(κ) = κ/(4π sinh κ)`) for every `κ_i` (finite,
/// `≥ 0`): the closed form in lanes of [`DEBYE_LANES`] with the branch-free
/// `ln(sinh κ/κ)` of `special/half_order.rs`, which the compiler vectorises. Its absolute error
/// is `≤ 1.3·10⁻¹⁵` plus an ulp of the result, within `LOG_SPECIAL·max(1, |ln C_3|)` since
/// `|ln C_3| ≥ ln 4π`; it is not the scalar kernel's double-double evaluation, so the values
/// may differ from [`log_norm_const`](super::log_norm_const) in the last bits
/// (`proofs/nivmf_normaliser_batch.rs` bounds the difference in ulps).
#[inline(always)]
fn log_norm_const_s2_lanes(kappas: &[f64], out: &mut [f64]) {
    let mut x = [0.0; DEBYE_LANES];
    let mut v = [0.0; DEBYE_LANES];
    for (oc, kc) in out.chunks_mut(DEBYE_LANES).zip(kappas.chunks(DEBYE_LANES)) {
        for (xi, &k) in x.iter_mut().zip(kc) {
            *xi = k.min(DEBYE_LANES_MAX_ARGUMENT);
        }
        by_side_of_half(
            &x,
            &mut v,
            #[inline(always)]
            |k| (LN_C3_AT_ZERO.0 - ln_sinhc_small_lanes(k)) + LN_C3_AT_ZERO.1,
            #[inline(always)]
            |k| (LN_C3_AT_ZERO.0 - ln_sinhc_large_lanes(k)) + LN_C3_AT_ZERO.1,
        );
        oc.copy_from_slice(&v[..oc.len()]);
    }
    // κ > 10¹⁵⁰: the scalar kernel.
    let constant = log_norm_const_offset(3);
    let order = DoubleDouble::from_f64(0.5);
    for (o, &k) in out.iter_mut().zip(kappas) {
        if k > DEBYE_LANES_MAX_ARGUMENT {
            *o = constant.sub(log_bessel_i_scaled(order, k)).to_f64();
        }
    }
}

/// `g(M/2 − 1, κ_i) = ln I_ν(κ_i) − ν ln κ_i` as double-doubles for a few `κ_i` of one `M`
/// (finite, `≥ 0`): the scalar kernel's bits of `g`, for callers that combine several `g` of
/// one order (differences of normalisers, in which `ln 2π` cancels); ln C_M itself, with the
/// scalar function's bits, is [`log_norm_const_lanes`]. For `ν ≥ 20` and `κ_i ≤ 10¹⁵⁰` the `L` values share one vectorised Debye call (the
/// two or three normalisers of a KL or PPK cost about one); otherwise one scalar call each.
#[inline(always)]
pub(crate) fn log_bessel_scaled_lanes<const L: usize>(
    dim: usize,
    kappas: &[f64; L],
) -> [DoubleDouble; L] {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    let mut g = [DoubleDouble::from_f64(0.0); L];
    if order.hi >= DEBYE_MIN_ORDER && kappas.iter().all(|&k| k <= DEBYE_LANES_MAX_ARGUMENT) {
        log_bessel_i_scaled_debye_lanes(order, kappas, &mut g);
    } else {
        for (gi, &k) in g.iter_mut().zip(kappas) {
            *gi = log_bessel_i_scaled(order, k);
        }
    }
    g
}

/// `−(M/2) ln 2π` in double-double, the constant of `ln C_M = −(M/2) ln 2π − g`.
#[inline(always)]
pub(crate) fn log_norm_const_offset(dim: usize) -> DoubleDouble {
    DoubleDouble::from_pair(LN_2PI).mul_f64(-(dim as f64 / 2.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The few-κ lanes (the normalisers of a PPK) are the scalar function's bits, on both sides
    /// of the Debye threshold (M = 41, 42), at κ = 0, in every regime and past 10¹⁵⁰, where the
    /// lanes hand over to the scalar kernel.
    #[test]
    fn log_norm_const_lanes_are_the_scalar_bits() {
        let kappas = [0.0, 1e-300, 1e-3, 0.7, 31.9, 50.0, 700.0, 1e6, 1e150, 1e200];
        for dim in [2, 3, 4, 16, 41, 42, 43, 128, 512, 2001, 2002, 100_000] {
            for window in kappas.windows(4) {
                let lanes: [f64; 4] = window.try_into().expect("four κ");
                let got = log_norm_const_lanes(dim, &lanes);
                for (&k, v) in lanes.iter().zip(got) {
                    let want = crate::vmf::log_norm_const(dim, k);
                    assert_eq!(
                        v.to_bits(),
                        want.to_bits(),
                        "M = {dim}, κ = {k}: {v} vs {want}"
                    );
                }
            }
        }
    }
}
