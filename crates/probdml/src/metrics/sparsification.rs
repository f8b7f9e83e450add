//! The sparsification curve, its oracle and AUSC (LAM App. G.3): how performance improves as
//! the most uncertain queries are removed first.

use crate::error::Result;
use crate::metrics::input::sparsification::check_inputs;
use crate::metrics::input::sparsification::check_neighbour_inputs;
use crate::metrics::input::sparsification::Sparsification;
use crate::metrics::input::sparsification::SPARSIFICATION_STEPS;
use crate::metrics::score::Score;

/// ⌊f_i · n⌋ for f_i = i/100, in integers. LAM's `int(n * i / 100)` floors the correctly
/// rounded quotient of the exact integer n·i by 100, which is never within rounding of an
/// integer unless it is one: the same count.
#[inline]
pub(crate) fn removed(i: usize, n: usize) -> usize {
    i * n / SPARSIFICATION_STEPS
}

/// Trapezoid rule with spacing 1/100 over the points of a curve.
pub(crate) fn trapezoid(curve: &[f64]) -> f64 {
    let dx = 1.0 / SPARSIFICATION_STEPS as f64;
    curve.windows(2).map(|w| (w[0] + w[1]) / 2.0 * dx).sum()
}

/// Mean of what is left after dropping prefixes of `order`, for every removal count of the
/// curve, from one pass of suffix sums.
fn curve_along(order: &[usize], performance: &[f64]) -> Vec<f64> {
    let n = order.len();
    let mut suffix = vec![0.0; n + 1];
    for p in (0..n).rev() {
        suffix[p] = suffix[p + 1] + performance[order[p]];
    }
    (0..SPARSIFICATION_STEPS)
        .map(|i| {
            let m = removed(i, n);
            suffix[m] / (n - m) as f64
        })
        .collect()
}

/// LAM's per-query uncertainty for sparsification: the mean of the query's variance and that of
/// its nearest database neighbour.
///
/// Fast twin of
/// [`exact::query_neighbour_uncertainty`](crate::metrics::exact::query_neighbour_uncertainty)
/// (the two are the same arithmetic; the function is registered with the sparsification curve).
///
/// # Formula
///
/// u_q = ½ (σ²_q + σ²_{nn(q)}), with σ² a scalar variance per embedding (LAM `ausc.py` sums the
/// per-dimension variances of both and averages over dimensions: the same ranking when σ² is
/// the per-dimension mean).
///
/// # Errors
///
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `nearest` and
/// `query_variance` differ in length; [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange)
/// for a neighbour index not below `database_variance.len()`;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN or ±∞.
///
/// # Examples
///
/// ```
/// use probdml::metrics::query_neighbour_uncertainty;
/// let u = query_neighbour_uncertainty(&[0.2, 0.4], &[1.0, 0.0, 0.6], &[2, 0])?;
/// assert_eq!(u, vec![0.4, 0.7]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn query_neighbour_uncertainty<S: Score>(
    query_variance: &[S],
    database_variance: &[S],
    nearest: &[usize],
) -> Result<Vec<f64>> {
    check_neighbour_inputs(query_variance, database_variance, nearest)?;
    Ok(query_variance
        .iter()
        .zip(nearest)
        .map(|(&vq, &j)| 0.5 * (vq.widen() + database_variance[j].widen()))
        .collect())
}

/// The sparsification curve of an uncertainty, its oracle, AUSC and the area between them.
///
/// Fast twin of [`exact::sparsification_curve`](crate::metrics::exact::sparsification_curve):
/// one sort per ordering and suffix sums, O(n log n), where the exact twin re-sorts and re-sums
/// for every point.
///
/// # Formula
///
/// Sort the queries by decreasing uncertainty (ties: smaller query index first). For
/// f_i = i/100, i = 0 … 99, drop the first ⌊f_i n⌋ and average the performance of the rest:
/// c_i. AUSC = Σ_{i=0}^{98} ½(c_i + c_{i+1}) · 1/100 (LAM App. G.3, Tables 1–5).
/// The oracle sorts by increasing performance (decreasing error) instead. `performance` is the
/// per-query 1-NN accuracy (0/1) or AP@k, e.g. from
/// [`per_query_at_k`](crate::metrics::per_query_at_k).
///
/// LAM's `ausc.py` keeps 99 points (f ≤ 0.98) and integrates with spacing 1/99; this function
/// keeps 100 points and spacing 1/100.
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) if there is no query;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the lengths differ;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN or ±∞.
///
/// # Examples
///
/// ```
/// use probdml::metrics::sparsification_curve;
/// // Four queries; the most uncertain (0.9) is the one that failed.
/// let s = sparsification_curve(&[0.1, 0.9, 0.3, 0.2], &[1.0, 0.0, 1.0, 1.0])?;
/// assert_eq!(s.curve[0], 0.75);
/// assert_eq!(s.curve[25], 1.0); // ⌊0.25·4⌋ = 1 query removed
/// assert_eq!(s.curve, s.oracle); // this uncertainty orders errors perfectly
/// assert_eq!(s.area_between, 0.0);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn sparsification_curve<S: Score>(
    uncertainty: &[S],
    performance: &[f64],
) -> Result<Sparsification> {
    check_inputs(uncertainty, performance)?;
    let n = uncertainty.len();
    let mut by_uncertainty: Vec<usize> = (0..n).collect();
    // Decreasing uncertainty, ties by increasing index (−0 and +0 equal).
    by_uncertainty.sort_unstable_by(|&a, &b| {
        uncertainty[b]
            .partial_cmp(&uncertainty[a])
            .expect("finite")
            .then(a.cmp(&b))
    });
    let mut by_error: Vec<usize> = (0..n).collect();
    by_error.sort_unstable_by(|&a, &b| {
        performance[a]
            .partial_cmp(&performance[b])
            .expect("finite")
            .then(a.cmp(&b))
    });
    let curve = curve_along(&by_uncertainty, performance);
    let oracle = curve_along(&by_error, performance);
    let ausc = trapezoid(&curve);
    let oracle_ausc = trapezoid(&oracle);
    Ok(Sparsification {
        fractions: (0..SPARSIFICATION_STEPS)
            .map(|i| i as f64 / SPARSIFICATION_STEPS as f64)
            .collect(),
        curve,
        oracle,
        ausc,
        oracle_ausc,
        area_between: oracle_ausc - ausc,
    })
}
