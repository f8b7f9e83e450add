//! ln C_M(κ) and A_M(κ) (stub).

/// ln C_M(κ) (stub).
pub fn log_norm_const(dim: usize, kappa: f64) -> f64 {
    let _ = (dim, kappa);
    f64::NAN
}

/// A_M(κ) (stub).
pub fn mean_resultant_length(dim: usize, kappa: f64) -> f64 {
    let _ = (dim, kappa);
    f64::NAN
}
