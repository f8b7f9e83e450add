//! Embeddings as a validated, borrowed row-major matrix, and the two distances of chapter 08.

use crate::error::{Error, Result};
use crate::metrics::checks;

/// The distance nearest neighbours are ranked by.
///
/// Both rank identically on unit vectors, since ‖q − x‖² = 2 − 2 cos(q, x) there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Distance {
    /// d(q, x) = ‖q − x‖₂.
    Euclidean,
    /// d(q, x) = 1 − ⟨q, x⟩ / (‖q‖ ‖x‖); every row must have a non-zero norm.
    Cosine,
}

/// A set of `len()` embeddings of dimension `dim()`, stored row-major in a borrowed slice.
///
/// Construction checks the shape and that every coordinate is finite, so every metric can rely
/// on finite distances: squared row norms must also stay below `f64::MAX / 4`, which keeps
/// ‖x‖² − 2⟨q, x⟩ + ‖q‖² finite.
///
/// # Examples
///
/// ```
/// use probdml::metrics::Embeddings;
/// let data = [0.0, 1.0, 1.0, 0.0, 0.6, 0.8];
/// let e = Embeddings::new(&data, 2).unwrap();
/// assert_eq!((e.len(), e.dim()), (3, 2));
/// assert_eq!(e.row(2), &[0.6, 0.8]);
/// assert!(Embeddings::new(&data, 4).is_err()); // 6 is not a multiple of 4
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Embeddings<'a> {
    data: &'a [f64],
    dim: usize,
}

impl<'a> Embeddings<'a> {
    /// Wraps `data` (row-major, `dim` coordinates per row) after checking it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidDimension`] if `dim == 0`; [`Error::TooFew`] if `data` is empty;
    /// [`Error::RaggedRows`] if `data.len()` is not a multiple of `dim`;
    /// [`Error::NotFiniteElement`] for a NaN or infinite coordinate; [`Error::OutOfDomain`] if a
    /// squared row norm exceeds `f64::MAX / 4`; [`Error::TooMany`] beyond 2³² − 1 rows.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::Embeddings;
    /// assert!(Embeddings::new(&[1.0, f64::NAN], 1).is_err());
    /// assert_eq!(Embeddings::new(&[1.0, 2.0, 3.0], 1).unwrap().len(), 3);
    /// ```
    pub fn new(data: &'a [f64], dim: usize) -> Result<Self> {
        if dim == 0 {
            return Err(Error::InvalidDimension {
                arg: "dim",
                dim,
                rule: "an embedding needs at least one coordinate",
            });
        }
        checks::at_least("data", data, 1)?;
        if data.len() % dim != 0 {
            return Err(Error::RaggedRows {
                arg: "data",
                len: data.len(),
                dim,
            });
        }
        if data.len() / dim > u32::MAX as usize {
            // Neighbour lists store database indices as u32 (half the memory of usize).
            return Err(Error::TooMany {
                arg: "data",
                max: u32::MAX as usize,
                got: data.len() / dim,
            });
        }
        checks::all_finite("data", data)?;
        for row in data.chunks_exact(dim) {
            let norm2: f64 = row.iter().map(|x| x * x).sum();
            if norm2 > f64::MAX / 4.0 {
                return Err(Error::OutOfDomain {
                    arg: "data",
                    value: norm2,
                    rule: "every squared row norm must be at most f64::MAX / 4",
                });
            }
        }
        Ok(Self { data, dim })
    }

    /// Number of embeddings (rows).
    pub fn len(&self) -> usize {
        self.data.len() / self.dim
    }

    /// Always `false`: construction rejects empty data.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Embedding dimension (row width).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Row `i`. Panics if `i >= len()`.
    pub fn row(&self, i: usize) -> &'a [f64] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// The whole row-major slice.
    pub fn as_slice(&self) -> &'a [f64] {
        self.data
    }

    /// Rejects a zero row when `distance` is cosine (the angle to the origin is undefined);
    /// `value` in the error is the squared norm found.
    pub(crate) fn check_for(&self, arg: &'static str, distance: Distance) -> Result<()> {
        if distance == Distance::Cosine {
            for row in self.data.chunks_exact(self.dim) {
                // A row whose squared norm underflows to 0 is as undefined as the zero row.
                if row.iter().map(|x| x * x).sum::<f64>() == 0.0 {
                    return Err(Error::OutOfDomain {
                        arg,
                        value: 0.0,
                        rule: "cosine distance needs every row to have a non-zero norm \
                               (squared norm above the underflow threshold)",
                    });
                }
            }
        }
        Ok(())
    }
}
