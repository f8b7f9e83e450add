//! Sorting scores by their bits: f64 (an f32 widened exactly) → order-preserving u64 keys, then
//! a partition on the top 16 bits and a sort of each bucket.
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

/// Below this many scores a comparison sort beats the partition's fixed cost (its 2¹⁶-entry
/// histogram).
const SMALL: usize = 2048;

/// The partition digit: the top 16 bits of a key, i.e. sign, exponent and the first four
/// mantissa bits of the score.
const TOP_BITS: u32 = 16;

/// Buckets above this many keys (512 KiB, beyond a core's L2 cache) are radix sorted; smaller
/// ones, which stay in cache, are comparison sorted.
const LARGE: usize = 1 << 16;

/// The keys of `scores`, sorted ascending.
///
/// One most-significant-digit partition on the top 16 bits, then each bucket sorted on its own.
/// A plain LSD radix sort of 10⁶ keys spends most of its time scattering keys over 2048 write
/// streams spread across megabytes (a TLB miss per key); the partition scatters once, into only
/// as many streams as there are occupied (sign, exponent, leading mantissa) buckets — a few
/// hundred for scores of one scale — and leaves buckets of some 10⁴ keys that a comparison sort
/// finishes in cache, fast on ties. A bucket that holds most of the scores (all of them in
/// [1, 1.0625), say) is radix sorted on the remaining 48 bits instead.
pub(crate) fn sorted_keys<S: Score>(scores: &[S]) -> Vec<u64> {
    if scores.len() < SMALL {
        let mut keys: Vec<u64> = scores.iter().map(|&x| sortable_key(x.widen())).collect();
        keys.sort_unstable();
        return keys;
    }
    let top = |key: u64| (key >> (64 - TOP_BITS)) as usize;
    let mut counts = vec![0usize; 1 << TOP_BITS];
    for &x in scores {
        counts[top(sortable_key(x.widen()))] += 1;
    }
    let mut next = vec![0usize; 1 << TOP_BITS];
    let mut running = 0;
    for (start, &count) in next.iter_mut().zip(&counts) {
        *start = running;
        running += count;
    }
    // The keys are recomputed rather than stored by the first read: a second read of the scores
    // is cheaper than writing and rereading a key array of the same size.
    let mut keys = vec![0u64; scores.len()];
    for &x in scores {
        let key = sortable_key(x.widen());
        let bucket = top(key);
        keys[next[bucket]] = key;
        next[bucket] += 1;
    }
    let mut scratch = Vec::new();
    let mut start = 0;
    for &count in &counts {
        let bucket = &mut keys[start..start + count];
        if count > LARGE {
            scratch.resize(count, 0);
            radix_sort(bucket, &mut scratch[..count]);
        } else {
            bucket.sort_unstable();
        }
        start += count;
    }
    keys
}

/// Least-significant-digit radix sort with 11-bit digits (six passes cover 64 bits; the
/// histograms of all passes come from one read, and a pass whose digit is constant is skipped —
/// always the top one or two inside a partition bucket, which shares its top 16 bits).
/// `scratch` is as long as `keys`.
fn radix_sort(keys: &mut [u64], scratch: &mut [u64]) {
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
    let mut in_scratch = false;
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
        let (from, to) = if in_scratch {
            (&*scratch, &mut *keys)
        } else {
            (&*keys, &mut *scratch)
        };
        let shift = pass * BITS;
        for &key in from {
            let digit = ((key >> shift) as usize) & (BUCKETS - 1);
            to[offsets[digit]] = key;
            offsets[digit] += 1;
        }
        in_scratch = !in_scratch;
    }
    if in_scratch {
        keys.copy_from_slice(scratch);
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

    /// Scores that all share the top 16 key bits (sign, exponent, four mantissa bits): one
    /// bucket beyond `LARGE`, radix sorted. Steps of 2⁻³⁰ leave three live 11-bit passes (an odd
    /// count: the result is copied back from the scratch), steps of 2⁻⁴¹ four (an even count).
    #[test]
    fn one_large_bucket_matches_comparison_sort() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for step in [2f64.powi(-30), 2f64.powi(-41)] {
            let xs: Vec<f64> = (0..3 * LARGE)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // Every seventh score repeats its predecessor's draw: ties across buckets.
                    let k = if i % 7 == 0 { i as u64 } else { state };
                    1.0 + (k % (1u64 << 62)) as f64 % (0.0625 / step) * step
                })
                .collect();
            let mut want: Vec<u64> = xs.iter().map(|&x| sortable_key(x)).collect();
            assert!(want.iter().all(|&k| k >> 48 == want[0] >> 48));
            want.sort_unstable();
            assert_eq!(sorted_keys(&xs), want, "step {step:e}");
        }
    }

    /// Mixed signs, both zeros, subnormals and ties over a few hundred buckets; one of them
    /// (around 3.0) over `LARGE`, the others comparison sorted; f32 scores give the keys of
    /// their widened values.
    #[test]
    fn mixed_buckets_match_comparison_sort() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut xs: Vec<f64> = (0..400_000)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match i % 5 {
                    0 => 3.0 + (state % 1000) as f64 / 1e6,
                    1 => -((state % 5000) as f64) / 1000.0,
                    2 => (state >> 11) as f64 * 2f64.powi(-53) - 0.5,
                    3 => f64::from_bits(state % 64) * if state & 64 == 0 { 1.0 } else { -1.0 },
                    _ => ((state % 2001) as f64 - 1000.0) / 8.0,
                }
            })
            .collect();
        xs.push(-0.0);
        xs.push(0.0);
        let mut want: Vec<u64> = xs.iter().map(|&x| sortable_key(x)).collect();
        want.sort_unstable();
        assert_eq!(sorted_keys(&xs), want);
        let narrow: Vec<f32> = xs.iter().map(|&x| x as f32).collect();
        let mut want: Vec<u64> = narrow.iter().map(|&x| sortable_key(f64::from(x))).collect();
        want.sort_unstable();
        assert_eq!(sorted_keys(&narrow), want);
    }
}
