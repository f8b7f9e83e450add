//! ln C_M(κ) for one dimension and many concentrations (the ProxyNCA++ training path): the per-pair
//! normalisers of the PPK and KL distances of ProxyNCA++ (`B·C` values of `κ` per batch, one `M`).

use crate::compensated::DoubleDouble;
use crate::error::{require_concentrations, Result};
use crate::special::debye::{
    log_bessel_i_scaled_debye_lanes, log_norm_const_debye, log_norm_const_debye_lanes, DEBYE_LANES,
    DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};
use crate::special::half_order::{by_side_of_half, ln_sinhc_large_lanes, ln_sinhc_small_lanes};
use crate::special::hankel::{
    hankel_applies, log_norm_const_hankel, log_norm_const_hankel_lanes, HANKEL_MIN_ARGUMENT,
};
use crate::special::logarithm::ln_1p_lanes;
use crate::special::series::{series_prefactor, series_tail, series_tail_lanes};
use crate::special::small_order_lanes::{SmallOrderLanes, SmallOrderRegime};
use crate::special::{log_bessel_i_scaled, LN_2PI};

/// Writes `ln C_M(κ_i)` into `out[i]` for every `κ_i` of `kappas`.
///
/// # Formula
///
/// $$ \ln C_M(\kappa) = -\tfrac M2\ln 2\pi - g(\tfrac M2 - 1, \kappa),\qquad
///    g(\nu,\kappa) = \ln I_\nu(\kappa) - \nu\ln\kappa $$
///
/// (nivMF eq. (2)): the same kernels as [`log_norm_const`](super::log_norm_const), with
/// the order `ν = M/2 − 1`, the order's constants formed once for the batch and the input
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
    // The pass over the concentrations inside the dispatched copy, at its vector width.
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            require_concentrations(dim, kappas, out.len())?;
            log_norm_const_batch_unchecked(dim, kappas, out);
            Ok(())
        },
    )
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
/// regime (series, recurrence, Hankel) is one run that goes through its lanes with the order's
/// constants formed once (`special/small_order_lanes.rs`, the same bits; `small_order_by_regime`).
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
    // ν ≥ 20: the scalar kernel's route.
    let mut x = [0.0; DEBYE_LANES];
    let mut v = [0.0; DEBYE_LANES];
    for (oc, kc) in out.chunks_mut(DEBYE_LANES).zip(kappas.chunks(DEBYE_LANES)) {
        // A short last chunk leaves earlier (valid) arguments in the spare lanes.
        let mut clamped = false;
        for (xi, &k) in x.iter_mut().zip(kc) {
            *xi = k.min(DEBYE_LANES_MAX_ARGUMENT);
            clamped |= *xi != k;
        }
        // Every lane into a full array, then the chunk's share: a loop over the chunk of `out`
        // itself (shorter at the end) does not vectorise.
        log_norm_const_debye_lanes(dim, &x, &mut v);
        oc.copy_from_slice(&v[..oc.len()]);
        // κ > 10¹⁵⁰ (x² near overflow): the scalar kernel, with its range branches.
        if clamped {
            for (o, &k) in oc.iter_mut().zip(kc) {
                if k > DEBYE_LANES_MAX_ARGUMENT {
                    *o = log_norm_const_kernel(dim, k);
                }
            }
        }
    }
}

/// ln C_M(κ) for `M ≥ 2` and finite `κ ≥ 0`: the scalar function's kernel, which the batch
/// kernel's lanes repeat operation for operation. Three regimes form ln C_M in their own terms:
/// the Debye expansion (`ν ≥ 20`) with its constants folded into the normaliser's
/// (`special/debye.rs`), the power series with the order's part `−(M/2) ln 2π − (−ν ln 2 −
/// ln Γ(ν+1))` as one constant, the Hankel expansion in `f64` (`special/hankel.rs`); the
/// recurrence and `M = 3` as `−(M/2) ln 2π − g`.
#[inline(always)]
pub(crate) fn log_norm_const_kernel(dim: usize, kappa: f64) -> f64 {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    let nu = order.hi;
    if nu >= DEBYE_MIN_ORDER {
        log_norm_const_debye(dim, kappa)
    } else if dim != 3 && kappa < HANKEL_MIN_ARGUMENT {
        log_norm_const_series(
            log_norm_const_offset(dim).sub(series_prefactor(order)),
            series_tail(nu, kappa),
        )
    } else if dim != 3 && hankel_applies(nu, kappa) {
        log_norm_const_hankel(nu, kappa)
    } else {
        log_norm_const_offset(dim)
            .sub(log_bessel_i_scaled(order, kappa))
            .to_f64()
    }
}

/// ln C_M in the power series' regime, `(−(M/2) ln 2π + ν ln 2 + ln Γ(ν+1)) − ln S`: the
/// order's part (`constant`, double-double) formed once per order by a batch, so that each value
/// costs one double-double addition where `−(M/2) ln 2π − g` takes two.
#[inline(always)]
fn log_norm_const_series(constant: DoubleDouble, tail: f64) -> f64 {
    constant.add_f64(-ln_1p_lanes(tail)).to_f64()
}

/// ln C_M(κ_i) for a few `κ_i` of one `M` (finite, `≥ 0`): the scalar function's bits. For
/// `ν ≥ 20` and `κ_i ≤ 10¹⁵⁰` the `L` values share one vectorised Debye call (the two or three
/// normalisers of a PPK cost about one); otherwise one scalar call each.
#[inline(always)]
pub(crate) fn log_norm_const_lanes<const L: usize>(dim: usize, kappas: &[f64; L]) -> [f64; L] {
    let order = DoubleDouble::from_f64(dim as f64 / 2.0 - 1.0);
    let mut out = [0.0; L];
    if order.hi >= DEBYE_MIN_ORDER && kappas.iter().all(|&k| k <= DEBYE_LANES_MAX_ARGUMENT) {
        log_norm_const_debye_lanes(dim, kappas, &mut out);
    } else {
        for (o, &k) in out.iter_mut().zip(kappas) {
            *o = log_norm_const_kernel(dim, k);
        }
    }
    out
}

/// `M < 42`, `M ≠ 3`: every regime of the scalar kernel as one run of lanes
/// ([`SmallOrderLanes::by_regime`]), each forming ln C_M as the scalar kernel does: the power
/// series with its order's part formed once, the Hankel expansion in `f64`, the recurrence as
/// `−(M/2) ln 2π − g`.
#[inline(always)]
fn small_order_by_regime(
    small: SmallOrderLanes,
    constant: DoubleDouble,
    kappas: &[f64],
    out: &mut [f64],
) {
    let series_constant = constant.sub(small.prefactor());
    let nu = small.order();
    small.by_regime(
        kappas,
        0.0,
        #[inline(always)]
        |regime, x, v| match regime {
            SmallOrderRegime::Series => {
                let tail = series_tail_lanes(nu, x);
                for (vi, &t) in v.iter_mut().zip(&tail) {
                    *vi = log_norm_const_series(series_constant, t);
                }
            }
            SmallOrderRegime::Hankel => log_norm_const_hankel_lanes(nu, x, v),
            _ => {
                let mut g = [DoubleDouble::from_f64(0.0); DEBYE_LANES];
                small.scaled_in(regime, x, &mut g);
                for (vi, gi) in v.iter_mut().zip(&g) {
                    *vi = constant.sub(*gi).to_f64();
                }
            }
        },
        #[inline(always)]
        |chunk, _, v| {
            for (&i, &vi) in chunk.iter().zip(v) {
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
