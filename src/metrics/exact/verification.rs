//! Verification AP by recounting precision and recall at every distinct threshold.

use crate::error::Result;
use crate::metrics::verification::split_pairs;

/// Exact twin of [`metrics::verification_average_precision`](crate::metrics::verification_average_precision):
/// for every distinct score (decreasing) count the matching and non-matching pairs at or above
/// it, and sum the precision times the recall step.
///
/// # Formula
///
/// As [`metrics::verification_average_precision`](crate::metrics::verification_average_precision).
///
/// # Errors
///
/// As [`metrics::verification_average_precision`](crate::metrics::verification_average_precision).
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let ap = exact::verification_average_precision(&[0.9, 0.6, 0.4, 0.1], &[true, false, true, false])?;
/// assert!((ap - (0.5 + 0.5 * 2.0 / 3.0)).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn verification_average_precision(match_score: &[f64], is_match: &[bool]) -> Result<f64> {
    let (negatives, positives) = split_pairs(match_score, is_match)?;
    let mut thresholds: Vec<f64> = match_score.iter().map(|&s| s + 0.0).collect();
    thresholds.sort_by(|a, b| b.total_cmp(a));
    thresholds.dedup();
    let n_pos = positives.len() as f64;
    let (mut ap, mut recall_before) = (0.0, 0.0);
    for t in thresholds {
        let tp = positives.iter().filter(|&&s| s >= t).count() as f64;
        let fp = negatives.iter().filter(|&&s| s >= t).count() as f64;
        let recall = tp / n_pos;
        if tp > 0.0 {
            ap += (recall - recall_before) * tp / (tp + fp);
        }
        recall_before = recall;
    }
    Ok(ap)
}
