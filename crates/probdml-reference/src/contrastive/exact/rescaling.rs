//! Reference minibatch estimator and the exhaustive expectation over every batch.

use super::compensated::{margin_gap, squared_distance_dd, two_prod, two_sum, Neumaier};
use super::pairs::is_hard_negative;
use crate::contrastive::input::row;
use crate::contrastive::input::{check_batch, check_margin};
use crate::contrastive::input::{check_pair_batch, PairBatch};
use crate::error::{Error, Result};
use crate::labels::IntoLabels;

/// Reference twin of `crate::contrastive::rescaled_loss` (compensated, explicit distances).
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn rescaled_loss<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    batch: &PairBatch,
) -> Result<f64> {
    let checked = check_pair_batch(z, dim, labels.into_labels(), margin, batch)?;
    let z = &*checked.z;
    let (mut positive, mut negative) = (Neumaier::new(), Neumaier::new());
    for &(i, j) in &batch.positives {
        let d2 = squared_distance_dd(row(z, dim, i), row(z, dim, j));
        positive.add_pair((0.5 * d2.0, 0.5 * d2.1));
    }
    for &(i, j) in &batch.negatives {
        let d2 = squared_distance_dd(row(z, dim, i), row(z, dim, j));
        negative.add(0.5 * margin_gap(d2, margin).max(0.0));
    }
    Ok(positive.total() / batch.positives.len() as f64
        + negative.total() / batch.negatives.len() as f64)
}

/// The average over **every** batch of fixed sizes (p, q) of the rescaled loss, its gradient and
/// its Hessian with respect to Z.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchExpectation {
    /// The number of batches enumerated, C(|P|, p)·C(|N|, q).
    pub batches: u64,
    /// E_B of the rescaled loss.
    pub loss: f64,
    /// E_B of its gradient (row-major like Z, Euclidean split).
    pub gradient: Vec<f64>,
    /// E_B of its Hessian, dense (n·dim)², row-major.
    pub hessian: Vec<f64>,
}

/// Calls `visit` with every k-subset of 0..len, in lexicographic order.
fn for_each_subset(len: usize, k: usize, mut visit: impl FnMut(&[usize])) {
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        visit(&idx);
        let Some(pos) = (0..k).rev().find(|&p| idx[p] < len - k + p) else {
            return;
        };
        idx[pos] += 1;
        for p in pos + 1..k {
            idx[p] = idx[p - 1] + 1;
        }
    }
}

/// The exact expectation of the rescaled minibatch estimator (LAM App. B.1), by enumerating
/// every pair of subsets B_P ⊂ P (size p) and B_N ⊂ N (size q) — uniform, without replacement,
/// independent — and averaging each batch's loss, gradient and Hessian in compensated sums.
/// Not a statistical test: Proposition B.1 says the result equals L, ∇L and ∇²L.
///
/// # Errors
///
/// Those of `crate::contrastive::loss`; [`Error::CountOutOfRange`] if p ∉ [1, |P|] or
/// q ∉ [1, |N|], or if the enumeration would exceed 10⁷ batches.
pub fn batch_expectation<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    p: usize,
    q: usize,
) -> Result<BatchExpectation> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let n = counts.n;
    for (arg, value, max) in [("p", p, counts.positives), ("q", q, counts.negatives)] {
        if value == 0 || value > max {
            return Err(Error::CountOutOfRange {
                arg,
                value,
                min: 1,
                max,
                reason: "a batch draws without replacement from its pair set",
            });
        }
    }
    let choose =
        |a: usize, b: usize| (0..b).fold(1u128, |c, k| c * (a - k) as u128 / (k + 1) as u128);
    let total = choose(counts.positives, p) * choose(counts.negatives, q);
    if total > 10_000_000 {
        return Err(Error::CountOutOfRange {
            arg: "p",
            value: p,
            min: 1,
            max: p,
            reason: "more than 10^7 batches to enumerate",
        });
    }
    // The pair sets, in row-major order, with their per-pair loss (explicit distances).
    let mut positives = Vec::new();
    let mut negatives = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let d2 = squared_distance_dd(row(z, dim, i), row(z, dim, j));
            if labels[i] == labels[j] {
                positives.push((i, j, 0.5 * (d2.0 + d2.1)));
            } else {
                let inside = is_hard_negative(z, dim, labels, margin, i, j);
                negatives.push((i, j, 0.5 * margin_gap(d2, margin).max(0.0), inside));
            }
        }
    }
    let size = n * dim;
    let mut loss = Neumaier::new();
    let mut gradient = vec![Neumaier::new(); size];
    let mut hessian = vec![Neumaier::new(); size * size];
    let (t_pos, t_neg) = (1.0 / p as f64, -1.0 / q as f64);
    // One pair's contribution t·½‖z_i − z_j‖² to the batch gradient and Hessian.
    let add_pair =
        |gradient: &mut [Neumaier], hessian: &mut [Neumaier], i: usize, j: usize, t: f64| {
            for k in 0..dim {
                let (a, b) = (i * dim + k, j * dim + k);
                let (s, e) = two_sum(z[a], -z[b]);
                let (hi, lo) = two_prod(t, s);
                let lo = lo + t * e;
                gradient[a].add_pair((hi, lo));
                gradient[b].add_pair((-hi, -lo));
                hessian[a * size + a].add(t);
                hessian[b * size + b].add(t);
                hessian[a * size + b].add(-t);
                hessian[b * size + a].add(-t);
            }
        };
    let mut batches = 0u64;
    for_each_subset(positives.len(), p, |bp| {
        for_each_subset(negatives.len(), q, |bn| {
            batches += 1;
            let mut value = Neumaier::new();
            for &k in bp {
                let (i, j, l) = positives[k];
                value.add(t_pos * l);
                add_pair(&mut gradient, &mut hessian, i, j, t_pos);
            }
            for &k in bn {
                let (i, j, l, inside) = negatives[k];
                value.add(-t_neg * l);
                if inside {
                    add_pair(&mut gradient, &mut hessian, i, j, t_neg);
                }
            }
            loss.add(value.total());
        });
    });
    let k = batches as f64;
    Ok(BatchExpectation {
        batches,
        loss: loss.total() / k,
        gradient: gradient.iter().map(|a| a.total() / k).collect(),
        hessian: hessian.iter().map(|a| a.total() / k).collect(),
    })
}
