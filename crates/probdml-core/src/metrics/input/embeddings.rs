//! Embeddings as a validated, borrowed row-major matrix (`f64`, or `f32` as torch and faiss hold
//! them, borrowed without a copy), and the two distances of chapter 08.

use std::borrow::Cow;

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

/// A set of `len()` embeddings of dimension `dim()`, stored row-major in a borrowed slice of
/// `f64` ([`Embeddings::new`]) or `f32` ([`Embeddings::from_f32`]).
///
/// Construction checks the shape and that every coordinate is finite, so every metric can rely
/// on finite distances: squared row norms must also stay below `f64::MAX / 4`, which keeps
/// ‖x‖² − 2⟨q, x⟩ + ‖q‖² finite. `f32` coordinates are widened to `f64` exactly wherever a
/// metric computes with them: an `f32` task has the results of the same task on the widened
/// values.
///
/// # Examples
///
/// ```
/// use probdml::metrics::Embeddings;
/// let data = [0.0, 1.0, 1.0, 0.0, 0.6, 0.8];
/// let e = Embeddings::new(&data, 2).unwrap();
/// assert_eq!((e.len(), e.dim()), (3, 2));
/// assert_eq!(e.row(2).as_ref(), &[0.6, 0.8]);
/// assert!(Embeddings::new(&data, 4).is_err()); // 6 is not a multiple of 4
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Embeddings<'a> {
    data: Coordinates<'a>,
    dim: usize,
}

/// The borrowed row-major coordinates of an [`Embeddings`], in the precision they were given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Coordinates<'a> {
    /// Double precision.
    F64(&'a [f64]),
    /// Single precision (read as the `f64` values they represent exactly).
    F32(&'a [f32]),
}

impl Coordinates<'_> {
    fn len(&self) -> usize {
        match self {
            Self::F64(x) => x.len(),
            Self::F32(x) => x.len(),
        }
    }
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
        Self::check_shape(data.len(), dim)?;
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
        Ok(Self {
            data: Coordinates::F64(data),
            dim,
        })
    }

    /// Wraps `f32` coordinates (row-major, `dim` per row) after checking them, without copying:
    /// the layout torch (`tensor.contiguous()`) and faiss hand out.
    ///
    /// # Errors
    ///
    /// As [`Embeddings::new`] (a squared norm of `f32` values never exceeds `f64::MAX / 4`).
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml::metrics::Embeddings;
    /// let data = [0.0f32, 1.0, 0.6, 0.8];
    /// let e = Embeddings::from_f32(&data, 2)?;
    /// assert_eq!(e.row(1).as_ref(), &[0.6f32 as f64, 0.8f32 as f64]);
    /// assert!(Embeddings::from_f32(&[f32::NAN], 1).is_err());
    /// # Ok::<(), probdml::Error>(())
    /// ```
    pub fn from_f32(data: &'a [f32], dim: usize) -> Result<Self> {
        Self::check_shape(data.len(), dim)?;
        if let Some(index) = data.iter().position(|x| !x.is_finite()) {
            return Err(Error::NotFiniteElement {
                arg: "data",
                index,
                value: f64::from(data[index]),
            });
        }
        Ok(Self {
            data: Coordinates::F32(data),
            dim,
        })
    }

    fn check_shape(len: usize, dim: usize) -> Result<()> {
        if dim == 0 {
            return Err(Error::InvalidDimension {
                arg: "dim",
                dim,
                rule: "an embedding needs at least one coordinate",
            });
        }
        if len == 0 {
            return Err(Error::TooFew {
                arg: "data",
                min: 1,
                got: 0,
            });
        }
        if !len.is_multiple_of(dim) {
            return Err(Error::RaggedRows {
                arg: "data",
                len,
                dim,
            });
        }
        if len / dim > u32::MAX as usize {
            // Neighbour lists store database indices as u32 (half the memory of usize).
            return Err(Error::TooMany {
                arg: "data",
                max: u32::MAX as usize,
                got: len / dim,
            });
        }
        Ok(())
    }

    /// Number of embeddings (rows).
    pub fn len(&self) -> usize {
        self.data.len() / self.dim
    }

    /// Always `false`: construction rejects empty data.
    pub fn is_empty(&self) -> bool {
        self.data.len() == 0
    }

    /// Embedding dimension (row width).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Row `i` in `f64`: borrowed, or widened from `f32` (exactly). Panics if `i >= len()`.
    pub fn row(&self, i: usize) -> Cow<'a, [f64]> {
        let range = i * self.dim..(i + 1) * self.dim;
        match self.data {
            Coordinates::F64(x) => Cow::Borrowed(&x[range]),
            Coordinates::F32(x) => Cow::Owned(x[range].iter().map(|&v| f64::from(v)).collect()),
        }
    }

    /// The whole row-major slice, in the precision it was given.
    pub fn coordinates(&self) -> Coordinates<'a> {
        self.data
    }

    /// Squared norm of every row, ‖x‖² summed in index order in `f64`.
    #[doc(hidden)]
    pub fn squared_norms(&self) -> Vec<f64> {
        fn sum(row: impl Iterator<Item = f64>) -> f64 {
            let mut s = 0.0;
            for v in row {
                s += v * v;
            }
            s
        }
        match self.data {
            Coordinates::F64(x) => x
                .chunks_exact(self.dim)
                .map(|r| sum(r.iter().copied()))
                .collect(),
            Coordinates::F32(x) => x
                .chunks_exact(self.dim)
                .map(|r| sum(r.iter().map(|&v| f64::from(v))))
                .collect(),
        }
    }

    /// Rejects a zero row when `distance` is cosine (the angle to the origin is undefined),
    /// naming the row; `value` in the error is the squared norm found.
    #[doc(hidden)]
    pub fn check_for(&self, arg: &'static str, distance: Distance) -> Result<()> {
        if distance == Distance::Cosine {
            for (row, norm2) in self.squared_norms().into_iter().enumerate() {
                // A row whose squared norm underflows to 0 is as undefined as the zero row.
                if norm2 == 0.0 {
                    return Err(Error::RowOutOfDomain {
                        arg,
                        row,
                        quantity: "squared norm",
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
