//! The training module's GGN diagonal (tensor ops, `probdml_train::laplace::ggn`) against the
//! math crate's verified implementations on identical inputs: `probdml::ggn`'s fast twin and, on
//! tiny sizes, its exact twin.
//!
//! The tensor code sees (W, b) and features x; the math crate sees θ = [W | b] and x̃ = (x, 1)
//! (the bias is the weight of a constant feature), so both compute the same diagonal.
//! In double precision the two must agree to the crate's GGN budget (1e-12 times the size of
//! the summed terms, `registry::budget::GGN`); in single precision, as training runs, to 1e-4 of it.
#[path = "../../../proofs/ggn_support.rs"]
mod ggn_support;
#[path = "../../../proofs/support/mod.rs"]
mod support;

use ggn_support::{close_with_scale, Problem};
use probdml::contrastive::PairTarget;
use probdml::ggn::{self, exact, Approximation, Split};
use probdml_proofs::registry::budget::GGN;
use probdml_train::laplace::ggn::{last_layer_ggn_diagonal_tensor, PairTensors};
use probdml_train::mining::MinedPairs;
use proptest::prelude::*;
use support::config;
use tch::{Kind, Tensor};

/// A last-layer problem whose last feature is the constant 1 (the bias).
fn problem_with_bias() -> impl Strategy<Value = Problem> {
    (2usize..9, 2usize..5, 2usize..7, 2usize..4).prop_flat_map(|(b, m, f, classes)| {
        (
            proptest::collection::vec(-1.0f64..1.0, m * f),
            proptest::collection::vec(-2.0f64..2.0, b * f),
            proptest::collection::vec(0usize..classes, b),
            0.3f64..2.0,
        )
            .prop_map(move |(weights, mut features, labels, margin)| {
                for i in 0..b {
                    features[i * f + f - 1] = 1.0;
                }
                Problem {
                    weights,
                    features,
                    n_features: f,
                    labels,
                    margin,
                }
            })
    })
}

/// (W, b, x) tensors of a problem, in `kind`.
fn tensors(p: &Problem, kind: Kind) -> (Tensor, Tensor, Tensor) {
    let (f, m, b) = (p.n_features, p.n_outputs(), p.n_points());
    let theta = Tensor::from_slice(&p.weights).view([m as i64, f as i64]);
    let x = Tensor::from_slice(&p.features).view([b as i64, f as i64]);
    let fm = f as i64 - 1;
    (
        theta.narrow(1, 0, fm).to_kind(kind),
        theta.select(1, fm).to_kind(kind),
        x.narrow(1, 0, fm).to_kind(kind),
    )
}

fn pair_tensors(pairs: &[PairTarget], kind: Kind) -> PairTensors {
    let i: Vec<i64> = pairs.iter().map(|p| p.i as i64).collect();
    let j: Vec<i64> = pairs.iter().map(|p| p.j as i64).collect();
    let t: Vec<f64> = pairs.iter().map(|p| p.target).collect();
    PairTensors {
        i: Tensor::from_slice(&i),
        j: Tensor::from_slice(&j),
        target: Tensor::from_slice(&t).to_kind(kind),
    }
}

/// The tensor diagonal as θ-ordered f64 values ([W | b] row-major), like the math crate's.
fn tensor_diagonal(
    p: &Problem,
    pairs: &[PairTarget],
    split: Split,
    a: Approximation,
    kind: Kind,
) -> Vec<f64> {
    let (w, b, x) = tensors(p, kind);
    let (dw, db) =
        last_layer_ggn_diagonal_tensor(&w, &b, &x, &pair_tensors(pairs, kind), split, a).unwrap();
    let full = Tensor::cat(&[dw, db.unsqueeze(1)], 1)
        .to_kind(Kind::Double)
        .contiguous()
        .view([-1]);
    Vec::<f64>::try_from(&full).unwrap()
}

proptest! {
    #![proptest_config(config(96, 0x09_99_01))]

    /// Double precision: tensor = fast (chapter 04) = exact dense, all six combinations.
    #[test]
    fn tensor_diagonal_matches_fast_and_exact(p in problem_with_bias()) {
        prop_assume!(p.min_output_norm() > 1e-2);
        let Some(pairs) = p.pairs() else { return Ok(()) };
        let scale = p.term_scale(&pairs);
        for split in Split::ALL {
            for a in Approximation::ALL {
                let got = tensor_diagonal(&p, &pairs, split, a, Kind::Double);
                let fast = ggn::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &pairs, split, a).unwrap();
                let want = exact::last_layer_ggn_diagonal(&p.weights, &p.features, p.n_features, &pairs, split, a).unwrap();
                prop_assert!(close_with_scale(&got, &fast, GGN, scale), "{split:?}/{a:?} tensor {got:?} vs fast {fast:?}");
                prop_assert!(close_with_scale(&got, &want, GGN, scale), "{split:?}/{a:?} tensor {got:?} vs exact {want:?}");
            }
        }
    }
}

/// The training sizes (B = 64, F = 9216 + bias, D = 3) in single precision, on pairs mined as
/// training mines them, against the f64 fast implementation.
#[test]
fn float_diagonal_at_training_size_matches_fast() {
    tch::manual_seed(5);
    let (b, f, d) = (64i64, 9216i64, 3i64);
    let x = Tensor::rand([b, f], (Kind::Float, tch::Device::Cpu));
    let w = (Tensor::rand([d, f], (Kind::Float, tch::Device::Cpu)) - 0.5) * 0.05;
    let bias = (Tensor::rand([d], (Kind::Float, tch::Device::Cpu)) - 0.5) * 0.05;
    let labels = Tensor::arange(b, (Kind::Int64, tch::Device::Cpu)).remainder(10);
    let z = probdml_train::network::normalise(&x.linear(&w, Some(&bias)));
    let mined = MinedPairs::mine(&z, &labels, 0.7, 5000);
    let pairs_t = mined.hessian_pairs(Kind::Double);
    let to_vec_i = |t: &Tensor| Vec::<i64>::try_from(t).unwrap();
    let targets = Vec::<f64>::try_from(&pairs_t.target).unwrap();
    let pairs: Vec<PairTarget> = to_vec_i(&pairs_t.i)
        .into_iter()
        .zip(to_vec_i(&pairs_t.j))
        .zip(targets)
        .map(|((i, j), target)| PairTarget {
            i: i as usize,
            j: j as usize,
            target,
        })
        .collect();
    assert!(
        pairs.len() > 100,
        "the mined batch should hold pairs of both kinds"
    );
    let theta = Tensor::cat(&[w.shallow_clone(), bias.unsqueeze(1)], 1)
        .to_kind(Kind::Double)
        .contiguous()
        .view([-1]);
    let xt = Tensor::cat(
        &[
            x.shallow_clone(),
            Tensor::ones([b, 1], (Kind::Float, tch::Device::Cpu)),
        ],
        1,
    )
    .to_kind(Kind::Double)
    .contiguous()
    .view([-1]);
    let theta = Vec::<f64>::try_from(&theta).unwrap();
    let xt = Vec::<f64>::try_from(&xt).unwrap();
    let p = Problem {
        weights: theta.clone(),
        features: xt.clone(),
        n_features: f as usize + 1,
        labels: vec![0; b as usize],
        margin: 0.7,
    };
    let scale = p.term_scale(&pairs);
    for split in Split::ALL {
        for a in Approximation::ALL {
            let fast = ggn::last_layer_ggn_diagonal(&theta, &xt, f as usize + 1, &pairs, split, a)
                .unwrap();
            let (dw, db) = last_layer_ggn_diagonal_tensor(
                &w,
                &bias,
                &x,
                &pair_tensors(&pairs, Kind::Float),
                split,
                a,
            )
            .unwrap();
            let got = Tensor::cat(&[dw, db.unsqueeze(1)], 1)
                .to_kind(Kind::Double)
                .contiguous()
                .view([-1]);
            let got = Vec::<f64>::try_from(&got).unwrap();
            assert!(
                close_with_scale(&got, &fast, 1e-4, scale),
                "{split:?}/{a:?}: float tensor off by more than 1e-4 of the term scale {scale}"
            );
        }
    }
}

/// "full" is clamped at zero and "positive" ignores negative pairs entirely.
#[test]
fn approximations_keep_their_definitions() {
    let p = Problem {
        weights: vec![0.3, -0.2, 0.5, 0.1, 0.4, -0.6],
        features: vec![1.0, 0.5, 1.0, -0.4, 0.2, 1.0, 0.3, -0.9, 1.0],
        n_features: 3,
        labels: vec![0, 0, 1],
        margin: 2.0,
    };
    let positives = [PairTarget {
        i: 0,
        j: 1,
        target: 1.0,
    }];
    let mixed = [
        positives[0],
        PairTarget {
            i: 0,
            j: 2,
            target: -3.0,
        },
    ];
    for split in Split::ALL {
        let only_pos =
            tensor_diagonal(&p, &positives, split, Approximation::Positive, Kind::Double);
        let with_neg = tensor_diagonal(&p, &mixed, split, Approximation::Positive, Kind::Double);
        assert_eq!(
            only_pos, with_neg,
            "{split:?}: negatives changed the positive approximation"
        );
        let full = tensor_diagonal(&p, &mixed, split, Approximation::Full, Kind::Double);
        assert!(
            full.iter().all(|&v| v >= 0.0),
            "{split:?}: full not clamped: {full:?}"
        );
    }
}

/// Bad input is an error naming the argument, not a panic.
#[test]
fn bad_input_is_an_error() {
    let w = Tensor::ones([3, 4], (Kind::Double, tch::Device::Cpu));
    let b = Tensor::zeros([3], (Kind::Double, tch::Device::Cpu));
    let x = Tensor::ones([2, 4], (Kind::Double, tch::Device::Cpu));
    let pairs = |i: i64, j: i64| PairTensors {
        i: Tensor::from_slice(&[i]),
        j: Tensor::from_slice(&[j]),
        target: Tensor::from_slice(&[1.0f64]),
    };
    let err = last_layer_ggn_diagonal_tensor(
        &w,
        &b,
        &x,
        &pairs(0, 5),
        Split::Arccos,
        Approximation::Fixed,
    )
    .unwrap_err();
    assert!(err.to_string().contains("pairs"), "{err}");
    let x_bad = Tensor::ones([2, 5], (Kind::Double, tch::Device::Cpu));
    let err = last_layer_ggn_diagonal_tensor(
        &w,
        &b,
        &x_bad,
        &pairs(0, 1),
        Split::Arccos,
        Approximation::Fixed,
    )
    .unwrap_err();
    assert!(err.to_string().contains("features"), "{err}");
    let zero_w = Tensor::zeros([3, 4], (Kind::Double, tch::Device::Cpu));
    let err = last_layer_ggn_diagonal_tensor(
        &zero_w,
        &b,
        &x,
        &pairs(0, 1),
        Split::Euclidean,
        Approximation::Full,
    )
    .unwrap_err();
    assert!(err.to_string().contains("zero raw output"), "{err}");
}

/// Mining: targets +P/p and −N/q make the subsampled target sums equal the batch's pair counts
/// (the unbiasedness of chapter 03's rescaling, in expectation, holds pair by pair; here the
/// sums are exact by construction).
#[test]
fn mined_targets_rescale_to_the_batch() {
    tch::manual_seed(11);
    let z = probdml_train::network::normalise(&Tensor::randn(
        [64, 3],
        (Kind::Double, tch::Device::Cpu),
    ));
    let labels = Tensor::arange(64, (Kind::Int64, tch::Device::Cpu)).remainder(4);
    let all = MinedPairs::mine(&z, &labels, 1.2, i64::MAX);
    let capped = MinedPairs::mine(&z, &labels, 1.2, 300);
    let (p, n) = all.batch_counts;
    assert_eq!(capped.batch_counts, (p, n));
    let (kp, kn) = capped.kept();
    assert!(kp + kn <= 300 && kp > 0 && kn > 0, "kept {kp} + {kn}");
    // 64 points in 4 classes of 16: 4 · C(16, 2) = 480 unordered positive pairs.
    assert_eq!(p, 480);
    let t = capped.hessian_pairs(Kind::Double).target;
    let pos: f64 = t.gt(0.0).to_kind(Kind::Double).dot(&t).double_value(&[]);
    let neg: f64 = t.lt(0.0).to_kind(Kind::Double).dot(&t).double_value(&[]);
    assert!(
        (pos - p as f64).abs() < 1e-9 && (neg + n as f64).abs() < 1e-9,
        "{pos} {neg} vs {p} {n}"
    );
    // Every kept negative is inside the margin: d² < m².
    let (i, j) = &capped.negative;
    let d2 = (z.index_select(0, i) - z.index_select(0, j))
        .square()
        .sum_dim_intlist(1i64, false, Kind::Double);
    assert!(d2.max().double_value(&[]) < 1.2 * 1.2);
}
