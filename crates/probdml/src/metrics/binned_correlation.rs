//! HIB's binned Kendall-τ analysis (HIB §4.3, Table 2): does performance fall as the
//! uncertainty measure rises?

use crate::error::{Error, Result};
use crate::metrics::calibration::ascending_order;
use crate::metrics::input::binned_correlation::bin_without_match;
use crate::metrics::input::binned_correlation::check_binned;
use crate::metrics::input::binned_correlation::check_verification;
use crate::metrics::input::binned_correlation::BinnedKendall;
use crate::metrics::kendall::kendall_tau_b;
use crate::metrics::ood::average_precision_sorted;
use crate::metrics::score::Score;
use crate::metrics::score_sort::sorted_keys;

/// Performance against uncertainty in equal-count bins, correlated by Kendall's τ-b.
///
/// Fast twin of [`exact::binned_kendall_tau`](crate::metrics::exact::binned_kendall_tau).
///
/// # Formula
///
/// Sort by increasing uncertainty (ties: smaller index first); bin b holds the sorted positions
/// ⌊bn/B⌋ ≤ r < ⌊(b+1)n/B⌋; perf_b = the mean performance of the bin (for identification, 0/1
/// K-NN correctness: the bin's accuracy); τ = −τ_b((0, …, B−1), (perf_0, …, perf_{B−1}))
/// (HIB §4.3: 20 bins, sign inverted "so that positive correlation aligns with our goal").
///
/// # Errors
///
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless 2 ≤ bins ≤ n;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the lengths differ;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN or ±∞;
/// [`Error::Undefined`](crate::Error::Undefined) if every bin performs the same.
///
/// # Examples
///
/// ```
/// use probdml::metrics::binned_kendall_tau;
/// let uncertainty = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
/// let correct = [1.0, 1.0, 1.0, 0.0, 1.0, 0.0];
/// let b = binned_kendall_tau(&uncertainty, &correct, 3)?;
/// assert_eq!(b.bin_performance, vec![1.0, 0.5, 0.5]);
/// // τ_b((0,1,2), (1, ½, ½)) = −2/√6, inverted.
/// assert!((b.tau - 2.0 / 6f64.sqrt()).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn binned_kendall_tau<S: Score>(
    uncertainty: &[S],
    performance: &[f64],
    bins: usize,
) -> Result<BinnedKendall> {
    check_binned(uncertainty, performance, "performance", bins)?;
    let n = uncertainty.len();
    let order = ascending_order(uncertainty);
    let (bin_uncertainty, bin_performance): (Vec<f64>, Vec<f64>) = (0..bins)
        .map(|b| {
            let members = &order[b * n / bins..(b + 1) * n / bins];
            let count = members.len() as f64;
            (
                members.iter().map(|&i| uncertainty[i].widen()).sum::<f64>() / count,
                members.iter().map(|&i| performance[i]).sum::<f64>() / count,
            )
        })
        .unzip();
    finish(bin_uncertainty, bin_performance)
}

/// The binned analysis of HIB's verification task: per bin of pairs, the average precision of
/// the match scores.
///
/// Fast twin of
/// [`exact::binned_kendall_tau_verification`](crate::metrics::exact::binned_kendall_tau_verification).
///
/// # Formula
///
/// Bins as in [`binned_kendall_tau`], over pairs with uncertainty ½(η(x₁) + η(x₂)); perf_b =
/// the average precision of `match_score` with matching pairs as positives (scikit-learn's
/// `average_precision_score`, as [`auprc`](crate::metrics::auprc)); τ = −τ_b(b, perf_b).
///
/// # Errors
///
/// As [`binned_kendall_tau`], and [`Error::Undefined`](crate::Error::Undefined) when a bin holds
/// no matching pair.
///
/// # Examples
///
/// ```
/// use probdml::metrics::binned_kendall_tau_verification;
/// let uncertainty = [0.1, 0.2, 0.3, 0.4];
/// let score = [0.9, 0.1, 0.2, 0.8];
/// let is_match = [true, false, true, false];
/// let b = binned_kendall_tau_verification(&uncertainty, &score, &is_match, 2)?;
/// // Confident bin: the match outranks the non-match (AP 1); uncertain bin: it does not (AP ½).
/// assert_eq!(b.bin_performance, vec![1.0, 0.5]);
/// assert_eq!(b.tau, 1.0);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn binned_kendall_tau_verification<S: Score, M: Score>(
    uncertainty: &[S],
    match_score: &[M],
    is_match: &[bool],
    bins: usize,
) -> Result<BinnedKendall> {
    check_verification(uncertainty, match_score, is_match, bins)?;
    let n = uncertainty.len();
    let order = ascending_order(uncertainty);
    let mut bin_uncertainty = Vec::with_capacity(bins);
    let mut bin_performance = Vec::with_capacity(bins);
    for b in 0..bins {
        let members = &order[b * n / bins..(b + 1) * n / bins];
        let (mut negatives, mut positives) = (Vec::new(), Vec::new());
        for &i in members {
            if is_match[i] {
                positives.push(match_score[i]);
            } else {
                negatives.push(match_score[i]);
            }
        }
        if positives.is_empty() {
            return Err(bin_without_match());
        }
        bin_uncertainty.push(
            members.iter().map(|&i| uncertainty[i].widen()).sum::<f64>() / members.len() as f64,
        );
        bin_performance.push(if negatives.is_empty() {
            // Only matches: precision is 1 at every threshold (the step sum would only round
            // its telescoping recall increments).
            1.0
        } else {
            average_precision_sorted(&sorted_keys(&negatives), &sorted_keys(&positives))
        });
    }
    finish(bin_uncertainty, bin_performance)
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
