//! SVG figures of an evaluation (chapter 09, "Plots"): the sparsification curve with its oracle,
//! the ROC curve, the reliability diagram, the uncertainty histograms of ID and OOD, and the
//! 3-D embedding coloured by uncertainty — the figures of LAM §5 (Figs. 5–8, 10).
//!
//! Drawn with `plotters`' SVG backend without font features: text is written as SVG `<text>`
//! elements and rendered by the viewer, so captions and axis labels need no font files and the
//! output is the same on every machine.

use std::path::{Path, PathBuf};

use plotters::coord::cartesian::Cartesian3d;
use plotters::coord::types::RangedCoordf64;
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
pub(crate) type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// A figure's canvas: plotters' SVG backend.
pub(crate) type Canvas<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A chart of two real axes.
type Chart2d<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The SVG text of `body` drawn on a fresh white canvas of `size` pixels; a failure becomes
/// [`TrainError::Io`] naming `path`, the file the text is for. The same input gives the same
/// bytes: plotters writes coordinates as integers and colours and opacities in fixed formats,
/// and nothing of the machine or the time goes in.
pub(crate) fn render(
    path: &Path,
    size: (u32, u32),
    body: impl FnOnce(&Canvas<'_>) -> DrawResult,
) -> TrainResult<String> {
    let mut svg = String::new();
    let result = (|| -> DrawResult {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        body(&root)?;
        root.present()?;
        Ok(())
    })();
    result.map_err(|e| TrainError::io(path, std::io::Error::other(e.to_string())))?;
    Ok(svg)
}

/// Draws `body` on a fresh [`SIZE`] canvas into the SVG file `path`.
fn draw(path: &Path, body: impl FnOnce(&Canvas<'_>) -> DrawResult) -> TrainResult<()> {
    let svg = render(path, SIZE, body)?;
    std::fs::write(path, svg).map_err(|e| TrainError::io(path, e))
}

/// The frame of a figure on the unit square: caption, axes and grid.
fn unit_square_chart<'a, 'b>(
    root: &'a Canvas<'b>,
    caption: &str,
    x_desc: &str,
    y_desc: &str,
) -> Result<Chart2d<'a, 'b>, Box<dyn std::error::Error>> {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()?;
    Ok(chart)
}

/// The diagonal y = x (chance for a ROC, perfect calibration for a reliability diagram).
fn diagonal<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, style: ShapeStyle, label: &str) -> DrawResult {
    chart
        .draw_series(LineSeries::new(vec![(0.0, 0.0), (1.0, 1.0)], style))?
        .label(label)
        .legend(legend_line(style));
    Ok(())
}

/// Lines of text in the legend, without a symbol (the OOD set, rows without a curve), so that
/// they stay next to the curves they qualify.
fn legend_notes<'a, 'b: 'a>(chart: &mut Chart2d<'a, 'b>, notes: &[String]) -> DrawResult {
    for note in notes {
        chart
            .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
            .label(note.as_str())
            .legend(|(x, y)| EmptyElement::at((x, y)));
    }
    Ok(())
}

/// Draws the legend of `chart` (of any axes) at `position`.
fn finish_legend<'a, 'b: 'a, X: Ranged, Y: Ranged>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> DrawResult {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Ten colours told apart on screen and in print (matplotlib's `tab10`), one per method of a
/// figure; a figure of more rows cycles through them.
pub(crate) const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

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
        finish_legend(&mut chart, SeriesLabelPosition::LowerRight)
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
    let label = match (legend.auroc, legend.auprc) {
        (Some(a), Some(p)) => format!("AUROC = {a:.4}, AUPRC = {p:.4}"),
        _ => "ROC".to_string(),
    };
    let curve = RocCurve {
        label,
        fpr,
        tpr,
        style: BLUE.stroke_width(2),
    };
    let caption = format!("ROC of {} as OOD detector (OOD positive)", legend.score);
    let notes: Vec<String> = if legend.ood_set.is_empty() {
        Vec::new()
    } else {
        vec![format!("OOD: {}", legend.ood_set)]
    };
    draw(path, |root| roc_figure(root, &caption, &[curve], &notes))
}

/// One curve of a ROC figure.
pub(crate) struct RocCurve<'a> {
    /// Its legend entry.
    pub label: String,
    /// False-positive rates, from 0 to 1.
    pub fpr: &'a [f64],
    /// True-positive rates, from 0 to 1.
    pub tpr: &'a [f64],
    /// Its line.
    pub style: ShapeStyle,
}

/// ROC curves on the unit square with the chance diagonal; `notes` close the legend.
pub(crate) fn roc_figure(
    root: &Canvas<'_>,
    caption: &str,
    curves: &[RocCurve<'_>],
    notes: &[String],
) -> DrawResult {
    let mut chart = unit_square_chart(
        root,
        caption,
        "false-positive rate (ID flagged)",
        "true-positive rate (OOD flagged)",
    )?;
    for curve in curves {
        chart
            .draw_series(LineSeries::new(
                curve.fpr.iter().copied().zip(curve.tpr.iter().copied()),
                curve.style,
            ))?
            .label(curve.label.as_str())
            .legend(legend_line(curve.style));
    }
    diagonal(&mut chart, BLACK.mix(0.4).stroke_width(1), "chance")?;
    legend_notes(&mut chart, notes)?;
    finish_legend(&mut chart, SeriesLabelPosition::LowerRight)
}

/// One method's reliability curve: its non-empty bins' (mean confidence, accuracy).
pub(crate) struct ReliabilityCurve<'a> {
    /// Its legend entry.
    pub label: String,
    /// The bins (empty ones are skipped).
    pub bins: &'a [crate::evaluate::CalibrationPoint],
    /// Its line and markers.
    pub colour: RGBColor,
}

/// Reliability curves of several methods on the unit square with the diagonal of perfect
/// calibration; `notes` close the legend.
pub(crate) fn reliability_figure(
    root: &Canvas<'_>,
    caption: &str,
    curves: &[ReliabilityCurve<'_>],
    notes: &[String],
) -> DrawResult {
    let mut chart = unit_square_chart(
        root,
        caption,
        "confidence (share of the S votes for the mode)",
        "accuracy of the mode",
    )?;
    for curve in curves {
        let points: Vec<(f64, f64)> = curve
            .bins
            .iter()
            .filter(|b| b.count > 0)
            .map(|b| (b.confidence, b.accuracy))
            .collect();
        let line = curve.colour.stroke_width(2);
        chart.draw_series(
            points
                .iter()
                .map(|&p| Circle::new(p, 3, curve.colour.filled())),
        )?;
        chart
            .draw_series(LineSeries::new(points, line))?
            .label(curve.label.as_str())
            .legend(legend_line(line));
    }
    diagonal(
        &mut chart,
        BLACK.mix(0.5).stroke_width(1),
        "perfect calibration",
    )?;
    legend_notes(&mut chart, notes)?;
    finish_legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

fn calibration(
    root: &Canvas<'_>,
    bins: &[crate::evaluate::CalibrationPoint],
    ece: Option<f64>,
) -> DrawResult {
    let caption = match ece {
        Some(e) => format!("Closed-set calibration (ECE = {e:.4})"),
        None => "Closed-set calibration".to_string(),
    };
    let mut chart = unit_square_chart(
        root,
        &caption,
        "confidence (share of the S votes for the mode)",
        "accuracy of the mode",
    )?;
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
    diagonal(
        &mut chart,
        BLACK.mix(0.5).stroke_width(1),
        "perfect calibration",
    )?;
    finish_legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

/// Density histogram of `log₁₀ u` over the positive values; zeros (κ̂ = ∞) are counted in the
/// caption, not drawn.
fn histogram(root: &Canvas<'_>, id_u: &[f64], ood_u: Option<&[f64]>) -> DrawResult {
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
    finish_legend(&mut chart, SeriesLabelPosition::UpperRight)
}

/// Blue (t = 0) to red (t = 1).
fn ramp(t: f64) -> RGBColor {
    let mix = |a: f64, b: f64| (a + (b - a) * t).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(40.0, 215.0), mix(90.0, 40.0), mix(215.0, 40.0))
}

fn sphere(root: &Canvas<'_>, means: &[f64], uncertainty: &[f64]) -> DrawResult {
    let n = uncertainty.len();
    // Colour by rank, so that the heavy tail of 1/κ̂ does not wash the scale out; the most
    // uncertain points are drawn last (on top).
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| uncertainty[a].total_cmp(&uncertainty[b]).then(a.cmp(&b)));
    let flat = uncertainty.iter().all(|&u| u == uncertainty[0]);
    let mut chart = sphere_chart(
        root,
        "Mean embeddings μ̂ on S², colour = uncertainty rank (blue low, red high)",
        16,
        1.05,
    )?;
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

/// A chart on the cube [−extent, extent]³ seen from one fixed angle, its axes drawn: the frame
/// of vectors in three dimensions (unit vectors at `extent` = 1.05).
fn sphere_chart<'a, 'b>(
    area: &'a Canvas<'b>,
    caption: &str,
    font: u32,
    extent: f64,
) -> Result<
    ChartContext<'a, SVGBackend<'b>, Cartesian3d<RangedCoordf64, RangedCoordf64, RangedCoordf64>>,
    Box<dyn std::error::Error>,
> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", font))
        .margin(16)
        .build_cartesian_3d(-extent..extent, -extent..extent, -extent..extent)?;
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
    Ok(chart)
}

/// One panel of an embedding figure: means in D = 2 or 3, one label each.
pub(crate) struct EmbeddingPanel<'a> {
    /// The panel's title.
    pub title: String,
    /// Row-major `labels × dim` means.
    pub mean: &'a [f32],
    /// Their labels (colours).
    pub label: &'a [usize],
}

/// The colour of label `l` of `classes`: hues from red through green to violet, neighbouring
/// labels in neighbouring hues. The hues stop at 5/6 of the wheel so that the last label is not
/// the first one's red again.
fn label_colour(l: usize, classes: usize) -> HSLColor {
    HSLColor(5.0 / 6.0 * l as f64 / classes.max(1) as f64, 0.75, 0.45)
}

/// Side-by-side scatter plots of embeddings (HIB Figs. 3–4: the clean and the corrupt test
/// images), points coloured by label ([`label_colour`]): the plane for D = 2, the cube in the
/// fixed view of the program's `embedding.svg` for D = 3. Every panel has one frame, the unit
/// circle's (sphere's) when every coordinate is within ±1 (ℓ₂-normalised means), wider to hold
/// the largest coordinate otherwise (HIB's means in ℝ^D), so that the panels compare.
pub(crate) fn embedding_panels(
    root: &Canvas<'_>,
    caption: &str,
    dim: usize,
    classes: usize,
    panels: &[EmbeddingPanel<'_>],
) -> DrawResult {
    let largest = panels
        .iter()
        .flat_map(|p| p.mean.iter())
        .map(|v| f64::from(v.abs()))
        .fold(1.0, f64::max);
    let extent = 1.05 * largest;
    let body = root.titled(caption, ("sans-serif", 17))?;
    for (area, panel) in body.split_evenly((1, panels.len())).iter().zip(panels) {
        let points = panel.mean.chunks(dim).zip(panel.label);
        if dim == 3 {
            let mut chart = sphere_chart(area, &panel.title, 15, extent)?;
            chart.draw_series(points.map(|(m, &l)| {
                let (x, y, z) = (f64::from(m[0]), f64::from(m[1]), f64::from(m[2]));
                Circle::new((x, y, z), 2, label_colour(l, classes).mix(0.8).filled())
            }))?;
        } else {
            let mut chart = ChartBuilder::on(area)
                .caption(panel.title.as_str(), ("sans-serif", 15))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(44)
                .build_cartesian_2d(-extent..extent, -extent..extent)?;
            chart
                .configure_mesh()
                .x_desc("μ₁")
                .y_desc("μ₂")
                .light_line_style(BLACK.mix(0.06))
                .draw()?;
            chart.draw_series(points.map(|(m, &l)| {
                let (x, y) = (f64::from(m[0]), f64::from(m[1]));
                Circle::new((x, y), 2, label_colour(l, classes).mix(0.8).filled())
            }))?;
        }
    }
    Ok(())
}

/// One setting of the figure of accuracy against training steps ([`steps_figure`]).
pub(crate) struct StepsSeries {
    /// Its legend entries' stem ("LABEL, clean", "LABEL, corrupt").
    pub label: String,
    /// Every run: (steps, [clean, corrupt] accuracy).
    pub runs: Vec<(f64, [f64; 2])>,
    /// The mean over the runs at each step count, by increasing steps.
    pub means: Vec<(f64, [f64; 2])>,
    /// Its colour.
    pub colour: RGBColor,
}

/// A published value beside the series ([`steps_figure`]): the paper's accuracies at its
/// step count.
pub(crate) struct PublishedMark {
    /// Its legend entry.
    pub label: String,
    /// The paper's steps.
    pub steps: f64,
    /// [clean, corrupt] accuracy.
    pub accuracy: [f64; 2],
    /// The colour of the series it is for.
    pub colour: RGBColor,
}

/// Steps as the axis writes them, digits grouped by thin spaces (15 620 → "15 620"); the axis
/// is logarithmic, so its labels are the powers of ten and their multiples plotters picks.
fn steps_label(steps: &f64) -> String {
    let digits = format!("{:.0}", steps);
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// Accuracy against training steps on a logarithmic step axis from `steps` (its two ends):
/// each series' runs as markers and the mean at each step count as a line, the clean twin
/// filled and solid, the corrupt one hollow and dashed; each published mark as a cross (clean)
/// and a triangle (corrupt) in its series' colour.
pub(crate) fn steps_figure(
    root: &Canvas<'_>,
    caption: &str,
    y_desc: &str,
    steps: (f64, f64),
    series: &[StepsSeries],
    published: &[PublishedMark],
) -> DrawResult {
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(52)
        .margin_right(36)
        .build_cartesian_2d((steps.0..steps.1).log_scale(), 0f64..1f64)?;
    chart
        .configure_mesh()
        .x_desc("training steps (logarithmic)")
        .y_desc(y_desc)
        .x_label_formatter(&steps_label)
        .draw()?;
    for s in series {
        for (twin, name) in ["clean", "corrupt"].into_iter().enumerate() {
            let at = |(x, y): &(f64, [f64; 2])| (*x, y[twin]);
            let (line, marker) = if twin == 0 {
                (s.colour.stroke_width(2), s.colour.filled())
            } else {
                (s.colour.stroke_width(1), s.colour.stroke_width(1))
            };
            chart.draw_series(s.runs.iter().map(|r| Circle::new(at(r), 3, marker)))?;
            let label = format!("{}, {name}", s.label);
            if twin == 0 {
                chart
                    .draw_series(LineSeries::new(s.means.iter().map(at), line))?
                    .label(label)
                    .legend(legend_line(line));
            } else {
                chart
                    .draw_series(DashedLineSeries::new(s.means.iter().map(at), 6, 4, line))?
                    .label(label)
                    .legend(legend_line(line));
            }
        }
    }
    for mark in published {
        let [clean, corrupt] = mark.accuracy;
        let (cross, triangle) = (mark.colour.stroke_width(2), mark.colour.filled());
        chart
            .draw_series(std::iter::once(Cross::new((mark.steps, clean), 5, cross)))?
            .label(format!("{}, clean", mark.label))
            .legend(move |(x, y)| Cross::new((x + 10, y), 5, cross));
        chart
            .draw_series(std::iter::once(TriangleMarker::new(
                (mark.steps, corrupt),
                5,
                triangle,
            )))?
            .label(format!("{}, corrupt", mark.label))
            .legend(move |(x, y)| TriangleMarker::new((x + 10, y), 5, triangle));
    }
    finish_legend(&mut chart, SeriesLabelPosition::UpperLeft)
}
