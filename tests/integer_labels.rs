//! Every function that takes class labels (retrieval tasks, the contrastive loss and likelihood,
//! calibration, ProxyNCA++) takes them of any integer type, as the data has them (PyTorch's
//! `i64`, NumPy's `i32`, a dataset's `u8`), gives the `usize` answer bit for bit, and refuses a
//! negative label naming its index: the `-1` "ignore" label that `as usize` would silently turn
//! into a class.

use probdml::contrastive::{self, LossForm, PairBatch};
use probdml::metrics::{
    self, exact, Distance, Embeddings, IntoLabels, Labels, Retrieval, RetrievalReport,
};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::Error;

/// Two clusters on a line, interleaved labels; 12 points, 3 classes.
const X: [f64; 12] = [
    0.0, 0.1, 0.25, 0.3, 0.45, 1.0, 1.1, 1.15, 1.3, 2.0, 2.2, 2.25,
];
const CLASSES: [usize; 12] = [0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 0, 2];

fn reports(task: &Retrieval<'_>) -> (RetrievalReport, RetrievalReport, f64, f64) {
    let ks = [1, 2, 3];
    (
        metrics::evaluate_retrieval(task, &ks).unwrap(),
        exact::evaluate_retrieval(task, &ks).unwrap(),
        metrics::knn_identification(task, 3).unwrap().accuracy,
        exact::knn_identification(task, 3).unwrap().accuracy,
    )
}

#[test]
fn every_integer_type_gives_the_usize_answer_in_both_twins() {
    let e = Embeddings::new(&X, 1).unwrap();
    let want = reports(&Retrieval::leave_one_out(e, &CLASSES, Distance::Euclidean).unwrap());
    // The usize answer is not degenerate: some queries miss at k = 1.
    assert!(
        want.0.recall[0] > 0.0 && want.0.recall[0] < 1.0,
        "{:?}",
        want.0
    );
    assert_eq!(want.0, want.1);

    let as_i64: Vec<i64> = CLASSES.iter().map(|&c| c as i64).collect();
    let as_i32: Vec<i32> = CLASSES.iter().map(|&c| c as i32).collect();
    let as_u8: Vec<u8> = CLASSES.iter().map(|&c| c as u8).collect();
    // Large values of the wide types are classes too, compared exactly.
    let shifted: Vec<u64> = CLASSES.iter().map(|&c| u64::MAX - c as u64).collect();
    let tasks = [
        Retrieval::leave_one_out(e, &as_i64, Distance::Euclidean).unwrap(),
        Retrieval::leave_one_out(e, as_i32.as_slice(), Distance::Euclidean).unwrap(),
        Retrieval::leave_one_out(e, &as_u8, Distance::Euclidean).unwrap(),
        Retrieval::leave_one_out(e, &shifted, Distance::Euclidean).unwrap(),
    ];
    for task in &tasks {
        assert_eq!(reports(task), want, "{:?}", task.relevance());
    }
}

#[test]
fn query_and_database_labels_may_differ_in_type() {
    let q = Embeddings::new(&X[..4], 1).unwrap();
    let db = Embeddings::new(&X[4..], 1).unwrap();
    let want = Retrieval::query_database(q, &CLASSES[..4], db, &CLASSES[4..], Distance::Euclidean)
        .unwrap();
    let db_i64: Vec<i64> = CLASSES[4..].iter().map(|&c| c as i64).collect();
    let q_u8: [u8; 4] = [0, 0, 1, 0];
    let task = Retrieval::query_database(q, &q_u8, db, &db_i64, Distance::Euclidean).unwrap();
    assert_eq!(
        metrics::evaluate_retrieval(&task, &[1, 3]).unwrap(),
        metrics::evaluate_retrieval(&want, &[1, 3]).unwrap()
    );
}

#[test]
fn a_negative_label_is_refused_naming_its_argument_and_index() {
    let e = Embeddings::new(&X, 1).unwrap();
    let mut torch_labels: Vec<i64> = CLASSES.iter().map(|&c| c as i64).collect();
    torch_labels[7] = -1;
    refused_at(
        Retrieval::leave_one_out(e, &torch_labels, Distance::Euclidean),
        "labels",
        7,
    );
    let q = Embeddings::new(&X[..4], 1).unwrap();
    let db = Embeddings::new(&X[4..], 1).unwrap();
    refused_at(
        Retrieval::query_database(q, &[0i32, -1, 0, 0], db, &CLASSES[4..], Distance::Euclidean),
        "query_labels",
        1,
    );
    refused_at(
        Retrieval::query_database(
            q,
            &CLASSES[..4],
            db,
            &torch_labels[4..],
            Distance::Euclidean,
        ),
        "database_labels",
        3,
    );
    // The message says what to do.
    let message = Retrieval::leave_one_out(e, &torch_labels, Distance::Euclidean)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("labels") && message.contains("7") && message.contains(">= 0"),
        "{message}"
    );
}

#[test]
fn labels_borrow_what_the_user_has() {
    let v = vec![1i64, 2];
    assert_eq!((&v).into_labels(), Labels::I64(&[1, 2]));
    assert_eq!([1u8, 2].as_slice().into_labels(), Labels::U8(&[1, 2]));
    assert_eq!(Labels::U16(&[4]).into_labels().get(0), 4);
}

/// `err` is a refusal of `arg` at `index` with the value −1.
fn refused_at<T: std::fmt::Debug>(result: Result<T, Error>, arg: &str, index: usize) {
    match result {
        Err(Error::OutOfDomainElement {
            arg: a,
            index: i,
            value,
            ..
        }) => assert_eq!((a, i, value), (arg, index, -1.0)),
        other => panic!("expected a refusal of `{arg}` at {index}, got {other:?}"),
    }
}

/// Six unit vectors in the plane, three classes.
fn circle() -> (Vec<f64>, [usize; 6]) {
    let z = (0..6)
        .flat_map(|k| {
            let t = 0.9 * k as f64;
            [t.cos(), t.sin()]
        })
        .collect();
    (z, [0, 1, 0, 2, 1, 2])
}

#[test]
fn contrastive_losses_take_i64_labels_and_give_the_usize_bits() {
    let (z, classes) = circle();
    let torch: Vec<i64> = classes.iter().map(|&c| c as i64).collect();
    let small: [u8; 6] = [0, 1, 0, 2, 1, 2];
    for form in [LossForm::Squared, LossForm::Hadsell, LossForm::Linear] {
        let want = contrastive::loss(&z, 2, &classes, 1.5, form).unwrap();
        assert!(want > 0.0);
        assert_eq!(contrastive::loss(&z, 2, &torch, 1.5, form).unwrap(), want);
        assert_eq!(contrastive::loss(&z, 2, &small, 1.5, form).unwrap(), want);
        assert_eq!(
            contrastive::exact::loss(&z, 2, &torch, 1.5, form).unwrap(),
            contrastive::exact::loss(&z, 2, &classes, 1.5, form).unwrap()
        );
    }
    assert_eq!(
        contrastive::loss_gradient(&z, 2, &torch, 1.5).unwrap(),
        contrastive::loss_gradient(&z, 2, &classes, 1.5).unwrap()
    );
    assert_eq!(
        contrastive::negative_log_likelihood(&z, 2, &torch, 1.5).unwrap(),
        contrastive::negative_log_likelihood(&z, 2, &classes, 1.5).unwrap()
    );
    assert_eq!(
        contrastive::pair_targets(&z, 2, &torch, 1.5).unwrap(),
        contrastive::pair_targets(&z, 2, &classes, 1.5).unwrap()
    );
    assert_eq!(
        contrastive::class_likelihood(&z, 2, &torch, 2, 1.0, 0.5).unwrap(),
        contrastive::class_likelihood(&z, 2, &classes, 2, 1.0, 0.5).unwrap()
    );
    let batch = PairBatch {
        positives: vec![(0, 2), (1, 4)],
        negatives: vec![(0, 1), (3, 4)],
    };
    assert_eq!(
        contrastive::rescaled_gradient(&z, 2, &torch, 1.5, &batch).unwrap(),
        contrastive::rescaled_gradient(&z, 2, &classes, 1.5, &batch).unwrap()
    );
}

#[test]
fn contrastive_refuses_a_negative_label_in_both_twins() {
    let (z, classes) = circle();
    let mut torch: Vec<i64> = classes.iter().map(|&c| c as i64).collect();
    torch[4] = -1;
    // Cast with `as usize`, the −1 would be a fourth class and the loss a plausible number.
    let cast: Vec<usize> = torch.iter().map(|&c| c as usize).collect();
    assert!(contrastive::loss(&z, 2, &cast, 1.5, LossForm::Squared).is_ok());
    refused_at(
        contrastive::loss(&z, 2, &torch, 1.5, LossForm::Squared),
        "labels",
        4,
    );
    refused_at(
        contrastive::exact::loss(&z, 2, &torch, 1.5, LossForm::Squared),
        "labels",
        4,
    );
    refused_at(contrastive::pair_counts(&z, 2, &torch, 1.5), "labels", 4);
    refused_at(
        contrastive::exact::negative_log_likelihood(&z, 2, &torch, 1.5),
        "labels",
        4,
    );
}

#[test]
fn calibration_takes_i64_labels_and_refuses_a_negative_one() {
    let s1 = [0.0, 0.1, 5.0, 5.2];
    let s2 = [0.0, 5.1, 5.0, 0.2];
    let samples = [
        Embeddings::new(&s1, 1).unwrap(),
        Embeddings::new(&s2, 1).unwrap(),
    ];
    let classes = [7usize, 7, 8, 8];
    let torch = [7i64, 7, 8, 8];
    let votes = metrics::closed_set_votes(&samples, &classes, Distance::Euclidean).unwrap();
    assert_eq!(
        metrics::closed_set_votes(&samples, &torch, Distance::Euclidean).unwrap(),
        votes
    );
    assert_eq!(
        exact::closed_set_votes(&samples, &torch, Distance::Euclidean).unwrap(),
        votes
    );
    let want = metrics::closed_set_ece(&votes, &classes, 4).unwrap();
    assert_eq!(metrics::closed_set_ece(&votes, &torch, 4).unwrap(), want);
    assert_eq!(exact::closed_set_ece(&votes, &torch, 4).unwrap(), want);
    refused_at(
        metrics::closed_set_votes(&samples, &[7i64, -1, 8, 8], Distance::Euclidean),
        "labels",
        1,
    );
    refused_at(
        metrics::closed_set_ece(&votes, &[7i32, 7, 8, -1], 4),
        "labels",
        3,
    );
    refused_at(
        exact::closed_set_ece(&votes, &[7i32, 7, 8, -1], 4),
        "labels",
        3,
    );
}

#[test]
fn proxy_losses_take_i64_labels_and_refuse_a_negative_one() {
    let embeddings = [9.0, 1.0, 0.0, 0.5, 8.0, 1.0];
    let proxies = [10.0, 0.0, 0.0, 0.0, 10.0, 0.0, -10.0, 0.0, 0.0];
    let batch = |labels| ProxyBatch {
        embeddings: &embeddings,
        labels,
        proxies: &proxies,
        concentrations: &[],
        dim: 3,
    };
    let torch = [2i64, 1];
    for distance in [
        ProxyDistance::Cosine,
        ProxyDistance::ElVmf,
        ProxyDistance::KlVmf,
    ] {
        let want = nivmf::proxy_nca_loss(distance, &batch(Labels::Usize(&[2, 1])), 1.0).unwrap();
        let got = nivmf::proxy_nca_loss(distance, &batch((&torch).into_labels()), 1.0).unwrap();
        assert_eq!(got, want, "{distance:?}");
        let reference = |labels| nivmf::exact::proxy_nca_loss(distance, &batch(labels), 1.0);
        assert_eq!(
            reference(Labels::I64(&torch)).unwrap(),
            reference(Labels::Usize(&[2, 1])).unwrap()
        );
    }
    assert_eq!(
        nivmf::proxy_anchor_loss(&batch(Labels::I64(&torch)), 32.0, 0.1).unwrap(),
        nivmf::proxy_anchor_loss(&batch(Labels::Usize(&[2, 1])), 32.0, 0.1).unwrap()
    );
    let negative = [0i64, -1];
    refused_at(
        nivmf::proxy_nca_loss(ProxyDistance::Cosine, &batch(Labels::I64(&negative)), 1.0),
        "labels",
        1,
    );
    refused_at(
        nivmf::exact::proxy_anchor_loss(&batch(Labels::I64(&negative)), 32.0, 0.1),
        "labels",
        1,
    );
    // A label past the proxies is out of range, whatever its type.
    assert!(matches!(
        nivmf::proxy_nca_loss(ProxyDistance::Cosine, &batch(Labels::I64(&[0, 3])), 1.0),
        Err(Error::IndexOutOfRange {
            arg: "labels",
            position: 1,
            index: 3,
            ..
        })
    ));
}
