//! The verification pairs of HIB §4.3: "p(m | x₁, x₂) for 10k pairs of test images, half of
//! which are matches and half are not", drawn once from a fixed seed so that every method and
//! both test twins are scored on the same pairs.

use crate::error::{TrainError, TrainResult};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The paper's number of verification pairs (HIB §4.3).
pub const PAPER_PAIRS: usize = 10_000;

/// Pairs of test images (indices into the test set), the first half matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerificationPairs {
    /// First image of each pair.
    pub first: Vec<usize>,
    /// Second image of each pair (never the first).
    pub second: Vec<usize>,
    /// Whether the two images show the same class.
    pub is_match: Vec<bool>,
}

impl VerificationPairs {
    /// `count` pairs of distinct images of `labels`: ⌈count/2⌉ matching, the rest not. A
    /// matching pair is an image drawn uniformly among those whose class holds another, and
    /// another image of its class drawn uniformly; a non-matching pair two images drawn
    /// uniformly until their classes differ. Pairs are drawn independently (with replacement),
    /// from `StdRng::seed_from_u64(seed)`.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `pairs` when `count < 2` (no pair of each kind), or
    /// naming `labels` when no class holds two images or every image has the same class.
    pub fn draw(labels: &[usize], count: usize, seed: u64) -> TrainResult<Self> {
        if count < 2 {
            return Err(TrainError::config(
                "pairs",
                count,
                "at least 2 pairs: a matching and a non-matching one",
            ));
        }
        let classes = labels.iter().copied().max().map_or(0, |m| m + 1);
        let mut members = vec![Vec::new(); classes];
        for (i, &l) in labels.iter().enumerate() {
            members[l].push(i);
        }
        // Images whose class holds another: the first images of matching pairs.
        let pairable: Vec<usize> = (0..labels.len())
            .filter(|&i| members[labels[i]].len() >= 2)
            .collect();
        if pairable.is_empty() {
            return Err(TrainError::config(
                "labels",
                format!("{} images", labels.len()),
                "a matching pair needs a class with at least 2 images",
            ));
        }
        if members.iter().filter(|m| !m.is_empty()).count() < 2 {
            return Err(TrainError::config(
                "labels",
                format!("{} images", labels.len()),
                "a non-matching pair needs images of at least 2 classes",
            ));
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let matching = count.div_ceil(2);
        let mut pairs = Self {
            first: Vec::with_capacity(count),
            second: Vec::with_capacity(count),
            is_match: Vec::with_capacity(count),
        };
        for k in 0..count {
            let (i, j) = if k < matching {
                let i = pairable[rng.random_range(0..pairable.len())];
                let class = &members[labels[i]];
                // Another member of i's class: skip i's own position.
                let own = class.iter().position(|&x| x == i).unwrap_or(0);
                let r = rng.random_range(0..class.len() - 1);
                (i, class[if r >= own { r + 1 } else { r }])
            } else {
                loop {
                    let i = rng.random_range(0..labels.len());
                    let j = rng.random_range(0..labels.len());
                    if labels[i] != labels[j] {
                        break (i, j);
                    }
                }
            };
            pairs.first.push(i);
            pairs.second.push(j);
            pairs.is_match.push(k < matching);
        }
        Ok(pairs)
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// Whether there is no pair.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    /// The pair's mean uncertainty ½(η(x₁) + η(x₂)) (HIB §4.4), by which the pairs are binned.
    pub fn mean_uncertainty(&self, eta: &[f64]) -> Vec<f64> {
        self.first
            .iter()
            .zip(&self.second)
            .map(|(&i, &j)| 0.5 * (eta[i] + eta[j]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_match_and_labels_agree() {
        let labels = [0, 0, 1, 1, 1, 2];
        let pairs = VerificationPairs::draw(&labels, 1001, 5).unwrap();
        assert_eq!(pairs.len(), 1001);
        assert_eq!(pairs.is_match.iter().filter(|&&m| m).count(), 501);
        for k in 0..pairs.len() {
            let (i, j) = (pairs.first[k], pairs.second[k]);
            assert_ne!(i, j);
            assert_eq!(labels[i] == labels[j], pairs.is_match[k], "pair {k}");
        }
        // The lone image of class 2 can only be drawn into a non-matching pair; among 500
        // non-matching pairs, drawn uniformly, it shows up.
        assert!(pairs.first[..501].iter().all(|&i| i != 5));
        assert!(pairs.first[501..]
            .iter()
            .chain(&pairs.second[501..])
            .any(|&i| i == 5));
        // Seeded: the same pairs again, others from another seed.
        assert_eq!(VerificationPairs::draw(&labels, 1001, 5).unwrap(), pairs);
        assert_ne!(VerificationPairs::draw(&labels, 1001, 6).unwrap(), pairs);
    }

    #[test]
    fn mean_uncertainty_of_a_pair() {
        let pairs = VerificationPairs {
            first: vec![0, 2],
            second: vec![1, 0],
            is_match: vec![true, false],
        };
        // Dyadic values: the means are exact.
        assert_eq!(
            pairs.mean_uncertainty(&[0.25, 0.5, 1.0]),
            vec![0.375, 0.625]
        );
    }

    #[test]
    fn impossible_pairs_are_named() {
        let arg = |r: TrainResult<VerificationPairs>| match r {
            Err(TrainError::InvalidConfig { arg, .. }) => arg,
            other => panic!("{other:?}"),
        };
        assert_eq!(arg(VerificationPairs::draw(&[0, 0, 1], 1, 0)), "pairs");
        assert_eq!(arg(VerificationPairs::draw(&[0, 1, 2], 10, 0)), "labels");
        assert_eq!(arg(VerificationPairs::draw(&[3, 3, 3], 10, 0)), "labels");
        assert_eq!(arg(VerificationPairs::draw(&[], 10, 0)), "labels");
    }
}
