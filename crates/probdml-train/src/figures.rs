//! `probdml figures`: the results chapter's figures (`docs/src/10-results.md`), drawn from the
//! files of finished runs alone, as [`crate::results::summarise`] draws its tables from
//! `metrics.json`:
//!
//! * `roc` — for rows `LABEL=RUN[,RUN...]`, the ROC of each row's first run's uncertainty as OOD
//!   detector (its `curves.json`, thinned to at most 256 vertices), with the chance diagonal;
//! * `calibration` — for the same rows, each first run's reliability curve (mean confidence
//!   against accuracy of its non-empty bins) with the diagonal of perfect calibration;
//! * `hib-embedding` — for one N-digit MNIST run, its `hib_embedding.json`: the mean embeddings
//!   of the same test images clean and corrupt, side by side, coloured by number (HIB, Oh et al.
//!   2019, Figs. 3–4), each panel titled with its mean η and its spread within numbers
//!   ([`crate::hib_experiment::HibEmbedding::within_number_spread`]);
//! * `hib-steps` — for rows `LABEL=RUN[,RUN...]` of N-digit MNIST runs, each row one setting
//!   trained for several step counts (and seeds), the K-NN identification accuracy of every run
//!   on both test twins against its training steps (`state.json`), beside HIB Table 1's at the
//!   paper's 500 000 steps.
//!
//! In `roc` and `calibration` the first run of a row stands for it (the row's other seeds would
//! draw near-copies over it); the legend gives that run's AUROC or ECE. `hib-steps` draws every
//! run, as its seeds are the spread it shows. The SVG text is a function of the run files alone,
//! byte for byte, so `crates/probdml-train/tests/results_tables.rs` redraws every figure the
//! chapter names and fails on any difference.

use crate::checkpoint::layout::{CURVES, METRICS};
use crate::error::{TrainError, TrainResult};
use crate::evaluate::{CurvesFile, Metrics};
use crate::hib_experiment::paper::{table_1_row, TRAINING_STEPS};
use crate::hib_experiment::{
    read_embedding, read_record, training_steps, TwinEmbedding, HIB_TASKS,
};
use crate::json;
use crate::plots::{
    embedding_panels, reliability_figure, render, roc_figure, steps_figure, EmbeddingPanel,
    PublishedMark, ReliabilityCurve, RocCurve, StepsSeries, PALETTE,
};
use crate::results::{parse_row, ROW_RULE};
use plotters::style::Color;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Pixel size of the figures of several methods.
const METHODS_SIZE: (u32, u32) = (720, 560);
/// Pixel size of the embedding figure (two panels side by side).
const EMBEDDING_SIZE: (u32, u32) = (1080, 560);

/// The figures `probdml figures` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureKind {
    /// Each row's ROC as OOD detector.
    Roc,
    /// Each row's reliability curve.
    Calibration,
    /// One N-digit MNIST run's embeddings, clean and corrupt.
    HibEmbedding,
    /// N-digit MNIST runs' K-NN accuracy against their training steps.
    HibSteps,
}

impl FigureKind {
    /// Every figure, in the order of `--help`.
    pub const ALL: [Self; 4] = [
        Self::Roc,
        Self::Calibration,
        Self::HibEmbedding,
        Self::HibSteps,
    ];

    /// The figure's name on the command line and in the chapter's comments.
    pub fn name(self) -> &'static str {
        match self {
            Self::Roc => "roc",
            Self::Calibration => "calibration",
            Self::HibEmbedding => "hib-embedding",
            Self::HibSteps => "hib-steps",
        }
    }

    /// What the figure's inputs are.
    pub fn inputs(self) -> &'static str {
        match self {
            Self::Roc | Self::Calibration | Self::HibSteps => ROW_RULE,
            Self::HibEmbedding => "one run folder of an N-digit MNIST run, with hib_embedding.json",
        }
    }

    /// The figure named `name`.
    ///
    /// # Errors
    ///
    /// [`TrainError::InvalidConfig`] naming `figure` and the names there are.
    pub fn from_name(name: &str) -> TrainResult<Self> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
                TrainError::config("figure", name, format!("one of {}", names.join(", ")))
            })
    }
}

/// The first run of a row, with its files.
struct RowRun {
    label: String,
    run: PathBuf,
    metrics: Metrics,
    curves: CurvesFile,
}

/// Each row's first run with its `metrics.json` and `curves.json`; every run must have been
/// scored against the same OOD set, as the figure names one.
fn read_rows(rows: &[String]) -> TrainResult<Vec<RowRun>> {
    if rows.is_empty() {
        return Err(TrainError::config("row", "(none)", ROW_RULE));
    }
    let mut read: Vec<RowRun> = Vec::with_capacity(rows.len());
    for spec in rows {
        let (label, runs) = parse_row(spec)?;
        let run = runs[0].clone();
        let metrics: Metrics = json::read_json(&run.join(METRICS))?;
        let curves: CurvesFile = json::read_json(&run.join(CURVES))?;
        if let Some(first) = read.first() {
            if first.metrics.ood_set != metrics.ood_set {
                return Err(TrainError::config(
                    "row",
                    spec,
                    format!(
                        "every run must be scored against one OOD set; {} against `{}`, {} against `{}`",
                        run.display(),
                        metrics.ood_set,
                        first.run.display(),
                        first.metrics.ood_set
                    ),
                ));
            }
        }
        read.push(RowRun {
            label,
            run,
            metrics,
            curves,
        });
    }
    Ok(read)
}

/// The legend's closing lines: the rows drawn without a curve, and the OOD set.
fn notes(missing: &[&str], why: &str, ood_set: &str) -> Vec<String> {
    let mut notes = Vec::new();
    if !missing.is_empty() {
        notes.push(format!("{why}: {}", missing.join(", ")));
    }
    if !ood_set.is_empty() {
        notes.push(format!("OOD: {ood_set}"));
    }
    notes
}

/// Refuses a figure none of whose rows has its curve.
fn some_curve(drawn: usize, what: &str) -> TrainResult<()> {
    if drawn == 0 {
        return Err(TrainError::config(
            "row",
            format!("no run with a {what}"),
            format!("at least one row's first run must have a {what} in its curves.json (a method with an uncertainty)"),
        ));
    }
    Ok(())
}

fn roc(rows: &[RowRun], path: &Path) -> TrainResult<String> {
    let mut curves = Vec::new();
    let mut missing = Vec::new();
    for row in rows {
        match &row.curves.roc {
            Some(r) => {
                check_curve(
                    "roc",
                    &row.run,
                    &r.false_positive_rate,
                    &r.true_positive_rate,
                )?;
                let style = PALETTE[curves.len() % PALETTE.len()].stroke_width(2);
                curves.push(RocCurve {
                    label: match row.metrics.auroc {
                        Some(a) => format!("{} (AUROC = {a:.4})", row.label),
                        None => row.label.clone(),
                    },
                    fpr: &r.false_positive_rate,
                    tpr: &r.true_positive_rate,
                    style,
                });
            }
            None => missing.push(row.label.as_str()),
        }
    }
    some_curve(curves.len(), "ROC")?;
    let notes = notes(&missing, "no uncertainty", &rows[0].metrics.ood_set);
    render(path, METHODS_SIZE, |root| {
        roc_figure(
            root,
            "ROC of each method's uncertainty as OOD detector (first run per row)",
            &curves,
            &notes,
        )
    })
}

/// A curve of rates: two series of one length, at least two points, every value in [0, 1].
fn check_curve(what: &'static str, run: &Path, x: &[f64], y: &[f64]) -> TrainResult<()> {
    if x.len() != y.len() || x.len() < 2 || x.iter().chain(y).any(|v| !(0.0..=1.0).contains(v)) {
        return Err(TrainError::config(
            what,
            format!("{} in {}", CURVES, run.display()),
            "two series of one length, at least two points, every value in [0, 1]",
        ));
    }
    Ok(())
}

fn calibration(rows: &[RowRun], path: &Path) -> TrainResult<String> {
    let mut curves = Vec::new();
    let mut missing = Vec::new();
    for row in rows {
        match &row.curves.calibration {
            Some(bins) => {
                let (x, y): (Vec<f64>, Vec<f64>) =
                    bins.iter().map(|b| (b.confidence, b.accuracy)).unzip();
                if bins.is_empty() || x.iter().chain(&y).any(|v| !(0.0..=1.0).contains(v)) {
                    return Err(TrainError::config(
                        "calibration",
                        format!("{} in {}", CURVES, row.run.display()),
                        "one bin or more, confidences and accuracies in [0, 1]",
                    ));
                }
                curves.push(ReliabilityCurve {
                    label: match row.metrics.ece {
                        Some(e) => format!("{} (ECE = {e:.4})", row.label),
                        None => row.label.clone(),
                    },
                    bins,
                    colour: PALETTE[curves.len() % PALETTE.len()],
                });
            }
            None => missing.push(row.label.as_str()),
        }
    }
    some_curve(curves.len(), "calibration")?;
    let notes = notes(&missing, "no calibration", "");
    render(path, METHODS_SIZE, |root| {
        reliability_figure(
            root,
            "Closed-set calibration of each method (first run per row)",
            &curves,
            &notes,
        )
    })
}

fn hib_embedding(runs: &[String], path: &Path) -> TrainResult<String> {
    let [run] = runs else {
        return Err(TrainError::config(
            "run",
            format!("{} run folders", runs.len()),
            FigureKind::HibEmbedding.inputs(),
        ));
    };
    let e = read_embedding(Path::new(run))?;
    if !(2..=3).contains(&e.latent_dim) {
        return Err(TrainError::config(
            "latent_dim",
            format!("{} in {run}", e.latent_dim),
            "the embedding figure draws D = 2 (the circle) or D = 3 (the sphere)",
        ));
    }
    let classes = 10usize.pow(e.digits as u32);
    // Each panel's title: its mean η (HIB) and how far apart its numbers lie.
    let title = |name: &str, twin: &TwinEmbedding| {
        let mut title = format!("{name} test images");
        if let Some(eta) = &twin.eta {
            let mean = eta.iter().sum::<f64>() / eta.len() as f64;
            let _ = write!(title, ", mean η = {mean:.3}");
        }
        if let Some(spread) = e.within_number_spread(twin) {
            let _ = write!(title, ", spread within numbers {spread:.2}");
        }
        title
    };
    let panels = [
        EmbeddingPanel {
            title: title("clean", &e.clean),
            mean: &e.clean.mean,
            label: &e.label,
        },
        EmbeddingPanel {
            title: title("corrupt", &e.corrupt),
            mean: &e.corrupt.mean,
            label: &e.label,
        },
    ];
    let caption = format!(
        "{} means of {} test images (N = {}, D = {}, seed {}), colour = the number shown",
        e.method,
        e.index.len(),
        e.digits,
        e.latent_dim,
        e.seed
    );
    render(path, EMBEDDING_SIZE, |root| {
        embedding_panels(root, &caption, e.latent_dim, classes, &panels)
    })
}

/// The K-NN accuracy of each row's runs against their training steps (one setting per row, its
/// runs at several step counts and seeds), beside HIB Table 1's at the paper's steps, in the
/// colour of the first row of its method, for each method the rows train: "point", "MoG-1",
/// "MoG-2", the row names of [`crate::hib_experiment::hib_tables`] without their variant (a
/// variant such as "point (HIB net)" is marked against its method's published value, the one
/// it tries to reach). Every run must share one (N, D), as HIB Table 1's rows differ by it.
fn hib_steps(rows: &[String], path: &Path) -> TrainResult<String> {
    if rows.is_empty() {
        return Err(TrainError::config("row", "(none)", ROW_RULE));
    }
    let mut setting: Option<(usize, usize)> = None;
    // Each method the rows train, with the colour of the first row that trains it.
    let mut methods: Vec<(String, usize)> = Vec::new();
    let mut series = Vec::with_capacity(rows.len());
    let mut extent = (TRAINING_STEPS as f64, TRAINING_STEPS as f64);
    for spec in rows {
        let (label, runs) = parse_row(spec)?;
        let mut points = Vec::with_capacity(runs.len());
        for run in &runs {
            let record = read_record(run)?;
            let here = (record.digits, record.latent_dim);
            if *setting.get_or_insert(here) != here {
                let (n, d) = setting.unwrap_or(here);
                return Err(TrainError::config(
                    "row",
                    spec,
                    format!(
                        "every run must share one (N, D), as HIB Table 1's rows do: {} has ({}, {}), the first run ({n}, {d})",
                        run.display(),
                        record.digits,
                        record.latent_dim
                    ),
                ));
            }
            let steps = training_steps(run, &record)? as f64;
            extent = (extent.0.min(steps), extent.1.max(steps));
            let method = record
                .method
                .split(" (")
                .next()
                .unwrap_or_default()
                .to_string();
            if !methods.iter().any(|(m, _)| *m == method) {
                methods.push((method, series.len()));
            }
            let accuracy = [record.clean.knn_accuracy, record.corrupt.knn_accuracy];
            if accuracy.iter().any(|a| !(0.0..=1.0).contains(a)) {
                return Err(TrainError::config(
                    "knn_accuracy",
                    format!("{accuracy:?} in {}", run.join(HIB_TASKS).display()),
                    "an accuracy in [0, 1] on each twin",
                ));
            }
            points.push((steps, accuracy));
        }
        let mut means: Vec<(f64, [f64; 2])> = Vec::new();
        let mut at: Vec<f64> = points.iter().map(|p| p.0).collect();
        at.sort_by(f64::total_cmp);
        at.dedup();
        for x in at {
            let here: Vec<&[f64; 2]> = points.iter().filter(|p| p.0 == x).map(|p| &p.1).collect();
            let mean = |t: usize| here.iter().map(|a| a[t]).sum::<f64>() / here.len() as f64;
            means.push((x, [mean(0), mean(1)]));
        }
        series.push(StepsSeries {
            label,
            runs: points,
            means,
            colour: PALETTE[series.len() % PALETTE.len()],
        });
    }
    let (digits, latent_dim) = setting.unwrap_or_default();
    let published: Vec<PublishedMark> = methods
        .iter()
        .filter_map(|(m, row)| Some((table_1_row(digits, latent_dim, m)?, *row)))
        .map(|(paper, row)| PublishedMark {
            label: format!("HIB Table 1, {}", paper.method),
            steps: TRAINING_STEPS as f64,
            accuracy: paper.knn_accuracy,
            colour: PALETTE[row % PALETTE.len()],
        })
        .collect();
    // Every run and the paper's steps, none on the frame, and a labelled power of ten at the
    // left.
    let decade = 10f64.powf(extent.0.log10().floor());
    let steps = (decade.min(extent.0 / 1.5), extent.1 * 1.5);
    let caption = format!(
        "K-NN (K = 5) identification against training steps, N = {digits}, D = {latent_dim}"
    );
    render(path, METHODS_SIZE, |root| {
        steps_figure(
            root,
            &caption,
            "K-NN identification accuracy",
            steps,
            &series,
            &published,
        )
    })
}

/// The SVG text of figure `kind` of `inputs` (rows `LABEL=RUN[,RUN...]` for `roc`,
/// `calibration` and `hib-steps`, one run folder for `hib-embedding`), for the file `path`
/// (named in errors only: the text does not depend on it).
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row` (a malformed row, runs against different OOD sets,
/// no run with the curve, runs of different (N, D)), `run` (not one run folder; a `state.json`
/// that does not log its record's epochs), `roc` or `calibration` (a curve out of [0, 1]),
/// `knn_accuracy` (out of [0, 1]), `latent_dim` (an embedding not in 2 or 3 dimensions) or
/// `hib_embedding`;
/// [`TrainError::Io`] or [`TrainError::Json`] naming a missing or malformed run file.
pub fn render_figure(kind: FigureKind, inputs: &[String], path: &Path) -> TrainResult<String> {
    match kind {
        FigureKind::Roc => roc(&read_rows(inputs)?, path),
        FigureKind::Calibration => calibration(&read_rows(inputs)?, path),
        FigureKind::HibEmbedding => hib_embedding(inputs, path),
        FigureKind::HibSteps => hib_steps(inputs, path),
    }
}

/// [`render_figure`] written to `path` (atomically: a reader never sees half a figure).
///
/// # Errors
///
/// Those of [`render_figure`]; [`TrainError::Io`] naming the file when it cannot be written.
pub fn write_figure(kind: FigureKind, inputs: &[String], path: &Path) -> TrainResult<()> {
    let svg = render_figure(kind, inputs, path)?;
    json::write_atomic(path, svg.as_bytes())
}
