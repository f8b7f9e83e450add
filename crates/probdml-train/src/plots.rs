//! SVG figures of an evaluation (chapter 09, "Plots"): the sparsification curve with its oracle,
//! the ROC curve, the reliability diagram, the uncertainty histograms of ID and OOD, and the
//! 3-D embedding coloured by uncertainty — the figures of LAM §5 (Figs. 5–8, 10).
//!
//! Drawn with `plotters`' SVG backend without font features: text is written as SVG `<text>`
//! elements and rendered by the viewer, so captions and axis labels need no font files and the
//! output is the same on every machine.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{TrainError, TrainResult};
use crate::evaluate::Evaluation;

/// Size of every figure in pixels.
const SIZE: (u32, u32) = (640, 520);
/// Bins of the uncertainty histogram.
const HISTOGRAM_BINS: usize = 40;

/// Writes the figures of `eval` into `out_dir` (created if missing) and returns their paths.
///
/// * `sparsification.svg` — 1-NN accuracy of the ID queries left against the fraction removed,
///   most uncertain first, with the oracle (removing wrong queries first);
/// * `roc.svg` — the ROC of `1/κ̂` as OOD detector, with the chance diagonal;
/// * `calibration.svg` — reliability diagram of LAM's closed-set calibration: accuracy per
///   confidence bin, each bin's mean confidence, and the diagonal of perfect calibration;
/// * `uncertainty.svg` — histograms of `log₁₀(1/κ̂)` for ID and OOD;
/// * `embedding.svg` — only when `embedding = Some((means, uncertainty))` with 3-D means
///   (`[n][3]` row-major): the `μ̂` on the sphere as a 3-D scatter, coloured by the rank of
///   their uncertainty (blue least, red most uncertain).
///
/// A figure whose data is absent (`S = 1`: no uncertainty; no OOD set: no ROC) is skipped, so
/// the returned list names exactly the files written.
///
/// # Errors
///
/// [`TrainError::Io`] if the folder or a file cannot be written (or plotters fails);
/// [`TrainError::InvalidConfig`] if `embedding`'s means are not `3 × len(uncertainty)` values,
/// or contain a non-finite value.
pub fn write_plots(
    eval: &Evaluation,
    embedding: Option<(&[f64], &[f64])>,
    out_dir: &Path,
) -> TrainResult<Vec<PathBuf>> {
    if let Some((means, uncertainty)) = embedding {
        if means.len() != 3 * uncertainty.len() || uncertainty.is_empty() {
            return Err(TrainError::config(
                "embedding",
                format!(
                    "{} mean values, {} uncertainties",
                    means.len(),
                    uncertainty.len()
                ),
                "the embedding plot needs 3-D means, three values per uncertainty",
            ));
        }
        if means.iter().chain(uncertainty).any(|v| !v.is_finite()) {
            return Err(TrainError::config(
                "embedding",
                "non-finite value",
                "means and uncertainties must be finite",
            ));
        }
    }
    std::fs::create_dir_all(out_dir).map_err(|e| TrainError::io(out_dir, e))?;
    let mut written = Vec::new();
    let curves = &eval.curves;
    if let Some(s) = &curves.sparsification {
        let path = out_dir.join("sparsification.svg");
        sparsification_svg(
            &path,
            &s.fraction_removed,
            &s.curve,
            &s.oracle,
            &SparsificationScore {
                name: "1/κ̂",
                ausc: eval.metrics.ausc,
                oracle_ausc: eval.metrics.ausc_oracle,
            },
        )?;
        written.push(path);
    }
    if let Some(roc) = &curves.roc {
        let path = out_dir.join("roc.svg");
        roc_svg(
            &path,
            &roc.false_positive_rate,
            &roc.true_positive_rate,
            &RocLegend {
                score: "1/κ̂",
                auroc: eval.metrics.auroc,
                auprc: eval.metrics.auprc,
                ood_set: &eval.metrics.ood_set,
            },
        )?;
        written.push(path);
    }
    if let Some(bins) = &curves.calibration {
        let path = out_dir.join("calibration.svg");
        draw(&path, |root| calibration(root, bins, eval.metrics.ece))?;
        written.push(path);
    }
    if let Some(id_u) = &curves.id_uncertainty {
        let path = out_dir.join("uncertainty.svg");
        let ood_u = curves.ood_uncertainty.as_deref();
        draw(&path, |root| histogram(root, id_u, ood_u))?;
        written.push(path);
    }
    if let Some((means, uncertainty)) = embedding {
        let path = out_dir.join("embedding.svg");
        draw(&path, |root| sphere(root, means, uncertainty))?;
        written.push(path);
    }
    Ok(written)
}

/// Boxed error of the drawing code (plotters' error types are generic over the backend).
type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Runs `body` on a fresh SVG canvas at `path` and maps any failure to [`TrainError::Io`].
fn draw(
    path: &Path,
    body: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> DrawResult,
) -> TrainResult<()> {
    let result = (|| -> DrawResult {
        let root = SVGBackend::new(path, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        body(&root)?;
        root.present()?;
        Ok(())
    })();
    result.map_err(|e| TrainError::io(path, std::io::Error::other(e.to_string())))
}

/// Legend entry: a short line of `style`.
fn legend_line(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style)
}

/// The uncertainty score of a sparsification figure and its areas.
#[derive(Debug, Clone, Copy)]
pub struct SparsificationScore<'a> {
    /// The score's name in the legend, e.g. "1/κ̂".
    pub name: &'a str,
    /// Area under its curve (AUSC), if known.
    pub ausc: Option<f64>,
    /// Area under the oracle curve, if known.
    pub oracle_ausc: Option<f64>,
}

/// Draws LAM's sparsification figure into `path`: 1-NN accuracy of the ID queries left against
/// the fraction removed (most uncertain first), with the oracle. The program's
/// `sparsification.svg` and the book's `metrics_sparsification.svg` (`examples/metrics_plots.rs`)
/// are both drawn by this function.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] if the three series differ in length or are empty;
/// [`TrainError::Io`] if the file cannot be written.
pub fn sparsification_svg(
    path: &Path,
    fraction_removed: &[f64],
    curve: &[f64],
    oracle: &[f64],
    score: &SparsificationScore<'_>,
) -> TrainResult<()> {
    if fraction_removed.is_empty()
        || curve.len() != fraction_removed.len()
        || oracle.len() != fraction_removed.len()
    {
        return Err(TrainError::config(
            "sparsification",
            format!(
                "{} fractions, {} curve and {} oracle points",
                fraction_removed.len(),
                curve.len(),
                oracle.len()
            ),
            "the three series must have one (and the same) non-zero length",
        ));
    }
    draw(path, |root| {
        let low = curve.iter().chain(oracle).copied().fold(1.0, f64::min);
        let mut chart = ChartBuilder::on(root)
            .caption(
                "Sparsification: ID 1-NN accuracy, most uncertain removed first",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..1f64, (low - 0.02).max(0.0)..1.005f64)?;
        chart
            .configure_mesh()
            .x_desc("fraction of queries removed")
            .y_desc("1-NN accuracy of the rest")
            .draw()?;
        let pairs = |y: &[f64]| -> Vec<(f64, f64)> {
            fraction_removed
                .iter()
                .copied()
                .zip(y.iter().copied())
                .collect()
        };
        let blue = BLUE.stroke_width(2);
        let red = RED.stroke_width(2);
        chart
            .draw_series(LineSeries::new(pairs(curve), blue))?
            .label(match score.ausc {
                Some(a) => format!("{} (AUSC = {a:.4})", score.name),
                None => score.name.to_string(),
            })
            .legend(legend_line(blue));
        chart
            .draw_series(LineSeries::new(pairs(oracle), red))?
            .label(match score.oracle_ausc {
                Some(a) => format!("oracle (area {a:.4})"),
                None => "oracle".to_string(),
            })
            .legend(legend_line(red));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        Ok(())
    })
}

/// The legend of a ROC figure.
#[derive(Debug, Clone, Copy)]
pub struct RocLegend<'a> {
    /// The score's name, e.g. "1/κ̂".
    pub score: &'a str,
    /// AUROC, if known.
    pub auroc: Option<f64>,
    /// AUPRC, if known.
    pub auprc: Option<f64>,
    /// What the OOD set is (empty: not said).
    pub ood_set: &'a str,
}

/// Draws the ROC of an uncertainty score as OOD detector (OOD positive) into `path`, with the
/// chance diagonal. The program's `roc.svg` and the book's `metrics_roc.svg` are both drawn by
/// this function.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] if the rates differ in length or are empty;
/// [`TrainError::Io`] if the file cannot be written.
pub fn roc_svg(path: &Path, fpr: &[f64], tpr: &[f64], legend: &RocLegend<'_>) -> TrainResult<()> {
    if fpr.is_empty() || fpr.len() != tpr.len() {
        return Err(TrainError::config(
            "roc",
            format!("{} false- and {} true-positive rates", fpr.len(), tpr.len()),
            "the two rates must have one (and the same) non-zero length",
        ));
    }
    draw(path, |root| roc_figure(root, fpr, tpr, legend))
}

fn roc_figure(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    fpr: &[f64],
    tpr: &[f64],
    legend: &RocLegend<'_>,
) -> DrawResult {
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("ROC of {} as OOD detector (OOD positive)", legend.score),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("false-positive rate (ID flagged)")
        .y_desc("true-positive rate (OOD flagged)")
        .draw()?;
    let blue = BLUE.stroke_width(2);
    let label = match (legend.auroc, legend.auprc) {
        (Some(a), Some(p)) => format!("AUROC = {a:.4}, AUPRC = {p:.4}"),
        _ => "ROC".to_string(),
    };
    chart
        .draw_series(LineSeries::new(
            fpr.iter().copied().zip(tpr.iter().copied()),
            blue,
        ))?
        .label(label)
        .legend(legend_line(blue));
    let grey = BLACK.mix(0.4).stroke_width(1);
    chart
        .draw_series(LineSeries::new(vec![(0.0, 0.0), (1.0, 1.0)], grey))?
        .label("chance")
        .legend(legend_line(grey));
    if !legend.ood_set.is_empty() {
        // The OOD-set note as a legend line of its own, so it stays next to the numbers.
        chart
            .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
            .label(format!("OOD: {}", legend.ood_set))
            .legend(|(x, y)| EmptyElement::at((x, y)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

fn calibration(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    bins: &[crate::evaluate::CalibrationPoint],
    ece: Option<f64>,
) -> DrawResult {
    let caption = match ece {
        Some(e) => format!("Closed-set calibration (ECE = {e:.4})"),
        None => "Closed-set calibration".to_string(),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("confidence (share of the S votes for the mode)")
        .y_desc("accuracy of the mode")
        .draw()?;
    let filled = bins.iter().filter(|b| b.count > 0);
    chart
        .draw_series(filled.clone().map(|b| {
            Rectangle::new(
                [(b.lower, 0.0), (b.upper, b.accuracy)],
                BLUE.mix(0.35).filled(),
            )
        }))?
        .label("accuracy per bin")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], BLUE.mix(0.35).filled()));
    chart
        .draw_series(filled.map(|b| Circle::new((b.confidence, b.accuracy), 4, RED.filled())))?
        .label("(mean confidence, accuracy)")
        .legend(|(x, y)| Circle::new((x + 8, y), 4, RED.filled()));
    let grey = BLACK.mix(0.5).stroke_width(1);
    chart
        .draw_series(LineSeries::new(vec![(0.0, 0.0), (1.0, 1.0)], grey))?
        .label("perfect calibration")
        .legend(legend_line(grey));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Density histogram of `log₁₀ u` over the positive values; zeros (κ̂ = ∞) are counted in the
/// caption, not drawn.
fn histogram(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    id_u: &[f64],
    ood_u: Option<&[f64]>,
) -> DrawResult {
    let logs =
        |u: &[f64]| -> Vec<f64> { u.iter().filter(|&&v| v > 0.0).map(|v| v.log10()).collect() };
    let id_log = logs(id_u);
    let ood_log = ood_u.map(logs).unwrap_or_default();
    let zeros = id_u.len() - id_log.len() + ood_u.map_or(0, |u| u.len()) - ood_log.len();
    let all = id_log.iter().chain(&ood_log);
    let (mut lo, mut hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
        (a.min(v), b.max(v))
    });
    if !lo.is_finite() {
        (lo, hi) = (-1.0, 0.0);
    }
    if hi - lo < 1e-9 {
        (lo, hi) = (lo - 0.5, hi + 0.5);
    }
    let width = (hi - lo) / HISTOGRAM_BINS as f64;
    let density = |values: &[f64]| -> Vec<(f64, f64)> {
        let mut counts = vec![0usize; HISTOGRAM_BINS];
        for &v in values {
            let b = (((v - lo) / width) as usize).min(HISTOGRAM_BINS - 1);
            counts[b] += 1;
        }
        let scale = 1.0 / (values.len().max(1) as f64 * width);
        // A step outline: both edges of every bin.
        counts
            .iter()
            .enumerate()
            .flat_map(|(b, &c)| {
                let x = lo + b as f64 * width;
                let y = c as f64 * scale;
                [(x, y), (x + width, y)]
            })
            .collect()
    };
    let id_curve = density(&id_log);
    let ood_curve = density(&ood_log);
    let top = id_curve
        .iter()
        .chain(&ood_curve)
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(1e-12);
    let caption = if zeros > 0 {
        format!("Uncertainty 1/κ̂ ({zeros} inputs with κ̂ = ∞ not shown)")
    } else {
        "Uncertainty 1/κ̂ of ID and OOD inputs".to_string()
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(56)
        .build_cartesian_2d(lo..hi, 0f64..top * 1.05)?;
    chart
        .configure_mesh()
        .x_desc("log10(1/κ̂)")
        .y_desc("density")
        .draw()?;
    let blue = BLUE.stroke_width(2);
    chart
        .draw_series(LineSeries::new(id_curve, blue))?
        .label(format!("ID ({} inputs)", id_u.len()))
        .legend(legend_line(blue));
    if let Some(u) = ood_u {
        let red = RED.stroke_width(2);
        chart
            .draw_series(LineSeries::new(ood_curve, red))?
            .label(format!("OOD ({} inputs)", u.len()))
            .legend(legend_line(red));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Blue (t = 0) to red (t = 1).
fn ramp(t: f64) -> RGBColor {
    let mix = |a: f64, b: f64| (a + (b - a) * t).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(40.0, 215.0), mix(90.0, 40.0), mix(215.0, 40.0))
}

fn sphere(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    means: &[f64],
    uncertainty: &[f64],
) -> DrawResult {
    let n = uncertainty.len();
    // Colour by rank, so that the heavy tail of 1/κ̂ does not wash the scale out; the most
    // uncertain points are drawn last (on top).
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| uncertainty[a].total_cmp(&uncertainty[b]).then(a.cmp(&b)));
    let flat = uncertainty.iter().all(|&u| u == uncertainty[0]);
    let mut chart = ChartBuilder::on(root)
        .caption(
            "Mean embeddings μ̂ on S², colour = uncertainty rank (blue low, red high)",
            ("sans-serif", 16),
        )
        .margin(16)
        .build_cartesian_3d(-1.05f64..1.05f64, -1.05f64..1.05f64, -1.05f64..1.05f64)?;
    chart.with_projection(|mut p| {
        p.pitch = 0.45;
        p.yaw = 0.7;
        p.scale = 0.78;
        p.into_matrix()
    });
    chart
        .configure_axes()
        .light_grid_style(BLACK.mix(0.12))
        .max_light_lines(3)
        .draw()?;
    chart.draw_series(order.iter().enumerate().map(|(rank, &i)| {
        let t = if flat || n < 2 {
            0.0
        } else {
            rank as f64 / (n - 1) as f64
        };
        let m = &means[3 * i..3 * i + 3];
        Circle::new((m[0], m[1], m[2]), 2, ramp(t).mix(0.8).filled())
    }))?;
    Ok(())
}
