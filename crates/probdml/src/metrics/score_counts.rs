//! The tie groups of two score sets counted in a hash table: one read of each set and a sort of
//! the distinct scores only, for scores that take few distinct values.
//!
//! AUROC, AUPRC and the ROC curve depend on the scores only through the tie groups: each distinct
//! score with its number of negatives and positives, visited from the highest score down. When
//! scores are rounded or quantised (10⁶ scores on a grid of 10⁻³, say, take some 10⁴ values),
//! counting each score into an open-addressing table of its order-preserving key costs a few
//! nanoseconds per score and leaves a table that stays in a core's L2 cache; sorting the few
//! distinct keys afterwards is cheap. Sorting all the scores instead moves every one of them
//! through memory at least twice. The table gives up (and the caller sorts) as soon as the
//! scores prove to have many distinct values: the work lost is at most one read of the input,
//! and for continuous scores the first min(2¹⁴, n/8) of them.

use crate::metrics::score::Score;
use crate::metrics::score_sort::sortable_key;

/// At most this many distinct scores are counted (a table of twice as many 16-byte slots,
/// 512 KiB: within a core's L2 cache, where the random probes of the counting pass stay cheap).
const MAX_DISTINCT: usize = 1 << 14;

/// The table is tried only while the scores tie in groups of this many on average: with fewer
/// ties, sorting is as cheap as counting, and continuous scores are given up on after their
/// first n/8 instead of filling the table.
const MIN_GROUP: usize = 8;

/// An empty slot. Key 0 is the key of a NaN (all bits set), never a finite score's.
const EMPTY: u64 = 0;

/// One slot of the table: a key and its number of negatives and positives.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    counts: [u32; 2],
}

/// A distinct score (its key) with the number of negatives and positives that hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TieGroup {
    pub(crate) key: u64,
    pub(crate) negatives: usize,
    pub(crate) positives: usize,
}

/// The tie groups of `negatives` and `positives`, ascending by key, or `None` when counting
/// does not pay: more than min(2¹⁴, n / 8) distinct scores, a pathological cluster of keys in
/// the table, more than 2³² − 1 scores, or a score that is not finite (the caller's check names
/// it).
pub(crate) fn tie_groups<S: Score>(negatives: &[S], positives: &[S]) -> Option<Vec<TieGroup>> {
    let total = negatives.len() + positives.len();
    if total > u32::MAX as usize {
        return None;
    }
    let max_distinct = (total / MIN_GROUP).clamp(1, MAX_DISTINCT);
    let slots = (2 * max_distinct).next_power_of_two();
    let mask = slots - 1;
    let shift = 64 - slots.trailing_zeros();
    let mut table = vec![
        Slot {
            key: EMPTY,
            counts: [0; 2]
        };
        slots
    ];
    let mut distinct = 0;
    // Linear probing at load ≤ ½ takes about 1.5 probes per score on keys that hash evenly; the
    // budget stops keys that collide by design from making the pass quadratic.
    let mut probes_left = 4 * total + slots;
    for (class, scores) in [negatives, positives].into_iter().enumerate() {
        for &score in scores {
            let x = score.widen();
            if !x.is_finite() {
                return None;
            }
            let key = sortable_key(x);
            // Fibonacci hashing: the top bits of the product depend on every bit of the key,
            // so scores on a decimal grid (whose keys differ in their low bits) spread evenly.
            let mut at = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize;
            loop {
                let slot = &mut table[at];
                if slot.key == key {
                    slot.counts[class] += 1;
                    break;
                }
                if slot.key == EMPTY {
                    if distinct == max_distinct {
                        return None;
                    }
                    distinct += 1;
                    slot.key = key;
                    slot.counts[class] = 1;
                    break;
                }
                probes_left = probes_left.checked_sub(1)?;
                at = (at + 1) & mask;
            }
        }
    }
    let mut groups: Vec<TieGroup> = table
        .iter()
        .filter(|slot| slot.key != EMPTY)
        .map(|slot| TieGroup {
            key: slot.key,
            negatives: slot.counts[0] as usize,
            positives: slot.counts[1] as usize,
        })
        .collect();
    groups.sort_unstable_by_key(|group| group.key);
    Some(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::score_sort::{sorted_keys, tie_groups_descending};

    /// The tie groups as the sorting path visits them, ascending.
    fn by_sorting(negatives: &[f64], positives: &[f64]) -> Vec<TieGroup> {
        let mut groups = Vec::new();
        tie_groups_descending(
            &sorted_keys(negatives),
            &sorted_keys(positives),
            |key, a, b| {
                groups.push(TieGroup {
                    key,
                    negatives: a,
                    positives: b,
                })
            },
        );
        groups.reverse();
        groups
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Rounded scores of mixed signs, both zeros and subnormals: the groups of the sort, with
    /// scores held by one class only and by both; `f32` scores count as their widened values.
    #[test]
    fn counts_equal_the_sorted_groups() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut draw = |n: usize, grid: u64, shift: i64| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    let r = xorshift(&mut state);
                    match i % 4 {
                        0 => ((r % grid) as i64 - grid as i64 / 2 + shift) as f64 / 1000.0,
                        1 => [-0.0, 0.0, 5e-324, -5e-324][(r % 4) as usize],
                        2 => ((r % 301) as f64 - 150.0) * 1e-3,
                        _ => f64::MAX / 8.0 * (r % 7) as f64 * if r & 8 == 0 { 1.0 } else { -1.0 },
                    }
                })
                .collect()
        };
        let mut cases = vec![
            (vec![0.25; 3], vec![0.25]),
            (
                vec![-0.0, 2.0, 1.5, 0.0, 2.0, 1.5, -0.0, 0.0, 2.0],
                vec![0.0; 70],
            ),
        ];
        cases.push((draw(5000, 201, 0), draw(3000, 201, 50)));
        cases.push((draw(100_000, 4001, 0), draw(200_000, 4001, 500)));
        for (negatives, positives) in cases {
            let groups = tie_groups(&negatives, &positives)
                .unwrap_or_else(|| panic!("{} + {}", negatives.len(), positives.len()));
            assert_eq!(
                groups,
                by_sorting(&negatives, &positives),
                "{} + {}",
                negatives.len(),
                positives.len()
            );
            // Huge scores become ±f32::MAX instead of ±∞ (which would end the count).
            let narrow = |x: &[f64]| -> Vec<f32> {
                x.iter()
                    .map(|&x| (x as f32).clamp(-f32::MAX, f32::MAX))
                    .collect()
            };
            let widened =
                |x: &[f64]| -> Vec<f64> { narrow(x).into_iter().map(f64::from).collect() };
            let (negatives, positives) = (widened(&negatives), widened(&positives));
            let groups = tie_groups(&narrow(&negatives), &narrow(&positives));
            assert_eq!(groups, Some(by_sorting(&negatives, &positives)));
        }
    }

    /// Exactly the limit of distinct scores is counted; one more gives up.
    #[test]
    fn gives_up_beyond_the_distinct_limit() {
        let n = 1 << 20;
        for (distinct, counted) in [(MAX_DISTINCT, true), (MAX_DISTINCT + 1, false)] {
            let negatives: Vec<f64> = (0..n).map(|i| (i % distinct) as f64).collect();
            // A score the negatives hold too: no new distinct score.
            let positives = [0.0];
            let groups = tie_groups(&negatives, &positives);
            assert_eq!(groups.is_some(), counted, "{distinct} distinct");
            if let Some(groups) = groups {
                assert_eq!(groups.len(), distinct);
                assert_eq!(groups, by_sorting(&negatives, &positives));
            }
        }
        // Small inputs: at most n / 8 distinct scores.
        let ties: Vec<f64> = (0..800).map(|i| (i % 100) as f64).collect();
        assert!(tie_groups(&ties, &[1.0]).is_some());
        let continuous: Vec<f64> = (0..800).map(|i| i as f64 / 7.0).collect();
        assert!(tie_groups(&continuous, &[1.0]).is_none());
    }

    /// A score that is not finite, in either set, ends the count (the caller's check names it).
    #[test]
    fn gives_up_on_non_finite_scores() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -f64::NAN] {
            let mut scores = vec![0.5; 100];
            scores[37] = bad;
            assert!(tie_groups(&scores, &[0.5; 20]).is_none());
            assert!(tie_groups(&[0.5; 20], &scores).is_none());
        }
    }

    /// Keys that all hash to the first slots (k · c⁻¹ mod 2⁶⁴, c the Fibonacci multiplier: the
    /// product is k, whose top bits are zero): the probe budget ends the count instead of a
    /// quadratic walk through one cluster.
    #[test]
    fn gives_up_on_keys_that_collide() {
        // The inverse of the multiplier modulo 2⁶⁴, by Newton's iteration x ← x(2 − c x).
        let c = 0x9e37_79b9_7f4a_7c15u64;
        let mut inverse = c;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(inverse)));
        }
        assert_eq!(c.wrapping_mul(inverse), 1);
        let colliding: Vec<f64> = (1..20_000u64)
            .map(|k| k.wrapping_mul(inverse))
            .filter(|&key| {
                let x = crate::metrics::score_sort::score_of_key(key);
                x.is_finite() && sortable_key(x) == key
            })
            .map(crate::metrics::score_sort::score_of_key)
            .take(2000)
            .collect();
        assert_eq!(colliding.len(), 2000);
        let negatives: Vec<f64> = (0..40_000).map(|i| colliding[i % 2000]).collect();
        assert!(tie_groups(&negatives, &[1.0]).is_none());
        // The same number of distinct scores spread over the table is counted.
        let spread: Vec<f64> = (0..40_000).map(|i| (i % 2000) as f64).collect();
        assert!(tie_groups(&spread, &[1.0]).is_some());
    }
}
