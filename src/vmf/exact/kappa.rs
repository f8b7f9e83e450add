//! Reference κ estimators: the same equations, with the reference `A_M` and, for `R̄ > ½`, the
//! complement `1 − A_M(κ) = E[2 sin²(θ/2)]` and the slope `A_M'(κ) = Var[μᵀX]` integrated
//! directly by quadrature (the reference Bessel ratio is returned in `f64`, where `1 − A` is
//! lost as `A → 1`).

use super::marginal::CosineMarginal;
use super::mean_resultant_length;
use crate::error::Result;
use crate::vmf::kappa::{banerjee, check_rbar, solve_increasing, sra_iterate, Residual};

/// The estimating equation on the reference functions.
struct ExactResidual {
    dim: usize,
    rbar: f64,
}

impl Residual for ExactResidual {
    fn eval(&self, kappa: f64) -> (f64, f64) {
        if self.rbar <= 0.5 {
            let a = mean_resultant_length(self.dim, kappa);
            let slope = (1.0 - a) * (1.0 + a) - (self.dim as f64 - 1.0) * a / kappa;
            (a - self.rbar, slope)
        } else {
            let law = CosineMarginal::new(self.dim, kappa).expect("κ > 0 finite inside the solver");
            ((1.0 - self.rbar) - law.mean_complement(), law.variance())
        }
    }
}

/// Reference twin of [`crate::vmf::kappa_mle`].
///
/// # Formula
///
/// $$ \hat\kappa = A_M^{-1}(\bar R) $$
///
/// solved by the same bracketed Newton iteration on the reference `A_M` (`R̄ ≤ ½`) or on the
/// quadrature of `1 − A_M` and `A_M' = Var[μᵀX]` (`R̄ > ½`).
///
/// # Errors
///
/// As [`crate::vmf::kappa_mle`].
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::kappa_mle;
/// let k = 2.0_f64;
/// let rbar = 1.0 / k.tanh() - 1.0 / k;
/// assert!((kappa_mle(3, rbar).unwrap() - 2.0).abs() < 1e-13);
/// ```
pub fn kappa_mle(dim: usize, rbar: f64) -> Result<f64> {
    check_rbar(dim, rbar)?;
    if rbar == 0.0 {
        return Ok(0.0);
    }
    solve_increasing(&ExactResidual { dim, rbar }, banerjee(dim, rbar))
}

/// Reference twin of [`crate::vmf::kappa_sra`]: the same iteration on the reference functions.
///
/// # Formula
///
/// $$ \kappa_0 = \frac{\bar R (M - \bar R^2)}{(1-\bar R)(1+\bar R)},\qquad
///    \kappa_{t+1} = \kappa_t - \frac{A_M(\kappa_t) - \bar R}{A_M'(\kappa_t)} $$
///
/// # Errors
///
/// As [`crate::vmf::kappa_mle`].
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::kappa_sra;
/// assert!((kappa_sra(10, 0.9, 0).unwrap() - 0.9 * 9.19 / 0.19).abs() < 1e-12);
/// ```
pub fn kappa_sra(dim: usize, rbar: f64, newton_steps: usize) -> Result<f64> {
    check_rbar(dim, rbar)?;
    if rbar == 0.0 {
        return Ok(0.0);
    }
    Ok(sra_iterate(
        &ExactResidual { dim, rbar },
        banerjee(dim, rbar),
        newton_steps,
    ))
}

/// Reference twin of [`crate::vmf::mean_resultant_length_complement`], by quadrature.
///
/// # Formula
///
/// $$ 1 - A_M(\kappa) = \frac{\int_0^\pi 2\sin^2(\theta/2)\\, e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta}
///                         {\int_0^\pi e^{\kappa\cos\theta}\sin^{M-2}\theta\\,d\theta} $$
///
/// Raw kernel: NaN for `dim < 2` or `κ` negative, NaN or infinite.
///
/// # Errors
///
/// None (NaN outside the domain).
///
/// # Examples
///
/// ```
/// use probdml::vmf::exact::mean_resultant_length_complement;
/// assert!((mean_resultant_length_complement(3, 1e8) / 1e-8 - 1.0).abs() < 1e-13);
/// ```
pub fn mean_resultant_length_complement(dim: usize, kappa: f64) -> f64 {
    match CosineMarginal::new(dim, kappa) {
        Ok(law) => law.mean_complement(),
        Err(_) => f64::NAN,
    }
}
