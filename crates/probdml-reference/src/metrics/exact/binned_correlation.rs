//! HIB's binned Kendall-τ analysis with the exact twins of its parts.

use crate::error::{Error, Result};
use crate::metrics::exact::kendall::kendall_tau_b;
use crate::metrics::exact::ood::auprc;
use crate::metrics::input::binned_correlation::{
    bin_without_match, check_binned, check_verification, BinnedKendall,
};

/// The members of each equal-count bin by increasing uncertainty (stable sort: ties keep index
/// order), found by scanning the bin bounds.
fn bins_of(uncertainty: &[f64], bins: usize) -> Vec<Vec<usize>> {
    let n = uncertainty.len();
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by(|&a, &b| uncertainty[a].partial_cmp(&uncertainty[b]).expect("finite"));
    (0..bins)
        .map(|b| {
            (0..n)
                .filter(|&r| b * n / bins <= r && r < (b + 1) * n / bins)
                .map(|r| sorted[r])
                .collect()
        })
        .collect()
}

fn mean(values: &[f64], members: &[usize]) -> f64 {
    let mut s = 0.0;
    for &i in members {
        s += values[i];
    }
    s / members.len() as f64
}

fn finish(bin_uncertainty: Vec<f64>, bin_performance: Vec<f64>) -> Result<BinnedKendall> {
    let index: Vec<f64> = (0..bin_performance.len()).map(|b| b as f64).collect();
    let tau = -kendall_tau_b(&index, &bin_performance).map_err(|_| Error::Undefined {
        arg: "performance",
        quantity: "the binned Kendall tau",
        reason: "every bin has the same performance",
    })?;
    Ok(BinnedKendall {
        bin_uncertainty,
        bin_performance,
        tau,
    })
}

/// Exact twin of `metrics::binned_kendall_tau`, with the
/// O(B²) pair-count τ-b.
///
/// # Formula
///
/// τ = −τ_b((0, …, B−1), (perf_b)), perf_b the mean performance of equal-count bin b.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let b = exact::binned_kendall_tau(&[0.1, 0.2, 0.3, 0.4], &[1.0, 1.0, 0.0, 1.0], 2)?;
/// assert_eq!((b.bin_performance[0], b.bin_performance[1], b.tau), (1.0, 0.5, 1.0));
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn binned_kendall_tau(
    uncertainty: &[f64],
    performance: &[f64],
    bins: usize,
) -> Result<BinnedKendall> {
    check_binned(uncertainty, performance, "performance", bins)?;
    let members = bins_of(uncertainty, bins);
    finish(
        members.iter().map(|m| mean(uncertainty, m)).collect(),
        members.iter().map(|m| mean(performance, m)).collect(),
    )
}

/// Exact twin of
/// `metrics::binned_kendall_tau_verification`,
/// each bin's average precision by [`exact::auprc`](crate::metrics::exact::auprc).
///
/// # Formula
///
/// τ = −τ_b((0, …, B−1), (AP_b)), AP_b the average precision of the match scores of bin b with
/// matching pairs as positives.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let b = exact::binned_kendall_tau_verification(
///     &[0.1, 0.2, 0.3, 0.4], &[0.9, 0.1, 0.2, 0.8], &[true, false, true, false], 2)?;
/// assert_eq!(b.tau, 1.0);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn binned_kendall_tau_verification(
    uncertainty: &[f64],
    match_score: &[f64],
    is_match: &[bool],
    bins: usize,
) -> Result<BinnedKendall> {
    check_verification(uncertainty, match_score, is_match, bins)?;
    let members = bins_of(uncertainty, bins);
    let mut performance = Vec::with_capacity(bins);
    for m in &members {
        let positives: Vec<f64> = m
            .iter()
            .filter(|&&i| is_match[i])
            .map(|&i| match_score[i])
            .collect();
        let negatives: Vec<f64> = m
            .iter()
            .filter(|&&i| !is_match[i])
            .map(|&i| match_score[i])
            .collect();
        if positives.is_empty() {
            return Err(bin_without_match());
        }
        performance.push(if negatives.is_empty() {
            // Only matches: every threshold has precision 1.
            1.0
        } else {
            auprc(&negatives, &positives)?
        });
    }
    finish(
        members.iter().map(|m| mean(uncertainty, m)).collect(),
        performance,
    )
}
