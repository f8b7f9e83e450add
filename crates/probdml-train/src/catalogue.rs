//! The table of training methods: one row per method, and the only place that lists them.
//!
//! A row gives the method's command-line name, its row of LAM Table 2 (if the paper has one),
//! its reference batch size, whether it starts from a deterministic checkpoint, whether it keeps
//! a Laplace posterior of the last layer, how the result tables label it, and (feature "tch")
//! its constructor. The [`MethodKind`] enum that `config.json` and `--method` name is generated
//! from the same rows, so **a new method is one file under `train/method/` plus one row here**;
//! the pipeline, the tables and the checkpoints read everything else from the row.

use crate::config::{approximation_name, split_name, TrainConfig};
use crate::report::PaperMethod;
use serde::{Deserialize, Serialize};

#[cfg(feature = "tch")]
use crate::method::{self, Method};
#[cfg(feature = "tch")]
use crate::TrainResult;

/// Whether a method starts from a deterministic checkpoint (`--init-checkpoint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmStart {
    /// It trains from its own initialisation only.
    Never,
    /// It may start its backbone and μ head from one (the BTL paper starts from pretrained
    /// weights).
    Optional,
    /// It freezes one: without `--init-checkpoint` the pipeline trains that deterministic model
    /// first, into `<out>/deterministic`.
    Required,
}

/// Whether, and how, a method keeps a Laplace posterior of the last layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posterior {
    /// No posterior.
    None,
    /// Updated during training (online LAM).
    Online,
    /// One Hessian pass after deterministic training: `probdml reproduce` derives it from the
    /// deterministic run of the same seed instead of training again.
    Posthoc,
}

/// Builds a freshly initialised method from a (single-model) configuration, device and seed.
#[cfg(feature = "tch")]
pub type Constructor = fn(&TrainConfig, tch::Device, u64) -> TrainResult<Box<dyn Method>>;

/// One row of [`METHODS`].
#[derive(Debug, Clone, Copy)]
pub struct MethodRow {
    /// The method.
    pub kind: MethodKind,
    /// Its command-line and `config.json` spelling.
    pub name: &'static str,
    /// Its row of LAM Table 2 (None: the paper has no number on that benchmark).
    pub paper_row: Option<PaperMethod>,
    /// Images per step when `--batch` is not given (chapter 09: 64 for online LAM, 256 for the
    /// others).
    pub batch: usize,
    /// Whether it starts from a deterministic checkpoint.
    pub warm_start: WarmStart,
    /// Whether it keeps a Laplace posterior.
    pub posterior: Posterior,
    /// The label of its row in the result tables.
    pub label: fn(&TrainConfig) -> String,
    /// Its constructor.
    #[cfg(feature = "tch")]
    pub build: Constructor,
}

/// Generates [`MethodKind`] and [`METHODS`] from one list, so that the enum and the table
/// cannot disagree: each row's `name` is also the variant's serde and clap name.
macro_rules! methods {
    ($( $(#[doc = $doc:literal])* $variant:ident {
        name: $name:literal,
        paper_row: $paper:expr,
        batch: $batch:expr,
        warm_start: $warm:expr,
        posterior: $posterior:expr,
        label: $label:expr,
        build: $build:expr $(,)?
    } ),* $(,)?) => {
        /// The training methods of chapter 09, in the order of the result tables.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
        pub enum MethodKind {
            $(
                $(#[doc = $doc])*
                #[serde(rename = $name)]
                #[cfg_attr(feature = "tch", value(name = $name))]
                $variant,
            )*
        }

        /// Every method, one row each (see the module documentation).
        pub const METHODS: &[MethodRow] = &[$(
            MethodRow {
                kind: MethodKind::$variant,
                name: $name,
                paper_row: $paper,
                batch: $batch,
                warm_start: $warm,
                posterior: $posterior,
                label: $label,
                #[cfg(feature = "tch")]
                build: $build,
            },
        )*];
    };
}

methods! {
    /// Contrastive loss (form L), no uncertainty.
    Deterministic {
        name: "deterministic",
        paper_row: Some(PaperMethod::Deterministic),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
        label: |c| c.method.name().to_string(),
        build: |c, d, s| Ok(Box::new(method::deterministic::Deterministic::new(c, d, s))),
    },
    /// Dropout p in the backbone, kept on at test time.
    McDropout {
        name: "mc-dropout",
        paper_row: Some(PaperMethod::McDropout),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
        label: |c| c.method.name().to_string(),
        build: |c, d, s| Ok(Box::new(method::mc_dropout::McDropout::new(c, d, s))),
    },
    /// Deterministic training, then the last-layer diagonal GGN over the training set.
    LamPosthoc {
        name: "lam-posthoc",
        paper_row: Some(PaperMethod::LamPosthoc),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::Posthoc,
        label: laplace_label,
        build: |c, d, s| Ok(Box::new(method::lam_posthoc::LamPosthoc::new(c, d, s))),
    },
    /// Chapter 04's Monte Carlo EM over the last layer during training.
    LamOnline {
        name: "lam-online",
        paper_row: Some(PaperMethod::LamOnline),
        batch: 64,
        warm_start: WarmStart::Never,
        posterior: Posterior::Online,
        label: laplace_label,
        build: |c, d, s| Ok(Box::new(method::lam_online::LamOnline::new(c, d, s))),
    },
    /// Independently seeded members of `member_method` (deterministic by default).
    Ensemble {
        name: "ensemble",
        paper_row: Some(PaperMethod::Ensemble),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
        label: |c| format!("ensemble of {} {}", c.ensemble.size, c.ensemble.member_method.name()),
        // An ensemble wraps its member method: each member is built from that method's row.
        build: |c, d, s| method::build(&c.member_config(), d, s),
    },
    /// Hedged instance embeddings (chapter 07): μ and σ² heads, K samples, the VIB loss.
    Hib {
        name: "hib",
        paper_row: Some(PaperMethod::Hib),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
        label: |c| match c.hib.components {
            1 => c.method.name().to_string(),
            k => format!("hib (MoG, C = {k})"),
        },
        build: |c, d, s| Ok(Box::new(method::hib::Hib::new(c, d, s)?)),
    },
    /// Probabilistic ProxyNCA++ (chapter 06): nivMF proxies and the EL-nivMF distance.
    ProxyNca {
        name: "proxy-nca",
        // The nivMF paper has no number on this benchmark.
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
        label: |c| {
            if c.proxy.omega > 0.0 {
                format!("proxy-nca (PANC + {}, ω = {})", c.proxy.distance.name(), c.proxy.omega)
            } else {
                format!("proxy-nca ({})", c.proxy.distance.name())
            }
        },
        build: |c, d, s| Ok(Box::new(method::proxy_nca::ProxyNca::new(c, d, s)?)),
    },
    /// Bayesian triplet loss, Gaussian embeddings, prior N(0, I/D) (chapter 05).
    BtlGaussian {
        name: "btl-gaussian",
        // The BTL paper reports CUB, Cars and MSLS, not this benchmark.
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Optional,
        posterior: Posterior::None,
        label: |c| c.method.name().to_string(),
        build: |c, d, s| Ok(Box::new(method::btl::gaussian::BtlGaussian::new(c, d, s))),
    },
    /// Bayesian triplet loss, vMF embeddings, uniform prior on the sphere (chapter 05).
    BtlVmf {
        name: "btl-vmf",
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Optional,
        posterior: Posterior::None,
        label: |c| c.method.name().to_string(),
        build: |c, d, s| Ok(Box::new(method::btl::vmf::BtlVmf::new(c, d, s))),
    },
    /// Probabilistic face embeddings: a frozen deterministic model and a σ² head trained by
    /// the mutual likelihood score.
    Pfe {
        name: "pfe",
        paper_row: Some(PaperMethod::Pfe),
        batch: 256,
        warm_start: WarmStart::Required,
        posterior: Posterior::None,
        label: |c| c.method.name().to_string(),
        build: |c, d, s| Ok(Box::new(method::pfe::Pfe::new(c, d, s))),
    },
}

/// The label of a LAM row: the method, its GGN split and PSD approximation.
fn laplace_label(c: &TrainConfig) -> String {
    format!(
        "{} ({}, {})",
        c.method.name(),
        split_name(c.laplace.split),
        approximation_name(c.laplace.approximation)
    )
}

impl MethodKind {
    /// Every method, in the order of the table.
    pub fn all() -> impl Iterator<Item = MethodKind> {
        METHODS.iter().map(|r| r.kind)
    }

    /// The method's row of [`METHODS`].
    pub fn row(self) -> &'static MethodRow {
        METHODS
            .iter()
            .find(|r| r.kind == self)
            .expect("the macro gives every variant a row")
    }

    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Whether the method keeps a Laplace posterior of the last layer.
    pub fn is_laplace(self) -> bool {
        self.row().posterior != Posterior::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_named_as_serde_names_it() {
        for row in METHODS {
            let json = serde_json::to_string(&row.kind).unwrap();
            assert_eq!(json, format!("\"{}\"", row.name));
            let back: MethodKind = serde_json::from_str(&json).unwrap();
            assert_eq!(back, row.kind);
        }
    }

    #[test]
    fn names_are_distinct() {
        for (i, a) in METHODS.iter().enumerate() {
            for b in &METHODS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.kind, b.kind);
            }
        }
    }
}
