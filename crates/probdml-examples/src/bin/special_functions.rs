//! `ln I_ν(x)` and the vMF normaliser `ln C_M(κ)` where the linear-space values overflow `f64`.
use probdml::{special, vmf};
use std::f64::consts::PI;

fn main() {
    // I₀(1) = 1.2660658777520083… (Abramowitz & Stegun, table 9.8).
    let ln_i0 = special::log_bessel_i(0.0, 1.0);
    println!("ln I_0(1)      = {ln_i0:.16}");
    assert!((ln_i0 - 1.266_065_877_752_008_3_f64.ln()).abs() < 1e-15);

    // I₀(10⁴) ≈ 10⁴³⁴², far beyond f64; its logarithm from the asymptotic series
    // x − ½ ln(2πx) + ln(1 + 1/(8x) + 9/(128x²)), whose next term is ~10⁻¹³.
    let x = 1e4_f64;
    let series = x - 0.5 * (2.0 * PI * x).ln() + (1.0 / (8.0 * x) + 9.0 / (128.0 * x * x)).ln_1p();
    let ln_i0_big = special::log_bessel_i(0.0, x);
    println!("ln I_0(1e4)    = {ln_i0_big:.12}  (asymptotic series {series:.12})");
    assert!((ln_i0_big - series).abs() < 1e-11 * series);

    // M = 3: C_3(κ) = κ / (4π sinh κ), so ln C_3(1000) = ln 1000 − ln 2π − 1000 (+ e^{−2000}).
    let ln_c = vmf::log_norm_const(3, 1000.0);
    let closed = 1000f64.ln() - (2.0 * PI).ln() - 1000.0;
    println!("ln C_3(1000)   = {ln_c:.12}  (closed form {closed:.12})");
    assert!((ln_c - closed).abs() < 1e-13 * closed.abs());

    // The dimension of a retrieval embedding: the exact twin (256-bit Bessel series) agrees.
    let (fast, exact) = (
        vmf::log_norm_const(512, 50.0),
        vmf::exact::log_norm_const(512, 50.0),
    );
    println!("ln C_512(50)   = {fast:.12}  (exact twin {exact:.12})");
    assert!((fast - exact).abs() <= 4e-15 * exact.abs());
}
