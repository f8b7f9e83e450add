//! The orthogonal Procrustes problem (Schönemann 1966): the orthogonal map that carries one set
//! of points onto another as closely as possible, used to put the independently trained members
//! of a deep ensemble into one frame ([`super::ensemble`]).

use crate::error::{TrainError, TrainResult};
use tch::{Kind, Tensor};

/// The orthogonal R (D × D, RᵀR = I, det R = ±1) minimising ‖X R − Y‖_F for X and Y (N × D, the
/// same rows in two frames), in f64: R = U Vᵀ for the SVD XᵀY = U Σ Vᵀ.
///
/// Why: ‖XR − Y‖² = ‖X‖² + ‖Y‖² − 2 tr(Rᵀ XᵀY), and tr(Rᵀ U Σ Vᵀ) = tr(Σ VᵀRᵀU) ≤ tr Σ, with
/// equality when VᵀRᵀU = I. Reflections are allowed: a metric on the sphere cannot tell a
/// frame from its mirror image, so a member may learn either.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `x` or `y` when they are not matrices of one shape
/// with at least one row, or hold a non-finite entry.
pub fn orthogonal_procrustes(x: &Tensor, y: &Tensor) -> TrainResult<Tensor> {
    let (xs, ys) = (x.size(), y.size());
    if xs.len() != 2 || xs[0] == 0 || xs[1] == 0 {
        return Err(TrainError::config(
            "x",
            format!("shape {xs:?}"),
            "must be an N × D matrix with N, D ≥ 1",
        ));
    }
    if ys != xs {
        return Err(TrainError::config(
            "y",
            format!("shape {ys:?}"),
            format!("must have x's shape {xs:?} (the same rows in another frame)"),
        ));
    }
    let (x, y) = (x.to_kind(Kind::Double), y.to_kind(Kind::Double));
    for (name, t) in [("x", &x), ("y", &y)] {
        if !bool::try_from(t.isfinite().all())? {
            return Err(TrainError::config(
                name,
                "a non-finite entry",
                "must be finite",
            ));
        }
    }
    // `svd` returns V itself (not Vᵀ); `linalg_svd` would need a driver, which only CUDA takes.
    let (u, _, v) = x.tr().matmul(&y).f_svd(true, true)?;
    Ok(u.matmul(&v.tr()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::Device;

    /// A rotation about a tilted axis and its mirror image (det −1), each recovered exactly
    /// from points and their images: Y = X R₀ gives R = R₀ and ‖XR − Y‖ at rounding.
    #[test]
    fn recovers_a_rotation_and_a_reflection() {
        let (c, s) = (0.6f64, 0.8f64);
        // R₀ = rotation by acos 0.6 about e₃, then the axes e₁ ↔ e₂ swapped by the mirror.
        let rotation = Tensor::from_slice(&[c, -s, 0., s, c, 0., 0., 0., 1.]).view([3, 3]);
        let mirror = Tensor::from_slice(&[0.0f64, 1., 0., 1., 0., 0., 0., 0., 1.]).view([3, 3]);
        tch::manual_seed(3);
        let x = Tensor::randn([40, 3], (Kind::Double, Device::Cpu));
        for r0 in [rotation.shallow_clone(), rotation.matmul(&mirror)] {
            let y = x.matmul(&r0);
            let r = orthogonal_procrustes(&x, &y).unwrap();
            let err = (&r - &r0).abs().max().double_value(&[]);
            assert!(err < 1e-12, "R differs from R₀ by {err}");
            let det = r0.det().double_value(&[]);
            assert!((r.det().double_value(&[]) - det).abs() < 1e-12);
        }
    }

    /// Bad shapes and values are errors naming the argument.
    #[test]
    fn bad_input_names_the_argument() {
        let x = Tensor::ones([4, 3], (Kind::Double, Device::Cpu));
        let cases = [
            (
                Tensor::ones([4], (Kind::Double, Device::Cpu)),
                x.shallow_clone(),
                "x",
            ),
            (
                x.shallow_clone(),
                Tensor::ones([4, 2], (Kind::Double, Device::Cpu)),
                "y",
            ),
            (x.shallow_clone(), x.shallow_clone() * f64::NAN, "y"),
        ];
        for (a, b, name) in cases {
            let e = orthogonal_procrustes(&a, &b).unwrap_err().to_string();
            assert!(e.contains(&format!("`{name}`")), "{e}");
        }
    }
}
