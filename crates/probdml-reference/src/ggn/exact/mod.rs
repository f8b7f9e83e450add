//! The reference for chapter 04: dense GGNs and Hessians of small networks, every derivative by
//! forward-mode dual numbers (`num-dual`: [`Dual64`] for Jacobians and gradients,
//! [`HyperDual64`] for exact second derivatives — no finite differences), assembled as
//! Σ J_pairᵀ H̃_pair J_pair in plain dense loops and eigen-decomposed with `faer`'s
//! self-adjoint eigensolver. Nothing here calls the closed forms of [`crate::ggn`].
//!
//! Two models: the linear last layer y = Wx ([`LastLayer`]) and one tanh hidden layer under it,
//! y = W tanh(Vu) ([`HiddenLayerNetwork`]). Both implement [`Model`].

use num_dual::{Dual64, DualNum, HyperDual64};

use crate::contrastive::input::PairTarget;
use crate::error::{Error, Result};
use crate::ggn::input::{
    check_finite_slice, check_last_layer, check_pair_points, check_pairs, check_raw_output,
    Approximation, Split,
};

/// Raw outputs of a model as a function of its parameters, generic over the dual number type.
pub trait Model {
    /// Number of parameters P.
    fn n_params(&self) -> usize;
    /// Output dimension M.
    fn n_outputs(&self) -> usize;
    /// Batch size B.
    fn n_points(&self) -> usize;
    /// The current parameters θ.
    fn params(&self) -> &[f64];
    /// Raw outputs y_i(θ), B×M row-major.
    fn outputs<D: DualNum<Primitive = f64> + Copy>(&self, theta: &[D]) -> Vec<D>;
}

/// y = Wx: θ = vec(W) (row-major M×F), features X (B×F).
#[derive(Debug, Clone)]
pub struct LastLayer<'a> {
    weights: &'a [f64],
    features: &'a [f64],
    n_features: usize,
    n_outputs: usize,
}

impl<'a> LastLayer<'a> {
    /// Wraps W (M×F) and X (B×F), both row-major.
    ///
    /// # Errors
    ///
    /// Ragged or non-finite inputs, or a zero raw output.
    pub fn new(weights: &'a [f64], features: &'a [f64], n_features: usize) -> Result<Self> {
        let (_, m) = check_last_layer(weights, features, n_features, &[])?;
        Ok(Self {
            weights,
            features,
            n_features,
            n_outputs: m,
        })
    }
}

impl Model for LastLayer<'_> {
    fn n_params(&self) -> usize {
        self.weights.len()
    }
    fn n_outputs(&self) -> usize {
        self.n_outputs
    }
    fn n_points(&self) -> usize {
        self.features.len() / self.n_features
    }
    fn params(&self) -> &[f64] {
        self.weights
    }
    fn outputs<D: DualNum<Primitive = f64> + Copy>(&self, theta: &[D]) -> Vec<D> {
        let (f, m) = (self.n_features, self.n_outputs);
        let mut y = Vec::with_capacity(self.n_points() * m);
        for x in self.features.chunks_exact(f) {
            for k in 0..m {
                let mut s = D::zero();
                for l in 0..f {
                    s += theta[k * f + l] * x[l];
                }
                y.push(s);
            }
        }
        y
    }
}

/// y = W tanh(Vu): θ = (vec V, vec W), V ∈ ℝ^{H×D}, W ∈ ℝ^{M×H}, inputs U (B×D).
#[derive(Debug, Clone)]
pub struct HiddenLayerNetwork {
    theta: Vec<f64>,
    inputs: Vec<f64>,
    n_inputs: usize,
    n_hidden: usize,
    n_outputs: usize,
}

impl HiddenLayerNetwork {
    /// Builds the network from V (H×D), W (M×H) and the inputs U (B×D), all row-major.
    ///
    /// # Errors
    ///
    /// Ragged or non-finite inputs, or a zero raw output.
    pub fn new(
        hidden: &[f64],
        out: &[f64],
        inputs: &[f64],
        n_inputs: usize,
        n_hidden: usize,
    ) -> Result<Self> {
        if n_inputs == 0 || n_hidden == 0 {
            return Err(Error::InvalidDimension {
                arg: "n_hidden",
                dim: 0,
                rule: "layers need width >= 1",
            });
        }
        if hidden.len() != n_hidden * n_inputs {
            return Err(Error::DimensionMismatch {
                arg: "hidden",
                expected: n_hidden * n_inputs,
                got: hidden.len(),
            });
        }
        if out.is_empty() || !out.len().is_multiple_of(n_hidden) {
            return Err(Error::RaggedRows {
                arg: "out",
                len: out.len(),
                dim: n_hidden,
            });
        }
        if !inputs.len().is_multiple_of(n_inputs) {
            return Err(Error::RaggedRows {
                arg: "inputs",
                len: inputs.len(),
                dim: n_inputs,
            });
        }
        check_finite_slice("hidden", hidden)?;
        check_finite_slice("out", out)?;
        check_finite_slice("inputs", inputs)?;
        let mut theta = hidden.to_vec();
        theta.extend_from_slice(out);
        let net = Self {
            theta,
            inputs: inputs.to_vec(),
            n_inputs,
            n_hidden,
            n_outputs: out.len() / n_hidden,
        };
        let y = net.outputs::<f64>(&net.theta);
        for yi in y.chunks_exact(net.n_outputs) {
            check_raw_output("out", yi)?;
        }
        Ok(net)
    }
}

impl Model for HiddenLayerNetwork {
    fn n_params(&self) -> usize {
        self.theta.len()
    }
    fn n_outputs(&self) -> usize {
        self.n_outputs
    }
    fn n_points(&self) -> usize {
        self.inputs.len() / self.n_inputs
    }
    fn params(&self) -> &[f64] {
        &self.theta
    }
    fn outputs<D: DualNum<Primitive = f64> + Copy>(&self, theta: &[D]) -> Vec<D> {
        let (d, h, m) = (self.n_inputs, self.n_hidden, self.n_outputs);
        let (v, w) = theta.split_at(h * d);
        let mut y = Vec::with_capacity(self.n_points() * m);
        for u in self.inputs.chunks_exact(d) {
            let hid: Vec<D> = (0..h)
                .map(|a| {
                    let mut s = D::zero();
                    for (b, ub) in u.iter().enumerate() {
                        s += v[a * d + b] * *ub;
                    }
                    s.tanh()
                })
                .collect();
            for k in 0..m {
                let mut s = D::zero();
                for a in 0..h {
                    s += w[k * h + a] * hid[a];
                }
                y.push(s);
            }
        }
        y
    }
}

/// (t/2)‖z_i − z_j‖² for dual numbers.
fn euclidean_pair_loss<D: DualNum<Primitive = f64> + Copy>(zi: &[D], zj: &[D], t: f64) -> D {
    let mut s = D::zero();
    for (a, b) in zi.iter().zip(zj) {
        s += (*a - *b) * (*a - *b);
    }
    s * (0.5 * t)
}

/// t(1 − y_iᵀy_j/(‖y_i‖‖y_j‖)) for dual numbers.
fn arccos_pair_loss<D: DualNum<Primitive = f64> + Copy>(yi: &[D], yj: &[D], t: f64) -> D {
    let (mut dot, mut ni, mut nj) = (D::zero(), D::zero(), D::zero());
    for (a, b) in yi.iter().zip(yj) {
        dot += *a * *b;
        ni += *a * *a;
        nj += *b * *b;
    }
    (D::one() - dot / (ni.sqrt() * nj.sqrt())) * t
}

fn normalise<D: DualNum<Primitive = f64> + Copy>(y: &[D]) -> Vec<D> {
    let mut n = D::zero();
    for a in y {
        n += *a * *a;
    }
    let r = n.sqrt();
    y.iter().map(|a| *a / r).collect()
}

/// The Hessian of `loss` at `x` by hyper-dual numbers: entry (a, b) is the ε₁ε₂ part with
/// ε₁ on x_a and ε₂ on x_b — exact to rounding, no step size.
#[doc(hidden)]
pub fn hyperdual_hessian(x: &[f64], loss: impl Fn(&[HyperDual64]) -> HyperDual64) -> Vec<f64> {
    let n = x.len();
    let mut h = vec![0.0; n * n];
    for a in 0..n {
        for b in a..n {
            let v: Vec<HyperDual64> = x
                .iter()
                .enumerate()
                .map(|(q, &xq)| {
                    HyperDual64::new(
                        xq,
                        if q == a { 1.0 } else { 0.0 },
                        if q == b { 1.0 } else { 0.0 },
                        0.0,
                    )
                })
                .collect();
            let e = loss(&v).eps1eps2;
            h[a * n + b] = e;
            h[b * n + a] = e;
        }
    }
    h
}

/// The gradient of `loss` at `x` by dual numbers, one direction at a time.
fn dual_gradient(x: &[f64], loss: impl Fn(&[Dual64]) -> Dual64) -> Vec<f64> {
    (0..x.len())
        .map(|a| {
            let v: Vec<Dual64> = x
                .iter()
                .enumerate()
                .map(|(q, &xq)| Dual64::new(xq, if q == a { 1.0 } else { 0.0 }))
                .collect();
            loss(&v).eps
        })
        .collect()
}

/// Twin of `crate::ggn::euclidean_output_hessian`: the Hessian of (t/2)‖z_i − z_j‖² by
/// hyper-dual numbers.
///
/// # Errors
///
/// As the fast twin.
pub fn euclidean_output_hessian(z_i: &[f64], z_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(z_i, z_j)?;
    crate::error::require_finite("target", target)?;
    let x: Vec<f64> = z_i.iter().chain(z_j).copied().collect();
    Ok(hyperdual_hessian(&x, |v| {
        euclidean_pair_loss(&v[..m], &v[m..], target)
    }))
}

/// Twin of `crate::ggn::arccos_output_hessian`: the Hessian of t(1 − ŷ_iᵀŷ_j) in (y_i, y_j)
/// by hyper-dual numbers.
///
/// # Errors
///
/// As the fast twin.
pub fn arccos_output_hessian(y_i: &[f64], y_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(y_i, y_j)?;
    crate::error::require_finite("target", target)?;
    check_raw_output("y_i", y_i)?;
    check_raw_output("y_j", y_j)?;
    let x: Vec<f64> = y_i.iter().chain(y_j).copied().collect();
    Ok(hyperdual_hessian(&x, |v| {
        arccos_pair_loss(&v[..m], &v[m..], target)
    }))
}

/// Twin of `crate::ggn::arccos_output_gradient`, by dual numbers.
///
/// # Errors
///
/// As the fast twin.
pub fn arccos_output_gradient(y_i: &[f64], y_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(y_i, y_j)?;
    crate::error::require_finite("target", target)?;
    check_raw_output("y_i", y_i)?;
    check_raw_output("y_j", y_j)?;
    let x: Vec<f64> = y_i.iter().chain(y_j).copied().collect();
    Ok(dual_gradient(&x, |v| {
        arccos_pair_loss(&v[..m], &v[m..], target)
    }))
}

/// Twin of `crate::ggn::euclidean_output_gradient`, by dual numbers.
///
/// # Errors
///
/// As the fast twin.
pub fn euclidean_output_gradient(z_i: &[f64], z_j: &[f64], target: f64) -> Result<Vec<f64>> {
    let m = check_pair_points(z_i, z_j)?;
    crate::error::require_finite("target", target)?;
    let x: Vec<f64> = z_i.iter().chain(z_j).copied().collect();
    Ok(dual_gradient(&x, |v| {
        euclidean_pair_loss(&v[..m], &v[m..], target)
    }))
}

/// The split's model outputs (z for Euclidean, y for Arccos) at `theta`.
fn split_outputs<D: DualNum<Primitive = f64> + Copy, N: Model>(
    model: &N,
    theta: &[D],
    split: Split,
) -> Vec<D> {
    let y = model.outputs(theta);
    match split {
        Split::Arccos => y,
        Split::Euclidean => y
            .chunks_exact(model.n_outputs())
            .flat_map(normalise)
            .collect(),
    }
}

/// The Jacobian of the split's outputs, (B·M)×P row-major, by P forward-mode passes.
fn split_jacobian<N: Model>(model: &N, split: Split) -> Vec<f64> {
    let (p, rows) = (model.n_params(), model.n_points() * model.n_outputs());
    let theta = model.params();
    let mut jac = vec![0.0; rows * p];
    for a in 0..p {
        let th: Vec<Dual64> = theta
            .iter()
            .enumerate()
            .map(|(q, &v)| Dual64::new(v, if q == a { 1.0 } else { 0.0 }))
            .collect();
        for (r, o) in split_outputs(model, &th, split).iter().enumerate() {
            jac[r * p + a] = o.eps;
        }
    }
    jac
}

/// The summed pair loss as a function of θ, either split (they are the same function).
fn loss_of<D: DualNum<Primitive = f64> + Copy, N: Model>(
    model: &N,
    theta: &[D],
    pairs: &[PairTarget],
    split: Split,
) -> D {
    let m = model.n_outputs();
    let out = split_outputs(model, theta, split);
    let mut s = D::zero();
    for p in pairs {
        let (a, b) = (&out[p.i * m..(p.i + 1) * m], &out[p.j * m..(p.j + 1) * m]);
        s += match split {
            Split::Euclidean => euclidean_pair_loss(a, b, p.target),
            Split::Arccos => arccos_pair_loss(a, b, p.target),
        };
    }
    s
}

/// The loss Σ_pairs ℓ_t computed through `split` (Euclidean: (t/2)‖z_i − z_j‖²; Arccos:
/// t(1 − ŷ_iᵀŷ_j)).
///
/// # Errors
///
/// A pair index outside the batch or a non-finite target.
pub fn loss<N: Model>(model: &N, pairs: &[PairTarget], split: Split) -> Result<f64> {
    check_pairs(pairs, model.n_points())?;
    Ok(loss_of(model, model.params(), pairs, split))
}

/// The gradient of the loss in θ, assembled through `split` as Σ_pairs J_pairᵀ ∇ℓ_pair (the
/// first-order term of the split), with the output gradient and J by dual numbers.
///
/// # Errors
///
/// As [`loss`].
pub fn split_gradient<N: Model>(model: &N, pairs: &[PairTarget], split: Split) -> Result<Vec<f64>> {
    check_pairs(pairs, model.n_points())?;
    let (p, m) = (model.n_params(), model.n_outputs());
    let jac = split_jacobian(model, split);
    let out = split_outputs::<f64, N>(model, model.params(), split);
    let mut g = vec![0.0; p];
    for pair in pairs {
        let x: Vec<f64> = out[pair.i * m..(pair.i + 1) * m]
            .iter()
            .chain(&out[pair.j * m..(pair.j + 1) * m])
            .copied()
            .collect();
        let go = dual_gradient(&x, |v| match split {
            Split::Euclidean => euclidean_pair_loss(&v[..m], &v[m..], pair.target),
            Split::Arccos => arccos_pair_loss(&v[..m], &v[m..], pair.target),
        });
        for (s, &pt) in [pair.i, pair.j].iter().enumerate() {
            for k in 0..m {
                let row = &jac[(pt * m + k) * p..(pt * m + k + 1) * p];
                for a in 0..p {
                    g[a] += row[a] * go[s * m + k];
                }
            }
        }
    }
    Ok(g)
}

/// The exact gradient of the loss in θ by dual numbers through the whole composition.
///
/// # Errors
///
/// As [`loss`].
pub fn loss_gradient<N: Model>(model: &N, pairs: &[PairTarget]) -> Result<Vec<f64>> {
    check_pairs(pairs, model.n_points())?;
    Ok(dual_gradient(model.params(), |th| {
        loss_of(model, th, pairs, Split::Arccos)
    }))
}

/// The exact Hessian of the loss in θ, P×P row-major, by hyper-dual numbers through the whole
/// composition (P(P+1)/2 passes).
///
/// # Errors
///
/// As [`loss`].
pub fn loss_hessian<N: Model>(model: &N, pairs: &[PairTarget]) -> Result<Vec<f64>> {
    check_pairs(pairs, model.n_points())?;
    Ok(hyperdual_hessian(model.params(), |th| {
        loss_of(model, th, pairs, Split::Arccos)
    }))
}

/// The dense GGN Σ_pairs J_pairᵀ H̃_pair J_pair (P×P row-major) of `split` under
/// `approximation`, with H̃ the pair's hyper-dual output Hessian after the approximation's rule
/// (positive: drop t < 0; fixed: drop the cross blocks; full: keep all). The ReLU of "full" acts
/// on the diagonal only and is left to [`last_layer_ggn_diagonal`]; this matrix is unclamped.
///
/// # Errors
///
/// As [`loss`].
pub fn ggn_dense<N: Model>(
    model: &N,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Result<Vec<f64>> {
    check_pairs(pairs, model.n_points())?;
    let (p, m) = (model.n_params(), model.n_outputs());
    let jac = split_jacobian(model, split);
    let out = split_outputs::<f64, N>(model, model.params(), split);
    let mut g = vec![0.0; p * p];
    let n = 2 * m;
    let mut hj = vec![0.0; n * p];
    for pair in pairs {
        if pair.target == 0.0 || (approximation == Approximation::Positive && pair.target < 0.0) {
            continue;
        }
        let (yi, yj) = (
            &out[pair.i * m..(pair.i + 1) * m],
            &out[pair.j * m..(pair.j + 1) * m],
        );
        let mut h = match split {
            Split::Euclidean => euclidean_output_hessian(yi, yj, pair.target)?,
            Split::Arccos => arccos_output_hessian(yi, yj, pair.target)?,
        };
        if approximation == Approximation::Fixed {
            for a in 0..n {
                for b in 0..n {
                    if (a < m) != (b < m) {
                        h[a * n + b] = 0.0;
                    }
                }
            }
        }
        // Rows of J_pair: the M rows of point i, then the M rows of point j.
        let row = |r: usize| {
            let pt = if r < m { pair.i } else { pair.j };
            &jac[(pt * m + r % m) * p..(pt * m + r % m + 1) * p]
        };
        for a in 0..n {
            let dst = &mut hj[a * p..(a + 1) * p];
            dst.iter_mut().for_each(|v| *v = 0.0);
            for b in 0..n {
                let hab = h[a * n + b];
                if hab != 0.0 {
                    for (d, jb) in dst.iter_mut().zip(row(b)) {
                        *d += hab * jb;
                    }
                }
            }
        }
        for a in 0..n {
            let ja = row(a);
            let hja = &hj[a * p..(a + 1) * p];
            for (u, &jau) in ja.iter().enumerate() {
                if jau != 0.0 {
                    for (gv, h) in g[u * p..(u + 1) * p].iter_mut().zip(hja) {
                        *gv += jau * h;
                    }
                }
            }
        }
    }
    Ok(g)
}

/// Twin of `crate::ggn::last_layer_ggn_diagonal`: the diagonal of the dense
/// [`ggn_dense`] of [`LastLayer`], clamped at 0 for "full".
///
/// # Errors
///
/// As the fast twin.
pub fn last_layer_ggn_diagonal(
    weights: &[f64],
    features: &[f64],
    n_features: usize,
    pairs: &[PairTarget],
    split: Split,
    approximation: Approximation,
) -> Result<Vec<f64>> {
    check_last_layer(weights, features, n_features, pairs)?;
    let model = LastLayer::new(weights, features, n_features)?;
    let p = model.n_params();
    let g = ggn_dense(&model, pairs, split, approximation)?;
    Ok((0..p)
        .map(|a| {
            let d = g[a * p + a];
            if approximation == Approximation::Full {
                d.max(0.0)
            } else {
                d
            }
        })
        .collect())
}

/// Eigenvalues (ascending) of a symmetric n×n row-major matrix, by `faer`'s self-adjoint
/// eigensolver.
///
/// # Errors
///
/// The length is not n², a non-finite entry, or the solver fails to converge.
pub fn symmetric_eigenvalues(matrix: &[f64], n: usize) -> Result<Vec<f64>> {
    if matrix.len() != n * n {
        return Err(Error::DimensionMismatch {
            arg: "matrix",
            expected: n * n,
            got: matrix.len(),
        });
    }
    check_finite_slice("matrix", matrix)?;
    let a = faer::Mat::<f64>::from_fn(n, n, |i, j| matrix[i * n + j]);
    a.self_adjoint_eigenvalues(faer::Side::Lower)
        .map_err(|_| Error::NoConvergence {
            method: "faer self-adjoint eigensolver",
            iterations: 0,
        })
}
