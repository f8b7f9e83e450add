//! MC dropout (chapter 09): dropout p in the backbone during training (after its features, or
//! channel-wise inside it: [`crate::dropout`]), kept on at test time; S masks give S embeddings
//! per image.

use super::options::MethodOptions;
use crate::dropout::DropoutLayout;
use crate::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};

#[cfg(feature = "tch")]
use crate::config::RunOptions;

/// MC dropout's options (`config.json`: `"dropout"` beside `"method": "mc-dropout"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct McDropoutOptions {
    /// Dropout probability (MC dropout).
    #[cfg_attr(
        feature = "tch",
        arg(long, default_value_t = McDropoutOptions::DEFAULT.dropout)
    )]
    pub dropout: f64,
    /// Where MC dropout drops units: `features` (element-wise, before the last layer) or
    /// `channels` (whole feature maps after conv1 and after the pool, the LAM reference code's).
    #[cfg_attr(
        feature = "tch",
        arg(long, value_enum, default_value_t = McDropoutOptions::DEFAULT.dropout_layout)
    )]
    #[serde(default, skip_serializing_if = "DropoutLayout::is_features")]
    pub dropout_layout: DropoutLayout,
}

impl McDropoutOptions {
    /// p = 0.05, on the features.
    pub const DEFAULT: McDropoutOptions = McDropoutOptions {
        dropout: 0.05,
        dropout_layout: DropoutLayout::Features,
    };
}

impl Default for McDropoutOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl MethodOptions for McDropoutOptions {
    const NAME: &'static str = "mc-dropout";

    fn defaults() -> Self {
        Self::DEFAULT
    }

    fn validate(&self) -> TrainResult<()> {
        if !(0.0..1.0).contains(&self.dropout) {
            return Err(TrainError::config(
                "dropout",
                self.dropout,
                "must lie in [0, 1)",
            ));
        }
        Ok(())
    }

    /// [`super::options::overlay`] reads the fields the defaults write, and the defaults leave
    /// the default layout out: the layout is read here.
    fn from_flat(flat: &serde_json::Map<String, serde_json::Value>) -> serde_json::Result<Self> {
        let mut options = super::options::overlay(&Self::defaults(), flat)?;
        if let Some(layout) = flat.get("dropout_layout") {
            options.dropout_layout = serde_json::from_value(layout.clone())?;
        }
        Ok(options)
    }

    fn label(&self, _run: &crate::config::RunOptions) -> String {
        match self.dropout_layout {
            DropoutLayout::Features => Self::NAME.to_string(),
            DropoutLayout::Channels => format!("{} (channels)", Self::NAME),
        }
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(McDropout::new(self, run, device, seed)))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch.
#[cfg(feature = "tch")]
mod libtorch {
    use super::McDropoutOptions;
    use crate::config::RunOptions;
    use crate::error::TrainResult;
    use crate::method::deterministic::contrastive_step;
    use crate::method::{Batch, Method, Step};
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise};
    use crate::prediction::EVAL_CHUNK;
    use crate::prediction::{PredictRequest, Prediction};
    use tch::{Device, Tensor};

    /// The MC-dropout method.
    #[derive(Debug)]
    pub struct McDropout {
        network: Network,
        pairs: crate::config::PairOptions,
    }

    impl McDropout {
        /// A fresh network with dropout `options.dropout`, seeded.
        pub fn new(
            options: &McDropoutOptions,
            run: &RunOptions,
            device: Device,
            seed: u64,
        ) -> Self {
            let network = Network::new(
                &run.model,
                run.data.geometry(),
                device,
                seed,
                crate::dropout::Dropout {
                    p: options.dropout,
                    layout: options.dropout_layout,
                },
            );
            Self {
                network,
                pairs: run.pairs.clone(),
            }
        }
    }

    impl Method for McDropout {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            contrastive_step(&self.network.net, batch, &self.pairs)
        }
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            let per_sample: Vec<Tensor> = tch::no_grad(|| {
                tch::manual_seed(request.batch_seed() as i64);
                (0..request.samples)
                    .map(|_| {
                        let f = features_no_grad(
                            &self.network.net.backbone,
                            images,
                            EVAL_CHUNK,
                            true,
                            request.device,
                        );
                        normalise(&self.network.net.head.raw(&f))
                    })
                    .collect()
            });
            Ok(Prediction::Samples(Tensor::f_stack(&per_sample, 1)?))
        }
    }
}
