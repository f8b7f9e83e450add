//! Kendall's τ-b with tie correction in O(n log n) (Knight 1966), as scipy's `kendalltau`.

use crate::error::Result;
use crate::metrics::input::kendall::check_pairs;
use crate::metrics::input::kendall::constant_sample;
use crate::metrics::score::Score;
use crate::metrics::score_sort::sortable_key;

/// τ-b from the pair counts: n0 = n(n−1)/2, n1 / n2 pairs tied in x / y, and C − D, in the
/// arithmetic scipy uses, clipped to [−1, 1].
pub(crate) fn tau_b_from_counts(
    concordant_minus_discordant: i128,
    untied_x: u128,
    untied_y: u128,
) -> Result<f64> {
    if untied_x == 0 {
        return Err(constant_sample("x"));
    }
    if untied_y == 0 {
        return Err(constant_sample("y"));
    }
    let tau =
        concordant_minus_discordant as f64 / (untied_x as f64).sqrt() / (untied_y as f64).sqrt();
    Ok(tau.clamp(-1.0, 1.0))
}

/// Σ t(t−1)/2 over the runs of equal elements of a sorted sequence.
fn tied_pairs<T: PartialEq>(sorted: &[T]) -> u128 {
    let mut total = 0u128;
    let mut run = 1u128;
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            run += 1;
        } else {
            total += run * (run - 1) / 2;
            run = 1;
        }
    }
    total + run * (run - 1) / 2
}

/// Sorts `ys` by merge sort and returns the number of inversions (pairs i < j with
/// ys[i] > ys[j]; equal values are not inversions).
fn merge_sort_inversions(ys: &mut [u64], scratch: &mut [u64]) -> u128 {
    let n = ys.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut inversions = {
        let (left, right) = ys.split_at_mut(mid);
        let (s_left, s_right) = scratch.split_at_mut(mid);
        merge_sort_inversions(left, s_left) + merge_sort_inversions(right, s_right)
    };
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < mid && j < n {
        if ys[j] < ys[i] {
            scratch[k] = ys[j];
            inversions += (mid - i) as u128;
            j += 1;
        } else {
            scratch[k] = ys[i];
            i += 1;
        }
        k += 1;
    }
    scratch[k..k + mid - i].copy_from_slice(&ys[i..mid]);
    k += mid - i;
    scratch[k..k + n - j].copy_from_slice(&ys[j..n]);
    ys.copy_from_slice(&scratch[..n]);
    inversions
}

/// Kendall's rank correlation τ-b, with the tie correction, as `scipy.stats.kendalltau`
/// (variant "b") computes it.
///
/// Fast twin of [`exact::kendall_tau_b`](crate::metrics::exact::kendall_tau_b): O(n log n)
/// by Knight's algorithm (sort by (x, y), count ties, count discordant pairs as merge-sort
/// inversions of y), exactly equal to the O(n²) pair count since both reduce to the same
/// integers.
///
/// # Formula
///
/// τ_b = (C − D) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2, n₁ = Σ t_x(t_x−1)/2 and
/// n₂ = Σ t_y(t_y−1)/2 over groups of tied x and tied y, C and D the concordant and discordant
/// pairs (Kendall 1945; HIB §4.3 uses it to correlate uncertainty with performance).
///
/// # Errors
///
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) if the lengths differ;
/// [`Error::TooFew`](crate::Error::TooFew) with fewer than 2 pairs;
/// [`Error::NotFiniteElement`](crate::Error::NotFiniteElement) for NaN or ±∞;
/// [`Error::Undefined`](crate::Error::Undefined) if x or y is constant (scipy returns NaN).
///
/// # Examples
///
/// ```
/// use probdml::metrics::kendall_tau_b;
/// assert_eq!(kendall_tau_b(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0])?, 1.0);
/// // x = (1, 1, 2), y = (1, 2, 3): C = 2, D = 0, one pair tied in x: 2/√(2·3).
/// let tau = kendall_tau_b(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0])?;
/// assert!((tau - 2.0 / 6f64.sqrt()).abs() < 1e-15);
/// assert!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]).is_err());
/// # Ok::<(), probdml::Error>(())
/// ```
pub fn kendall_tau_b<S: Score>(x: &[S], y: &[S]) -> Result<f64> {
    check_pairs(x, y)?;
    let n = x.len();
    let mut pairs: Vec<(u64, u64)> = x
        .iter()
        .zip(y)
        .map(|(&a, &b)| (sortable_key(a.widen()), sortable_key(b.widen())))
        .collect();
    pairs.sort_unstable();
    let total = (n as u128) * (n as u128 - 1) / 2;
    let xs: Vec<u64> = pairs.iter().map(|p| p.0).collect();
    let tied_x = tied_pairs(&xs);
    let tied_xy = tied_pairs(&pairs);
    let mut ys: Vec<u64> = pairs.iter().map(|p| p.1).collect();
    let mut scratch = vec![0u64; n];
    let discordant = merge_sort_inversions(&mut ys, &mut scratch);
    let tied_y = tied_pairs(&ys);
    let c_minus_d = (total + tied_xy) as i128 - (tied_x + tied_y) as i128 - 2 * discordant as i128;
    tau_b_from_counts(c_minus_d, total - tied_x, total - tied_y)
}
