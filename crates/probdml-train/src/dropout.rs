//! Where the backbone drops units, for MC dropout (chapter 09): the rate and the layout.
//!
//! Two layouts of the same rate p:
//!
//! * `features` — element-wise dropout on the flattened features, just before the last layer:
//!   each sample is the last layer applied to a thinned feature vector, so its spread is noise on
//!   the last layer's weights scaled by the input.
//! * `channels` — the LAM reference code's MNIST network (`src/models/mnistmodel.py`):
//!   channel-wise dropout (`nn.Dropout2d`, whole feature maps) after the first convolution's
//!   ReLU and after the pool, so each sample also changes what the second convolution sees.
//!   Under data-parallel training its masks are drawn by each process for its own rows, not for
//!   the global batch as the `features` layout's are.

use serde::{Deserialize, Serialize};

/// Where the backbone drops units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum DropoutLayout {
    /// Element-wise on the flattened features, before the last layer.
    #[default]
    Features,
    /// Channel-wise after conv1 · ReLU and after the pool (the LAM reference code's).
    Channels,
}

impl DropoutLayout {
    /// Whether this is the default layout (`config.json` leaves it out, so that runs of the
    /// default write the file older versions wrote).
    pub fn is_features(&self) -> bool {
        *self == DropoutLayout::Features
    }
}

/// The backbone's dropout: rate `p` in [0, 1) (0: none) and its layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dropout {
    /// The probability of dropping a unit (an element or a channel).
    pub p: f64,
    /// Where.
    pub layout: DropoutLayout,
}

impl Dropout {
    /// No dropout: every method but MC dropout.
    pub const NONE: Dropout = Dropout {
        p: 0.0,
        layout: DropoutLayout::Features,
    };

    /// Whether dropout acts at `layout`'s sites.
    pub fn at(&self, layout: DropoutLayout) -> bool {
        self.p > 0.0 && self.layout == layout
    }
}
