//! The Laplace chain with a bias, `y = Wx + b`: the bias curvature of
//! `ggn::last_layer_ggn_diagonal_with_bias` against the diagonal of the dense GGN of that model,
//! differentiated by dual numbers through a model written here (`ggn::exact::ggn_dense`), which
//! never forms the augmented `[W | b]`, `[x; 1]` that the fast function relies on.
use num_dual::DualNum;
use probdml::contrastive::PairTarget;
use probdml::ggn::{self, exact, Approximation, Split};
use probdml_proofs::registry::budget::GGN_DIAGONAL;

/// `y_i = W x_i + b`, θ = (vec W row-major M×F, b).
struct BiasedLastLayer {
    theta: Vec<f64>,
    features: Vec<f64>,
    n_features: usize,
    n_outputs: usize,
}

impl exact::Model for BiasedLastLayer {
    fn n_params(&self) -> usize {
        self.theta.len()
    }
    fn n_outputs(&self) -> usize {
        self.n_outputs
    }
    fn n_points(&self) -> usize {
        self.features.len() / self.n_features
    }
    fn params(&self) -> &[f64] {
        &self.theta
    }
    fn outputs<D: DualNum<Primitive = f64> + Copy>(&self, theta: &[D]) -> Vec<D> {
        let (f, m) = (self.n_features, self.n_outputs);
        let (w, b) = theta.split_at(m * f);
        let mut y = Vec::new();
        for x in self.features.chunks_exact(f) {
            for k in 0..m {
                let mut s = b[k];
                for l in 0..f {
                    s += w[k * f + l] * x[l];
                }
                y.push(s);
            }
        }
        y
    }
}

#[test]
fn bias_curvature_is_the_dense_ggn_diagonal_of_wx_plus_b() {
    // M = 3, F = 2, B = 4, a non-zero bias: positive and negative pairs.
    let weights = [0.9, -0.3, 0.2, 1.1, -0.7, 0.4];
    let bias = [0.25, -0.5, 0.8];
    let features = [1.0, 0.5, -0.3, 1.2, 0.7, -0.9, -1.1, -0.2];
    let pairs = [
        PairTarget {
            i: 0,
            j: 1,
            target: 1.0,
        },
        PairTarget {
            i: 2,
            j: 3,
            target: 1.0,
        },
        PairTarget {
            i: 0,
            j: 2,
            target: -1.0,
        },
        PairTarget {
            i: 1,
            j: 3,
            target: -0.5,
        },
    ];
    let model = BiasedLastLayer {
        theta: weights.iter().chain(&bias).copied().collect(),
        features: features.to_vec(),
        n_features: 2,
        n_outputs: 3,
    };
    let p = 3 * 2 + 3;
    for split in [Split::Euclidean, Split::Arccos] {
        for approximation in [Approximation::Fixed, Approximation::Positive] {
            let (w, b) = ggn::last_layer_ggn_diagonal_with_bias(
                &weights,
                &bias,
                &features,
                2,
                &pairs,
                split,
                approximation,
            )
            .unwrap();
            let dense = exact::ggn_dense(&model, &pairs, split, approximation).unwrap();
            let diagonal: Vec<f64> = (0..p).map(|k| dense[k * p + k]).collect();
            let scale = diagonal.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            assert!(scale > 0.0);
            for (k, (fast, exact)) in w.iter().chain(&b).zip(&diagonal).enumerate() {
                assert!(
                    (fast - exact).abs() <= GGN_DIAGONAL * scale,
                    "{split:?} {approximation:?} θ_{k}: {fast} against {exact}"
                );
            }
        }
    }
}

#[test]
fn bias_of_the_wrong_length_is_an_error() {
    let pairs = [PairTarget {
        i: 0,
        j: 1,
        target: 1.0,
    }];
    let err = ggn::last_layer_ggn_diagonal_with_bias(
        &[1.0, 1.0],
        &[0.0],
        &[1.0, -2.0],
        1,
        &pairs,
        Split::Euclidean,
        Approximation::Fixed,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            probdml::Error::DimensionMismatch {
                arg: "bias",
                expected: 2,
                got: 1
            }
        ),
        "{err:?}"
    );
}
