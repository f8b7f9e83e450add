//! The two figures of docs chapter 08, drawn from a small synthetic case:
//!
//! * `docs/src/img/metrics_roc.svg` — the ROC curve of an uncertainty score separating 300
//!   in-distribution from 300 out-of-distribution inputs (`metrics::roc_curve`, `auroc`,
//!   `auprc`);
//! * `docs/src/img/metrics_sparsification.svg` — LAM's sparsification curve and its oracle for
//!   1-NN retrieval on 8 Gaussian classes in 2-D whose per-embedding variance grows with the
//!   distance from the class centre (`per_query_at_k`, `query_neighbour_uncertainty`,
//!   `sparsification_curve`).
//!
//! Both figures are drawn by `probdml_train::plots` (feature "report"), the code that draws the
//! `probdml` program's `roc.svg` and `sparsification.svg`.
//!
//! Run: `cargo run --release --features report --example metrics_plots` (writes both files;
//! deterministic: fixed seeds, and the SVG text is independent of the machine).

use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml_train::plots;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use std::path::Path;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const ROC_PATH: &str = "docs/src/img/metrics_roc.svg";
const SPARSIFICATION_PATH: &str = "docs/src/img/metrics_sparsification.svg";

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    StandardNormal.sample(rng)
}

/// Uncertainty scores: ID ~ N(0, 1), OOD ~ N(1.5, 1.2), rounded to 0.05 so that ties occur.
fn ood_case(rng: &mut ChaCha8Rng) -> (Vec<f64>, Vec<f64>) {
    let round = |x: f64| (x * 20.0).round() / 20.0;
    let id = (0..300).map(|_| round(normal(rng))).collect();
    let ood = (0..300).map(|_| round(1.5 + 1.2 * normal(rng))).collect();
    (id, ood)
}

fn plot_roc(id: &[f64], ood: &[f64]) -> Result<()> {
    let roc = metrics::OodScores { id, ood }.roc_curve()?;
    let auroc = metrics::OodScores { id, ood }.auroc()?;
    let auprc = metrics::OodScores { id, ood }.auprc()?;
    // The same figure code as the `probdml` program's roc.svg.
    plots::roc_svg(
        Path::new(ROC_PATH),
        &roc.false_positive_rate,
        &roc.true_positive_rate,
        &plots::RocLegend {
            score: "an uncertainty score",
            auroc: Some(auroc),
            auprc: Some(auprc),
            ood_set: "",
        },
    )?;
    println!(
        "{ROC_PATH}: AUROC {auroc}, AUPRC {auprc}, {} points",
        roc.thresholds.len()
    );
    Ok(())
}

/// 8 classes × 40 embeddings in 2-D; the variance of an embedding grows with its distance from
/// its class centre, so uncertain embeddings are the ones likely to be misretrieved.
fn retrieval_case(rng: &mut ChaCha8Rng) -> (Vec<f64>, Vec<usize>, Vec<f64>) {
    let centres: Vec<(f64, f64)> = (0..8)
        .map(|c| {
            let angle = c as f64 * std::f64::consts::TAU / 8.0;
            (3.0 * angle.cos(), 3.0 * angle.sin())
        })
        .collect();
    let mut points = Vec::new();
    let mut labels = Vec::new();
    let mut variance = Vec::new();
    for (c, &(cx, cy)) in centres.iter().enumerate() {
        for _ in 0..40 {
            let spread = 0.3 + 1.5 * rng.random::<f64>();
            let (dx, dy) = (spread * normal(rng), spread * normal(rng));
            points.extend([cx + dx, cy + dy]);
            labels.push(c);
            variance.push((dx * dx + dy * dy).sqrt() * (0.8 + 0.4 * rng.random::<f64>()));
        }
    }
    (points, labels, variance)
}

fn plot_sparsification(points: &[f64], labels: &[usize], variance: &[f64]) -> Result<()> {
    let task = Retrieval::leave_one_out(Embeddings::new(points, 2)?, labels, Distance::Euclidean)?;
    let scores = metrics::per_query_at_k(&task, 1)?;
    let query_variance: Vec<f64> = scores.iter().map(|s| variance[s.query]).collect();
    let nearest: Vec<usize> = scores.iter().map(|s| s.nearest).collect();
    let uncertainty = metrics::query_neighbour_uncertainty(&query_variance, variance, &nearest)?;
    let accuracy: Vec<f64> = scores
        .iter()
        .map(|s| if s.hit { 1.0 } else { 0.0 })
        .collect();
    let s = metrics::sparsification_curve(&uncertainty, &accuracy)?;
    // The same figure code as the `probdml` program's sparsification.svg.
    plots::sparsification_svg(
        Path::new(SPARSIFICATION_PATH),
        &s.fractions,
        &s.curve,
        &s.oracle,
        &plots::SparsificationScore {
            name: "uncertainty",
            ausc: Some(s.ausc),
            oracle_ausc: Some(s.oracle_ausc),
        },
    )?;
    println!(
        "{SPARSIFICATION_PATH}: {} scored queries, accuracy {}, AUSC {}, oracle {}, between {}",
        scores.len(),
        s.curve[0],
        s.ausc,
        s.oracle_ausc,
        s.area_between
    );
    Ok(())
}

fn main() -> Result<()> {
    std::fs::create_dir_all("docs/src/img")?;
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let (id, ood) = ood_case(&mut rng);
    plot_roc(&id, &ood)?;
    let (points, labels, variance) = retrieval_case(&mut rng);
    plot_sparsification(&points, &labels, &variance)
}
