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

/// The training images of the fit measure: of every number, the first training images (in the
/// N-digit generator's order, each number's in the order drawn) up to as many as the test twin
/// holds of it, so that the two galleries match; a number the test twin lacks gives none.
/// Indices into the training set, ascending.
pub fn fit_images(train_labels: &[usize], test_labels: &[usize]) -> Vec<usize> {
    let mut left = std::collections::HashMap::new();
    for &label in test_labels {
        *left.entry(label).or_insert(0usize) += 1;
    }
    train_labels
        .iter()
        .enumerate()
        .filter_map(|(i, label)| {
            let n = left.get_mut(label)?;
            (*n > 0).then(|| {
                *n -= 1;
                i
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels grouped by number, `per` images of each of `numbers`.
    fn grouped(numbers: &[usize], per: usize) -> Vec<usize> {
        numbers
            .iter()
            .flat_map(|&x| std::iter::repeat_n(x, per))
            .collect()
    }

    /// Every number gives as many images as a test twin holds of it, the first it has.
    #[test]
    fn the_fit_images_are_each_numbers_first() {
        let three = [0, 1, 2];
        assert_eq!(
            fit_images(&grouped(&three, 4), &grouped(&three, 2)),
            vec![0, 1, 4, 5, 8, 9]
        );
        let hundred: Vec<usize> = (0..100).collect();
        assert_eq!(
            fit_images(&grouped(&hundred, 1_000), &grouped(&hundred, 100)).len(),
            10_000
        );
        // A training set smaller than the test twin gives all its images.
        assert_eq!(
            fit_images(&grouped(&three, 2), &grouped(&three, 4)),
            vec![0, 1, 2, 3, 4, 5]
        );
        // The number gap: numbers 1 and 3 trained, 1428 and 142 images each as the generator
        // builds 99 960 and 9 940; a number of the test alone gives none.
        let fit = fit_images(&grouped(&[1, 3], 1_428), &grouped(&[1, 3, 5], 142));
        assert_eq!(fit.len(), 284);
        assert_eq!((fit[141], fit[142], fit[283]), (141, 1_428, 1_428 + 141));
    }
}
