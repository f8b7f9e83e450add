//! The backbone's convolutional layout: which convolutions and pools turn an image into the
//! features F of the last layer.
//!
//! * `reference` — the LAM reference code's `MnistLinearNet` (chapter 09): conv(1→32, 3×3) ·
//!   ReLU · conv(32→64, 3×3) · ReLU · maxpool 2, unpadded. An H × W image leaves 64 maps of
//!   ⌊(H − 4)/2⌋ × ⌊(W − 4)/2⌋: 64 · 12 · 12 = 9216 for MNIST, 64 · 12 · 26 = 19 968 for
//!   2-digit MNIST.
//! * `hib` — the hedged instance embedding paper's (Oh et al., ICLR 2019, §4.1: "2
//!   convolutional layers, with 5 × 5 filters, each followed by max pooling, and then a fully
//!   connected layer mapping to D dimensions"): conv(1→32, 5×5) · ReLU · maxpool 2 ·
//!   conv(32→64, 5×5) · ReLU · maxpool 2. The paper states neither the channel counts nor the
//!   padding: the channels are the reference layout's, so that the two layouts differ only in
//!   what the paper states, and the padding is TensorFlow's `SAME` (2 pixels), so that each
//!   pool alone shrinks the map: 64 · ⌊⌊H/2⌋/2⌋ · ⌊⌊W/2⌋/2⌋, 64 · 7 · 14 = 6272 for 2-digit
//!   MNIST, about a third of the reference layout's.
//!
//! Both layouts' convolutions start from the law [`crate::conv_init::ConvInit`] chooses, and
//! both keep the variable names `backbone.conv1` and `backbone.conv2`; the shapes differ, so a
//! checkpoint loads only into the layout its `config.json` names.

use crate::input_geometry::InputGeometry;
use serde::{Deserialize, Serialize};

/// Output channels of the first convolution.
pub const CHANNELS_1: i64 = 32;
/// Output channels of the second convolution, the feature maps that are flattened.
pub const CHANNELS_2: i64 = 64;

/// Which convolutions and pools the backbone applies (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum BackboneLayout {
    /// Two unpadded 3×3 convolutions, one 2×2 pool after both (the LAM reference code's).
    #[default]
    Reference,
    /// Two 5×5 convolutions, each padded to keep its map and followed by a 2×2 pool (HIB §4.1).
    Hib,
}

impl BackboneLayout {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_reference(&self) -> bool {
        *self == BackboneLayout::Reference
    }

    /// Side length of each convolution's square kernel.
    pub const fn kernel(self) -> i64 {
        match self {
            BackboneLayout::Reference => 3,
            BackboneLayout::Hib => 5,
        }
    }

    /// Zero pixels padded on each side of a convolution's input: none, or (kernel − 1)/2, which
    /// keeps the map's size (`SAME`).
    pub const fn padding(self) -> i64 {
        match self {
            BackboneLayout::Reference => 0,
            BackboneLayout::Hib => (self.kernel() - 1) / 2,
        }
    }

    /// Whether a 2×2 pool follows the first convolution too (it always follows the second).
    pub const fn pools_after_first(self) -> bool {
        match self {
            BackboneLayout::Reference => false,
            BackboneLayout::Hib => true,
        }
    }

    /// The length a side of `side` pixels has after the convolutions and pools: a convolution
    /// maps s to s + 2·padding − kernel + 1, a pool s to ⌊s/2⌋ (as `max_pool2d` rounds).
    pub const fn side_after(self, side: i64) -> i64 {
        let convolved = side + 2 * self.padding() - self.kernel() + 1;
        let first = if self.pools_after_first() {
            convolved / 2
        } else {
            convolved
        };
        (first + 2 * self.padding() - self.kernel() + 1) / 2
    }

    /// Features F per image of `geometry`, the last layer's fan-in: [`CHANNELS_2`] maps of
    /// [`BackboneLayout::side_after`] each side.
    ///
    /// # Examples
    ///
    /// ```
    /// use probdml_train::backbone_layout::BackboneLayout;
    /// use probdml_train::input_geometry::InputGeometry;
    /// let two_digits = InputGeometry::TWO_DIGITS;
    /// assert_eq!(BackboneLayout::Reference.features(two_digits), 64 * 12 * 26);
    /// assert_eq!(BackboneLayout::Hib.features(two_digits), 64 * 7 * 14);
    /// ```
    pub const fn features(self, geometry: InputGeometry) -> i64 {
        CHANNELS_2 * self.side_after(geometry.height()) * self.side_after(geometry.width())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feature counts of the papers' image sizes, counted by hand from the layers.
    #[test]
    fn features_of_the_papers_geometries() {
        let reference = BackboneLayout::Reference;
        // (28 − 2 − 2)/2 = 12, (56 − 4)/2 = 26, (84 − 4)/2 = 40.
        assert_eq!(reference.features(InputGeometry::MNIST), 9216);
        assert_eq!(reference.features(InputGeometry::TWO_DIGITS), 64 * 12 * 26);
        assert_eq!(
            reference.features(InputGeometry::THREE_DIGITS),
            64 * 12 * 40
        );
        // An odd map: (29 − 4)/2 rounds down to 12, as max_pool2d does.
        let odd = InputGeometry::new(29, 7).unwrap();
        assert_eq!(reference.features(odd), 64 * 12);
        let hib = BackboneLayout::Hib;
        // SAME 5×5 convolutions keep the map; the pools halve it twice: 28 → 14 → 7,
        // 56 → 28 → 14, 84 → 42 → 21.
        assert_eq!(hib.features(InputGeometry::MNIST), 64 * 7 * 7);
        assert_eq!(hib.features(InputGeometry::TWO_DIGITS), 64 * 7 * 14);
        assert_eq!(hib.features(InputGeometry::THREE_DIGITS), 64 * 7 * 21);
        // 29 → 14 → 7 and 7 → 3 → 1, each pool rounding down.
        assert_eq!(hib.features(odd), 64 * 7);
    }

    /// The smallest geometry [`InputGeometry::new`] accepts leaves at least one pixel under
    /// every layout.
    #[test]
    fn the_smallest_geometry_leaves_a_pixel_under_every_layout() {
        let side = crate::input_geometry::MIN_SIDE;
        let smallest = InputGeometry::new(side as usize, side as usize).unwrap();
        // Reference: (6 − 4)/2 = 1; HIB: 6 → 3 → 1.
        assert_eq!(side, 6);
        for layout in [BackboneLayout::Reference, BackboneLayout::Hib] {
            assert_eq!(layout.features(smallest), 64, "{layout:?}");
        }
    }
}
