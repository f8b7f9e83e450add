//! HIB's verification task (§4.1, Table 1): average precision of the match score over pairs.

use crate::error::{Error, Result};
use crate::metrics::checks;
use crate::metrics::ood::average_precision_sorted;
use crate::metrics::score::Score;
use crate::metrics::score_sort::sorted_keys;

/// Checks of [`verification_average_precision`] (shared by both twins); returns the scores of
/// the non-matching and of the matching pairs.
pub(crate) fn split_pairs<S: Score>(
    match_score: &[S],
    is_match: &[bool],
) -> Result<(Vec<S>, Vec<S>)> {
    checks::at_least("match_score", match_score, 1)?;
    checks::same_length("is_match", match_score.len(), is_match.len())?;
    checks::all_finite("match_score", match_score)?;
    let (mut negatives, mut positives) = (Vec::new(), Vec::new());
    for (&s, &m) in match_score.iter().zip(is_match) {
        if m {
            positives.push(s);
        } else {
            negatives.push(s);
        }
    }
    if positives.is_empty() {
        return Err(Error::Undefined {
            arg: "is_match",
            quantity: "the verification average precision",
            reason: "no pair is a match",
        });
    }
    Ok((negatives, positives))
}

/// Average precision of pairwise verification (HIB §4.1): rank the pairs by their match score
/// (e.g. `p(m | x₁, x₂)`), matching pairs as the positive class; scikit-learn's
/// `average_precision_score` with ties as one threshold. Fast twin of
/// [`exact::verification_average_precision`](crate::metrics::exact::verification_average_precision).
///
/// # Formula
///
/// With thresholds `t₁ > t₂ > …` the distinct scores, `TP_t = #{match, score ≥ t}`,
/// `FP_t = #{non-match, score ≥ t}`: `AP = Σ_t (R_t − R_{t−1}) P_t`, `R_t = TP_t/n_match`,
/// `P_t = TP_t/(TP_t + FP_t)`.
///
/// # Errors
///
/// [`Error::TooFew`] for no pair; [`Error::DimensionMismatch`] if the lengths differ;
/// [`Error::NotFiniteElement`] for NaN or ±∞; [`Error::Undefined`] when no pair matches.
///
/// # Examples
///
/// ```
/// use probdml::metrics::verification_average_precision;
/// // Descending: 0.9 (match) P = 1; 0.6 (non-match); 0.4 (match) P = 2/3.
/// let ap = verification_average_precision(&[0.9, 0.6, 0.4, 0.1], &[true, false, true, false])?;
/// assert!((ap - (0.5 + 0.5 * 2.0 / 3.0)).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB §4.1 and Table 1 ("verification AP", 10k test pairs, half matching).
pub fn verification_average_precision<S: Score>(
    match_score: &[S],
    is_match: &[bool],
) -> Result<f64> {
    let (negatives, positives) = split_pairs(match_score, is_match)?;
    Ok(average_precision_sorted(
        &sorted_keys(&negatives),
        &sorted_keys(&positives),
    ))
}
