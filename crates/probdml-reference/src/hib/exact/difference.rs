//! The law of the difference `Δ = z₁ − z₂` of two independent diagonal Gaussians, and of
//! `‖Δ‖²`, the quantity every exact route integrates against.

/// `Δ ~ N(δ, diag s)` with `δ = μ₁ − μ₂`, `s = σ₁² + σ₂²`, split into the coordinates with
/// `s_k > 0` (random) and those with `s_k = 0` (constant; they add `δ_k²` to `‖Δ‖²`), so that
///
/// `‖Δ‖² = offset + Σ_k weights_k (Z_k + shifts_k)²`, `Z_k` iid `N(0, 1)`,
///
/// with `weights_k = s_k`, `shifts_k = δ_k/√s_k` (a weighted sum of non-central χ²₁ terms).
#[derive(Debug, Clone, PartialEq)]
#[doc(hidden)]
pub struct DifferenceLaw {
    /// `δ_k` of the random coordinates.
    pub means: Vec<f64>,
    /// `s_k > 0` of the random coordinates.
    pub weights: Vec<f64>,
    /// `δ_k/√s_k` of the random coordinates.
    pub shifts: Vec<f64>,
    /// `Σ δ_k²` over the constant coordinates.
    pub offset: f64,
}

impl DifferenceLaw {
    /// The law of `z₁ − z₂` for `z_i ~ N(mu_i, diag var_i)` (inputs already checked).
    #[doc(hidden)]
    pub fn new(mu1: &[f64], var1: &[f64], mu2: &[f64], var2: &[f64]) -> Self {
        let mut law = Self {
            means: Vec::new(),
            weights: Vec::new(),
            shifts: Vec::new(),
            offset: 0.0,
        };
        for k in 0..mu1.len() {
            let delta = mu1[k] - mu2[k];
            let s = var1[k] + var2[k];
            if s > 0.0 {
                law.means.push(delta);
                law.weights.push(s);
                law.shifts.push(delta / s.sqrt());
            } else {
                law.offset += delta * delta;
            }
        }
        law
    }

    /// The number of random coordinates.
    #[doc(hidden)]
    pub fn random_dim(&self) -> usize {
        self.weights.len()
    }

    /// The common variance when every random coordinate has the same one (the isotropic case,
    /// where `‖Δ‖² − offset` is `s` times a non-central χ²).
    #[doc(hidden)]
    pub fn common_variance(&self) -> Option<f64> {
        let first = *self.weights.first()?;
        self.weights.iter().all(|&s| s == first).then_some(first)
    }
}
