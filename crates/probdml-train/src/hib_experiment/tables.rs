//! HIB Tables 1 and 2 from run files, beside the paper's values ([`super::paper`]): each cell
//! the mean ± sample standard deviation over a setting's runs (seeds), the paper's number
//! beside it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::error::{TrainError, TrainResult};
use crate::evaluate::MeanStd;

use super::paper::{table_1_row, table_2_row, METHODS, SETTINGS, TRAINING_STEPS};
use super::record::HibRunRecord;
use super::tasks::TwinMetrics;

/// A table row's key: (N, D, method, epochs), ordered as the paper orders its rows; a variant of
/// one of the paper's methods ("MoG-1 (sphere)") comes right after it, and one setting trained
/// for several epochs gives a row for each, the shortest first.
fn order(r: &HibRunRecord) -> (usize, usize, usize, String, usize) {
    let setting = SETTINGS
        .iter()
        .position(|&s| s == (r.digits, r.latent_dim))
        .unwrap_or(SETTINGS.len());
    let base = r.method.split(" (").next().unwrap_or_default();
    let method = METHODS
        .iter()
        .position(|&m| m == base)
        .unwrap_or(METHODS.len());
    (
        setting,
        r.digits * 1000 + r.latent_dim,
        method,
        r.method.clone(),
        r.epochs,
    )
}

/// `x̄ ± s` of the defined values with `digits` decimals (`x` alone for one run), "n/a" for
/// none, and "(k of n)" when only k of the n runs define it (τ undefined on the others).
fn cell(values: &[Option<f64>], digits: usize) -> String {
    let defined: Vec<f64> = values.iter().flatten().copied().collect();
    if defined.is_empty() {
        return "n/a".to_string();
    }
    let m = MeanStd::of(&defined);
    let mut s = match m.std {
        Some(sd) => format!("{:.*} ± {:.*}", digits, m.mean, digits, sd),
        None => format!("{:.*}", digits, m.mean),
    };
    if defined.len() < values.len() {
        let _ = write!(s, " ({} of {})", defined.len(), values.len());
    }
    s
}

/// The learning rate and its schedule: "1e-4 × 0.95/epoch", "1e-3 constant" (decay 1), the rate
/// alone where the decay is unknown, "—" where both are.
fn schedule(rate: Option<f64>, decay: Option<f64>) -> String {
    match (rate, decay) {
        (Some(lr), Some(1.0)) => format!("{lr:e} constant"),
        (Some(lr), Some(d)) => format!("{lr:e} × {d}/epoch"),
        (Some(lr), None) => format!("{lr:e}"),
        (None, _) => "—".to_string(),
    }
}

/// The first and last epoch's mean training loss of each run of a row, "—" where a record has
/// none: a loss that jumps by orders of magnitude in the first epoch marks a run that diverged.
fn losses(runs: &[&HibRunRecord]) -> String {
    let runs: Vec<String> = runs
        .iter()
        .map(|r| match (r.epoch_losses.first(), r.epoch_losses.last()) {
            (Some(first), Some(last)) => format!("{} → {}", loss(*first), loss(*last)),
            _ => "—".to_string(),
        })
        .collect();
    runs.join("; ")
}

/// A loss to three significant digits (whole numbers from 100 on), in scientific notation from
/// 10⁴ on.
fn loss(x: f64) -> String {
    if x.abs() >= 1e4 {
        format!("{x:.2e}")
    } else if x == 0.0 || !x.is_finite() {
        format!("{x}")
    } else {
        // Decimals after the leading digit at 10^magnitude, e.g. 0.6788 → "0.679".
        let magnitude = x.abs().log10().floor() as i64;
        format!("{:.*}", (2 - magnitude).max(0) as usize, x)
    }
}

/// Table 1, Table 2 and the scale of their runs, as Markdown.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `runs` when there is none, or when the runs of one row
/// (a method at one number of epochs) differ in scale (images, learning rate and its decay,
/// pairs, samples), or when two runs of a row share a seed.
pub fn hib_tables(records: &[HibRunRecord]) -> TrainResult<String> {
    if records.is_empty() {
        return Err(TrainError::config("runs", 0, "at least one hib_tasks.json"));
    }
    let mut rows: BTreeMap<_, Vec<&HibRunRecord>> = BTreeMap::new();
    for r in records {
        rows.entry(order(r)).or_default().push(r);
    }
    for runs in rows.values() {
        let first = runs[0];
        let scale = |r: &HibRunRecord| {
            (
                r.train_images,
                r.test_images,
                r.learning_rate.map(f64::to_bits),
                r.lr_decay.map(f64::to_bits),
                r.pairs,
                r.samples,
            )
        };
        if let Some(r) = runs.iter().find(|r| scale(r) != scale(first)) {
            return Err(TrainError::config(
                "runs",
                format!("N = {}, D = {}, {}", r.digits, r.latent_dim, r.method),
                "the runs of one row must share their scale (images, learning rate and its decay, \
                 pairs, samples)",
            ));
        }
        let mut seeds: Vec<u64> = runs.iter().map(|r| r.seed).collect();
        seeds.sort_unstable();
        if seeds.windows(2).any(|w| w[0] == w[1]) {
            return Err(TrainError::config(
                "runs",
                format!(
                    "N = {}, D = {}, {}",
                    first.digits, first.latent_dim, first.method
                ),
                "each run of a row needs its own seed",
            ));
        }
    }
    let twins = |runs: &[&HibRunRecord], f: &dyn Fn(&TwinMetrics) -> Option<f64>, digits| {
        [
            cell(
                &runs.iter().map(|r| f(&r.clean)).collect::<Vec<_>>(),
                digits,
            ),
            cell(
                &runs.iter().map(|r| f(&r.corrupt)).collect::<Vec<_>>(),
                digits,
            ),
        ]
    };
    // The same two cells for the numbers the training set lacks (the number gap's unseen part).
    let unseen_twins = |runs: &[&HibRunRecord], f: &dyn Fn(&TwinMetrics) -> Option<f64>, digits| {
        [0, 1].map(|twin| {
            cell(
                &runs
                    .iter()
                    .map(|r| r.unseen.as_ref().and_then(|u| f(&u[twin])))
                    .collect::<Vec<_>>(),
                digits,
            )
        })
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "Table 1: verification AP and K-NN (K = 5) identification accuracy, ours beside HIB \
         Table 1 (trained for {}k steps of 128 images, its Appendix A).\n\n| N, D | method | epochs | runs | AP \
         clean | paper | AP corrupt | paper | KNN clean | paper | KNN corrupt | paper |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
        TRAINING_STEPS / 1000
    );
    for runs in rows.values() {
        let r = runs[0];
        let paper = table_1_row(r.digits, r.latent_dim, &r.method);
        let p = |v: Option<f64>| v.map_or("—".to_string(), |x| format!("{x:.3}"));
        let [apc, apx] = twins(runs, &|t| Some(t.verification_ap), 3);
        let [knc, knx] = twins(runs, &|t| Some(t.knn_accuracy), 3);
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {apc} | {} | {apx} | {} | {knc} | {} | {knx} | {} |",
            r.digits,
            r.latent_dim,
            r.method,
            r.epochs,
            runs.len(),
            p(paper.map(|q| q.verification_ap[0])),
            p(paper.map(|q| q.verification_ap[1])),
            p(paper.map(|q| q.knn_accuracy[0])),
            p(paper.map(|q| q.knn_accuracy[1])),
        );
    }
    // Table 2 needs η: point embeddings have none, and a set of them alone has no Table 2.
    let with_eta: Vec<_> = rows
        .values()
        .filter(|runs| runs[0].clean.mean_eta.is_some())
        .collect();
    if !with_eta.is_empty() {
        out.push_str(
            "\nTable 2: Kendall τ between η(x) and AP / K-NN accuracy over 20 uncertainty bins \
             (sign inverted), ours beside HIB Table 2.\n\n| N, D | method | epochs | runs | AP τ \
             clean | paper | AP τ corrupt | paper | KNN τ clean | paper | KNN τ corrupt | paper \
             |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        );
    }
    for runs in with_eta {
        let r = runs[0];
        let paper = table_2_row(r.digits, r.latent_dim, &r.method);
        let p = |v: Option<(f64, f64)>| {
            v.map_or("—".to_string(), |(x, s)| format!("{x:.2} ± {s:.2}"))
        };
        let [apc, apx] = twins(runs, &|t| t.ap_tau, 2);
        let [knc, knx] = twins(runs, &|t| t.knn_tau, 2);
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {apc} | {} | {apx} | {} | {knc} | {} | {knx} | {} |",
            r.digits,
            r.latent_dim,
            r.method,
            r.epochs,
            runs.len(),
            p(paper.map(|q| q.ap_tau[0])),
            p(paper.map(|q| q.ap_tau[1])),
            p(paper.map(|q| q.knn_tau[0])),
            p(paper.map(|q| q.knn_tau[1])),
        );
    }
    // The galleries' table, for the rows with a run that recorded them (`hib_tasks.json`
    // written before they were kept lacks them).
    let with_galleries: Vec<_> = rows
        .values()
        .filter(|runs| runs.iter().any(|r| r.knn_galleries.is_some()))
        .collect();
    if !with_galleries.is_empty() {
        // The fit's size is the clean twin's, which the number gap makes smaller: every size
        // of the table's runs, ascending.
        let sizes: BTreeSet<usize> = with_galleries
            .iter()
            .flat_map(|runs| runs.iter())
            .filter_map(|r| r.knn_galleries.as_ref().map(|g| g.train_queries))
            .collect();
        let fit = sizes
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" or ");
        let _ = write!(
            out,
            "\nK-NN (K = 5) identification accuracy by gallery: the training images as trained \
             (Table 1's), the same images without their occlusions, the other images of the query's \
             own twin (leave one out), and {fit} unoccluded training images among themselves \
             (leave one out, the clean twin's gallery size).\n\n| N, D | method | epochs | runs | \
             training clean | corrupt | unoccluded training clean | corrupt | own twin clean | \
             corrupt | training among themselves |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
        );
    }
    for runs in with_galleries {
        let r = runs[0];
        let g = |f: &dyn Fn(&super::galleries::KnnGalleries) -> f64| {
            cell(
                &runs
                    .iter()
                    .map(|r| r.knn_galleries.as_ref().map(f))
                    .collect::<Vec<_>>(),
                3,
            )
        };
        let [knc, knx] = twins(runs, &|t| Some(t.knn_accuracy), 3);
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {knc} | {knx} | {} | {} | {} | {} | {} |",
            r.digits,
            r.latent_dim,
            r.method,
            r.epochs,
            runs.len(),
            g(&|g| g.unoccluded_train[0]),
            g(&|g| g.unoccluded_train[1]),
            g(&|g| g.twin_leave_one_out[0]),
            g(&|g| g.twin_leave_one_out[1]),
            g(&|g| g.train_leave_one_out),
        );
    }
    // The numbers the training set lacks, for the rows trained under the number gap.
    let with_unseen: Vec<_> = rows
        .values()
        .filter(|runs| runs.iter().any(|r| r.unseen.is_some()))
        .collect();
    if !with_unseen.is_empty() {
        out.push_str(
            "\nSeen and unseen numbers (the number gap, HIB Table 3: the training set holds 70 % \
             of the numbers): verification AP of each part's own pairs, and K-NN (K = 5) \
             accuracy of each image against the other images of its twin (leave one out; no \
             training image shows an unseen number).\n\n| N, D | method | epochs | runs | AP \
             seen clean | unseen clean | AP seen corrupt | unseen corrupt | KNN own twin seen \
             clean | unseen clean | KNN own twin seen corrupt | unseen corrupt |\n\
             |---|---|---|---|---|---|---|---|---|---|---|---|\n",
        );
    }
    for runs in with_unseen {
        let r = runs[0];
        let own_twin = |twin: usize| {
            cell(
                &runs
                    .iter()
                    .map(|r| r.knn_galleries.as_ref().map(|g| g.twin_leave_one_out[twin]))
                    .collect::<Vec<_>>(),
                3,
            )
        };
        let [apc, apx] = twins(runs, &|t| Some(t.verification_ap), 3);
        let [ap_unseen_c, ap_unseen_x] = unseen_twins(runs, &|t| Some(t.verification_ap), 3);
        let [knn_unseen_c, knn_unseen_x] = unseen_twins(runs, &|t| Some(t.knn_accuracy), 3);
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {apc} | {ap_unseen_c} | {apx} | {ap_unseen_x} | {} | \
             {knn_unseen_c} | {} | {knn_unseen_x} |",
            r.digits,
            r.latent_dim,
            r.method,
            r.epochs,
            runs.len(),
            own_twin(0),
            own_twin(1),
        );
    }
    // Whether η rises on the numbers no training image shows: uncertainty the paper's model
    // (aleatoric, HIB §2) need not carry, beside the occlusion it should; and whether η still
    // ranks the unseen part's images by how well they are matched (Table 2's τ; the seen part's
    // are Table 2's own).
    let eta_unseen: Vec<_> = rows
        .values()
        .filter(|runs| {
            runs.iter()
                .any(|r| r.unseen.as_ref().is_some_and(|u| u[0].mean_eta.is_some()))
        })
        .collect();
    if !eta_unseen.is_empty() {
        out.push_str(
            "\nThe uncertainty on seen and unseen numbers: the mean η(x) over each part's \
             twin, and on the unseen part Kendall τ between η(x) and AP / K-NN accuracy over 20 \
             uncertainty bins as in Table 2 (the K-NN within the twin; the seen part's τ are \
             Table 2's).\n\n| N, D | method | epochs | runs | η seen clean | unseen clean | η \
             seen corrupt | unseen corrupt | AP τ unseen clean | corrupt | KNN τ unseen clean | \
             corrupt |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        );
    }
    for runs in eta_unseen {
        let r = runs[0];
        let [seen_clean, seen_corrupt] = twins(runs, &|t| t.mean_eta, 4);
        let [eta_unseen_c, eta_unseen_x] = unseen_twins(runs, &|t| t.mean_eta, 4);
        let [ap_tau_c, ap_tau_x] = unseen_twins(runs, &|t| t.ap_tau, 2);
        let [knn_tau_c, knn_tau_x] = unseen_twins(runs, &|t| t.knn_tau, 2);
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {seen_clean} | {eta_unseen_c} | {seen_corrupt} | \
             {eta_unseen_x} | {ap_tau_c} | {ap_tau_x} | {knn_tau_c} | {knn_tau_x} |",
            r.digits,
            r.latent_dim,
            r.method,
            r.epochs,
            runs.len(),
        );
    }
    out.push_str(
        "\nThe runs: seeds, scale, mean training and evaluation wall time per run, machine.\n\n\
         | N, D | method | seeds | train images | test images per twin | epochs | learning rate | \
         loss, first → last epoch | pairs | samples | train s | evaluation s | device | CPU |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for runs in rows.values() {
        let r = runs[0];
        let mut seeds: Vec<u64> = runs.iter().map(|r| r.seed).collect();
        seeds.sort_unstable();
        let seeds: Vec<String> = seeds.iter().map(u64::to_string).collect();
        let mean = |f: &dyn Fn(&HibRunRecord) -> f64| {
            runs.iter().map(|r| f(r)).sum::<f64>() / runs.len() as f64
        };
        let mut machines: Vec<String> = runs
            .iter()
            .map(|r| format!("{} | {}", r.device, r.cpu))
            .collect();
        machines.dedup();
        let _ = writeln!(
            out,
            "| {}, {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} | {:.0} | {} |",
            r.digits,
            r.latent_dim,
            r.method,
            seeds.join(", "),
            r.train_images,
            r.test_images,
            r.epochs,
            schedule(r.learning_rate, r.lr_decay),
            losses(runs),
            r.pairs,
            r.samples,
            mean(&|r| r.train_seconds),
            mean(&|r| r.evaluation_seconds),
            machines.join("; "),
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(method: &str, seed: u64, ap: f64, tau: Option<f64>) -> HibRunRecord {
        let twin = TwinMetrics {
            verification_ap: ap,
            knn_accuracy: 0.5,
            ap_tau: tau,
            knn_tau: tau,
            mean_eta: tau.map(|_| 0.1),
        };
        HibRunRecord {
            method: method.to_string(),
            digits: 2,
            latent_dim: 2,
            seed,
            train_images: 1000,
            test_images: 500,
            epochs: 2,
            learning_rate: Some(1e-3),
            lr_decay: Some(0.95),
            epoch_losses: vec![29_646.8, 0.6788],
            pairs: 10_000,
            samples: 8,
            clean: twin.clone(),
            corrupt: twin,
            unseen: None,
            knn_galleries: None,
            train_seconds: 10.0,
            evaluation_seconds: 2.0,
            device: "Cpu".to_string(),
            cpu: "AMD EPYC".to_string(),
        }
    }

    #[test]
    fn cells_are_mean_and_sample_std_beside_the_paper() {
        // AP 0.90 and 0.94: mean 0.92, s = √((0.02² + 0.02²)/1) = 0.028.
        let t = hib_tables(&[
            run("MoG-1", 1, 0.94, Some(0.5)),
            run("point (margin)", 0, 0.7, None),
            run("point", 0, 0.8, None),
            run("MoG-1", 0, 0.90, None),
        ])
        .unwrap();
        assert!(
            t.contains("| 2, 2 | MoG-1 | 2 | 2 | 0.920 ± 0.028 | 0.989 | 0.920 ± 0.028 | 0.907 |"),
            "{t}"
        );
        // The point row comes first (the paper's order) and has no Table 2 row.
        let point = t.find("| 2, 2 | point | 2 | 1 | 0.800 | 0.987 |").unwrap();
        assert!(point < t.find("| 2, 2 | point (margin) |").unwrap());
        assert!(
            t.find("| 2, 2 | point (margin) |").unwrap()
                < t.find("| 2, 2 | MoG-1 | 2 | 2 |").unwrap()
        );
        assert!(point < t.find("| 2, 2 | MoG-1 | 2 | 2 |").unwrap());
        // τ defined on one run of two; the paper's 0.74 ± 0.03 beside it.
        assert!(
            t.contains("| 2, 2 | MoG-1 | 2 | 2 | 0.50 (1 of 2) | 0.74 ± 0.03 |"),
            "{t}"
        );
        assert_eq!(t.matches("| 2, 2 | point |").count(), 2, "{t}");
        assert!(
            t.contains(
                "| 2, 2 | MoG-1 | 0, 1 | 1000 | 500 | 2 | 1e-3 × 0.95/epoch | 2.96e4 → 0.679; \
                 2.96e4 → 0.679 \
                 | 10000 | 8 | 10 | 2 | Cpu | AMD EPYC |"
            ),
            "{t}"
        );
    }

    /// One setting trained for several numbers of epochs gives a row for each, the shortest
    /// first, each row its own runs (seeds may repeat across rows): 0.5 at 2 epochs, 0.7 ± 0.141
    /// (0.6 and 0.8) at 4.
    #[test]
    fn each_number_of_epochs_is_a_row() {
        let at = |epochs, seed, knn| {
            let mut r = run("point", seed, 0.9, None);
            r.epochs = epochs;
            r.clean.knn_accuracy = knn;
            r
        };
        let t = hib_tables(&[at(4, 0, 0.6), at(2, 0, 0.5), at(4, 1, 0.8)]).unwrap();
        let two = t
            .find("| 2, 2 | point | 2 | 1 | 0.900 | 0.987 | 0.900 | 0.880 | 0.500 | 0.871 |")
            .expect(&t);
        let four = t
            .find("| 2, 2 | point | 4 | 2 | 0.900 ± 0.000 | 0.987 | 0.900 ± 0.000 | 0.880 | 0.700 ± 0.141 |")
            .expect(&t);
        assert!(two < four, "{t}");
        assert!(
            t.contains("| 2, 2 | point | 0, 1 | 1000 | 500 | 4 |"),
            "{t}"
        );
        assert!(t.contains("500k steps"), "{t}");
    }

    #[test]
    fn point_embeddings_alone_have_no_table_2() {
        let t = hib_tables(&[run("point", 0, 0.8, None)]).unwrap();
        assert!(t.contains("Table 1:") && t.contains("The runs:"), "{t}");
        assert!(!t.contains("Table 2:"), "{t}");
        let t = hib_tables(&[run("point", 0, 0.8, None), run("MoG-1", 0, 0.9, Some(0.5))]).unwrap();
        assert!(t.contains("Table 2:"), "{t}");
    }

    /// The galleries' table has a row for each setting with a run that recorded them, each
    /// cell over the runs that did ("(1 of 2)"), and none without such a run.
    #[test]
    fn the_galleries_table_reads_each_gallery() {
        let with = |seed, knn: f64| {
            let mut r = run("point", seed, 0.9, None);
            r.clean.knn_accuracy = knn;
            r.knn_galleries = Some(super::super::galleries::KnnGalleries {
                unoccluded_train: [knn + 0.1, 0.2],
                twin_leave_one_out: [0.3, 0.4],
                train_leave_one_out: 0.6,
                train_queries: 500,
            });
            r
        };
        let t = hib_tables(&[with(0, 0.5), with(1, 0.7)]).unwrap();
        assert!(t.contains("and 500 unoccluded training images"), "{t}");
        assert!(
            t.contains(
                "| 2, 2 | point | 2 | 2 | 0.600 ± 0.141 | 0.500 ± 0.000 | 0.700 ± 0.141 | \
                 0.200 ± 0.000 | 0.300 ± 0.000 | 0.400 ± 0.000 | 0.600 ± 0.000 |"
            ),
            "{t}"
        );
        let t = hib_tables(&[with(0, 0.5), run("point", 1, 0.9, None)]).unwrap();
        assert!(
            t.contains("| 2, 2 | point | 2 | 2 | 0.500 ± 0.000 | 0.500 ± 0.000 | 0.600 (1 of 2) |"),
            "{t}"
        );
        // Rows of other sizes (the number gap's smaller twins) name every size.
        let mut small = with(0, 0.5);
        small.method = "point (number gap)".to_string();
        small.knn_galleries.as_mut().unwrap().train_queries = 497;
        let t = hib_tables(&[with(0, 0.5), small]).unwrap();
        assert!(
            t.contains("and 497 or 500 unoccluded training images"),
            "{t}"
        );
        let t = hib_tables(&[run("point", 0, 0.9, None)]).unwrap();
        assert!(!t.contains("by gallery"), "{t}");
    }

    /// Each unseen cell reads its twin and task, each seen cell the seen twin's; a row without
    /// unseen numbers gives no table.
    #[test]
    fn the_unseen_table_sets_each_part_beside_the_seen() {
        let with = |seed, unseen_ap: f64| {
            let mut r = run("point (number gap)", seed, 0.9, None);
            r.corrupt.verification_ap = 0.8;
            r.knn_galleries = Some(super::super::galleries::KnnGalleries {
                unoccluded_train: [0.1, 0.2],
                twin_leave_one_out: [0.3, 0.4],
                train_leave_one_out: 0.6,
                train_queries: 500,
            });
            let twin = |ap, knn| TwinMetrics {
                verification_ap: ap,
                knn_accuracy: knn,
                ap_tau: None,
                knn_tau: None,
                mean_eta: None,
            };
            r.unseen = Some([twin(unseen_ap, 0.25), twin(0.65, 0.15)]);
            r
        };
        let t = hib_tables(&[with(0, 0.7), with(1, 0.74)]).unwrap();
        assert!(
            t.contains(
                "| 2, 2 | point (number gap) | 2 | 2 | 0.900 ± 0.000 | 0.720 ± 0.028 | \
                 0.800 ± 0.000 | 0.650 ± 0.000 | 0.300 ± 0.000 | 0.250 ± 0.000 | \
                 0.400 ± 0.000 | 0.150 ± 0.000 |"
            ),
            "{t}"
        );
        let t = hib_tables(&[run("point", 0, 0.9, None)]).unwrap();
        assert!(!t.contains("unseen"), "{t}");
    }

    /// The η table reads each part's twin, seen from the run's twins, unseen from its unseen
    /// part, and the unseen part's τ from its twins in order (AP then K-NN, clean then
    /// corrupt); point embeddings (no η) and runs without unseen numbers give none.
    #[test]
    fn the_unseen_eta_table_sets_each_part_beside_the_seen() {
        let twin = |eta, ap_tau, knn_tau| TwinMetrics {
            verification_ap: 0.9,
            knn_accuracy: 0.5,
            ap_tau: Some(ap_tau),
            knn_tau: Some(knn_tau),
            mean_eta: Some(eta),
        };
        let with = |seed, unseen_clean: f64, knn_tau_clean: f64| {
            let mut r = run("MoG-1 (number gap)", seed, 0.9, Some(0.3));
            r.clean.mean_eta = Some(0.01);
            r.corrupt.mean_eta = Some(0.2);
            r.unseen = Some([twin(unseen_clean, 0.1, knn_tau_clean), twin(0.25, 0.6, 0.9)]);
            r
        };
        let t = hib_tables(&[with(0, 0.02, 0.5), with(1, 0.04, 0.7)]).unwrap();
        assert!(
            t.contains(
                "| 2, 2 | MoG-1 (number gap) | 2 | 2 | 0.0100 ± 0.0000 | 0.0300 ± 0.0141 | \
                 0.2000 ± 0.0000 | 0.2500 ± 0.0000 | 0.10 ± 0.00 | 0.60 ± 0.00 | \
                 0.60 ± 0.14 | 0.90 ± 0.00 |"
            ),
            "{t}"
        );
        let mut point = run("point (number gap)", 0, 0.9, None);
        point.unseen = Some(
            [twin(0.1, 0.1, 0.2), twin(0.1, 0.1, 0.2)].map(|t| TwinMetrics {
                mean_eta: None,
                ..t
            }),
        );
        for t in [
            hib_tables(&[point]).unwrap(),
            hib_tables(&[run("MoG-1", 0, 0.9, Some(0.3))]).unwrap(),
        ] {
            assert!(!t.contains("mean η(x) over each part"), "{t}");
        }
    }

    #[test]
    fn the_schedule_names_rate_and_decay() {
        assert_eq!(schedule(Some(1e-4), Some(0.95)), "1e-4 × 0.95/epoch");
        assert_eq!(schedule(Some(1e-3), Some(1.0)), "1e-3 constant");
        assert_eq!(schedule(Some(1e-3), None), "1e-3");
        assert_eq!(schedule(None, Some(0.95)), "—");
    }

    #[test]
    fn losses_have_three_significant_digits() {
        assert_eq!(loss(29_646.77), "2.96e4");
        assert_eq!(loss(1359.44), "1359");
        assert_eq!(loss(5.3), "5.30");
        assert_eq!(loss(0.6788), "0.679");
        assert_eq!(loss(0.0), "0");
    }

    #[test]
    fn bad_sets_of_runs_are_refused() {
        let arg = |runs: &[HibRunRecord]| match hib_tables(runs) {
            Err(TrainError::InvalidConfig { arg, rule, .. }) => (arg, rule),
            other => panic!("{other:?}"),
        };
        assert_eq!(arg(&[]).0, "runs");
        let mut other_scale = run("point", 1, 0.9, None);
        other_scale.train_images = 2000;
        assert!(arg(&[run("point", 0, 0.9, None), other_scale])
            .1
            .contains("scale"));
        let mut other_rate = run("point", 1, 0.9, None);
        other_rate.learning_rate = Some(1e-4);
        assert!(arg(&[run("point", 0, 0.9, None), other_rate])
            .1
            .contains("learning rate"));
        let mut other_decay = run("point", 1, 0.9, None);
        other_decay.lr_decay = Some(1.0);
        assert!(arg(&[run("point", 0, 0.9, None), other_decay])
            .1
            .contains("decay"));
        assert!(
            arg(&[run("point", 0, 0.9, None), run("point", 0, 0.8, None)])
                .1
                .contains("seed")
        );
    }
}
