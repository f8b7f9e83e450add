//! Retrieval tasks take class labels of any integer type, as the data has them (PyTorch's `i64`,
//! NumPy's `i32`, a dataset's `u8`), and refuse a negative label naming its index: the `-1`
//! "ignore" label that `as usize` would silently turn into a class.

use probdml::metrics::{
    self, exact, Distance, Embeddings, IntoLabels, Labels, Retrieval, RetrievalReport,
};
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
    let refused = |result: Result<Retrieval<'_>, Error>, arg: &str, index: usize| match result {
        Err(Error::OutOfDomainElement {
            arg: a,
            index: i,
            value,
            ..
        }) => assert_eq!((a, i, value), (arg, index, -1.0)),
        other => panic!("expected a refusal of `{arg}` at {index}, got {other:?}"),
    };
    refused(
        Retrieval::leave_one_out(e, &torch_labels, Distance::Euclidean),
        "labels",
        7,
    );
    let q = Embeddings::new(&X[..4], 1).unwrap();
    let db = Embeddings::new(&X[4..], 1).unwrap();
    refused(
        Retrieval::query_database(q, &[0i32, -1, 0, 0], db, &CLASSES[4..], Distance::Euclidean),
        "query_labels",
        1,
    );
    refused(
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
