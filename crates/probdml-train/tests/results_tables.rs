//! The tables of the book's results chapter (`docs/src/10-results.md`) are `probdml summarise`
//! of the committed run files under `docs/runs/`: each table follows a comment
//!
//! ```text
//! <!-- probdml summarise
//! LABEL=RUN[,RUN...]
//! ...
//! -->
//! ```
//!
//! holding the rows, run folders relative to the repository root, and ends at
//! `<!-- end of probdml summarise -->`. This test regenerates every table from the runs'
//! `metrics.json` and `config.json` and fails on any difference, so no number in the chapter is
//! typed by hand. `PROBDML_WRITE_RESULTS=1 cargo test --release --features report --test
//! results_tables` writes the regenerated tables into the chapter instead (after new runs).
//!
//! HIB's tables are `probdml hib-tables` of the runs' `hib_tasks.json`, after a comment
//! `<!-- probdml hib-tables` listing one run folder per line, up to
//! `<!-- end of probdml hib-tables -->`. The epoch-time tables are
//! `probdml_train::epoch_times::epoch_time_table` of rows `LABEL=PROBDML_RUN,OTHER_RUN` after a
//! comment `<!-- probdml epoch-times`, up to `<!-- end of probdml epoch-times -->`. The
//! ensemble-disagreement tables are
//! `probdml_train::ensemble_disagreement::disagreement_table` of rows `LABEL=RUN` (an ensemble's
//! `diagnosis.json` and `metrics.json`) after a comment `<!-- probdml ensemble-disagreement`, up
//! to `<!-- end of probdml ensemble-disagreement -->`.
//!
//! The figures are `probdml figures` of the runs' `curves.json` and `hib_embedding.json`: a
//! comment
//!
//! ```text
//! <!-- probdml figures FIGURE docs/src/img/NAME.svg
//! INPUT
//! ...
//! -->
//! ```
//!
//! names the figure (`roc`, `calibration`, `hib-embedding`, `hib-steps`), the SVG file (in the
//! chapter's `img/` folder, which the chapter must show as `img/NAME.svg`) and its inputs, one per line
//! (rows `LABEL=RUN[,RUN...]`, or one run folder), paths relative to the repository root. The
//! test redraws every such SVG from the run files and fails on any byte of difference;
//! `PROBDML_WRITE_RESULTS=1` writes them. The mechanism is checked on a chapter of its own under
//! `tests/fixtures/figures/` (toy run files, their figures committed), with a planted wrong
//! figure.

use probdml_train::ensemble_disagreement::disagreement_table;
use probdml_train::epoch_times::epoch_time_table;
use probdml_train::figures::{render_figure, FigureKind};
use probdml_train::hib_experiment::{hib_tables, read_record};
use probdml_train::json::write_atomic;
use probdml_train::results::summarise;
use probdml_train::TrainError;
use std::path::{Path, PathBuf};

const CHAPTER: &str = "docs/src/10-results.md";
const START: &str = "<!-- probdml summarise\n";
const END: &str = "<!-- end of probdml summarise -->";
const HIB_START: &str = "<!-- probdml hib-tables\n";
const HIB_END: &str = "<!-- end of probdml hib-tables -->";
const EPOCH_START: &str = "<!-- probdml epoch-times\n";
const EPOCH_END: &str = "<!-- end of probdml epoch-times -->";
const DISAGREEMENT_START: &str = "<!-- probdml ensemble-disagreement\n";
const DISAGREEMENT_END: &str = "<!-- end of probdml ensemble-disagreement -->";
const FIGURE_START: &str = "<!-- probdml figures ";
/// The fixture of the figures' mechanism: a chapter, its runs and its figures, paths relative to
/// this folder.
const FIXTURE: &str = "tests/fixtures/figures";

/// The rows `LABEL=RUN[,RUN...]` with their run folders joined to `root`.
fn rows_under(root: &Path, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let (label, runs) = line
                .split_once('=')
                .unwrap_or_else(|| panic!("`{line}` is not LABEL=RUN[,RUN...]"));
            let runs: Vec<String> = runs
                .split(',')
                .map(|r| root.join(r.trim()).display().to_string())
                .collect();
            format!("{label}={}", runs.join(","))
        })
        .collect()
}

/// `probdml summarise` of the rows `LABEL=RUN[,RUN...]`, run folders relative to `root`.
fn summarise_rows(root: &Path, lines: &[&str]) -> String {
    summarise(&rows_under(root, lines)).unwrap_or_else(|e| panic!("{CHAPTER}: {e}"))
}

/// `probdml hib-tables` of the run folders `lines`, relative to `root`.
fn hib_tables_of(root: &Path, lines: &[&str]) -> String {
    let records: Vec<_> = lines
        .iter()
        .map(|run| read_record(&root.join(run)).unwrap_or_else(|e| panic!("{CHAPTER}: {e}")))
        .collect();
    hib_tables(&records).unwrap_or_else(|e| panic!("{CHAPTER}: {e}"))
}

/// The epoch-time table of the rows `LABEL=PROBDML_RUN,OTHER_RUN`, folders relative to `root`.
fn epoch_times_of(root: &Path, lines: &[&str]) -> String {
    epoch_time_table(&rows_under(root, lines)).unwrap_or_else(|e| panic!("{CHAPTER}: {e}"))
}

/// The ensemble-disagreement table of the rows `LABEL=RUN`, folders relative to `root`.
fn disagreement_of(root: &Path, lines: &[&str]) -> String {
    disagreement_table(&rows_under(root, lines)).unwrap_or_else(|e| panic!("{CHAPTER}: {e}"))
}

/// The chapter with every table regenerated, and how many tables it holds.
fn regenerate(root: &Path, text: &str) -> (String, usize) {
    let (text, summarised) = regenerate_blocks(root, text, START, END, summarise_rows);
    let (text, hib) = regenerate_blocks(root, &text, HIB_START, HIB_END, hib_tables_of);
    let (text, epochs) = regenerate_blocks(root, &text, EPOCH_START, EPOCH_END, epoch_times_of);
    let (text, ensembles) = regenerate_blocks(
        root,
        &text,
        DISAGREEMENT_START,
        DISAGREEMENT_END,
        disagreement_of,
    );
    (text, summarised + hib + epochs + ensembles)
}

/// `text` with the table after each `start` comment regenerated by `render` from the comment's
/// lines, and how many there were.
fn regenerate_blocks(
    root: &Path,
    text: &str,
    start_marker: &str,
    end_marker: &str,
    render: fn(&Path, &[&str]) -> String,
) -> (String, usize) {
    let mut out = String::new();
    let mut rest = text;
    let mut tables = 0;
    while let Some(start) = rest.find(start_marker) {
        let rows_start = start + start_marker.len();
        let rows_end = rows_start
            + rest[rows_start..]
                .find("-->")
                .unwrap_or_else(|| panic!("{CHAPTER}: a row list without its closing `-->`"));
        let end = rows_end
            + rest[rows_end..]
                .find(end_marker)
                .unwrap_or_else(|| panic!("{CHAPTER}: a table without `{end_marker}`"));
        let lines: Vec<&str> = rest[rows_start..rows_end]
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let table = render(root, &lines);
        out.push_str(&rest[..rows_end + "-->".len()]);
        out.push_str("\n\n");
        out.push_str(table.trim_end());
        out.push_str("\n\n");
        out.push_str(end_marker);
        rest = &rest[end + end_marker.len()..];
        tables += 1;
    }
    out.push_str(rest);
    (out, tables)
}

/// One `<!-- probdml figures ... -->` comment of a chapter.
struct FigureBlock {
    kind: FigureKind,
    /// The SVG file, relative to the root.
    svg: PathBuf,
    /// Rows or run folders, relative to the root.
    inputs: Vec<String>,
}

/// Every figure comment of `chapter` (its path relative to `root`, its text `text`), each SVG
/// checked to sit in the chapter's `img/` folder and to be shown by the chapter.
fn figure_blocks(chapter: &str, text: &str) -> Vec<FigureBlock> {
    let img = Path::new(chapter)
        .parent()
        .unwrap_or(Path::new(""))
        .join("img");
    // Outside code blocks only: the chapter shows the comment's syntax in one.
    let mut fenced = false;
    let outside: String = text
        .lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let mut blocks = Vec::new();
    let mut rest = outside.as_str();
    while let Some(start) = rest.find(FIGURE_START) {
        let body = &rest[start + FIGURE_START.len()..];
        let end = body
            .find("-->")
            .unwrap_or_else(|| panic!("{chapter}: a figure comment without its closing `-->`"));
        let mut lines = body[..end].lines().map(str::trim).filter(|l| !l.is_empty());
        let head = lines.next().unwrap_or_default();
        let (kind, svg) = head.split_once(' ').unwrap_or_else(|| {
            panic!("{chapter}: `{head}` is not `FIGURE PATH.svg` after `{FIGURE_START}`")
        });
        let kind = FigureKind::from_name(kind).unwrap_or_else(|e| panic!("{chapter}: {e}"));
        let svg = PathBuf::from(svg.trim());
        let name = svg.file_name().unwrap_or_default().to_string_lossy();
        assert!(
            svg.parent() == Some(img.as_path()) && name.ends_with(".svg"),
            "{chapter}: the figure {} is not an .svg file in {}",
            svg.display(),
            img.display()
        );
        assert!(
            text.contains(&format!("](img/{name})")),
            "{chapter}: the figure img/{name} is drawn but not shown (`![...](img/{name})`)"
        );
        blocks.push(FigureBlock {
            kind,
            svg,
            inputs: lines.map(str::to_string).collect(),
        });
        rest = &body[end..];
    }
    blocks
}

/// The SVG text of `block`, its inputs relative to `root`.
fn draw_block(root: &Path, block: &FigureBlock) -> Result<String, TrainError> {
    let lines: Vec<&str> = block.inputs.iter().map(String::as_str).collect();
    let inputs = match block.kind {
        FigureKind::Roc | FigureKind::Calibration | FigureKind::HibSteps => {
            rows_under(root, &lines)
        }
        FigureKind::HibEmbedding => lines
            .iter()
            .map(|run| root.join(run).display().to_string())
            .collect(),
    };
    render_figure(block.kind, &inputs, &root.join(&block.svg))
}

/// Redraws every figure of the chapter `chapter` under `root`: writes them when `write`,
/// otherwise compares each with its file. Returns how many figures there are, or the list of
/// files that differ (missing, or the first line that differs).
fn check_figures(root: &Path, chapter: &str, write: bool) -> Result<usize, String> {
    let text = std::fs::read_to_string(root.join(chapter)).unwrap();
    let blocks = figure_blocks(chapter, &text);
    let mut differ = Vec::new();
    for block in &blocks {
        let svg = draw_block(root, block).unwrap_or_else(|e| panic!("{chapter}: {e}"));
        let path = root.join(&block.svg);
        if write {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            // Atomically: another test may be copying the fixture meanwhile.
            write_atomic(&path, svg.as_bytes()).unwrap();
            continue;
        }
        match std::fs::read(&path) {
            Err(e) => differ.push(format!("{}: {e}", block.svg.display())),
            Ok(bytes) if bytes != svg.as_bytes() => {
                let committed = String::from_utf8_lossy(&bytes);
                let line = committed
                    .lines()
                    .zip(svg.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(committed.lines().count().min(svg.lines().count()));
                let (a, b) = (
                    committed.lines().nth(line).unwrap_or_default(),
                    svg.lines().nth(line).unwrap_or_default(),
                );
                // A polyline is one long line: show where it starts to differ.
                let column = a
                    .char_indices()
                    .zip(b.chars())
                    .find(|((_, x), y)| x != y)
                    .map_or(a.len().min(b.len()), |((i, _), _)| i);
                let near = |l: &str| -> String {
                    let mut from = column.saturating_sub(60).min(l.len());
                    while !l.is_char_boundary(from) {
                        from -= 1;
                    }
                    l[from..].chars().take(120).collect()
                };
                differ.push(format!(
                    "{}: differs from `probdml figures {}` of its runs from line {}, column {}:\n  file:    …{:?}\n  redrawn: …{:?}",
                    block.svg.display(),
                    block.kind.name(),
                    line + 1,
                    column + 1,
                    near(a),
                    near(b)
                ));
            }
            Ok(_) => {}
        }
    }
    if differ.is_empty() {
        Ok(blocks.len())
    } else {
        Err(differ.join("\n"))
    }
}

fn write_mode() -> bool {
    std::env::var_os("PROBDML_WRITE_RESULTS").is_some()
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE)
}

#[test]
fn every_results_table_is_summarise_of_its_committed_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(CHAPTER);
    let text = std::fs::read_to_string(&path).unwrap();
    let (regenerated, tables) = regenerate(&root, &text);
    assert!(tables > 0, "{CHAPTER} holds no generated table");
    if let Err(e) = check_figures(&root, CHAPTER, write_mode()) {
        panic!("{e}");
    }
    if write_mode() {
        std::fs::write(&path, &regenerated).unwrap();
        return;
    }
    if regenerated != text {
        let first = text
            .lines()
            .zip(regenerated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(text.lines().count().min(regenerated.lines().count()));
        panic!(
            "{CHAPTER}: the tables differ from `probdml summarise` of their runs from line {}:\n  chapter:     {:?}\n  regenerated: {:?}",
            first + 1,
            text.lines().nth(first),
            regenerated.lines().nth(first)
        );
    }
}

/// The fixture chapter's five figures are redrawn byte for byte from its run files (and
/// `PROBDML_WRITE_RESULTS=1` writes them, as for the book).
#[test]
fn the_fixture_figures_are_probdml_figures_of_their_runs() {
    assert_eq!(check_figures(&fixture(), "chapter.md", write_mode()), Ok(5));
}

/// A figure that is not what its runs draw — one byte changed, or the file missing — fails the
/// check, naming the file; redrawing it mends it.
#[test]
fn a_planted_wrong_figure_fails() {
    let root = std::env::temp_dir().join(format!("probdml-figures-plant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy_tree(&fixture(), &root);
    let svg = root.join("img/calibration.svg");
    let good = std::fs::read_to_string(&svg).unwrap();
    // One colour of the first curve changed: the picture a reader sees differs.
    let planted = good.replacen("#1F77B4", "#1F77B5", 1);
    assert_ne!(planted, good, "the figure has no curve of the first colour");
    std::fs::write(&svg, planted).unwrap();
    let e = check_figures(&root, "chapter.md", false).unwrap_err();
    assert!(
        e.contains("img/calibration.svg") && e.contains("differs"),
        "{e}"
    );
    assert!(!e.contains("roc.svg"), "{e}");
    std::fs::remove_file(root.join("img/roc.svg")).unwrap();
    let e = check_figures(&root, "chapter.md", false).unwrap_err();
    assert!(
        e.contains("img/roc.svg") && e.contains("img/calibration.svg"),
        "{e}"
    );
    assert_eq!(check_figures(&root, "chapter.md", true), Ok(5));
    assert_eq!(check_figures(&root, "chapter.md", false), Ok(5));
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), good);
    std::fs::remove_dir_all(&root).unwrap();
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn fixture_rows(lines: &[&str]) -> Vec<String> {
    rows_under(&fixture(), lines)
}

fn draw(kind: FigureKind, inputs: &[String]) -> Result<String, TrainError> {
    render_figure(kind, inputs, Path::new("unused.svg"))
}

/// What the figures show, read from the SVG text against the fixture's files: the legends carry
/// each row's label with its AUROC or ECE from `metrics.json` (A: 0.75 and 0.125, B: 0.5 and
/// 0.25), the row without uncertainty is named, the OOD set is named; the calibration figure
/// marks each non-empty bin once (A 3 bins, B 2: 5 circles); the embedding figure draws every
/// image of both twins once (6 images: 12 circles; 4 images in D = 3: 8). The same inputs give
/// the same bytes.
#[test]
fn the_figures_show_their_run_files() {
    let rows = fixture_rows(&["A=runs/a", "B=runs/b", "det=runs/det"]);
    let roc = draw(FigureKind::Roc, &rows).unwrap();
    shows(
        &roc,
        "ROC figure",
        &[
            "A (AUROC = 0.7500)",
            "B (AUROC = 0.5000)",
            "no uncertainty: det",
            "OOD: synthetic OOD images",
            "chance",
        ],
    );
    assert_eq!(draw(FigureKind::Roc, &rows).unwrap(), roc);
    let calibration = draw(FigureKind::Calibration, &rows).unwrap();
    shows(
        &calibration,
        "calibration figure",
        &[
            "A (ECE = 0.1250)",
            "B (ECE = 0.2500)",
            "no calibration: det",
        ],
    );
    assert_eq!(calibration.matches("<circle").count(), 5);
    let d2 = draw(
        FigureKind::HibEmbedding,
        &[fixture().join("runs/mog1-d2").display().to_string()],
    )
    .unwrap();
    assert_eq!(d2.matches("<circle").count(), 12);
    // Mean η of the clean twin (0.1, 0.1, 0.2, 0.2, 0.3, 0.3) is 0.2, of the corrupt one 0.5.
    // The spread within numbers, √(within / total sums of squares), computed from the
    // fixture's means outside this crate: 0.0832 on both twins (each twin the other rotated).
    assert!(
        d2.contains("clean test images, mean η = 0.200, spread within numbers 0.08"),
        "{d2}"
    );
    assert!(d2.contains("corrupt test images, mean η = 0.500, spread within numbers 0.08"));
    assert!(d2.contains("MoG-1 means of 6 test images (N = 2, D = 2, seed 0)"));
    let d3 = draw(
        FigureKind::HibEmbedding,
        &[fixture().join("runs/point-d3").display().to_string()],
    )
    .unwrap();
    assert_eq!(d3.matches("<circle").count(), 8);
    // Means off the unit circle (HIB in ℝ²: coordinates up to ±3) stay inside their panel: the
    // three clean images in the left half of the 1080 × 560 canvas, the corrupt ones in the right.
    let euclid = draw(
        FigureKind::HibEmbedding,
        &[fixture().join("runs/euclid-d2").display().to_string()],
    )
    .unwrap();
    let centres = circle_centres(&euclid);
    assert_eq!(centres.len(), 6);
    for (k, &(x, y)) in centres.iter().enumerate() {
        let panel = if k < 3 { 0.0..540.0 } else { 540.0..1080.0 };
        assert!(
            panel.contains(&x) && (0.0..560.0).contains(&y),
            "point {k} at ({x}, {y})"
        );
    }
    // …and where the frame puts them, not clamped to its edge: the clean μ₁ are 3, −2.5 and
    // 0.5, so a linear axis spaces their pixels in the ratio (3 − 0.5)/(0.5 + 2.5) = 5/6 (an
    // axis clipped at ±1.05 would give about 0.36); pixels are whole, so ±0.03.
    let (x0, x1, x2) = (centres[0].0, centres[1].0, centres[2].0);
    let ratio = (x0 - x2) / (x2 - x1);
    assert!(
        (ratio - 5.0 / 6.0).abs() < 0.03,
        "pixel spacing ratio {ratio}"
    );
    // plotters writes each text on a line of its own; point embeddings have no η. The two
    // images of number 3 lie √2 apart, of four whose squares about their centroid sum to
    // 2.3: √(1/2.3) = 0.66.
    assert!(
        d3.contains("\nclean test images, spread within numbers 0.66\n"),
        "{d3}"
    );
    hib_steps_shows_its_runs();
}

/// The figure of K-NN accuracy against training steps, read from its SVG text against the
/// fixture's runs: one setting at 1 000 steps (clean 0.2), 10 000 in two seeds (0.4 and 0.5)
/// and 100 000 (0.6), each step count the sum of its `state.json`'s epochs; a MoG-1 setting at
/// 10 000 (0.7). Every run is a marker on each twin (5 runs: 10 circles); the step axis is
/// logarithmic (the decades 1 000 → 10 000 → 100 000 one width apart); the clean line of the
/// first setting passes through the mean of the seeds at each step count (0.45 at 10 000); the
/// paper's values are marked for both methods the rows name, variants and all.
fn hib_steps_shows_its_runs() {
    let rows = fixture_rows(&[
        "point=runs/steps-1k,runs/steps-10k-seed0,runs/steps-10k-seed1,runs/steps-100k",
        "MoG-1=runs/steps-mog1",
    ]);
    let svg = draw(FigureKind::HibSteps, &rows).unwrap();
    shows(
        &svg,
        "steps figure",
        &[
            "point, clean",
            "point, corrupt",
            "MoG-1, clean",
            "HIB Table 1, point, clean",
            "HIB Table 1, MoG-1, corrupt",
            "N = 2, D = 2",
        ],
    );
    let centres = circle_centres(&svg);
    assert_eq!(centres.len(), 10, "{centres:?}");
    // plotters draws a series' runs clean first, then corrupt: the first four centres are the
    // point setting's clean runs in the rows' order.
    let (c1k, c10k0, c10k1, c100k) = (centres[0], centres[1], centres[2], centres[3]);
    assert_eq!(c10k0.0, c10k1.0, "two seeds at one step count");
    let (decade1, decade2) = (c10k0.0 - c1k.0, c100k.0 - c10k0.0);
    assert!(
        decade1 > 100.0 && (decade1 - decade2).abs() <= 1.0,
        "{decade1} {decade2}"
    );
    // Accuracy on a linear axis: 0.2 → 0.4 is twice 0.4 → 0.5, in pixels (whole, so ±0.05).
    let ratio = (c1k.1 - c10k0.1) / (c10k0.1 - c10k1.1);
    assert!((ratio - 2.0).abs() < 0.05, "pixel ratio {ratio}");
    // The line of the point setting's clean means: its three vertices, the middle one halfway
    // between the two seeds.
    let line = polyline_points(&svg, "#1F77B4", "2")
        .into_iter()
        .find(|p| p.len() == 3)
        .expect("a clean line of three vertices");
    assert_eq!((line[0].0, line[2].0), (c1k.0, c100k.0));
    assert!(
        (line[1].1 - (c10k0.1 + c10k1.1) / 2.0).abs() <= 1.0,
        "{line:?}"
    );
    assert_eq!(draw(FigureKind::HibSteps, &rows).unwrap(), svg);
}

/// The vertices of every `<polyline` of `svg` with this stroke colour and width.
fn polyline_points(svg: &str, stroke: &str, width: &str) -> Vec<Vec<(f64, f64)>> {
    svg.split("<polyline")
        .skip(1)
        .map(|element| &element[..element.find("/>").unwrap()])
        .filter(|e| {
            e.contains(&format!("stroke=\"{stroke}\""))
                && e.contains(&format!("stroke-width=\"{width}\""))
        })
        .map(|e| {
            let start = e.find(" points=\"").unwrap() + 9;
            let end = start + e[start..].find('"').unwrap();
            e[start..end]
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// Bad inputs are refused with an error naming the argument, never a panic.
#[test]
fn bad_figure_inputs_name_the_argument() {
    #[track_caller]
    fn arg(r: Result<String, TrainError>) -> &'static str {
        match r {
            Err(TrainError::InvalidConfig { arg, .. }) => arg,
            other => panic!("{:?}", other.map(|s| s.len())),
        }
    }
    let e = FigureKind::from_name("pie").unwrap_err().to_string();
    assert!(e.contains("figure") && e.contains("hib-embedding"), "{e}");
    assert_eq!(arg(draw(FigureKind::Roc, &[])), "row");
    assert_eq!(
        arg(draw(FigureKind::Roc, &["no-equals-sign".into()])),
        "row"
    );
    // A row ending in a comma (an empty run): the last run is not drawn, but the row is wrong.
    let trailing = format!("A={},", fixture().join("runs/a").display());
    assert_eq!(arg(draw(FigureKind::Roc, &[trailing])), "row");
    // Two OOD sets in one figure.
    let mixed = fixture_rows(&["A=runs/a", "other=runs/other-ood"]);
    assert_eq!(arg(draw(FigureKind::Roc, &mixed)), "row");
    // No row with a curve.
    assert_eq!(
        arg(draw(FigureKind::Roc, &fixture_rows(&["det=runs/det"]))),
        "row"
    );
    assert_eq!(
        arg(draw(
            FigureKind::Calibration,
            &fixture_rows(&["det=runs/det"])
        )),
        "row"
    );
    let run = |name: &str| fixture().join(name).display().to_string();
    assert_eq!(
        arg(draw(
            FigureKind::HibEmbedding,
            &[run("runs/mog1-d2"), run("runs/point-d3")]
        )),
        "run"
    );
    assert_eq!(
        arg(draw(FigureKind::HibEmbedding, &[run("runs/d4")])),
        "latent_dim"
    );
    // The steps figure: runs of two (N, D); a state.json of other epochs than its record's; an
    // accuracy out of [0, 1]; a run without a state.json.
    let steps = |rows: &[&str]| draw(FigureKind::HibSteps, &fixture_rows(rows));
    assert_eq!(arg(steps(&[])), "row");
    assert_eq!(arg(steps(&["a=runs/steps-1k,runs/steps-n3"])), "row");
    assert_eq!(arg(steps(&["a=runs/steps-1k", "b=runs/steps-n3"])), "row");
    assert_eq!(arg(steps(&["a=runs/steps-epochs"])), "run");
    assert_eq!(arg(steps(&["a=runs/steps-accuracy"])), "knn_accuracy");
    assert!(io_path(steps(&["a=runs/mog1-d2"])).ends_with("hib_tasks.json"));
    // A run folder without the file: an I/O error naming it.
    assert!(
        io_path(draw(FigureKind::HibEmbedding, &[run("runs/a")])).ends_with("hib_embedding.json")
    );
    assert!(
        io_path(draw(FigureKind::Roc, &fixture_rows(&["A=runs/mog1-d2"])))
            .ends_with("metrics.json")
    );
}

/// Fails unless the SVG text `svg` of the figure `name` holds every one of `texts`.
#[track_caller]
fn shows(svg: &str, name: &str, texts: &[&str]) {
    for text in texts {
        assert!(svg.contains(text), "{name} without `{text}`");
    }
}

/// The file an I/O error names; any other outcome fails the test.
#[track_caller]
fn io_path(r: Result<String, TrainError>) -> PathBuf {
    match r {
        Err(TrainError::Io { path, .. }) => path,
        other => panic!("{:?}", other.map(|s| s.len())),
    }
}

/// The (cx, cy) of every `<circle` of an SVG text, in order.
fn circle_centres(svg: &str) -> Vec<(f64, f64)> {
    let attribute = |element: &str, name: &str| -> f64 {
        let start = element.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let end = start + element[start..].find('"').unwrap();
        element[start..end].parse().unwrap()
    };
    svg.split("<circle")
        .skip(1)
        .map(|element| (attribute(element, "cx"), attribute(element, "cy")))
        .collect()
}
