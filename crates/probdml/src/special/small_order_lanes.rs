//! g(ν, x) = ln I_ν(x) − ν ln x for one order ν < 20 at many arguments, in lanes: the power
//! series (x < 32), the order recurrence (32 ≤ x < ¾ν²) and the Hankel expansion
//! (x ≥ max(32, ¾ν²)) of `log_bessel_i.rs`, each run across the lanes of a chunk whose
//! arguments all fall in it.
//!
//! Below ν = 20 the scalar kernel picks its regime per argument, so a loop of scalar calls
//! cannot vectorise; and it recomputes the order's part of the series, −ν ln 2 − ln Γ(ν+1), at
//! every call (a double-double ln Γ: most of the cost at small x). Here that part is formed once,
//! and a chunk of arguments that share a regime goes through it in straight-line lanes
//! ([`SmallOrderLanes::scaled_in`]). A caller whose arguments are sorted meets each regime as
//! one run ([`SmallOrderRegime`]); [`SmallOrderLanes::by_regime`] visits unsorted ones in
//! that order. Every lane performs the scalar kernel's operations, so the values are its bits
//! (`proofs/batch_kernels.rs`).

use super::debye::{DEBYE_LANES, DEBYE_LANES_MAX_ARGUMENT, DEBYE_MIN_ORDER};
use super::hankel::{hankel_applies, log_bessel_i_scaled_hankel_lanes, HANKEL_MIN_ARGUMENT};
use super::log_bessel_i::log_bessel_i_scaled;
use super::recurrence::log_bessel_i_scaled_recurrence_lanes;
use super::series::{log_bessel_i_scaled_series_lanes, series_prefactor};
use crate::compensated::DoubleDouble;
use crate::special::logarithm::binary_exponent;

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

    /// The order ν.
    #[inline(always)]
    pub(crate) fn order(&self) -> f64 {
        self.order.hi
    }

    /// The order's part of the power series, `−ν ln 2 − ln Γ(ν+1)` (`g` at `x = 0`).
    #[inline(always)]
    pub(crate) fn prefactor(&self) -> DoubleDouble {
        self.prefactor
    }

    /// The scalar kernel's regime at `x` (finite, `≥ 0`): the enum of
    /// [`regime_rank`](Self::regime_rank).
    #[inline(always)]
    pub(crate) fn regime(&self, x: f64) -> SmallOrderRegime {
        match self.regime_rank(x) {
            0 => SmallOrderRegime::Series,
            1 => SmallOrderRegime::Recurrence,
            2 => SmallOrderRegime::Hankel,
            _ => SmallOrderRegime::Scalar,
        }
    }

    /// The scalar kernel's regime at `x` (finite, `≥ 0`) as its rank `0..=3` in
    /// [`SmallOrderRegime`]'s order, by comparisons summed instead of branches, so that a pass
    /// over many arguments (the order checks of the batch kernels) vectorises: past the series'
    /// range (`x ≥ 32`), past the recurrence's (the Hankel expansion applies), past `10¹⁵⁰`
    /// (where Hankel applies too, `ν < 20`).
    #[inline(always)]
    pub(crate) fn regime_rank(&self, x: f64) -> u8 {
        let past_series = x >= HANKEL_MIN_ARGUMENT;
        let hankel = hankel_applies(self.order.hi, x);
        let scalar = hankel & (x > DEBYE_LANES_MAX_ARGUMENT);
        u8::from(past_series) + u8::from(hankel) + u8::from(scalar)
    }

    /// Whether the regimes of `xs` never decrease (a sorted grid), in one pass without early
    /// exit (vectorised; the search for the first decrease ran a branch per argument and cost a
    /// quarter of a batched ln C₁₆ over a sorted grid).
    #[inline(always)]
    pub(crate) fn regimes_in_order(&self, xs: &[f64]) -> bool {
        xs.iter().zip(xs.iter().skip(1)).fold(true, |ok, (&a, &b)| {
            ok & (self.regime_rank(a) <= self.regime_rank(b))
        })
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

    /// Every `x_i` of `xs` (finite, `≥ 0`) through the lanes of its regime: `eval(regime, x,
    /// out)` fills a chunk's lanes (all of `x` in `regime`; `out` starts from `zero`), handed to
    /// `emit` as `(indices, x, out)` with `x[l] = xs[i_l]` for each index `i_l` of the chunk (a
    /// short chunk repeats its last argument in the spare lanes).
    ///
    /// The arguments are visited in the order of a stable counting sort by regime and, within
    /// the series, by binary exponent, so that each regime — the series (`x < 32 = 2⁵`), the
    /// recurrence, the Hankel expansion, each an interval of `x` — is one run, cut into chunks
    /// of [`DEBYE_LANES`] that go through that regime's lanes (`eval`; g by [`scaled_in`](Self::scaled_in));
    /// within the series, a chunk's arguments share an octave and so nearly the number of
    /// terms that the slowest lane needs. Unsorted arguments visited in their own order
    /// straddle a regime boundary in most chunks, which would then cost one scalar call per
    /// value; a comparison sort costs more than the lanes save.
    #[inline(always)]
    pub(crate) fn by_regime<T: Copy>(
        &self,
        xs: &[f64],
        zero: T,
        mut eval: impl FnMut(SmallOrderRegime, &[f64; DEBYE_LANES], &mut [T; DEBYE_LANES]),
        mut emit: impl FnMut(&[usize], &[f64; DEBYE_LANES], &[T; DEBYE_LANES]),
    ) {
        // Buckets 0..=16: the series by octave (2⁻¹² and below share the first; 2⁴ ≤ x < 2⁵
        // is the last); 17, 18, 19: the recurrence, the Hankel expansion, x > 10¹⁵⁰.
        const BUCKETS: usize = 20;
        // Branch-free (a select on the regime's rank), so that the passes below vectorise.
        let bucket = |x: f64| {
            let rank = self.regime_rank(x);
            let exponent = binary_exponent(x);
            let octave = (exponent.clamp(-12, 4) + 12) as usize;
            if rank == 0 {
                octave
            } else {
                16 + rank as usize
            }
        };
        // Arguments already in bucket order (a sorted grid) keep their order: the sort would
        // only add its passes. One pass without early exit.
        let in_order = xs
            .iter()
            .zip(xs.iter().skip(1))
            .fold(true, |ok, (&a, &b)| ok & (bucket(a) <= bucket(b)));
        let index: Vec<usize> = if in_order {
            (0..xs.len()).collect()
        } else {
            let mut start = [0usize; BUCKETS + 1];
            for &x in xs {
                start[bucket(x) + 1] += 1;
            }
            for b in 0..BUCKETS {
                start[b + 1] += start[b];
            }
            let mut index = vec![0usize; xs.len()];
            for (i, &x) in xs.iter().enumerate() {
                let b = bucket(x);
                index[start[b]] = i;
                start[b] += 1;
            }
            index
        };
        let mut x = [0.0; DEBYE_LANES];
        let mut g = [zero; DEBYE_LANES];
        let mut begin = 0;
        while begin < index.len() {
            let regime = self.regime(xs[index[begin]]);
            let end = begin + index[begin..].partition_point(|&i| self.regime(xs[i]) == regime);
            for chunk in index[begin..end].chunks(DEBYE_LANES) {
                let last = chunk.len() - 1;
                for (l, xl) in x.iter_mut().enumerate() {
                    *xl = xs[chunk[l.min(last)]];
                }
                eval(regime, &x, &mut g);
                emit(chunk, &x, &g);
            }
            begin = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The branch-free rank is the scalar kernel's choice (`log_bessel_i_scaled`: the series
    /// below 32, else the recurrence where Hankel does not apply, else Hankel up to 10¹⁵⁰, else
    /// the scalar path) at every threshold and beside it: the series' end (32), the
    /// recurrence's (¾ν², above 32 from ν ≈ 6.5 on) and 10¹⁵⁰.
    #[test]
    fn regime_rank_is_the_regimes_order() {
        let beside = |x: f64| [x.next_down(), x, x.next_up()];
        for nu in [0.0, 0.7, 1.5, 6.5, 7.0, 10.0, 19.5] {
            let small = SmallOrderLanes::new(DoubleDouble::from_f64(nu)).expect("ν < 20, not ½");
            let mut xs = vec![0.0, 1e-300, 1.0, 1e300, f64::MAX];
            for edge in [
                HANKEL_MIN_ARGUMENT,
                0.75 * nu * nu,
                DEBYE_LANES_MAX_ARGUMENT,
            ] {
                xs.extend(beside(edge).into_iter().filter(|&x| x > 0.0));
            }
            for x in xs {
                let want = if x < HANKEL_MIN_ARGUMENT {
                    SmallOrderRegime::Series
                } else if !hankel_applies(nu, x) {
                    SmallOrderRegime::Recurrence
                } else if x <= DEBYE_LANES_MAX_ARGUMENT {
                    SmallOrderRegime::Hankel
                } else {
                    SmallOrderRegime::Scalar
                };
                assert_eq!(small.regime_rank(x), want as u8, "ν = {nu}, x = {x}");
                assert_eq!(small.regime(x), want, "ν = {nu}, x = {x}");
            }
        }
    }
}
