//! `1 − A_M(κ)` and `A_M'(κ)` without cancellation, for concentrated vMFs.
//!
//! Near `R̄ → 1` the κ estimators need `1 − A_M(κ) ≈ (M−1)/(2κ)` to full *relative* precision:
//! at `R̄ = 1 − 10⁻¹²` it is `10⁻¹²`, and `1 − fl(A_M(κ))` would know it only to `±10⁻¹⁶`
//! absolute, i.e. to 10⁻⁴ relative. Worse, Sra's Newton step divides by
//! `A_M'(κ) = 1 − A² − (M−1)A/κ ≈ (M−1)/(2κ²)`, three terms of size `(M−1)/κ` that cancel to
//! `~κ⁻²`: evaluated naively it is pure rounding noise once `κ ≳ 10⁸`.
//!
//! Both are computed here from Debye's uniform expansion (A&S 9.7.7, DLMF 10.41.3) of each
//! Bessel function, written with `R_ν = √(ν² + κ²)` so that it stays valid down to `ν = 0`
//! (where it is Hankel's expansion, A&S 9.7.1):
//!
//! $$ I_\nu(\kappa) \sim \frac{e^{R_\nu - \nu\\,\mathrm{asinh}(\nu/\kappa)}}{\sqrt{2\pi R_\nu}}
//!    \sum_{k\ge0} \frac{u_k(p)}{\nu^k},\qquad p = \nu/R_\nu . $$
//!
//! With `ν = M/2 − 1` the log ratio `ln A = ln I_{ν+1} − ln I_ν` becomes a sum of terms that are
//! each *small and accurately computable*:
//!
//! * `R_{ν+1} − R_ν = (2ν+1)/(R_ν + R_{ν+1})`;
//! * `(ν+1) asinh((ν+1)/κ) − ν asinh(ν/κ) = ν asinh(D) + asinh((ν+1)/κ)`, with
//!   `D = (2ν+1)/((ν+1)R_ν + νR_{ν+1})` (the asinh subtraction formula, cancellation-free);
//! * `−¼ ln(R_{ν+1}²/R_ν²) = −¼ ln1p((2ν+1)/R_ν²)`;
//! * `ln S_{ν+1} − ln S_ν` with `S = Σ u_k(p)/ν^k = Σ q^k Σ_j c_{kj} p^{2j}`, `q = 1/R`;
//!
//! so `1 − A = −expm1(ln A)` is accurate to a few ulps. The derivative `d ln A/dκ` is the sum
//! of the derivatives of the same terms, each again in closed form, which gives `A' = A·d ln A/dκ`
//! with a cancellation factor of at most 2 instead of `κ`.
//!
//! The polynomials `u_k` (A&S 9.3.9–9.3.10) are the exact-rational table generated for the Bessel
//! kernels (`special/debye_coefficients.rs`); at most fourteen terms are used, fewer once the
//! terms fall below `2⁻⁶⁰/R_ν`, and the expansion is used only where `R_ν ≥ 50`, where the
//! fifteenth term is below `10⁻¹⁹`.

use super::mean_resultant_length;
use crate::special::debye::DEBYE_LANES_MAX_ARGUMENT;
use crate::special::debye_coefficients::SERIES_TERMS;
use crate::special::exp_lanes::{exp_m1_nonpositive, exp_nonpositive};
use crate::special::logarithm::{asinh_lanes, asinh_small, ln_1p_small};

/// The most Debye terms summed.
const TERMS: usize = 14;
/// The expansion is used for `√(ν² + κ²) ≥ MIN_RADIUS` (and `κ ≥ ν/2`).
const MIN_RADIUS: f64 = 50.0;
/// Below this κ, `ν² + κ²` is far from overflow and `√(ν² + κ²)` is one multiply-add and a root
/// (the straight-line form that lanes vectorise); from it on, `hypot`. The Debye lanes' bound,
/// for the same reason.
pub(crate) const LANES_MAX_KAPPA: f64 = DEBYE_LANES_MAX_ARGUMENT;

/// `R = √(ν² + κ²)`; `LANES` promises `κ < LANES_MAX_KAPPA` and leaves the `hypot` branch out.
#[inline(always)]
fn radius<const LANES: bool>(nu: f64, kappa: f64) -> f64 {
    if LANES || kappa < LANES_MAX_KAPPA {
        nu.mul_add(nu, kappa * kappa).sqrt()
    } else {
        nu.hypot(kappa)
    }
}

/// `(S − 1, dS/dκ)` for `S = Σ_k u_k(p)/ν^k` at order `nu`.
///
/// The sum stops after the first term `k` at which both `q^k P_k` and its contribution
/// `q^k (k P_k + 2p² P_k')` to the derivative are at most `2⁻⁶⁰q` ([`negligible`]), or after
/// [`TERMS`]. For `R ≥ 50` the terms still decrease there, so what is left out is below
/// `2⁻⁶⁰q`, against `1 − A ≳ q/2` and `A' ≳ q²/2` (with `dS/dκ = −κq²·Σ`): under `2⁻⁵⁹` of
/// either. The larger `R`, the fewer terms (`q^k` falls): measured on a 2.5 GHz Xeon, one
/// `kappa_mle` at `M = 128` (two evaluations) went from 660 to 542 ns on average over `R̄`
/// from 0.01 to 0.999.
#[inline(always)]
fn debye_series(nu: f64, kappa: f64) -> (f64, f64) {
    debye_series_upto(nu, kappa, negligible)
}

/// The stopping rule of [`debye_series`]: `|term|, |dterm| ≤ 2⁻⁶⁰ q`.
#[inline(always)]
fn negligible(q: f64, term: f64, dterm: f64) -> bool {
    const EPS: f64 = 1.0 / (1u64 << 60) as f64;
    term.abs() <= EPS * q && dterm.abs() <= EPS * q
}

/// `(q, p²)` of the expansion at order `nu`: `q = 1/R`, `p = ν/R`.
#[inline(always)]
fn expansion_variables<const LANES: bool>(nu: f64, kappa: f64) -> (f64, f64) {
    let q = radius::<LANES>(nu, kappa).recip();
    (q, (nu * q) * (nu * q))
}

/// One Horner step of `P_k(p²)` and `P_k'(p²)` (`u_k(p) = p^k P_k(p²)`, `P_k` of degree `k`:
/// the generated table of chapter 01): `(P, P') ← (P·p² + c_j, P'·p² + P)`.
#[inline(always)]
fn horner_step((pk, dpk): (f64, f64), p2: f64, cj: f64) -> (f64, f64) {
    (pk * p2 + cj, dpk * p2 + pk)
}

/// The `k`-th term of the series and of its derivative's sum, `(q^k P_k(p²), q^k (k P_k +
/// 2p² P_k'))`, from `qk = q^k` and `(P_k, P_k')`.
#[inline(always)]
fn term_pair(k: usize, qk: f64, p2: f64, (pk, dpk): (f64, f64)) -> (f64, f64) {
    (qk * pk, qk * (k as f64 * pk + 2.0 * p2 * dpk))
}

/// [`term_pair`] with `P_k` and `P_k'` by Horner over the table's row `k`.
#[inline(always)]
fn series_term(k: usize, qk: f64, p2: f64) -> (f64, f64) {
    let mut poly = (0.0, 0.0);
    for &cj in SERIES_TERMS[k - 1][..=k].iter().rev() {
        poly = horner_step(poly, p2, cj);
    }
    term_pair(k, qk, p2, poly)
}

/// The series summed until `stop(q, term, dterm)` or [`TERMS`] terms.
#[inline(always)]
fn debye_series_upto(nu: f64, kappa: f64, stop: impl Fn(f64, f64, f64) -> bool) -> (f64, f64) {
    let (q, p2) = expansion_variables::<false>(nu, kappa);
    let (mut sum, mut dsum) = (0.0, 0.0);
    let mut qk = 1.0;
    for k in 1..=TERMS {
        qk *= q;
        let (term, dterm) = series_term(k, qk, p2);
        sum += term;
        dsum += dterm;
        if stop(q, term, dterm) {
            break;
        }
    }
    // d(q^k P_k(p²))/dκ = −κ q^{k+2} [k P_k + 2 p² P_k'].
    (sum, -kappa * q * q * dsum)
}

/// [`debye_series`] at `L` concentrations `0 < κ < LANES_MAX_KAPPA`, bit for bit: a lane adds
/// its terms up to the one at which its own rule fires, as the scalar loop does before it
/// breaks, and the loop over terms ends when every lane has stopped.
#[inline(always)]
fn debye_series_lanes<const L: usize>(nu: f64, kappa: &[f64; L]) -> ([f64; L], [f64; L]) {
    let (mut q, mut p2) = ([0.0; L], [0.0; L]);
    for l in 0..L {
        (q[l], p2[l]) = expansion_variables::<true>(nu, kappa[l]);
    }
    let (mut sum, mut dsum, mut qk) = ([0.0; L], [0.0; L], [1.0; L]);
    let mut active = [true; L];
    for k in 1..=TERMS {
        // Horner's steps outside the loop over lanes, so that the lanes are the innermost loop
        // (the one the compiler vectorises) also here, where k is not a constant.
        let mut poly = [(0.0, 0.0); L];
        for &cj in SERIES_TERMS[k - 1][..=k].iter().rev() {
            for l in 0..L {
                poly[l] = horner_step(poly[l], p2[l], cj);
            }
        }
        for l in 0..L {
            qk[l] *= q[l];
            let (term, dterm) = term_pair(k, qk[l], p2[l], poly[l]);
            if active[l] {
                sum[l] += term;
                dsum[l] += dterm;
            }
            active[l] &= !negligible(q[l], term, dterm);
        }
        if !active.contains(&true) {
            break;
        }
    }
    for l in 0..L {
        dsum[l] *= -kappa[l] * q[l] * q[l];
    }
    (sum, dsum)
}

/// `(ln A_M(κ), d ln A_M/dκ)` from the Debye expansion. Requires `√(ν²+κ²) ≥ 50`, `κ > 0`.
#[inline(always)]
pub(crate) fn debye_log_ratio(dim: usize, kappa: f64) -> (f64, f64) {
    let nu = 0.5 * dim as f64 - 1.0;
    log_ratio_from_series::<false>(
        dim,
        kappa,
        debye_series(nu, kappa),
        debye_series(nu + 1.0, kappa),
    )
}

/// [`debye_log_ratio`] from the two series `(S − 1, dS/dκ)` at orders `ν` and `ν + 1`.
#[inline(always)]
fn log_ratio_from_series<const LANES: bool>(
    dim: usize,
    kappa: f64,
    s0: (f64, f64),
    s1: (f64, f64),
) -> (f64, f64) {
    let nu = 0.5 * dim as f64 - 1.0;
    log_ratio_with_asinh::<LANES>(dim, kappa, asinh_lanes((nu + 1.0) / kappa), s0, s1)
}

/// [`log_ratio_from_series`] with its `asinh((ν+1)/κ)` given (the same operations, so the same
/// bits). The lanes form that asinh in a loop of its own: its logarithm reads a table
/// (`special/logarithm.rs`, `ln_1_to_2`), and with that gather inside, the compiler left the
/// whole loop over lanes scalar in the AVX2 copy. Apart, the rest vectorises: `kappa_sra_batch`
/// at `M = 512` over 3000 `R̄` from 0.02 to 0.98, two steps, took 239 µs instead of 299 µs with
/// the AVX2 copy forced on a Zen 4 (the AVX-512 copy, which gathers, was unchanged).
#[inline(always)]
fn log_ratio_with_asinh<const LANES: bool>(
    dim: usize,
    kappa: f64,
    asinh_n1: f64,
    (s0, ds0): (f64, f64),
    (s1, ds1): (f64, f64),
) -> (f64, f64) {
    let nu = 0.5 * dim as f64 - 1.0;
    let n1 = nu + 1.0;
    let c = 2.0 * nu + 1.0;
    let r0 = radius::<LANES>(nu, kappa);
    let r1 = radius::<LANES>(n1, kappa);
    let p1 = c / (r0 + r1);
    let d = c / (n1 * r0 + nu * r1);
    // The library's asinh and ln_1p would be as accurate, but no loop over lanes vectorises a
    // call; these are straight-line and relatively accurate to a few ulps (special/logarithm.rs).
    // With R_ν, R_{ν+1} ≥ 50: D ≤ 1/50, c/R_ν² ≤ 0.041 and |S − 1| ≤ 0.01, inside the small
    // forms' domains; (ν+1)/κ reaches 2 where κ = ν/2.
    let p23 = -(nu * asinh_small(d) + asinh_n1);
    let p4 = -0.25 * ln_1p_small(c / (r0 * r0));
    let p5 = ln_1p_small(s1) - ln_1p_small(s0);

    let dp1 = -c * (kappa / r0 + kappa / r1) / ((r0 + r1) * (r0 + r1));
    let dp23 = c * (kappa * kappa + r0 * r1) / (kappa * r0 * r1 * (r0 + r1));
    let dp4 = c * kappa / (2.0 * r0 * r0 * r1 * r1);
    let dp5 = ds1 / (1.0 + s1) - ds0 / (1.0 + s0);
    ((p1 + p23) + p4 + p5, (dp1 + dp23) + dp4 + dp5)
}

/// `(1 − A, A')` from `(ln A, d ln A/dκ)`: `1 − A = −expm1(ln A)`, `A' = A · d ln A/dκ`
/// (`ln A < 0`; straight-line exponentials, `special/exp_lanes.rs`).
#[inline(always)]
fn complement_from_log_ratio((ln_a, dln_a): (f64, f64)) -> (f64, f64) {
    (-exp_m1_nonpositive(ln_a), exp_nonpositive(ln_a) * dln_a)
}

/// `true` where [`debye_log_ratio`] is used (`ν² + κ² ≥ 50²` and `κ ≥ ν/2`).
#[inline(always)]
pub(crate) fn use_debye(dim: usize, kappa: f64) -> bool {
    let nu = 0.5 * dim as f64 - 1.0;
    nu.mul_add(nu, kappa * kappa) >= MIN_RADIUS * MIN_RADIUS && 2.0 * kappa >= nu
}

/// `(1 − A_M(κ), A_M'(κ))` for `κ > 0`, both relatively accurate.
#[inline(always)]
pub(crate) fn complement_and_slope(dim: usize, kappa: f64) -> (f64, f64) {
    if use_debye(dim, kappa) {
        complement_from_log_ratio(debye_log_ratio(dim, kappa))
    } else {
        let a = mean_resultant_length(dim, kappa);
        let delta = 1.0 - a;
        // κ < 50 or A ≲ ½ here: the Riccati form loses at most ~κ·2⁻⁵¹ ≤ 3·10⁻¹⁴ relative.
        (delta, delta * (1.0 + a) - (dim as f64 - 1.0) * a / kappa)
    }
}

/// [`complement_and_slope`] at `L` concentrations, bit for bit, in the lanes where
/// [`use_debye`] holds and `κ < LANES_MAX_KAPPA`; the other lanes' values are meaningless (the
/// caller takes the scalar function there).
#[inline(always)]
pub(crate) fn complement_and_slope_debye_lanes<const L: usize>(
    dim: usize,
    kappa: &[f64; L],
) -> ([f64; L], [f64; L]) {
    let nu = 0.5 * dim as f64 - 1.0;
    let series0 = debye_series_lanes(nu, kappa);
    let series1 = debye_series_lanes(nu + 1.0, kappa);
    let mut asinh_n1 = [0.0; L];
    for (a, &k) in asinh_n1.iter_mut().zip(kappa) {
        *a = asinh_lanes((nu + 1.0) / k);
    }
    let (mut delta, mut slope) = ([0.0; L], [0.0; L]);
    for l in 0..L {
        let log_ratio = log_ratio_with_asinh::<true>(
            dim,
            kappa[l],
            asinh_n1[l],
            (series0.0[l], series0.1[l]),
            (series1.0[l], series1.1[l]),
        );
        (delta[l], slope[l]) = complement_from_log_ratio(log_ratio);
    }
    (delta, slope)
}

/// `1 − A_M(κ)`, accurate to a few ulps *relative* even where `A_M(κ)` rounds to 1.
///
/// # Formula
///
/// $$ 1 - A_M(\kappa) = 1 - \frac{I_{M/2}(\kappa)}{I_{M/2-1}(\kappa)}
///    \sim \frac{M-1}{2\kappa} - \frac{(M-1)(M-3)}{8\kappa^2} + O(\kappa^{-3}) $$
///
/// computed as `−expm1(ln A)` from Debye's uniform expansion where `√(ν² + κ²) ≥ 50` and
/// `κ ≥ ν/2` (`ν = M/2 − 1`; see the module docs): relative error a few ulps (checked against
/// the quadrature reference to `10⁻¹³` and the double-double Bessel ratio to `10⁻¹⁴` in
/// `proofs/vmf_kappa.rs`). Elsewhere it is `1 −` [`mean_resultant_length`](super::mean_resultant_length),
/// where `1 − A ≥ 0.01`, so the relative error is at most `(2⁻⁵³ + err(A_M))/0.01`, a few
/// `10⁻¹⁴` with the fast `A_M`.
/// This is what [`kappa_mle`](super::kappa_mle) and [`kappa_sra`](super::kappa_sra) solve
/// against when `R̄ > ½`, so that `R̄ = 1 − 10⁻¹²` still determines κ to 15 digits.
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite; 1 at `κ = 0`.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::mean_resultant_length_complement;
/// // M = 3: 1 − A_3(κ) = 1 − coth κ + 1/κ; at κ = 10⁸ that is 10⁻⁸ − 2e^{−2κ}… = 10⁻⁸.
/// let d = mean_resultant_length_complement(3, 1e8);
/// assert!((d / 1e-8 - 1.0).abs() < 1e-15);
/// // κ = 60: 1 − A_3 = 1/κ − 2e^{−2κ}/(1 − e^{−2κ}).
/// let k = 60.0_f64;
/// let want = 1.0 / k - 2.0 * (-2.0 * k).exp() / (-(-2.0 * k).exp_m1());
/// assert!((mean_resultant_length_complement(3, k) / want - 1.0).abs() < 1e-14);
/// ```
#[cfg_attr(doc, doc = include_str!("../../docs/katex-header.html"))]
pub fn mean_resultant_length_complement(dim: usize, kappa: f64) -> f64 {
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            if dim < 2 || kappa.is_nan() || kappa < 0.0 || !kappa.is_finite() {
                return f64::NAN;
            }
            if kappa == 0.0 {
                return 1.0;
            }
            complement_and_slope(dim, kappa).0
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_is_one_at_zero_kappa() {
        // A_M(0) = 0: the uniform distribution has no mean direction.
        for dim in [2, 3, 128, 4096] {
            assert_eq!(mean_resultant_length_complement(dim, 0.0), 1.0, "M = {dim}");
        }
    }

    #[test]
    fn first_debye_polynomials() {
        // A&S 9.3.9: u_1 = (3p − 5p³)/24, u_2 = (81p² − 462p⁴ + 385p⁶)/1152,
        // u_3 = (30375p³ − 369603p⁵ + 765765p⁷ − 425425p⁹)/414720.
        let c = |k: usize| &SERIES_TERMS[k - 1];
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-15 * b.abs();
        assert!(close(c(1)[0], 3.0 / 24.0) && close(c(1)[1], -5.0 / 24.0));
        assert!(close(c(2)[0], 81.0 / 1152.0));
        assert!(close(c(2)[1], -462.0 / 1152.0));
        assert!(close(c(2)[2], 385.0 / 1152.0));
        let want3 = [30375.0, -369_603.0, 765_765.0, -425_425.0];
        for (j, w) in want3.iter().enumerate() {
            assert!(close(c(3)[j], w / 414_720.0), "u_3 coefficient {j}");
        }
    }

    #[test]
    fn m3_closed_form_in_the_debye_regime() {
        // 1 − A_3(κ) = 1/κ − (coth κ − 1).
        for &k in &[50.0_f64, 1e3, 1e6, 1e12, 1e16] {
            let coth_minus_1 = 2.0 * (-2.0 * k).exp() / (-(-2.0 * k).exp_m1());
            let want = 1.0 / k - coth_minus_1;
            let (ln_a, dln_a) = debye_log_ratio(3, k);
            let d = -exp_m1_nonpositive(ln_a);
            assert!(
                (d / want - 1.0).abs() < 4e-16 * 8.0,
                "κ = {k}: {d} vs {want}"
            );
            // A_3' = 1/κ² − csch²κ.
            let slope = exp_nonpositive(ln_a) * dln_a;
            let want_slope = 1.0 / (k * k) - 1.0 / k.sinh().powi(2);
            assert!((slope / want_slope - 1.0).abs() < 1e-14, "κ = {k}: slope");
        }
    }

    /// The stopping rule needs both the term and its derivative term below `2⁻⁶⁰q`: on the
    /// grid of the next test the derivative condition alone gives the same sums, so the rule is
    /// checked on its own, at the `q` of the smallest and of a large radius (`R = 50`,
    /// `R = 10⁶`).
    #[test]
    fn the_stopping_rule_needs_both_terms_small() {
        let tiny = |q: f64| q * (2.0f64).powi(-61);
        let large = |q: f64| q * (2.0f64).powi(-50);
        for q in [1.0 / 50.0, 1e-6] {
            assert!(negligible(q, tiny(q), tiny(q)), "q = {q}");
            assert!(negligible(q, -tiny(q), -tiny(q)), "q = {q}: signs");
            assert!(
                !negligible(q, large(q), 0.0),
                "q = {q}: the term is not small"
            );
            assert!(
                !negligible(q, 0.0, large(q)),
                "q = {q}: the derivative term is not small"
            );
        }
    }

    /// The early stop of the series against all fourteen terms, over the Debye regime: on this
    /// grid what the rule leaves out is below half an ulp of the sums, so they are the
    /// fourteen terms' bits (and so are `1 − A` and `A'` built from them). Either condition of
    /// the rule alone leaves up to `2⁻⁵⁶q` out, which changes the last bit at some of these
    /// points; with the rule's `2⁻⁶⁰` raised to `2⁻²⁰` the sums differ in many.
    #[test]
    fn early_stop_matches_all_terms() {
        let full = |nu: f64, kappa: f64| debye_series_upto(nu, kappa, |_, _, _| false);
        let mut stopped_early = 0;
        for dim in [2usize, 3, 10, 128, 512, 4096, 100_000] {
            let nu = 0.5 * dim as f64 - 1.0;
            for i in 0..400 {
                let kappa = 10f64.powf(1.0 + 15.0 * i as f64 / 399.0);
                if !use_debye(dim, kappa) {
                    continue;
                }
                for order in [nu, nu + 1.0] {
                    assert!(
                        debye_series(order, kappa) == full(order, kappa),
                        "ν = {order}, κ = {kappa}: the sums differ from all fourteen terms'"
                    );
                }
                let fired = std::cell::Cell::new(false);
                debye_series_upto(nu, kappa, |q, t, dt| {
                    fired.set(fired.get() || negligible(q, t, dt));
                    fired.get()
                });
                stopped_early += usize::from(fired.get());
            }
        }
        assert!(
            stopped_early > 1000,
            "the rule stopped early {stopped_early} times"
        );
    }

    /// The lanes promise the scalar bits where the expansion is used: dimensions from `M = 2`
    /// to 10⁵, κ from the region's edge (`R = 50`, `κ = ν/2`) to near the lanes' limit, in
    /// lanes of mixed term counts (the series stops at a different term in each lane).
    #[test]
    fn debye_lanes_give_the_scalar_bits() {
        for dim in [2usize, 3, 42, 100, 128, 512, 4096, 100_000] {
            let nu = 0.5 * dim as f64 - 1.0;
            let edge = (2500.0 - nu * nu).max(0.0).sqrt().max(0.5 * nu);
            let mut kappas: Vec<f64> = (0..64)
                .map(|i| edge * 10f64.powf(i as f64 * 140.0 / 63.0))
                .filter(|&k| k < LANES_MAX_KAPPA)
                .collect();
            kappas.extend([edge, edge.next_up(), 1.0001 * edge, 3.0 * edge]);
            kappas.retain(|&k| use_debye(dim, k));
            assert!(kappas.len() > 40, "M = {dim}: {} points", kappas.len());
            for chunk in kappas.chunks(8) {
                let mut lanes = [chunk[0]; 8];
                lanes[..chunk.len()].copy_from_slice(chunk);
                let (delta, slope) = complement_and_slope_debye_lanes(dim, &lanes);
                for (l, &k) in lanes.iter().enumerate() {
                    let (d, s) = complement_and_slope(dim, k);
                    assert_eq!(
                        (delta[l].to_bits(), slope[l].to_bits()),
                        (d.to_bits(), s.to_bits()),
                        "M = {dim}, κ = {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn m2_large_kappa_against_hankel() {
        // M = 2: 1 − I_1/I_0 = 1/(2κ) + 1/(8κ²) + 1/(8κ³) + O(κ⁻⁴) (from A&S 9.7.1).
        let k = 1e6_f64;
        let want = 1.0 / (2.0 * k) + 1.0 / (8.0 * k * k) + 1.0 / (8.0 * k * k * k);
        let d = complement_from_log_ratio(debye_log_ratio(2, k)).0;
        assert!((d / want - 1.0).abs() < 1e-15);
    }
}
