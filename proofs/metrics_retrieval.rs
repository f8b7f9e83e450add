//! # Retrieval metrics: recall@k, precision@k, mAP@k, mAP@R, R-precision (book chapter 08)
//!
//! Definitions (BTL §5; LAM §5 and Tables 1–5; Musgrave et al. 2020 for mAP@R):
//! with rel_i(q) = [the i-th nearest database item is a positive of q] and R(q) the number of
//! positives q can retrieve, recall@k = mean_q [∃ i ≤ k: rel_i], precision@k = mean_q
//! (1/k)Σ_{i≤k} rel_i, AP@k = (1/min(R, k)) Σ_{i≤k} precision@i · rel_i, MAP@R = AP over the
//! first R with normaliser R, R-precision = (1/R)Σ_{i≤R} rel_i; means over queries with
//! R ≥ 1. Ties in distance go to the smaller database index.
//!
//! Claims:
//!
//! 1. **Fast = exact.** The blocked, top-k, parallel twins return exactly the exact twins'
//!    neighbours and metrics (bitwise equal `f64`s: both reduce to the same ratios of integers
//!    summed in the same order) on inputs whose distance ties are exact: small-integer grids
//!    (every operation exact), rows drawn with repetition from a small pool of random reals
//!    (duplicates), and — for cosine, whose fast keys are the exact twin's operation for
//!    operation — arbitrary reals. Leave-one-out and separate queries, labels and positive sets.
//! 2. **Structure.** recall@k is nondecreasing in k and reaches 1 at k = max_k; every metric
//!    lies in [0, 1]; precision@k ≤ recall@k; labels and the equivalent positive sets give the
//!    same numbers; relabelling classes by a bijection changes nothing; queries without a
//!    positive are excluded and counted.
//! 3. **Invariances of the ranking.** Scaling all coordinates by 2 and translating them by an
//!    integer (Euclidean; exact on grids), or scaling rows by powers of two (cosine), leaves
//!    every metric unchanged; on unit vectors Euclidean and cosine rank alike.
//! 4. **Reference.** The metrics agree with the plain-Python definitions of
//!    `scripts/reference/metrics/gen_metrics_reference.py` on the committed cases within
//!    `METRIC_REFERENCE`.

// derivation: metrics::nearest_neighbours
// derivation: metrics::recall_at_k
// derivation: metrics::precision_at_k
// derivation: metrics::map_at_k
// derivation: metrics::map_at_r
// derivation: metrics::r_precision

use crate::metrics_reference_data as reference;
use crate::support;
use probdml::metrics::{self, exact, Distance, Embeddings, Retrieval};
use probdml_proofs::registry::budget::METRIC_REFERENCE;
use proptest::prelude::*;
use support::config;

/// An owned retrieval problem (the task borrows from it).
#[derive(Debug, Clone)]
struct Case {
    dim: usize,
    database: Vec<f64>,
    queries: Option<Vec<f64>>,
    query_labels: Vec<usize>,
    database_labels: Vec<usize>,
    positives: Option<Vec<Vec<usize>>>,
    distance: Distance,
}

impl Case {
    fn task(&self) -> Retrieval<'_> {
        let db = Embeddings::new(&self.database, self.dim).expect("valid database");
        let q = self
            .queries
            .as_ref()
            .map(|q| Embeddings::new(q, self.dim).expect("valid queries"));
        match (q, &self.positives) {
            (None, None) => Retrieval::leave_one_out(db, &self.database_labels, self.distance),
            (None, Some(p)) => Retrieval::leave_one_out_positives(db, p, self.distance),
            (Some(q), None) => Retrieval::query_database(
                q,
                &self.query_labels,
                db,
                &self.database_labels,
                self.distance,
            ),
            (Some(q), Some(p)) => Retrieval::query_database_positives(q, db, p, self.distance),
        }
        .expect("valid task")
    }

    fn query_rows(&self) -> usize {
        self.queries.as_ref().map_or(self.database.len(), Vec::len) / self.dim
    }
}

/// How coordinates are drawn: where distance ties come from.
#[derive(Debug, Clone, Copy)]
enum Values {
    /// Integers in [−2, 2]: exact arithmetic, ties between different rows.
    Grid,
    /// Rows repeated from a pool of four random real rows: ties between duplicates.
    Pool,
    /// Independent reals: no ties (w.p. 1); only used where both twins round alike.
    Continuous,
}

fn rows(values: Values, n: usize, dim: usize, nonzero: bool) -> BoxedStrategy<Vec<f64>> {
    let fix = move |mut v: Vec<f64>| {
        if nonzero {
            for row in v.chunks_exact_mut(dim) {
                if row.iter().all(|&x| x == 0.0) {
                    row[0] = 1.0;
                }
            }
        }
        v
    };
    match values {
        Values::Grid => prop::collection::vec((-2i32..=2).prop_map(f64::from), n * dim)
            .prop_map(fix)
            .boxed(),
        Values::Pool => (
            prop::collection::vec(-1.0..1.0f64, 4 * dim),
            prop::collection::vec(0usize..4, n),
        )
            .prop_map(move |(pool, pick)| {
                pick.iter()
                    .flat_map(|&p| pool[p * dim..(p + 1) * dim].to_vec())
                    .collect()
            })
            .prop_map(fix)
            .boxed(),
        Values::Continuous => prop::collection::vec(-1.0..1.0f64, n * dim)
            .prop_map(fix)
            .boxed(),
    }
}

/// Retrieval problems with many ties: 1–4 dimensions, 2–24 database items, 1–10 separate
/// queries or leave-one-out, 4 labels (some classes absent or single) or random positive sets.
fn case_with(
    values: impl Strategy<Value = Values>,
    distance: impl Strategy<Value = Distance>,
) -> impl Strategy<Value = Case> {
    (
        1usize..=4,
        2usize..=24,
        1usize..=10,
        any::<bool>(),
        any::<bool>(),
        values,
        distance,
    )
        .prop_flat_map(
            |(dim, n_db, n_sep, separate, use_positives, values, distance)| {
                let n_q = if separate { n_sep } else { n_db };
                let nonzero = distance == Distance::Cosine;
                (
                    rows(values, n_db, dim, nonzero),
                    if separate {
                        rows(values, n_q, dim, nonzero).prop_map(Some).boxed()
                    } else {
                        Just(None).boxed()
                    },
                    prop::collection::vec(0usize..4, n_q),
                    prop::collection::vec(0usize..4, n_db),
                    if use_positives {
                        prop::collection::vec(prop::collection::vec(0..n_db, 0..5), n_q)
                            .prop_map(Some)
                            .boxed()
                    } else {
                        Just(None).boxed()
                    },
                    Just((dim, separate, distance)),
                )
            },
        )
        .prop_map(
            |(
                database,
                queries,
                query_labels,
                database_labels,
                positives,
                (dim, separate, distance),
            )| {
                let database_labels_for_queries = if separate {
                    query_labels
                } else {
                    database_labels.clone()
                };
                Case {
                    dim,
                    database,
                    queries,
                    query_labels: database_labels_for_queries,
                    database_labels,
                    positives,
                    distance,
                }
            },
        )
}

/// Inputs on which both twins see exactly the same ties.
fn tied_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        case_with(
            prop_oneof![Just(Values::Grid), Just(Values::Pool)],
            Just(Distance::Euclidean)
        ),
        case_with(
            prop_oneof![
                Just(Values::Grid),
                Just(Values::Pool),
                Just(Values::Continuous)
            ],
            Just(Distance::Cosine)
        ),
    ]
}

/// Whether some query has a positive (otherwise the metrics are undefined by design).
fn has_scored_query(case: &Case) -> bool {
    let task = case.task();
    exact::per_query_at_k(&task, 1).is_ok()
}

proptest! {
    #![proptest_config(config(2048, 0x08_5e7a1))]

    /// Claim 1 for the neighbour search itself: identical indices and bitwise identical
    /// distances (the fast twin re-ranks its candidates with the exact twin's arithmetic), on
    /// tied inputs and on independent reals, Euclidean and cosine.
    #[test]
    fn fast_neighbours_equal_exact(
        case in prop_oneof![tied_case(), case_with(Just(Values::Continuous), Just(Distance::Euclidean))],
        k_seed in 0usize..100,
    ) {
        let task = case.task();
        let k = 1 + k_seed % task.max_k();
        prop_assert_eq!(metrics::nearest_neighbours(&task, k).unwrap(), exact::nearest_neighbours(&task, k).unwrap());
    }

    /// Claim 1 for every metric, at every cut-off, bitwise.
    #[test]
    fn fast_metrics_equal_exact(case in tied_case()) {
        prop_assume!(has_scored_query(&case));
        let task = case.task();
        let ks: Vec<usize> = (1..=task.max_k().min(6)).collect();
        prop_assert_eq!(metrics::evaluate_retrieval(&task, &ks).unwrap(), exact::evaluate_retrieval(&task, &ks).unwrap());
        for &k in &ks {
            prop_assert_eq!(metrics::recall_at_k(&task, k).unwrap(), exact::recall_at_k(&task, k).unwrap());
            prop_assert_eq!(metrics::precision_at_k(&task, k).unwrap(), exact::precision_at_k(&task, k).unwrap());
            prop_assert_eq!(metrics::map_at_k(&task, k).unwrap(), exact::map_at_k(&task, k).unwrap());
            prop_assert_eq!(metrics::per_query_at_k(&task, k).unwrap(), exact::per_query_at_k(&task, k).unwrap());
        }
        prop_assert_eq!(metrics::map_at_r(&task).unwrap(), exact::map_at_r(&task).unwrap());
        prop_assert_eq!(metrics::r_precision(&task).unwrap(), exact::r_precision(&task).unwrap());
    }

    /// Claim 2: monotone recall reaching 1, bounds, precision ≤ recall, exclusion count.
    #[test]
    fn structure_of_the_metrics(case in tied_case()) {
        prop_assume!(has_scored_query(&case));
        let task = case.task();
        let ks: Vec<usize> = (1..=task.max_k()).collect();
        let report = metrics::evaluate_retrieval(&task, &ks).unwrap();
        for w in report.recall.windows(2) {
            prop_assert!(w[0] <= w[1]);
        }
        prop_assert_eq!(*report.recall.last().unwrap(), 1.0);
        for c in 0..ks.len() {
            for v in [report.recall[c], report.precision[c], report.map[c]] {
                prop_assert!((0.0..=1.0).contains(&v));
            }
            prop_assert!(report.precision[c] <= report.recall[c]);
        }
        prop_assert!((0.0..=1.0).contains(&metrics::map_at_r(&task).unwrap()));
        prop_assert!((0.0..=1.0).contains(&metrics::r_precision(&task).unwrap()));
        let scored = metrics::per_query_at_k(&task, 1).unwrap().len();
        prop_assert_eq!(report.scored_queries, scored);
        prop_assert_eq!(report.scored_queries + report.excluded_queries, case.query_rows());
    }

    /// Claim 2: class labels and the positive sets they induce are the same relevance; a
    /// bijective relabelling changes nothing.
    #[test]
    fn labels_equal_their_positive_sets(case in tied_case(), shift in 1usize..10) {
        // This claim is about labels: drop any generated positive sets.
        let mut case = case;
        case.positives = None;
        prop_assume!(has_scored_query(&case));
        let task = case.task();
        let n_db = case.database.len() / case.dim;
        let mut as_sets = case.clone();
        as_sets.positives = Some((0..case.query_rows())
            .map(|q| (0..n_db).filter(|&j| case.database_labels[j] == case.query_labels[q]).collect())
            .collect());
        let mut relabelled = case.clone();
        relabelled.query_labels = case.query_labels.iter().map(|l| 7 * l + shift).collect();
        relabelled.database_labels = case.database_labels.iter().map(|l| 7 * l + shift).collect();
        let ks: Vec<usize> = (1..=task.max_k().min(5)).collect();
        let want = metrics::evaluate_retrieval(&task, &ks).unwrap();
        prop_assert_eq!(&metrics::evaluate_retrieval(&as_sets.task(), &ks).unwrap(), &want);
        prop_assert_eq!(&metrics::evaluate_retrieval(&relabelled.task(), &ks).unwrap(), &want);
        prop_assert_eq!(metrics::map_at_r(&as_sets.task()).unwrap(), metrics::map_at_r(&task).unwrap());
        prop_assert_eq!(metrics::r_precision(&as_sets.task()).unwrap(), metrics::r_precision(&task).unwrap());
    }

    /// Claim 3: exact similarity transforms of the grid (scale by 2, integer shift) and
    /// power-of-two row scalings under cosine keep every ranking, hence every metric.
    #[test]
    fn similarity_transforms_keep_the_metrics(
        case in case_with(Just(Values::Grid), prop_oneof![Just(Distance::Euclidean), Just(Distance::Cosine)]),
        shift in -3i32..=3,
        scales in prop::collection::vec(0i32..4, 40),
    ) {
        prop_assume!(has_scored_query(&case));
        let task = case.task();
        let ks: Vec<usize> = (1..=task.max_k().min(5)).collect();
        let want = metrics::evaluate_retrieval(&task, &ks).unwrap();
        let mut moved = case.clone();
        let dim = case.dim;
        let transform = |v: &[f64]| -> Vec<f64> {
            v.chunks_exact(dim)
                .enumerate()
                .flat_map(|(i, row)| {
                    row.iter()
                        .map(|&x| match case.distance {
                            Distance::Euclidean => 2.0 * x + f64::from(shift),
                            Distance::Cosine => x * f64::from(1 << scales[i % scales.len()]),
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        moved.database = transform(&case.database);
        moved.queries = case.queries.as_ref().map(|q| transform(q));
        prop_assert_eq!(metrics::evaluate_retrieval(&moved.task(), &ks).unwrap(), want);
    }

    /// Claim 3: on unit vectors the Euclidean and cosine rankings coincide (continuous inputs,
    /// where no two distances are within rounding of each other).
    #[test]
    fn unit_vectors_rank_alike(case in case_with(Just(Values::Continuous), Just(Distance::Euclidean)), k_seed in 0usize..100) {
        let mut unit = case.clone();
        let normalise = |v: &[f64]| -> Vec<f64> {
            v.chunks_exact(case.dim)
                .flat_map(|row| {
                    let n = row.iter().map(|x| x * x).sum::<f64>().sqrt();
                    row.iter().map(|x| x / n).collect::<Vec<_>>()
                })
                .collect()
        };
        unit.database = normalise(&case.database);
        unit.queries = case.queries.as_ref().map(|q| normalise(q));
        let mut cosine = unit.clone();
        cosine.distance = Distance::Cosine;
        let task = unit.task();
        let k = 1 + k_seed % task.max_k();
        let a = metrics::nearest_neighbours(&task, k).unwrap();
        let b = metrics::nearest_neighbours(&cosine.task(), k).unwrap();
        for q in 0..task.query_count() {
            prop_assert_eq!(a.indices(q), b.indices(q));
        }
    }
}

proptest! {
    #![proptest_config(config(256, 0x08_b10c))]

    /// Claim 1 across several leave-one-out blocks (the fast search computes the upper
    /// triangle of blocks of 128 and feeds both sides): neighbours and metrics equal the exact
    /// twin's.
    #[test]
    fn many_blocks_fast_equal_exact(
        (dim, database, labels) in (1usize..=4, 129usize..=400).prop_flat_map(|(dim, n)| (
            Just(dim),
            prop_oneof![rows(Values::Grid, n, dim, true), rows(Values::Pool, n, dim, true)],
            prop::collection::vec(0usize..6, n),
        )),
        cosine in any::<bool>(),
        k in prop_oneof![1usize..4, 100usize..129],
    ) {
        let distance = if cosine { Distance::Cosine } else { Distance::Euclidean };
        let task = Retrieval::leave_one_out(Embeddings::new(&database, dim).unwrap(), &labels, distance).unwrap();
        let fast = metrics::nearest_neighbours(&task, k).unwrap();
        let slow = exact::nearest_neighbours(&task, k).unwrap();
        for q in 0..task.query_count() {
            prop_assert_eq!(fast.indices(q), slow.indices(q), "query {}", q);
        }
        prop_assert_eq!(metrics::map_at_r(&task).unwrap(), exact::map_at_r(&task).unwrap());
        prop_assert_eq!(
            metrics::evaluate_retrieval(&task, &[1, 5]).unwrap(),
            exact::evaluate_retrieval(&task, &[1, 5]).unwrap()
        );
    }
}

/// Claim 2 on a hand-made case: a query of a class with no other member is excluded and
/// counted, not scored 1 (LAM's `apk` returns 1 for it).
#[test]
fn queries_without_positives_are_excluded() {
    let x = [0.0, 1.0, 2.0, 10.0];
    let labels = [0, 0, 0, 1];
    let task = Retrieval::leave_one_out(
        Embeddings::new(&x, 1).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let report = metrics::evaluate_retrieval(&task, &[1]).unwrap();
    assert_eq!((report.scored_queries, report.excluded_queries), (3, 1));
    assert_eq!(report.map[0], 1.0);
    assert_eq!(report.recall[0], 1.0);
}

/// Perfectly separated clusters: every metric is 1.
#[test]
fn separated_clusters_score_one() {
    let mut x = Vec::new();
    let mut labels = Vec::new();
    for c in 0..5 {
        for i in 0..6 {
            x.extend([100.0 * c as f64 + i as f64, 0.0]);
            labels.push(c);
        }
    }
    let task = Retrieval::leave_one_out(
        Embeddings::new(&x, 2).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let report = metrics::evaluate_retrieval(&task, &[1, 3, 5]).unwrap();
    assert_eq!(report.recall, vec![1.0; 3]);
    assert_eq!(report.precision, vec![1.0; 3]);
    assert_eq!(report.map, vec![1.0; 3]);
    assert_eq!(metrics::map_at_r(&task).unwrap(), 1.0);
    assert_eq!(metrics::r_precision(&task).unwrap(), 1.0);
}

/// A database larger than one cache block and one query chunk, with a cut-off large enough to
/// force the top-k buffer to compact repeatedly: fast = exact.
#[test]
fn blocks_chunks_and_compaction_agree_with_exact() {
    let n = 700;
    let dim = 5;
    let x: Vec<f64> = (0..n * dim)
        .map(|i| ((i * 7919 + i / dim * 104_729) % 9) as f64 - 4.0)
        .collect();
    let labels: Vec<usize> = (0..n).map(|i| (i * 31) % 7).collect();
    for distance in [Distance::Euclidean, Distance::Cosine] {
        let x: Vec<f64> = if distance == Distance::Cosine {
            x.chunks_exact(dim)
                .flat_map(|r| {
                    if r.iter().all(|&v| v == 0.0) {
                        vec![1.0; dim]
                    } else {
                        r.to_vec()
                    }
                })
                .collect()
        } else {
            x.clone()
        };
        let task =
            Retrieval::leave_one_out(Embeddings::new(&x, dim).unwrap(), &labels, distance).unwrap();
        for k in [1, 17, 300, n - 1] {
            let fast = metrics::nearest_neighbours(&task, k).unwrap();
            let slow = exact::nearest_neighbours(&task, k).unwrap();
            for q in 0..n {
                assert_eq!(
                    fast.indices(q),
                    slow.indices(q),
                    "{distance:?} k = {k}, query {q}"
                );
            }
        }
        assert_eq!(
            metrics::map_at_r(&task).unwrap(),
            exact::map_at_r(&task).unwrap()
        );
        assert_eq!(
            metrics::evaluate_retrieval(&task, &[1, 10, 100]).unwrap(),
            exact::evaluate_retrieval(&task, &[1, 10, 100]).unwrap()
        );
    }
}

/// Claim 4: the committed reference cases (plain-Python definitions, same tie rule).
#[test]
fn agrees_with_the_reference_definitions() {
    for case in reference::cases("retrieval") {
        let dim = case.usize("dim");
        let distance = match case.text("distance") {
            "euclidean" => Distance::Euclidean,
            "cosine" => Distance::Cosine,
            other => panic!("unknown distance {other}"),
        };
        let database = case.floats("database");
        let queries = case.has("queries").then(|| case.floats("queries"));
        let positives = case.has("positives").then(|| case.sets("positives"));
        let query_labels = if case.has("query_labels") {
            case.usizes("query_labels")
        } else {
            Vec::new()
        };
        let database_labels = if case.has("database_labels") {
            case.usizes("database_labels")
        } else {
            Vec::new()
        };
        let owned = Case {
            dim,
            database,
            queries,
            query_labels,
            database_labels,
            positives,
            distance,
        };
        let task = owned.task();
        let ks = case.usizes("ks");
        let what = |m: &str| format!("retrieval/{} {m}", case.name);
        for twin in 0..2 {
            let report = if twin == 0 {
                metrics::evaluate_retrieval(&task, &ks).unwrap()
            } else {
                exact::evaluate_retrieval(&task, &ks).unwrap()
            };
            for (c, &k) in ks.iter().enumerate() {
                reference::assert_close(
                    report.recall[c],
                    case.floats("recall")[c],
                    METRIC_REFERENCE,
                    &what(&format!("recall@{k}")),
                );
                reference::assert_close(
                    report.precision[c],
                    case.floats("precision")[c],
                    METRIC_REFERENCE,
                    &what(&format!("precision@{k}")),
                );
                reference::assert_close(
                    report.map[c],
                    case.floats("map")[c],
                    METRIC_REFERENCE,
                    &what(&format!("mAP@{k}")),
                );
            }
            assert_eq!(
                report.excluded_queries,
                case.usize("excluded"),
                "{}",
                what("excluded")
            );
        }
        for (got, name) in [
            (metrics::map_at_r(&task).unwrap(), "map_at_r"),
            (exact::map_at_r(&task).unwrap(), "map_at_r"),
            (metrics::r_precision(&task).unwrap(), "r_precision"),
            (exact::r_precision(&task).unwrap(), "r_precision"),
        ] {
            reference::assert_close(got, case.float(name), METRIC_REFERENCE, &what(name));
        }
    }
}

/// Claim 5 (the `f32` candidate search): rows of several blocks (256 rows each), exact
/// duplicates, and near-ties that `f32` cannot separate — a pool of 40 rows, each copy moved by
/// at most 10⁻⁹ relative, or not at all. The `f32` keys tie or misorder these; the candidate
/// margin keeps them all and the exact re-ranking orders them as the exact twin does.
fn near_tie_rows(n: usize, dim: usize, seed: &[u64]) -> Vec<f64> {
    let unit = |s: u64| (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
    let mut state = seed[0] | 1;
    let mut next = move || {
        // xorshift64*: a deterministic stream from the proptest-chosen seed.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let pool: Vec<f64> = (0..40 * dim).map(|_| unit(next())).collect();
    let mut rows = Vec::with_capacity(n * dim);
    for _ in 0..n {
        let p = (next() % 40) as usize;
        let moved = next() % 3;
        for d in 0..dim {
            let x = pool[p * dim + d];
            rows.push(match moved {
                0 => x,
                1 => x * (1.0 + 1e-9 * unit(next())),
                _ => x + 1e-12 * unit(next()),
            });
        }
    }
    rows
}

proptest! {
    #![proptest_config(config(256, 0x08_f32_5ea))]

    /// Claim 5, f64 and f32 inputs, one and two threads, leave-one-out and separate queries,
    /// both distances: neighbours and every metric bitwise those of the exact twin.
    #[test]
    fn candidate_search_equals_exact_across_blocks(
        n in 257usize..700,
        dim in 1usize..=6,
        seed in prop::collection::vec(any::<u64>(), 1),
        k in 1usize..=12,
        separate in any::<bool>(),
        cosine in any::<bool>(),
    ) {
        let distance = if cosine { Distance::Cosine } else { Distance::Euclidean };
        let mut rows = near_tie_rows(n, dim, &seed);
        if cosine {
            for row in rows.chunks_exact_mut(dim) {
                if row.iter().all(|&x| x == 0.0) { row[0] = 1.0; }
            }
        }
        let labels: Vec<usize> = (0..n).map(|i| (i * 7) % 5).collect();
        let rows32: Vec<f32> = rows.iter().map(|&x| x as f32).collect();
        let split = n / 3;
        for e in [Embeddings::new(&rows, dim).unwrap(), Embeddings::from_f32(&rows32, dim).unwrap()] {
            let task = if separate {
                let (q, db) = match e.coordinates() {
                    probdml::metrics::Coordinates::F64(x) => (Embeddings::new(&x[..split * dim], dim).unwrap(), Embeddings::new(&x[split * dim..], dim).unwrap()),
                    probdml::metrics::Coordinates::F32(x) => (Embeddings::from_f32(&x[..split * dim], dim).unwrap(), Embeddings::from_f32(&x[split * dim..], dim).unwrap()),
                };
                Retrieval::query_database(q, &labels[..split], db, &labels[split..], distance).unwrap()
            } else {
                Retrieval::leave_one_out(e, &labels, distance).unwrap()
            };
            let slow = exact::nearest_neighbours(&task, k).unwrap();
            let slow_report = exact::evaluate_retrieval(&task, &[1, k]).unwrap();
            for threads in [1, 2] {
                let t = task.with_threads(threads).unwrap();
                prop_assert_eq!(&metrics::nearest_neighbours(&t, k).unwrap(), &slow, "threads {}", threads);
                prop_assert_eq!(&metrics::evaluate_retrieval(&t, &[1, k]).unwrap(), &slow_report);
            }
        }
    }
}

/// Claim 5 on the extremes of the input range: rows near 10⁻³⁰⁰ (where the exact twin's own
/// sums underflow), near 10¹⁵³ (far beyond `f32`; 10³⁰⁰ rows are rejected by `Embeddings`), exact duplicates of one row (every key tied)
/// and a single coordinate: the fast twin still returns the exact twin's neighbours.
#[test]
fn candidate_search_on_extreme_scales() {
    // Rows in general position at D = 64, near 10⁻¹⁶², where each of the exact twin's D squares
    // is a few subnormal units: its keys then err by up to D·2⁻¹⁰⁷⁵ in given units, far more than
    // the f32 part of the margin, and the candidate set must cover that error to hold the exact
    // twin's neighbours.
    let spread: Vec<f64> = near_tie_rows(300 * 64, 1, &[11])
        .iter()
        .enumerate()
        .map(|(i, x)| x + 1e-3 * (i % 97) as f64)
        .collect();
    for scale in [1e-163, 1e-162, 1e-161] {
        let rows: Vec<f64> = spread.iter().map(|x| x * scale).collect();
        let labels: Vec<usize> = (0..300).map(|i| i % 3).collect();
        let task = Retrieval::leave_one_out(
            Embeddings::new(&rows, 64).unwrap(),
            &labels,
            Distance::Euclidean,
        )
        .unwrap();
        let (fast, slow) = (
            metrics::nearest_neighbours(&task, 5).unwrap(),
            exact::nearest_neighbours(&task, 5).unwrap(),
        );
        if let Some(q) = (0..300).find(|&q| fast.indices(q) != slow.indices(q)) {
            panic!(
                "D = 64, scale {scale:e}, query {q}: {:?} against the exact twin's {:?}",
                fast.indices(q),
                slow.indices(q)
            );
        }
        assert_eq!(fast, slow, "D = 64, scale {scale:e}: the distances");
    }
    let base = near_tie_rows(300, 3, &[7]);
    for scale in [1e-300, 1e-160, 1.0, 1e150, 1e153] {
        let rows: Vec<f64> = base.iter().map(|x| x * scale).collect();
        let labels: Vec<usize> = (0..300).map(|i| i % 3).collect();
        for distance in [Distance::Euclidean, Distance::Cosine] {
            let e = Embeddings::new(&rows, 3).unwrap();
            let Ok(task) = Retrieval::leave_one_out(e, &labels, distance) else {
                continue; // a row whose squared norm underflows is rejected for cosine
            };
            assert_eq!(
                metrics::nearest_neighbours(&task, 5).unwrap(),
                exact::nearest_neighbours(&task, 5).unwrap(),
                "scale {scale:e}, {distance:?}"
            );
        }
    }
    let same = vec![0.25; 600 * 2];
    let labels: Vec<usize> = (0..600).map(|i| i % 2).collect();
    let task = Retrieval::leave_one_out(
        Embeddings::new(&same, 2).unwrap(),
        &labels,
        Distance::Euclidean,
    )
    .unwrap();
    let nn = metrics::nearest_neighbours(&task, 10).unwrap();
    assert_eq!(nn, exact::nearest_neighbours(&task, 10).unwrap());
    assert_eq!(nn.indices(0), &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
}

/// Claim 5 with the integer Gram blocks of AVX2 CPUs (`metrics/quantized_gram.rs`): each
/// query is (1, small reals), so that rounding it to 16-bit integers times 2^e (e set by its
/// large first coordinate) moves its small coordinates by up to a quarter of their size, while
/// every item, a signed permutation of (1, 2, 3)/8 or (0, 1, 4)/8 behind a zero, is exact on
/// that grid (ε = 0). Items of one norm then differ only through the small coordinates, by
/// about the quantisation error of the query: the margin must cover the query's own residual
/// (the ε_q·M term), or the fast twin loses neighbours. On other CPUs the `f32` blocks run and
/// the claim is the one above.
#[test]
fn candidate_search_covers_the_queries_quantisation() {
    let mut items = Vec::new();
    for triple in [[1.0, 2.0, 3.0], [0.0, 1.0, 4.0]] {
        for p in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            for signs in 0..8 {
                let row: Vec<f64> = (0..3)
                    .map(|d| {
                        let s = if signs >> d & 1 == 1 { -1.0 } else { 1.0 };
                        s * triple[p[d]] / 8.0
                    })
                    .collect();
                items.extend([0.0, row[0], row[1], row[2]]);
            }
        }
    }
    let n_items = items.len() / 4;
    let queries: Vec<f64> = near_tie_rows(64, 3, &[23])
        .chunks_exact(3)
        .flat_map(|r| [1.0, 1e-3 * r[0], 1e-3 * r[1], 1e-3 * r[2]])
        .collect();
    let query_labels: Vec<usize> = (0..64).map(|i| i % 3).collect();
    let item_labels: Vec<usize> = (0..n_items).map(|i| i % 3).collect();
    let items32: Vec<f32> = items.iter().map(|&v| v as f32).collect();
    let queries32: Vec<f32> = queries.iter().map(|&v| v as f32).collect();
    for (q, db) in [
        (
            Embeddings::new(&queries, 4).unwrap(),
            Embeddings::new(&items, 4).unwrap(),
        ),
        (
            Embeddings::from_f32(&queries32, 4).unwrap(),
            Embeddings::from_f32(&items32, 4).unwrap(),
        ),
    ] {
        let task =
            Retrieval::query_database(q, &query_labels, db, &item_labels, Distance::Euclidean)
                .unwrap()
                .with_threads(1)
                .unwrap();
        for k in [1, 3, 12] {
            assert_eq!(
                metrics::nearest_neighbours(&task, k).unwrap(),
                exact::nearest_neighbours(&task, k).unwrap(),
                "k = {k}"
            );
        }
    }
}
