//! The largest values a run accepts, and the rules that hold an option to them: every count
//! enters libtorch as an i64 and every real value as an f32, and a run beyond them would not end
//! in any useful time. The groups' rules ([`TrainConfig::validate`](super::TrainConfig::validate))
//! and the methods' own rules use them alike.

use crate::error::{TrainError, TrainResult};

/// Largest latent dimension accepted: the head alone holds D × 9216 weights (D = 4096: 150 MB
/// in f32, more with the optimiser state and Λ).
pub const MAX_LATENT_DIM: usize = 4096;
/// Largest count accepted for batch sizes, pair caps and limits: casts to libtorch's i64 stay
/// exact.
pub const MAX_COUNT: usize = 1 << 31;
/// Largest batch: mining builds several B × B matrices (B = 4096: 67 MB each in f32).
pub const MAX_BATCH: usize = 4096;
/// Largest epoch count, samples per image or ensemble size accepted: beyond it a run would not
/// end in any useful time.
pub const MAX_REPEATS: usize = 100_000;
/// Largest HIB or EL-nivMF sample count per image.
pub const MAX_METHOD_SAMPLES: usize = 1024;

/// Whether `v` stays a normal number in f32, as every real value enters libtorch: a value that
/// rounds to 0 or ±∞ there would turn into a silent NaN several steps later.
pub fn f32_normal(v: f64) -> bool {
    v.abs() <= f64::from(f32::MAX) && v.abs() >= f64::from(f32::MIN_POSITIVE)
}

/// `v` (the option `arg`) is finite, > 0 and a normal f32.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `arg` and the rule.
pub fn positive(arg: &'static str, v: f64) -> TrainResult<()> {
    if v.is_finite() && v > 0.0 && f32_normal(v) {
        Ok(())
    } else {
        Err(TrainError::config(
            arg,
            v,
            "must be finite, > 0 and within f32's normal range [1.2e-38, 3.4e38]",
        ))
    }
}

/// `v` (the option `arg`) lies in (0, 1] and is a normal f32: a decay or memory factor.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `arg` and the rule.
pub fn factor(arg: &'static str, v: f64) -> TrainResult<()> {
    if v > 0.0 && v <= 1.0 && f32_normal(v) {
        Ok(())
    } else {
        Err(TrainError::config(arg, v, "must lie in (0, 1]"))
    }
}

/// `v` (the option `arg`) lies in [`min`, [`MAX_COUNT`]]: a count that libtorch takes as i64.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `arg` and the rule.
pub fn count(arg: &'static str, v: usize, min: usize) -> TrainResult<()> {
    if (min..=MAX_COUNT).contains(&v) {
        Ok(())
    } else {
        Err(TrainError::config(
            arg,
            v,
            format!("must lie in [{min}, {MAX_COUNT}]"),
        ))
    }
}

/// `v` (the option `arg`) lies in [`min`, [`MAX_REPEATS`]]: epochs, samples, members.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `arg` and the rule.
pub fn repeats(arg: &'static str, v: usize, min: usize) -> TrainResult<()> {
    if (min..=MAX_REPEATS).contains(&v) {
        Ok(())
    } else {
        Err(TrainError::config(
            arg,
            v,
            format!("must lie in [{min}, {MAX_REPEATS}]"),
        ))
    }
}
