//! Bad input to the chapter-04 GGN code: zero-norm raw outputs, pair indices outside the batch,
//! NaN targets — each a clear `Error`, in the fast and the exact twins alike.

use probdml::contrastive::PairTarget;
use probdml::ggn::{self, exact, Approximation, Split};
use probdml::Error;

const W: [f64; 4] = [1.0, 0.0, 0.0, 1.0];
const X: [f64; 4] = [1.0, 0.0, 0.0, 1.0];

fn pair(i: usize, j: usize, target: f64) -> PairTarget {
    PairTarget { i, j, target }
}

type Diagonal =
    fn(&[f64], &[f64], usize, &[PairTarget], Split, Approximation) -> probdml::Result<Vec<f64>>;
const TWINS: [Diagonal; 2] = [ggn::last_layer_ggn_diagonal, exact::last_layer_ggn_diagonal];

#[test]
fn zero_norm_raw_output_is_an_error() {
    let x = [1.0, 0.0, 0.0, 0.0]; // x_1 = 0 → y_1 = W x_1 = 0
    for f in TWINS {
        let err = f(
            &W,
            &x,
            2,
            &[pair(0, 1, 1.0)],
            Split::Euclidean,
            Approximation::Full,
        )
        .unwrap_err();
        assert!(matches!(err, Error::Undefined { .. }), "{err}");
    }
    assert!(matches!(
        ggn::arccos_output_hessian(&[0.0, 0.0], &[1.0, 0.0], 1.0),
        Err(Error::Undefined { .. })
    ));
    assert!(matches!(
        exact::arccos_output_hessian(&[0.0, 0.0], &[1.0, 0.0], 1.0),
        Err(Error::Undefined { .. })
    ));
    assert!(matches!(
        ggn::normalisation_jacobian(&[0.0, 0.0]),
        Err(Error::Undefined { .. })
    ));
}

#[test]
fn mismatched_pair_indices_are_an_error() {
    for f in TWINS {
        let err = f(
            &W,
            &X,
            2,
            &[pair(0, 2, 1.0)],
            Split::Arccos,
            Approximation::Fixed,
        )
        .unwrap_err();
        assert_eq!(
            err,
            Error::IndexOutOfRange {
                arg: "pairs",
                position: 0,
                index: 2,
                target: "batch of embeddings",
                len: 2
            }
        );
        assert!(err.to_string().contains("index 2"), "{err}");
    }
    assert!(matches!(
        ggn::fixed_weights(&[pair(5, 0, 1.0)], 2),
        Err(Error::IndexOutOfRange { .. })
    ));
    assert!(matches!(
        ggn::arccos_output_hessian(&[1.0, 0.0], &[1.0], 1.0),
        Err(Error::DimensionMismatch { .. })
    ));
}

#[test]
fn nan_targets_are_an_error() {
    for f in TWINS {
        let err = f(
            &W,
            &X,
            2,
            &[pair(0, 1, f64::NAN)],
            Split::Euclidean,
            Approximation::Positive,
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                Error::NotFiniteElement {
                    arg: "pairs.target",
                    index: 0,
                    ..
                }
            ),
            "{err}"
        );
    }
    assert!(matches!(
        ggn::euclidean_output_hessian(&[1.0], &[0.0], f64::NAN),
        Err(Error::NotFinite { .. })
    ));
    assert!(matches!(
        ggn::fixed_weights(&[pair(0, 1, f64::INFINITY)], 2),
        Err(Error::NotFiniteElement { .. })
    ));
}

#[test]
fn ragged_and_non_finite_matrices_are_an_error() {
    assert!(matches!(
        ggn::last_layer_ggn_diagonal(&W[..3], &X, 2, &[], Split::Arccos, Approximation::Full),
        Err(Error::RaggedRows { .. })
    ));
    assert!(matches!(
        ggn::last_layer_ggn_diagonal(
            &W,
            &[1.0, f64::NAN],
            2,
            &[],
            Split::Arccos,
            Approximation::Full
        ),
        Err(Error::NotFiniteElement { .. })
    ));
    assert!(matches!(
        ggn::last_layer_ggn_diagonal(&W, &X, 0, &[], Split::Arccos, Approximation::Full),
        Err(Error::InvalidDimension { .. })
    ));
}
