//! Streaming top-k selection under the (key, index) order of the tie rule.
//!
//! Candidates arrive one by one; the `k` smallest are kept in a buffer of capacity 2k. When the
//! buffer fills, a quickselect keeps the best k and the k-th becomes the admission threshold,
//! so each candidate costs one comparison plus O(1) amortised work: O(n + k log k) per query
//! for any k, where a heap would pay O(log k) per admitted candidate.

/// `(key, index)` precedes `(key', index')` when key < key', or the keys are equal and
/// index < index' (ties in distance go to the smaller database index). Keys are never NaN;
/// −0 and +0 compare equal, as `==` has them.
#[inline(always)]
pub(crate) fn precedes(a: (f64, u32), b: (f64, u32)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

#[inline]
fn order(a: &(f64, u32), b: &(f64, u32)) -> std::cmp::Ordering {
    // Keys are finite: partial_cmp never fails, and it treats −0 == +0 like `precedes`.
    a.0.partial_cmp(&b.0)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then(a.1.cmp(&b.1))
}

/// The k best `(key, index)` pairs seen so far.
#[derive(Debug, Clone)]
pub(crate) struct TopK {
    k: usize,
    buffer: Vec<(f64, u32)>,
    threshold: (f64, u32),
}

impl TopK {
    /// An empty selection of the `k` best (`k = 0` keeps nothing).
    pub(crate) fn new(k: usize) -> Self {
        // With k = 0 nothing may be admitted: no finite key precedes (−∞, 0).
        let threshold = if k == 0 {
            (f64::NEG_INFINITY, 0)
        } else {
            (f64::INFINITY, u32::MAX)
        };
        Self {
            k,
            buffer: Vec::with_capacity(2 * k),
            threshold,
        }
    }

    /// No key above this can enter (a key equal to it may, with a smaller index).
    #[inline(always)]
    pub(crate) fn threshold_key(&self) -> f64 {
        self.threshold.0
    }

    /// Offers one candidate.
    #[inline(always)]
    pub(crate) fn push(&mut self, key: f64, index: u32) {
        if precedes((key, index), self.threshold) {
            self.buffer.push((key, index));
            if self.buffer.len() == 2 * self.k {
                self.compact();
            }
        }
    }

    /// Keeps the k best of the buffer; the k-th best becomes the admission threshold.
    #[cold]
    fn compact(&mut self) {
        let k = self.k;
        self.buffer.select_nth_unstable_by(k - 1, order);
        self.buffer.truncate(k);
        self.threshold = self.buffer[k - 1];
    }

    /// The k best (fewer if fewer were offered), sorted by the tie rule.
    pub(crate) fn into_sorted(mut self) -> Vec<(f64, u32)> {
        if self.buffer.len() > self.k {
            self.compact();
        }
        self.buffer.sort_unstable_by(order);
        self.buffer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_k_smallest_with_index_tie_break() {
        let keys = [3.0, 1.0, 1.0, 0.0, 2.0, 1.0, -0.0, 5.0, 1.0];
        for k in 1..=keys.len() {
            let mut top = TopK::new(k);
            for (i, &key) in keys.iter().enumerate() {
                top.push(key, i as u32);
            }
            let mut all: Vec<(f64, u32)> = keys
                .iter()
                .enumerate()
                .map(|(i, &x)| (x, i as u32))
                .collect();
            all.sort_by(order);
            all.truncate(k);
            assert_eq!(top.into_sorted(), all, "k = {k}");
        }
    }
}
