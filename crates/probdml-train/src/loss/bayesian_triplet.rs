//! The Bayesian triplet loss of chapter 05 as tensor operations (both BTL methods train with
//! it; `crates/probdml-train/tests/train_btl.rs` checks value and autograd gradient against [`probdml::triplet`]'s
//! fast twin, and on tiny sizes its exact twin, on identical f64 inputs).
//!
//! For a batch of `T` triplets with means `μ_a, μ_p, μ_n` (T × D) and variances `σ²` (T × D, or
//! T × 1 for the paper's isotropic embeddings, broadcast over the dimensions):
//!
//! * moments of `τ = ‖a − p‖² − ‖a − n‖²` per dimension, in the cancellation-free form of
//!   [`probdml::triplet::Triplet::moments`]: with `d_p = μ_p − μ_a`, `d_n = μ_n − μ_a`, `e = μ_p − μ_n`,
//!   `E τ_d = d_p² − d_n² + σ_p² − σ_n²` and
//!   `Var τ_d = 2σ_p⁴ + 2σ_n⁴ + 4σ_p²d_p² + 4σ_n²d_n² + 4σ_a²(σ_p² + σ_n² + e²)`, summed over d;
//! * the CLT likelihood `P(τ < −m) ≈ Φ((−m − E τ)/√Var τ)` and `NLL = −ln Φ(z)` through
//!   libtorch's `special_log_ndtr`, accurate in the far tail (its backward is
//!   `φ(z)/Φ(z) = exp(−z²/2 − ln Φ(z))/√(2π)`, finite there too), not the listing's
//!   `−ln(Φ + 10⁻⁸)`, whose gradient vanishes for badly violated triplets;
//! * `Var τ = 0` (only possible with every variance 0) is the deterministic indicator, as in
//!   [`probdml::triplet::nll_gradient`]: a satisfied triplet contributes 0 with zero gradient, a
//!   violated one has NLL +∞ and is an error;
//! * the Gaussian prior's KL `½ Σ_d [μ_d²/s² + r_d − 1 − ln r_d]`, `r = σ²/s²`
//!   ([`probdml::triplet::gaussian_kl`]), with `r − 1 − ln r` as `t − ln1p(t)`, `t = r − 1`;
//! * the uniform prior's `KL(vMF(μ, κ) ‖ U(S^{D−1}))`: libtorch has no Bessel function of
//!   order `D/2 − 1`, so its value and `dKL/dκ = κ(1 − A_D²) − (D − 1)A_D` (from
//!   `KL = ln C_D + κA_D + ln|S^{D−1}|` and `A_D' = 1 − A_D² − (D − 1)A_D/κ`) are evaluated in
//!   f64 by the verified chapter 02 kernels and enter the graph as `KL + (κ − κ̄)·dKL/dκ`
//!   (κ̄ detached): value and gradient are exactly those of the KL.

use crate::error::{TrainError, TrainResult};
use probdml::vmf::{kl_to_uniform, mean_resultant_length_complement};
use tch::{Device, Kind, Tensor};

/// The means and variances of a batch of triplets (T × D means, T × D or T × 1 variances).
#[derive(Debug)]
pub struct TripletBatch<'a> {
    /// Anchor means.
    pub mu_a: &'a Tensor,
    /// Anchor variances.
    pub var_a: &'a Tensor,
    /// Positive means.
    pub mu_p: &'a Tensor,
    /// Positive variances.
    pub var_p: &'a Tensor,
    /// Negative means.
    pub mu_n: &'a Tensor,
    /// Negative variances.
    pub var_n: &'a Tensor,
}

impl TripletBatch<'_> {
    /// Checks shapes (every mean T × D with T, D ≥ 1; every variance T × D or T × 1), finite
    /// entries and variances ≥ 0.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming the tensor and the rule.
    pub fn validate(&self) -> TrainResult<()> {
        let shape = self.mu_a.size();
        if shape.len() != 2 || shape[0] < 1 || shape[1] < 1 {
            return Err(TrainError::config(
                "mu_a",
                format!("{shape:?}"),
                "triplet means are T × D with T, D >= 1",
            ));
        }
        let (t, d) = (shape[0], shape[1]);
        for (name, mu) in [("mu_p", self.mu_p), ("mu_n", self.mu_n)] {
            if mu.size() != shape {
                return Err(TrainError::config(
                    name,
                    format!("{:?}", mu.size()),
                    format!("must have the shape of mu_a, {shape:?}"),
                ));
            }
        }
        for (name, var) in [
            ("var_a", self.var_a),
            ("var_p", self.var_p),
            ("var_n", self.var_n),
        ] {
            let s = var.size();
            if s != [t, d] && s != [t, 1] {
                return Err(TrainError::config(
                    name,
                    format!("{s:?}"),
                    format!(
                        "variances are T × D or T × 1 (isotropic), here [{t}, {d}] or [{t}, 1]"
                    ),
                ));
            }
        }
        let all = [
            ("mu_a", self.mu_a),
            ("var_a", self.var_a),
            ("mu_p", self.mu_p),
            ("var_p", self.var_p),
            ("mu_n", self.mu_n),
            ("var_n", self.var_n),
        ];
        for (name, x) in all {
            if !bool::try_from(x.isfinite().all())? {
                return Err(TrainError::config(
                    name,
                    "a tensor with NaN or infinite entries",
                    "every mean and variance must be finite",
                ));
            }
        }
        for (name, var) in [
            ("var_a", self.var_a),
            ("var_p", self.var_p),
            ("var_n", self.var_n),
        ] {
            if bool::try_from(var.lt(0.0).any())? {
                return Err(TrainError::config(
                    name,
                    format!("min {:e}", var.min().double_value(&[])),
                    "a variance must be >= 0",
                ));
            }
        }
        Ok(())
    }

    /// `(E τ, Var τ)` per triplet (T each), summed over the dimensions (module docs).
    pub fn tau_moments(&self) -> (Tensor, Tensor) {
        let dp = self.mu_p - self.mu_a;
        let dn = self.mu_n - self.mu_a;
        let e = self.mu_p - self.mu_n;
        let (va, vp, vn) = (self.var_a, self.var_p, self.var_n);
        let (dp2, dn2) = (dp.square(), dn.square());
        let kind = self.mu_a.kind();
        let mean = (&dp2 - &dn2 + vp - vn).sum_dim_intlist(1i64, false, kind);
        let var_d = vp.square() * 2.0
            + vn.square() * 2.0
            + vp * &dp2 * 4.0
            + vn * &dn2 * 4.0
            + va * (vp + vn + e.square()) * 4.0;
        // An isotropic T × 1 variance term that did not meet a T × D one stays T × 1: expand
        // before summing over the D dimensions.
        let variance = var_d.expand_as(&dp).sum_dim_intlist(1i64, false, kind);
        (mean, variance)
    }

    /// The mean CLT negative log-likelihood `−(1/T) Σ ln Φ((−m − E τ)/√Var τ)` (BTL eq. (8)
    /// with supplement eq. (26); [`probdml::triplet::nll_gradient`]'s `nll`).
    ///
    /// # Errors
    ///
    /// Invalid input ([`TripletBatch::validate`]), a negative or non-finite `margin`, and a
    /// triplet with `Var τ = 0` that violates the constraint (its NLL is +∞).
    pub fn clt_nll(&self, margin: f64) -> TrainResult<Tensor> {
        self.validate()?;
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(TrainError::config(
                "margin",
                margin,
                "the triplet margin must be finite and >= 0",
            ));
        }
        let (mean, variance) = self.tau_moments();
        let degenerate = variance.le(0.0);
        let violated = degenerate.logical_and(&mean.ge(-margin));
        if bool::try_from(violated.any())? {
            return Err(TrainError::config(
                "var_a",
                "every variance 0 in a violated triplet",
                "with Var τ = 0 the likelihood is the indicator of τ < −m, and this triplet's NLL is +inf",
            ));
        }
        let one = Tensor::ones_like(&variance);
        let safe = variance.where_self(&degenerate.logical_not(), &one);
        let z = (mean.neg() - margin) / safe.sqrt();
        // A satisfied deterministic triplet: z = +∞, ln Φ = 0 with zero gradient.
        let z = z.where_self(
            &degenerate.logical_not(),
            &Tensor::full_like(&z, f64::INFINITY),
        );
        Ok(z.special_log_ndtr().mean(mean.kind()).neg())
    }
}

/// `KL(N(μ, diag σ²) ‖ N(0, s²I))` per row (T): `½ Σ_d [μ_d²/s² + t_d − ln1p(t_d)]`,
/// `t = σ²/s² − 1` ([`probdml::triplet::gaussian_kl`]); `var` is T × D or T × 1 (isotropic).
///
/// # Errors
///
/// A non-positive or non-finite `prior_var`, or variances that are not > 0 and finite (the KL
/// is infinite at 0).
pub fn gaussian_kl_rows(mu: &Tensor, var: &Tensor, prior_var: f64) -> TrainResult<Tensor> {
    if !(prior_var.is_finite() && prior_var > 0.0) {
        return Err(TrainError::config(
            "prior_var",
            prior_var,
            "the prior variance must be finite and > 0",
        ));
    }
    let positive = var.gt(0.0).logical_and(&var.isfinite());
    if !bool::try_from(positive.all())? {
        return Err(TrainError::config(
            "var",
            "a variance that is 0, negative or not finite",
            "a posterior variance must be finite and > 0 (the KL to the prior is infinite at 0)",
        ));
    }
    let t = (var / prior_var - 1.0).expand_as(mu);
    let terms = mu.square() / prior_var + &t - t.log1p();
    Ok(terms.sum_dim_intlist(1i64, false, mu.kind()) * 0.5)
}

/// `KL(vMF(μ, κ) ‖ U(S^{D−1}))` per entry of `kappa` (any shape; the result has its shape),
/// value and gradient from chapter 02 (module docs).
///
/// # Errors
///
/// `dim < 2`, or a κ that is negative or not finite.
pub fn vmf_kl_rows(kappa: &Tensor, dim: usize) -> TrainResult<Tensor> {
    if dim < 2 {
        return Err(TrainError::config(
            "latent-dim",
            dim,
            "a vMF lives on the sphere S^{D-1}, D >= 2",
        ));
    }
    let host: Vec<f64> = Vec::<f64>::try_from(
        &kappa
            .detach()
            .to_kind(Kind::Double)
            .to_device(Device::Cpu)
            .reshape([-1]),
    )?;
    if let Some(k) = host.iter().find(|k| !(k.is_finite() && **k >= 0.0)) {
        return Err(TrainError::config(
            "kappa",
            k,
            "a vMF concentration must be finite and >= 0",
        ));
    }
    let m = dim as f64;
    let (mut kl, mut slope) = (
        Vec::with_capacity(host.len()),
        Vec::with_capacity(host.len()),
    );
    for &k in &host {
        kl.push(kl_to_uniform(dim, k));
        // dKL/dκ = κ(1 − A²) − (M − 1)A with c = 1 − A (no cancellation in 1 − A² = c(2 − c)).
        let c = mean_resultant_length_complement(dim, k);
        slope.push(k * c * (2.0 - c) - (m - 1.0) * (1.0 - c));
    }
    let shape = kappa.size();
    let (kind, device) = (kappa.kind(), kappa.device());
    let kl = Tensor::from_slice(&kl)
        .to_kind(kind)
        .to_device(device)
        .reshape(&shape);
    let slope = Tensor::from_slice(&slope)
        .to_kind(kind)
        .to_device(device)
        .reshape(&shape);
    Ok(kl + (kappa - kappa.detach()) * slope)
}
