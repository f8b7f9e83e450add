//! Hedged instance embeddings (HIB): the match probability of two Gaussian embeddings by the
//! paper's Monte Carlo estimate, against the exact value.
use probdml::hib::{self, HedgedEmbedding};
use rand::{rngs::StdRng, SeedableRng};

fn main() -> Result<(), probdml::Error> {
    let (mu1, var1, mu2, var2) = ([0.0, 0.0], [0.3, 0.3], [1.0, 0.5], [0.2, 0.4]);
    let (a, b) = (2.0, 1.0); // p(match) = sigmoid(−a‖z₁ − z₂‖ + b)
    let x1 = HedgedEmbedding::gaussian(&mu1, &var1)?;
    let x2 = HedgedEmbedding::gaussian(&mu2, &var2)?;
    let exact = hib::exact::match_probability(&mu1, &var1, &mu2, &var2, a, b)?;

    // The paper's K = 8 estimate is unbiased: the mean of 400 independent estimates lies
    // within a few standard errors of the exact value.
    let mut rng = StdRng::seed_from_u64(11);
    let runs = 400;
    let estimates: Vec<f64> = (0..runs)
        .map(|_| hib::match_probability(&x1, &x2, a, b, 8, &mut rng))
        .collect::<Result<_, _>>()?;
    let mean = estimates.iter().sum::<f64>() / runs as f64;
    let sd = (estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (runs - 1) as f64).sqrt();
    let standard_error = sd / (runs as f64).sqrt();
    println!("exact {exact:.6}; Monte Carlo {mean:.6} ± {standard_error:.6} (K = 8, {runs} runs)");
    assert!((mean - exact).abs() < 5.0 * standard_error);
    Ok(())
}
