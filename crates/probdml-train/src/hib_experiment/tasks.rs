//! The numbers of HIB Tables 1 and 2 for one test twin (clean or corrupt), from the method's
//! scores: the verification AP of the pairs, the K-NN identification accuracy, and, for a
//! method with an uncertainty η(x) (HIB eq. 9), the binned Kendall τ between η and each task's
//! performance (HIB §4.4).

use crate::error::{TrainError, TrainResult};
use probdml::metrics::{
    binned_kendall_tau, binned_kendall_tau_verification, verification_average_precision,
};
use serde::{Deserialize, Serialize};

use super::pairs::VerificationPairs;

/// Neighbours of the identification task (HIB §4: "a K-nearest neighbors approach with K = 5").
pub const KNN_K: usize = 5;
/// Uncertainty bins of the Kendall τ analysis (HIB §4.4: "20 bins").
pub const TAU_BINS: usize = 20;

/// One twin's numbers (one cell of Table 1 per task, of Table 2 per correlation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TwinMetrics {
    /// Average precision of the pairs ranked by their match score (Table 1, top).
    pub verification_ap: f64,
    /// Share of test images whose 5 nearest gallery embeddings vote their class (Table 1,
    /// bottom).
    pub knn_accuracy: f64,
    /// −τ_b(bin, AP of the bin) over 20 equal-count bins of pairs by ½(η(x₁) + η(x₂)) (Table 2,
    /// "AP correlation"); None without η, or where τ is undefined (every bin alike, or a bin
    /// without a matching pair).
    pub ap_tau: Option<f64>,
    /// −τ_b(bin, K-NN accuracy of the bin) over 20 equal-count bins of images by η (Table 2,
    /// "KNN correlation"); None as `ap_tau`.
    pub knn_tau: Option<f64>,
    /// Mean η(x) of the twin's images; None without η.
    pub mean_eta: Option<f64>,
}

/// What a method scored on one twin.
#[derive(Debug, Clone, Copy)]
pub struct TwinScores<'a> {
    /// The pairs and which of them match.
    pub pairs: &'a VerificationPairs,
    /// Match score of each pair, larger = more likely a match: p(m | x₁, x₂) for HIB (eq. 4),
    /// −‖z₁ − z₂‖ for point embeddings.
    pub match_score: &'a [f64],
    /// Per test image: whether K-NN identification got its class.
    pub knn_correct: &'a [bool],
    /// Per test image: the self-mismatch η(x) = 1 − p(m | x, x) (HIB eq. 9), if the method has
    /// one.
    pub eta: Option<&'a [f64]>,
}

/// τ of a binned analysis, or None where the paper's τ is undefined on this data.
fn tau_or_undefined(
    r: probdml::Result<probdml::metrics::BinnedKendall>,
) -> TrainResult<Option<f64>> {
    match r {
        Ok(b) => Ok(Some(b.tau)),
        Err(probdml::Error::Undefined { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

impl TwinMetrics {
    /// The twin's numbers from its scores.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `match_score` or `eta` when its length is not the
    /// number of pairs or of images; the metrics' errors (non-finite scores, no matching pair).
    pub fn compute(s: &TwinScores<'_>) -> TrainResult<Self> {
        let n = s.knn_correct.len();
        if s.match_score.len() != s.pairs.len() {
            return Err(TrainError::config(
                "match_score",
                s.match_score.len(),
                format!("one score per pair: {} pairs", s.pairs.len()),
            ));
        }
        if n == 0 {
            return Err(TrainError::config(
                "knn_correct",
                0,
                "K-NN accuracy needs at least one test image",
            ));
        }
        if let Some(eta) = s.eta.filter(|e| e.len() != n) {
            return Err(TrainError::config(
                "eta",
                eta.len(),
                format!("one η per test image: {n} images"),
            ));
        }
        if let Some(&bad) = s
            .pairs
            .first
            .iter()
            .chain(&s.pairs.second)
            .find(|&&i| i >= n)
        {
            return Err(TrainError::config(
                "pairs",
                bad,
                format!("pair indices must be test images below {n}"),
            ));
        }
        let verification_ap = verification_average_precision(s.match_score, &s.pairs.is_match)?;
        let correct: Vec<f64> = s
            .knn_correct
            .iter()
            .map(|&c| if c { 1.0 } else { 0.0 })
            .collect();
        let knn_accuracy = correct.iter().sum::<f64>() / n as f64;
        let (ap_tau, knn_tau, mean_eta) = match s.eta {
            None => (None, None, None),
            Some(eta) => (
                tau_or_undefined(binned_kendall_tau_verification(
                    &s.pairs.mean_uncertainty(eta),
                    s.match_score,
                    &s.pairs.is_match,
                    TAU_BINS,
                ))?,
                tau_or_undefined(binned_kendall_tau(eta, &correct, TAU_BINS))?,
                Some(eta.iter().sum::<f64>() / n as f64),
            ),
        };
        Ok(Self {
            verification_ap,
            knn_accuracy,
            ap_tau,
            knn_tau,
            mean_eta,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 40 images, η rising with the index; K-NN right on the first 20, wrong on the rest.
    fn forty() -> (Vec<bool>, Vec<f64>) {
        let correct = (0..40).map(|i| i < 20).collect();
        let eta = (0..40).map(|i| i as f64 / 40.0).collect();
        (correct, eta)
    }

    #[test]
    fn hand_checked_twin() {
        let (correct, eta) = forty();
        // Pair k joins images k and k + 1 (k < 40 − 1 … reused below), matching for even k.
        let first: Vec<usize> = (0..39).collect();
        let second: Vec<usize> = (1..40).collect();
        let is_match: Vec<bool> = (0..39).map(|k| k % 2 == 0).collect();
        let pairs = VerificationPairs {
            first,
            second,
            is_match: is_match.clone(),
        };
        // Every match scores 1, every non-match 0: AP = 1.
        let score: Vec<f64> = is_match.iter().map(|&m| f64::from(u8::from(m))).collect();
        let m = TwinMetrics::compute(&TwinScores {
            pairs: &pairs,
            match_score: &score,
            knn_correct: &correct,
            eta: Some(&eta),
        })
        .unwrap();
        assert_eq!(m.verification_ap, 1.0);
        assert_eq!(m.knn_accuracy, 0.5);
        // 20 bins of 2 images: accuracy 1 in bins 0–9, 0 in 10–19. τ_b of the bin index
        // against (1 × 10, 0 × 10): C = 0, D = 100, ties in y 2·45 = 90 of 190 pairs:
        // τ_b = −100/√(190 · 100), inverted: 100/√19000.
        let tau = 100.0 / 19_000f64.sqrt();
        assert!((m.knn_tau.unwrap() - tau).abs() < 1e-12, "{:?}", m.knn_tau);
        // Every bin of pairs has AP 1 or holds no match: bins alike or undefined, so None.
        assert_eq!(m.ap_tau, None);
        assert!((m.mean_eta.unwrap() - 39.0 / 80.0).abs() < 1e-15);
    }

    #[test]
    fn point_embeddings_have_no_tau() {
        let (correct, _) = forty();
        let pairs = VerificationPairs {
            first: vec![0, 1, 2],
            second: vec![3, 4, 5],
            is_match: vec![true, false, true],
        };
        // Descending: 0.9 match (P 1), 0.5 non-match, 0.1 match (P 2/3): AP = ½ + ½·⅔.
        let m = TwinMetrics::compute(&TwinScores {
            pairs: &pairs,
            match_score: &[0.9, 0.5, 0.1],
            knn_correct: &correct,
            eta: None,
        })
        .unwrap();
        assert!((m.verification_ap - (0.5 + 1.0 / 3.0)).abs() < 1e-15);
        assert_eq!((m.ap_tau, m.knn_tau, m.mean_eta), (None, None, None));
    }

    #[test]
    fn mismatched_lengths_are_named() {
        let (correct, eta) = forty();
        let pairs = VerificationPairs {
            first: vec![0, 1],
            second: vec![2, 40],
            is_match: vec![true, false],
        };
        let arg = |score: &[f64], eta: Option<&[f64]>, pairs: &VerificationPairs| {
            match TwinMetrics::compute(&TwinScores {
                pairs,
                match_score: score,
                knn_correct: &correct,
                eta,
            }) {
                Err(TrainError::InvalidConfig { arg, .. }) => arg,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(arg(&[0.5], None, &pairs), "match_score");
        assert_eq!(arg(&[0.5, 0.2], Some(&eta[..39]), &pairs), "eta");
        assert_eq!(arg(&[0.5, 0.2], Some(&eta), &pairs), "pairs");
    }
}
