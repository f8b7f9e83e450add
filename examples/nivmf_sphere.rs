//! The figure of docs chapter 06: the exactly normalised nivMF density and the paper's heuristic
//! on `S²` for `K = diag(2, 5, 9)`, `μ = (1,1,1)/√3` (the point where nivMF Supp. B's heuristic has mass 27.75), as two
//! equirectangular heatmaps of `ln f` (longitude across, latitude up) on one colour scale.
//!
//! Run: `cargo run --release --example nivmf_sphere` (writes `docs/src/img/nivmf_s2.svg`;
//! deterministic).

use plotters::prelude::*;
use probdml::nivmf;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

const PATH: &str = "docs/src/img/nivmf_s2.svg";
const COLUMNS: usize = 64;
const ROWS: usize = 32;

/// A viridis-like ramp from dark blue (low) to yellow (high), `t ∈ [0, 1]`.
fn colour(t: f64) -> RGBColor {
    let stops = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let x = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let mix = |a: f64, b: f64| (a + f * (b - a)).round() as u8;
    RGBColor(
        mix(stops[i].0, stops[i + 1].0),
        mix(stops[i].1, stops[i + 1].1),
        mix(stops[i].2, stops[i + 1].2),
    )
}

fn main() -> Result<()> {
    let k = [2.0, 5.0, 9.0];
    let s = 1.0 / 3f64.sqrt();
    let mu = [s, s, s];
    let law = nivmf::NonIsotropicVmf::new(&mu, &k)?;
    // ln f on the grid of cell centres, for both densities.
    let grid = |heuristic: bool| -> Result<Vec<f64>> {
        let mut out = Vec::with_capacity(ROWS * COLUMNS);
        for r in 0..ROWS {
            let lat =
                std::f64::consts::FRAC_PI_2 - (r as f64 + 0.5) * std::f64::consts::PI / ROWS as f64;
            for c in 0..COLUMNS {
                let lon = -std::f64::consts::PI
                    + (c as f64 + 0.5) * 2.0 * std::f64::consts::PI / COLUMNS as f64;
                let x = [lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin()];
                let n = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
                let x = [x[0] / n, x[1] / n, x[2] / n];
                out.push(if heuristic {
                    law.ln_pdf_heuristic(&x)?
                } else {
                    law.ln_pdf(&x)?
                });
            }
        }
        Ok(out)
    };
    let exact = grid(false)?;
    let heuristic = grid(true)?;
    let lo = exact
        .iter()
        .chain(&heuristic)
        .fold(f64::INFINITY, |m, &v| m.min(v));
    let hi = exact
        .iter()
        .chain(&heuristic)
        .fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let root = SVGBackend::new(PATH, (900, 520)).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(470);
    let panels = top.split_evenly((1, 2));
    for (panel, (values, title)) in panels.iter().zip([
        (&exact, "exact nivMF ln f (mass 1)"),
        (&heuristic, "heuristic ln f_h (mass 27.75)"),
    ]) {
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(-180.0..180.0, -90.0..90.0)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("longitude (°)")
            .y_desc("latitude (°)")
            .draw()?;
        chart.draw_series((0..ROWS).flat_map(|r| {
            (0..COLUMNS).map(move |c| {
                let v = values[r * COLUMNS + c];
                let x0 = -180.0 + c as f64 * 360.0 / COLUMNS as f64;
                let y0 = 90.0 - r as f64 * 180.0 / ROWS as f64;
                Rectangle::new(
                    [
                        (x0, y0),
                        (x0 + 360.0 / COLUMNS as f64, y0 - 180.0 / ROWS as f64),
                    ],
                    colour((v - lo) / (hi - lo)).filled(),
                )
            })
        }))?;
    }
    bottom.draw(&Text::new(
        format!("colour: ln density from {lo:.2} (dark) to {hi:.2} (yellow); K = diag(2, 5, 9), mu = (1,1,1)/sqrt 3"),
        (20, 20),
        ("sans-serif", 15),
    ))?;
    root.present()?;
    println!("wrote {PATH}");
    Ok(())
}
