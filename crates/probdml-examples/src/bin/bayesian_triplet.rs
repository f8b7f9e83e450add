//! The Bayesian triplet loss: the moments of `τ = ‖a − p‖² − ‖a − n‖²`, the paper's CLT
//! likelihood against the exact one, and the closed-form gradient against finite differences.
use probdml::triplet::{self, Triplet};
use probdml::Gaussian;

fn main() -> Result<(), probdml::Error> {
    // The worked 1-D point of book chapter 05: a ~ N(0.7, 0.5), p ~ N(−0.4, 0.8), n ~ N(1.3, 0.3).
    let (mu_a, var_a, mu_p, var_p, mu_n, var_n) = ([0.7], [0.5], [-0.4], [0.8], [1.3], [0.3]);
    // Each input is named where it is written: a variance cannot stand in for a mean.
    let t = Triplet {
        anchor: Gaussian {
            mu: &mu_a,
            var: &var_a,
        },
        positive: Gaussian {
            mu: &mu_p,
            var: &var_p,
        },
        negative: Gaussian {
            mu: &mu_n,
            var: &var_n,
        },
    };
    let (mean, var) = t.moments()?;
    println!("E τ = {mean}, Var τ = {var}");
    // By hand: E τ = σ²_p + μ²_p − σ²_n − μ²_n − 2μ_a(μ_p − μ_n) = 1.35; Var τ = 13.744.
    assert!((mean - 1.35).abs() < 1e-15 && (var - 13.744).abs() < 1e-12);

    let margin = 0.5;
    let clt = t.log_likelihood(margin)?;
    let exact =
        triplet::exact::log_likelihood(&mu_a, &var_a, &mu_p, &var_p, &mu_n, &var_n, margin)?;
    println!("ln P(τ < −m): CLT {clt:.6}, exact {exact:.6}");
    // mpmath: ln Φ(−1.85/√13.744) = −1.1747901920742457.
    assert!((clt - -1.174_790_192_074_245_7).abs() < 1e-13);

    // The batch gradient of the mean NLL (B = 1) against a central difference in μ_a.
    let g = triplet::nll_gradient(&mu_a, &var_a, &mu_p, &var_p, &mu_n, &var_n, 1, margin)?;
    let nll = |a: f64| {
        let anchor = Gaussian {
            mu: &[a],
            var: &var_a,
        };
        -Triplet { anchor, ..t }.log_likelihood(margin).unwrap()
    };
    let h = 1e-6;
    let finite_difference = (nll(0.7 + h) - nll(0.7 - h)) / (2.0 * h);
    println!(
        "∂NLL/∂μ_a = {:.9} (central difference {finite_difference:.9})",
        g.mu_a[0]
    );
    assert!((g.nll + clt).abs() < 1e-15);
    assert!((g.mu_a[0] - finite_difference).abs() < 1e-7);
    Ok(())
}
