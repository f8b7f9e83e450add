//! Special functions: ln I_ν(x) and the Bessel ratio I_{ν+1}(x)/I_ν(x) (spec chapter 01).
//!
//! Never form I_ν(x) itself in `f64`: at ν = 255, x = 10 it is ~10⁻⁴⁰⁰ and at ν = 0, x = 10⁵
//! it is ~10⁴³⁴²⁵. Everything here is in log space.
//!
//! The fast twins live here; the arbitrary-precision references under [`exact`].
pub mod exact;

/// ln I_ν(x), the logarithm of the modified Bessel function of the first kind (stub).
pub fn log_bessel_i(nu: f64, x: f64) -> f64 {
    let _ = (nu, x);
    f64::NAN
}

/// I_{ν+1}(x)/I_ν(x) (stub).
pub fn bessel_i_ratio(nu: f64, x: f64) -> f64 {
    let _ = (nu, x);
    f64::NAN
}
