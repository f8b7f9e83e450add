//! The vMF log-normaliser `ln C_M(κ)` as a differentiable tensor, for the losses of the
//! probabilistic methods (chapter 06's EL-vMF and nivMF distances).
//!
//! libtorch has modified Bessel functions of orders 0 and 1 only, and `ln C_M` needs
//! `ln I_{M/2−1}` for any `M` with a uniform relative error from κ → 0 to κ → ∞. So the value
//! and its derivative come from the verified math crate ([`probdml::vmf::log_norm_const`] and
//! `d ln C_M/dκ = −A_M(κ)`, [`probdml::vmf::mean_resultant_length`]), computed on the host from
//! the detached κ, and re-enter the graph as the first-order expansion
//!
//! `ln C_M(κ) ≈ c + (κ − sg(κ)) · (−A_M(sg(κ)))`,  `sg` = stop-gradient,
//!
//! whose value is `c` exactly and whose gradient is `−A_M(κ)` exactly: what back-propagation
//! needs (no method differentiates twice). The host round trip costs one transfer of the κ
//! values per call (B × C of them for EL-vMF, C for the nivMF proxies).

use crate::error::{TrainError, TrainResult};
use probdml::vmf::{log_norm_const, mean_resultant_length};
use tch::{Device, Kind, Tensor};

/// `ln C_M(κ)` elementwise for `kappa` (any shape, entries finite and ≥ 0), differentiable in
/// `kappa` with the exact derivative `−A_M(κ)`.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `what` for a κ that is not finite or is negative (a
/// diverged embedding or proxy), or `dim < 2`.
pub fn log_norm_const_tensor(dim: usize, kappa: &Tensor, what: &str) -> TrainResult<Tensor> {
    if dim < 2 {
        return Err(TrainError::config(
            "dim",
            dim,
            "a vMF lives on S^{M-1}, M >= 2",
        ));
    }
    let shape = kappa.size();
    let detached = kappa.detach();
    let host = Vec::<f64>::try_from(
        &detached
            .to_kind(Kind::Double)
            .to_device(Device::Cpu)
            .contiguous()
            .f_view([-1])?,
    )?;
    if let Some(bad) = host.iter().find(|k| !(k.is_finite() && **k >= 0.0)) {
        return Err(TrainError::config(
            "concentration",
            format!("{what} = {bad}"),
            "a vMF concentration must be finite and >= 0 (the embedding or proxy diverged)",
        ));
    }
    let value: Vec<f64> = host.iter().map(|&k| log_norm_const(dim, k)).collect();
    let slope: Vec<f64> = host
        .iter()
        .map(|&k| -mean_resultant_length(dim, k))
        .collect();
    let as_tensor = |v: &[f64]| -> TrainResult<Tensor> {
        Ok(Tensor::f_from_slice(v)?
            .f_view(shape.as_slice())?
            .f_to_kind(kappa.kind())?
            .f_to_device(kappa.device())?)
    };
    Ok(as_tensor(&value)? + (kappa - &detached) * as_tensor(&slope)?)
}
