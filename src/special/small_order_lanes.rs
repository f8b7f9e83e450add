//! g(ν, x) = ln I_ν(x) − ν ln x for one order ν < 20 at many arguments, in lanes: the power
//! series (x < 32) and the Hankel expansion (x ≥ max(32, ¾ν²)) of `log_bessel_i.rs`, each run
//! across the lanes of a chunk whose arguments all fall in it.
//!
//! Below ν = 20 the scalar kernel picks its regime per argument, so a loop of scalar calls
//! cannot vectorise; and it recomputes the order's part of the series, −ν ln 2 − ln Γ(ν+1), at
//! every call (a double-double ln Γ: most of the cost at small x). Here that part is formed once,
//! and a chunk of arguments that share a regime goes through it in straight-line lanes; a chunk
//! that straddles a boundary is left to the scalar kernel. The recurrence regime
//! (32 ≤ x < ¾ν²) runs in lanes too ([`SmallOrderLanes::scaled_in`]): a caller that sorts its
//! arguments meets each regime as one run ([`SmallOrderRegime`]). Every lane performs the scalar
//! kernel's operations, so the values are its bits (`proofs/batch_kernels.rs`).

use super::debye::{DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER};
use super::double_double::DoubleDouble;
use super::hankel::{hankel_applies, log_bessel_i_scaled_hankel_lanes, HANKEL_MIN_ARGUMENT};
use super::log_bessel_i::log_bessel_i_scaled;
use super::recurrence::log_bessel_i_scaled_recurrence_lanes;
use super::series::{log_bessel_i_scaled_series_lanes, series_prefactor};

/// The regime of the scalar kernel at one argument of a small order, in increasing `x`: each
/// is an interval, so sorted arguments meet them as consecutive runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SmallOrderRegime {
    /// `x < 32`: the power series.
    Series,
    /// `32 ≤ x < ¾ν²`: the order recurrence down from the Debye expansion at `ν + N ≥ 20`.
    Recurrence,
    /// `max(32, ¾ν²) ≤ x ≤ 10¹⁵⁰`: the Hankel expansion with the branch-free logarithm.
    Hankel,
    /// `x > 10¹⁵⁰`: the scalar kernel (its logarithm's range branches).
    Scalar,
}

/// One order `ν < 20` (not the closed-form `ν = ½`) with its series prefactor.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallOrderLanes {
    order: DoubleDouble,
    prefactor: DoubleDouble,
}

impl SmallOrderLanes {
    /// `None` where the scalar kernel takes another route for every argument: `ν ≥ 20` (the
    /// Debye expansion, laned in `debye.rs`) and `ν = ½` (the closed form).
    #[inline(always)]
    pub(crate) fn new(order: DoubleDouble) -> Option<Self> {
        if order.hi >= DEBYE_MIN_ORDER || (order.hi == 0.5 && order.lo == 0.0) {
            return None;
        }
        Some(Self {
            order,
            prefactor: series_prefactor(order),
        })
    }

    /// The scalar kernel's regime at `x` (finite, `≥ 0`).
    #[inline(always)]
    pub(crate) fn regime(&self, x: f64) -> SmallOrderRegime {
        if x < HANKEL_MIN_ARGUMENT {
            SmallOrderRegime::Series
        } else if !hankel_applies(self.order.hi, x) {
            SmallOrderRegime::Recurrence
        } else if x <= DEBYE_LANES_MAX_ARGUMENT {
            SmallOrderRegime::Hankel
        } else {
            SmallOrderRegime::Scalar
        }
    }

    /// g(ν, x_l) for every lane, all `x_l` in `regime`: the same bits as `log_bessel_i_scaled`
    /// (which [`SmallOrderRegime::Scalar`] calls per lane).
    #[inline(always)]
    pub(crate) fn scaled_in<const L: usize>(
        &self,
        regime: SmallOrderRegime,
        x: &[f64; L],
        out: &mut [DoubleDouble; L],
    ) {
        match regime {
            SmallOrderRegime::Series => {
                log_bessel_i_scaled_series_lanes(self.prefactor, self.order.hi, x, out);
            }
            SmallOrderRegime::Recurrence => {
                log_bessel_i_scaled_recurrence_lanes(self.order, x, out)
            }
            SmallOrderRegime::Hankel => log_bessel_i_scaled_hankel_lanes(self.order, x, out),
            SmallOrderRegime::Scalar => {
                for (o, &v) in out.iter_mut().zip(x) {
                    *o = log_bessel_i_scaled(self.order, v);
                }
            }
        }
    }

    /// g(ν, x_l) for every lane when all `x_l` (finite, `≥ 0`) share the series or the Hankel
    /// regime (the latter up to `x ≤ 10¹⁵⁰`), the same bits as `log_bessel_i_scaled`; `false`,
    /// with `out` unspecified, otherwise.
    #[inline(always)]
    pub(crate) fn scaled<const L: usize>(&self, x: &[f64; L], out: &mut [DoubleDouble; L]) -> bool {
        let nu = self.order.hi;
        if x.iter().all(|&v| v < HANKEL_MIN_ARGUMENT) {
            log_bessel_i_scaled_series_lanes(self.prefactor, nu, x, out);
            true
        } else if x
            .iter()
            .all(|&v| hankel_applies(nu, v) && v <= DEBYE_LANES_MAX_ARGUMENT)
        {
            log_bessel_i_scaled_hankel_lanes(self.order, x, out);
            true
        } else {
            false
        }
    }
}
