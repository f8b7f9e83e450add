//! Sorting scores by their bits: f64 (an f32 widened exactly) → order-preserving u64 keys, then
//! an LSD radix sort.
//!
//! The map sends −0 to +0 first (they are tied scores), then flips the sign bit of positive
//! numbers and all bits of negative ones, so that unsigned order is numeric order and equal keys
//! are equal scores. Scores are finite (checked by every caller).

use crate::metrics::score::Score;

/// The order-preserving key of a finite score.
#[inline]
pub(crate) fn sortable_key(x: f64) -> u64 {
    // −0.0 + 0.0 = +0.0 under round-to-nearest: the two zeros become one key.
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

/// The score of a key (inverse of [`sortable_key`]).
#[inline]
pub(crate) fn score_of_key(key: u64) -> f64 {
    let bits = if key >> 63 == 1 {
        key & !(1 << 63)
    } else {
        !key
    };
    f64::from_bits(bits)
}

/// The keys of `scores`, sorted ascending.
pub(crate) fn sorted_keys<S: Score>(scores: &[S]) -> Vec<u64> {
    let mut keys: Vec<u64> = scores.iter().map(|&x| sortable_key(x.widen())).collect();
    if keys.len() < 2048 {
        keys.sort_unstable();
    } else {
        radix_sort(&mut keys);
    }
    keys
}

/// Least-significant-digit radix sort with 11-bit digits (six passes cover 64 bits; the
/// histograms of all passes come from one read, and a pass whose digit is constant is skipped —
/// typically the top ones, where scores share sign and exponent).
fn radix_sort(keys: &mut Vec<u64>) {
    const BITS: usize = 11;
    const BUCKETS: usize = 1 << BITS;
    const PASSES: usize = 64_usize.div_ceil(BITS);
    let n = keys.len();
    let mut histograms = vec![[0usize; BUCKETS]; PASSES];
    for &key in keys.iter() {
        for (pass, histogram) in histograms.iter_mut().enumerate() {
            histogram[((key >> (pass * BITS)) as usize) & (BUCKETS - 1)] += 1;
        }
    }
    let mut scratch = vec![0u64; n];
    for (pass, histogram) in histograms.iter().enumerate() {
        if histogram.contains(&n) {
            continue;
        }
        let mut offsets = [0usize; BUCKETS];
        let mut running = 0;
        for (offset, &count) in offsets.iter_mut().zip(histogram.iter()) {
            *offset = running;
            running += count;
        }
        let shift = pass * BITS;
        for &key in keys.iter() {
            let digit = ((key >> shift) as usize) & (BUCKETS - 1);
            scratch[offsets[digit]] = key;
            offsets[digit] += 1;
        }
        std::mem::swap(keys, &mut scratch);
    }
}

/// Visits the tie groups of two sorted key lists from the highest score down, calling
/// `visit(score_key, negatives_in_group, positives_in_group)` once per distinct score.
pub(crate) fn tie_groups_descending(
    negatives: &[u64],
    positives: &[u64],
    mut visit: impl FnMut(u64, usize, usize),
) {
    let (mut i, mut j) = (negatives.len(), positives.len());
    while i > 0 || j > 0 {
        let key = match (i, j) {
            (0, _) => positives[j - 1],
            (_, 0) => negatives[i - 1],
            _ => negatives[i - 1].max(positives[j - 1]),
        };
        let mut a = 0;
        while i > 0 && negatives[i - 1] == key {
            i -= 1;
            a += 1;
        }
        let mut b = 0;
        while j > 0 && positives[j - 1] == key {
            j -= 1;
            b += 1;
        }
        visit(key, a, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_preserve_order_and_round_trip() {
        let xs = [
            f64::MIN,
            -1e300,
            -2.5,
            -1.0,
            -f64::MIN_POSITIVE,
            -5e-324,
            0.0,
            5e-324,
            1.0,
            2.5,
            1e300,
            f64::MAX,
        ];
        for w in xs.windows(2) {
            assert!(
                sortable_key(w[0]) < sortable_key(w[1]),
                "{} < {}",
                w[0],
                w[1]
            );
        }
        for &x in &xs {
            assert_eq!(score_of_key(sortable_key(x)), x);
        }
        assert_eq!(sortable_key(-0.0), sortable_key(0.0));
    }

    #[test]
    fn radix_sort_matches_comparison_sort() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let xs: Vec<f64> = (0..10_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ((state % 2001) as f64 - 1000.0) / 8.0
            })
            .collect();
        let mut want: Vec<u64> = xs.iter().map(|&x| sortable_key(x)).collect();
        want.sort_unstable();
        assert_eq!(sorted_keys(&xs), want);
    }
}
