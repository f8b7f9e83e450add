//! Random last-layer problems for the chapter-04 proofs: y = Wx with W ∈ ℝ^{M×F}, features
//! x_i ∈ ℝ^F, labels with at least two classes, and the pair targets of chapter 03.
#![allow(dead_code)]

use probdml::contrastive::{pair_targets, PairTarget};
use proptest::prelude::*;

/// One last-layer problem.
#[derive(Debug, Clone)]
pub struct Problem {
    pub weights: Vec<f64>,
    pub features: Vec<f64>,
    pub n_features: usize,
    pub labels: Vec<usize>,
    pub margin: f64,
}

impl Problem {
    pub fn n_outputs(&self) -> usize {
        self.weights.len() / self.n_features
    }
    pub fn n_points(&self) -> usize {
        self.labels.len()
    }
    /// y_i = W x_i, B×M.
    pub fn raw_outputs(&self) -> Vec<f64> {
        let (f, m) = (self.n_features, self.n_outputs());
        self.features
            .chunks_exact(f)
            .flat_map(|x| {
                (0..m).map(move |k| (0..f).map(|l| self.weights[k * f + l] * x[l]).sum::<f64>())
            })
            .collect()
    }
    /// z_i = y_i/‖y_i‖.
    pub fn embeddings(&self) -> Vec<f64> {
        let m = self.n_outputs();
        self.raw_outputs()
            .chunks_exact(m)
            .flat_map(|y| {
                let r = y.iter().map(|v| v * v).sum::<f64>().sqrt();
                y.iter().map(move |v| v / r).collect::<Vec<_>>()
            })
            .collect()
    }
    /// The smallest ‖y_i‖: problems with a near-zero output are ill-conditioned, not wrong.
    pub fn min_output_norm(&self) -> f64 {
        let m = self.n_outputs();
        self.raw_outputs()
            .chunks_exact(m)
            .map(|y| y.iter().map(|v| v * v).sum::<f64>().sqrt())
            .fold(f64::INFINITY, f64::min)
    }
    /// The chapter-03 pair targets (None for a single class).
    pub fn pairs(&self) -> Option<Vec<PairTarget>> {
        pair_targets(
            &self.embeddings(),
            self.n_outputs(),
            &self.labels,
            self.margin,
        )
        .ok()
    }
}

/// B ∈ [2, 6], M ∈ [2, 4], F ∈ [1, 4], entries in [−1, 1], margin 2 (every non-antipodal negative
/// inside) or in [0.3, 2].
pub fn problem() -> impl Strategy<Value = Problem> {
    (2usize..=6, 2usize..=4, 1usize..=4)
        .prop_flat_map(|(b, m, f)| {
            (
                prop::collection::vec(-1.0..1.0f64, m * f),
                prop::collection::vec(-1.0..1.0f64, b * f),
                Just(f),
                prop::collection::vec(0usize..3, b),
                prop_oneof![Just(2.0), 0.3..2.0f64],
            )
        })
        .prop_map(|(weights, features, n_features, labels, margin)| Problem {
            weights,
            features,
            n_features,
            labels,
            margin,
        })
}

/// max |a − b| ≤ tol · max(max |b|, tiny): entrywise, scaled by the reference's max norm.
pub fn close_scaled(a: &[f64], b: &[f64], tol: f64) -> bool {
    let scale = b.iter().fold(0.0f64, |s, v| s.max(v.abs())).max(1e-300);
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * scale)
}

pub fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0f64, |s, v| s.max(v.abs()))
}

/// max |a − b| ≤ tol · scale, with `scale` the size of the *terms* summed (not of the result,
/// which cancels to rounding level in exact zeros such as trivial pairs or M = 1).
pub fn close_with_scale(a: &[f64], b: &[f64], tol: f64, scale: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * scale)
}

impl Problem {
    /// Σ_pairs |t|·(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)²: bounds every term of the pair sums that form
    /// the loss, its gradient, GGN and Hessian in W (up to a small constant).
    pub fn term_scale(&self, pairs: &[PairTarget]) -> f64 {
        let (f, m) = (self.n_features, self.n_outputs());
        let y = self.raw_outputs();
        let ratio = |i: usize| {
            let x = self.features[i * f..(i + 1) * f]
                .iter()
                .map(|v| v * v)
                .sum::<f64>()
                .sqrt();
            let r = y[i * m..(i + 1) * m]
                .iter()
                .map(|v| v * v)
                .sum::<f64>()
                .sqrt();
            x / r
        };
        pairs
            .iter()
            .map(|p| p.target.abs() * (1.0 + ratio(p.i) + ratio(p.j)).powi(2))
            .sum::<f64>()
            .max(1e-300)
    }
}
