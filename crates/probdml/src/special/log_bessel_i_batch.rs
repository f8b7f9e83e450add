//! ln I_ν(x) for one order and many arguments: the Debye regime in vectorised lanes.

use super::debye::{
    log_bessel_i_debye_lanes, DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER,
};
use super::half_order::log_bessel_i_half_lanes;
use super::hankel::log_bessel_i_hankel_lanes;
use super::log_bessel_i::log_bessel_i_kernel;
use super::small_order_lanes::{SmallOrderLanes, SmallOrderRegime};
use crate::compensated::DoubleDouble;
use crate::error::{require_batch, require_nonnegative, Result};
use crate::instruction_set::dispatch;
use crate::special::logarithm::Ln;

/// Writes `ln I_ν(x_i)` into `out[i]` for every `x_i` of `xs`: the same bits as
/// [`log_bessel_i`](super::log_bessel_i)`(nu, x_i)`.
///
/// # Formula
///
/// $$ \ln I_\nu(x) = \nu\ln x + g(\nu, x),\qquad g(\nu, x) = \ln I_\nu(x) - \nu\ln x $$
///
/// as in the scalar function: for `ν ≥ 20` the uniform asymptotic expansion (A&S 9.7.7) gives
/// the sum directly, `s − ν ln((ν + s)/x) − ½ ln 2πs + Σ W_k/ν^k`, its correction polynomial
/// formed once per chunk. There the arguments go through the expansion in lanes of sixteen, which the compiler
/// vectorises (AVX2+FMA where the CPU has them, chosen at run time): the lane kernel performs
/// the scalar kernel's operations (its branch-free square root and logarithm give the same bits
/// for the normal arguments `x ≤ 10¹⁵⁰` that it receives), so the values are bit-identical to
/// the scalar calls (`proofs/batch_kernels.rs`). For `ν < 20` the regime depends on each
/// `x`: eight consecutive arguments that all lie in the power series' range (`x < 32`) or all in
/// the Hankel expansion's (`x ≥ max(32, ¾ν²)`) go through that expansion in lanes, its
/// order-dependent prefactor `−ν ln 2 − ln Γ(ν+1)` formed once for the batch (the scalar call
/// forms it at every argument); the other chunks (a regime boundary, the order recurrence at
/// `32 ≤ x < ¾ν²`) cost one scalar evaluation per value. `ν = ½` runs its closed form in
/// lanes. The lanes perform the scalar kernels' operations, so every value is the scalar
/// call's bits.
///
/// # When to prefer it
///
/// Whenever one order meets many arguments: for `ν ≥ 20` (a vMF in `M ≥ 42` dimensions: the
/// normaliser's `ν = M/2 − 1`) and for `ν < 20` with arguments in runs of one regime (sorted
/// arguments, a grid), several times cheaper per value than the scalar call (chapter 01 has the
/// measurement; `cargo bench --bench special -- log_bessel_i_batch`). Unsorted arguments of a
/// small order that straddle `x = 32` in most chunks cost what the scalar loop costs.
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
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn log_bessel_i_batch(nu: f64, xs: &[f64], out: &mut [f64]) -> Result<()> {
    require_nonnegative("nu", nu)?;
    // The pass over the arguments inside the dispatched copy, at its vector width.
    dispatch(
        #[inline(always)]
        || {
            require_batch(
                "xs",
                xs,
                out.len(),
                (0.0, f64::INFINITY),
                "every argument must be >= 0",
            )?;
            log_bessel_i_batch_kernel(nu, xs, out);
            Ok(())
        },
    )
}

/// The kernel of [`log_bessel_i_batch`] (checked input, equal lengths).
#[inline(always)]
fn log_bessel_i_batch_kernel(nu: f64, xs: &[f64], out: &mut [f64]) {
    let order = DoubleDouble::from_f64(nu);
    if nu == 0.5 {
        half_order_batch(xs, out);
        return;
    }
    if nu < DEBYE_MIN_ORDER {
        match SmallOrderLanes::new(order) {
            Some(small) => small_order_batch(nu, small, xs, out),
            None => {
                for (o, &x) in out.iter_mut().zip(xs) {
                    *o = log_bessel_i_kernel(nu, x);
                }
            }
        }
        return;
    }
    every_chunk_in_lanes(
        nu,
        xs,
        out,
        #[inline(always)]
        |x, v| log_bessel_i_debye_lanes(nu, x, v),
    );
}

/// Every chunk of arguments through one regime's lanes (`log` writes ln I_ν for the chunk's
/// clamped arguments), then the range edges by the scalar kernel.
#[inline(always)]
fn every_chunk_in_lanes(
    nu: f64,
    xs: &[f64],
    out: &mut [f64],
    mut log: impl FnMut(&[f64; DEBYE_LANES], &mut [f64; DEBYE_LANES]),
) {
    let mut x = [1.0; DEBYE_LANES];
    let mut v = [0.0; DEBYE_LANES];
    for (oc, xc) in out.chunks_mut(DEBYE_LANES).zip(xs.chunks(DEBYE_LANES)) {
        // Lanes outside the branch-free range (0, subnormals, x > 10¹⁵⁰) compute a value that is
        // replaced below; a short last chunk keeps earlier (valid) arguments in its spare lanes.
        let mut clamped = false;
        for (xi, &a) in x.iter_mut().zip(xc) {
            *xi = a.clamp(f64::MIN_POSITIVE, DEBYE_LANES_MAX_ARGUMENT);
            clamped |= *xi != a;
        }
        // Into a full array of lanes first: a loop over all DEBYE_LANES vectorises, one over a
        // chunk of `out` (shorter at the end) ran scalar; so did the lanes written straight into
        // a full chunk of `out` (three times slower, measured).
        log(&x, &mut v);
        oc.copy_from_slice(&v[..oc.len()]);
        if clamped {
            fix_up_range_edges(nu, xc, oc);
        }
    }
}

/// `ν = ½`: the closed form in lanes (`half_order.rs`).
#[inline(always)]
fn half_order_batch(xs: &[f64], out: &mut [f64]) {
    // A closure, not the function item: passed as an item, the function was not inlined into
    // the dispatched copy and ran as baseline x86-64 code, four times slower (measured).
    #[allow(clippy::redundant_closure)]
    every_chunk_in_lanes(
        0.5,
        xs,
        out,
        #[inline(always)]
        |x, v| log_bessel_i_half_lanes(x, v),
    );
}

/// `ν < 20` (not ½): chunks whose arguments share a regime of the scalar kernel go through
/// that regime's lanes ([`log_in`]), the others per value. Arguments in runs of one regime (a
/// sorted grid) meet a boundary once per regime; unsorted ones go through
/// [`SmallOrderLanes::by_regime`], which visits them sorted by regime.
#[inline(always)]
fn small_order_batch(nu: f64, small: SmallOrderLanes, xs: &[f64], out: &mut [f64]) {
    if !small.regimes_in_order(xs) {
        small.by_regime(
            xs,
            0.0,
            #[inline(always)]
            |regime, x, v| log_in(nu, &small, regime, x, v),
            #[inline(always)]
            |chunk, _, v| {
                for (&i, &vi) in chunk.iter().zip(v) {
                    out[i] = vi;
                }
            },
        );
        fix_up_range_edges(nu, xs, out);
    } else {
        let mut x = [1.0; DEBYE_LANES];
        let mut v = [0.0; DEBYE_LANES];
        for (oc, xc) in out.chunks_mut(DEBYE_LANES).zip(xs.chunks(DEBYE_LANES)) {
            // Sorted by regime: the chunk's first and last arguments bound its regimes.
            let regime = small.regime(xc[0]);
            if regime == small.regime(xc[xc.len() - 1]) {
                let mut outside = false;
                for (xi, &a) in x.iter_mut().zip(xc) {
                    *xi = a;
                    outside |= !(f64::MIN_POSITIVE..=DEBYE_LANES_MAX_ARGUMENT).contains(&a);
                }
                log_in(nu, &small, regime, &x, &mut v);
                oc.copy_from_slice(&v[..oc.len()]);
                if outside {
                    fix_up_range_edges(nu, xc, oc);
                }
            } else {
                for (o, &a) in oc.iter_mut().zip(xc) {
                    *o = log_bessel_i_kernel(nu, a);
                }
            }
        }
    }
}

/// ln I_ν(x_l) for a chunk of lanes all in `regime` of a small order, as the scalar kernel
/// forms it: the Hankel expansion's own `f64` value, else `ν ln x + g` from the regime's g
/// (lanes outside the branch-free range get a value that [`fix_up_range_edges`] replaces).
#[inline(always)]
fn log_in(
    nu: f64,
    small: &SmallOrderLanes,
    regime: SmallOrderRegime,
    x: &[f64; DEBYE_LANES],
    out: &mut [f64; DEBYE_LANES],
) {
    if regime == SmallOrderRegime::Hankel {
        log_bessel_i_hankel_lanes(nu, x, out);
        return;
    }
    let mut g = [DoubleDouble::from_f64(0.0); DEBYE_LANES];
    small.scaled_in(regime, x, &mut g);
    let mut clamped = [1.0; DEBYE_LANES];
    for (c, &a) in clamped.iter_mut().zip(x) {
        *c = a.clamp(f64::MIN_POSITIVE, DEBYE_LANES_MAX_ARGUMENT);
    }
    assemble(nu, &clamped, &g, out);
}

/// `ln I_ν(x) = ν ln x + g` lane by lane, as the scalar function forms it (`ln_normal` is
/// `ln`'s branch for the normal arguments the lanes hold).
#[inline(always)]
fn assemble(nu: f64, x: &[f64; DEBYE_LANES], g: &[DoubleDouble; DEBYE_LANES], out: &mut [f64]) {
    // Into a full array of lanes first: a loop over all DEBYE_LANES vectorises, one over a
    // chunk of `out` (shorter at the end) ran scalar and cost as much as the Debye lanes.
    let mut v = [0.0; DEBYE_LANES];
    if nu == 0.0 {
        // ν ln x is then ±0 exactly, and (±0 + g) rounds to the double nearest g, as g does on
        // its own (its `hi` and `lo` summed once either way): the scalar call's bits without its
        // double-double logarithm (I₀, the vMF normaliser at M = 2).
        for (vi, gi) in v.iter_mut().zip(g) {
            *vi = gi.to_f64();
        }
    } else {
        for ((vi, &xi), gi) in v.iter_mut().zip(x).zip(g) {
            *vi = DoubleDouble::from_f64(xi)
                .ln_normal()
                .mul_f64(nu)
                .add(*gi)
                .to_f64();
        }
    }
    let n = out.len();
    out.copy_from_slice(&v[..n]);
}

/// The arguments outside the lanes' range (0, subnormals, x > 10¹⁵⁰), which the lanes clamped:
/// the scalar kernel, with its range branches.
#[inline(always)]
fn fix_up_range_edges(nu: f64, xs: &[f64], out: &mut [f64]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        if !(f64::MIN_POSITIVE..=DEBYE_LANES_MAX_ARGUMENT).contains(&x) {
            *o = log_bessel_i_kernel(nu, x);
        }
    }
}
