//! ln C_M(κ) and A_M(κ), reference (stub).

/// ln C_M(κ), reference (stub).
pub fn log_norm_const(dim: usize, kappa: f64) -> f64 {
    let _ = (dim, kappa);
    f64::NAN
}

/// A_M(κ), reference (stub).
pub fn mean_resultant_length(dim: usize, kappa: f64) -> f64 {
    let _ = (dim, kappa);
    f64::NAN
}
