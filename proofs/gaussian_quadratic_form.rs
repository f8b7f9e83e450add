//! # The law of a Gaussian quadratic form `Q = c + Σ λ_k (Z_k + δ_k)²` (book chapter 05, shared with 07)
//!
//! `probdml::gaussian_quadratic_form::GaussianQuadraticForm` inverts the moment generating
//! function along a contour through the saddle point, in log space. Claims proved here, each
//! against a route that shares nothing with the contour integral:
//!
//! 1. **One term** (closed form through Φ): `P(λ(Z+δ)² ≤ x) = Φ(√(x/λ) − δ) − Φ(−√(x/λ) − δ)`
//!    for `λ > 0`, with `ln Φ` from the 256-bit reference `special::exact::log_normal_cdf`; both
//!    tails, both signs of `λ`, down to `ln P ≈ −10⁴`.
//! 2. **Central χ²_k, equal weights**, `k` even: `P(χ²_k > x) = e^{−x/2} Σ_{i<k/2} (x/2)^i/i!`
//!    and `P(χ²_k ≤ x) = e^{−x/2} Σ_{i≥k/2} (x/2)^i/i!` (finite and positive series, summed in
//!    log space), `k` up to 128, `ln P` down to −3000.
//! 3. **Mixed signs in closed form**: `a·χ²₂ − b·χ²₂' = A·E₁ − B·E₂` (`A = 2a`, `B = 2b`,
//!    `E` standard exponentials) has `P(X ≤ x) = B/(A+B)·e^{x/B}` for `x ≤ 0` and
//!    `P(X > x) = A/(A+B)·e^{−x/A}` for `x ≥ 0`; checked to `ln P = −10⁵`.
//! 4. **Sign flip**: `P(Q ≤ x) = P(−Q ≥ −x)`, i.e. `ln_cdf` of `Q` equals `ln_sf` of the form with
//!    negated weights and offset at `−x` (a continuous law: no atom at `x`).
//! 5. **Monte Carlo**: `10⁶` seeded draws of random 3- to 6-term forms; each CDF value lies in
//!    the `6σ` band, `σ = √(p(1−p)/n)` computed from the value under test.
//! 6. **Far tails against mpmath**: two-term forms of mixed sign, `ln P` from a 1-D integral of
//!    `φ(z)·P(Z₂ conditional)` at 30 digits (`scripts/reference/gaussian_quadratic_form.py`,
//!    output committed next to it), from `P ≈ ½` down to `ln P ≈ −5005`.
//! 7. **A normal component** (`with_normal`): the pure normal against `ln Φ` to `z = −300`, and
//!    `Z₁² + σZ₀` against the quadrature of `E_{Z₀}[2Φ(√(x − σZ₀)) − 1]`.
//! 8. **Imhof's real integral** in the bulk: `P(Q > x) = ½ + (1/π)∫_0^∞ sin θ(u)/(u ρ(u)) du`
//!    (Imhof 1961, eq. 3.2; the unshifted line, written out in this file, no complex arithmetic)
//!    agrees to `10⁻⁹` absolute at `x = c` for mixed-sign forms of 4–8 terms (there the phase
//!    is bounded and the plain integral converges without truncation).
//! 9. **Degenerate cases and scaling**: a point mass; one-signed forms outside their support;
//!    zero weights dropped; weights near `10^{±150}` give the law of the unit-scaled form.
//! 10. **Moments**: `mean()` and `variance()` equal `∫x f` and `∫(x − m)² f` by quadrature of the
//!     density, to `10⁻¹³`.
//! 11. **Edge and atom densities**: at the edge `c` of a one-signed form, `f(c)` is the limit from
//!     inside for two terms, `+∞` for one, 0 for three; a point mass has `+∞` at its atom.
//! 12. **A mixed pair**: `Z₁² − Z₂² = 2UV` has the product-normal density `K₀(|x|/2)/(2π)`
//!     (`K₀` by quadrature of `∫₀^∞ e^{−z cosh t} dt`), to `10⁻¹⁴` relative.
//!
//! Budget: `QUADRATIC_FORM` (registry), `|Δ ln P| ≤ 10⁻¹⁰·max(1, |ln P|)`: the contour integral is
//! taken to relative `10⁻¹²`, and `ln P = A + ln I` adds the rounding of `K₀` over the terms.

// derivation: gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf

use crate::support;
use probdml::gaussian_quadratic_form::GaussianQuadraticForm;
use probdml::special::exact::log_normal_cdf;
use probdml_proofs::registry::budget;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

const NAME: &str = "gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf";

fn config(cases: u32) -> ProptestConfig {
    support::config(cases, 0x0005_0001)
}

/// `ln(e^a + e^b)`.
fn ln_add_exp(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    if lo == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// `ln(e^a − e^b)`, `a > b`.
fn ln_sub_exp(a: f64, b: f64) -> f64 {
    a + (-(b - a).exp_m1()).ln()
}

fn assert_ln_close(got: f64, want: f64, what: &str) {
    support::check_at(NAME, what, got, want);
}

/// ln P(λ(Z+δ)² ≤ x) and ln P(λ(Z+δ)² > x) for λ > 0, x > 0, from Φ.
fn one_term_reference(lambda: f64, delta: f64, x: f64) -> (f64, f64) {
    let r = (x / lambda).sqrt();
    let inside = ln_sub_exp(log_normal_cdf(r - delta), log_normal_cdf(-r - delta));
    let outside = ln_add_exp(log_normal_cdf(-r + delta), log_normal_cdf(-r - delta));
    (inside, outside)
}

proptest! {
    #![proptest_config(config(256))]

    /// Claim 1: one term against Φ, both signs of the weight.
    #[test]
    fn one_term_matches_the_normal_closed_form(
        lambda in support::log_uniform(1e-3, 1e3),
        negative in any::<bool>(),
        delta in prop_oneof![Just(0.0), 0.0..4.0f64],
        // x/λ from deep inside to far outside: ln P down to about −10⁴.
        ratio in support::log_uniform(1e-3, 2e4),
    ) {
        let x = lambda * ratio;
        let (inside, outside) = one_term_reference(lambda, delta, x);
        let sign = if negative { -1.0 } else { 1.0 };
        let q = GaussianQuadraticForm::new(&[sign * lambda], &[delta], 0.0).unwrap();
        if negative {
            assert_ln_close(q.ln_sf(-x), inside, "ln P(−λ(Z+δ)² > −x)");
            assert_ln_close(q.ln_cdf(-x), outside, "ln P(−λ(Z+δ)² ≤ −x)");
        } else {
            assert_ln_close(q.ln_cdf(x), inside, "ln P(λ(Z+δ)² ≤ x)");
            assert_ln_close(q.ln_sf(x), outside, "ln P(λ(Z+δ)² > x)");
        }
    }

    /// Claim 4: the sign flip.
    #[test]
    fn negating_the_form_exchanges_the_tails(
        weights in prop::collection::vec(prop_oneof![-3.0..-0.01f64, 0.01..3.0f64], 1..6),
        shifts in prop::collection::vec(-2.0..2.0f64, 6),
        offset in -2.0..2.0f64,
        x in -40.0..40.0f64,
    ) {
        let shifts = &shifts[..weights.len()];
        let q = GaussianQuadraticForm::new(&weights, shifts, offset).unwrap();
        let negated: Vec<f64> = weights.iter().map(|w| -w).collect();
        let minus_q = GaussianQuadraticForm::new(&negated, shifts, -offset).unwrap();
        let (a, b) = (q.ln_cdf(x), minus_q.ln_sf(-x));
        if a == f64::NEG_INFINITY || b == f64::NEG_INFINITY {
            prop_assert_eq!(a, b);
        } else {
            assert_ln_close(a, b, "ln P(Q ≤ x) against ln P(−Q > −x)");
        }
        // The two tails add up to one in the bulk.
        let total = q.cdf(x) + q.sf(x);
        prop_assert!((total - 1.0).abs() < 1e-12, "cdf + sf = {}", total);
    }
}

/// `ln((x/2)^i / i!)`.
fn ln_poisson_term(i: usize, half_x: f64) -> f64 {
    let ln_factorial: f64 = (2..=i).map(|j| (j as f64).ln()).sum();
    i as f64 * half_x.ln() - ln_factorial
}

/// Claim 2: equal weights against the χ²_k finite sums (k even), weights scaled by 3.7.
#[test]
fn equal_weights_give_the_chi_square_law() {
    let scale = 3.7;
    for k in [2usize, 4, 8, 32, 128] {
        let q = GaussianQuadraticForm::new(&vec![scale; k], &vec![0.0; k], 0.0).unwrap();
        for factor in [1e-3, 0.05, 0.3, 1.0, 2.0, 5.0, 25.0, 50.0] {
            let x = factor * k as f64;
            let half = 0.5 * x;
            let upper = (0..k / 2)
                .map(|i| ln_poisson_term(i, half))
                .fold(f64::NEG_INFINITY, ln_add_exp)
                - half;
            // The lower series: terms from k/2 until they are 10⁻³⁰ of the largest.
            let mut lower = f64::NEG_INFINITY;
            let mut i = k / 2;
            loop {
                let t = ln_poisson_term(i, half);
                lower = ln_add_exp(lower, t);
                if i as f64 > half && t < lower - 70.0 {
                    break;
                }
                i += 1;
            }
            lower -= half;
            let what = format!("χ²_{k} at x = {x}");
            assert_ln_close(q.ln_sf(scale * x), upper, &format!("ln sf, {what}"));
            assert_ln_close(q.ln_cdf(scale * x), lower, &format!("ln cdf, {what}"));
        }
    }
}

/// Claim 3: a·χ²₂ − b·χ²₂' in closed form, far into both tails.
#[test]
fn difference_of_chi_square_two_matches_the_laplace_law() {
    for (a, b) in [(1.0, 1.0), (0.3, 2.0), (5.0, 0.01)] {
        let q = GaussianQuadraticForm::new(&[a, a, -b, -b], &[0.0; 4], 0.0).unwrap();
        let (big_a, big_b) = (2.0 * a, 2.0 * b);
        for t in [1e-3, 0.5, 3.0, 30.0, 300.0, 3e3, 3e4, 2e5] {
            // Lower tail at x = −t·B (ln P = −t + ln(B/(A+B))), upper at x = t·A.
            let x = -t * big_b;
            let want = x / big_b + (big_b / (big_a + big_b)).ln();
            assert_ln_close(q.ln_cdf(x), want, &format!("a={a}, b={b}, x={x}"));
            let x = t * big_a;
            let want = -x / big_a + (big_a / (big_a + big_b)).ln();
            assert_ln_close(q.ln_sf(x), want, &format!("a={a}, b={b}, x={x}"));
        }
    }
}

/// Claim 5: Monte Carlo, 10⁶ draws per form, 6σ bands with the σ computed.
#[test]
fn monte_carlo_frequencies_lie_in_the_band() {
    let n = 1_000_000usize;
    let mut rng = ChaCha8Rng::seed_from_u64(0x0005_0005);
    for form in 0..4 {
        let k = 3 + form;
        let weights: Vec<f64> = (0..k)
            .map(|_| rng.random_range(0.1..2.0) * if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let shifts: Vec<f64> = (0..k).map(|_| rng.random_range(-1.5..1.5)).collect();
        let offset = rng.random_range(-1.0..1.0);
        let q = GaussianQuadraticForm::new(&weights, &shifts, offset).unwrap();
        let sd = q.variance().sqrt();
        let thresholds: Vec<f64> = [-2.0, -1.0, 0.0, 0.5, 1.5]
            .iter()
            .map(|z| q.mean() + z * sd)
            .collect();
        let mut counts = vec![0usize; thresholds.len()];
        for _ in 0..n {
            let mut value = offset;
            for (w, d) in weights.iter().zip(&shifts) {
                let z: f64 = rng.sample(StandardNormal);
                value += w * (z + d) * (z + d);
            }
            for (count, t) in counts.iter_mut().zip(&thresholds) {
                *count += usize::from(value <= *t);
            }
        }
        for (count, t) in counts.iter().zip(&thresholds) {
            let p = q.cdf(*t);
            let sigma = (p * (1.0 - p) / n as f64).sqrt();
            let freq = *count as f64 / n as f64;
            assert!(
                (freq - p).abs() <= budget::MONTE_CARLO_SIGMAS * sigma,
                "form {weights:?} {shifts:?} {offset}: P(Q ≤ {t}) = {p}, frequency {freq}, σ = {sigma:e}"
            );
        }
    }
}

/// Claim 6: the mpmath table (two-term forms of mixed sign, both tails).
#[test]
fn far_tails_match_the_mpmath_reference() {
    let table = include_str!("../scripts/reference/gaussian_quadratic_form.txt");
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let v: Vec<f64> = fields[..6].iter().map(|s| s.parse().unwrap()).collect();
        let want: f64 = fields[7].parse().unwrap();
        let q = GaussianQuadraticForm::new(&[v[0], v[2]], &[v[1], v[3]], v[4]).unwrap();
        let got = match fields[6] {
            "lower" => q.ln_cdf(v[5]),
            "upper" => q.ln_sf(v[5]),
            side => panic!("unknown side {side}"),
        };
        assert_ln_close(got, want, line);
        rows += 1;
    }
    assert!(rows >= 10, "the reference table has {rows} rows");
}

/// Claim 7: a normal component.
#[test]
fn a_normal_component_is_handled_exactly() {
    use probdml::quadrature::{integrate_breakpoints, Tolerance};
    let pure = GaussianQuadraticForm::with_normal(&[], &[], 1.0, 2.0).unwrap();
    for x in [-599.0, -60.0, -3.0, 0.0, 1.0, 4.0, 30.0] {
        let z = (x - 1.0) / 2.0;
        assert_ln_close(pure.ln_cdf(x), log_normal_cdf(z), "pure normal ln cdf");
        assert_ln_close(pure.ln_sf(x), log_normal_cdf(-z), "pure normal ln sf");
    }
    let sigma = 0.7;
    let q = GaussianQuadraticForm::with_normal(&[1.0], &[0.0], 0.0, sigma).unwrap();
    for x in [-2.0, 0.0, 0.5, 3.0] {
        // P(Z₁² ≤ t) = 2Φ(√t) − 1 for t > 0; Z₀ ranges over (−∞, x/σ).
        let inner = |z0: f64| {
            let t = x - sigma * z0;
            let phi = (-0.5 * z0 * z0).exp() / (2.0 * std::f64::consts::PI).sqrt();
            let p_in = 1.0 - 2.0 * log_normal_cdf(-t.sqrt()).exp();
            phi * p_in
        };
        let est = integrate_breakpoints(
            inner,
            &[f64::NEG_INFINITY, x / sigma - 1.0, x / sigma],
            Tolerance::relative(1e-12),
        )
        .unwrap();
        let got = q.cdf(x);
        assert!(
            (got - est.value).abs() <= budget::QUADRATURE * est.value,
            "Z² + σZ₀ at {x}: {got} against quadrature {}",
            est.value
        );
    }
    assert!(GaussianQuadraticForm::with_normal(&[1.0], &[0.0], 0.0, -1.0).is_err());
}

/// Imhof (1961): `P(Q > x) = ½ + (1/π) ∫_0^∞ sin θ(u) / (u ρ(u)) du` with
/// `θ(u) = ½Σ[arctan(λu) + δ²λu/(1 + λ²u²)] − ½(x − c)u` and
/// `ρ(u) = Π(1 + λ²u²)^{1/4} exp(½Σ δ²λ²u²/(1 + λ²u²))`.
fn imhof_sf(weights: &[f64], shifts: &[f64], offset: f64, x: f64) -> f64 {
    use probdml::quadrature::{integrate_breakpoints, Tolerance};
    let integrand = |u: f64| {
        let mut theta = -0.5 * (x - offset) * u;
        let mut ln_rho = 0.0;
        for (l, d) in weights.iter().zip(shifts) {
            let lu = l * u;
            let q = 1.0 + lu * lu;
            theta += 0.5 * (lu.atan() + d * d * lu / q);
            ln_rho += 0.25 * q.ln() + 0.5 * d * d * lu * lu / q;
        }
        theta.sin() / (u * ln_rho.exp())
    };
    // An oscillating integrand decaying like u^{−1−k/2}: an absolute target (the value is a
    // probability), panels growing geometrically.
    let est = integrate_breakpoints(
        integrand,
        &[0.0, 0.5, 2.0, 8.0, 32.0, 128.0, f64::INFINITY],
        Tolerance::absolute(1e-11),
    )
    .unwrap();
    0.5 + est.value / std::f64::consts::PI
}

/// Claim 8: the saddle-point contour against Imhof's real integral at `x = c`, where the phase
/// `θ(u)` stays bounded (at `x ≠ c` it grows like `(x − c)u/2` and a truncation of the
/// algebraically decaying oscillation would be needed, the very problem the contour solves).
#[test]
fn the_contour_agrees_with_imhofs_integral() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0005_0008);
    let mut checked = 0;
    for form in 0..12 {
        let k = 4 + form % 5;
        let weights: Vec<f64> = (0..k)
            .map(|_| rng.random_range(0.2..2.0) * if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let shifts: Vec<f64> = (0..k).map(|_| rng.random_range(-1.0..1.0)).collect();
        let offset = rng.random_range(-1.0..1.0);
        let q = GaussianQuadraticForm::new(&weights, &shifts, offset).unwrap();
        let (got, want) = (q.sf(offset), imhof_sf(&weights, &shifts, offset, offset));
        if weights.iter().all(|w| *w > 0.0) || weights.iter().all(|w| *w < 0.0) {
            continue; // one-signed: x = c is the edge of the support, covered by claim 9
        }
        assert!(
            (got - want).abs() <= 1e-9,
            "{weights:?} {shifts:?} {offset}: contour {got}, Imhof {want}"
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} mixed-sign forms");
}

/// Claim 9: degenerate cases and scaling.
#[test]
fn degenerate_forms_and_extreme_scales() {
    // Point mass at c (no terms, or only zero weights).
    for q in [
        GaussianQuadraticForm::new(&[], &[], 1.5).unwrap(),
        GaussianQuadraticForm::new(&[0.0, 0.0], &[1.0, -3.0], 1.5).unwrap(),
    ] {
        assert_eq!((q.mean(), q.variance()), (1.5, 0.0));
        assert_eq!(q.cdf(1.5), 1.0);
        assert_eq!(q.cdf(f64::from_bits(1.5f64.to_bits() - 1)), 0.0);
        assert_eq!(q.ln_sf(1.5), f64::NEG_INFINITY);
        assert_eq!(q.sf(1.0), 1.0);
    }
    // One-signed forms vanish outside their support.
    let positive = GaussianQuadraticForm::new(&[1.0, 2.0], &[0.5, 0.0], -1.0).unwrap();
    assert_eq!(positive.ln_cdf(-1.0), f64::NEG_INFINITY);
    assert_eq!(positive.cdf(-5.0), 0.0);
    assert_eq!(positive.sf(-1.0), 1.0);
    assert_eq!(positive.pdf(-2.0), 0.0);
    let negative = GaussianQuadraticForm::new(&[-1.0], &[0.0], 2.0).unwrap();
    assert_eq!(negative.ln_sf(2.0), f64::NEG_INFINITY);
    assert_eq!(negative.cdf(2.5), 1.0);
    assert_eq!(negative.pdf(2.0), f64::INFINITY);
    // Zero weights are dropped: the law is that of the remaining terms.
    let with_zero = GaussianQuadraticForm::new(&[1.0, 0.0, -0.5], &[0.3, 9.0, 0.1], 0.0).unwrap();
    let without = GaussianQuadraticForm::new(&[1.0, -0.5], &[0.3, 0.1], 0.0).unwrap();
    for x in [-3.0, 0.0, 2.0] {
        assert_eq!(with_zero.ln_cdf(x), without.ln_cdf(x));
    }
    // Infinite and NaN arguments.
    assert_eq!(without.cdf(f64::INFINITY), 1.0);
    assert_eq!(without.ln_cdf(f64::NEG_INFINITY), f64::NEG_INFINITY);
    assert!(without.cdf(f64::NAN).is_nan());
    // Scaling: the law of sQ at sx is that of Q at x, for s near 10^{±150} (10^{±200} would
    // overflow the variance, which `new` rejects).
    let unit = GaussianQuadraticForm::new(&[1.0, -0.7, 0.2], &[0.4, 1.0, 0.0], 0.1).unwrap();
    for s in [1e-150, 1e150] {
        let scaled =
            GaussianQuadraticForm::new(&[s, -0.7 * s, 0.2 * s], &[0.4, 1.0, 0.0], 0.1 * s).unwrap();
        for x in [-30.0, -1.0, 0.5, 4.0, 60.0] {
            assert_ln_close(scaled.ln_cdf(s * x), unit.ln_cdf(x), "scaled ln cdf");
            assert_ln_close(scaled.ln_sf(s * x), unit.ln_sf(x), "scaled ln sf");
        }
    }
}

/// The density integrates to the CDF: `∫_{x₀}^{x₁} f = F(x₁) − F(x₀)` by quadrature.
#[test]
fn the_density_integrates_to_the_cdf() {
    use probdml::quadrature::{integrate, Tolerance};
    let q = GaussianQuadraticForm::new(&[1.0, -0.7, 0.2], &[0.4, 1.0, 0.0], 0.1).unwrap();
    let (x0, x1) = (-4.0, 3.0);
    let est = integrate(|x| q.pdf(x), x0, x1, Tolerance::relative(1e-11)).unwrap();
    let want = q.cdf(x1) - q.cdf(x0);
    assert!(
        (est.value - want).abs() <= budget::QUADRATURE * want,
        "∫f = {}, ΔF = {want}",
        est.value
    );
}

/// Bad input is an error naming the argument.
#[test]
fn bad_input_names_the_argument() {
    let err = GaussianQuadraticForm::new(&[1.0, 2.0], &[0.0], 0.0).unwrap_err();
    assert!(err.to_string().contains("shifts"), "{err}");
    let err = GaussianQuadraticForm::new(&[1.0, f64::INFINITY], &[0.0, 0.0], 0.0).unwrap_err();
    assert!(err.to_string().contains("weights"), "{err}");
    let err = GaussianQuadraticForm::new(&[1.0], &[f64::NAN], 0.0).unwrap_err();
    assert!(err.to_string().contains("shifts"), "{err}");
    let err = GaussianQuadraticForm::new(&[1.0], &[0.0], f64::NAN).unwrap_err();
    assert!(err.to_string().contains("offset"), "{err}");
    let err = GaussianQuadraticForm::new(&[1e300, 1e300], &[1e10, 0.0], 0.0).unwrap_err();
    assert!(err.to_string().contains("weights"), "{err}");
}

/// Claim 10: the mean and variance are those of the density, `∫x f` and `∫(x − m)² f` by
/// quadrature over the support, for one-signed, mixed and normal-component forms (the density
/// itself is checked against the CDF above, and the CDF against closed forms, mpmath and Imhof).
#[test]
fn moments_are_those_of_the_density() {
    use probdml::quadrature::{integrate_breakpoints, Tolerance};
    let forms = [
        // (λ, δ, c, σ, support starts at c)
        (vec![1.0, 2.0], vec![0.5, 0.0], -1.0, 0.0, true),
        (vec![1.0, -0.7, 0.2], vec![0.4, 1.0, 0.0], 0.1, 0.0, false),
        (vec![0.3, 0.3, 1.5], vec![2.0, -1.0, 0.2], 2.0, 0.8, false),
    ];
    for (weights, shifts, offset, sd, one_signed) in forms {
        let q = GaussianQuadraticForm::with_normal(&weights, &shifts, offset, sd).unwrap();
        // Wide enough that the tails beyond carry < 1e-30 of the mass (exponential decay at rate
        // 1/(2 max|λ|) beyond the mean plus a Gaussian factor): 60 standard deviations.
        let spread = 60.0 * q.variance().sqrt().max(1.0);
        let lo = if one_signed {
            offset
        } else {
            q.mean() - spread
        };
        let hi = q.mean() + spread;
        let points = [lo, q.mean(), hi];
        let tol = Tolerance::relative(1e-12);
        let mass = integrate_breakpoints(|x| q.pdf(x), &points, tol)
            .unwrap()
            .value;
        let first = integrate_breakpoints(|x| x * q.pdf(x), &points, tol)
            .unwrap()
            .value;
        let mean = first / mass;
        let second = integrate_breakpoints(|x| (x - mean) * (x - mean) * q.pdf(x), &points, tol)
            .unwrap()
            .value;
        let variance = second / mass;
        println!(
            "λ = {weights:?}: mass {mass}, mean {} vs {mean}, variance {} vs {variance}",
            q.mean(),
            q.variance()
        );
        // Observed: |mass − 1| ≤ 2.3e-14, mean within 5e-16 sd, variance within 4e-15.
        assert!((mass - 1.0).abs() <= 1e-12, "mass {mass}");
        assert!(
            (q.mean() - mean).abs() <= 1e-13 * q.variance().sqrt(),
            "mean {} vs ∫x f = {mean}",
            q.mean()
        );
        assert!(
            (q.variance() - variance).abs() <= 1e-13 * variance,
            "variance {} vs ∫(x − m)² f = {variance}",
            q.variance()
        );
    }
}

/// Claim 11: the density at the edge `x = c` of a one-signed form is the limit from inside the
/// support: finite for two terms (`e^{−(δ₁²+δ₂²)/2}/(2√(λ₁λ₂))`, here compared with the contour
/// integral just inside), `+∞` for one, 0 for three; and a point mass has an infinite density at
/// its atom and 0 elsewhere.
#[test]
fn edge_and_atom_densities_are_the_limits() {
    for (weights, shifts, offset) in [
        (vec![2.0, 0.5], vec![1.0, 0.3], 0.25),
        (vec![-3.0, -0.2], vec![0.0, 1.5], -1.0),
    ] {
        let q = GaussianQuadraticForm::new(&weights, &shifts, offset).unwrap();
        let sign = weights[0].signum();
        let at_edge = q.pdf(offset);
        // f(c + h) = f(c) + O(h): at h = 1e-8 the difference is 5e-9 and 1.5e-8 relative.
        let inside = q.pdf(offset + sign * 1e-8);
        println!("edge {at_edge} vs inside {inside}");
        assert!(at_edge.is_finite() && at_edge > 0.0, "{at_edge}");
        assert!(
            (at_edge - inside).abs() <= 1e-6 * inside,
            "{at_edge} vs {inside}"
        );
    }
    let three = GaussianQuadraticForm::new(&[1.0, 2.0, 0.5], &[0.0, 1.0, 0.0], 0.0).unwrap();
    assert_eq!(three.pdf(0.0), 0.0);
    assert!(three.pdf(1e-3) > 0.0);
    let one = GaussianQuadraticForm::new(&[2.0], &[0.7], 1.0).unwrap();
    assert_eq!(one.pdf(1.0), f64::INFINITY);
    for q in [
        GaussianQuadraticForm::new(&[], &[], 1.5).unwrap(),
        GaussianQuadraticForm::with_normal(&[0.0], &[2.0], 1.5, 0.0).unwrap(),
    ] {
        assert_eq!(q.pdf(1.5), f64::INFINITY);
        assert_eq!(q.pdf(1.0), 0.0);
        assert_eq!(q.pdf(2.0), 0.0);
    }
}

/// Claim 12: a mixed pair `Z₁² − Z₂² = 2UV` (U, V independent standard normals) has the
/// product-normal density `f(x) = K₀(|x|/2)/(2π)`, with `K₀(z) = ∫₀^∞ e^{−z cosh t} dt` by
/// quadrature here; infinite (a logarithmic singularity) at 0.
#[test]
fn a_mixed_pair_has_the_product_normal_density() {
    use probdml::quadrature::{integrate, Tolerance};
    let q = GaussianQuadraticForm::new(&[1.0, -1.0], &[0.0, 0.0], 0.0).unwrap();
    assert_eq!(q.pdf(0.0), f64::INFINITY);
    for x in [-6.0f64, -0.5, 0.02, 0.7, 4.0] {
        let z = 0.5 * x.abs();
        // e^{−z cosh t} < e^{−800} beyond cosh t = 800/z.
        let t_max = (800.0 / z).acosh();
        let k0 = integrate(
            |t| (-z * t.cosh()).exp(),
            0.0,
            t_max,
            Tolerance::relative(1e-13),
        )
        .unwrap()
        .value;
        let want = k0 / (2.0 * std::f64::consts::PI);
        let got = q.pdf(x);
        println!(
            "x = {x}: relative difference {:e}",
            (got - want).abs() / want
        );
        assert!(
            // Observed worst 1.1e-15 (x = −6).
            (got - want).abs() <= 1e-14 * want,
            "x = {x}: {got} vs K₀(|x|/2)/(2π) = {want}"
        );
    }
}
