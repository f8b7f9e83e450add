//! K-NN identification of one model against other galleries than Table 1's, to locate a gap
//! to the paper's K-NN accuracy: in the gallery's occlusions, in the gallery itself, or in
//! fitting the training images.
//!
//! HIB §4.1 names the task ("a K-nearest neighbors approach with K = 5") but not the gallery.
//! Table 1's numbers here use the training images as they were trained on, 20 % of their digits
//! occluded ([`super::tasks`]). Beside them each run records
//!
//! * the same queries against the training images **without their occlusions** (the same
//!   digit images): what the occluded gallery costs;
//! * each test image against the **other images of its twin** (leave one out, the task of
//!   retrieval benchmarks): a gallery of the test distribution, ten times smaller;
//! * the first [`fit_images`] training images of every number, without occlusions, each against
//!   the others (leave one out): the same task as the clean twin's, at its gallery size, on
//!   images the model was trained on. The distance between it and the clean twin's is the
//!   generalisation gap; its distance to 1 what the model fails to fit.

use serde::{Deserialize, Serialize};

/// K-NN (K = [`super::KNN_K`]) accuracy of one run under the galleries of the module docs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnnGalleries {
    /// Each twin's queries against the training images without their occlusions:
    /// [clean, corrupt].
    pub unoccluded_train: [f64; 2],
    /// Each twin's images against the other images of the same twin: [clean, corrupt].
    pub twin_leave_one_out: [f64; 2],
    /// [`fit_images`] unoccluded training images against each other.
    pub train_leave_one_out: f64,
    /// How many training images that is (the test twin's size, so the two galleries match).
    pub train_queries: usize,
}

/// The training images of the fit measure: the first `test_images / classes` images of every
/// number of a training set of `train_images` grouped by number (the N-digit generator's
/// order, each number's images in the order drawn), so that every number holds as many as in
/// a test twin. Indices into the training set, number by number.
pub fn fit_images(train_images: usize, test_images: usize, classes: usize) -> Vec<usize> {
    let (per_train, per_test) = (train_images / classes, test_images / classes);
    (0..classes)
        .flat_map(|number| (0..per_test.min(per_train)).map(move |k| number * per_train + k))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number gives as many images as a test twin holds of it, the first it has.
    #[test]
    fn the_fit_images_are_each_numbers_first() {
        assert_eq!(fit_images(12, 6, 3), vec![0, 1, 4, 5, 8, 9]);
        assert_eq!(fit_images(100_000, 10_000, 100).len(), 10_000);
        // A training set smaller than the test twin gives all its images.
        assert_eq!(fit_images(6, 12, 3), vec![0, 1, 2, 3, 4, 5]);
    }
}
