//! How the maths crate's GGN choices are spelled on the command line and in `config.json`:
//! [`Split`] and [`Approximation`] are `probdml`'s types, which has no serde or clap dependency,
//! so their names, parsers and serde adapters are written here once.

use crate::error::{TrainError, TrainResult};
use probdml::ggn::{Approximation, Split};

/// Parses a GGN split name (`euclidean` | `arccos`).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] listing the choices.
pub fn parse_split(s: &str) -> TrainResult<Split> {
    match s {
        "euclidean" => Ok(Split::Euclidean),
        "arccos" => Ok(Split::Arccos),
        _ => Err(TrainError::config("split", s, "one of euclidean, arccos")),
    }
}

/// Parses a PSD approximation name (`positive` | `fixed` | `full`).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] listing the choices.
pub fn parse_approximation(s: &str) -> TrainResult<Approximation> {
    match s {
        "positive" => Ok(Approximation::Positive),
        "fixed" => Ok(Approximation::Fixed),
        "full" => Ok(Approximation::Full),
        _ => Err(TrainError::config(
            "approximation",
            s,
            "one of positive, fixed, full",
        )),
    }
}

/// The command-line spelling of a split.
pub fn split_name(s: Split) -> &'static str {
    match s {
        Split::Euclidean => "euclidean",
        Split::Arccos => "arccos",
    }
}

/// The command-line spelling of an approximation.
pub fn approximation_name(a: Approximation) -> &'static str {
    match a {
        Approximation::Positive => "positive",
        Approximation::Fixed => "fixed",
        Approximation::Full => "full",
    }
}

/// `--split` for clap: `--help` lists the choices, a typo gets "possible values". (The type is
/// the maths crate's, so the parser is built here rather than as a `clap::ValueEnum` impl.)
#[cfg(feature = "tch")]
pub fn split_parser() -> impl clap::builder::TypedValueParser<Value = Split> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new([Split::Euclidean, Split::Arccos].map(split_name))
        .try_map(|s| parse_split(&s))
}

/// `--approximation` for clap.
#[cfg(feature = "tch")]
pub fn approximation_parser() -> impl clap::builder::TypedValueParser<Value = Approximation> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(
        [
            Approximation::Positive,
            Approximation::Fixed,
            Approximation::Full,
        ]
        .map(approximation_name),
    )
    .try_map(|s| parse_approximation(&s))
}

/// Serde for [`Split`] by its command-line name (`#[serde(with = …)]`).
pub(crate) mod split_serde {
    use super::{parse_split, split_name, Split};
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Split, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(split_name(*v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Split, D::Error> {
        let s = String::deserialize(d)?;
        parse_split(&s).map_err(serde::de::Error::custom)
    }
}

/// Serde for [`Approximation`] by its command-line name.
pub(crate) mod approximation_serde {
    use super::{approximation_name, parse_approximation, Approximation};
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &Approximation, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(approximation_name(*v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Approximation, D::Error> {
        let s = String::deserialize(d)?;
        parse_approximation(&s).map_err(serde::de::Error::custom)
    }
}
