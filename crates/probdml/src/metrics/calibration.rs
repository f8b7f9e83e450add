//! Calibration of retrieval uncertainties: the closed-set ECE of LAM (App. G.3, eq. (121)) and
//! BTL's ECE@k (eq. (14)).

use crate::error::Result;
use crate::labels::IntoLabels;
use crate::metrics::embeddings::{Distance, Embeddings};
use crate::metrics::input::calibration::check_confidences;
use crate::metrics::input::calibration::check_ece_at_k;
use crate::metrics::input::calibration::check_samples;
use crate::metrics::input::calibration::check_votes;
use crate::metrics::input::calibration::Calibration;
use crate::metrics::input::calibration::CalibrationBin;
use crate::metrics::neighbours::nearest_neighbours;
use crate::metrics::retrieval_task::Retrieval;
use crate::metrics::score::Score;

/// Equal-width bin of a confidence c ∈ [0, 1]: the largest b with b/B ≤ c, capped at B − 1 so
/// that c = 1 falls in the last bin.
#[inline]
fn equal_width_bin(c: f64, bins: usize) -> usize {
    let edge = |b: usize| b as f64 / bins as f64;
    let mut b = ((c * bins as f64) as usize).min(bins - 1);
    // c·B may round across an edge that b/B itself rounds to: settle against the edges.
    while b > 0 && c < edge(b) {
        b -= 1;
    }
    while b + 1 < bins && c >= edge(b + 1) {
        b += 1;
    }
    b
}

/// The ECE of confidences against correctness over equal-width bins on [0, 1], the last bin
/// closed so that confidence 1.0 is counted.
///
/// Fast twin of
/// [`exact::expected_calibration_error`](crate::metrics::exact::expected_calibration_error).
///
/// # Formula
///
/// Bins B_b = [b/B, (b+1)/B) for b < B − 1 and B_{B−1} = [(B−1)/B, 1];
/// ECE = Σ_b (|B_b|/n) |acc(B_b) − conf(B_b)|, acc the share of correct items, conf the mean
/// confidence (Guo et al. 2017; LAM eq. (121) with B = 10). LAM's `ece.py` uses half-open bins
/// throughout and so drops confidence 1.0; this crate keeps it.
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) if empty;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the lengths differ;
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a confidence outside [0, 1] or
/// `bins == 0`; [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN.
///
/// # Examples
///
/// ```
/// use probdml::metrics::expected_calibration_error;
/// // Two items at confidence 1.0 (one wrong), one at 0.25 (right).
/// let c = expected_calibration_error(&[1.0, 1.0, 0.25], &[true, false, true], 10)?;
/// assert_eq!(c.bins[9].count, 2); // confidence 1.0 is in the last bin
/// assert_eq!(c.bins[2].count, 1);
/// // (2/3)·|0.5 − 1| + (1/3)·|1 − 0.25|
/// assert!((c.ece - (2.0 / 3.0 * 0.5 + 1.0 / 3.0 * 0.75)).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn expected_calibration_error<S: Score>(
    confidence: &[S],
    correct: &[bool],
    bins: usize,
) -> Result<Calibration> {
    check_confidences(confidence, correct, bins)?;
    let mut counts = vec![0usize; bins];
    let mut hits = vec![0usize; bins];
    let mut confidence_sums = vec![0.0; bins];
    for (&c, &ok) in confidence.iter().zip(correct) {
        let c = c.widen();
        let b = equal_width_bin(c, bins);
        counts[b] += 1;
        hits[b] += usize::from(ok);
        confidence_sums[b] += c;
    }
    Ok(summarise(
        confidence.len(),
        counts
            .iter()
            .zip(&hits)
            .zip(&confidence_sums)
            .map(|((&count, &hit), &sum)| (count, hit as f64, sum)),
    ))
}

/// Bins from (count, Σ accuracy, Σ confidence) and the weighted gap.
fn summarise(n: usize, sums: impl Iterator<Item = (usize, f64, f64)>) -> Calibration {
    let mut ece = 0.0;
    let bins: Vec<CalibrationBin> = sums
        .map(|(count, accuracy_sum, confidence_sum)| {
            if count == 0 {
                return CalibrationBin {
                    count,
                    accuracy: 0.0,
                    confidence: 0.0,
                };
            }
            let accuracy = accuracy_sum / count as f64;
            let confidence = confidence_sum / count as f64;
            ece += count as f64 / n as f64 * (accuracy - confidence).abs();
            CalibrationBin {
                count,
                accuracy,
                confidence,
            }
        })
        .collect();
    Calibration { ece, bins }
}

/// The mode of one query's votes (the smallest label among equally frequent ones) and its
/// count. Votes usually take a handful of distinct labels, so they are tallied in a short list
/// (O(S · distinct), no sort); past [`TALLY_LIMIT`] distinct labels the votes are sorted
/// instead. `scratch` is reused across queries.
fn mode(
    votes: &[usize],
    tally: &mut Vec<(usize, usize)>,
    scratch: &mut Vec<usize>,
) -> (usize, usize) {
    tally.clear();
    for &v in votes {
        // Branch-free over the (few) known labels: which one matches is unpredictable, whether
        // any does is almost always "yes".
        let mut found = false;
        for (label, count) in tally.iter_mut() {
            let hit = *label == v;
            *count += usize::from(hit);
            found |= hit;
        }
        if !found {
            if tally.len() == TALLY_LIMIT {
                return mode_by_sorting(votes, scratch);
            }
            tally.push((v, 1));
        }
    }
    let mut best = tally[0];
    for &(label, count) in &tally[1..] {
        if count > best.1 || (count == best.1 && label < best.0) {
            best = (label, count);
        }
    }
    best
}

/// Distinct labels tallied by linear search before [`mode`] switches to sorting.
const TALLY_LIMIT: usize = 16;

/// [`mode`] by sorting the votes and scanning the runs.
fn mode_by_sorting(votes: &[usize], scratch: &mut Vec<usize>) -> (usize, usize) {
    scratch.clear();
    scratch.extend_from_slice(votes);
    scratch.sort_unstable();
    let (mut best, mut best_count) = (scratch[0], 0);
    let mut start = 0;
    while start < scratch.len() {
        let mut end = start + 1;
        while end < scratch.len() && scratch[end] == scratch[start] {
            end += 1;
        }
        // Strictly greater: the first (smallest) label of a tie keeps the mode.
        if end - start > best_count {
            best = scratch[start];
            best_count = end - start;
        }
        start = end;
    }
    (best, best_count)
}

/// LAM's closed-set ECE from 1-NN votes: per query, the prediction is the mode of its S votes
/// and the confidence the share of votes agreeing with it.
///
/// Fast twin of [`exact::closed_set_ece`](crate::metrics::exact::closed_set_ece).
///
/// # Formula
///
/// ŷ_q = mode(votes_q) (ties: smallest label, as `torch.mode`), conf_q = #{s: vote_s = ŷ_q}/S,
/// correct_q = [ŷ_q = y_q]; then [`expected_calibration_error`] with `bins` equal-width bins,
/// confidence 1.0 included (LAM App. G.3 and eq. (121); LAM uses 10 bins).
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) if there is no query or a query has no vote;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if `labels` and `votes` differ
/// in length; [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless
/// `1 ≤ bins ≤ MAX_BINS`; [`Error::OutOfDomainElement`](crate::Error::OutOfDomainElement) for a
/// negative label, naming its index (labels may be of any integer type,
/// [`IntoLabels`](crate::IntoLabels)).
///
/// # Examples
///
/// ```
/// use probdml::metrics::closed_set_ece;
/// let votes = vec![vec![3, 3, 3, 3], vec![1, 2, 2, 1]];
/// let c = closed_set_ece(&votes, &[3, 2], 10)?;
/// // Query 0: mode 3, confidence 1, right. Query 1: tie 1/2 → mode 1, confidence ½, wrong.
/// assert_eq!(c.bins[9].count, 1);
/// assert_eq!(c.bins[5].accuracy, 0.0);
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
    let (mut tally, mut scratch) = (Vec::new(), Vec::new());
    let (confidence, correct): (Vec<f64>, Vec<bool>) = votes
        .iter()
        .zip(labels)
        .map(|(v, &label)| {
            let (prediction, count) = mode(v, &mut tally, &mut scratch);
            (count as f64 / v.len() as f64, prediction == label)
        })
        .unzip();
    expected_calibration_error(&confidence, &correct, bins)
}

/// LAM's 1-NN votes: for each of S sampled embedding sets, every item's nearest other item in
/// that same set (itself excluded) votes with its label.
///
/// Fast twin of [`exact::closed_set_votes`](crate::metrics::exact::closed_set_votes). The
/// result feeds [`closed_set_ece`].
///
/// # Formula
///
/// votes_q = (y_{nn_s(q)})_{s=1…S}, nn_s(q) = argmin_{j ≠ q} d(z_q^{(s)}, z_j^{(s)}) with ties
/// to the smaller index (LAM `ece.py`: `compute_knn`).
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) without samples or with fewer than 2 labels (items);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if a sample set's size or
/// dimension disagrees with `labels` or the first set; [`Error::OutOfDomain`](crate::Error::OutOfDomain) for a zero row
/// under cosine; [`Error::OutOfDomainElement`](crate::Error::OutOfDomainElement) for a negative
/// label, naming its index (labels may be of any integer type, [`IntoLabels`](crate::IntoLabels)).
///
/// # Examples
///
/// ```
/// use probdml::metrics::{closed_set_votes, Distance, Embeddings};
/// let s1 = [0.0, 0.1, 5.0];
/// let s2 = [0.0, 5.1, 5.0];
/// let samples = [Embeddings::new(&s1, 1)?, Embeddings::new(&s2, 1)?];
/// let votes = closed_set_votes(&samples, &[7, 7, 8], Distance::Euclidean)?;
/// assert_eq!(votes[0], vec![7, 8]);
/// assert_eq!(votes[2], vec![7, 7]);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn closed_set_votes<'l, L: IntoLabels<'l>>(
    samples: &[Embeddings<'_>],
    labels: L,
    distance: Distance,
) -> Result<Vec<Vec<usize>>> {
    let labels = check_samples(samples, labels.into_labels())?;
    let labels = &*labels;
    let mut votes = vec![Vec::with_capacity(samples.len()); labels.len()];
    for &sample in samples {
        let task = Retrieval::leave_one_out(sample, labels, distance)?;
        let nn = nearest_neighbours(&task, 1)?;
        for (q, v) in votes.iter_mut().enumerate() {
            v.push(labels[nn.indices(q)[0]]);
        }
    }
    Ok(votes)
}

/// BTL's ECE@k: queries in equal-count bins by uncertainty, each bin's mAP@k against the bin's
/// confidence.
///
/// Fast twin of [`exact::ece_at_k`](crate::metrics::exact::ece_at_k).
///
/// # Formula
///
/// Sort the n queries by increasing uncertainty (ties: smaller index first); rank r gets the
/// percentile confidence c_r = 1 − (r + ½)/n. Bin b (b = 0 … B − 1) holds the ranks
/// ⌊bn/B⌋ ≤ r < ⌊(b+1)n/B⌋; ECE@k = Σ_b (n_b/n) |mAP@k(B_b) − conf(B_b)| with conf(B_b) the
/// mean c_r of the bin (= 1 − (b + ½)/B when B divides n). BTL eq. (14) and §5: "the weighted
/// distance between mAP@k and the M-th percentiles of the variance", M = 10. BTL's code is not
/// public in a form we could check; this is book chapter 08's reading.
/// `average_precision` holds AP@k per query, e.g. from
/// [`per_query_at_k`](crate::metrics::per_query_at_k).
///
/// # Errors
///
/// [`Error::TooFew`](crate::Error::TooFew) if empty;
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the lengths differ;
/// [`Error::CountOutOfRange`](crate::Error::CountOutOfRange) unless 1 ≤ bins ≤ n;
/// [`Error::OutOfDomain`](crate::Error::OutOfDomain) for AP outside [0, 1];
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN or ±∞.
///
/// # Examples
///
/// ```
/// use probdml::metrics::ece_at_k;
/// // Two bins of two: confident queries (0.1, 0.2) have AP 1, uncertain ones AP 0.
/// let c = ece_at_k(&[0.1, 0.8, 0.2, 0.9], &[1.0, 0.0, 1.0, 0.0], 2)?;
/// assert_eq!(c.bins[0].confidence, 0.75);
/// assert_eq!(c.bins[1].confidence, 0.25);
/// assert_eq!(c.ece, 0.25);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn ece_at_k<S: Score>(
    uncertainty: &[S],
    average_precision: &[f64],
    bins: usize,
) -> Result<Calibration> {
    check_ece_at_k(uncertainty, average_precision, bins)?;
    let n = uncertainty.len();
    let order = ascending_order(uncertainty);
    Ok(summarise(
        n,
        (0..bins).map(|b| {
            let (lo, hi) = (b * n / bins, (b + 1) * n / bins);
            let accuracy_sum: f64 = order[lo..hi].iter().map(|&q| average_precision[q]).sum();
            // Mean of 1 − (r + ½)/n over lo ≤ r < hi, times the count.
            let confidence_sum = (hi - lo) as f64 * (1.0 - (lo + hi) as f64 / (2 * n) as f64);
            (hi - lo, accuracy_sum, confidence_sum)
        }),
    ))
}

/// Indices sorted by increasing value, ties by increasing index (−0 and +0 equal).
pub(crate) fn ascending_order<S: Score>(values: &[S]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        values[a]
            .partial_cmp(&values[b])
            .expect("finite")
            .then(a.cmp(&b))
    });
    order
}
