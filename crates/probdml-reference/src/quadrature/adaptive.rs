//! The globally adaptive driver: keep every panel, always bisect the one with the largest error
//! estimate, stop when the summed estimate meets the tolerance (QUADPACK's `qag` strategy
//! without its extrapolation).
//!
//! Global rather than local control matters for the integrals of this crate: characteristic-
//! function inversions and sphere marginals have most of their mass in a small part of the range,
//! and a local per-panel tolerance would waste evaluations where the integrand is negligible.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::interval_map::Segment;
use super::kronrod::gauss_kronrod_21;
use crate::compensated::Neumaier;
use crate::error::{Error, Result};

/// One panel in parameter space.
#[derive(Debug, Clone, Copy)]
struct Panel {
    segment: usize,
    lo: f64,
    hi: f64,
    value: f64,
    error: f64,
    absolute: f64,
}

impl PartialEq for Panel {
    fn eq(&self, other: &Self) -> bool {
        self.error.total_cmp(&other.error) == Ordering::Equal
    }
}
impl Eq for Panel {}
impl PartialOrd for Panel {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Panel {
    fn cmp(&self, other: &Self) -> Ordering {
        self.error.total_cmp(&other.error)
    }
}

/// What the driver returns: value, summed error estimate, evaluations, panels.
#[doc(hidden)]
pub struct Outcome {
    pub value: f64,
    pub error: f64,
    pub absolute: f64,
    pub evaluations: usize,
    pub panels: usize,
}

/// Integrates `f` over the given segments (each with its parameter range), bisecting globally.
///
/// `target(value)` is the acceptable total error for a current value; `max_panels` bounds the
/// work. Errors: a non-finite integrand value, or no convergence within `max_panels`.
#[doc(hidden)]
pub fn integrate_segments<F: FnMut(f64) -> f64>(
    f: &mut F,
    segments: &[(Segment, f64, f64)],
    target: impl Fn(f64) -> f64,
    max_panels: usize,
) -> Result<Outcome> {
    let mut heap = BinaryHeap::new();
    let mut evaluations = 0;
    let evaluate = |segment: usize, lo: f64, hi: f64, f: &mut F| -> Result<Panel> {
        let map = segments[segment].0;
        let mut g = |t: f64| map.pullback(f, t);
        let rule = gauss_kronrod_21(&mut g, lo, hi);
        if !rule.finite {
            return Err(Error::Undefined {
                arg: "f",
                quantity: "the integral",
                reason: "the integrand returned NaN or ±∞ inside the interval",
            });
        }
        Ok(Panel {
            segment,
            lo,
            hi,
            value: rule.kronrod,
            error: rule.error,
            absolute: rule.absolute,
        })
    };
    for (index, &(_, lo, hi)) in segments.iter().enumerate() {
        if hi > lo {
            heap.push(evaluate(index, lo, hi, f)?);
            evaluations += 21;
        }
    }
    loop {
        let (mut value, mut error, mut absolute) = (Neumaier::new(), 0.0, 0.0);
        for panel in heap.iter() {
            value.add(panel.value);
            error += panel.error;
            absolute += panel.absolute;
        }
        let value = value.total();
        let goal = target(value);
        if error <= goal || heap.is_empty() {
            return Ok(Outcome {
                value,
                error,
                absolute,
                evaluations,
                panels: heap.len(),
            });
        }
        // Every panel's estimate is floored at 50ε·∫|f| (the rounding of its sum); a goal below the
        // total floor cannot be met by any refinement, so fail now instead of exhausting the panels.
        if goal < 50.0 * f64::EPSILON * absolute {
            return Err(Error::NoConvergence {
                method: "adaptive Gauss–Kronrod (G10K21) quadrature: tolerance below the rounding floor 50ε·∫|f|",
                iterations: heap.len(),
            });
        }
        let worst = heap.pop().expect("the heap is not empty");
        let mid = 0.5 * (worst.lo + worst.hi);
        if heap.len() + 2 > max_panels || !(worst.lo < mid && mid < worst.hi) {
            return Err(Error::NoConvergence {
                method: "adaptive Gauss–Kronrod (G10K21) quadrature",
                iterations: heap.len() + 1,
            });
        }
        heap.push(evaluate(worst.segment, worst.lo, mid, f)?);
        heap.push(evaluate(worst.segment, mid, worst.hi, f)?);
        evaluations += 42;
    }
}
