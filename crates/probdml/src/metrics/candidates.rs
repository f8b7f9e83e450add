//! Streaming selection of one query's *candidates*: every item whose approximate key lies within
//! a margin of the k-th smallest approximate key.
//!
//! The fast search ranks by `f32` keys that are within `err` of the exact ones (see
//! [`candidate_search`](crate::metrics::candidate_search)). With T the k-th smallest approximate
//! key over all items, the k items at or below T have exact keys at most T + err, so the exact
//! k-th key is at most T + err, and every item of the exact top k (ties included) has an
//! approximate key at most T + 2·err = T + margin. While candidates stream in, the k-th
//! smallest key seen so far is at least T, so filtering by it keeps a superset. The exact keys
//! of the few survivors then decide the ranking.

/// The candidates of one query: all `(key, index)` pairs offered with key ≤ (k-th smallest
/// key so far) + margin, pruned from time to time.
#[derive(Debug, Clone)]
pub(crate) struct Candidates {
    k: usize,
    margin: f32,
    threshold: f32,
    buffer: Vec<(f32, u32)>,
    capacity: usize,
}

/// The smallest `f32` at or above `x` (margins and thresholds must never round down).
#[inline]
pub(crate) fn round_up(x: f64) -> f32 {
    let y = x as f32;
    if f64::from(y) >= x {
        y
    } else if y == 0.0 {
        f32::from_bits(1)
    } else if y > 0.0 {
        f32::from_bits(y.to_bits() + 1)
    } else {
        f32::from_bits(y.to_bits() - 1)
    }
}

impl Candidates {
    /// An empty selection for the `k` nearest with the given `margin` (≥ 0); k = 0 admits
    /// nothing.
    pub(crate) fn new(k: usize, margin: f32) -> Self {
        debug_assert!(margin >= 0.0);
        Self {
            k,
            margin,
            threshold: if k == 0 {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            },
            buffer: Vec::with_capacity(2 * k),
            capacity: (2 * k).max(32),
        }
    }

    /// No key above this can be a candidate.
    #[inline(always)]
    pub(crate) fn threshold(&self) -> f32 {
        self.threshold
    }

    /// The number of nearest items wanted.
    #[inline(always)]
    pub(crate) fn k(&self) -> usize {
        self.k
    }

    /// Lowers the threshold to `bound` + margin (rounded up) where that is lower. `bound` must
    /// be at least the k-th smallest key this query is offered over the whole search — the
    /// largest key of some k items it is or will be offered — so that T ≤ `bound` (module
    /// docs) and every item of the exact top k still passes.
    pub(crate) fn lower_to(&mut self, bound: f32) {
        let t = round_up(f64::from(bound) + f64::from(self.margin));
        if t < self.threshold {
            self.threshold = t;
        }
    }

    /// Offers one item; the caller has checked `key <= self.threshold()`.
    #[inline(always)]
    pub(crate) fn push(&mut self, key: f32, index: u32) {
        self.buffer.push((key, index));
        if self.buffer.len() >= self.capacity {
            self.prune();
        }
    }

    /// Drops every item above (k-th smallest key) + margin. Ties and items inside the margin
    /// all stay, so the buffer may keep more than k; the capacity doubles past what is kept,
    /// which keeps the work amortised O(1) per push.
    #[cold]
    fn prune(&mut self) {
        if self.k >= 1 && self.buffer.len() >= self.k {
            let k = self.k;
            let (_, kth, _) = self
                .buffer
                .select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0));
            self.threshold = round_up(f64::from(kth.0) + f64::from(self.margin));
            let threshold = self.threshold;
            self.buffer.retain(|c| c.0 <= threshold);
        }
        self.capacity = (2 * self.buffer.len()).max(2 * self.k).max(32);
    }

    /// The indices of the candidates (at least min(k, items offered)), in no particular order.
    pub(crate) fn into_indices(mut self) -> Vec<u32> {
        self.prune();
        self.buffer.into_iter().map(|(_, j)| j).collect()
    }
}

/// Offers `cand` the lanes of `hits` (bit l: item `first + l`, key `keys[l]`) that still pass
/// its threshold; shared by the portable and the AVX2 scans so that both push the same keys in
/// the same order.
#[inline(always)]
pub(crate) fn offer_row(
    mut hits: u32,
    keys: &[f32],
    first: usize,
    (skip, end): (usize, usize),
    cand: &mut Candidates,
    thr: &mut f32,
) {
    while hits != 0 {
        let l = hits.trailing_zeros() as usize;
        hits &= hits - 1;
        let j = first + l;
        // The threshold may have dropped since the compare.
        if keys[l] <= *thr && j != skip && j < end {
            cand.push(keys[l], j as u32);
            *thr = cand.threshold();
        }
    }
}

/// Offers `item` to the queries `first + l` of the lanes of `hits`, with key `keys[l]`. Each
/// lane is its own query: a passing lane's threshold has not changed since the compare.
#[inline(always)]
pub(crate) fn offer_column(
    mut hits: u32,
    keys: &[f32],
    first: usize,
    item: u32,
    cands: &mut [Candidates],
    thr: &mut [f32],
) {
    while hits != 0 {
        let l = hits.trailing_zeros() as usize;
        hits &= hits - 1;
        let j = first + l;
        cands[j].push(keys[l], item);
        thr[j] = cands[j].threshold();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_up_never_rounds_down() {
        // Fixed values, and a spread of both signs and many magnitudes (about half of which
        // the cast rounds down, half up: every branch).
        let spread = (-200..200).map(|k: i32| f64::from(k) * 0.123_456_789 * 1.37f64.powi(k % 40));
        for x in [
            0.0,
            1e-50,
            -1e-50,
            0.1,
            -0.1,
            0.7,
            -0.7,
            1.0 / 3.0,
            -1.0 / 3.0,
            1e30,
            3.0,
            1e-40,
        ]
        .into_iter()
        .chain(spread)
        {
            let y = round_up(x);
            assert!(f64::from(y) >= x, "{x}");
            // And by at most one step.
            let below = if y > 0.0 {
                f32::from_bits(y.to_bits() - 1)
            } else if y == 0.0 {
                -f32::from_bits(1)
            } else {
                f32::from_bits(y.to_bits() + 1)
            };
            assert!(f64::from(below) < x, "{x}");
        }
    }

    #[test]
    fn keeps_everything_within_the_margin_of_the_kth() {
        // keys 0, 1, …, 99 offered in scrambled order; k = 3, margin 2.5: the k-th is 2, so
        // keys up to 4.5 survive: 0 … 4.
        let mut c = Candidates::new(3, 2.5);
        for i in 0..100u32 {
            let key = ((i * 37) % 100) as f32;
            if key <= c.threshold() {
                c.push(key, i);
            }
        }
        let mut kept: Vec<f32> = c
            .into_indices()
            .into_iter()
            .map(|i| ((i * 37) % 100) as f32)
            .collect();
        kept.sort_by(f32::total_cmp);
        assert_eq!(kept, vec![0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn ties_at_the_kth_all_survive() {
        let mut c = Candidates::new(2, 0.0);
        for i in 0..200u32 {
            let key = if i % 2 == 0 { 1.0 } else { 5.0 };
            if key <= c.threshold() {
                c.push(key, i);
            }
        }
        let kept = c.into_indices();
        assert_eq!(kept.len(), 100);
        assert!(kept.iter().all(|i| i % 2 == 0));
    }
}
