//! Exact twins of the special functions (stub until the arbitrary-precision series lands).

/// ln I_ν(x), reference (stub).
pub fn log_bessel_i(nu: f64, x: f64) -> f64 {
    let _ = (nu, x);
    f64::NAN
}

/// I_{ν+1}(x)/I_ν(x), reference (stub).
pub fn bessel_i_ratio(nu: f64, x: f64) -> f64 {
    let _ = (nu, x);
    f64::NAN
}
