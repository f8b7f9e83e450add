//! The run file `hib_embedding.json`: the mean embeddings of a seeded subset of the N-digit
//! MNIST test images, clean and corrupt, with their label and their self-mismatch η — what HIB's
//! Figs. 3–4 (Oh et al. 2019) draw, kept small enough to commit beside `hib_tasks.json` so that
//! the figure can be redrawn without the checkpoint (`probdml figures hib-embedding`).

use crate::error::{TrainError, TrainResult};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

/// The run file's name inside a run folder.
pub const HIB_EMBEDDING: &str = "hib_embedding.json";

/// Test images in the subset (the same images in both twins): 500 of the 1 000 of chapter 10's
/// runs, 5 per number at N = 2, and a file of about 100 kB at D = 2.
pub const EMBEDDING_IMAGES: usize = 500;

/// One twin's embeddings of the subset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TwinEmbedding {
    /// Mean embeddings, row-major `images × latent_dim`, as the model gave them (`f32`).
    pub mean: Vec<f32>,
    /// η(x) = 1 − p(m | x, x) (HIB eq. 9) per image; `null` for point embeddings.
    pub eta: Option<Vec<f64>>,
}

/// `hib_embedding.json`: the subset's images, labels and both twins' embeddings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HibEmbedding {
    /// "point", "MoG-1" or "MoG-2" ([`super::paper_method`]).
    pub method: String,
    /// Digits per image N.
    pub digits: usize,
    /// Embedding dimension D.
    pub latent_dim: usize,
    /// The run's seed.
    pub seed: u64,
    /// Test images of each twin the subset was drawn from.
    pub test_images: usize,
    /// Indices of the subset's images in each twin (the corrupt twin is the clean one occluded,
    /// image by image), ascending ([`embedding_subset`]).
    pub index: Vec<usize>,
    /// The number each image shows (its class, 0 … 10ᴺ − 1).
    pub label: Vec<usize>,
    /// The clean twin.
    pub clean: TwinEmbedding,
    /// The corrupt twin (every digit occluded).
    pub corrupt: TwinEmbedding,
}

/// `count` distinct indices of `0..n` (all of them when `count ≥ n`), ascending: the first
/// `count` positions of a partial Fisher–Yates shuffle of `0..n` drawn by
/// `StdRng::seed_from_u64(seed)`, sorted. Written out rather than taken from `rand::seq` so that
/// the subset cannot change with that module's choice of algorithm.
pub fn embedding_subset(n: usize, count: usize, seed: u64) -> Vec<usize> {
    let count = count.min(n);
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..count {
        let j = rng.random_range(i..n);
        order.swap(i, j);
    }
    order.truncate(count);
    order.sort_unstable();
    order
}

impl HibEmbedding {
    /// Checks that every field has one entry per image of `index` (D values per image for the
    /// means), every value finite and every index below `test_images`.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `hib_embedding` and the first field that breaks it.
    pub fn validate(&self) -> TrainResult<()> {
        let n = self.index.len();
        let fail = |what: String| {
            Err(TrainError::config("hib_embedding", what, "a consistent subset: one label, D means and (HIB) one η per image, finite, indices below test_images"))
        };
        if self.latent_dim == 0 || n == 0 {
            return fail(format!("{n} images of dimension {}", self.latent_dim));
        }
        if self.label.len() != n {
            return fail(format!("{} labels for {n} images", self.label.len()));
        }
        if let Some(&i) = self.index.iter().find(|&&i| i >= self.test_images) {
            return fail(format!("index {i} of {} test images", self.test_images));
        }
        for (name, twin) in [("clean", &self.clean), ("corrupt", &self.corrupt)] {
            if twin.mean.len() != n * self.latent_dim {
                return fail(format!(
                    "{name}: {} mean values for {n} images of dimension {}",
                    twin.mean.len(),
                    self.latent_dim
                ));
            }
            if twin.mean.iter().any(|v| !v.is_finite()) {
                return fail(format!("{name}: a non-finite mean value"));
            }
            if let Some(eta) = &twin.eta {
                if eta.len() != n || eta.iter().any(|v| !v.is_finite()) {
                    return fail(format!(
                        "{name}: {} η values for {n} images, or one not finite",
                        eta.len()
                    ));
                }
            }
        }
        Ok(())
    }
}

impl HibEmbedding {
    /// How far apart the numbers lie in `twin` (`self.clean` or `self.corrupt`): the RMS distance
    /// of each image's mean to the centroid of its number's means over the RMS distance to the
    /// centroid of all, √(within-number sum of squares / total sum of squares) of a one-way
    /// analysis of variance. 0 when every number is one point, about 1 when the numbers are
    /// mixed; it does not change when the whole plane is scaled, so it tells a loss that falls
    /// by separating the numbers from one that falls by scaling them. None when every mean is
    /// the same point.
    pub fn within_number_spread(&self, twin: &TwinEmbedding) -> Option<f64> {
        let d = self.latent_dim;
        let mut sums: std::collections::BTreeMap<usize, (Vec<f64>, usize)> = Default::default();
        let mut all = vec![0.0; d];
        for (m, &l) in twin.mean.chunks(d).zip(&self.label) {
            let (sum, count) = sums.entry(l).or_insert_with(|| (vec![0.0; d], 0));
            for k in 0..d {
                sum[k] += f64::from(m[k]);
                all[k] += f64::from(m[k]);
            }
            *count += 1;
        }
        let n = self.label.len() as f64;
        let (mut within, mut total) = (0.0, 0.0);
        for (m, l) in twin.mean.chunks(d).zip(&self.label) {
            let (sum, count) = &sums[l];
            for k in 0..d {
                let x = f64::from(m[k]);
                within += (x - sum[k] / *count as f64).powi(2);
                total += (x - all[k] / n).powi(2);
            }
        }
        (total > 0.0).then(|| (within / total).sqrt())
    }
}

/// The embedding file of the run folder `dir` (`dir/hib_embedding.json`), checked by
/// [`HibEmbedding::validate`].
///
/// # Errors
///
/// [`TrainError::Io`] or [`TrainError::Json`] naming the file when it is missing or not such a
/// record; those of [`HibEmbedding::validate`].
pub fn read_embedding(dir: &std::path::Path) -> TrainResult<HibEmbedding> {
    let e: HibEmbedding = crate::json::read_json(&dir.join(HIB_EMBEDDING))?;
    e.validate()?;
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four means in the plane, two numbers: (0, 0) and (2, 0) show 0, (0, 4) and (2, 4) show 1.
    /// The numbers' centroids are (1, 0) and (1, 4), all four's (1, 2): within-number squares
    /// 4 · 1 = 4, total 4 · (1 + 4) = 20, so √(4/20) = √0.2. Scaling the plane keeps it; one
    /// point per number gives 0; every mean alike gives none.
    #[test]
    fn within_number_spread_is_the_anova_ratio() {
        let twin = |mean: Vec<f32>| TwinEmbedding { mean, eta: None };
        let mut e = HibEmbedding {
            method: "point".into(),
            digits: 2,
            latent_dim: 2,
            seed: 0,
            test_images: 4,
            index: vec![0, 1, 2, 3],
            label: vec![0, 0, 1, 1],
            clean: twin(vec![0.0, 0.0, 2.0, 0.0, 0.0, 4.0, 2.0, 4.0]),
            corrupt: twin(vec![0.0, 0.0, 4.0, 0.0, 0.0, 8.0, 4.0, 8.0]),
        };
        let clean = e.within_number_spread(&e.clean).unwrap();
        assert!((clean - 0.2f64.sqrt()).abs() < 1e-12, "{clean}");
        let scaled = e.within_number_spread(&e.corrupt).unwrap();
        assert!((scaled - clean).abs() < 1e-12, "{scaled}");
        e.label = vec![0, 1, 2, 3];
        assert_eq!(e.within_number_spread(&e.clean), Some(0.0));
        let alike = twin(vec![1.0; 8]);
        assert_eq!(e.within_number_spread(&alike), None);
    }

    #[test]
    fn the_subset_is_distinct_ascending_and_seeded() {
        let a = embedding_subset(1000, 500, 7);
        assert_eq!(a.len(), 500);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(*a.last().unwrap() < 1000);
        assert_eq!(a, embedding_subset(1000, 500, 7));
        assert_ne!(a, embedding_subset(1000, 500, 8));
        // Asking for more than there are gives every image.
        assert_eq!(embedding_subset(4, 10, 7), vec![0, 1, 2, 3]);
        assert!(embedding_subset(0, 10, 7).is_empty());
    }

    #[test]
    fn the_subset_is_uniform() {
        // Each of 10 images is in a subset of 3 with probability 3/10: over 20 000 seeds each
        // count is 6000 ± 65 (binomial sd); 5 sd is 325.
        let mut hits = [0usize; 10];
        for seed in 0..20_000 {
            for i in embedding_subset(10, 3, seed) {
                hits[i] += 1;
            }
        }
        for (i, &h) in hits.iter().enumerate() {
            assert!(
                (h as i64 - 6000).abs() < 325,
                "image {i}: {h} of 20000 subsets"
            );
        }
    }

    fn record() -> HibEmbedding {
        HibEmbedding {
            method: "MoG-1".into(),
            digits: 2,
            latent_dim: 2,
            seed: 0,
            test_images: 100,
            index: vec![3, 40],
            label: vec![3, 40],
            clean: TwinEmbedding {
                mean: vec![1.0, 0.0, 0.0, 1.0],
                eta: Some(vec![0.1, 0.2]),
            },
            corrupt: TwinEmbedding {
                mean: vec![0.6, 0.8, -0.8, 0.6],
                eta: Some(vec![0.3, 0.4]),
            },
        }
    }

    #[test]
    fn inconsistent_records_are_refused_naming_the_field() {
        assert!(record().validate().is_ok());
        let mut short = record();
        short.corrupt.mean.pop();
        let e = short.validate().unwrap_err().to_string();
        assert!(e.contains("hib_embedding") && e.contains("corrupt"), "{e}");
        let mut labels = record();
        labels.label.push(1);
        assert!(labels
            .validate()
            .unwrap_err()
            .to_string()
            .contains("labels"));
        let mut index = record();
        index.index[1] = 100;
        assert!(index
            .validate()
            .unwrap_err()
            .to_string()
            .contains("index 100"));
        let mut eta = record();
        eta.clean.eta = Some(vec![0.1, f64::NAN]);
        assert!(eta.validate().unwrap_err().to_string().contains("clean"));
    }
}
