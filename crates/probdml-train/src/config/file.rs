//! `config.json` as this program writes it (version 3) and reads it (every version): the run's
//! options grouped by concern, and the method's own options in its section.
//!
//! ```json
//! {
//!   "version": 3,
//!   "method": "mc-dropout",
//!   "dropout": 0.05,
//!   "protocol": "ours",
//!   "seed": 0,
//!   "data": { "dataset": "fashion-mnist", "train_limit": null, "test_limit": null },
//!   "model": { "latent_dim": 3 },
//!   "optimiser": { "epochs": 20, "batch_size": 256, "learning_rate": 0.001, "lr_decay": 0.95 },
//!   "pairs": { "margin": 0.7, "max_pairs": 5000 },
//!   "laplace": { "split": "arccos", "approximation": "fixed", "prior_precision": 9216.0, "tempering": 1.0 },
//!   "evaluation": { "eval_samples": 16 }
//! }
//! ```
//!
//! `"method"` names the method, and the fields beside it are its options, as its options struct
//! serialises them ([`MethodConfig`]; an ensemble: its size and the `member` method with that
//! method's options). Options several methods or later stages read stay in their group
//! ([`RunOptions`]): the Laplace options are read by `probdml posthoc` from a deterministic
//! checkpoint too, the pair options by every pair loss. An option a method does not read has no
//! place in its file, nor in the configuration.
//!
//! Versions 1 and 2 hold every option flat ([`super::flat`]), the layout in which
//! `summary.json` still records a run's configuration.

use super::flat::ConfigV2;
use super::json_version::{self, ConfigJson, CONFIG_VERSION};
use super::run::RunOptions;
use super::{MethodConfig, TrainConfig, ValidConfig};
use crate::catalogue::{warm_start_rule, METHODS};
use crate::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::Path;

/// A version-3 `config.json`, less its `version`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ConfigV3 {
    #[serde(flatten)]
    method: MethodConfig,
    #[serde(flatten)]
    run: RunOptions,
}

/// [`ConfigV3`] with [`CONFIG_VERSION`] first.
#[derive(Serialize)]
struct ConfigFileOut<'a> {
    version: u32,
    #[serde(flatten)]
    config: &'a ConfigV3,
}

impl TrainConfig {
    /// Writes the configuration as `config.json` text: [`CONFIG_VERSION`] first, then the
    /// method with its own options, then the groups (book chapter 09, "The run's
    /// configuration").
    ///
    /// # Errors
    ///
    /// Serialisation failures, naming `path`.
    pub fn to_json_text(&self, path: &Path) -> TrainResult<String> {
        let config = ConfigV3 {
            method: self.method.clone(),
            run: self.run_options(),
        };
        crate::json::to_text(
            &ConfigFileOut {
                version: CONFIG_VERSION,
                config: &config,
            },
            path,
        )
    }

    /// Writes the configuration as `config.json` (atomically, [`crate::json`]).
    ///
    /// # Errors
    ///
    /// I/O or serialisation failures, naming the file.
    pub fn write_json(&self, path: &Path) -> TrainResult<()> {
        crate::json::write_atomic(path, self.to_json_text(path)?.as_bytes())
    }

    /// Reads and validates a configuration written by [`TrainConfig::write_json`] or by an
    /// older probdml (see [`CONFIG_VERSION`]).
    ///
    /// # Errors
    ///
    /// A missing or unreadable file, invalid JSON, a version newer than this program's, or a
    /// configuration that fails [`TrainConfig::validate`] (reported as a checkpoint error
    /// naming the file).
    pub fn read_json(path: &Path) -> TrainResult<ValidConfig> {
        let json = |source| TrainError::Json {
            path: path.to_owned(),
            source,
        };
        let config = match json_version::read(path)? {
            ConfigJson::Flat(flat) => TrainConfig::try_from(*flat).map_err(json)?,
            ConfigJson::Grouped(fields) => {
                let v3 = ConfigV3::deserialize(Value::Object(fields)).map_err(json)?;
                TrainConfig::from_parts(v3.method, v3.run)
            }
        };
        ValidConfig::new(config).map_err(|e| TrainError::Checkpoint {
            path: path.to_owned(),
            reason: format!("holds an invalid configuration: {e}"),
        })
    }
}

impl TryFrom<ConfigV2> for TrainConfig {
    type Error = serde_json::Error;

    fn try_from(flat: ConfigV2) -> Result<TrainConfig, serde_json::Error> {
        let method = MethodConfig::from_flat(&flat.method, &flat.methods()?)?;
        // The flat layout holds a warm start for every method; one that takes none refuses it,
        // as `--init-checkpoint` does, rather than dropping it.
        if let (Some(dir), None) = (&flat.init_checkpoint, method.warm_start()) {
            return Err(serde::de::Error::custom(format!(
                "init_checkpoint {}: {}",
                dir.display(),
                warm_start_rule()
            )));
        }
        Ok(TrainConfig::from_parts(method, flat.run_options()))
    }
}

/// The flat layout: every method's options flat, the run's method's own and every other at its
/// default.
impl Serialize for TrainConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut methods = Map::<String, Value>::new();
        for row in METHODS {
            methods.extend(row.kind.defaults().to_flat());
        }
        methods.extend(self.method.to_flat());
        ConfigV2::new(self.method.name(), &self.run_options(), methods)
            .map_err(serde::ser::Error::custom)?
            .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::MethodKind;
    use crate::config::WarmStartOptions;
    use crate::config::{
        DataOptions, DatasetChoice, EvaluationOptions, LaplaceOptions, ModelOptions,
        OptimiserOptions, PairOptions, Protocol,
    };
    use crate::method::btl::gaussian::BtlGaussianOptions;
    use crate::method::btl::vmf::BtlVmfOptions;
    use crate::method::btl::BtlOptions;
    use crate::method::ensemble::EnsembleOptions;
    use crate::method::hib::HibOptions;
    use crate::method::lam_online::LamOnlineOptions;
    use crate::method::mc_dropout::McDropoutOptions;
    use crate::method::pfe::PfeOptions;
    use crate::method::proxy_nca::{ProxyDistanceChoice, ProxyOptions};
    use crate::mining::Negatives;
    use probdml::ggn::{Approximation, Split};

    /// `config.json` as the first probdml wrote it (commit e46cac9): no `version`, none of the
    /// fields added since (member method, protocol, score, HIB, ProxyNCA++, BTL, warm start).
    const FIRST_CONFIG: &str = include_str!("../../../../tests/data/config-v1.json");

    /// A version-2 `config.json` as probdml wrote it (commit 858c373, the ensemble run of
    /// `docs/runs/2026-11-26-synthetic`): every field flat, `version` first.
    const SECOND_CONFIG: &str = include_str!("../../../../tests/data/config-v2.json");

    fn scratch_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("probdml-config-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.json");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_first_version_config_still_loads() {
        let path = scratch_file("v1", FIRST_CONFIG);
        let read = TrainConfig::read_json(&path).unwrap();
        // The file's values are the defaults of the time, which are today's.
        assert_eq!(*read, TrainConfig::DEFAULT);
    }

    #[test]
    fn a_first_version_btl_config_reads_the_hardest_negatives() {
        // The BTL negatives of the time were the hardest: a BTL run of version 1 reads so.
        let btl = FIRST_CONFIG.replacen("\"lam-online\"", "\"btl-gaussian\"", 1);
        let read = TrainConfig::read_json(&scratch_file("v1-btl", &btl)).unwrap();
        assert_eq!(
            read.method,
            MethodConfig::BtlGaussian(BtlGaussianOptions {
                btl: BtlOptions::before_the_option()
            })
        );
    }

    #[test]
    fn a_second_version_config_still_loads() {
        let path = scratch_file("v2", SECOND_CONFIG);
        let read = TrainConfig::read_json(&path).unwrap();
        let expected = TrainConfig {
            method: MethodConfig::Ensemble(EnsembleOptions {
                size: 3,
                member: Box::new(MethodKind::Deterministic.into()),
            }),
            data: DataOptions {
                dataset: DatasetChoice::Synthetic,
                train_limit: Some(384),
                test_limit: Some(100),
                ..DataOptions::DEFAULT
            },
            optimiser: OptimiserOptions {
                epochs: 2,
                ..OptimiserOptions::DEFAULT
            },
            evaluation: EvaluationOptions {
                eval_samples: 8,
                ..EvaluationOptions::DEFAULT
            },
            ..TrainConfig::DEFAULT
        };
        assert_eq!(*read, expected);
    }

    #[test]
    fn a_second_version_warm_start_for_a_method_that_takes_none_is_refused() {
        // Version 2 wrote `init_checkpoint` beside every method; HIB starts from scratch, so a
        // file that names a checkpoint for it is refused with the flag's rule, not dropped.
        let hib = SECOND_CONFIG
            .replacen("\"ensemble\"", "\"hib\"", 1)
            .replacen(
                "\"init_checkpoint\": null",
                "\"init_checkpoint\": \"runs/det\"",
                1,
            );
        let err = TrainConfig::read_json(&scratch_file("v2-hib-warm", &hib))
            .unwrap_err()
            .to_string();
        assert!(err.contains("init_checkpoint runs/det"), "{err}");
        assert!(
            err.contains("start from a deterministic checkpoint"),
            "{err}"
        );
        // The same file without the checkpoint loads.
        let plain = SECOND_CONFIG.replacen("\"ensemble\"", "\"hib\"", 1);
        assert!(TrainConfig::read_json(&scratch_file("v2-hib", &plain)).is_ok());
    }

    /// The flat layout (a configuration's serde form, which `summary.json` records) writes the
    /// version-2 file it read as probdml wrote it, byte for byte, and then the options of the
    /// methods added since (none today).
    #[test]
    fn the_flat_layout_writes_what_version_2_wrote() {
        let read = TrainConfig::read_json(&scratch_file("v2-flat", SECOND_CONFIG)).unwrap();
        let flat = serde_json::to_string_pretty(&read).unwrap() + "\n";
        let version_2 = SECOND_CONFIG.replacen("  \"version\": 2,\n", "", 1);
        let fields = version_2.strip_suffix("\n}\n").unwrap();
        assert!(flat.starts_with(fields), "{flat}");
        let newer = &flat[fields.len()..];
        assert!(newer == "\n}\n" || newer.starts_with(",\n  \""), "{flat}");
    }

    /// The options of `kind`, each away from its default.
    fn unusual(kind: MethodKind) -> MethodConfig {
        let from = || WarmStartOptions {
            init_checkpoint: Some("runs/det".into()),
        };
        match kind.defaults() {
            MethodConfig::McDropout(_) => MethodConfig::McDropout(McDropoutOptions {
                dropout: 0.3,
                dropout_layout: crate::dropout::DropoutLayout::Channels,
            }),
            MethodConfig::LamOnline(_) => MethodConfig::LamOnline(LamOnlineOptions {
                train_samples: 4,
                memory_factor: 0.5,
            }),
            MethodConfig::Hib(_) => MethodConfig::Hib(HibOptions {
                components: 2,
                samples: 3,
                beta: 0.5,
                means: crate::method::hib::HibMeans::Euclidean,
                point: false,
                pairs: crate::method::hib::HibPairs::All,
                variance_cap: crate::method::hib::VarianceCap::Soft,
            }),
            MethodConfig::ProxyNca(_) => MethodConfig::ProxyNca(ProxyOptions {
                distance: ProxyDistanceChoice::Cos,
                temperature: Some(0.125),
                samples: 4,
                omega: 0.5,
            }),
            MethodConfig::BtlGaussian(_) => MethodConfig::BtlGaussian(BtlGaussianOptions {
                btl: BtlOptions {
                    negatives: Negatives::Hardest,
                    warm_start: from(),
                },
            }),
            MethodConfig::BtlVmf(_) => MethodConfig::BtlVmf(BtlVmfOptions {
                btl: BtlOptions {
                    negatives: Negatives::Hardest,
                    warm_start: from(),
                },
            }),
            MethodConfig::Pfe(_) => MethodConfig::Pfe(PfeOptions { warm_start: from() }),
            MethodConfig::Ensemble(_) => MethodConfig::Ensemble(EnsembleOptions {
                size: 4,
                member: Box::new(MethodConfig::Hib(HibOptions {
                    samples: 5,
                    ..HibOptions::DEFAULT
                })),
            }),
            // A method without options of its own (deterministic, post-hoc LAM).
            options => options,
        }
    }

    /// A run of every method, each option away from its default.
    fn unusual_configs() -> Vec<TrainConfig> {
        let base = TrainConfig {
            laplace: LaplaceOptions {
                split: Split::Euclidean,
                approximation: Approximation::Full,
                prior_precision: 1.0 / 3.0,
                tempering: 0.25,
            },
            data: DataOptions {
                dataset: DatasetChoice::NDigitMnist2,
                train_limit: Some(500),
                test_limit: Some(200),
                n_digit_gap: crate::n_digit_gap::NDigitGap::Number,
            },
            model: ModelOptions {
                latent_dim: 16,
                conv_init: crate::conv_init::ConvInit::Pytorch,
                backbone: crate::backbone_layout::BackboneLayout::Hib,
            },
            optimiser: OptimiserOptions {
                epochs: 3,
                batch_size: 32,
                learning_rate: 0.1 + 0.2,
                lr_decay: 0.9,
                algorithm: crate::optimiser_algorithm::OptimiserAlgorithm::Adam,
                batch_sampler: crate::batch_sampler::BatchSampler::TwoStreams,
            },
            pairs: PairOptions {
                margin: 0.5,
                max_pairs: 77,
                loss_mining: crate::mining::LossMining::Triplets,
            },
            evaluation: EvaluationOptions {
                eval_samples: 9,
                score: Some(crate::protocol::Score::OutputVariance),
            },
            protocol: Protocol::Reference,
            seed: u64::MAX,
            ..TrainConfig::DEFAULT
        };
        METHODS
            .iter()
            .map(|row| TrainConfig {
                method: unusual(row.kind),
                ..base.clone()
            })
            .collect()
    }

    #[test]
    fn a_written_config_carries_its_version_and_reads_back() {
        for config in unusual_configs() {
            let path = scratch_file(config.method.name(), "");
            let valid = ValidConfig::new(config.clone()).unwrap();
            assert_eq!(*valid, config, "{}", config.method.name());
            valid.write_json(&path).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.starts_with(&format!(
                    "{{\n  \"version\": {CONFIG_VERSION},\n  \"method\": \"{}\",\n",
                    config.method.name()
                )),
                "{text}"
            );
            assert_eq!(TrainConfig::read_json(&path).unwrap(), valid, "{text}");
        }
    }

    /// Every method's options survive the flat layout too (what `summary.json` records).
    #[test]
    fn a_flat_config_reads_back() {
        for config in unusual_configs() {
            let text = serde_json::to_string(&config).unwrap();
            let back: TrainConfig = serde_json::from_str(&text).unwrap();
            assert_eq!(back, config, "{text}");
        }
    }

    #[test]
    fn a_written_config_is_grouped_by_concern() {
        let config = TrainConfig {
            method: MethodConfig::Ensemble(EnsembleOptions {
                size: 5,
                member: Box::new(MethodConfig::McDropout(McDropoutOptions {
                    dropout: 0.25,
                    ..McDropoutOptions::DEFAULT
                })),
            }),
            ..TrainConfig::DEFAULT
        };
        let text = ValidConfig::new(config)
            .unwrap()
            .to_json_text(Path::new("config.json"))
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["version"], 3);
        assert_eq!(value["method"], "ensemble");
        assert_eq!(value["ensemble_size"], 5);
        assert_eq!(value["member"]["method"], "mc-dropout");
        assert_eq!(value["member"]["dropout"], 0.25);
        assert_eq!(value["data"]["dataset"], "fashion-mnist");
        assert_eq!(value["model"]["latent_dim"], 3);
        assert_eq!(value["optimiser"]["batch_size"], 64);
        assert_eq!(value["pairs"]["margin"], 0.7);
        assert_eq!(value["laplace"]["split"], "arccos");
        assert_eq!(value["evaluation"]["eval_samples"], 16);
        // Options no part of this run reads are not written.
        for absent in [
            "hib",
            "proxy",
            "btl",
            "train_samples",
            "dropout",
            "member_method",
        ] {
            assert!(value.get(absent).is_none(), "{absent} in {text}");
        }
    }

    #[test]
    fn an_ensemble_of_ensembles_in_a_file_is_refused() {
        let text = r#"{"version": 3, "method": "ensemble", "ensemble_size": 2,
            "member": {"method": "ensemble", "ensemble_size": 2, "member": {"method": "deterministic"}},
            "protocol": "ours", "seed": 0,
            "data": {"dataset": "synthetic", "train_limit": null, "test_limit": null},
            "model": {"latent_dim": 3},
            "optimiser": {"epochs": 1, "batch_size": 8, "learning_rate": 0.001, "lr_decay": 0.95},
            "pairs": {"margin": 0.7, "max_pairs": 10},
            "laplace": {"split": "arccos", "approximation": "fixed", "prior_precision": 1.0, "tempering": 1.0},
            "evaluation": {"eval_samples": 16}}"#;
        match TrainConfig::read_json(&scratch_file("nested", text)) {
            Err(TrainError::Checkpoint { reason, .. }) => {
                assert!(reason.contains("not ensembles"), "{reason}")
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
        // So is a flat one, whose member method is spelled `member_method`.
        let flat = SECOND_CONFIG.replacen("\"deterministic\"", "\"ensemble\"", 1);
        match TrainConfig::read_json(&scratch_file("nested-flat", &flat)) {
            Err(TrainError::Checkpoint { reason, .. }) => {
                assert!(reason.contains("not ensembles"), "{reason}")
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
    }

    #[test]
    fn a_config_of_a_newer_program_is_refused_naming_the_file() {
        let newer = FIRST_CONFIG.replacen(
            '{',
            &format!("{{\n  \"version\": {},", CONFIG_VERSION + 1),
            1,
        );
        let path = scratch_file("newer", &newer);
        match TrainConfig::read_json(&path) {
            Err(TrainError::Checkpoint { path: p, reason }) => {
                assert_eq!(p, path);
                assert!(reason.contains("newer probdml"), "{reason}");
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
    }

    /// A method's section of a version-3 file missing one of its options, or naming no known
    /// method, is refused naming what is wrong.
    #[test]
    fn a_method_section_without_its_options_is_refused() {
        let written = TrainConfig {
            method: MethodKind::Hib.into(),
            ..TrainConfig::DEFAULT
        }
        .to_json_text(Path::new("config.json"))
        .unwrap();
        let mut value: serde_json::Value = serde_json::from_str(&written).unwrap();
        value.as_object_mut().unwrap().remove("hib");
        let path = scratch_file("no-hib", &value.to_string());
        match TrainConfig::read_json(&path) {
            Err(TrainError::Json { source, .. }) => {
                assert!(
                    source.to_string().contains("missing field `hib`"),
                    "{source}"
                )
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
        value["method"] = "foo".into();
        let path = scratch_file("foo", &value.to_string());
        match TrainConfig::read_json(&path) {
            Err(TrainError::Json { source, .. }) => {
                assert!(
                    source.to_string().contains("unknown variant `foo`"),
                    "{source}"
                )
            }
            other => panic!("accepted or wrong error: {other:?}"),
        }
    }
}
