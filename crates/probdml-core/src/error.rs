//! The crate's single error type.
//!
//! Checked entry points return [`Result`]; the raw `f64` kernels (`log_bessel_i`,
//! `bessel_i_ratio`, `log_norm_const`, …) return NaN on invalid input, as `f64::ln` does, and say
//! so in their docs.

/// Everything that can go wrong in `probdml`: every variant names the offending argument and
/// the rule it broke, so that a message reads on its own.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A real argument is NaN or ±∞.
    NotFinite {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        value: f64,
    },
    /// A real argument lies outside its domain.
    OutOfDomain {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        value: f64,
        /// The rule it broke, e.g. "must satisfy 0 <= rbar < 1".
        rule: &'static str,
    },
    /// The sphere dimension is too small.
    InvalidDimension {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        dim: usize,
        /// The rule, e.g. "the sphere S^{M-1} needs M >= 2".
        rule: &'static str,
    },
    /// Two vectors that must have the same length do not.
    DimensionMismatch {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The length that was expected.
        expected: usize,
        /// The length that was received.
        got: usize,
    },
    /// A vector that must lie on the unit sphere does not.
    NotUnitVector {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// Its Euclidean norm.
        norm: f64,
        /// The accepted deviation from 1.
        tolerance: f64,
    },
    /// A collection that needs at least some elements has too few.
    TooFew {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The minimum count.
        min: usize,
        /// The count received.
        got: usize,
    },
    /// An iterative method did not converge (never expected on the documented domain).
    NoConvergence {
        /// Which method.
        method: &'static str,
        /// How many iterations it ran.
        iterations: usize,
    },
    /// One element of a slice argument is NaN or ±∞ (scores, embeddings, uncertainties).
    NotFiniteElement {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The position of the first offending element.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// A count or cut-off (k, a number of bins) lies outside the range the input allows.
    CountOutOfRange {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The value received.
        value: usize,
        /// The smallest valid value.
        min: usize,
        /// The largest valid value for this input.
        max: usize,
        /// Where the bounds come from, e.g. "k cannot exceed the database a query sees".
        reason: &'static str,
    },
    /// One element of a slice of counts (the cut-offs `ks`) lies outside the range the input
    /// allows: the error keeps the element's position.
    CountOutOfRangeElement {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The position of the first offending element.
        index: usize,
        /// The value received.
        value: usize,
        /// The smallest valid value.
        min: usize,
        /// The largest valid value for this input.
        max: usize,
        /// Where the bounds come from.
        reason: &'static str,
    },
    /// An index inside an argument points outside the collection it refers to.
    IndexOutOfRange {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// Which entry of the argument (flattened position).
        position: usize,
        /// The index found there.
        index: usize,
        /// What the index points into, e.g. "database".
        target: &'static str,
        /// The length of that collection.
        len: usize,
    },
    /// A flat row-major matrix whose length is not a whole number of rows.
    RaggedRows {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The slice length received.
        len: usize,
        /// The row width (embedding dimension).
        dim: usize,
    },
    /// The quantity is undefined on this input (a 0/0: a constant sequence for Kendall's τ-b,
    /// no query with a positive for a retrieval metric).
    Undefined {
        /// The argument whose content makes it undefined.
        arg: &'static str,
        /// What cannot be computed, e.g. "Kendall's tau-b".
        quantity: &'static str,
        /// Why, e.g. "all values are equal (no pair is untied)".
        reason: &'static str,
    },
    /// One row of a row-major matrix of unit vectors is not of unit norm.
    NotUnitRow {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The offending row.
        row: usize,
        /// Its Euclidean norm.
        norm: f64,
        /// The accepted deviation from 1.
        tolerance: f64,
    },
    /// A labelling with fewer distinct classes than the computation needs (contrastive pairs need
    /// two, otherwise there is no negative pair).
    TooFewClasses {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The number of distinct classes received.
        classes: usize,
        /// The minimum.
        min: usize,
    },
    /// A pair listed as positive joins two classes, or one listed as negative joins one class.
    PairKindMismatch {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The position of the pair in the argument.
        position: usize,
        /// First index of the pair.
        i: usize,
        /// Second index of the pair.
        j: usize,
        /// "positive" or "negative".
        expected: &'static str,
    },
    /// A collection has more elements than the implementation supports.
    TooMany {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The largest supported count.
        max: usize,
        /// The count received.
        got: usize,
    },
    /// One element of a slice argument lies outside its domain (a negative variance, a
    /// precision that is not positive): the error keeps the element's position.
    OutOfDomainElement {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The position of the first offending element.
        index: usize,
        /// Its value.
        value: f64,
        /// The rule it broke, e.g. "a variance must be >= 0".
        rule: &'static str,
    },
    /// One row of a row-major matrix lies outside its domain (a zero embedding under cosine
    /// distance): the error keeps the row's position.
    RowOutOfDomain {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// The position of the first offending row.
        row: usize,
        /// What of the row is measured, e.g. "squared norm".
        quantity: &'static str,
        /// Its value.
        value: f64,
        /// The rule it broke.
        rule: &'static str,
    },
    /// A slice argument that needs at least one element is empty.
    Empty {
        /// The argument's name as in the signature.
        arg: &'static str,
        /// Why it needs elements, e.g. "a triplet needs embeddings of dimension D >= 1".
        rule: &'static str,
    },
}

// Written out rather than derived: a derive macro would bring a proc-macro stack (syn and four
// more crates) into the dependency tree of every user of the maths.
impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::NotFinite { arg, value } => write!(f, "argument `{arg}` must be finite, got {value}"),
            Error::OutOfDomain { arg, value, rule } => write!(f, "argument `{arg}` = {value} is out of its domain: {rule}"),
            Error::InvalidDimension { arg, dim, rule } => write!(f, "argument `{arg}` = {dim} is not a valid dimension: {rule}"),
            Error::DimensionMismatch { arg, expected, got } => write!(f, "dimension mismatch: `{arg}` has length {got}, expected {expected}"),
            Error::NotUnitVector { arg, norm, tolerance } => write!(f, "argument `{arg}` must be a unit vector (|‖v‖ − 1| ≤ {tolerance:.3e}), got norm {norm}"),
            Error::TooFew { arg, min, got } => write!(f, "argument `{arg}` needs at least {min} element(s), got {got}"),
            Error::NoConvergence { method, iterations } => write!(f, "{method} did not converge after {iterations} iterations"),
            Error::NotFiniteElement { arg, index, value } => write!(f, "argument `{arg}` must be finite: element {index} is {value}"),
            Error::CountOutOfRange { arg, value, min, max, reason } => write!(f, "argument `{arg}` = {value} is out of range: must satisfy {min} <= {arg} <= {max} ({reason})"),
            Error::CountOutOfRangeElement { arg, index, value, min, max, reason } => write!(f, "argument `{arg}`: element {index} = {value} is out of range: must satisfy {min} <= k <= {max} ({reason})"),
            Error::IndexOutOfRange { arg, position, index, target, len } => write!(f, "argument `{arg}`: entry {position} is index {index}, but the {target} has only {len} item(s)"),
            Error::RaggedRows { arg, len, dim } => write!(f, "argument `{arg}` has length {len}, which is not a multiple of the row width {dim}"),
            Error::Undefined { arg, quantity, reason } => write!(f, "{quantity} is undefined for argument `{arg}`: {reason}"),
            Error::NotUnitRow { arg, row, norm, tolerance } => write!(f, "argument `{arg}`: row {row} must be a unit vector (|‖v‖ − 1| ≤ {tolerance:.3e}), got norm {norm}"),
            Error::TooFewClasses { arg, classes, min } => write!(f, "argument `{arg}` has {classes} distinct class(es); at least {min} are needed"),
            Error::PairKindMismatch { arg, position, i, j, expected } => write!(f, "argument `{arg}`: pair {position} = ({i}, {j}) is not a {expected} pair"),
            Error::TooMany { arg, max, got } => write!(f, "argument `{arg}` has {got} elements; at most {max} are supported"),
            Error::OutOfDomainElement { arg, index, value, rule } => write!(f, "argument `{arg}`: element {index} = {value} is out of its domain: {rule}"),
            Error::RowOutOfDomain { arg, row, quantity, value, rule } => write!(f, "argument `{arg}`: row {row} is out of its domain ({quantity} = {value}): {rule}"),
            Error::Empty { arg, rule } => write!(f, "argument `{arg}` is empty: {rule}"),
        }
    }
}

impl std::error::Error for Error {}

/// `Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// Checks that `value` is finite, naming `arg` in the error.
#[doc(hidden)]
pub fn require_finite(arg: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::NotFinite { arg, value })
    }
}

/// Checks that `value` is finite and `>= 0`.
#[doc(hidden)]
pub fn require_nonnegative(arg: &'static str, value: f64) -> Result<f64> {
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

/// Checks that `v` has length `dim`.
#[doc(hidden)]
pub fn require_len(arg: &'static str, v: &[f64], dim: usize) -> Result<()> {
    if v.len() == dim {
        Ok(())
    } else {
        Err(Error::DimensionMismatch {
            arg,
            expected: dim,
            got: v.len(),
        })
    }
}

/// Checks that every entry of `v` is finite ([`Error::NotFiniteElement`] naming the first).
#[doc(hidden)]
pub fn require_finite_entries(arg: &'static str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(Error::NotFiniteElement {
            arg,
            index,
            value: v[index],
        }),
        None => Ok(()),
    }
}

/// Checks a natural parameter `ν = κμ` (all entries finite, `len ≥ 2`, `‖ν‖` finite) and
/// returns `κ = ‖ν‖`.
#[doc(hidden)]
pub fn natural_norm(arg: &'static str, nu: &[f64]) -> Result<f64> {
    require_sphere_dim(arg, nu.len())?;
    require_finite_entries(arg, nu)?;
    let kappa = crate::compensated::norm2(nu);
    if !kappa.is_finite() {
        return Err(Error::NotFinite { arg, value: kappa });
    }
    Ok(kappa)
}

/// Checks the PPK exponent: finite and `γ > 0`.
#[doc(hidden)]
pub fn require_gamma(gamma: f64) -> Result<f64> {
    require_finite("gamma", gamma)?;
    if gamma > 0.0 {
        Ok(gamma)
    } else {
        Err(Error::OutOfDomain {
            arg: "gamma",
            value: gamma,
            rule: "the probability product kernel needs gamma > 0",
        })
    }
}

/// Checks that a sphere dimension `M` satisfies `M >= 2`.
#[doc(hidden)]
pub fn require_sphere_dim(arg: &'static str, dim: usize) -> Result<usize> {
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

/// The checks of a vMF batch kernel over one dimension: `dim ≥ 2`, then [`require_batch`]
/// on `kappas` (finite, `≥ 0`, one per element of `out`).
#[doc(hidden)]
#[inline]
pub fn require_concentrations(dim: usize, kappas: &[f64], out_len: usize) -> Result<()> {
    require_sphere_dim("dim", dim)?;
    require_batch(
        "kappas",
        kappas,
        out_len,
        (0.0, f64::INFINITY),
        "every concentration must be >= 0",
    )
}

/// Whether every value is finite and in `[low, high)`, by lanes of running minima, maxima and
/// sums of `v · 0` (NaN exactly when some `v` is infinite or NaN): no branch per element.
/// Inlined, so that a batch kernel that checks inside its dispatched copy runs the pass at that
/// copy's vector width.
#[inline]
fn all_finite_in(values: &[f64], low: f64, high: f64) -> bool {
    const L: usize = 8;
    let (mut min, mut max, mut nan) = ([f64::INFINITY; L], [f64::NEG_INFINITY; L], [0.0; L]);
    let chunks = values.chunks_exact(L);
    let rest = chunks.remainder();
    for chunk in chunks {
        for l in 0..L {
            let v = chunk[l];
            nan[l] += v * 0.0;
            min[l] = if v < min[l] { v } else { min[l] };
            max[l] = if v > max[l] { v } else { max[l] };
        }
    }
    for (l, &v) in rest.iter().enumerate() {
        nan[l] += v * 0.0;
        min[l] = if v < min[l] { v } else { min[l] };
        max[l] = if v > max[l] { v } else { max[l] };
    }
    // A lane that saw no value keeps (∞, −∞), which passes.
    (0..L).all(|l| nan[l] == 0.0 && min[l] >= low && max[l] < high)
}

/// The checks of a batch kernel that maps `values` into `out`: equal lengths (naming `out`),
/// every value finite (naming `arg` and the index) and inside `[low, high)` (`rule` says so).
#[doc(hidden)]
#[inline]
pub fn require_batch(
    arg: &'static str,
    values: &[f64],
    out_len: usize,
    (low, high): (f64, f64),
    rule: &'static str,
) -> Result<()> {
    if out_len != values.len() {
        return Err(Error::DimensionMismatch {
            arg: "out",
            expected: values.len(),
            got: out_len,
        });
    }
    // One pass without early exit first, which vectorises (the two searches below stop at the
    // first offender and ran at a nanosecond per element, a tenth of a batched ln I_ν); they
    // run only when something is wrong.
    if all_finite_in(values, low, high) {
        return Ok(());
    }
    if let Some(index) = values.iter().position(|v| !v.is_finite()) {
        return Err(Error::NotFiniteElement {
            arg,
            index,
            value: values[index],
        });
    }
    if let Some(index) = values.iter().position(|v| !(low..high).contains(v)) {
        return Err(Error::OutOfDomainElement {
            arg,
            index,
            value: values[index],
            rule,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vectorised pre-check must let through exactly the valid batches: every kind of bad
    /// value, at every position of the eight check lanes and of a remainder, is reported as before.
    #[test]
    fn require_batch_finds_every_bad_value_at_every_position() {
        let domain = (0.0, f64::INFINITY);
        for len in [1, 7, 8, 9, 17, 64, 67] {
            let good: Vec<f64> = (0..len).map(|i| i as f64 * 0.5).collect();
            assert!(require_batch("xs", &good, len, domain, "rule").is_ok());
            let mut signed_zero = good.clone();
            signed_zero[len - 1] = -0.0;
            assert!(require_batch("xs", &signed_zero, len, domain, "rule").is_ok());
            for index in 0..len {
                for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                    let mut xs = good.clone();
                    xs[index] = bad;
                    match require_batch("xs", &xs, len, domain, "rule") {
                        Err(Error::NotFiniteElement { arg, index: i, .. }) => {
                            assert_eq!((arg, i), ("xs", index), "{bad} at {index} of {len}");
                        }
                        other => panic!("{bad} at {index} of {len}: {other:?}"),
                    }
                }
                let mut xs = good.clone();
                xs[index] = -1e-300;
                assert!(
                    matches!(
                        require_batch("xs", &xs, len, domain, "rule"),
                        Err(Error::OutOfDomainElement { arg: "xs", index: i, value, .. })
                            if value == -1e-300 && i == index
                    ),
                    "negative at {index} of {len}"
                );
                // An upper bound: [0, 1) rejects 1.
                let mut xs: Vec<f64> = vec![0.25; len];
                xs[index] = 1.0;
                assert!(
                    require_batch("xs", &xs, len, (0.0, 1.0), "rule").is_err(),
                    "1 at {index} of {len}"
                );
            }
        }
        assert!(matches!(
            require_batch("xs", &[1.0], 2, domain, "rule"),
            Err(Error::DimensionMismatch { arg: "out", .. })
        ));
        assert!(require_batch("xs", &[], 0, domain, "rule").is_ok());
    }
}
