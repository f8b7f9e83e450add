//! The three image sets of a run, loaded from its data options.

use crate::config::{
    DataOptions, DatasetChoice, N_DIGIT_DATA_SEED, N_DIGIT_OCCLUSION_RATE, N_DIGIT_PAPER_IMAGES,
};
use crate::data::{self, ImageSet, NDigitConfig, Partition};
use crate::error::TrainResult;
use crate::report::MNIST_TEST_OOD_SET;
use crate::seeds;
use std::path::Path;

/// The three image sets of a run: training, ID test, OOD.
#[derive(Debug)]
pub struct RunData {
    /// Training images.
    pub train: ImageSet,
    /// In-distribution test images (the retrieval database and queries).
    pub test: ImageSet,
    /// Out-of-distribution images.
    pub ood: ImageSet,
    /// The note stored with every metric about which OOD set this is.
    pub ood_note: String,
    /// N-digit MNIST's training images without their occlusions (the same digits), a K-NN
    /// gallery of [`crate::hib_experiment::galleries`]; None for the other data sets.
    pub train_unoccluded: Option<ImageSet>,
    /// N-digit MNIST under the number gap ([`crate::n_digit_gap::NDigitGap::Number`]): the test twins
    /// [clean, corrupt] of the numbers the training set lacks; `test` and `ood` then hold the
    /// seen numbers. None otherwise.
    pub unseen: Option<[ImageSet; 2]>,
}

/// The first `limit` images of `set`, or all of them; keeps classes interleaved for
/// `synthetic` and takes a prefix (the files' own order) for the real sets.
fn limited(set: ImageSet, limit: Option<usize>) -> ImageSet {
    match limit {
        Some(k) if k < set.len() => set.subset(&(0..k).collect::<Vec<_>>()),
        _ => set,
    }
}

/// Loads the images `data` names (from `data_dir` for the real sets; drawn from `seed`, the
/// run's, for the synthetic one). N-digit MNIST is generated from MNIST's official splits with
/// the fixed [`N_DIGIT_DATA_SEED`], `train_limit` / `test_limit` training and test images (the
/// paper's 100 000 / 10 000 when unset) and the data options' gap; its clean test twin is the
/// test set and its corrupt twin (every digit occluded, HIB Appendix A) the second set, both of
/// the seen numbers under the number gap.
///
/// # Errors
///
/// Missing or corrupt files, naming the file and `bash scripts/setup-data.sh`.
pub fn load_data(data: &DataOptions, seed: u64, data_dir: &Path) -> TrainResult<RunData> {
    let (train, test, ood, note) = match data.dataset {
        DatasetChoice::FashionMnist => (
            data::fashion_mnist(data_dir, Partition::Train)?,
            data::fashion_mnist(data_dir, Partition::Test)?,
            data::mnist_ood(data_dir)?,
            MNIST_TEST_OOD_SET.to_string(),
        ),
        DatasetChoice::Synthetic => {
            let (train, test, ood) = seeds::synthetic(seed);
            (
                data::synthetic(10, 200, 28, train),
                data::synthetic(10, 50, 28, test),
                data::synthetic_ood(500, 28, ood),
                "synthetic OOD images (seeded)".to_string(),
            )
        }
        DatasetChoice::NDigitMnist2 => return n_digit(data, 2, data_dir),
        DatasetChoice::NDigitMnist3 => return n_digit(data, 3, data_dir),
    };
    Ok(RunData {
        train: limited(train, data.train_limit),
        test: limited(test, data.test_limit),
        ood: limited(ood, data.test_limit),
        ood_note: note,
        train_unoccluded: None,
        unseen: None,
    })
}

/// N-digit MNIST of `digits` digits, generated at the sizes the limits name: they are the
/// generator's counts, not prefixes (its images are grouped by number, so a prefix would hold
/// only the first numbers).
fn n_digit(data: &DataOptions, digits: usize, data_dir: &Path) -> TrainResult<RunData> {
    let (train_images, test_images) = N_DIGIT_PAPER_IMAGES;
    let config = NDigitConfig {
        digits,
        train_images: data.train_limit.unwrap_or(train_images),
        test_images: data.test_limit.unwrap_or(test_images),
        occlusion_rate: N_DIGIT_OCCLUSION_RATE,
        seed: N_DIGIT_DATA_SEED,
        gap: data.n_digit_gap,
    };
    let mnist_train = data::mnist(data_dir, Partition::Train)?;
    let sets = data::n_digit_mnist(
        &mnist_train,
        &data::mnist(data_dir, Partition::Test)?,
        &config,
    )?;
    Ok(RunData {
        train: sets.train.to_image_set(),
        test: sets.test_clean.to_image_set(),
        ood: sets.test_corrupt.to_image_set(),
        ood_note: format!(
            "the corrupt twin of the {digits}-digit MNIST test set (every digit occluded, HIB \
             Appendix A), not out-of-distribution classes"
        ),
        train_unoccluded: Some(sets.train.without_occlusions(&mnist_train).to_image_set()),
        unseen: sets
            .unseen
            .map(|twins| twins.map(|twin| twin.to_image_set())),
    })
}
