//! The backbone of chapter 09 and its last layer, kept apart because every LAM method treats the
//! last layer (θ = (W, b), the Laplace parameters) differently from the rest.
//!
//! The convolutions of the layout ([`BackboneLayout`]; by default the LAM reference code's
//! conv(1→32, 3×3) · ReLU · conv(32→64, 3×3) · ReLU · maxpool 2) · flatten (F features: 64·12·12
//! = 9216 for a 28×28 input, [`BackboneLayout::features`] for any other) · [dropout p, MC
//! dropout only] · linear(F → D) · ℓ₂-normalise.

use tch::nn::{self, Module};
use tch::{Device, Kind, Tensor};

use crate::backbone_layout::{BackboneLayout, CHANNELS_1, CHANNELS_2};
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
    layout: BackboneLayout,
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
    /// Creates the convolutions of `layout` under `path` for images of `geometry`, initialised
    /// by `init` ([`ConvInit`]: tch's Kaiming-uniform law with zero biases, or PyTorch's
    /// `nn.Conv2d` law). The last layer follows PyTorch under both.
    pub fn new(
        path: &nn::Path<'_>,
        dropout: Dropout,
        geometry: InputGeometry,
        layout: BackboneLayout,
        init: ConvInit,
    ) -> Self {
        Self {
            conv1: convolution(path / "conv1", 1, CHANNELS_1, layout, init),
            conv2: convolution(path / "conv2", CHANNELS_1, CHANNELS_2, layout, init),
            dropout,
            geometry,
            layout,
        }
    }

    /// The input geometry the backbone was built for.
    pub fn geometry(&self) -> InputGeometry {
        self.geometry
    }

    /// The layout of the convolutions.
    pub fn layout(&self) -> BackboneLayout {
        self.layout
    }

    /// Features F per image ([`BackboneLayout::features`]).
    pub fn feature_count(&self) -> i64 {
        self.layout.features(self.geometry)
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

    /// conv1 · ReLU · [maxpool 2, HIB layout] · conv2 · ReLU · maxpool 2 · flatten, each
    /// convolution's weight and bias passed through `param` (the variables themselves, or a row
    /// block's copies): the same ATen call as `nn::Conv2D`'s forward (stride 1, the layout's
    /// padding, dilation 1, one group). The `channels` dropout layout drops whole feature maps
    /// after the first block and after the last pool (`nn.Dropout2d` in the LAM reference code),
    /// iff `dropout_on`.
    fn convolutions(
        &self,
        images: &Tensor,
        param: impl Fn(&Tensor) -> Tensor,
        dropout_on: bool,
    ) -> Tensor {
        let pad = self.layout.padding();
        let conv = |x: &Tensor, c: &nn::Conv2D| {
            let bias = c.bs.as_ref().map(&param);
            x.conv2d(&param(&c.ws), bias.as_ref(), [1, 1], [pad, pad], [1, 1], 1)
        };
        let channels = |x: Tensor| {
            if self.dropout.at(DropoutLayout::Channels) {
                x.feature_dropout(self.dropout.p, dropout_on)
            } else {
                x
            }
        };
        let x = conv(images, &self.conv1).relu();
        let x = if self.layout.pools_after_first() {
            x.max_pool2d_default(2)
        } else {
            x
        };
        let x = channels(x);
        channels(conv(&x, &self.conv2).relu().max_pool2d_default(2)).flatten(1, -1)
    }
}

/// A convolution of `layout`'s kernel from `in_channels` to `out_channels` under `init`, its
/// fan-in derived from the same numbers that shape it. The default law is tch's own
/// `ConvConfig::default()`, untouched, so that its runs draw the same numbers as before the
/// choice existed. The padding is the forward's ([`Backbone::features`]), not the config's.
fn convolution(
    path: nn::Path<'_>,
    in_channels: i64,
    out_channels: i64,
    layout: BackboneLayout,
    init: ConvInit,
) -> nn::Conv2D {
    let kernel = layout.kernel();
    let config = match init {
        ConvInit::Kaiming => nn::ConvConfig::default(),
        ConvInit::Pytorch => {
            let fan_in = in_channels * kernel * kernel;
            let uniform = |b: f64| nn::Init::Uniform { lo: -b, up: b };
            nn::ConvConfig {
                ws_init: uniform(init.weight_bound(fan_in)),
                bs_init: uniform(init.bias_bound(fan_in)),
                ..nn::ConvConfig::default()
            }
        }
    };
    nn::conv2d(path, in_channels, out_channels, kernel, config)
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
    /// The whole network under `vs.root()` for images of `geometry`, its convolutions those of
    /// `layout`, initialised by `init`: `backbone.conv1`, `backbone.conv2`, `head.weight`,
    /// `head.bias`.
    pub fn new(
        vs: &nn::VarStore,
        latent_dim: i64,
        dropout: Dropout,
        geometry: InputGeometry,
        layout: BackboneLayout,
        init: ConvInit,
    ) -> Self {
        let root = vs.root();
        let backbone = Backbone::new(&(&root / "backbone"), dropout, geometry, layout, init);
        Self {
            head: LastLayer::new(&(&root / "head"), backbone.feature_count(), latent_dim),
            backbone,
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

    /// The network runs at the image sizes of MNIST and of 2- and 3-digit MNIST (HIB §4.1)
    /// under each layout, with the feature counts counted by hand: 64 · 12 · 12, 64 · 12 · 26,
    /// 64 · 12 · 40 (reference); 64 · 7 · 7, 64 · 7 · 14, 64 · 7 · 21 (HIB).
    #[test]
    fn runs_at_each_geometry() {
        for (layout, width, features) in [
            (BackboneLayout::Reference, 28, 9216),
            (BackboneLayout::Reference, 56, 19_968),
            (BackboneLayout::Reference, 84, 30_720),
            (BackboneLayout::Hib, 28, 3136),
            (BackboneLayout::Hib, 56, 6272),
            (BackboneLayout::Hib, 84, 9408),
        ] {
            let geometry = InputGeometry::new(28, width).unwrap();
            tch::manual_seed(3);
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(
                &vs,
                2,
                crate::dropout::Dropout::NONE,
                geometry,
                layout,
                ConvInit::Kaiming,
            );
            let images = Tensor::rand([3, 1, 28, width as i64], (Kind::Float, Device::Cpu));
            let x = net.backbone.features(&images, false);
            assert_eq!(x.size(), [3, features], "{layout:?} 28×{width}");
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
            let net = EmbeddingNet::new(
                &vs,
                2,
                dropout,
                InputGeometry::MNIST,
                BackboneLayout::Reference,
                ConvInit::Kaiming,
            );
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
                BackboneLayout::Reference,
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

    /// Each law of [`ConvInit`] reaches the convolutions of each layout: every weight within
    /// its bound b and the largest of conv2's (18 432 of 3 × 3, 51 200 of 5 × 5) near it (above
    /// 0.99 b: the chance that all fall below is 0.99^18432 < 10⁻⁸⁰), the biases zero under
    /// `kaiming` and spread over ±1/√fan_in under `pytorch` (conv2's 64 biases: the largest
    /// above half the bound, chance 2⁻⁶⁴ otherwise). The fan-ins are counted by hand: 1 · 3²,
    /// 32 · 3², 1 · 5², 32 · 5².
    #[test]
    fn each_conv_init_law_reaches_the_convolutions() {
        let layouts = [
            (BackboneLayout::Reference, [9, 288]),
            (BackboneLayout::Hib, [25, 800]),
        ];
        for (init, (layout, [fan_in_1, fan_in_2])) in [ConvInit::Kaiming, ConvInit::Pytorch]
            .into_iter()
            .flat_map(|init| layouts.map(|l| (init, l)))
        {
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(&vs, 2, Dropout::NONE, InputGeometry::MNIST, layout, init);
            let convolutions = [
                (&net.backbone.conv1, fan_in_1),
                (&net.backbone.conv2, fan_in_2),
            ];
            for (conv, fan_in) in convolutions {
                let largest = |t: &Tensor| t.abs().max().double_value(&[]);
                let (w, b) = (init.weight_bound(fan_in), init.bias_bound(fan_in));
                let weights = largest(&conv.ws);
                assert!(
                    weights <= w,
                    "{init:?} fan-in {fan_in}: |w| {weights} > {w}"
                );
                if fan_in == fan_in_2 {
                    assert!(weights > 0.99 * w, "{init:?}: largest |w| {weights} of {w}");
                }
                let biases = largest(conv.bs.as_ref().expect("the convolutions have biases"));
                match init {
                    ConvInit::Kaiming => assert_eq!(biases, 0.0),
                    ConvInit::Pytorch => {
                        assert!(biases <= b, "{init:?} fan-in {fan_in}: |b| {biases} > {b}");
                        if fan_in == fan_in_2 {
                            assert!(biases > 0.5 * b, "largest |b| {biases} of {b}");
                        }
                    }
                }
            }
        }
    }

    /// The HIB layout (HIB §4.1) is conv1 · ReLU · pool · conv2 · ReLU · pool with maps kept
    /// by the padding, as tch's own `nn::Conv2D` modules configured with padding 2 and its
    /// `max_pool2d` compute it from the same weights; and the reference layout is conv1 · ReLU ·
    /// conv2 · ReLU · pool, unpadded, as before the layouts existed.
    #[test]
    fn each_layout_composes_its_layers_in_order() {
        let images = {
            tch::manual_seed(8);
            Tensor::rand([4, 1, 28, 56], (Kind::Float, Device::Cpu))
        };
        for layout in [BackboneLayout::Reference, BackboneLayout::Hib] {
            let vs = nn::VarStore::new(Device::Cpu);
            let net = EmbeddingNet::new(
                &vs,
                2,
                Dropout::NONE,
                InputGeometry::TWO_DIGITS,
                layout,
                ConvInit::Pytorch,
            );
            let mut modules = nn::VarStore::new(Device::Cpu);
            let padding = match layout {
                BackboneLayout::Reference => 0,
                BackboneLayout::Hib => 2,
            };
            let config = nn::ConvConfig {
                padding,
                ..nn::ConvConfig::default()
            };
            let kernel = match layout {
                BackboneLayout::Reference => 3,
                BackboneLayout::Hib => 5,
            };
            let path = modules.root() / "backbone";
            let conv1 = nn::conv2d(&path / "conv1", 1, 32, kernel, config);
            let conv2 = nn::conv2d(&path / "conv2", 32, 64, kernel, config);
            // The same weights by name: every variable of `modules` from `vs`.
            modules.copy(&vs).unwrap();
            let first = images.apply(&conv1).relu();
            let first = match layout {
                BackboneLayout::Reference => first,
                BackboneLayout::Hib => first.max_pool2d_default(2),
            };
            let want = first
                .apply(&conv2)
                .relu()
                .max_pool2d_default(2)
                .flatten(1, -1);
            let got = net.backbone.features(&images, false);
            assert_eq!(got.size(), want.size(), "{layout:?}");
            assert!(got.equal(&want), "{layout:?}");
        }
    }
}
