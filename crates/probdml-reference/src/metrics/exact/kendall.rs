//! Kendall's τ-b from all n(n−1)/2 pairs.

use crate::error::Result;
use crate::metrics::input::kendall::{check_pairs, constant_sample};

/// Exact twin of `metrics::kendall_tau_b`: every pair
/// classified as concordant, discordant, tied in x only, tied in y only, or tied in both.
///
/// # Formula
///
/// τ_b = (C − D) / (√(C + D + T_y) · √(C + D + T_x)), T_x / T_y the pairs tied in x only / y only
/// (pairs tied in both count in neither factor), evaluated as scipy does:
/// (C − D)/√(n₀ − n₁)/√(n₀ − n₂), clipped to [−1, 1].
///
/// # Errors
///
/// As `metrics::kendall_tau_b`.
///
/// # Examples
///
/// ```
/// use probdml::metrics::exact;
/// let tau = exact::kendall_tau_b(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0])?;
/// assert!((tau - 2.0 / 6f64.sqrt()).abs() < 1e-15);
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Result<f64> {
    check_pairs(x, y)?;
    let (mut concordant, mut discordant) = (0i128, 0i128);
    let (mut tied_x_only, mut tied_y_only) = (0i128, 0i128);
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            let dx = x[i].partial_cmp(&x[j]).expect("finite");
            let dy = y[i].partial_cmp(&y[j]).expect("finite");
            use std::cmp::Ordering::Equal;
            match (dx, dy) {
                (Equal, Equal) => {}
                (Equal, _) => tied_x_only += 1,
                (_, Equal) => tied_y_only += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    // Pairs not tied in x: C + D + (tied in y only); not tied in y: C + D + (tied in x only).
    let untied_x = concordant + discordant + tied_y_only;
    let untied_y = concordant + discordant + tied_x_only;
    if untied_x == 0 {
        return Err(constant_sample("x"));
    }
    if untied_y == 0 {
        return Err(constant_sample("y"));
    }
    let tau =
        (concordant - discordant) as f64 / (untied_x as f64).sqrt() / (untied_y as f64).sqrt();
    Ok(tau.clamp(-1.0, 1.0))
}
