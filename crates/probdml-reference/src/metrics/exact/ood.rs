//! AUROC by the O(n_ID · n_OOD) pair count and AUPRC / ROC by recounting at every threshold.

use crate::error::Result;
use crate::metrics::input::ood::{check_scores, RocCurve};

/// The distinct scores of both sets, decreasing (−0 and +0 are one score).
fn thresholds_descending(id_scores: &[f64], ood_scores: &[f64]) -> Vec<f64> {
    let mut all: Vec<f64> = id_scores
        .iter()
        .chain(ood_scores)
        .map(|&s| s + 0.0)
        .collect();
    all.sort_by(|a, b| b.partial_cmp(a).expect("scores are finite"));
    all.dedup();
    all
}

/// #{s ≥ t}.
fn at_or_above(scores: &[f64], t: f64) -> usize {
    scores.iter().filter(|&&s| s >= t).count()
}

/// Exact twin of `metrics::auroc`: every (OOD, ID) pair compared.
///
/// # Formula
///
/// AUROC = (1/(n_ID n_OOD)) Σ_o Σ_i (\[s_o > s_i\] + ½\[s_o = s_i\]), evaluated as the integer
/// Σ (2\[s_o > s_i\] + \[s_o = s_i\]) divided by 2 n_ID n_OOD.
///
/// # Errors
///
/// As `metrics::auroc`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// assert_eq!(exact::auroc(&[0.1, 0.4], &[0.35, 0.8])?, 0.75);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn auroc(id_scores: &[f64], ood_scores: &[f64]) -> Result<f64> {
    check_scores(id_scores, ood_scores)?;
    let mut twice_u = 0u128;
    for &o in ood_scores {
        for &i in id_scores {
            if o > i {
                twice_u += 2;
            } else if o == i {
                twice_u += 1;
            }
        }
    }
    let pairs = 2 * id_scores.len() as u128 * ood_scores.len() as u128;
    Ok(twice_u as f64 / pairs as f64)
}

/// Exact twin of `metrics::auprc`: at every distinct threshold, TP and
/// FP recounted over all scores.
///
/// # Formula
///
/// AP = Σ_t (R_t − R_{t−1}) P_t over distinct thresholds t (decreasing), R_t = TP_t/n_OOD,
/// P_t = TP_t/(TP_t + FP_t) (scikit-learn's `average_precision_score`).
///
/// # Errors
///
/// As `metrics::auroc`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// assert_eq!(exact::auprc(&[1.0, 1.0, 1.0], &[1.0])?, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn auprc(id_scores: &[f64], ood_scores: &[f64]) -> Result<f64> {
    check_scores(id_scores, ood_scores)?;
    let n_pos = ood_scores.len() as f64;
    let (mut ap, mut previous_recall) = (0.0, 0.0);
    for t in thresholds_descending(id_scores, ood_scores) {
        let tp = at_or_above(ood_scores, t);
        let fp = at_or_above(id_scores, t);
        let recall = tp as f64 / n_pos;
        // Thresholds that add no OOD add (R_t − R_{t−1}) = 0: skip them as the step sum does.
        if recall != previous_recall {
            let precision = tp as f64 / (tp + fp) as f64;
            ap += (recall - previous_recall) * precision;
            previous_recall = recall;
        }
    }
    Ok(ap)
}

/// Exact twin of `metrics::roc_curve`.
///
/// # Formula
///
/// For each distinct score t (decreasing): FPR_t = #{ID ≥ t}/n_ID, TPR_t = #{OOD ≥ t}/n_OOD,
/// after the point (0, 0) at t = +∞.
///
/// # Errors
///
/// As `metrics::auroc`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let roc = exact::roc_curve(&[0.1, 0.4], &[0.35, 0.8])?;
/// assert_eq!(roc.true_positive_rate, vec![0.0, 0.5, 0.5, 1.0, 1.0]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn roc_curve(id_scores: &[f64], ood_scores: &[f64]) -> Result<RocCurve> {
    check_scores(id_scores, ood_scores)?;
    let mut curve = RocCurve {
        false_positive_rate: vec![0.0],
        true_positive_rate: vec![0.0],
        thresholds: vec![f64::INFINITY],
    };
    for t in thresholds_descending(id_scores, ood_scores) {
        curve
            .false_positive_rate
            .push(at_or_above(id_scores, t) as f64 / id_scores.len() as f64);
        curve
            .true_positive_rate
            .push(at_or_above(ood_scores, t) as f64 / ood_scores.len() as f64);
        curve.thresholds.push(t);
    }
    Ok(curve)
}
