//! The run file of HIB's experiment, `hib_tasks.json`: what one trained model scored on both
//! test twins, with the scale it was trained at and the time and machine it took.

use crate::backbone_layout::BackboneLayout;
use crate::catalogue::MethodConfig;
use crate::checkpoint::TrainingState;
use crate::config::OptimiserOptions;
use crate::error::{TrainError, TrainResult};
use crate::method::hib::{HibMeans, HibOptions, HibPairs};
use crate::n_digit_gap::NDigitGap;
use serde::{Deserialize, Serialize};

use super::galleries::KnnGalleries;
use super::tasks::TwinMetrics;

/// The run file's name inside a run folder.
pub const HIB_TASKS: &str = "hib_tasks.json";

/// One run of HIB's experiment (`hib_tasks.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HibRunRecord {
    /// "point", "MoG-1" or "MoG-2" ([`paper_method`]).
    pub method: String,
    /// Digits per image N.
    pub digits: usize,
    /// Embedding dimension D.
    pub latent_dim: usize,
    /// The run's seed (initialisation, batches, draws; the images are the same for every seed).
    pub seed: u64,
    /// Training images.
    pub train_images: usize,
    /// Test images of each twin.
    pub test_images: usize,
    /// Training epochs.
    pub epochs: usize,
    /// The optimiser's learning rate. Records written before it was kept lack it, and
    /// [`read_record`] takes it from the run folder's `config.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    /// The learning rate's factor per epoch (1: constant). Records written before it was kept
    /// lack it, and [`read_record`] takes it from the run folder's `config.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lr_decay: Option<f64>,
    /// The mean training loss of each epoch. Records written before it was kept lack it, and
    /// [`read_record`] takes it from the run folder's `state.json` where the folder has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epoch_losses: Vec<f64>,
    /// Verification pairs (half matching).
    pub pairs: usize,
    /// Monte Carlo samples per component and image of p(m | x₁, x₂) and η (HIB eq. 4, 9).
    pub samples: usize,
    /// The clean test twin.
    pub clean: TwinMetrics,
    /// The corrupt test twin (every digit occluded).
    pub corrupt: TwinMetrics,
    /// Under the number gap (`--n-digit-gap number`, HIB Table 3), the twins of the numbers
    /// the training set lacks, [clean, corrupt]: verification AP of their own pairs and K-NN
    /// accuracy of each image against the other images of its twin (leave one out, as no
    /// training image shows these numbers). `clean` and `corrupt` are then the seen numbers'.
    /// None under the instance gap and in records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseen: Option<[TwinMetrics; 2]>,
    /// K-NN accuracy against other galleries than Table 1's ([`super::galleries`]). Records
    /// written before it was kept lack it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knn_galleries: Option<KnnGalleries>,
    /// Seconds spent training (the sum of the epochs).
    pub train_seconds: f64,
    /// Seconds spent on these tasks' evaluation.
    pub evaluation_seconds: f64,
    /// The device (`Cpu`, `Cuda(0)`).
    pub device: String,
    /// The CPU's model name (`lscpu`'s "Model name", from /proc/cpuinfo).
    pub cpu: String,
}

/// The row name of HIB's tables for a method. The paper's three (Oh et al. 2019, §4.2) are HIB's
/// loss in ℝ^D: "point" (`--hib-point`, the soft contrastive loss), "MoG-C" (C components).
/// The variants that differ from them say how, in brackets: "sphere" for means on the unit
/// sphere, "point (margin)" for the deterministic method (the contrastive loss with a margin, on
/// the sphere), "all pairs" for the loss over every pair of a batch (`--hib-pairs all`), "HIB
/// net" for the HIB paper's own backbone layout (`--backbone hib`, §4.1) instead of the
/// reference layout every other table of the book trains, "Adam" for Adam instead of RMSprop
/// (`--optimiser adam`; the paper names no optimiser), "two streams" for batches half of which
/// are another image of a class already in them (`--batch-sampler two-streams`, HIB §2.3),
/// "number gap" for training on 70 % of the numbers (`--n-digit-gap number`, HIB Table 3),
/// "β = 0" for another weight of the VIB term than the default 10⁻⁴ (`--vib-beta`), "K = 1" for
/// other samples per component than the paper's 8 (`--hib-samples`), "soft cap" for ln σ² held
/// below its cap by a softplus instead of a clamp (`--hib-variance-cap soft`).
/// Only the names without a variant get the paper's numbers beside them, so that a table
/// compares the paper with one setting at a time.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `method` for a method the paper's tables do not compare.
pub fn paper_method(
    method: &MethodConfig,
    backbone: BackboneLayout,
    optimiser: &OptimiserOptions,
    gap: NDigitGap,
) -> TrainResult<String> {
    let (name, mut variants) = match method {
        MethodConfig::Deterministic(_) => ("point".to_string(), vec!["margin".to_string()]),
        MethodConfig::Hib(o) => {
            let name = if o.point {
                "point".to_string()
            } else {
                format!("MoG-{}", o.components)
            };
            let mut variants = match o.means {
                HibMeans::Euclidean => vec![],
                HibMeans::Sphere => vec!["sphere".to_string()],
            };
            if o.pairs == HibPairs::All {
                variants.push("all pairs".to_string());
            }
            // β and K matter only where there is a σ (the point embeddings ignore both).
            if !o.point && o.beta != HibOptions::DEFAULT.beta {
                variants.push(format!("β = {}", o.beta));
            }
            if !o.point && o.samples != HibOptions::DEFAULT.samples {
                variants.push(format!("K = {}", o.samples));
            }
            if !o.variance_cap.is_clamp() {
                variants.push("soft cap".to_string());
            }
            (name, variants)
        }
        other => {
            return Err(TrainError::config(
                "method",
                other.name(),
                "HIB's experiment compares point embeddings (deterministic) and HIB",
            ))
        }
    };
    if backbone == BackboneLayout::Hib {
        variants.push("HIB net".to_string());
    }
    if !optimiser.algorithm.is_rmsprop() {
        variants.push(optimiser.algorithm.display_name().to_string());
    }
    variants.extend(optimiser.batch_sampler.display_name().map(str::to_string));
    variants.extend(gap.display_name().map(str::to_string));
    Ok(if variants.is_empty() {
        name
    } else {
        format!("{name} ({})", variants.join(", "))
    })
}

/// The CPU's model name as `lscpu` prints it ("Model name"), read from `/proc/cpuinfo`; "unknown"
/// where that file or line is missing (not Linux).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The record of the run folder `dir` (`dir/hib_tasks.json`), its method's row name
/// ([`paper_method`]) from `dir/config.json` when the folder has one, its learning rate and decay
/// from there and its epochs' losses from `dir/state.json` (when present) when the record does
/// not hold them.
///
/// # Errors
///
/// [`TrainError::Io`] or [`TrainError::Json`] naming the file when it is missing or not a
/// record; those of [`crate::config::TrainConfig::read_json`] for a record without a learning
/// rate or decay whose folder holds no readable configuration.
pub fn read_record(dir: &std::path::Path) -> TrainResult<HibRunRecord> {
    let mut record: HibRunRecord = crate::json::read_json(&dir.join(HIB_TASKS))?;
    let config_file = dir.join("config.json");
    if config_file.exists() || record.learning_rate.is_none() || record.lr_decay.is_none() {
        let config = crate::config::TrainConfig::read_json(&config_file)?;
        // The row's name from the configuration, not the one the run wrote: a binary older
        // than a variant's name (β, K) wrote the default's, and a table must not average
        // runs of different settings into one row.
        record.method = paper_method(
            &config.method,
            config.model.backbone,
            &config.optimiser,
            config.data.n_digit_gap,
        )?;
        record.learning_rate = record
            .learning_rate
            .or(Some(config.optimiser.learning_rate));
        record.lr_decay = record.lr_decay.or(Some(config.optimiser.lr_decay));
    }
    let state = dir.join(crate::checkpoint::layout::STATE);
    if record.epoch_losses.is_empty() && state.exists() {
        let state: TrainingState = crate::json::read_json(&state)?;
        record.epoch_losses = state.history.iter().map(|e| e.mean_loss).collect();
    }
    Ok(record)
}

/// The optimiser steps of the run folder `dir`, summed over the epochs of its `state.json` (a
/// resumed run's file holds every epoch since the first): the x-axis of the figure of HIB's
/// accuracy against training steps, whose paper trained 500 000
/// ([`super::paper::TRAINING_STEPS`]).
///
/// # Errors
///
/// [`TrainError::Io`] or [`TrainError::Json`] naming `state.json` when it is missing or not a
/// run's progress; [`TrainError::InvalidConfig`] naming `run` when it logs no step, or other
/// epochs than the record's `epochs` (`hib_tasks.json` and `state.json` of different runs).
pub fn training_steps(dir: &std::path::Path, record: &HibRunRecord) -> TrainResult<usize> {
    let state: TrainingState = crate::json::read_json(&dir.join(crate::checkpoint::layout::STATE))?;
    let steps: usize = state.history.iter().map(|e| e.steps).sum();
    if steps == 0 || state.history.len() != record.epochs {
        return Err(TrainError::config(
            "run",
            format!(
                "{}: {} epochs and {steps} steps in state.json, {} epochs in {HIB_TASKS}",
                dir.display(),
                state.history.len(),
                record.epochs
            ),
            "a run folder whose state.json logs the epochs of its hib_tasks.json, at least one step",
        ));
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::hib::HibOptions;
    use crate::optimiser_algorithm::OptimiserAlgorithm;

    /// The rows are named by the paper's methods, and a variant says how it differs: the means'
    /// space and the backbone's layout, each on its own and together.
    #[test]
    fn the_rows_name_the_method_and_its_variants() {
        let hib = |point, components, means| {
            MethodConfig::Hib(HibOptions {
                point,
                components,
                means,
                ..HibOptions::DEFAULT
            })
        };
        let all_pairs = MethodConfig::Hib(HibOptions {
            point: true,
            means: HibMeans::Euclidean,
            pairs: HibPairs::All,
            ..HibOptions::DEFAULT
        });
        let rmsprop = &OptimiserOptions::DEFAULT;
        let adam = &OptimiserOptions {
            algorithm: OptimiserAlgorithm::Adam,
            ..OptimiserOptions::DEFAULT
        };
        let two_streams = &OptimiserOptions {
            batch_sampler: crate::batch_sampler::BatchSampler::TwoStreams,
            ..OptimiserOptions::DEFAULT
        };
        assert_eq!(
            paper_method(
                &all_pairs,
                BackboneLayout::Hib,
                two_streams,
                NDigitGap::Instance
            )
            .unwrap(),
            "point (all pairs, HIB net, two streams)"
        );
        assert_eq!(
            paper_method(
                &all_pairs,
                BackboneLayout::Hib,
                rmsprop,
                NDigitGap::Instance
            )
            .unwrap(),
            "point (all pairs, HIB net)"
        );
        assert_eq!(
            paper_method(&all_pairs, BackboneLayout::Hib, adam, NDigitGap::Instance).unwrap(),
            "point (all pairs, HIB net, Adam)"
        );
        assert_eq!(
            paper_method(
                &hib(false, 1, HibMeans::Euclidean),
                BackboneLayout::Reference,
                adam,
                NDigitGap::Instance
            )
            .unwrap(),
            "MoG-1 (Adam)"
        );
        assert_eq!(
            paper_method(
                &all_pairs,
                BackboneLayout::Hib,
                two_streams,
                NDigitGap::Number
            )
            .unwrap(),
            "point (all pairs, HIB net, two streams, number gap)"
        );
        let (euclidean, sphere) = (HibMeans::Euclidean, HibMeans::Sphere);
        let (reference, paper_net) = (BackboneLayout::Reference, BackboneLayout::Hib);
        let cases = [
            (true, 1, euclidean, reference, "point"),
            (false, 2, euclidean, reference, "MoG-2"),
            (false, 1, sphere, reference, "MoG-1 (sphere)"),
            (true, 1, euclidean, paper_net, "point (HIB net)"),
            (false, 1, sphere, paper_net, "MoG-1 (sphere, HIB net)"),
        ];
        for (point, components, means, layout, want) in cases {
            let got = paper_method(
                &hib(point, components, means),
                layout,
                rmsprop,
                NDigitGap::Instance,
            )
            .unwrap();
            assert_eq!(got, want);
        }
        // The VIB weight and the samples name themselves away from their defaults, for the
        // methods with a σ only.
        let vib = |point, beta, samples| {
            MethodConfig::Hib(HibOptions {
                point,
                beta,
                samples,
                means: HibMeans::Euclidean,
                pairs: HibPairs::All,
                ..HibOptions::DEFAULT
            })
        };
        for (method, want) in [
            (
                vib(false, 0.0, 8),
                "MoG-1 (all pairs, β = 0, HIB net, number gap)",
            ),
            (
                vib(false, 1e-3, 1),
                "MoG-1 (all pairs, β = 0.001, K = 1, HIB net, number gap)",
            ),
            (
                vib(false, 1e-4, 8),
                "MoG-1 (all pairs, HIB net, number gap)",
            ),
            (vib(true, 0.0, 1), "point (all pairs, HIB net, number gap)"),
            (
                MethodConfig::Hib(HibOptions {
                    variance_cap: crate::method::hib::VarianceCap::Soft,
                    ..HibOptions::DEFAULT
                }),
                "MoG-1 (sphere, soft cap, HIB net, number gap)",
            ),
        ] {
            let got = paper_method(&method, paper_net, rmsprop, NDigitGap::Number).unwrap();
            assert_eq!(got, want);
        }
        let deterministic = MethodConfig::Deterministic(
            crate::method::deterministic::DeterministicOptions::DEFAULT,
        );
        for (layout, want) in [
            (reference, "point (margin)"),
            (paper_net, "point (margin, HIB net)"),
        ] {
            assert_eq!(
                paper_method(&deterministic, layout, rmsprop, NDigitGap::Instance).unwrap(),
                want
            );
        }
    }

    /// A run folder's row name comes from its `config.json`, so a record written by a binary
    /// that did not yet name a variant (here β = 0) does not join the default's row.
    #[test]
    fn a_record_is_named_by_its_configuration() {
        let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../../docs/runs/2026-12-02-hib-images-per-number/\
             mog1-all-pairs-hib-net-number-gap-n2-d2-seed0",
        );
        let dir = std::env::temp_dir().join(format!("probdml-record-name-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(run.join(HIB_TASKS), dir.join(HIB_TASKS)).unwrap();
        let default_name = "MoG-1 (all pairs, HIB net, number gap)";
        let mut config: serde_json::Value =
            crate::json::read_json(&run.join("config.json")).unwrap();
        for (beta, want) in [
            (1e-4, default_name),
            (0.0, "MoG-1 (all pairs, β = 0, HIB net, number gap)"),
        ] {
            config["hib"]["beta"] = serde_json::json!(beta);
            std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
            let record = read_record(&dir).unwrap();
            assert_eq!(record.method, want);
        }
        let written: HibRunRecord = crate::json::read_json(&dir.join(HIB_TASKS)).unwrap();
        assert_eq!(written.method, default_name);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
