//! One vMF per input from its `S` sampled embeddings (chapter 02, "Estimating κ from samples";
//! LAM App. C: "embed through S sampled networks, fit a vMF, report 1/κ̂").

use rayon::prelude::*;

use super::samples::{push_unit, EmbeddingSamples};
use crate::error::{TrainError, TrainResult};
use probdml::vmf::{kappa_sra, mean_resultant};

/// Newton steps of Sra's estimator after Banerjee's start ([`kappa_sra`]).
///
/// Four: `proofs/vmf_kappa.rs` proves four steps within `10⁻¹⁰` relative of the MLE for every
/// `M ≥ 2` (two suffice only for `M ≥ 45`, and the reference configs use `D = 3`); see the
/// registry entry `vmf::kappa_sra` and docs chapter 02. LAM itself reports Banerjee's `κ̂₀`
/// (0 steps). Both are increasing functions of `R̄` at fixed `M`, so AUROC and AUPRC (which
/// depend on the ranking of `1/κ̂` only) are the same with either; AUSC averages the query's
/// and its neighbour's `1/κ̂` and can differ in the last digits.
pub const NEWTON_STEPS: usize = 4;

/// Per-input vMF fits (see [`fit_vmf_per_input`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VmfFit {
    /// Number of inputs `n`.
    pub n: usize,
    /// Dimension `D`.
    pub dim: usize,
    /// Mean directions `μ̂ᵢ`, `[n][dim]` row-major, unit vectors in `f64`.
    pub mean: Vec<f64>,
    /// Mean resultant lengths `R̄ᵢ ∈ (0, 1]` (1 when `S = 1` or all samples coincide).
    pub rbar: Vec<f64>,
    /// Concentrations `κ̂ᵢ`; `f64::INFINITY` where `R̄ᵢ = 1` (no spread: `S = 1`, all samples
    /// equal, or a spread below the resolution of `f64` at 1). Never NaN.
    pub kappa: Vec<f64>,
    /// LAM's uncertainty `1/κ̂ᵢ`; 0 where `κ̂ᵢ = ∞`. Finite and `≥ 0`.
    pub uncertainty: Vec<f64>,
}

impl VmfFit {
    /// Mean direction of input `i`. Panics if `i ≥ n`.
    pub fn mean_of(&self, i: usize) -> &[f64] {
        &self.mean[i * self.dim..(i + 1) * self.dim]
    }
}

/// Fits `vMF(μ̂ᵢ, κ̂ᵢ)` to the `S` samples of each input.
///
/// # Formula
///
/// With the samples `x₁…x_S` of input `i` renormalised in `f64` (the model's `f32` rows are
/// unit only to ~10⁻⁷; the chapter-02 primitives would renormalise them row by row too):
///
/// * `μ̂ = Σx/‖Σx‖`, `R̄ = ‖Σx‖/S` — [`mean_resultant`] (cascade sum);
/// * `κ̂ = ` [`kappa_sra`]`(D, R̄, `[`NEWTON_STEPS`]`)`: Banerjee's
///   `κ₀ = R̄(D − R̄²)/(1 − R̄²)` and four of Sra's Newton steps on `A_D(κ) = R̄`, which
///   `kappa_sra` evaluates in the complement form `(1 − R̄) − (1 − A_D(κ))` for `R̄ > ½`, so no
///   digits of `1 − R̄` are lost inside the estimator;
/// * uncertainty `1/κ̂` (LAM App. C).
///
/// `R̄` itself is an `f64` next to 1, resolved to `ulp(1) ≈ 1.1·10⁻¹⁶` absolute: `κ̂` is
/// accurate to about `10⁻¹⁶/(1 − R̄)` relative, i.e. to 10⁻⁶ for `κ̂ ≲ 10⁹·D`, far tighter
/// than samples from `f32` networks resolve. Where `R̄` is 1 — a single sample
/// (`S = 1`, a deterministic model), samples that are all equal, or a spread below that
/// resolution — `κ̂ = ∞` and the uncertainty is 0: no uncertainty, never NaN. Inputs are
/// fitted in parallel (rayon); each fit is `O(S·D)`.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming the input whose samples sum to exactly zero (e.g. two
/// antipodal samples: the mean direction is undefined).
pub fn fit_vmf_per_input(samples: &EmbeddingSamples) -> TrainResult<VmfFit> {
    let (n, s_count, dim) = (samples.n, samples.samples, samples.dim);
    let fits: Vec<TrainResult<(Vec<f64>, f64, f64)>> = (0..n)
        .into_par_iter()
        .map_init(
            || Vec::with_capacity(s_count * dim),
            |rows, i| fit_one(samples, i, rows),
        )
        .collect();
    let mut fit = VmfFit {
        n,
        dim,
        mean: Vec::with_capacity(n * dim),
        rbar: Vec::with_capacity(n),
        kappa: Vec::with_capacity(n),
        uncertainty: Vec::with_capacity(n),
    };
    for one in fits {
        let (mean, rbar, kappa) = one?;
        fit.mean.extend_from_slice(&mean);
        fit.rbar.push(rbar);
        fit.kappa.push(kappa);
        fit.uncertainty.push(if kappa.is_infinite() {
            0.0
        } else {
            1.0 / kappa
        });
    }
    Ok(fit)
}

/// `(μ̂, R̄, κ̂)` of input `i`; `rows` is scratch space.
fn fit_one(
    samples: &EmbeddingSamples,
    i: usize,
    rows: &mut Vec<f64>,
) -> TrainResult<(Vec<f64>, f64, f64)> {
    let dim = samples.dim;
    rows.clear();
    for s in 0..samples.samples {
        push_unit(rows, samples.row(i, s));
    }
    let first = &rows[..dim];
    if rows.chunks_exact(dim).all(|row| row == first) {
        // R̄ = 1 exactly: one sample, or S equal samples.
        return Ok((first.to_vec(), 1.0, f64::INFINITY));
    }
    let mr = mean_resultant(rows, dim).map_err(|e| match e {
        probdml::Error::OutOfDomain { .. } => TrainError::config(
            "samples",
            format!("input {i}"),
            "its samples sum to the zero vector, so the vMF mean direction is undefined",
        ),
        other => other.into(),
    })?;
    let kappa = if mr.rbar >= 1.0 {
        f64::INFINITY
    } else {
        kappa_sra(dim, mr.rbar, NEWTON_STEPS)?
    };
    Ok((mr.direction, mr.rbar.min(1.0), kappa))
}
