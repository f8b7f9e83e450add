//! The two figures of docs chapter 07 (hedged instance embeddings):
//!
//! * `docs/src/img/hib_match_probability.svg` — the exact match probability
//!   `E sigmoid(−a‖z₁ − z₂‖ + b)` of two Gaussian embeddings in ℝ² against the distance of their
//!   means, for a few variances σ² (each embedding `N(μ_i, σ² I)`), `a = 2`, `b = 2`
//!   (`hib::exact::match_probability`); σ² = 0 is the point embedding's sigmoid.
//! * `docs/src/img/hib_monte_carlo_error.svg` — the root-mean-square error of the paper's K²
//!   Monte Carlo estimator against the exact value as K grows (500 seeds per K), with the
//!   moment-matched approximation's error for scale.
//!
//! Run: `cargo run --release --example hib_plots` (writes both files and prints the numbers the
//! chapter quotes; deterministic: fixed seeds).

use plotters::prelude::*;
use probdml::hib::{self, exact, HedgedEmbedding};
use probdml::Gaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const CURVE_PATH: &str = "docs/src/img/hib_match_probability.svg";
const ERROR_PATH: &str = "docs/src/img/hib_monte_carlo_error.svg";
const A: f64 = 2.0;
const B: f64 = 2.0;

fn plot_curves() -> Result<()> {
    let root = SVGBackend::new(CURVE_PATH, (600, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Match probability against distance (D = 2, a = 2, b = 2)",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..4f64, 0f64..0.9f64)?;
    chart
        .configure_mesh()
        .x_desc("distance of the means ‖μ₁ − μ₂‖")
        .y_desc("p(m | x₁, x₂)")
        .draw()?;
    let colours = [BLACK, BLUE, GREEN, RED];
    for (variance, colour) in [0.0, 0.05, 0.25, 1.0].into_iter().zip(colours) {
        let points: Vec<(f64, f64)> = (0..=80)
            .map(|i| {
                let d = i as f64 / 20.0;
                let p = exact::match_probability(
                    &[d, 0.0],
                    &[variance; 2],
                    &[0.0, 0.0],
                    &[variance; 2],
                    A,
                    B,
                )
                .expect("valid input");
                (d, p)
            })
            .collect();
        println!(
            "σ² = {variance}: p at distance 0, 1, 2, 3 = {:.6}, {:.6}, {:.6}, {:.6}",
            points[0].1, points[20].1, points[40].1, points[60].1
        );
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(format!("σ² = {variance}"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn plot_monte_carlo_error() -> Result<()> {
    let (mu1, var1, mu2, var2) = ([0.0, 0.0], [0.3, 0.3], [1.0, 0.5], [0.2, 0.4]);
    let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu1,
        var: &var1,
    })?;
    let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu2,
        var: &var2,
    })?;
    let want = exact::match_probability(&mu1, &var1, &mu2, &var2, A, B)?;
    let threshold = hib::SoftThreshold { a: A, b: B };
    let approx = threshold.match_probability_moment_matched(
        &Gaussian {
            mu: &mu1,
            var: &var1,
        },
        &Gaussian {
            mu: &mu2,
            var: &var2,
        },
    )?;
    let approx_error = (approx - want).abs();
    println!("exact p = {want:.12}, moment-matched error = {approx_error:.3e}");
    let ks = [1usize, 2, 4, 8, 16, 32, 64];
    let seeds = 500;
    let mut rms = Vec::new();
    for &k in &ks {
        let mut sum2 = 0.0;
        for seed in 0..seeds {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let p = threshold.match_probability(&x1, &x2, k, &mut rng)?;
            sum2 += (p - want) * (p - want);
        }
        let e = (sum2 / seeds as f64).sqrt();
        println!("K = {k}: RMS error {e:.3e}");
        rms.push((k as f64, e));
    }
    // The log axis reaches down to the smallest error drawn, so the deterministic line is plotted
    // at its value rather than clamped to the axis.
    let y_min = rms
        .iter()
        .map(|p| p.1)
        .chain([approx_error])
        .filter(|&v| v > 0.0)
        .fold(1e-3_f64, f64::min);
    let root = SVGBackend::new(ERROR_PATH, (600, 440)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Monte Carlo (K² pairs) against exact, D = 2",
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(60)
        .build_cartesian_2d((1f64..64f64).log_scale(), (y_min..0.3f64).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("K (draws per input)")
        .y_desc("RMS error over 500 seeds")
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()?;
    chart
        .draw_series(LineSeries::new(rms.clone(), BLUE.stroke_width(2)))?
        .label("Monte Carlo, K² pairs")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    chart.draw_series(rms.iter().map(|&p| Circle::new(p, 3, BLUE.filled())))?;
    let first = rms[0].1;
    chart
        .draw_series(LineSeries::new(
            ks.iter().map(|&k| (k as f64, first / (k as f64).sqrt())),
            BLACK.mix(0.4),
        ))?
        .label("∝ 1/√K")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.4)));
    chart
        .draw_series(LineSeries::new(
            vec![(1.0, approx_error), (64.0, approx_error)],
            RED.stroke_width(2),
        ))?
        .label(format!(
            "moment-matched (deterministic): {approx_error:.1e}"
        ))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

fn main() -> Result<()> {
    plot_curves()?;
    plot_monte_carlo_error()?;
    println!("wrote {CURVE_PATH} and {ERROR_PATH}");
    Ok(())
}
