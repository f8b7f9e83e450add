//! Checkpoints: a folder of files committed as one step by a manifest written last.
//!
//! A checkpoint folder holds the files [`layout`] lists (configuration, weights, optimiser
//! state, the method's posterior, progress) and `manifest.json`, which names each with its size
//! and FNV-1a hash; an ensemble keeps one such folder per member. [`commit`] writes and verifies
//! them; [`member`] is what the epoch loop saves and `--resume` and `eval` load, [`progress`]
//! its `state.json`; [`run_config`] reads a run's configuration back. The names ([`layout`]) and
//! the progress ([`progress`]) need no libtorch; the rest is feature "tch".
//!
//! **Why a manifest, and in this order.** A checkpoint is several files; writing them one after
//! the other, a kill between two writes would leave weights of epoch k+1 beside the state of
//! epoch k, and a resume would silently train epoch k+1 again on them. [`commit::save`] therefore writes
//! every file under a temporary name (`<file>.next`, flushed to disk), then the manifest naming
//! them (`manifest.json`, through a temporary file and a rename: the commit point), then renames
//! each `.next` file into place. A crash before the commit leaves the previous checkpoint and
//! its manifest intact; a crash after it leaves `.next` files that [`commit::verify`] renames into place
//! (roll-forward). [`commit::verify`] checks every file against the manifest and refuses a checkpoint
//! that matches neither, naming the file. Nothing here knows any training method: the
//! posterior of those that keep one ([`crate::method::Method::posterior`]) is named
//! tensors in a file of its own.

#[cfg(feature = "tch")]
pub mod commit;
pub mod layout;
#[cfg(feature = "tch")]
pub mod member;
pub mod progress;
#[cfg(feature = "tch")]
pub mod run_config;

#[cfg(feature = "tch")]
pub use commit::{
    find_tensor, fnv1a64, load_model, read_tensors, save, verify, Content, FileEntry, Manifest,
};
pub use layout::{CONFIG, MANIFEST, MODEL, OPTIMISER, POSTERIOR, STATE};
pub use progress::{AtBound, EpochLog, TrainingState};
#[cfg(feature = "tch")]
pub use run_config::read_config;
