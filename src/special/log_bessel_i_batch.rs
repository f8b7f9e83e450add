//! ln I_ν(x) for one order and many arguments: the Debye regime in vectorised lanes.

use super::debye::{
    log_bessel_i_scaled_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};
use super::double_double::DoubleDouble;
use super::log_bessel_i::log_bessel_i_kernel;
use crate::error::{require_batch, require_nonnegative, Result};
use crate::instruction_set::dispatch;

/// Writes `ln I_ν(x_i)` into `out[i]` for every `x_i` of `xs`: the same bits as
/// [`log_bessel_i`](super::log_bessel_i)`(nu, x_i)`.
///
/// # Formula
///
/// $$ \ln I_\nu(x) = \nu\ln x + g(\nu, x),\qquad g(\nu, x) = \ln I_\nu(x) - \nu\ln x $$
///
/// with `g` from the uniform asymptotic expansion (A&S 9.7.7) for `ν ≥ 20`, as in the scalar
/// function. There the arguments go through the expansion in lanes of eight, which the compiler
/// vectorises (AVX2+FMA where the CPU has them, chosen at run time): the lane kernel performs
/// the scalar kernel's operations (its branch-free square root and logarithm give the same bits
/// for the normal arguments `x ≤ 10¹⁵⁰` that it receives), so the values are bit-identical to
/// the scalar calls (`proofs/batch_kernels.rs`). For `ν < 20` the regime depends on each
/// `x` (series, Hankel, recurrence) and each value is one scalar evaluation; the batch then
/// saves only the checks and the instruction-set choice.
///
/// # When to prefer it
///
/// Whenever one order meets many arguments and `ν ≥ 20` (a vMF in `M ≥ 42` dimensions: the
/// normaliser's `ν = M/2 − 1`): several times cheaper per value than the scalar call (chapter
/// 01 has the measurement; `cargo bench --bench special -- log_bessel_i_batch`). For `ν < 20`
/// it costs what the scalar loop costs.
///
/// # Errors
///
/// [`Error::NotFinite`](crate::Error::NotFinite) or
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a NaN, infinite or negative `nu`;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `out.len() ≠ xs.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite `x_i`,
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a negative one.
///
/// # Examples
///
/// ```
/// use probdml::special::{log_bessel_i, log_bessel_i_batch};
/// let xs = [0.0, 1e-3, 5.0, 50.0, 1e5];
/// let mut out = [0.0; 5];
/// log_bessel_i_batch(63.0, &xs, &mut out).unwrap();
/// for (x, v) in xs.iter().zip(&out) {
///     assert_eq!(v.to_bits(), log_bessel_i(63.0, *x).to_bits());
/// }
/// assert!(log_bessel_i_batch(63.0, &[-1.0], &mut [0.0]).is_err());
/// assert!(log_bessel_i_batch(f64::NAN, &[1.0], &mut [0.0]).is_err());
/// ```
pub fn log_bessel_i_batch(nu: f64, xs: &[f64], out: &mut [f64]) -> Result<()> {
    require_nonnegative("nu", nu)?;
    require_batch(
        "xs",
        xs,
        out.len(),
        (0.0, f64::INFINITY),
        "every argument must be >= 0",
    )?;
    dispatch(
        #[inline(always)]
        || log_bessel_i_batch_kernel(nu, xs, out),
    );
    Ok(())
}

/// The kernel of [`log_bessel_i_batch`] (checked input, equal lengths).
#[inline(always)]
fn log_bessel_i_batch_kernel(nu: f64, xs: &[f64], out: &mut [f64]) {
    if nu < DEBYE_MIN_ORDER {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = log_bessel_i_kernel(nu, x);
        }
        return;
    }
    let order = DoubleDouble::from_f64(nu);
    let mut x = [1.0; DEBYE_LANES];
    let mut g = [DoubleDouble::from_f64(0.0); DEBYE_LANES];
    for (oc, xc) in out.chunks_mut(DEBYE_LANES).zip(xs.chunks(DEBYE_LANES)) {
        // Lanes outside the branch-free range (0, subnormals, x > 10¹⁵⁰) compute a value that is
        // overwritten below; a short last chunk keeps earlier (valid) arguments in its spare
        // lanes.
        for (xi, &v) in x.iter_mut().zip(xc) {
            *xi = v.clamp(f64::MIN_POSITIVE, DEBYE_LANES_MAX_ARGUMENT);
        }
        log_bessel_i_scaled_debye_lanes(order, &x, &mut g);
        for ((o, &xi), gi) in oc.iter_mut().zip(&x).zip(&g) {
            // ν ln x + g, as the scalar function forms it: `ln_normal` is `ln`'s normal branch.
            *o = DoubleDouble::from_f64(xi)
                .ln_normal()
                .mul_f64(nu)
                .add(*gi)
                .to_f64();
        }
    }
    for (o, &x) in out.iter_mut().zip(xs) {
        if !(f64::MIN_POSITIVE..=DEBYE_LANES_MAX_ARGUMENT).contains(&x) {
            *o = log_bessel_i_kernel(nu, x);
        }
    }
}
