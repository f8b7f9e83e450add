//! Hedged instance embeddings (HIB): the match probability of two Gaussian embeddings by the
//! paper's Monte Carlo estimate, against the exact value.
use probdml::hib::{self, HedgedEmbedding, SoftThreshold};
use probdml::Gaussian;
use rand::{rngs::StdRng, SeedableRng};

fn main() -> Result<(), probdml::Error> {
    // p(match | z₁, z₂) = sigmoid(−a‖z₁ − z₂‖ + b), its two parameters named.
    let threshold = SoftThreshold { a: 2.0, b: 1.0 };
    let g1 = Gaussian {
        mu: &[0.0, 0.0],
        var: &[0.3, 0.3],
    };
    let g2 = Gaussian {
        mu: &[1.0, 0.5],
        var: &[0.2, 0.4],
    };
    // The reference value (the exact twins keep the positional form of the reference).
    let exact = hib::exact::match_probability(g1.mu, g1.var, g2.mu, g2.var, 2.0, 1.0)?;
    // Deterministic, O(D): the moment-matched approximation, within 4·10⁻³ here.
    let approx = threshold.match_probability_moment_matched(&g1, &g2)?;
    assert!((approx - exact).abs() < 4e-3);
    let x1 = HedgedEmbedding::from_gaussian(g1)?;
    let x2 = HedgedEmbedding::from_gaussian(g2)?;

    // The paper's K = 8 estimate is unbiased: the mean of 400 independent estimates lies
    // within a few standard errors of the exact value.
    let mut rng = StdRng::seed_from_u64(11);
    let runs = 400;
    let estimates: Vec<f64> = (0..runs)
        .map(|_| threshold.match_probability(&x1, &x2, 8, &mut rng))
        .collect::<Result<_, _>>()?;
    let mean = estimates.iter().sum::<f64>() / runs as f64;
    let sd = (estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (runs - 1) as f64).sqrt();
    let standard_error = sd / (runs as f64).sqrt();
    println!("exact {exact:.6}; moment-matched {approx:.6}; Monte Carlo {mean:.6} ± {standard_error:.6} (K = 8, {runs} runs)");
    assert!((mean - exact).abs() < 5.0 * standard_error);
    Ok(())
}
