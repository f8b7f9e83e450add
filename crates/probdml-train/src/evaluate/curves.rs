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
