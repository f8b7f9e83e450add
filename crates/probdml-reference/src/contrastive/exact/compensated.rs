//! Error-free transformations for the exact twins of chapter 03 (Knuth's TwoSum, the FMA
//! TwoProduct, Neumaier summation; Ogita, Rump & Oishi 2005). Results are kept as unevaluated
//! pairs `hi + lo` where a proof needs more than `f64` (the finite differences of the NLL).

#[doc(hidden)]
pub use crate::compensated::{two_prod, two_sum, Neumaier};

/// `Σ aₖbₖ` as a double-double (Dot2).
#[doc(hidden)]
pub fn dot_dd(a: &[f64], b: &[f64]) -> (f64, f64) {
    let mut acc = Neumaier::new();
    for (&x, &y) in a.iter().zip(b) {
        acc.add_pair(two_prod(x, y));
    }
    acc.pair()
}

/// `‖a − b‖²` as a double-double: each difference split exactly by TwoSum, squared exactly.
#[doc(hidden)]
pub fn squared_distance_dd(a: &[f64], b: &[f64]) -> (f64, f64) {
    let mut acc = Neumaier::new();
    for (&x, &y) in a.iter().zip(b) {
        let (s, e) = two_sum(x, -y);
        let (p, pe) = two_prod(s, s);
        acc.add_pair((p, pe + (2.0 * s * e + e * e)));
    }
    acc.pair()
}

/// Whether `d²` (a double-double) is strictly below `m²`, decided without rounding `m²`.
#[doc(hidden)]
pub fn inside_margin(d2: (f64, f64), margin: f64) -> bool {
    let (p, e) = two_prod(margin, margin);
    let (s, se) = two_sum(d2.0, -p);
    (s + (se + (d2.1 - e))) < 0.0
}

/// `m² − d²` rounded once from its exact double-double value.
#[doc(hidden)]
pub fn margin_gap(d2: (f64, f64), margin: f64) -> f64 {
    let (p, e) = two_prod(margin, margin);
    let (s, se) = two_sum(p, -d2.0);
    s + (se + (e - d2.1))
}
