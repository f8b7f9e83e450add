//! Verification AP by recounting precision and recall at every distinct threshold.

use crate::error::{Error, Result};
use crate::metrics::input::checks;

/// Exact twin of `metrics::verification_average_precision`:
/// for every distinct score (decreasing) count the matching and non-matching pairs at or above
/// it, and sum the precision times the recall step.
///
/// # Formula
///
/// As `metrics::verification_average_precision`.
///
/// # Errors
///
/// As `metrics::verification_average_precision`.
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
    checks::at_least("match_score", match_score, 1)?;
    checks::same_length("is_match", match_score.len(), is_match.len())?;
    checks::all_finite("match_score", match_score)?;
    let pairs: Vec<(f64, bool)> = match_score
        .iter()
        .copied()
        .zip(is_match.iter().copied())
        .collect();
    let n_pos = pairs.iter().filter(|p| p.1).count() as f64;
    if n_pos == 0.0 {
        return Err(Error::Undefined {
            arg: "is_match",
            quantity: "the verification average precision",
            reason: "no pair is a match",
        });
    }
    let mut thresholds: Vec<f64> = match_score.iter().map(|&s| s + 0.0).collect();
    thresholds.sort_by(|a, b| b.total_cmp(a));
    thresholds.dedup();
    let (mut ap, mut recall_before) = (0.0, 0.0);
    for t in thresholds {
        let tp = pairs.iter().filter(|p| p.1 && p.0 >= t).count() as f64;
        let fp = pairs.iter().filter(|p| !p.1 && p.0 >= t).count() as f64;
        let recall = tp / n_pos;
        if tp > 0.0 {
            ap += (recall - recall_before) * tp / (tp + fp);
        }
        recall_before = recall;
    }
    Ok(ap)
}
