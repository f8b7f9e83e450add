//! The three image sets of a run, loaded from its data options.

use crate::config::{DataOptions, DatasetChoice};
use crate::data::{self, ImageSet, Partition};
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
/// run's, for the synthetic one).
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
    };
    Ok(RunData {
        train: limited(train, data.train_limit),
        test: limited(test, data.test_limit),
        ood: limited(ood, data.test_limit),
        ood_note: note,
    })
}
