//! Labelled batches of unit embeddings by category, for the chapter-03 proofs.
#![allow(dead_code)]

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rand_distr::StandardNormal;

/// A labelled batch: `z` row-major, `dim` columns, one label per row.
#[derive(Debug, Clone)]
pub struct Batch {
    pub z: Vec<f64>,
    pub dim: usize,
    pub labels: Vec<usize>,
}

/// How the rows are placed.
#[derive(Debug, Clone, Copy)]
pub enum Layout {
    /// Independent uniform directions.
    Uniform,
    /// Class centres plus noise of scale `spread`: near-coincident positives.
    Clustered(f64),
    /// Uniform, then some rows replaced by exact copies or antipodes of others.
    Degenerate,
}

fn unit(v: &mut [f64]) {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.iter_mut().for_each(|x| *x /= norm);
}

/// Builds a batch from a seed (the seed is the shrinkable input; no `rand::random`).
pub fn build(seed: u64, n: usize, dim: usize, classes: usize, layout: Layout) -> Batch {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut labels: Vec<usize> = (0..n).map(|_| rng.random_range(0..classes)).collect();
    labels[0] = 0;
    labels[1] = 1;
    let gauss = |rng: &mut ChaCha20Rng, dim: usize| -> Vec<f64> {
        (0..dim)
            .map(|_| rng.sample::<f64, _>(StandardNormal))
            .collect()
    };
    let centres: Vec<Vec<f64>> = (0..classes)
        .map(|_| {
            let mut c = gauss(&mut rng, dim);
            unit(&mut c);
            c
        })
        .collect();
    let mut z = Vec::with_capacity(n * dim);
    for i in 0..n {
        let mut v = match layout {
            Layout::Clustered(spread) => {
                let noise = gauss(&mut rng, dim);
                centres[labels[i]]
                    .iter()
                    .zip(noise)
                    .map(|(c, e)| c + spread * e)
                    .collect()
            }
            _ => gauss(&mut rng, dim),
        };
        unit(&mut v);
        z.extend(v);
    }
    if let Layout::Degenerate = layout {
        for i in 2..n {
            match rng.random_range(0..3) {
                0 => {
                    let j = rng.random_range(0..i);
                    let copy: Vec<f64> = z[j * dim..(j + 1) * dim].to_vec();
                    z[i * dim..(i + 1) * dim].copy_from_slice(&copy);
                }
                1 => {
                    let j = rng.random_range(0..i);
                    let anti: Vec<f64> = z[j * dim..(j + 1) * dim].iter().map(|x| -x).collect();
                    z[i * dim..(i + 1) * dim].copy_from_slice(&anti);
                }
                _ => {}
            }
        }
    }
    Batch { z, dim, labels }
}

/// Sphere dimensions M ∈ [2, 512]: edges and log-uniform.
pub fn embedding_dimension() -> impl Strategy<Value = usize> {
    prop_oneof![
        1 => prop::sample::select(vec![2usize, 3, 4, 5, 128, 512]),
        2 => 2usize..=16,
        1 => 17usize..=512,
    ]
}

pub fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        2 => Just(Layout::Uniform),
        1 => prop::sample::select(vec![1e-9, 1e-4, 0.05, 0.3]).prop_map(Layout::Clustered),
        1 => Just(Layout::Degenerate),
    ]
}

/// Batches with n ∈ [2, n_max], M from `dims`, 2–5 classes.
pub fn batch(n_max: usize, dims: impl Strategy<Value = usize>) -> impl Strategy<Value = Batch> {
    (any::<u64>(), 2usize..=n_max, dims, 2usize..=5, layout())
        .prop_map(|(seed, n, dim, classes, layout)| build(seed, n, dim, classes, layout))
}

/// Margins: the edges m = 2 (every negative inside), √2, 1, and values in (0, 2.5].
pub fn margin() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => prop::sample::select(vec![2.0, std::f64::consts::SQRT_2, 1.0, 0.5, 2.5]),
        2 => 0.05..2.5f64,
    ]
}

/// Whether some negative pair has |d² − m²| ≤ gap (where the margin decision is a rounding
/// question, and the fast and exact twins may legitimately disagree about membership).
pub fn negative_near_margin(b: &Batch, margin: f64, gap: f64) -> bool {
    if margin >= 2.0 {
        return false;
    }
    let n = b.labels.len();
    (0..n).any(|i| {
        (0..n).any(|j| {
            b.labels[i] != b.labels[j] && {
                let d2: f64 = (0..b.dim)
                    .map(|k| (b.z[i * b.dim + k] - b.z[j * b.dim + k]).powi(2))
                    .sum();
                (d2 - margin * margin).abs() <= gap
            }
        })
    })
}
