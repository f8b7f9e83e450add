//! The input geometry of the backbone: the height and width of its one-channel images.
//!
//! MNIST and Fashion-MNIST images are 28 × 28; the N-digit MNIST images of HIB (Oh et al. 2019,
//! §4.1: "an image of size 28 × (N × 28)") are 28 × 56 for N = 2 and 28 × 84 for N = 3. The
//! features F the convolutions hand the last layer follow from the geometry and the layout
//! ([`crate::backbone_layout::BackboneLayout::features`]); every site that needs F (the heads'
//! fan-in, an empty feature matrix) reads it from there, so that no image size is written
//! twice.

use crate::error::{TrainError, TrainResult};

/// The smallest height or width that leaves one pixel under every layout: the reference
/// layout's two unpadded 3×3 convolutions take 4 pixels off a side and its pool halves the
/// rest, (6 − 4)/2 = 1; the HIB layout's two pools leave ⌊⌊6/2⌋/2⌋ = 1.
pub const MIN_SIDE: i64 = 6;
/// The largest height or width accepted: 64 · S² stays far inside an `i64`, and no data set of
/// this crate comes near it.
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
    /// assert_eq!(InputGeometry::new(28, 56)?.width(), 56);
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
                        "the backbone's input must be {MIN_SIDE} to {MAX_SIDE} pixels: below, \
                         the convolutions and pools leave no pixel"
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_geometries() {
        assert_eq!(
            InputGeometry::TWO_DIGITS,
            InputGeometry::new(28, 56).unwrap()
        );
        assert_eq!(
            InputGeometry::THREE_DIGITS,
            InputGeometry::new(28, 84).unwrap()
        );
        assert_eq!(
            InputGeometry::digits_side_by_side(3).unwrap(),
            InputGeometry::THREE_DIGITS
        );
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
