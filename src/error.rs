//! The crate's single error type.
//!
//! Checked entry points return [`Result`]; the raw `f64` kernels (`log_bessel_i`,
//! `bessel_i_ratio`, `log_norm_const`, …) return NaN on invalid input, as `f64::ln` does, and say
//! so in their docs.

/// Everything that can go wrong in `probdml`: every variant names the offending argument and
/// the rule it broke, so that a message reads on its own.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A real argument is NaN or ±∞.
    #[error("argument `{arg}` must be finite, got {value}")]
    NotFinite {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        value: f64,
    },
    /// A real argument lies outside its domain.
    #[error("argument `{arg}` = {value} is out of its domain: {rule}")]
    OutOfDomain {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        value: f64,
        /// The rule it broke, e.g. "must satisfy 0 <= rbar < 1".
        rule: &'static str,
    },
    /// The sphere dimension is too small.
    #[error("argument `{arg}` = {dim} is not a valid dimension: {rule}")]
    InvalidDimension {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        dim: usize,
        /// The rule, e.g. "the sphere S^{M-1} needs M >= 2".
        rule: &'static str,
    },
    /// Two vectors that must have the same length do not.
    #[error("dimension mismatch: `{arg}` has length {got}, expected {expected}")]
    DimensionMismatch {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The length that was expected.
        expected: usize,
        /// The length that was received.
        got: usize,
    },
    /// A vector that must lie on the unit sphere does not.
    #[error("argument `{arg}` must be a unit vector (|‖v‖ − 1| ≤ {tolerance:e}), got norm {norm}")]
    NotUnitVector {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// Its Euclidean norm.
        norm: f64,
        /// The accepted deviation from 1.
        tolerance: f64,
    },
    /// A collection that needs at least some elements has too few.
    #[error("argument `{arg}` needs at least {min} element(s), got {got}")]
    TooFew {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The minimum count.
        min: usize,
        /// The count received.
        got: usize,
    },
    /// An iterative method did not converge (never expected on the documented domain).
    #[error("{method} did not converge after {iterations} iterations")]
    NoConvergence {
        /// Which method.
        method: &'static str,
        /// How many iterations it ran.
        iterations: usize,
    },
}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// Checks that `value` is finite, naming `arg` in the error.
pub(crate) fn require_finite(arg: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::NotFinite { arg, value })
    }
}

/// Checks that `value` is finite and `>= 0`.
pub(crate) fn require_nonnegative(arg: &'static str, value: f64) -> Result<f64> {
    require_finite(arg, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(Error::OutOfDomain {
            arg,
            value,
            rule: "must be >= 0",
        })
    }
}

/// Checks that a sphere dimension `M` satisfies `M >= 2`.
pub(crate) fn require_sphere_dim(arg: &'static str, dim: usize) -> Result<usize> {
    if dim >= 2 {
        Ok(dim)
    } else {
        Err(Error::InvalidDimension {
            arg,
            dim,
            rule: "the sphere S^{M-1} needs M >= 2",
        })
    }
}
