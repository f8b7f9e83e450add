//! How an epoch's images are cut into batches (`--batch-sampler`, `config.json`'s
//! `optimiser.batch_sampler`).
//!
//! * `shuffled` — every chapter's default: a seeded permutation of the training set, cut into
//!   consecutive batches, each image at most once an epoch.
//! * `two-streams` — the hedged instance embedding paper's (Oh et al., ICLR 2019, §2.3): "most
//!   pairs are not matching … we encourage a balance of m = 0 and m = 1 pair samples within each
//!   SGD minibatch by using two streams of input sample images. One samples images from the
//!   training set at random and the other selects images from specific class labels, and then
//!   these are randomly shuffled to produce the final batch." The paper names neither the split
//!   of a batch between the streams nor how the labels are chosen; here the first stream is the
//!   next ⌈B/2⌉ images of the epoch's permutation and the second draws, for each of the first
//!   ⌊B/2⌋ of them, another image of its class, uniformly. A batch of B images so holds at least
//!   ⌊B/2⌋ matching pairs, where a uniform batch of N-digit MNIST's 100 numbers holds about
//!   B(B − 1)/200, 81 of 8128 pairs at B = 128. An epoch keeps ⌊n/B⌋ steps of B images, so its
//!   steps and images are those of a shuffled epoch; the first stream then meets about half the
//!   training images an epoch.
//!
//! Both draw from `StdRng::seed_from_u64(seeds::epoch(seed, epoch))`, so an epoch's batches
//! depend on the seed and the epoch alone, and `--resume` continues them bit for bit.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::Hash;

/// How an epoch's batches are drawn (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum BatchSampler {
    /// A seeded permutation cut into consecutive batches.
    #[default]
    Shuffled,
    /// HIB §2.3: half a batch from the permutation, half another image of each one's class.
    TwoStreams,
}

impl BatchSampler {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_shuffled(&self) -> bool {
        *self == BatchSampler::Shuffled
    }

    /// The name of the flag's value and of `config.json`'s.
    pub fn name(self) -> &'static str {
        match self {
            BatchSampler::Shuffled => "shuffled",
            BatchSampler::TwoStreams => "two-streams",
        }
    }

    /// The name a table gives it: "two streams" (the default has none).
    pub fn display_name(self) -> Option<&'static str> {
        match self {
            BatchSampler::Shuffled => None,
            BatchSampler::TwoStreams => Some("two streams"),
        }
    }
}

/// The training images of each class, built once per run from its labels.
#[derive(Debug, Clone)]
pub struct ClassMembers {
    /// Per image, the row of `members` that holds its class.
    class_of: Vec<usize>,
    /// Per class, its images in ascending order.
    members: Vec<Vec<i64>>,
}

impl ClassMembers {
    /// Groups the images `0..labels.len()` by label.
    pub fn new<L: Copy + Eq + Hash>(labels: &[L]) -> ClassMembers {
        let mut row: HashMap<L, usize> = HashMap::new();
        let mut members: Vec<Vec<i64>> = Vec::new();
        let class_of = labels
            .iter()
            .enumerate()
            .map(|(i, &label)| {
                let r = *row.entry(label).or_insert_with(|| {
                    members.push(Vec::new());
                    members.len() - 1
                });
                members[r].push(i as i64);
                r
            })
            .collect();
        ClassMembers { class_of, members }
    }

    /// The number of images.
    pub fn len(&self) -> usize {
        self.class_of.len()
    }

    /// Whether there are no images.
    pub fn is_empty(&self) -> bool {
        self.class_of.is_empty()
    }

    /// Another image of `image`'s class, uniformly; any image, uniformly, when its class has no
    /// other.
    fn partner(&self, image: i64, rng: &mut StdRng) -> i64 {
        let class = &self.members[self.class_of[image as usize]];
        if class.len() < 2 {
            return rng.random_range(0..self.len() as i64);
        }
        // Uniform over the class without `image`: draw among the first len − 1 slots and take
        // the last slot's image in place of `image` (which appears exactly once).
        let drawn = class[rng.random_range(0..class.len() - 1)];
        if drawn == image {
            class[class.len() - 1]
        } else {
            drawn
        }
    }
}

/// The images of one epoch's `steps` batches of `batch`, batch after batch (`steps · batch`
/// indices; the whole permutation for [`BatchSampler::Shuffled`]), drawn from `seed` (module
/// docs). `classes` is needed by [`BatchSampler::TwoStreams`] alone, and must hold `n` images.
///
/// # Panics
///
/// When `steps · batch` exceeds `n`, or `classes` is missing or of another size for
/// [`BatchSampler::TwoStreams`]: the trainer derives all three from the training set.
pub fn epoch_batches(
    sampler: BatchSampler,
    classes: Option<&ClassMembers>,
    n: usize,
    batch: usize,
    steps: usize,
    seed: u64,
) -> Vec<i64> {
    assert!(
        steps * batch <= n,
        "{steps} batches of {batch} exceed {n} images"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut order: Vec<i64> = (0..n as i64).collect();
    order.shuffle(&mut rng);
    match sampler {
        BatchSampler::Shuffled => order,
        BatchSampler::TwoStreams => {
            let classes = classes.expect("the two-stream sampler needs the training labels");
            assert_eq!(classes.len(), n, "labels of another training set");
            let first = batch - batch / 2;
            let mut batches = Vec::with_capacity(steps * batch);
            for step in 0..steps {
                let stream = &order[step * first..(step + 1) * first];
                batches.extend(two_stream_batch(stream, batch, classes, &mut rng));
            }
            batches
        }
    }
}

/// One batch of `batch` images from the first stream's ⌈batch/2⌉ `stream`: those, and another
/// image of the class of each of the first ⌊batch/2⌋, shuffled together.
fn two_stream_batch(
    stream: &[i64],
    batch: usize,
    classes: &ClassMembers,
    rng: &mut StdRng,
) -> Vec<i64> {
    let mut out = stream.to_vec();
    for &image in &stream[..batch / 2] {
        out.push(classes.partner(image, rng));
    }
    out.shuffle(rng);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON spelling is the flag's, and the default is the shuffled sampler.
    #[test]
    fn spelled_as_the_flag() {
        for s in [BatchSampler::Shuffled, BatchSampler::TwoStreams] {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name()));
            assert_eq!(serde_json::from_str::<BatchSampler>(&json).unwrap(), s);
        }
        assert!(BatchSampler::default().is_shuffled());
    }

    /// The shuffled sampler is the permutation the trainer drew before the two-stream sampler
    /// existed (`(0..n).shuffle(StdRng::seed_from_u64(seed))`), so earlier runs retrain and
    /// resume bit for bit: the values are rand 0.10's shuffle of 0..12 under seed 7.
    #[test]
    fn shuffled_is_the_earlier_permutation() {
        let got = epoch_batches(BatchSampler::Shuffled, None, 12, 4, 3, 7);
        let mut want: Vec<i64> = (0..12).collect();
        want.shuffle(&mut StdRng::seed_from_u64(7));
        assert_eq!(got, want);
        let mut sorted = got.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..12).collect::<Vec<i64>>());
    }

    /// With classes of exactly two images a partner can only be the twin: a batch is its first
    /// stream and the twins of the first ⌊B/2⌋ of it, shuffled.
    #[test]
    fn a_batch_is_its_first_stream_and_their_partners() {
        let labels: Vec<i64> = (0..40).map(|i| i / 2).collect();
        let classes = ClassMembers::new(&labels);
        let mut rng = StdRng::seed_from_u64(5);
        for (stream, batch) in [
            (vec![3i64, 10, 17, 20], 8usize),
            (vec![3, 10, 17, 20, 31], 9),
        ] {
            let mut got = two_stream_batch(&stream, batch, &classes, &mut rng);
            assert_eq!(got.len(), batch);
            let mut want = stream.clone();
            want.extend([2, 11, 16, 21]);
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want);
        }
    }

    /// Over an epoch, every batch of B holds at least ⌊B/2⌋ matching pairs, and the first
    /// streams of its batches are distinct images (classes of three images, so that a batch's
    /// images beyond its partners are the permutation's).
    #[test]
    fn every_two_stream_batch_holds_half_a_batch_of_matching_pairs() {
        let n = 300;
        let labels: Vec<i64> = (0..n as i64).map(|i| i / 3).collect();
        let classes = ClassMembers::new(&labels);
        for batch in [8usize, 9, 128] {
            let steps = n / batch;
            let all = epoch_batches(BatchSampler::TwoStreams, Some(&classes), n, batch, steps, 3);
            assert_eq!(all.len(), steps * batch);
            for b in all.chunks(batch) {
                let mut matching = 0;
                for i in 0..batch {
                    for j in i + 1..batch {
                        matching += usize::from(labels[b[i] as usize] == labels[b[j] as usize]);
                    }
                }
                assert!(matching >= batch / 2, "{matching} matching pairs in {b:?}");
            }
            // Each batch repeats at most its ⌊B/2⌋ partners: ⌈B/2⌉ distinct images or more.
            for b in all.chunks(batch) {
                let mut d = b.to_vec();
                d.sort_unstable();
                d.dedup();
                assert!(d.len() >= batch - batch / 2, "{b:?}");
            }
        }
    }

    /// Each other image of a class is a partner equally often (3 others, 30 000 draws: each
    /// count within 5 standard deviations of 10 000), and never the image itself.
    #[test]
    fn the_partner_is_uniform_over_the_others_of_its_class() {
        let labels = [0i64, 1, 0, 1, 0, 0, 1];
        let classes = ClassMembers::new(&labels);
        let mut rng = StdRng::seed_from_u64(11);
        let mut counts = HashMap::new();
        let draws = 30_000;
        for _ in 0..draws {
            let p = classes.partner(2, &mut rng);
            assert_ne!(p, 2);
            assert_eq!(labels[p as usize], 0);
            *counts.entry(p).or_insert(0usize) += 1;
        }
        let expected = draws as f64 / 3.0;
        let sd = (draws as f64 * (1.0 / 3.0) * (2.0 / 3.0)).sqrt();
        assert_eq!(counts.len(), 3);
        for (p, c) in counts {
            assert!(
                (c as f64 - expected).abs() < 5.0 * sd,
                "image {p}: {c} of {draws}"
            );
        }
    }

    /// An image alone in its class gets any image as partner, without panicking.
    #[test]
    fn a_class_of_one_draws_any_partner() {
        let labels = [5i64, 1, 1, 2];
        let classes = ClassMembers::new(&labels);
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..100 {
            assert!((0..4).contains(&classes.partner(0, &mut rng)));
        }
    }

    /// An epoch's batches are a function of the seed alone: the same seed gives the same
    /// batches (so `--resume` continues them), another seed other batches.
    #[test]
    fn batches_depend_on_the_seed_alone() {
        let labels: Vec<i64> = (0..64).map(|i| i % 5).collect();
        let classes = ClassMembers::new(&labels);
        let draw = |seed| epoch_batches(BatchSampler::TwoStreams, Some(&classes), 64, 16, 4, seed);
        assert_eq!(draw(9), draw(9));
        assert_ne!(draw(9), draw(10));
    }
}
