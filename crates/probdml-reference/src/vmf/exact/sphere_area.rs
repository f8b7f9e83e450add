//! `ln |S^{M−1}|` by brute force: `ln Γ(M/2)` as a compensated sum of logarithms.

use crate::compensated::{two_prod, Neumaier};

/// `ln π` as a double-double (mpmath, 60 digits: `log(pi)` = 1.14472988584940017414342735135…,
/// split as `float(v)`, `float(v − hi)`), written here again rather than imported from the fast
/// twin, so that a wrong digit there shows as a disagreement.
const LN_PI: f64 = 1.144_729_885_849_400_2;
const LN_PI_LO: f64 = 1.026_595_116_270_782_6e-17;

/// `ln 2` as a double-double.
const LN_2_LO: f64 = 2.319_046_813_846_299_6e-17;

/// `ln |S^{M−1}|` from the definition, summing `M/2` logarithms with Neumaier compensation.
///
/// # Formula
///
/// $$ \ln |S^{M-1}| = \ln 2 + \tfrac{M}{2}\ln\pi - \ln\Gamma(\tfrac{M}{2}),\qquad
///    \ln\Gamma(n) = \sum_{k=1}^{n-1}\ln k,\quad
///    \ln\Gamma(n+\tfrac12) = \tfrac12\ln\pi + \sum_{k=1}^{n}\ln(k-\tfrac12) $$
///
/// Each logarithm is rounded once, the sum is compensated, and `ln π` is carried as a
/// double-double, so the result is within a few ulps of `ln |S^{M−1}|` up to `M ≈ 10⁶`
/// (cost `O(M)`). Raw kernel: NaN for `dim = 0`.
///
/// # Errors
///
/// None (NaN on `dim = 0`).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::log_sphere_area;
/// use std::f64::consts::PI;
/// assert!((log_sphere_area(3) - (4.0 * PI).ln()).abs() < 1e-15);
/// assert!((log_sphere_area(4) - (2.0 * PI * PI).ln()).abs() < 1e-15);
/// ```
pub fn log_sphere_area(dim: usize) -> f64 {
    if dim == 0 {
        return f64::NAN;
    }
    let mut acc = Neumaier::new();
    acc.add_pair((std::f64::consts::LN_2, LN_2_LO));
    let half = dim as f64 * 0.5;
    let (p, e) = two_prod(half, LN_PI);
    acc.add_pair((p, e + half * LN_PI_LO));
    // − ln Γ(M/2)
    if dim.is_multiple_of(2) {
        for k in 2..dim / 2 {
            acc.add(-(k as f64).ln());
        }
    } else {
        acc.add_pair((-0.5 * LN_PI, -0.5 * LN_PI_LO));
        for k in 1..=dim / 2 {
            acc.add(-(k as f64 - 0.5).ln());
        }
    }
    acc.total()
}
