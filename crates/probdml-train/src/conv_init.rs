//! How the backbone's convolutions are initialised (chapter 09, "The reference code's
//! protocol"): two uniform laws of different width.
//!
//! * `kaiming` — tch's `ConvConfig::default()`: weights U(−b, b) with b = √(6/fan_in), Kaiming's
//!   bound for a ReLU (gain √2), and biases 0.
//! * `pytorch` — PyTorch's `nn.Conv2d`, and so the LAM reference code's `MnistLinearNet`:
//!   `kaiming_uniform_(a = √5)` for the weights, whose gain √(2/(1 + 5)) makes the bound
//!   b = 1/√fan_in, √6 times narrower; biases U(−1/√fan_in, 1/√fan_in).
//!
//! fan_in = in-channels × kernel height × kernel width (9 for conv1, 288 for conv2).

use serde::{Deserialize, Serialize};

/// The law the convolutions' weights and biases start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ConvInit {
    /// Weights U(±√(6/fan_in)), biases 0 (tch's default).
    #[default]
    Kaiming,
    /// Weights and biases U(±1/√fan_in) (PyTorch's default, the LAM reference code's).
    Pytorch,
}

impl ConvInit {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_kaiming(&self) -> bool {
        *self == ConvInit::Kaiming
    }

    /// The half-width b of the weights' law U(−b, b) for a convolution of fan-in `fan_in`.
    pub fn weight_bound(self, fan_in: i64) -> f64 {
        match self {
            ConvInit::Kaiming => (6.0 / fan_in as f64).sqrt(),
            ConvInit::Pytorch => pytorch_bound(fan_in),
        }
    }

    /// The half-width of the biases' law U(−b, b); 0 for constant-zero biases.
    pub fn bias_bound(self, fan_in: i64) -> f64 {
        match self {
            ConvInit::Kaiming => 0.0,
            ConvInit::Pytorch => pytorch_bound(fan_in),
        }
    }
}

/// 1/√fan_in: the half-width of PyTorch's default law for the weights and biases of
/// `nn.Conv2d` and `nn.Linear` alike (the backbone's last layer always starts from it).
pub fn pytorch_bound(fan_in: i64) -> f64 {
    1.0 / (fan_in as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_the_two_libraries_laws() {
        // conv2 of the backbone: 32 input channels of 3 × 3.
        let fan_in = 32 * 3 * 3;
        assert_eq!(
            ConvInit::Kaiming.weight_bound(fan_in),
            (6.0f64 / 288.0).sqrt()
        );
        assert_eq!(ConvInit::Kaiming.bias_bound(fan_in), 0.0);
        assert_eq!(
            ConvInit::Pytorch.weight_bound(fan_in),
            1.0 / 288.0f64.sqrt()
        );
        assert_eq!(ConvInit::Pytorch.bias_bound(fan_in), 1.0 / 288.0f64.sqrt());
    }

    #[test]
    fn spelled_in_kebab_case() {
        assert_eq!(serde_json::to_value(ConvInit::Pytorch).unwrap(), "pytorch");
        assert_eq!(
            serde_json::from_value::<ConvInit>("kaiming".into()).unwrap(),
            ConvInit::Kaiming
        );
    }
}
