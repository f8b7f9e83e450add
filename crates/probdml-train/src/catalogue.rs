//! The table of training methods: one row per method, and the only place that lists them.
//!
//! A row names the method and its options type — the method's file under `method/`, which says
//! everything else of it through [`MethodOptions`]: its command-line and `config.json`
//! spelling, its defaults and rules, its result-table label, its flags and its constructor —
//! and gives its row of LAM Table 2 (if the paper has one), its reference batch size, whether it
//! starts from a deterministic checkpoint and whether it keeps a Laplace posterior.
//! [`MethodKind`] (what `--method` names) and [`MethodConfig`] (a method with its options, what
//! a run's configuration holds) are generated from the same rows, so **a new method is one file
//! under `method/` (and its `pub mod` line there) plus one row here**; the pipeline, the tables,
//! the checkpoints and the command line read everything else from the row.

use crate::config::{RunOptions, WarmStart, WarmStartOptions};
use crate::error::TrainResult;
use crate::method::deterministic::DeterministicOptions;
use crate::method::ensemble::{EnsembleOptions, Member};
use crate::method::options::{from_section, MethodOptions, Tagged};
use crate::report::PaperMethod;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

#[cfg(feature = "tch")]
use crate::method::Method;

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

/// One row of [`METHODS`].
#[derive(Debug, Clone, Copy)]
pub struct MethodRow {
    /// The method.
    pub kind: MethodKind,
    /// Its command-line and `config.json` spelling ([`MethodOptions::NAME`]).
    pub name: &'static str,
    /// What it is, in one line (`--help` lists it beside the name).
    pub summary: &'static str,
    /// Its row of LAM Table 2 (None: the paper has no number on that benchmark).
    pub paper_row: Option<PaperMethod>,
    /// Images per step when `--batch` is not given (chapter 09: 64 for online LAM, 256 for the
    /// others).
    pub batch: usize,
    /// Whether it starts from a deterministic checkpoint.
    pub warm_start: WarmStart,
    /// Whether it keeps a Laplace posterior.
    pub posterior: Posterior,
    /// Adds the method's flags to `probdml train` ([`clap::Args::augment_args`] of its options).
    #[cfg(feature = "tch")]
    pub flags: fn(clap::Command) -> clap::Command,
    /// The method with its options read from the parsed flags.
    #[cfg(feature = "tch")]
    pub from_flags: fn(&clap::ArgMatches) -> Result<MethodConfig, clap::Error>,
}

/// Generates [`MethodKind`], [`MethodConfig`] and [`METHODS`] from one list of rows, so that
/// they cannot disagree: each row's options type gives the variant its name, its options and
/// everything a method does.
macro_rules! methods {
    ($( $variant:ident($options:ty) {
        summary: $summary:literal,
        paper_row: $paper:expr,
        batch: $batch:expr,
        warm_start: $warm:expr,
        posterior: $posterior:expr $(,)?
    } ),* $(,)?) => {
        /// The training methods of chapter 09, in the order of the result tables.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum MethodKind {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        /// A method with its options: what a run's configuration holds of its method, and
        /// (serialised) the method's section of `config.json`, `"method"` first.
        #[derive(Debug, Clone, PartialEq)]
        pub enum MethodConfig {
            $(
                #[doc = $summary]
                $variant($options),
            )*
        }

        /// Every method, one row each (see the module documentation).
        pub const METHODS: &[MethodRow] = &[$(
            MethodRow {
                kind: MethodKind::$variant,
                name: <$options as MethodOptions>::NAME,
                summary: $summary,
                paper_row: $paper,
                batch: $batch,
                warm_start: $warm,
                posterior: $posterior,
                #[cfg(feature = "tch")]
                flags: <$options as clap::Args>::augment_args,
                #[cfg(feature = "tch")]
                from_flags: |matches| {
                    <$options as clap::FromArgMatches>::from_arg_matches(matches)
                        .map(MethodConfig::$variant)
                },
            },
        )*];

        /// Every method's spelling, in the order of the table.
        const NAMES: &[&str] = &[$(<$options as MethodOptions>::NAME),*];

        /// Every method, in the order of the table.
        const KINDS: &[MethodKind] = &[$(MethodKind::$variant),*];

        impl MethodKind {
            /// The method with its default options.
            pub fn defaults(self) -> MethodConfig {
                match self {
                    $(MethodKind::$variant => {
                        MethodConfig::$variant(<$options as MethodOptions>::defaults())
                    })*
                }
            }

            /// The method named `name` with its options read from the method's section of
            /// `config.json` (less its `"method"`).
            fn options_from_section(self, section: Map<String, Value>) -> serde_json::Result<MethodConfig> {
                match self {
                    $(MethodKind::$variant => {
                        from_section::<$options>(section).map(MethodConfig::$variant)
                    })*
                }
            }

            /// The method with its options read from the flat fields of a version-1 or -2
            /// `config.json` ([`MethodOptions::from_flat`]).
            fn options_from_flat(self, flat: &Map<String, Value>) -> serde_json::Result<MethodConfig> {
                match self {
                    $(MethodKind::$variant => {
                        <$options as MethodOptions>::from_flat(flat).map(MethodConfig::$variant)
                    })*
                }
            }
        }

        impl MethodConfig {
            /// The method.
            pub fn kind(&self) -> MethodKind {
                match self {
                    $(MethodConfig::$variant(_) => MethodKind::$variant,)*
                }
            }

            /// Checks each of the method's options against its rule
            /// ([`MethodOptions::validate`]).
            ///
            /// # Errors
            ///
            /// [`TrainError::InvalidConfig`](crate::TrainError::InvalidConfig) naming the flag
            /// and the rule.
            pub fn validate(&self) -> TrainResult<()> {
                match self {
                    $(MethodConfig::$variant(o) => o.validate(),)*
                }
            }

            /// How the result tables label a run of the method ([`MethodOptions::label`]).
            pub fn label(&self, run: &RunOptions) -> String {
                match self {
                    $(MethodConfig::$variant(o) => o.label(run),)*
                }
            }

            /// The deterministic checkpoint it starts from, for a method that may start from
            /// one ([`MethodOptions::warm_start`]).
            pub fn warm_start(&self) -> Option<&WarmStartOptions> {
                match self {
                    $(MethodConfig::$variant(o) => o.warm_start(),)*
                }
            }

            /// The same, to set.
            pub fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
                match self {
                    $(MethodConfig::$variant(o) => o.warm_start_mut(),)*
                }
            }

            /// The options as the flat fields of a version-2 `config.json`
            /// ([`MethodOptions::to_flat`]).
            pub fn to_flat(&self) -> Map<String, Value> {
                match self {
                    $(MethodConfig::$variant(o) => o.to_flat(),)*
                }
            }

            /// The method, freshly initialised ([`MethodOptions::build`]).
            ///
            /// # Errors
            ///
            /// Options the method refuses.
            #[cfg(feature = "tch")]
            pub fn build(
                &self,
                run: &RunOptions,
                device: tch::Device,
                seed: u64,
            ) -> TrainResult<Box<dyn Method>> {
                match self {
                    $(MethodConfig::$variant(o) => o.build(run, device, seed),)*
                }
            }
        }

        impl Serialize for MethodConfig {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $(MethodConfig::$variant(o) => Tagged(o).serialize(s),)*
                }
            }
        }
    };
}

methods! {
    Deterministic(crate::method::deterministic::DeterministicOptions) {
        summary: "Contrastive loss (form L), no uncertainty",
        paper_row: Some(PaperMethod::Deterministic),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
    },
    McDropout(crate::method::mc_dropout::McDropoutOptions) {
        summary: "Dropout p in the backbone, kept on at test time",
        paper_row: Some(PaperMethod::McDropout),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
    },
    LamPosthoc(crate::method::lam_posthoc::LamPosthocOptions) {
        summary: "Deterministic training, then the last-layer diagonal GGN over the training set",
        paper_row: Some(PaperMethod::LamPosthoc),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::Posthoc,
    },
    LamOnline(crate::method::lam_online::LamOnlineOptions) {
        summary: "Chapter 04's Monte Carlo EM over the last layer during training",
        paper_row: Some(PaperMethod::LamOnline),
        batch: 64,
        warm_start: WarmStart::Never,
        posterior: Posterior::Online,
    },
    Ensemble(EnsembleOptions<MethodConfig>) {
        summary: "Independently seeded members of `member_method` (deterministic by default)",
        paper_row: Some(PaperMethod::Ensemble),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
    },
    Hib(crate::method::hib::HibOptions) {
        summary: "Hedged instance embeddings (chapter 07): μ and σ² heads, K samples, the VIB loss",
        paper_row: Some(PaperMethod::Hib),
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
    },
    ProxyNca(crate::method::proxy_nca::ProxyOptions) {
        summary: "Probabilistic ProxyNCA++ (chapter 06): nivMF proxies and the EL-nivMF distance",
        // The nivMF paper has no number on this benchmark.
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Never,
        posterior: Posterior::None,
    },
    BtlGaussian(crate::method::btl::gaussian::BtlGaussianOptions) {
        summary: "Bayesian triplet loss, Gaussian embeddings, prior N(0, I/D) (chapter 05)",
        // The BTL paper reports CUB, Cars and MSLS, not this benchmark.
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Optional,
        posterior: Posterior::None,
    },
    BtlVmf(crate::method::btl::vmf::BtlVmfOptions) {
        summary: "Bayesian triplet loss, vMF embeddings, uniform prior on the sphere (chapter 05)",
        paper_row: None,
        batch: 256,
        warm_start: WarmStart::Optional,
        posterior: Posterior::None,
    },
    Pfe(crate::method::pfe::PfeOptions) {
        summary: "Probabilistic face embeddings: a frozen deterministic model and a σ² head trained by the mutual likelihood score",
        paper_row: Some(PaperMethod::Pfe),
        batch: 256,
        warm_start: WarmStart::Required,
        posterior: Posterior::None,
    },
}

/// The rule of `--init-checkpoint` (and of `init_checkpoint` in a version-1/2 `config.json`):
/// which methods start from a deterministic checkpoint.
pub(crate) fn warm_start_rule() -> String {
    format!(
        "only --method {} start from a deterministic checkpoint",
        METHODS
            .iter()
            .filter(|r| r.warm_start != WarmStart::Never)
            .map(|r| r.name)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

impl MethodKind {
    /// Every method, in the order of the table.
    pub fn all() -> impl Iterator<Item = MethodKind> {
        KINDS.iter().copied()
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

    /// The method spelled `name`.
    pub fn named(name: &str) -> Option<MethodKind> {
        METHODS.iter().find(|r| r.name == name).map(|r| r.kind)
    }

    /// Whether the method keeps a Laplace posterior of the last layer.
    pub fn is_laplace(self) -> bool {
        self.row().posterior != Posterior::None
    }
}

impl MethodConfig {
    /// The method's row of [`METHODS`].
    pub fn row(&self) -> &'static MethodRow {
        self.kind().row()
    }

    /// The command-line spelling.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The method a single model of the run trains: the member method of an ensemble, the
    /// method itself otherwise.
    pub fn model(&self) -> &MethodConfig {
        match self {
            MethodConfig::Ensemble(e) => &e.member,
            m => m,
        }
    }

    /// Models trained: an ensemble's size, 1 otherwise.
    pub fn members(&self) -> usize {
        match self {
            MethodConfig::Ensemble(e) => e.size,
            _ => 1,
        }
    }
}

impl From<MethodKind> for MethodConfig {
    /// The method with its default options.
    fn from(kind: MethodKind) -> MethodConfig {
        kind.defaults()
    }
}

impl From<DeterministicOptions> for MethodConfig {
    fn from(options: DeterministicOptions) -> MethodConfig {
        MethodConfig::Deterministic(options)
    }
}

impl From<EnsembleOptions<MethodConfig>> for MethodConfig {
    fn from(options: EnsembleOptions<MethodConfig>) -> MethodConfig {
        MethodConfig::Ensemble(options)
    }
}

impl MethodConfig {
    /// The method named `name` (an unknown one refused as serde refuses an unknown variant)
    /// with its options read from the flat fields of a version-1 or -2 `config.json`.
    ///
    /// # Errors
    ///
    /// An unknown name or an option of the wrong type.
    pub fn from_flat(name: &str, flat: &Map<String, Value>) -> serde_json::Result<MethodConfig> {
        let kind = MethodKind::named(name)
            .ok_or_else(|| serde::de::Error::unknown_variant(name, NAMES))?;
        kind.options_from_flat(flat)
    }
}

impl Member for MethodConfig {
    #[cfg(feature = "tch")]
    type Kind = MethodKind;

    fn name(&self) -> &'static str {
        MethodConfig::name(self)
    }

    fn is_ensemble(&self) -> bool {
        matches!(self, MethodConfig::Ensemble(_))
    }

    fn validate(&self) -> TrainResult<()> {
        MethodConfig::validate(self)
    }

    fn warm_start(&self) -> Option<&WarmStartOptions> {
        MethodConfig::warm_start(self)
    }

    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
        MethodConfig::warm_start_mut(self)
    }

    fn from_flat(name: &str, flat: &Map<String, Value>) -> serde_json::Result<Self> {
        MethodConfig::from_flat(name, flat)
    }

    fn to_flat(&self) -> Map<String, Value> {
        MethodConfig::to_flat(self)
    }

    #[cfg(feature = "tch")]
    fn from_flags(kind: &MethodKind, matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        (kind.row().from_flags)(matches)
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn Method>> {
        MethodConfig::build(self, run, device, seed)
    }
}

impl<'de> Deserialize<'de> for MethodConfig {
    /// The method's section: `"method"` names it, the other fields are its options.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut section = Map::<String, Value>::deserialize(d)?;
        let name = match section.remove("method") {
            Some(Value::String(name)) => name,
            Some(other) => {
                return Err(D::Error::invalid_type(
                    serde::de::Unexpected::Other(&other.to_string()),
                    &"a method's name",
                ))
            }
            None => return Err(D::Error::missing_field("method")),
        };
        let kind =
            MethodKind::named(&name).ok_or_else(|| D::Error::unknown_variant(&name, NAMES))?;
        kind.options_from_section(section).map_err(D::Error::custom)
    }
}

impl Serialize for MethodKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for MethodKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        MethodKind::named(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, NAMES))
    }
}

/// `--method`, `--member-method` and `reproduce --methods`: the names of the table, each with
/// its summary.
#[cfg(feature = "tch")]
impl clap::ValueEnum for MethodKind {
    fn value_variants<'a>() -> &'a [Self] {
        KINDS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let row = self.row();
        Some(clap::builder::PossibleValue::new(row.name).help(row.summary))
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

    #[test]
    fn a_method_starts_from_a_checkpoint_exactly_when_its_row_says_so() {
        for row in METHODS {
            let options = row.kind.defaults();
            // The ensemble's warm start is its member's (deterministic by default).
            let own = options.model().kind() == row.kind;
            if own {
                assert_eq!(
                    options.warm_start().is_some(),
                    row.warm_start != WarmStart::Never,
                    "{}",
                    row.name
                );
            }
        }
    }

    #[test]
    fn an_unknown_method_is_refused_naming_the_choices() {
        let e = serde_json::from_str::<MethodKind>("\"foo\"").unwrap_err();
        assert!(
            e.to_string()
                .contains("unknown variant `foo`, expected one of `deterministic`"),
            "{e}"
        );
        let e = serde_json::from_str::<MethodConfig>(r#"{"method": "foo"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant `foo`"), "{e}");
    }
}
