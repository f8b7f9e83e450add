//! Draw from a vMF, round the draws to `f32` and normalise them there, as a network's
//! embeddings are, and fit the law back: `VonMisesFisher::new`, `fit` and `ln_pdf` take the
//! `f32` rows (cast to `f64`) and renormalise them in `f64`.
use probdml::vmf::VonMisesFisher;
use rand::{rngs::StdRng, SeedableRng};

/// A row as a PyTorch model gives it: `F.normalize` in `f32`.
fn as_network_output(x: &[f64]) -> Vec<f32> {
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let norm = x32.iter().map(|v| v * v).sum::<f32>().sqrt();
    x32.iter().map(|v| v / norm).collect()
}

fn main() -> Result<(), probdml::Error> {
    let (dim, kappa, n) = (64, 200.0, 5000);
    // A mean direction normalised in f32, as a class prototype read from a model.
    let raw: Vec<f64> = (0..dim).map(|i| 1.0 + (i % 5) as f64).collect();
    let mu: Vec<f64> = as_network_output(&raw).into_iter().map(f64::from).collect();
    let law = VonMisesFisher::new(&mu, kappa)?;

    let mut rng = StdRng::seed_from_u64(2026); // the user's own rand 0.10 generator
    let rows32: Vec<f32> = (0..n)
        .flat_map(|_| as_network_output(&law.sample(&mut rng)))
        .collect();
    let rows: Vec<f64> = rows32.iter().map(|&v| f64::from(v)).collect();
    let fit = VonMisesFisher::fit(&rows, dim)?;
    let cos: f64 = fit.mu().iter().zip(law.mu()).map(|(a, b)| a * b).sum();
    println!(
        "κ = {kappa}, κ̂ = {:.2}, cos(μ̂, μ) = {cos:.6} from {n} f32 rows",
        fit.kappa()
    );
    // 1 − R̄ ≈ (M − 1)/(2κ) has a relative standard error of ~0.3% here.
    assert!(
        (fit.kappa() / kappa - 1.0).abs() < 0.03,
        "κ̂ = {}",
        fit.kappa()
    );
    assert!(cos > 0.999);

    let ln_f = law.ln_pdf(&rows[..dim])?;
    println!("ln f(first row) = {ln_f:.6}");
    assert!(ln_f.is_finite());
    Ok(())
}
