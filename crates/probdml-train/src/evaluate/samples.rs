//! The `S` sampled embeddings of each input, as the model returns them (`f32`, ℓ₂-normalised).

use crate::error::{TrainError, TrainResult};

/// Largest accepted `|‖x‖ − 1|` of a sampled embedding: a trained network's ℓ₂-normalised `f32`
/// output is a unit vector to `|‖x‖ − 1| ≤ 10⁻³`. `f32` normalisation leaves norms within a few
/// ulp (~10⁻⁷) of 1; 10⁻³ accepts that with a wide margin and still rejects an output never
/// normalised. Rows are renormalised in `f64` before any fit (see
/// [`fit_vmf_per_input`](super::fit_vmf_per_input)).
pub const UNIT_NORM_TOLERANCE: f64 = 1e-3;

/// `S` unit-norm embeddings of each of `n` inputs in `ℝ^D`: `S` weight samples (LAM), dropout
/// masks, or ensemble members per image (chapter 09, "Uncertainty at test time").
///
/// `data` is row-major `[n][samples][dim]`: the embedding of sample `s` of input `i` is
/// `data[(i·samples + s)·dim ..][..dim]`. A deterministic model is `samples = 1`.
///
/// # Examples
///
/// ```
/// use probdml_train::evaluate::EmbeddingSamples;
/// // Two inputs, two samples each, on the circle.
/// let data = vec![1.0, 0.0, 0.6, 0.8, 0.0, 1.0, 0.0, 1.0];
/// let e = EmbeddingSamples::new(2, 2, 2, data).unwrap();
/// assert_eq!(e.row(1, 0), &[0.0, 1.0]);
/// assert!(EmbeddingSamples::new(1, 1, 2, vec![2.0, 0.0]).is_err()); // not unit
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddingSamples {
    /// Number of inputs (images).
    pub n: usize,
    /// Samples per input, `S ≥ 1`.
    pub samples: usize,
    /// Embedding dimension `D ≥ 2` (the sphere `S^{D−1}`).
    pub dim: usize,
    /// The embeddings, `[n][samples][dim]` row-major; every row finite with norm within
    /// [`UNIT_NORM_TOLERANCE`] of 1.
    pub data: Vec<f32>,
}

impl EmbeddingSamples {
    /// Wraps `data` after checking its shape and that every row is a finite unit vector.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the argument when `n`, `samples` is 0, `dim < 2`, or
    /// `data.len() ≠ n·samples·dim`; and naming the input and sample (`input i, sample s`) of
    /// the first row with a NaN/infinite coordinate or a norm outside `1 ± 10⁻³`.
    pub fn new(n: usize, samples: usize, dim: usize, data: Vec<f32>) -> TrainResult<Self> {
        if n == 0 {
            return Err(TrainError::config("n", n, "at least one input is needed"));
        }
        if samples == 0 {
            return Err(TrainError::config(
                "samples",
                samples,
                "at least one sample per input is needed (1 for a deterministic model)",
            ));
        }
        if dim < 2 {
            return Err(TrainError::config(
                "dim",
                dim,
                "embeddings live on the sphere S^{D−1}, which needs D ≥ 2",
            ));
        }
        let expected = n
            .checked_mul(samples)
            .and_then(|r| r.checked_mul(dim))
            .ok_or_else(|| {
                TrainError::config("n", n, format!("n·samples·dim overflows ({samples}·{dim})"))
            })?;
        if data.len() != expected {
            return Err(TrainError::config(
                "data",
                format!("{} values", data.len()),
                format!("expected n·samples·dim = {n}·{samples}·{dim} = {expected} values"),
            ));
        }
        for (r, row) in data.chunks_exact(dim).enumerate() {
            let (i, s) = (r / samples, r % samples);
            if let Some(j) = row.iter().position(|x| !x.is_finite()) {
                return Err(TrainError::config(
                    "data",
                    format!("input {i}, sample {s}, coordinate {j} = {}", row[j]),
                    "every embedding coordinate must be finite",
                ));
            }
            let norm = row
                .iter()
                .map(|&x| f64::from(x) * f64::from(x))
                .sum::<f64>()
                .sqrt();
            if (norm - 1.0).abs() > UNIT_NORM_TOLERANCE {
                return Err(TrainError::config(
                    "data",
                    format!("input {i}, sample {s} with norm {norm}"),
                    format!(
                        "every embedding must be a unit vector (|‖x‖ − 1| ≤ {UNIT_NORM_TOLERANCE}): \
                         the model ℓ₂-normalises its output"
                    ),
                ));
            }
        }
        Ok(Self {
            n,
            samples,
            dim,
            data,
        })
    }

    /// Embedding of sample `s` of input `i`. Panics if either is out of range.
    pub fn row(&self, i: usize, s: usize) -> &[f32] {
        assert!(
            i < self.n && s < self.samples,
            "row ({i}, {s}) out of range"
        );
        let start = (i * self.samples + s) * self.dim;
        &self.data[start..start + self.dim]
    }

    /// The `S` embeddings of input `i`, `[samples][dim]`. Panics if `i` is out of range.
    pub fn input(&self, i: usize) -> &[f32] {
        let width = self.samples * self.dim;
        &self.data[i * width..(i + 1) * width]
    }

    /// Sample set `s` of every input as `f64` unit vectors, `[n][dim]` (each row renormalised:
    /// one rounding), the layout the metrics of chapter 08 take.
    pub(crate) fn sample_set(&self, s: usize) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.n * self.dim);
        for i in 0..self.n {
            push_unit(&mut out, self.row(i, s));
        }
        out
    }
}

/// Appends `row / ‖row‖` computed in `f64`.
pub(crate) fn push_unit(out: &mut Vec<f64>, row: &[f32]) {
    let start = out.len();
    out.extend(row.iter().map(|&x| f64::from(x)));
    let norm = out[start..].iter().map(|x| x * x).sum::<f64>().sqrt();
    out[start..].iter_mut().for_each(|x| *x /= norm);
}
