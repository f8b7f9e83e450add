//! The flags of `probdml train` (`clap::Args`, feature "tch"): `--method`, the groups every run
//! has, then every method's own flags in the order of the method table ([`MethodFlags`]). Each
//! flag's default is its group's or its method's (`DEFAULT`, written once); the flags whose
//! default depends on the method or the protocol (`--batch`, `--eval-samples`,
//! `--prior-precision`) are the program's.

use super::groups::{DataOptions, LaplaceOptions, ModelOptions, OptimiserOptions, PairOptions};
use super::TrainConfig;
use crate::catalogue::{warm_start_rule, MethodConfig, MethodKind, METHODS};
use crate::error::{TrainError, TrainResult};
use crate::method::ensemble::Member;
use crate::protocol::Protocol;

/// `probdml train`'s flags for the configuration: every method's, whatever `--method` says.
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct TrainFlags {
    /// The method.
    #[arg(long, value_enum, default_value_t = TrainConfig::DEFAULT.method.kind())]
    pub method: MethodKind,
    /// The Laplace posterior.
    #[command(flatten)]
    pub laplace: LaplaceOptions,
    /// The data.
    #[command(flatten)]
    pub data: DataOptions,
    /// Training protocol.
    #[arg(long, value_enum, default_value_t = TrainConfig::DEFAULT.protocol)]
    pub protocol: Protocol,
    /// The network.
    #[command(flatten)]
    pub model: ModelOptions,
    /// The optimiser and its schedule.
    #[command(flatten)]
    pub optimiser: OptimiserOptions,
    /// The pairs of the contrastive losses and of the Hessian.
    #[command(flatten)]
    pub pairs: PairOptions,
    /// Seed of every random draw (weights init, batches, weight samples).
    #[arg(long, default_value_t = TrainConfig::DEFAULT.seed)]
    pub seed: u64,
    /// Every method's own flags.
    #[command(flatten)]
    pub methods: MethodFlags,
}

impl TrainFlags {
    /// The configuration the flags give: the chosen method with its options, the groups, and
    /// every option with no flag at its default. A flag of another method is not kept (nothing
    /// would read it), but its value must still obey its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the flag: a method's option that breaks its rule, or
    /// `--init-checkpoint` for a method that starts from none.
    pub fn config(&self) -> TrainResult<TrainConfig> {
        // Each single method's options are checked whatever --method says, as a bad value is
        // refused even where it is not read; an ensemble's own (its size, its member method)
        // mean something only when it is the method.
        for options in self.methods.methods.iter().filter(|m| !m.is_ensemble()) {
            options.validate()?;
        }
        let method = self.methods.options(self.method);
        let given = self
            .methods
            .methods
            .iter()
            .find_map(|m| m.warm_start()?.init_checkpoint.as_ref());
        if let (Some(dir), None) = (given, method.model().warm_start()) {
            return Err(TrainError::config(
                "init-checkpoint",
                dir.display(),
                warm_start_rule(),
            ));
        }
        Ok(TrainConfig {
            method,
            protocol: self.protocol,
            seed: self.seed,
            data: self.data.clone(),
            model: self.model.clone(),
            optimiser: self.optimiser.clone(),
            pairs: self.pairs.clone(),
            laplace: self.laplace.clone(),
            ..TrainConfig::DEFAULT
        })
    }
}

/// Every method's flags, as `probdml train` parses them whatever `--method` says (each method
/// reads its own; the configuration keeps the chosen method's), and the options each method's
/// flags give it.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodFlags {
    /// Every method with its options from the flags, in the order of the table.
    pub methods: Vec<MethodConfig>,
}

impl MethodFlags {
    /// The method `kind` with its options from the flags.
    pub fn options(&self, kind: MethodKind) -> MethodConfig {
        self.methods
            .iter()
            .find(|m| m.kind() == kind)
            .cloned()
            .unwrap_or_else(|| kind.defaults())
    }
}

impl clap::Args for MethodFlags {
    /// Each method's flags in the order of the table; a flag several methods share (the two
    /// BTL methods' options, `--init-checkpoint`) is added once.
    fn augment_args(cmd: clap::Command) -> clap::Command {
        METHODS.iter().fold(cmd, |cmd, row| {
            // The row's flags alone, without display order (the command numbers them as it
            // adds them).
            let own = (row.flags)(clap::Command::new(row.name).next_display_order(None));
            own.get_arguments().fold(cmd, |cmd, arg| {
                if cmd.get_arguments().any(|a| a.get_id() == arg.get_id()) {
                    cmd
                } else {
                    cmd.arg(arg.clone())
                }
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for MethodFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let methods = METHODS
            .iter()
            .map(|row| (row.from_flags)(matches))
            .collect::<Result<_, _>>()?;
        Ok(MethodFlags { methods })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DatasetChoice, ValidConfig, WarmStartOptions};
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

    /// `probdml train`'s flags as the program flattens them.
    #[derive(clap::Parser)]
    struct Flags {
        #[command(flatten)]
        config: TrainFlags,
    }

    fn parse_flags(flags: &[&str]) -> TrainFlags {
        use clap::Parser;
        Flags::try_parse_from(std::iter::once("probdml").chain(flags.iter().copied()))
            .unwrap()
            .config
    }

    #[test]
    fn the_flags_default_to_the_configuration_defaults() {
        assert_eq!(parse_flags(&[]).config().unwrap(), TrainConfig::DEFAULT);
        // And every method's flags to that method's defaults.
        let flags = parse_flags(&[]);
        for row in METHODS {
            assert_eq!(
                flags.methods.options(row.kind),
                row.kind.defaults(),
                "{}",
                row.name
            );
        }
    }

    const EVERY_FLAG: [&str; 36] = [
        "--method=ensemble",
        "--member-method=hib",
        "--ensemble-size=3",
        "--split=euclidean",
        "--approximation=full",
        "--tempering=0.5",
        "--dataset=synthetic",
        "--train-limit=70",
        "--n-digit-gap=number",
        "--test-limit=30",
        "--protocol=reference",
        "--latent-dim=8",
        "--conv-init=pytorch",
        "--backbone=hib",
        "--epochs=2",
        "--lr=0.25",
        "--optimiser=adam",
        "--batch-sampler=two-streams",
        "--margin=0.5",
        "--max-pairs=77",
        "--loss-mining=triplets",
        "--seed=9",
        "--train-samples=4",
        "--dropout=0.2",
        "--dropout-layout=channels",
        "--hib-components=2",
        "--hib-samples=3",
        "--hib-pairs=all",
        "--vib-beta=0.125",
        "--hib-means=euclidean",
        "--hib-variance-cap=soft",
        "--proxy-distance=cos",
        "--proxy-temperature=0.5",
        "--proxy-samples=6",
        "--proxy-omega=0.75",
        "--btl-negatives=hardest",
    ];

    #[test]
    fn every_flag_sets_its_own_field() {
        let mut every = EVERY_FLAG.to_vec();
        every.push("--init-checkpoint=runs/det");
        let flags = parse_flags(&every);
        let hib = HibOptions {
            components: 2,
            samples: 3,
            beta: 0.125,
            means: crate::method::hib::HibMeans::Euclidean,
            point: false,
            pairs: crate::method::hib::HibPairs::All,
            variance_cap: crate::method::hib::VarianceCap::Soft,
        };
        let btl = BtlOptions {
            negatives: Negatives::Hardest,
            warm_start: WarmStartOptions {
                init_checkpoint: Some("runs/det".into()),
            },
        };
        for row in METHODS {
            let expected = match row.kind {
                MethodKind::McDropout => MethodConfig::McDropout(McDropoutOptions {
                    dropout: 0.2,
                    dropout_layout: crate::dropout::DropoutLayout::Channels,
                }),
                MethodKind::LamOnline => MethodConfig::LamOnline(LamOnlineOptions {
                    train_samples: 4,
                    ..LamOnlineOptions::DEFAULT
                }),
                MethodKind::Ensemble => MethodConfig::Ensemble(EnsembleOptions {
                    size: 3,
                    member: Box::new(MethodConfig::Hib(hib.clone())),
                }),
                MethodKind::Hib => MethodConfig::Hib(hib.clone()),
                MethodKind::ProxyNca => MethodConfig::ProxyNca(ProxyOptions {
                    distance: ProxyDistanceChoice::Cos,
                    temperature: Some(0.5),
                    samples: 6,
                    omega: 0.75,
                }),
                MethodKind::BtlGaussian => {
                    MethodConfig::BtlGaussian(BtlGaussianOptions { btl: btl.clone() })
                }
                MethodKind::BtlVmf => MethodConfig::BtlVmf(BtlVmfOptions { btl: btl.clone() }),
                MethodKind::Pfe => MethodConfig::Pfe(PfeOptions {
                    warm_start: btl.warm_start.clone(),
                }),
                // A method without flags of its own (deterministic, post-hoc LAM).
                _ => row.kind.defaults(),
            };
            assert_eq!(flags.methods.options(row.kind), expected, "{}", row.name);
        }
        // The configuration keeps the chosen method's: an ensemble of HIB models.
        let d = TrainConfig::DEFAULT;
        let expected = TrainConfig {
            method: MethodConfig::Ensemble(EnsembleOptions {
                size: 3,
                member: Box::new(MethodConfig::Hib(hib)),
            }),
            laplace: LaplaceOptions {
                split: Split::Euclidean,
                approximation: Approximation::Full,
                tempering: 0.5,
                ..d.laplace
            },
            data: DataOptions {
                dataset: DatasetChoice::Synthetic,
                train_limit: Some(70),
                test_limit: Some(30),
                n_digit_gap: crate::n_digit_gap::NDigitGap::Number,
            },
            protocol: Protocol::Reference,
            model: ModelOptions {
                latent_dim: 8,
                conv_init: crate::conv_init::ConvInit::Pytorch,
                backbone: crate::backbone_layout::BackboneLayout::Hib,
            },
            optimiser: OptimiserOptions {
                epochs: 2,
                learning_rate: 0.25,
                algorithm: crate::optimiser_algorithm::OptimiserAlgorithm::Adam,
                batch_sampler: crate::batch_sampler::BatchSampler::TwoStreams,
                ..d.optimiser
            },
            pairs: PairOptions {
                margin: 0.5,
                max_pairs: 77,
                loss_mining: crate::mining::LossMining::Triplets,
            },
            seed: 9,
            ..d
        };
        assert_eq!(parse_flags(&EVERY_FLAG).config().unwrap(), expected);
    }

    /// `--hib-point` (a switch; one component, which `--hib-components=2` of the flags above
    /// would contradict) sets its own field.
    #[test]
    fn the_point_switch_sets_its_own_field() {
        let MethodConfig::Hib(hib) = parse_flags(&["--method=hib", "--hib-point"])
            .config()
            .unwrap()
            .method
        else {
            panic!("--method=hib");
        };
        assert_eq!(
            hib,
            HibOptions {
                point: true,
                ..HibOptions::DEFAULT
            }
        );
    }

    /// HIB starts from no checkpoint: `--init-checkpoint` with an ensemble of HIB models is
    /// refused, naming the flag and the methods that read it.
    #[test]
    fn a_warm_start_for_a_method_that_takes_none_is_refused() {
        let mut every = EVERY_FLAG.to_vec();
        every.push("--init-checkpoint=runs/det");
        let err = parse_flags(&every).config().unwrap_err().to_string();
        assert!(
            err.contains("invalid `init-checkpoint` = runs/det")
                && err.contains("only --method btl-gaussian, btl-vmf, pfe start from"),
            "{err}"
        );
    }

    /// The number gap splits N-digit MNIST's numbers: on another dataset it is refused, naming
    /// the flag and the datasets that take it.
    #[test]
    fn a_number_gap_outside_n_digit_mnist_is_refused() {
        let config = parse_flags(&["--dataset=fashion-mnist", "--n-digit-gap=number"])
            .config()
            .unwrap();
        let err = ValidConfig::new(config).unwrap_err().to_string();
        assert!(
            err.contains("invalid `n-digit-gap` = number")
                && err.contains(
                    "N-digit MNIST only (n-digit-mnist-2, n-digit-mnist-3), not fashion-mnist"
                ),
            "{err}"
        );
        for flags in [
            ["--dataset=fashion-mnist", "--n-digit-gap=instance"],
            ["--dataset=n-digit-mnist-2", "--n-digit-gap=number"],
        ] {
            ValidConfig::new(parse_flags(&flags).config().unwrap()).unwrap();
        }
    }

    #[test]
    fn an_option_the_method_does_not_read_is_not_kept() {
        let config = parse_flags(&[
            "--method=deterministic",
            "--dropout=0.5",
            "--train-samples=7",
        ])
        .config()
        .unwrap();
        assert_eq!(
            config,
            TrainConfig {
                method: MethodKind::Deterministic.into(),
                ..TrainConfig::DEFAULT
            }
        );
    }

    /// A flag of another method must still obey its rule; an ensemble's own flags mean
    /// something only for an ensemble.
    #[test]
    fn a_bad_value_of_any_single_method_is_refused() {
        let err = parse_flags(&["--method=deterministic", "--hib-samples=0"])
            .config()
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid `hib-samples` = 0"), "{err}");
        parse_flags(&[
            "--method=hib",
            "--ensemble-size=1",
            "--member-method=ensemble",
        ])
        .config()
        .unwrap();
    }
}
