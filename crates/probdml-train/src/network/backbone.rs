//! The reference backbone of chapter 09 and its last layer, kept apart because every LAM method
//! treats the last layer (θ = (W, b), the Laplace parameters) differently from the rest.
//!
//! conv(1→32, 3×3) · ReLU · conv(32→64, 3×3) · ReLU · maxpool 2 · flatten (F features: 64·12·12
//! = 9216 for a 28×28 input, [`InputGeometry::features`] for any other) · [dropout p, MC dropout
//! only] · linear(F → D) · ℓ₂-normalise.

use tch::nn::{self, Module};
use tch::{Device, Kind, Tensor};

use crate::conv_init::ConvInit;
use crate::dropout::{Dropout, DropoutLayout};
use crate::input_geometry::InputGeometry;

/// The network up to (not including) the last layer.
#[derive(Debug)]
pub struct Backbone {
    conv1: nn::Conv2D,
    conv2: nn::Conv2D,
    dropout: Dropout,
    geometry: InputGeometry,
}

/// The last layer y = W x + b; LAM's Laplace approximation lives on (W, b).
#[derive(Debug)]
pub struct LastLayer {
    /// W, D × F.
    pub weight: Tensor,
    /// b, D.
    pub bias: Tensor,
}

/// Backbone and last layer, with their variables in one [`nn::VarStore`].
#[derive(Debug)]
pub struct EmbeddingNet {
    /// The convolutional feature extractor.
    pub backbone: Backbone,
    /// The linear head whose weights LAM samples.
    pub head: LastLayer,
    /// Latent dimension D.
    pub latent_dim: i64,
}

impl Backbone {
    /// Creates the convolutions under `path` for images of `geometry`, initialised by `init`
    /// ([`ConvInit`]: tch's Kaiming-uniform law with zero biases, or PyTorch's `nn.Conv2d` law).
    /// The last layer follows PyTorch under both.
    pub fn new(
        path: &nn::Path<'_>,
        dropout: Dropout,
        geometry: InputGeometry,
        init: ConvInit,
    ) -> Self {
        Self {
            conv1: conv3x3(path / "conv1", 1, 32, init),
            conv2: conv3x3(path / "conv2", 32, 64, init),
            dropout,
            geometry,
        }
    }

    /// The input geometry the backbone was built for.
    pub fn geometry(&self) -> InputGeometry {
        self.geometry
    }

    /// Features F per image ([`InputGeometry::features`]).
    pub fn feature_count(&self) -> i64 {
        self.geometry.features()
    }

    /// Features x (B × F) of images (B × 1 × H × W of the backbone's geometry, values in
    /// [0, 1]). Dropout, when the
    /// backbone has one, is active iff `dropout_on` (MC dropout keeps it on at test time).
    ///
    /// Inside a training step with several own row blocks
    /// ([`crate::data_parallel::row_blocks`]), the convolutions run over each block on
    /// its own, with the block's leaf copies of their parameters, and the blocks' features are
    /// concatenated: the same floating-point work as ranks holding one block each.
    pub fn features(&self, images: &Tensor, dropout_on: bool) -> Tensor {
        let blocks = crate::data_parallel::shard::own_blocks() as i64;
        let x = if blocks == 1 {
            self.convolutions(images, |var| var.shallow_clone(), dropout_on)
        } else {
            let rows = images.size()[0] / blocks;
            let parts: Vec<Tensor> = (0..blocks)
                .map(|j| {
                    self.convolutions(
                        &images.narrow(0, j * rows, rows),
                        |var| crate::data_parallel::row_blocks::block_parameter(j as usize, var),
                        dropout_on,
                    )
                })
                .collect();
            Tensor::cat(&parts, 0)
        };
        let x = if self.dropout.at(DropoutLayout::Features) {
            // Data-parallel training: the own rows of the global batch's mask.
            crate::data_parallel::shard::dropout(&x, self.dropout.p, dropout_on)
        } else {
            x
        };
        // Data-parallel training: inside a step, the whole global batch's features (the own
        // rows keep their graph); the identity otherwise.
        crate::data_parallel::shard::gather_rows(x)
    }

    /// conv1 · ReLU · conv2 · ReLU · maxpool 2 · flatten, each convolution's weight and bias
    /// passed through `param` (the variables themselves, or a row block's copies): the same ATen
    /// call as `nn::Conv2D`'s forward (stride 1, no padding, dilation 1, one group). The
    /// `channels` dropout layout drops whole feature maps after conv1 · ReLU and after the pool
    /// (`nn.Dropout2d` in the LAM reference code), iff `dropout_on`.
    fn convolutions(
        &self,
        images: &Tensor,
        param: impl Fn(&Tensor) -> Tensor,
        dropout_on: bool,
    ) -> Tensor {
        let conv = |x: &Tensor, c: &nn::Conv2D| {
            let bias = c.bs.as_ref().map(&param);
            x.conv2d(&param(&c.ws), bias.as_ref(), [1, 1], [0, 0], [1, 1], 1)
        };
        let channels = |x: Tensor| {
            if self.dropout.at(DropoutLayout::Channels) {
                x.feature_dropout(self.dropout.p, dropout_on)
            } else {
                x
            }
        };
        let x = channels(conv(images, &self.conv1).relu());
        channels(conv(&x, &self.conv2).relu().max_pool2d_default(2)).flatten(1, -1)
    }
}

/// A 3 × 3 convolution from `in_channels` to `out_channels` under `init`, its fan-in derived
/// from the same numbers that shape it. The default law is tch's own `ConvConfig::default()`,
/// untouched, so that its runs draw the same numbers as before the choice existed.
fn conv3x3(path: nn::Path<'_>, in_channels: i64, out_channels: i64, init: ConvInit) -> nn::Conv2D {
    const KERNEL: i64 = 3;
    let config = match init {
        ConvInit::Kaiming => nn::ConvConfig::default(),
        ConvInit::Pytorch => {
            let fan_in = in_channels * KERNEL * KERNEL;
            let uniform = |b: f64| nn::Init::Uniform { lo: -b, up: b };
            nn::ConvConfig {
                ws_init: uniform(init.weight_bound(fan_in)),
                bs_init: uniform(init.bias_bound(fan_in)),
                ..nn::ConvConfig::default()
            }
        }
    };
    nn::conv2d(path, in_channels, out_channels, KERNEL, config)
}

impl LastLayer {
    /// PyTorch's `nn.Linear` initialisation: U(−1/√F, 1/√F) for W and b.
    pub fn new(path: &nn::Path<'_>, features: i64, latent_dim: i64) -> Self {
        let bound = crate::conv_init::pytorch_bound(features);
        let init = nn::Init::Uniform {
            lo: -bound,
            up: bound,
        };
        Self {
            weight: path.var("weight", &[latent_dim, features], init),
            bias: path.var("bias", &[latent_dim], init),
        }
    }

    /// Raw outputs y = x Wᵀ + b (B × D).
    pub fn raw(&self, features: &Tensor) -> Tensor {
        features.linear(&self.weight, Some(&self.bias))
    }
}

/// ℓ₂-normalises the rows of y. The tiny floor keeps a zero row finite; the GGN code refuses
/// zero rows explicitly (chapter 04's "normalisation undefined").
pub fn normalise(y: &Tensor) -> Tensor {
    y / y.norm_scalaropt_dim(2.0, [1i64], true).clamp_min(1e-12)
}

impl EmbeddingNet {
    /// The whole network under `vs.root()` for images of `geometry`, its convolutions
    /// initialised by `init`: `backbone.conv1`,
    /// `backbone.conv2`, `head.weight`, `head.bias`.
    pub fn new(
        vs: &nn::VarStore,
        latent_dim: i64,
        dropout: Dropout,
        geometry: InputGeometry,
        init: ConvInit,
    ) -> Self {
        let root = vs.root();
        Self {
            backbone: Backbone::new(&(&root / "backbone"), dropout, geometry, init),
            head: LastLayer::new(&(&root / "head"), geometry.features(), latent_dim),
            latent_dim,
        }
    }

    /// Unit embeddings z (B × D) with the mean last-layer weights.
    pub fn embed(&self, images: &Tensor, dropout_on: bool) -> Tensor {
        normalise(&self.head.raw(&self.backbone.features(images, dropout_on)))
    }
}

/// Embeds `images` in chunks without building a graph; returns the features (B × F) on
/// `device`. Used by evaluation and the post-hoc Hessian pass.
pub fn features_no_grad(
    backbone: &Backbone,
    images: &Tensor,
    chunk: i64,
    dropout_on: bool,
    device: Device,
) -> Tensor {
    tch::no_grad(|| {
        let n = images.size()[0];
        let mut parts = Vec::new();
        let mut start = 0;
        while start < n {
            let len = chunk.min(n - start);
            let x = images.narrow(0, start, len).to_device(device);
            parts.push(backbone.features(&x, dropout_on));
            start += len;
        }
        if parts.is_empty() {
            Tensor::zeros([0, backbone.feature_count()], (Kind::Float, device))
        } else {
            Tensor::cat(&parts, 0)
        }
    })
}

impl Module for EmbeddingNet {
    fn forward(&self, xs: &Tensor) -> Tensor {
        self.embed(xs, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The network runs at the image sizes of MNIST and of 2- and 3-digit MNIST (HIB §4.1),
    /// with the feature counts counted by hand: 64 · 12 · 12, 64 · 12 · 26, 64 · 12 · 40.
    #[test]
    fn runs_at_each_geometry() {
        for (width, features) in [(28, 9216), (56, 19_968), (84, 30_720)] {
            let geometry = InputGeometry::new(28, width).unwrap();
            tch::manual_seed(3);
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(
                &vs,
                2,
                crate::dropout::Dropout::NONE,
                geometry,
                ConvInit::Kaiming,
            );
            let images = Tensor::rand([3, 1, 28, width as i64], (Kind::Float, Device::Cpu));
            let x = net.backbone.features(&images, false);
            assert_eq!(x.size(), [3, features], "28×{width}");
            assert_eq!(net.head.weight.size(), [2, features]);
            let z = net.embed(&images, false);
            assert_eq!(z.size(), [3, 2]);
            let norms = z.norm_scalaropt_dim(2.0, [1i64], false);
            assert!(norms.allclose(
                &Tensor::ones([3], (Kind::Float, Device::Cpu)),
                1e-5,
                1e-6,
                false
            ));
            let empty = features_no_grad(
                &net.backbone,
                &Tensor::zeros([0, 1, 28, width as i64], (Kind::Float, Device::Cpu)),
                4,
                false,
                Device::Cpu,
            );
            assert_eq!(empty.size(), [0, features]);
        }
    }

    /// The share of the (image, channel) blocks of pooled features that are all zero.
    fn zero_channels(x: &Tensor) -> f64 {
        let blocks = x.view([x.size()[0], 64, -1]);
        let zero = blocks.abs().amax([2i64].as_slice(), false).eq(0.0);
        zero.to_kind(Kind::Double)
            .mean(Kind::Double)
            .double_value(&[])
    }

    /// The `channels` layout drops whole feature maps: at p = ½ the share of all-zero channels
    /// of the pooled features is p + (1 − p)·z₀ (z₀: the share ReLU zeroes alone), within 0.05
    /// (8 standard deviations over 4 096 blocks); the `features` layout, element-wise over a
    /// map's 144 values, zeroes whole maps only where ReLU left few values (measured: 0.061
    /// against z₀ = 0.047), far below. With dropout off both equal the network without dropout.
    #[test]
    fn channel_dropout_drops_whole_feature_maps() {
        let images = {
            tch::manual_seed(4);
            Tensor::rand([64, 1, 28, 28], (Kind::Float, Device::Cpu))
        };
        let net = |layout| {
            tch::manual_seed(3);
            let vs = nn::VarStore::new(Device::Cpu);
            let dropout = Dropout { p: 0.5, layout };
            let net = EmbeddingNet::new(&vs, 2, dropout, InputGeometry::MNIST, ConvInit::Kaiming);
            (vs, net)
        };
        let (vs0, plain) = {
            tch::manual_seed(3);
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(
                &vs,
                2,
                Dropout::NONE,
                InputGeometry::MNIST,
                ConvInit::Kaiming,
            );
            (vs, net)
        };
        let base = plain.backbone.features(&images, false);
        let z0 = zero_channels(&base);
        // The same weights by copy, not by seed: libtorch's generator is one per process, and
        // the other tests of this binary draw from it on their own threads meanwhile.
        let (mut vs1, channels) = net(DropoutLayout::Channels);
        let (mut vs2, features) = net(DropoutLayout::Features);
        vs1.copy(&vs0).unwrap();
        vs2.copy(&vs0).unwrap();
        assert!(channels.backbone.features(&images, false).equal(&base));
        assert!(features.backbone.features(&images, false).equal(&base));
        tch::manual_seed(5);
        let dropped = zero_channels(&channels.backbone.features(&images, true));
        let want = 0.5 + 0.5 * z0;
        assert!(
            (dropped - want).abs() < 0.05,
            "{dropped} against {want} (z₀ = {z0})"
        );
        let elementwise = zero_channels(&features.backbone.features(&images, true));
        assert!(elementwise < want - 0.3, "{elementwise} against {want}");
    }

    /// Each law of [`ConvInit`] reaches the convolutions: every weight within its bound b and
    /// the largest of conv2's 18 432 near it (above 0.99 b: the chance that all fall below is
    /// 0.99^18432 < 10⁻⁸⁰), the biases zero under `kaiming` and spread over ±1/√fan_in under
    /// `pytorch` (conv2's 64 biases: the largest above half the bound, chance 2⁻⁶⁴ otherwise).
    #[test]
    fn each_conv_init_law_reaches_the_convolutions() {
        for init in [ConvInit::Kaiming, ConvInit::Pytorch] {
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(&vs, 2, Dropout::NONE, InputGeometry::MNIST, init);
            for (conv, fan_in) in [(&net.backbone.conv1, 9), (&net.backbone.conv2, 288)] {
                let largest = |t: &Tensor| t.abs().max().double_value(&[]);
                let (w, b) = (init.weight_bound(fan_in), init.bias_bound(fan_in));
                let weights = largest(&conv.ws);
                assert!(
                    weights <= w,
                    "{init:?} fan-in {fan_in}: |w| {weights} > {w}"
                );
                if fan_in == 288 {
                    assert!(weights > 0.99 * w, "{init:?}: largest |w| {weights} of {w}");
                }
                let biases = largest(conv.bs.as_ref().expect("the convolutions have biases"));
                match init {
                    ConvInit::Kaiming => assert_eq!(biases, 0.0),
                    ConvInit::Pytorch => {
                        assert!(biases <= b, "{init:?} fan-in {fan_in}: |b| {biases} > {b}");
                        if fan_in == 288 {
                            assert!(biases > 0.5 * b, "largest |b| {biases} of {b}");
                        }
                    }
                }
            }
        }
    }
}
