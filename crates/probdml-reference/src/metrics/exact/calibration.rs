//! Calibration by the definitions: bins found by scanning their edges, modes by counting every
//! label, confidences averaged item by item.

use crate::error::Result;
use crate::labels::IntoLabels;
use crate::metrics::exact::neighbours::full_ranking;
use crate::metrics::input::calibration::{
    check_confidences, check_ece_at_k, check_samples, check_votes, Calibration, CalibrationBin,
};
use crate::metrics::input::embeddings::{Distance, Embeddings};
use crate::metrics::input::retrieval_task::Retrieval;

/// Σ_b (n_b/n)|acc_b − conf_b| over bins given as member lists, with per-item accuracy and
/// confidence.
fn calibration_of(members: &[Vec<usize>], accuracy: &[f64], confidence: &[f64]) -> Calibration {
    let n = accuracy.len();
    let mut ece = 0.0;
    let mut bins = Vec::with_capacity(members.len());
    for bin in members {
        if bin.is_empty() {
            bins.push(CalibrationBin {
                count: 0,
                accuracy: 0.0,
                confidence: 0.0,
            });
            continue;
        }
        let (mut acc, mut conf) = (0.0, 0.0);
        for &i in bin {
            acc += accuracy[i];
            conf += confidence[i];
        }
        let count = bin.len();
        let (acc, conf) = (acc / count as f64, conf / count as f64);
        ece += count as f64 / n as f64 * (acc - conf).abs();
        bins.push(CalibrationBin {
            count,
            accuracy: acc,
            confidence: conf,
        });
    }
    Calibration { ece, bins }
}

/// Exact twin of
/// `metrics::expected_calibration_error`: each
/// bin's members found by testing every item against the bin's edges.
///
/// # Formula
///
/// B_b = {i : b/B ≤ c_i < (b+1)/B}, the last bin closed at 1;
/// ECE = Σ_b (|B_b|/n)|acc(B_b) − conf(B_b)|.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let c = exact::expected_calibration_error(&[1.0, 1.0, 0.25], &[true, false, true], 10)?;
/// assert_eq!(c.bins[9].count, 2);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn expected_calibration_error(
    confidence: &[f64],
    correct: &[bool],
    bins: usize,
) -> Result<Calibration> {
    check_confidences(confidence, correct, bins)?;
    let members: Vec<Vec<usize>> = (0..bins)
        .map(|b| {
            let lower = b as f64 / bins as f64;
            let upper = (b + 1) as f64 / bins as f64;
            (0..confidence.len())
                .filter(|&i| {
                    let c = confidence[i];
                    lower <= c && (c < upper || (b == bins - 1 && c <= 1.0))
                })
                .collect()
        })
        .collect();
    let accuracy: Vec<f64> = correct
        .iter()
        .map(|&ok| if ok { 1.0 } else { 0.0 })
        .collect();
    Ok(calibration_of(&members, &accuracy, confidence))
}

/// Exact twin of `metrics::closed_set_ece`: every distinct
/// vote counted by a scan of all votes.
///
/// # Formula
///
/// ŷ_q = the most frequent vote (smallest label on ties), conf_q = its share; ECE over
/// equal-width bins with confidence 1.0 included.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let c = exact::closed_set_ece(&[vec![3, 3, 3, 3], vec![1, 2, 2, 1]], &[3, 2], 10)?;
/// assert_eq!(c.ece, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn closed_set_ece<'l, L: IntoLabels<'l>>(
    votes: &[Vec<usize>],
    labels: L,
    bins: usize,
) -> Result<Calibration> {
    let labels = check_votes(votes, labels.into_labels(), bins)?;
    let labels = &*labels;
    let mut confidence = Vec::with_capacity(votes.len());
    let mut correct = Vec::with_capacity(votes.len());
    for (v, &label) in votes.iter().zip(labels) {
        let (mut mode, mut best) = (usize::MAX, 0usize);
        for &candidate in v {
            let count = v.iter().filter(|&&w| w == candidate).count();
            if count > best || (count == best && candidate < mode) {
                mode = candidate;
                best = count;
            }
        }
        confidence.push(best as f64 / v.len() as f64);
        correct.push(mode == label);
    }
    expected_calibration_error(&confidence, &correct, bins)
}

/// Exact twin of `metrics::closed_set_votes`: each sample
/// set's 1-NN by a full sort per item.
///
/// # Formula
///
/// votes_q = (y_{nn_s(q)})_s, nn_s(q) the first item of q's full ranking within sample set s.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{exact, Distance, Embeddings};
/// let s1 = [0.0, 0.1, 5.0];
/// let votes = exact::closed_set_votes(&[Embeddings::new(&s1, 1)?], &[7, 7, 8], Distance::Euclidean)?;
/// assert_eq!(votes[2], vec![7]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn closed_set_votes<'l, L: IntoLabels<'l>>(
    samples: &[Embeddings<'_>],
    labels: L,
    distance: Distance,
) -> Result<Vec<Vec<usize>>> {
    let labels = check_samples(samples, labels.into_labels())?;
    let labels = &*labels;
    let mut votes = vec![Vec::new(); labels.len()];
    for &sample in samples {
        let task = Retrieval::leave_one_out(sample, labels, distance)?;
        for (q, v) in votes.iter_mut().enumerate() {
            v.push(labels[full_ranking(&task, q)[0].1]);
        }
    }
    Ok(votes)
}

/// Exact twin of `metrics::ece_at_k`: ranks from a stable sort,
/// bin membership by scanning the bin bounds, every query's percentile confidence averaged.
///
/// # Formula
///
/// c_r = 1 − (r + ½)/n for sorted position r; bin b = {r : ⌊bn/B⌋ ≤ r < ⌊(b+1)n/B⌋};
/// ECE@k = Σ_b (n_b/n)|mean AP@k − mean c_r|.
///
/// # Errors
///
/// As the fast twin.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let c = exact::ece_at_k(&[0.1, 0.8, 0.2, 0.9], &[1.0, 0.0, 1.0, 0.0], 2)?;
/// assert_eq!(c.ece, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn ece_at_k(
    uncertainty: &[f64],
    average_precision: &[f64],
    bins: usize,
) -> Result<Calibration> {
    check_ece_at_k(uncertainty, average_precision, bins)?;
    let n = uncertainty.len();
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by(|&a, &b| uncertainty[a].partial_cmp(&uncertainty[b]).expect("finite"));
    let mut confidence = vec![0.0; n];
    for (r, &q) in sorted.iter().enumerate() {
        confidence[q] = 1.0 - (r as f64 + 0.5) / n as f64;
    }
    let members: Vec<Vec<usize>> = (0..bins)
        .map(|b| {
            (0..n)
                .filter(|&r| b * n / bins <= r && r < (b + 1) * n / bins)
                .map(|r| sorted[r])
                .collect()
        })
        .collect();
    Ok(calibration_of(&members, average_precision, &confidence))
}
