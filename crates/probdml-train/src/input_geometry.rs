//! The input geometry of the reference backbone: the height and width of its one-channel images,
//! and the number of features F its convolutions hand the last layer.
//!
//! The backbone is conv(3×3) · ReLU · conv(3×3) · ReLU · maxpool 2 (chapter 09): each unpadded
//! 3×3 convolution takes 2 pixels off each side's length and the pool halves it (rounding
//! down), so an H × W image leaves 64 channels of ⌊(H − 4)/2⌋ × ⌊(W − 4)/2⌋. A 28 × 28 MNIST
//! image gives 64 · 12 · 12 = 9216; the N-digit MNIST images of HIB (Oh et al. 2019, §4.1: "an
//! image of size 28 × (N × 28)") give 64 · 12 · 26 = 19 968 for N = 2 and 64 · 12 · 40 = 30 720
//! for N = 3. Every site that needs F (the heads' fan-in, an empty feature matrix) reads it
//! from here, so that no image size is written twice.

use crate::error::{TrainError, TrainResult};

/// Output channels of the backbone's second convolution.
const CHANNELS: i64 = 64;
/// Pixels the two unpadded 3×3 convolutions take off an image's height or width.
const CONVOLUTION_SHRINK: i64 = 4;
/// The smallest height or width that leaves one pixel after the convolutions and the 2×2 pool.
pub const MIN_SIDE: i64 = CONVOLUTION_SHRINK + 2;
/// The largest height or width accepted: 64 · ⌊(S − 4)/2⌋² stays far inside an `i64`, and no
/// data set of this crate comes near it.
pub const MAX_SIDE: i64 = 4096;

/// Height and width of the backbone's one-channel input images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputGeometry {
    height: i64,
    width: i64,
}

impl InputGeometry {
    /// MNIST and Fashion-MNIST: 28 × 28.
    pub const MNIST: InputGeometry = InputGeometry {
        height: 28,
        width: 28,
    };
    /// 2-digit MNIST (HIB §4.1): 28 × 56.
    pub const TWO_DIGITS: InputGeometry = InputGeometry {
        height: 28,
        width: 56,
    };
    /// 3-digit MNIST (HIB §4.1): 28 × 84.
    pub const THREE_DIGITS: InputGeometry = InputGeometry {
        height: 28,
        width: 84,
    };

    /// An H × W geometry.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `height` or `width` when it is below [`MIN_SIDE`]
    /// (the convolutions and the pool would leave no pixel) or above [`MAX_SIDE`].
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml_train::input_geometry::InputGeometry;
    /// assert_eq!(InputGeometry::new(28, 56)?.features(), 64 * 12 * 26);
    /// assert!(InputGeometry::new(5, 28).is_err());
    /// # Ok::<(), probdml_train::TrainError>(())
    /// ```
    pub fn new(height: usize, width: usize) -> TrainResult<Self> {
        let side = |arg: &'static str, value: usize| -> TrainResult<i64> {
            match i64::try_from(value) {
                Ok(v) if (MIN_SIDE..=MAX_SIDE).contains(&v) => Ok(v),
                _ => Err(TrainError::config(
                    arg,
                    value,
                    format!(
                        "the backbone's input must be {MIN_SIDE} to {MAX_SIDE} pixels: two 3×3 \
                         convolutions and a 2×2 pool leave ⌊(side − 4)/2⌋ ≥ 1"
                    ),
                )),
            }
        };
        Ok(Self {
            height: side("height", height)?,
            width: side("width", width)?,
        })
    }

    /// The geometry of images of N MNIST digits side by side: 28 × 28N (HIB §4.1).
    ///
    /// # Errors
    ///
    /// As [`InputGeometry::new`], naming `width`, when 28N is out of range (N = 0 or huge).
    pub fn digits_side_by_side(digits: usize) -> TrainResult<Self> {
        Self::new(28, digits.saturating_mul(28))
    }

    /// Image height H in pixels.
    pub const fn height(self) -> i64 {
        self.height
    }

    /// Image width W in pixels.
    pub const fn width(self) -> i64 {
        self.width
    }

    /// Features F after flattening: 64 · ⌊(H − 4)/2⌋ · ⌊(W − 4)/2⌋ (module docs).
    pub const fn features(self) -> i64 {
        CHANNELS
            * ((self.height - CONVOLUTION_SHRINK) / 2)
            * ((self.width - CONVOLUTION_SHRINK) / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_the_papers_geometries() {
        // 64 channels × the pooled map, counted by hand: (28 − 4)/2 = 12, (56 − 4)/2 = 26,
        // (84 − 4)/2 = 40.
        assert_eq!(InputGeometry::MNIST.features(), 9216);
        assert_eq!(
            InputGeometry::TWO_DIGITS,
            InputGeometry::new(28, 56).unwrap()
        );
        assert_eq!(
            InputGeometry::THREE_DIGITS,
            InputGeometry::new(28, 84).unwrap()
        );
        assert_eq!(InputGeometry::new(28, 56).unwrap().features(), 64 * 12 * 26);
        assert_eq!(
            InputGeometry::digits_side_by_side(3).unwrap().features(),
            64 * 12 * 40
        );
        // An odd map: (29 − 4)/2 rounds down to 12, as max_pool2d does.
        assert_eq!(InputGeometry::new(29, 7).unwrap().features(), 64 * 12);
    }

    #[test]
    fn too_small_or_large_sides_are_named() {
        for (h, w, arg) in [(5, 28, "height"), (28, 0, "width"), (28, 4097, "width")] {
            match InputGeometry::new(h, w) {
                Err(TrainError::InvalidConfig { arg: a, .. }) => assert_eq!(a, arg),
                other => panic!("{h}×{w}: {other:?}"),
            }
        }
        assert!(InputGeometry::new(6, 6).is_ok());
        assert!(matches!(
            InputGeometry::digits_side_by_side(0),
            Err(TrainError::InvalidConfig { arg: "width", .. })
        ));
    }
}
