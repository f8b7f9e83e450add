//! Out-of-distribution detection: AUROC and AUPRC of an uncertainty score, OOD as the positive
//! class, by one pass over the tie groups: counted in a hash table when the scores take few
//! distinct values, else read off one sort of each class.

use crate::error::Result;
use crate::metrics::checks;
use crate::metrics::input::ood::check_scores;
use crate::metrics::input::ood::RocCurve;
use crate::metrics::score::Score;
use crate::metrics::score_counts;
use crate::metrics::score_sort::{score_of_key, sorted_keys, tie_groups_descending};

/// Visits the tie groups of the two score sets from the highest score down, calling
/// `visit(score_key, id_in_group, ood_in_group)` once per distinct score, after checking the
/// sets as [`check_scores`] does (and returning its error).
///
/// Scores with few distinct values are counted in a table (one read of each set); otherwise
/// both sets are sorted. The two give the same groups in the same order.
fn visit_tie_groups<S: Score>(
    id_scores: &[S],
    ood_scores: &[S],
    mut visit: impl FnMut(u64, usize, usize),
) -> Result<()> {
    checks::at_least("id_scores", id_scores, 1)?;
    checks::at_least("ood_scores", ood_scores, 1)?;
    if let Some(groups) = score_counts::tie_groups(id_scores, ood_scores) {
        for group in groups.iter().rev() {
            visit(group.key, group.negatives, group.positives);
        }
        return Ok(());
    }
    // The count gave up: many distinct scores, or one that is not finite (named here).
    check_scores(id_scores, ood_scores)?;
    let negatives = sorted_keys(id_scores);
    let positives = sorted_keys(ood_scores);
    tie_groups_descending(&negatives, &positives, visit);
    Ok(())
}

/// Twice the Mann–Whitney U of the positives over the negatives (an integer: ties count ½),
/// accumulated over the tie groups from the highest score down.
struct TwiceMannWhitney {
    negatives: u128,
    at_or_above: u128,
    u2: u128,
}

impl TwiceMannWhitney {
    fn new(negatives: usize) -> Self {
        Self {
            negatives: negatives as u128,
            at_or_above: 0,
            u2: 0,
        }
    }

    fn add(&mut self, negatives: usize, positives: usize) {
        self.at_or_above += negatives as u128;
        let below = self.negatives - self.at_or_above;
        self.u2 += positives as u128 * (2 * below + negatives as u128);
    }
}

/// Average precision of the positives, as scikit-learn's `average_precision_score` computes it:
/// Σ over distinct thresholds (decreasing) of (R_t − R_{t−1}) · P_t, all tied scores entering
/// at the same threshold; accumulated over the tie groups from the highest score down.
struct AveragePrecision {
    positives: f64,
    tp: usize,
    fp: usize,
    previous_recall: f64,
    ap: f64,
}

impl AveragePrecision {
    fn new(positives: usize) -> Self {
        Self {
            positives: positives as f64,
            tp: 0,
            fp: 0,
            previous_recall: 0.0,
            ap: 0.0,
        }
    }

    fn add(&mut self, negatives: usize, positives: usize) {
        self.tp += positives;
        self.fp += negatives;
        if positives > 0 {
            let recall = self.tp as f64 / self.positives;
            let precision = self.tp as f64 / (self.tp + self.fp) as f64;
            self.ap += (recall - self.previous_recall) * precision;
            self.previous_recall = recall;
        }
    }
}

/// Average precision of the positives of two sorted key lists (see [`AveragePrecision`]).
pub(crate) fn average_precision_sorted(negatives: &[u64], positives: &[u64]) -> f64 {
    let mut ap = AveragePrecision::new(positives.len());
    tie_groups_descending(negatives, positives, |_, a, b| ap.add(a, b));
    ap.ap
}

/// The scores an out-of-distribution detector gave to in-distribution inputs (`id`) and to
/// OOD inputs (`ood`), named at the call: OOD is the positive class, and swapping the two sets
/// turns AUROC into 1 − AUROC, which a positional call `auroc(a, b)` did without an error.
///
/// # Examples
///
/// ```
/// use probdml::metrics::OodScores;
/// let scores = OodScores { id: &[0.1f32, 0.2, 0.3], ood: &[0.25, 0.9] };
/// assert_eq!(scores.auroc()?, 5.0 / 6.0);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// ```compile_fail,E0061
/// use probdml::metrics::OodScores;
/// let (id, ood) = ([0.1, 0.2], [0.9]);
/// // error[E0061]: the two sets are named fields, not positional arguments.
/// let auroc = OodScores::auroc(&ood, &id);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OodScores<'a, S: Score> {
    /// The scores of the in-distribution inputs (the negatives).
    pub id: &'a [S],
    /// The scores of the out-of-distribution inputs (the positives).
    pub ood: &'a [S],
}

impl<S: Score> OodScores<'_, S> {
    /// AUROC of an uncertainty score for out-of-distribution detection, OOD the positive class.
    ///
    /// Fast twin of [`exact::auroc`](crate::metrics::exact::auroc) (one pass over the tie groups:
    /// O(n) by a hash-table count when there are at most min(2¹⁴, n/8) distinct scores, else
    /// O(n log n) by one partitioned sort per class; exactly equal to it, both being one integer
    /// divided by n_ID·n_OOD). Equal to scikit-learn's `roc_auc_score(y, s)` with y = 1 for OOD.
    ///
    /// # Formula
    ///
    /// AUROC = P(s_OOD > s_ID) + ½ P(s_OOD = s_ID)
    ///       = (1/(n_ID n_OOD)) Σ_{o, i} (\[s_o > s_i\] + ½\[s_o = s_i\])  (Mann–Whitney;
    /// LAM Table 2, Fig. 6).
    ///
    /// # Errors
    ///
    /// [`Error::TooFew`](crate::Error::TooFew) if either set is empty (a single class);
    /// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for a NaN or infinite score.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::OodScores;
    /// // Pairs (OOD, ID): 0.35 beats 0.1, loses to 0.4; 0.8 beats both; ties would count ½.
    /// assert_eq!(OodScores { id: &[0.1, 0.4], ood: &[0.35, 0.8] }.auroc()?, 0.75);
    /// assert_eq!(OodScores { id: &[0.5], ood: &[0.5] }.auroc()?, 0.5);
    /// assert!(OodScores { id: &[0.1], ood: &[] }.auroc().is_err());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn auroc(&self) -> Result<f64> {
        let (id_scores, ood_scores) = (self.id, self.ood);
        let mut u = TwiceMannWhitney::new(id_scores.len());
        visit_tie_groups(id_scores, ood_scores, |_, a, b| u.add(a, b))?;
        let pairs = 2 * id_scores.len() as u128 * ood_scores.len() as u128;
        Ok(u.u2 as f64 / pairs as f64)
    }

    /// AUPRC of an uncertainty score for out-of-distribution detection: the average precision of
    /// the OOD class, as scikit-learn's `average_precision_score` defines it (ties included).
    ///
    /// Fast twin of [`exact::auprc`](crate::metrics::exact::auprc).
    ///
    /// # Formula
    ///
    /// With thresholds t_1 > t_2 > … the distinct scores, TP_t = #{OOD ≥ t}, FP_t = #{ID ≥ t},
    /// R_t = TP_t/n_OOD, P_t = TP_t/(TP_t + FP_t):
    /// AP = Σ_t (R_t − R_{t−1}) P_t, R_0 = 0 (a step function, no interpolation; LAM Table 2
    /// reports AUPRC — its code integrates the PR curve by trapezoids, which differs slightly).
    ///
    /// # Errors
    ///
    /// As [`auroc`](Self::auroc).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::OodScores;
    /// // Descending: 0.8 (OOD) → P = 1, R = ½; 0.4 (ID); 0.35 (OOD) → P = 2/3, R = 1.
    /// let ap = OodScores { id: &[0.1, 0.4], ood: &[0.35, 0.8] }.auprc()?;
    /// assert!((ap - (0.5 * 1.0 + 0.5 * 2.0 / 3.0)).abs() < 1e-15);
    /// // One tie group holding everything: precision = share of OOD.
    /// assert_eq!(OodScores { id: &[1.0, 1.0, 1.0], ood: &[1.0] }.auprc()?, 0.25);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn auprc(&self) -> Result<f64> {
        let (id_scores, ood_scores) = (self.id, self.ood);
        let mut ap = AveragePrecision::new(ood_scores.len());
        visit_tie_groups(id_scores, ood_scores, |_, a, b| ap.add(a, b))?;
        Ok(ap.ap)
    }

    /// The ROC curve of an OOD detector: one point per distinct score, from (0, 0) to (1, 1).
    ///
    /// Fast twin of [`exact::roc_curve`](crate::metrics::exact::roc_curve); scikit-learn's
    /// `roc_curve(y, s, drop_intermediate=False)` with the (0, 0) point at threshold +∞. Its
    /// trapezoid area is [`auroc`](Self::auroc) (tie groups give the diagonal segments worth ½).
    ///
    /// # Formula
    ///
    /// For each distinct score t (decreasing): FPR_t = #{ID ≥ t}/n_ID, TPR_t = #{OOD ≥ t}/n_OOD.
    ///
    /// # Errors
    ///
    /// As [`auroc`](Self::auroc).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::OodScores;
    /// let roc = OodScores { id: &[0.1, 0.4], ood: &[0.35, 0.8] }.roc_curve()?;
    /// assert_eq!(roc.false_positive_rate, vec![0.0, 0.0, 0.5, 0.5, 1.0]);
    /// assert_eq!(roc.true_positive_rate, vec![0.0, 0.5, 0.5, 1.0, 1.0]);
    /// assert_eq!(roc.thresholds[1], 0.8);
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn roc_curve(&self) -> Result<RocCurve> {
        let (id_scores, ood_scores) = (self.id, self.ood);
        let (n_id, n_ood) = (id_scores.len() as f64, ood_scores.len() as f64);
        let mut curve = RocCurve {
            false_positive_rate: vec![0.0],
            true_positive_rate: vec![0.0],
            thresholds: vec![f64::INFINITY],
        };
        let (mut tp, mut fp) = (0usize, 0usize);
        visit_tie_groups(id_scores, ood_scores, |key, a, b| {
            fp += a;
            tp += b;
            curve.false_positive_rate.push(fp as f64 / n_id);
            curve.true_positive_rate.push(tp as f64 / n_ood);
            curve.thresholds.push(score_of_key(key));
        })?;
        Ok(curve)
    }
}

/// AUROC of OOD detection from `(id_scores, ood_scores)`; the two slices swap silently.
///
/// # Errors
///
/// As [`OodScores::auroc`].
#[deprecated(
    since = "0.1.0",
    note = "the two sets swap silently (AUROC becomes 1 − AUROC): use `OodScores { id, ood }.auroc()`"
)]
pub fn auroc<S: Score>(id_scores: &[S], ood_scores: &[S]) -> Result<f64> {
    OodScores {
        id: id_scores,
        ood: ood_scores,
    }
    .auroc()
}

/// AUPRC of OOD detection from `(id_scores, ood_scores)`; the two slices swap silently.
///
/// # Errors
///
/// As [`OodScores::auprc`].
#[deprecated(
    since = "0.1.0",
    note = "the two sets swap silently: use `OodScores { id, ood }.auprc()`"
)]
pub fn auprc<S: Score>(id_scores: &[S], ood_scores: &[S]) -> Result<f64> {
    OodScores {
        id: id_scores,
        ood: ood_scores,
    }
    .auprc()
}

/// The ROC curve of OOD detection from `(id_scores, ood_scores)`; the two slices swap silently.
///
/// # Errors
///
/// As [`OodScores::roc_curve`].
#[deprecated(
    since = "0.1.0",
    note = "the two sets swap silently: use `OodScores { id, ood }.roc_curve()`"
)]
pub fn roc_curve<S: Score>(id_scores: &[S], ood_scores: &[S]) -> Result<RocCurve> {
    OodScores {
        id: id_scores,
        ood: ood_scores,
    }
    .roc_curve()
}
