//! The precisions a score may come in: [`Score`] is `f32` or `f64`, so a network's `f32`
//! uncertainties are ranked as they are, without a widened copy of the whole slice.
//!
//! Every `f32` is exactly an `f64` and widening keeps order and equality (−0 and +0 stay equal),
//! so each metric widens one element where it reads it and then ranks, bins and sums in `f64`:
//! its result on `f32` scores is bitwise its result on the same values widened to `f64`.

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A score, uncertainty or confidence: `f32` or `f64` (sealed; no other type can implement it).
///
/// # Examples
///
/// ```
/// use probdml::metrics::auroc;
/// let id: [f32; 2] = [0.1, 0.4];
/// let ood: [f32; 2] = [0.35, 0.8];
/// assert_eq!(auroc(&id, &ood)?, 0.75);
/// # Ok::<(), probdml::Error>(())
/// ```
pub trait Score: sealed::Sealed + Copy + PartialOrd + Send + Sync + 'static {
    /// The value as an `f64` (exact: `f32 → f64` never rounds).
    fn widen(self) -> f64;
}

impl Score for f32 {
    #[inline]
    fn widen(self) -> f64 {
        f64::from(self)
    }
}

impl Score for f64 {
    #[inline]
    fn widen(self) -> f64 {
        self
    }
}
