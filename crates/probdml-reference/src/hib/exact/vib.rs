//! The VIB loss of a pair, its gradient by forward-mode dual numbers.

use num_dual::{Dual64, DualNum};

use crate::error::Result;
use crate::hib::input::vib::{check_vib, VibLoss, VibPair};

/// `ln sigmoid(t)` for dual numbers, the same two branches as the `f64` form.
fn log_sigmoid<D: DualNum<Primitive = f64> + Copy>(t: D) -> D {
    if t.re() >= 0.0 {
        -((-t).exp().ln_1p())
    } else {
        t - t.exp().ln_1p()
    }
}

/// The loss as a plain function of all parameters: means, variances (as duals carrying
/// `∂/∂ ln σ²`), `a`, `b` — the definition written out, no hand-derived derivative.
struct Parameters<D> {
    mu1: Vec<D>,
    var1: Vec<D>,
    mu2: Vec<D>,
    var2: Vec<D>,
    a: D,
    b: D,
}

fn loss<D: DualNum<Primitive = f64> + Copy>(
    p: &Parameters<D>,
    pair: &VibPair<'_>,
    beta: f64,
) -> (D, D, D) {
    let dim = p.mu1.len();
    let draws = |mean: &[D], variance: &[D], noise: &[f64]| -> Vec<Vec<D>> {
        noise
            .chunks_exact(dim)
            .map(|eps| {
                (0..dim)
                    .map(|k| mean[k] + variance[k].sqrt() * eps[k])
                    .collect()
            })
            .collect()
    };
    let z1 = draws(&p.mu1, &p.var1, pair.noise1);
    let z2 = draws(&p.mu2, &p.var2, pair.noise2);
    let mut terms = Vec::with_capacity(z1.len() * z2.len());
    for r1 in &z1 {
        for r2 in &z2 {
            let mut sq = D::from(0.0);
            for k in 0..dim {
                sq += (r1[k] - r2[k]) * (r1[k] - r2[k]);
            }
            let d = if sq.re() > 0.0 {
                sq.sqrt()
            } else {
                D::from(0.0)
            };
            let t = -p.a * d + p.b;
            terms.push(if pair.is_match {
                log_sigmoid(t)
            } else {
                log_sigmoid(-t)
            });
        }
    }
    let max = terms
        .iter()
        .map(|t| t.re())
        .fold(f64::NEG_INFINITY, f64::max);
    let mut sum = D::from(0.0);
    for t in &terms {
        sum += (*t - max).exp();
    }
    let nll = -(sum.ln() + max - (terms.len() as f64).ln());
    let kl = |mean: &[D], variance: &[D]| {
        let mut total = D::from(0.0);
        for k in 0..dim {
            total += (variance[k] + mean[k] * mean[k] - 1.0 - variance[k].ln()) * 0.5;
        }
        total
    };
    let kl_total = kl(&p.mu1, &p.var1) + kl(&p.mu2, &p.var2);
    (nll + kl_total * beta, nll, kl_total)
}

/// The VIB loss of one pair and its gradient: the reference for
/// `hib::vib_loss`. The loss is the definition written out (draws,
/// distances, log-sigmoids, a log-mean-exp, the KL formula term by term) and every partial
/// derivative comes from one forward pass in dual numbers (`num-dual`), direction by direction
/// — no hand-derived gradient.
///
/// # Formula
///
/// As `hib::vib_loss`.
///
/// # Errors
///
/// As `hib::vib_loss`.
///
/// # Examples
///
/// ```
/// use probdml::hib::{self, VibPair};
/// let pair = VibPair {
///     mu1: &[0.2, -0.1], var1: &[0.5, 0.3],
///     mu2: &[0.4, 0.3], var2: &[0.2, 0.6],
///     noise1: &[0.3, -1.2, 0.8, 0.1], noise2: &[-0.5, 0.9],
///     is_match: false,
/// };
/// let fast = hib::vib_loss(&pair, 3.0, 1.0, 0.01)?;
/// let exact = hib::exact::vib_loss(&pair, 3.0, 1.0, 0.01)?;
/// assert!((fast.loss - exact.loss).abs() < 1e-13);
/// assert!((fast.grad_a - exact.grad_a).abs() < 1e-13);
/// # Ok::<(), probdml::Error>(())
/// ```
///
/// Cited: HIB eq. (8).
pub fn vib_loss(pair: &VibPair<'_>, a: f64, b: f64, beta: f64) -> Result<VibLoss> {
    let (dim, _, _) = check_vib(pair, a, b, beta)?;
    let n = 4 * dim + 2;
    // Direction q: the unit vector of parameter q in (μ₁, ln σ₁², μ₂, ln σ₂², a, b).
    let at = |q: Option<usize>| -> Parameters<Dual64> {
        let seed = |index: usize| if Some(index) == q { 1.0 } else { 0.0 };
        let mean = |offset: usize, m: &[f64]| -> Vec<Dual64> {
            (0..dim)
                .map(|k| Dual64::new(m[k], seed(offset + k)))
                .collect()
        };
        // d σ²/d ln σ² = σ².
        let var = |offset: usize, v: &[f64]| -> Vec<Dual64> {
            (0..dim)
                .map(|k| Dual64::new(v[k], v[k] * seed(offset + k)))
                .collect()
        };
        Parameters {
            mu1: mean(0, pair.mu1),
            var1: var(dim, pair.var1),
            mu2: mean(2 * dim, pair.mu2),
            var2: var(3 * dim, pair.var2),
            a: Dual64::new(a, seed(4 * dim)),
            b: Dual64::new(b, seed(4 * dim + 1)),
        }
    };
    let (value, nll, kl) = loss(&at(None), pair, beta);
    let gradient: Vec<f64> = (0..n)
        .map(|q| loss(&at(Some(q)), pair, beta).0.eps)
        .collect();
    Ok(VibLoss {
        loss: value.re,
        nll: nll.re,
        kl: kl.re,
        grad_mu1: gradient[0..dim].to_vec(),
        grad_log_var1: gradient[dim..2 * dim].to_vec(),
        grad_mu2: gradient[2 * dim..3 * dim].to_vec(),
        grad_log_var2: gradient[3 * dim..4 * dim].to_vec(),
        grad_a: gradient[4 * dim],
        grad_b: gradient[4 * dim + 1],
    })
}
