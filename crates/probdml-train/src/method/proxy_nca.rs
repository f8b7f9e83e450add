//! Probabilistic ProxyNCA++ (Kirchhof et al., ECCV 2022, the nivMF paper; chapter 06) as a
//! training method.
//!
//! # Embeddings and proxies
//!
//! The last layer's raw output `z` (not normalised) is the natural parameter of the embedding's
//! vMF: `ζ = vMF(z/‖z‖, κ_z = ‖z‖)` (nivMF §3.2, the κ duality), so the uncertainty score is
//! `1/‖z‖`. One proxy per training class (`C` = the dataset's classes): `proxies.natural`
//! (C × D) is the proxy's natural parameter `ν_p` for EL-vMF and its direction `μ_p = ν_p/‖ν_p‖`
//! for Cos and EL-nivMF; `proxies.log_concentration` (C × D) holds `ln κ_{c,m}` of the nivMF
//! `K_c = diag(κ_c)` (the exponential keeps every `κ > 0`). Both are variables of the method's
//! [`tch::nn::VarStore`] under the path `proxies`, not [`Method::state`]: they are trained by the
//! same optimiser as the network (RMSprop, whose running averages the checkpoint holds, so a
//! resumed run continues bit for bit), and saved with the weights. Method state is for what the
//! optimiser does not touch (online LAM's Λ).
//!
//! # Loss (nivMF eqs. (1), (2), (5)–(7))
//!
//! `L = (1/B) Σ_b −ln softmax_c(−d(ρ_c, ζ_b)/t)[c*_b]` with `d` chosen by `--proxy-distance`:
//!
//! * `cos`: `−μ_pᵀẑ` (plain ProxyNCA++);
//! * `el-vmf`: `ln C(‖ν_z + ν_p‖) − ln C(κ_z) − ln C(κ_p)` (−ln PPK₁ in closed form);
//! * `el-nivmf`: `−ln((1/N) Σ_i f_ρ(x_i))`, `x_i ~ ζ` (N = `--proxy-samples`, a log-sum-exp),
//!   `f_ρ` the exactly normalised nivMF density of chapter 06. The draws are the math crate's
//!   ([`probdml::nivmf::el_nivmf_draws`]: Wood's cosine `w_i` and a normal `g_i` per draw, from a
//!   seed the step draws from libtorch's generator), pushed through
//!   `x_i = w_i ẑ + √(1 − w_i²) t_i/‖t_i‖`, `t_i = g_i − (ẑᵀg_i)ẑ`: the gradient reaches `ẑ`,
//!   not `κ_z` through `w_i` (as in [`probdml::nivmf::proxy_nca_loss`]; the consequence, that the
//!   EL-nivMF loss alone does not train the norm ‖z‖, is measured in the book).
//!
//! `--proxy-omega ω > 0` adds `ω·L_ProxyAnchor(μ_ρ, μ_ζ)` (α = 32, δ = 0.1, Kim et al. 2020), the
//! PANC + EL-nivMF joint loss of eq. (7) with the default distance. The temperature `t` defaults
//! to the nivMF paper's grid (Supp. I): 1/32 for `cos`, 1 otherwise.
//!
//! `ln C_M(κ)` enters through [`crate::loss::vmf_normaliser`]; each loss is the tensor twin of
//! [`probdml::nivmf::proxy_nca_loss`] / [`probdml::nivmf::joint_proxy_loss`], checked on the same
//! inputs and draws by `crates/probdml-train/tests/train_proxy_nca.rs`.

use super::options::MethodOptions;
use crate::config::limits::MAX_METHOD_SAMPLES;
use crate::config::RunOptions;
use crate::error::{TrainError, TrainResult};
use serde::{Deserialize, Serialize};

/// The distance of ProxyNCA++ between a proxy and an embedding (chapter 06).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum ProxyDistanceChoice {
    /// −cos(μ_p, μ_z): plain ProxyNCA++.
    Cos,
    /// −ln PPK₁ between the vMFs of the embedding and the proxy (closed form).
    ElVmf,
    /// −ln of the Monte Carlo mean of the proxy's nivMF density over vMF draws of the embedding.
    #[default]
    ElNivmf,
}

impl ProxyDistanceChoice {
    /// The command-line spelling.
    pub fn name(self) -> &'static str {
        match self {
            ProxyDistanceChoice::Cos => "cos",
            ProxyDistanceChoice::ElVmf => "el-vmf",
            ProxyDistanceChoice::ElNivmf => "el-nivmf",
        }
    }

    /// The temperature used when none is given: from the nivMF paper's grid {1, 1/32, 1/256}
    /// (Supp. I), 1/32 for the cosine (distances in [−1, 1]) and 1 for the probabilistic
    /// distances (log-densities spread over tens of nats at κ ≈ 10).
    pub fn default_temperature(self) -> f64 {
        match self {
            ProxyDistanceChoice::Cos => 1.0 / 32.0,
            ProxyDistanceChoice::ElVmf | ProxyDistanceChoice::ElNivmf => 1.0,
        }
    }
}

/// ProxyNCA++'s options (chapter 06; `probdml train --method proxy-nca`; `config.json`: `"proxy": {…}`
/// beside `"method": "proxy-nca"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::Args))]
pub struct ProxyOptions {
    /// ProxyNCA++: the proxy–embedding distance.
    #[cfg_attr(
        feature = "tch",
        arg(
            id = "proxy_distance",
            long = "proxy-distance",
            value_enum,
            default_value_t = ProxyOptions::DEFAULT.distance
        )
    )]
    pub distance: ProxyDistanceChoice,
    /// ProxyNCA++: softmax temperature t > 0 (default: 1/32 for cos, 1 otherwise).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_temperature", long = "proxy-temperature")
    )]
    pub temperature: Option<f64>,
    /// ProxyNCA++: Monte Carlo draws N per embedding of the EL-nivMF distance (paper: 5–20).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_samples", long = "proxy-samples", default_value_t = ProxyOptions::DEFAULT.samples)
    )]
    pub samples: usize,
    /// ProxyNCA++: weight ω of ProxyAnchor in the joint loss L + ω·L_PA (0: ProxyNCA++ alone).
    #[cfg_attr(
        feature = "tch",
        arg(id = "proxy_omega", long = "proxy-omega", default_value_t = ProxyOptions::DEFAULT.omega)
    )]
    pub omega: f64,
}

impl ProxyOptions {
    /// The defaults: EL-nivMF, the distance's temperature, N = 10 draws, no ProxyAnchor.
    pub const DEFAULT: ProxyOptions = ProxyOptions {
        distance: ProxyDistanceChoice::ElNivmf,
        temperature: None,
        samples: 10,
        omega: 0.0,
    };
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl ProxyOptions {
    /// The softmax temperature t: the one given, or the distance's default.
    pub fn temperature(&self) -> f64 {
        self.temperature
            .unwrap_or_else(|| self.distance.default_temperature())
    }
}

impl MethodOptions for ProxyOptions {
    const NAME: &'static str = "proxy-nca";
    const KEY: Option<&'static str> = Some("proxy");

    fn defaults() -> Self {
        Self::DEFAULT
    }

    fn validate(&self) -> TrainResult<()> {
        let t = self.temperature();
        if !(t.is_finite() && t >= f64::from(f32::MIN_POSITIVE) && t <= f64::from(f32::MAX)) {
            return Err(TrainError::config(
                "proxy-temperature",
                t,
                "the softmax temperature t must be finite and > 0 (within f32's normal range)",
            ));
        }
        if !(1..=MAX_METHOD_SAMPLES).contains(&self.samples) {
            return Err(TrainError::config(
                "proxy-samples",
                self.samples,
                format!("the EL-nivMF Monte Carlo estimate needs 1 to {MAX_METHOD_SAMPLES} draws"),
            ));
        }
        if !(self.omega.is_finite() && self.omega >= 0.0 && self.omega <= f64::from(f32::MAX)) {
            return Err(TrainError::config(
                "proxy-omega",
                self.omega,
                "the ProxyAnchor weight must be finite and >= 0",
            ));
        }
        Ok(())
    }

    fn label(&self, _run: &RunOptions) -> String {
        if self.omega > 0.0 {
            format!(
                "proxy-nca (PANC + {}, ω = {})",
                self.distance.name(),
                self.omega
            )
        } else {
            format!("proxy-nca ({})", self.distance.name())
        }
    }

    #[cfg(feature = "tch")]
    fn build(
        &self,
        run: &RunOptions,
        device: tch::Device,
        seed: u64,
    ) -> TrainResult<Box<dyn super::Method>> {
        Ok(Box::new(ProxyNca::new(self, run, device, seed)?))
    }
}

#[cfg(feature = "tch")]
pub use libtorch::*;

/// The method on libtorch, and the tensor twins of its losses.
#[cfg(feature = "tch")]
mod libtorch {
    use super::{ProxyDistanceChoice, ProxyOptions};
    use crate::config::RunOptions;
    use crate::error::{TrainError, TrainResult};
    use crate::guards::check_collapse;
    use crate::loss::vmf_normaliser::log_norm_const_tensor;
    use crate::method::options::MethodOptions;
    use crate::method::{Batch, Method, Step};
    use crate::network::Network;
    use crate::network::{features_no_grad, normalise};
    use crate::prediction::EVAL_CHUNK;
    use crate::prediction::{PredictRequest, Prediction};
    use probdml::nivmf::el_nivmf_draws;
    use probdml::vmf::VonMisesFisher;
    use rand::SeedableRng;
    use tch::{nn, Device, Kind, Tensor};

    /// Initial proxy norm `‖ν_p‖` and initial nivMF concentrations `κ_{c,m}`: the smallest of the
    /// nivMF paper's grid {10, 50, 200} (Supp. I).
    pub const PROXY_KAPPA_INIT: f64 = 10.0;
    /// ProxyAnchor's scale α (Kim et al. 2020's default).
    pub const ANCHOR_ALPHA: f64 = 32.0;
    /// ProxyAnchor's margin δ (Kim et al. 2020's default).
    pub const ANCHOR_DELTA: f64 = 0.1;

    /// The Monte Carlo base draws of EL-nivMF for a batch: Wood's cosines `w` (B × N) and the
    /// normal vectors `g` (B × N × D), both constants of the graph.
    #[derive(Debug)]
    pub struct ElNivMfDraws {
        /// `w_{b,i}`, B × N.
        pub cosines: Tensor,
        /// `g_{b,i}`, B × N × D.
        pub normals: Tensor,
    }

    impl ElNivMfDraws {
        /// The draws [`probdml::nivmf::proxy_nca_loss`] makes for `ProxyDistance::ElNivMf { samples,
        /// seed }` on the same `embeddings` (B × D; κ_z = ‖z_b‖, row b seeded by `(seed, b)`).
        ///
        /// # Errors
        ///
        /// `samples = 0`, or a row norm that is not finite (from the math crate).
        pub fn new(embeddings: &Tensor, samples: usize, seed: u64) -> TrainResult<Self> {
            if samples == 0 {
                return Err(TrainError::config(
                    "proxy-samples",
                    0,
                    "the EL-nivMF Monte Carlo estimate needs N >= 1 draws",
                ));
            }
            let size = embeddings.size();
            let (b, dim) = (size[0], size[1]);
            let kappas = Vec::<f64>::try_from(
                &embeddings
                    .detach()
                    .to_kind(Kind::Double)
                    .to_device(Device::Cpu)
                    .norm_scalaropt_dim(2.0, [1i64], false),
            )?;
            let (mut w, mut g) = (Vec::new(), Vec::new());
            for (row, &kappa) in kappas.iter().enumerate() {
                for (wi, gi) in el_nivmf_draws(kappa, dim as usize, samples, seed, row)? {
                    w.push(wi);
                    g.extend(gi);
                }
            }
            let n = samples as i64;
            let opts = |t: Tensor| t.to_kind(embeddings.kind()).to_device(embeddings.device());
            Ok(Self {
                cosines: opts(Tensor::f_from_slice(&w)?.f_view([b, n])?),
                normals: opts(Tensor::f_from_slice(&g)?.f_view([b, n, dim])?),
            })
        }
    }

    /// Which distance [`proxy_distances`] computes (with the EL-nivMF draws).
    #[derive(Debug, Clone, Copy)]
    pub enum TensorDistance<'a> {
        /// `−μ_pᵀẑ`.
        Cos,
        /// `−ln PPK₁` between vMFs.
        ElVmf,
        /// `−ln((1/N) Σ_i f_ρ(x_i))` on the given draws.
        ElNivMf(&'a ElNivMfDraws),
    }

    fn unit_rows(x: &Tensor) -> Tensor {
        x / x.norm_scalaropt_dim(2.0, [-1i64], true)
    }

    /// The B × C distances `d(ρ_c, ζ_b)` between `embeddings` (B × D, natural parameters) and
    /// `proxies` (C × D; natural parameters for EL-vMF, directions otherwise) with nivMF
    /// `concentrations` (C × D, all > 0; read by EL-nivMF only).
    ///
    /// # Errors
    ///
    /// Shapes that differ, `D < 2`, a non-finite or negative concentration reaching `ln C_M`, and
    /// draws of the wrong shape.
    pub fn proxy_distances(
        distance: TensorDistance<'_>,
        embeddings: &Tensor,
        proxies: &Tensor,
        concentrations: &Tensor,
    ) -> TrainResult<Tensor> {
        let (ez, pz) = (embeddings.size(), proxies.size());
        if ez.len() != 2 || pz.len() != 2 || ez[1] != pz[1] || ez[1] < 2 {
            return Err(TrainError::config(
                "proxies",
                format!("embeddings {ez:?}, proxies {pz:?}"),
                "embeddings B × D and proxies C × D of one dimension D >= 2",
            ));
        }
        let dim = ez[1];
        Ok(match distance {
            TensorDistance::Cos => -unit_rows(embeddings).matmul(&unit_rows(proxies).tr()),
            TensorDistance::ElVmf => {
                let sum = (embeddings.unsqueeze(1) + proxies.unsqueeze(0)).norm_scalaropt_dim(
                    2.0,
                    [-1i64],
                    false,
                );
                let kz = embeddings.norm_scalaropt_dim(2.0, [1i64], true);
                let kp = proxies.norm_scalaropt_dim(2.0, [1i64], false).unsqueeze(0);
                let m = dim as usize;
                log_norm_const_tensor(m, &sum, "‖ν_z + ν_p‖")?
                    - log_norm_const_tensor(m, &kz, "κ_z = ‖z‖")?
                    - log_norm_const_tensor(m, &kp, "κ_p = ‖ν_p‖")?
            }
            TensorDistance::ElNivMf(draws) => {
                if concentrations.size() != pz {
                    return Err(TrainError::config(
                        "concentrations",
                        format!("{:?}", concentrations.size()),
                        format!("the nivMF concentrations must be C × D = {pz:?}"),
                    ));
                }
                let (wz, gz) = (draws.cosines.size(), draws.normals.size());
                if wz.len() != 2 || wz[0] != ez[0] || wz[1] == 0 || gz != [wz[0], wz[1], dim] {
                    return Err(TrainError::config(
                        "proxy-samples",
                        format!("draws {wz:?} and {gz:?} for embeddings {ez:?}"),
                        "EL-nivMF needs B × N cosines and B × N × D normals, N >= 1",
                    ));
                }
                let unit_z = unit_rows(embeddings).unsqueeze(1); // B × 1 × D
                let g = &draws.normals;
                let t = g - (g * &unit_z).sum_dim_intlist(-1i64, true, g.kind()) * &unit_z;
                let w = draws.cosines.unsqueeze(-1);
                let s = (w.square().neg() + 1.0).clamp_min(0.0).sqrt();
                let x = unit_rows(&(&w * &unit_z + s * unit_rows(&t))); // B × N × D
                nivmf_log_density(&x, &unit_rows(proxies), concentrations)?
                    .logsumexp([1i64], false)
                    .f_sub_scalar((wz[1] as f64).ln())?
                    .neg()
            }
        })
    }

    /// `ln f(x)` of the exactly normalised nivMF (chapter 06) of every proxy at every point:
    /// `x` B × N × D unit, `mu` C × D unit, `kappas` C × D; returns B × N × C.
    ///
    /// `ln f = ln C_M(‖Kμ‖) + Σ ln κ_m − M ln ‖Kx‖ + (Kx)ᵀ(Kμ)/‖Kx‖`.
    fn nivmf_log_density(x: &Tensor, mu: &Tensor, kappas: &Tensor) -> TrainResult<Tensor> {
        let dim = x.size()[2];
        let v = kappas * mu; // C × D
        let kappa_tilde = v.norm_scalaropt_dim(2.0, [1i64], false); // C
        let u = x.unsqueeze(2) * kappas; // B × N × C × D
        let a = u.norm_scalaropt_dim(2.0, [-1i64], false); // B × N × C
        let cross = (&u * &v).sum_dim_intlist(-1i64, false, x.kind()) / &a;
        let log_c = log_norm_const_tensor(dim as usize, &kappa_tilde, "‖Kμ‖ of a nivMF proxy")?;
        let log_det = kappas.log().sum_dim_intlist(1i64, false, x.kind());
        Ok(log_c + log_det - a.log() * dim as f64 + cross)
    }

    /// The ProxyNCA++ loss `(1/B) Σ_b −ln softmax(−d_b/t)[c*_b]` of B × C `distances`.
    ///
    /// # Errors
    ///
    /// `t` not finite and > 0, labels that are not B values in `0..C`.
    pub fn proxy_nca_loss_tensor(
        distances: &Tensor,
        labels: &Tensor,
        temperature: f64,
    ) -> TrainResult<Tensor> {
        if !(temperature.is_finite() && temperature > 0.0) {
            return Err(TrainError::config(
                "proxy-temperature",
                temperature,
                "the softmax temperature t must be finite and > 0",
            ));
        }
        check_labels(labels, distances)?;
        let log_p = (distances / -temperature).log_softmax(1, distances.kind());
        Ok(-log_p
            .gather(1, &labels.unsqueeze(1), false)
            .mean(distances.kind()))
    }

    fn check_labels(labels: &Tensor, distances: &Tensor) -> TrainResult<()> {
        let (b, c) = (distances.size()[0], distances.size()[1]);
        if labels.size() != [b] {
            return Err(TrainError::config(
                "labels",
                format!("{:?}", labels.size()),
                format!("one label per embedding ({b})"),
            ));
        }
        if b > 0 {
            let (lo, hi) = (labels.min().int64_value(&[]), labels.max().int64_value(&[]));
            if lo < 0 || hi >= c {
                return Err(TrainError::config(
                    "labels",
                    format!("range {lo}..={hi}"),
                    format!("every label must name one of the {c} proxies"),
                ));
            }
        }
        Ok(())
    }

    /// ProxyAnchor (Kim et al. 2020, eq. (4)) on the directions of `embeddings` (B × D) and
    /// `proxies` (C × D): the tensor twin of [`probdml::nivmf::proxy_anchor_loss`].
    ///
    /// # Errors
    ///
    /// Labels outside `0..C`, `α ≤ 0` or not finite, a non-finite `δ`.
    pub fn proxy_anchor_loss_tensor(
        embeddings: &Tensor,
        labels: &Tensor,
        proxies: &Tensor,
        alpha: f64,
        delta: f64,
    ) -> TrainResult<Tensor> {
        if !(alpha.is_finite() && alpha > 0.0 && delta.is_finite()) {
            return Err(TrainError::config(
                "proxy-anchor",
                format!("alpha {alpha}, delta {delta}"),
                "ProxyAnchor needs a finite alpha > 0 and a finite delta",
            ));
        }
        let s = unit_rows(embeddings).matmul(&unit_rows(proxies).tr()); // B × C
        check_labels(labels, &s)?;
        let c = s.size()[1];
        let kind = s.kind();
        let positive = labels
            .unsqueeze(1)
            .eq_tensor(&Tensor::arange(c, (Kind::Int64, s.device())).unsqueeze(0));
        // ln(1 + Σ_{x ∈ X} e^{a_x}) per proxy: a log-sum-exp over the column with a 0 prepended.
        let log1p_sum_exp = |a: Tensor, keep: &Tensor| {
            let masked = a.masked_fill(&keep.logical_not(), f64::NEG_INFINITY);
            Tensor::cat(&[Tensor::zeros([1, c], (kind, s.device())), masked], 0)
                .logsumexp([0i64], false)
        };
        let pos_terms = log1p_sum_exp((&s - delta) * -alpha, &positive);
        let neg_terms = log1p_sum_exp((&s + delta) * alpha, &positive.logical_not());
        let with_positive = positive.any_dim(0, false).to_kind(kind);
        let count = with_positive.sum(kind).clamp_min(1.0);
        Ok((pos_terms * with_positive).sum(kind) / count + neg_terms.mean(kind))
    }

    /// The ProxyNCA++ method: the network, its proxies and their nivMF concentrations.
    #[derive(Debug)]
    pub struct ProxyNca {
        network: Network,
        proxies: Tensor,
        log_concentration: Tensor,
        options: ProxyOptions,
    }

    impl ProxyNca {
        /// A fresh network with `C = run.data.dataset.classes()` proxies, seeded: random directions of
        /// norm [`PROXY_KAPPA_INIT`], concentrations [`PROXY_KAPPA_INIT`].
        ///
        /// # Errors
        ///
        /// Invalid ProxyNCA++ options.
        pub fn new(
            options: &ProxyOptions,
            run: &RunOptions,
            device: Device,
            seed: u64,
        ) -> TrainResult<Self> {
            options.validate()?;
            let network = Network::without_dropout(run, device, seed);
            let (c, d) = (
                run.data.dataset.classes() as i64,
                run.model.latent_dim as i64,
            );
            let root = network.vs.root() / "proxies";
            let mut proxies = root.var(
                "natural",
                &[c, d],
                nn::Init::Randn {
                    mean: 0.0,
                    stdev: 1.0,
                },
            );
            tch::no_grad(|| {
                let unit = unit_rows(&proxies) * PROXY_KAPPA_INIT;
                proxies.copy_(&unit);
            });
            let log_concentration = root.var(
                "log_concentration",
                &[c, d],
                nn::Init::Const(PROXY_KAPPA_INIT.ln()),
            );
            Ok(Self {
                network,
                proxies,
                log_concentration,
                options: options.clone(),
            })
        }

        /// The proxies' natural parameters, C × D.
        pub fn proxies(&self) -> &Tensor {
            &self.proxies
        }

        /// The nivMF concentrations `κ_{c,m} = e^{ln κ_{c,m}}`, C × D.
        pub fn concentrations(&self) -> Tensor {
            self.log_concentration.exp()
        }
    }

    impl Method for ProxyNca {
        fn network(&self) -> &Network {
            &self.network
        }
        fn network_mut(&mut self) -> &mut Network {
            &mut self.network
        }

        /// The ProxyNCA++ loss with the chosen distance (plus ω·ProxyAnchor), every image of the
        /// batch against every proxy.
        fn step(&mut self, batch: &Batch<'_>) -> TrainResult<Step> {
            let net = &self.network.net;
            let z = net.head.raw(&net.backbone.features(batch.images, false));
            check_collapse(&z, batch.at)?;
            let concentrations = self.concentrations();
            let draws;
            let distance = match self.options.distance {
                ProxyDistanceChoice::Cos => TensorDistance::Cos,
                ProxyDistanceChoice::ElVmf => TensorDistance::ElVmf,
                ProxyDistanceChoice::ElNivmf => {
                    // A seed from libtorch's generator, which the trainer seeds per epoch: a resumed
                    // run draws the same.
                    let seed = Tensor::randint(i64::MAX, [1], (Kind::Int64, Device::Cpu))
                        .int64_value(&[0]) as u64;
                    draws = ElNivMfDraws::new(&z, self.options.samples, seed)?;
                    TensorDistance::ElNivMf(&draws)
                }
            };
            let d = proxy_distances(distance, &z, &self.proxies, &concentrations)?;
            let nca = proxy_nca_loss_tensor(&d, batch.labels, self.options.temperature())?;
            // Out of place: tch's `+=` is the in-place `add_`, which autograd refuses on a tensor
            // the backward pass still needs.
            let loss = if self.options.omega > 0.0 {
                nca + proxy_anchor_loss_tensor(
                    &z,
                    batch.labels,
                    &self.proxies,
                    ANCHOR_ALPHA,
                    ANCHOR_DELTA,
                )? * self.options.omega
            } else {
                nca
            };
            Ok(Step {
                loss,
                pairs: d.numel() as i64,
                at_bound: None,
            })
        }

        /// Mean direction `ẑ`, uncertainty `1/‖z‖`, and `S` draws of vMF(ẑ, ‖z‖) for the ECE.
        fn predict(&self, images: &Tensor, request: &PredictRequest) -> TrainResult<Prediction> {
            let net = &self.network.net;
            let z = tch::no_grad(|| {
                let f = features_no_grad(&net.backbone, images, EVAL_CHUNK, false, request.device);
                net.head.raw(&f)
            });
            let norms = z.norm_scalaropt_dim(2.0, [1i64], false).clamp_min(1e-12);
            let mean = normalise(&z);
            // The vMF sampler wants unit directions to 1e-12: normalise again in f64 on the host.
            let host_z = Vec::<f64>::try_from(
                &z.to_kind(Kind::Double)
                    .to_device(Device::Cpu)
                    .contiguous()
                    .f_view([-1])?,
            )?;
            let dim = z.size()[1] as usize;
            let n = host_z.len() / dim;
            let s = request.samples.max(1);
            let mut rng = rand::rngs::StdRng::seed_from_u64(request.batch_seed());
            let mut samples = Vec::with_capacity(n * s * dim);
            for row in host_z.chunks_exact(dim) {
                let kappa = row.iter().map(|v| v * v).sum::<f64>().sqrt().max(1e-12);
                let mu: Vec<f64> = row.iter().map(|v| v / kappa).collect();
                let law = VonMisesFisher::new(&mu, kappa)?;
                for _ in 0..s {
                    samples.extend(law.sample(&mut rng));
                }
            }
            let samples =
                Tensor::f_from_slice(&samples)?.f_view([n as i64, s as i64, dim as i64])?;
            Ok(Prediction::Distribution {
                mean,
                uncertainty: norms.reciprocal(),
                samples: Some(samples),
            })
        }
    }
}
