//! What a method's file says of it besides its training code: [`MethodOptions`], implemented
//! by the options struct of every method. The method table ([`crate::catalogue`]) names each
//! method's options type once; its spelling, defaults, rules, table label, flags, `config.json`
//! form and constructor all come from here.

use crate::config::{RunOptions, WarmStartOptions};
use crate::error::TrainResult;
use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::fmt::Debug;

#[cfg(feature = "tch")]
use super::training::Method;

/// The flags of a method's options (feature "tch": `probdml train` parses every method's,
/// whatever `--method` says); nothing without the feature.
#[cfg(feature = "tch")]
pub trait Flags: clap::Args + clap::FromArgMatches {}
#[cfg(feature = "tch")]
impl<T: clap::Args + clap::FromArgMatches> Flags for T {}
/// The flags of a method's options (feature "tch"); nothing without the feature.
#[cfg(not(feature = "tch"))]
pub trait Flags {}
#[cfg(not(feature = "tch"))]
impl<T> Flags for T {}

/// A method's options: the struct its file defines, with every option only that method reads.
///
/// Its serde form is the method's section of `config.json` (beside `"method": NAME`, under
/// [`MethodOptions::KEY`] when it has one), its `clap::Args` the method's flags of `probdml
/// train`.
pub trait MethodOptions:
    Sized + Clone + Debug + PartialEq + Serialize + DeserializeOwned + Flags
{
    /// The method's command-line and `config.json` spelling.
    const NAME: &'static str;

    /// The key under which `config.json` nests the options in the method's section (HIB's
    /// under `hib`, ProxyNCA++'s under `proxy`); None: they are the section's own fields.
    const KEY: Option<&'static str> = None;

    /// The options when no flag and no file sets them.
    fn defaults() -> Self;

    /// Checks each option against its rule.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`](crate::TrainError::InvalidConfig) naming the flag and the
    /// rule.
    fn validate(&self) -> TrainResult<()> {
        Ok(())
    }

    /// How the result tables label a run of the method: its name unless it says more.
    fn label(&self, _run: &RunOptions) -> String {
        Self::NAME.to_string()
    }

    /// The deterministic checkpoint it starts from, for a method whose row says it may
    /// ([`WarmStart`](crate::config::WarmStart)); None for the others.
    fn warm_start(&self) -> Option<&WarmStartOptions> {
        None
    }

    /// The same, to set.
    fn warm_start_mut(&mut self) -> Option<&mut WarmStartOptions> {
        None
    }

    /// The options as a version-1 or -2 `config.json` holds them (every method's options flat,
    /// [`crate::config::CONFIG_VERSION`]), read from those flat fields: each option under its
    /// name in the method's section, an option absent from the file at its default.
    ///
    /// # Errors
    ///
    /// An option of the wrong type.
    fn from_flat(flat: &Map<String, Value>) -> serde_json::Result<Self> {
        overlay(&Self::defaults(), flat)
    }

    /// The options as the flat fields of a version-2 `config.json` (`summary.json` records a
    /// run so): the method's section.
    fn to_flat(&self) -> Map<String, Value> {
        section(self)
    }

    /// The method, freshly initialised on `device` with `seed`, reading `run` for what it
    /// shares with the other methods (the network's size, the pairs, the Laplace options, …).
    ///
    /// # Errors
    ///
    /// Options it refuses.
    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn Method>>;
}

/// The method's section of `config.json` as `options` write it, less its `"method"`: their
/// fields by name, or the one field [`MethodOptions::KEY`] holding them.
pub fn section<O: MethodOptions>(options: &O) -> Map<String, Value> {
    let fields = match serde_json::to_value(options) {
        Ok(Value::Object(fields)) => fields,
        // An options struct serialises to an object; anything else has no fields to write.
        _ => Map::new(),
    };
    match O::KEY {
        Some(key) => Map::from_iter([(key.to_string(), Value::Object(fields))]),
        None => fields,
    }
}

/// The options that the method's section `section` (less its `"method"`) holds.
///
/// # Errors
///
/// A missing option or one of the wrong type.
pub fn from_section<O: MethodOptions>(mut section: Map<String, Value>) -> serde_json::Result<O> {
    match O::KEY {
        Some(key) => match section.remove(key) {
            Some(fields) => serde_json::from_value(fields),
            None => Err(serde::de::Error::missing_field(key)),
        },
        None => serde_json::from_value(Value::Object(section)),
    }
}

/// The options `defaults` with every field of their section that `flat` also holds taken from
/// `flat`: a flat `config.json` holds every method's options, of which a method reads its own.
///
/// # Errors
///
/// A field of the wrong type.
pub fn overlay<O: MethodOptions>(defaults: &O, flat: &Map<String, Value>) -> serde_json::Result<O> {
    let mut fields = section(defaults);
    for (name, value) in fields.iter_mut() {
        if let Some(v) = flat.get(name) {
            value.clone_from(v);
        }
    }
    from_section(fields)
}

/// The method's section of `config.json` with its `"method": NAME` first, written field by
/// field in the options' own order (what [`crate::catalogue::MethodConfig`] serialises to).
#[derive(Debug)]
pub struct Tagged<'a, O>(pub &'a O);

impl<O: MethodOptions> Serialize for Tagged<'_, O> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Flat<'a, O> {
            method: &'static str,
            #[serde(flatten)]
            options: &'a O,
        }
        match O::KEY {
            None => Flat {
                method: O::NAME,
                options: self.0,
            }
            .serialize(s),
            Some(key) => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("method", O::NAME)?;
                map.serialize_entry(key, self.0)?;
                map.end()
            }
        }
    }
}
