//! The data behind the figures of an evaluation: what [`write_plots`](crate::plots)
//! draws, kept separately from the summary numbers so that it can be saved and redrawn.

/// LAM's sparsification curve and its oracle (chapter 08; from
/// [`sparsification_curve`](probdml::metrics::sparsification_curve)).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct SparsificationPoints {
    /// Fraction of ID queries removed, most uncertain first: 0, 1/100, …, 99/100.
    pub fraction_removed: Vec<f64>,
    /// 1-NN accuracy of the queries left.
    pub curve: Vec<f64>,
    /// The same removing the wrong queries first (the oracle).
    pub oracle: Vec<f64>,
}

/// ROC curve of the OOD detector `1/κ̂` (OOD positive; from
/// [`roc_curve`](probdml::metrics::roc_curve)).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct RocPoints {
    /// False-positive rate (ID flagged), from 0 to 1.
    pub false_positive_rate: Vec<f64>,
    /// True-positive rate (OOD flagged), from 0 to 1.
    pub true_positive_rate: Vec<f64>,
}

/// One equal-width confidence bin of LAM's closed-set calibration (reliability diagram).
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct CalibrationPoint {
    /// Lower edge of the bin (`b/10`); the bin spans `[b/10, (b+1)/10)`, the last one closed.
    pub lower: f64,
    /// Upper edge of the bin.
    pub upper: f64,
    /// Mean confidence (share of the `S` votes agreeing with their mode) of the bin; 0 if
    /// empty.
    pub confidence: f64,
    /// Share of correct mode predictions in the bin; 0 if empty.
    pub accuracy: f64,
    /// Queries in the bin.
    pub count: usize,
}

/// Everything the plots need. A field is `None` where the corresponding metric is (no
/// uncertainty with `S = 1`; no ROC without an OOD set).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Default)]
pub struct Curves {
    /// Sparsification curve with its oracle.
    pub sparsification: Option<SparsificationPoints>,
    /// ROC curve of the OOD detector.
    pub roc: Option<RocPoints>,
    /// Calibration bins (10, equal width).
    pub calibration: Option<Vec<CalibrationPoint>>,
    /// Per-input uncertainty `1/κ̂` of the ID set.
    pub id_uncertainty: Option<Vec<f64>>,
    /// Per-input uncertainty `1/κ̂` of the OOD set.
    pub ood_uncertainty: Option<Vec<f64>>,
}

/// Most points of a curve in a run's `curves.json` ([`CurvesFile`]).
pub const MAX_CURVE_POINTS: usize = 256;

/// The positions `0 ≤ i < n` a curve of `n` points keeps in a run file: all of them when
/// `n ≤ max`, otherwise the `max` points at evenly spaced ranks, `round(k (n − 1) / (max − 1))`
/// for `k = 0, …, max − 1`, so always the first and the last (the ROC's (0, 0) and (1, 1)).
///
/// Why ranks and not, say, evenly spaced false-positive rates: a curve's points are already
/// ordered along it, so evenly spaced ranks need no knowledge of the axes, keep every bend that
/// spans more than `(n − 1)/(max − 1)` points, and give the same subset for the same curve on
/// every machine (integer arithmetic, no floating-point ties). Between two kept points of a ROC
/// of `n_id` ID and `n_ood` OOD scores without ties, the dropped part moves each rate by at most
/// `⌈(n − 1)/(max − 1)⌉` steps of `1/n_id` or `1/n_ood`.
///
/// `max < 2` keeps the first and last points all the same (a curve needs both ends).
pub fn evenly_spaced_ranks(n: usize, max: usize) -> Vec<usize> {
    let max = max.max(2);
    if n <= max {
        return (0..n).collect();
    }
    // round(k (n − 1) / (max − 1)) in integers: (2 k (n − 1) + (max − 1)) / (2 (max − 1)).
    let (span, steps) = ((n - 1) as u128, (max - 1) as u128);
    (0..max as u128)
        .map(|k| ((2 * k * span + steps) / (2 * steps)) as usize)
        .collect()
}

/// `values` at `ranks`.
fn pick(values: &[f64], ranks: &[usize]) -> Vec<f64> {
    ranks.iter().map(|&i| values[i]).collect()
}

/// A run's `curves.json` ([`crate::checkpoint::layout::CURVES`], written beside
/// `metrics.json`): what the chapter's figures draw (`probdml figures`), each curve thinned to at
/// most [`MAX_CURVE_POINTS`] points by [`evenly_spaced_ranks`]. The per-input uncertainties
/// are left out (they are the size of the test sets); a field is `null` where the run has no
/// such curve, as in [`Curves`].
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct CurvesFile {
    /// The ROC of the uncertainty as OOD detector (OOD positive), thinned.
    pub roc: Option<RocPoints>,
    /// Vertices of the whole ROC before thinning.
    pub roc_vertices: Option<usize>,
    /// The reliability diagram's bins, all of them (10, equal width).
    pub calibration: Option<Vec<CalibrationPoint>>,
    /// The sparsification curve and its oracle, thinned at the same ranks.
    pub sparsification: Option<SparsificationPoints>,
    /// Points of the whole sparsification curve before thinning.
    pub sparsification_points: Option<usize>,
}

impl CurvesFile {
    /// The run file of `curves`: each curve thinned by [`evenly_spaced_ranks`] to
    /// [`MAX_CURVE_POINTS`].
    pub fn from_curves(curves: &Curves) -> Self {
        let roc = curves.roc.as_ref().map(|r| {
            let ranks = evenly_spaced_ranks(r.false_positive_rate.len(), MAX_CURVE_POINTS);
            RocPoints {
                false_positive_rate: pick(&r.false_positive_rate, &ranks),
                true_positive_rate: pick(&r.true_positive_rate, &ranks),
            }
        });
        let sparsification = curves.sparsification.as_ref().map(|s| {
            let ranks = evenly_spaced_ranks(s.fraction_removed.len(), MAX_CURVE_POINTS);
            SparsificationPoints {
                fraction_removed: pick(&s.fraction_removed, &ranks),
                curve: pick(&s.curve, &ranks),
                oracle: pick(&s.oracle, &ranks),
            }
        });
        Self {
            roc,
            roc_vertices: curves.roc.as_ref().map(|r| r.false_positive_rate.len()),
            calibration: curves.calibration.clone(),
            sparsification,
            sparsification_points: curves
                .sparsification
                .as_ref()
                .map(|s| s.fraction_removed.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_curves_are_kept_whole() {
        assert_eq!(evenly_spaced_ranks(0, 256), Vec::<usize>::new());
        assert_eq!(evenly_spaced_ranks(3, 256), vec![0, 1, 2]);
        assert_eq!(evenly_spaced_ranks(256, 256), (0..256).collect::<Vec<_>>());
    }

    #[test]
    fn long_curves_keep_evenly_spaced_ranks_and_both_ends() {
        // 511 points to 256: every second one, 0, 2, …, 510.
        let even: Vec<usize> = (0..256).map(|k| 2 * k).collect();
        assert_eq!(evenly_spaced_ranks(511, 256), even);
        // 11 points to 4: k·10/3 = 0, 3.33, 6.67, 10, rounded.
        assert_eq!(evenly_spaced_ranks(11, 4), vec![0, 3, 7, 10]);
        // 10 points to 4: k·9/3 = 0, 3, 6, 9 exactly.
        assert_eq!(evenly_spaced_ranks(10, 4), vec![0, 3, 6, 9]);
        // Half-way rounds up: 6 points to 3 is 0, 2.5, 5.
        assert_eq!(evenly_spaced_ranks(6, 3), vec![0, 3, 5]);
        // Fewer than two wanted still keeps both ends.
        assert_eq!(evenly_spaced_ranks(5, 1), vec![0, 4]);
        let many = evenly_spaced_ranks(20_001, MAX_CURVE_POINTS);
        assert_eq!(many.len(), MAX_CURVE_POINTS);
        assert_eq!((many[0], many[MAX_CURVE_POINTS - 1]), (0, 20_000));
        assert!(many.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_run_file_thins_the_roc_and_keeps_its_ends() {
        // A staircase ROC of 1001 vertices from (0, 0) to (1, 1).
        let n: usize = 1001;
        let fpr: Vec<f64> = (0..n).map(|i| (i / 2) as f64 / 500.0).collect();
        let tpr: Vec<f64> = (0..n).map(|i| i.div_ceil(2) as f64 / 500.0).collect();
        let curves = Curves {
            roc: Some(RocPoints {
                false_positive_rate: fpr,
                true_positive_rate: tpr,
            }),
            ..Curves::default()
        };
        let file = CurvesFile::from_curves(&curves);
        let roc = file.roc.unwrap();
        assert_eq!(file.roc_vertices, Some(1001));
        assert_eq!(roc.false_positive_rate.len(), MAX_CURVE_POINTS);
        assert_eq!(roc.false_positive_rate[0], 0.0);
        assert_eq!(roc.true_positive_rate[0], 0.0);
        assert_eq!(roc.false_positive_rate[MAX_CURVE_POINTS - 1], 1.0);
        assert_eq!(roc.true_positive_rate[MAX_CURVE_POINTS - 1], 1.0);
        // Rank k·1000/255 rounded: k = 1 is vertex 4, at (2/500, 2/500).
        assert_eq!(roc.false_positive_rate[1], 2.0 / 500.0);
        assert_eq!(roc.true_positive_rate[1], 2.0 / 500.0);
        assert!(file.sparsification.is_none() && file.sparsification_points.is_none());
        assert!(file.calibration.is_none());
    }
}
