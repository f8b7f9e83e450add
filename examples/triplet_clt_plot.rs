//! The figure of docs chapter 05: how far the BTL's CLT likelihood is from the exact
//! `P(τ < x)` as the dimension grows, `D = 1 … 2048` (`docs/src/img/triplet_clt_error.svg`).
//!
//! The numbers are those of the table printed by `proofs/triplet_likelihood.rs`
//! (`clt_error_table`): both use `proofs/support/clt_error.rs` (seeded random triplets, thresholds
//! `E τ + kσ` for `k ∈ {−6, …, 2}`, exact values from `triplet::exact::tau_distribution`).
//!
//! Run: `cargo run --release --example triplet_clt_plot` (writes the SVG and prints the table in
//! markdown; deterministic).

#[path = "../proofs/support/clt_error.rs"]
mod clt_error;

use plotters::prelude::*;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const PATH: &str = "docs/src/img/triplet_clt_error.svg";

fn main() -> Result<()> {
    let rows: Vec<clt_error::Row> = clt_error::DIMS.iter().map(|&d| clt_error::row(d)).collect();
    println!("| D | max abs P error | max abs ln P error (k ≥ −6) | max abs ln P error (k ≥ −2) |");
    println!("|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {:.2e} | {:.2e} | {:.2e} |",
            r.dim, r.max_abs_p, r.max_abs_ln_p, r.max_abs_ln_p_body
        );
    }
    let root = SVGBackend::new(PATH, (620, 460)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "BTL CLT likelihood against the exact law of τ",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(60)
        .build_cartesian_2d((0.8f64..3000f64).log_scale(), (1e-5f64..50f64).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("embedding dimension D")
        .y_desc("largest error over triplets and thresholds")
        .draw()?;
    let series = [
        (
            "|Φ(k) − P|",
            BLUE,
            rows.iter().map(|r| r.max_abs_p).collect::<Vec<_>>(),
        ),
        (
            "|ln Φ(k) − ln P|, k ≥ −6",
            RED,
            rows.iter().map(|r| r.max_abs_ln_p).collect(),
        ),
        (
            "|ln Φ(k) − ln P|, k ≥ −2",
            GREEN,
            rows.iter().map(|r| r.max_abs_ln_p_body).collect(),
        ),
    ];
    for (label, colour, values) in series {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .zip(&values)
            .map(|(r, &v)| (r.dim as f64, v))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    println!("{PATH}: {} dimensions", rows.len());
    Ok(())
}
