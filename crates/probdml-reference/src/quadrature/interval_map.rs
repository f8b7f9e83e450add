//! Maps from the real line's infinite intervals to finite ones, so that one finite-interval rule
//! serves every integral.
//!
//! For `[a, ∞)`: `x = a + t/(1 − t)`, `t ∈ [0, 1)`, `dx = dt/(1 − t)²` (QUADPACK's `qagi` uses the
//! equivalent `x = a + (1 − t)/t`). An integrand decaying like `x^{−p}` becomes
//! `(1 − t)^{p−2}` near `t = 1`, integrable for `p > 1`; an exponentially decaying one becomes
//! smooth. The Gauss–Kronrod nodes are interior, so `t = 1` is never evaluated. `(−∞, b]` is the
//! mirror image; `(−∞, ∞)` is split at 0 into the two half-lines by the caller.

/// A segment of the real line, finite or half-infinite, as integrated by the adaptive driver on
/// `t ∈ [lo, hi]` of its finite parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
#[doc(hidden)]
pub enum Segment {
    /// `[a, b]`, both finite: `x = t`.
    Finite,
    /// `[a, ∞)`: `x = a + t/(1 − t)`, `t ∈ [0, 1)`.
    UpperHalfLine {
        /// The finite end.
        a: f64,
    },
    /// `(−∞, b]`: `x = b − t/(1 − t)`, `t ∈ [0, 1)`.
    LowerHalfLine {
        /// The finite end.
        b: f64,
    },
}

impl Segment {
    /// `f(x(t))·|dx/dt|` at parameter `t`.
    #[inline]
    #[doc(hidden)]
    pub fn pullback<F: FnMut(f64) -> f64>(&self, f: &mut F, t: f64) -> f64 {
        match *self {
            Segment::Finite => f(t),
            Segment::UpperHalfLine { a } => {
                let s = 1.0 - t;
                let x = a + t / s;
                // At an x where f underflows to 0 the Jacobian may overflow: 0·∞ is not the
                // integrand's value, 0 is.
                let value = f(x);
                if value == 0.0 {
                    0.0
                } else {
                    value / (s * s)
                }
            }
            Segment::LowerHalfLine { b } => {
                let s = 1.0 - t;
                let x = b - t / s;
                let value = f(x);
                if value == 0.0 {
                    0.0
                } else {
                    value / (s * s)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pullback_matches_the_change_of_variables() {
        let mut f = |x: f64| (-x).exp();
        let seg = Segment::UpperHalfLine { a: 1.0 };
        // t = 0.5 ↦ x = 2, dx/dt = 4.
        assert!((seg.pullback(&mut f, 0.5) - 4.0 * (-2.0_f64).exp()).abs() < 1e-15);
        let mut g = |x: f64| x.exp();
        let seg = Segment::LowerHalfLine { b: -1.0 };
        assert!((seg.pullback(&mut g, 0.5) - 4.0 * (-2.0_f64).exp()).abs() < 1e-15);
    }
}
