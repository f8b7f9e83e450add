//! The sparsification curve by its definition: at every point, sort, drop, average what is left.

use crate::error::Result;
use crate::metrics::input::sparsification::{
    check_inputs, check_neighbour_inputs, Sparsification, SPARSIFICATION_STEPS,
};

/// Mean performance after dropping the first ⌊f·n⌋ of the queries ordered by `order_key`
/// (a stable sort, so ties keep index order), summed afresh.
fn remaining_mean(performance: &[f64], sorted: &[usize], f: usize) -> f64 {
    let n = sorted.len();
    let drop = f * n / SPARSIFICATION_STEPS;
    let mut sum = 0.0;
    for &q in &sorted[drop..] {
        sum += performance[q];
    }
    sum / (n - drop) as f64
}

fn area(curve: &[f64]) -> f64 {
    let mut a = 0.0;
    for i in 0..curve.len() - 1 {
        a += (curve[i] + curve[i + 1]) / 2.0 * (1.0 / SPARSIFICATION_STEPS as f64);
    }
    a
}

/// Exact twin of
/// `metrics::query_neighbour_uncertainty`.
///
/// # Formula
///
/// u_q = ½ (σ²_q + σ²_{nn(q)}).
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// assert_eq!(exact::query_neighbour_uncertainty(&[0.2], &[0.6], &[0])?, vec![0.4]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn query_neighbour_uncertainty(
    query_variance: &[f64],
    database_variance: &[f64],
    nearest: &[usize],
) -> Result<Vec<f64>> {
    check_neighbour_inputs(query_variance, database_variance, nearest)?;
    let mut out = Vec::with_capacity(nearest.len());
    for q in 0..nearest.len() {
        out.push(0.5 * (query_variance[q] + database_variance[nearest[q]]));
    }
    Ok(out)
}

/// Exact twin of `metrics::sparsification_curve`: for
/// each of the 100 fractions, a fresh stable sort and a fresh sum over the remaining queries.
///
/// # Formula
///
/// c_i = mean performance of the queries left after removing the ⌊i n/100⌋ most uncertain
/// (oracle: worst-performing); AUSC = Σ_{i<99} ½(c_i + c_{i+1})/100.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let s = exact::sparsification_curve(&[0.1, 0.9, 0.3, 0.2], &[1.0, 0.0, 1.0, 1.0])?;
/// assert_eq!((s.curve[0], s.curve[99]), (0.75, 1.0));
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn sparsification_curve(uncertainty: &[f64], performance: &[f64]) -> Result<Sparsification> {
    check_inputs(uncertainty, performance)?;
    let n = uncertainty.len();
    let mut curve = Vec::with_capacity(SPARSIFICATION_STEPS);
    let mut oracle = Vec::with_capacity(SPARSIFICATION_STEPS);
    for i in 0..SPARSIFICATION_STEPS {
        let mut by_uncertainty: Vec<usize> = (0..n).collect();
        by_uncertainty
            .sort_by(|&a, &b| uncertainty[b].partial_cmp(&uncertainty[a]).expect("finite"));
        curve.push(remaining_mean(performance, &by_uncertainty, i));
        let mut by_error: Vec<usize> = (0..n).collect();
        by_error.sort_by(|&a, &b| performance[a].partial_cmp(&performance[b]).expect("finite"));
        oracle.push(remaining_mean(performance, &by_error, i));
    }
    let ausc = area(&curve);
    let oracle_ausc = area(&oracle);
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
