//! Reference contrastive losses and the form-S gradient.

use super::compensated::{margin_gap, squared_distance_dd, two_prod, two_sum, Neumaier};
use super::pairs::pair_targets;
use crate::contrastive::input::row;
use crate::contrastive::input::LossForm;
use crate::contrastive::input::{check_batch, check_margin};
use crate::error::Result;
use crate::labels::IntoLabels;

/// ℓ⁺ of one pair from its double-double d².
fn positive_term(form: LossForm, d2: (f64, f64)) -> f64 {
    match form {
        LossForm::Squared | LossForm::Hadsell => 0.5 * (d2.0 + d2.1),
        LossForm::Linear => (d2.0 + d2.1).sqrt(),
    }
}

/// ℓ⁻ of one pair from its double-double d².
fn negative_term(form: LossForm, d2: (f64, f64), margin: f64) -> f64 {
    match form {
        LossForm::Squared => 0.5 * margin_gap(d2, margin).max(0.0),
        LossForm::Hadsell => {
            let gap = (margin - (d2.0 + d2.1).sqrt()).max(0.0);
            0.5 * gap * gap
        }
        LossForm::Linear => (margin - (d2.0 + d2.1).sqrt()).max(0.0),
    }
}

/// Reference twin of `crate::contrastive::loss`: an explicit compensated double loop over all
/// n² ordered pairs, trivial pairs included, d² = ‖z_i − z_j‖² in double-double.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn loss<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
    form: LossForm,
) -> Result<f64> {
    let batch = check_batch(z, dim, labels.into_labels())?;
    let (z, labels, counts) = (&*batch.z, &*batch.labels, batch.counts);
    check_margin(margin)?;
    let (mut positive, mut negative) = (Neumaier::new(), Neumaier::new());
    for i in 0..counts.n {
        for j in 0..counts.n {
            let d2 = squared_distance_dd(row(z, dim, i), row(z, dim, j));
            if labels[i] == labels[j] {
                positive.add(positive_term(form, d2));
            } else {
                negative.add(negative_term(form, d2, margin));
            }
        }
    }
    Ok(positive.total() / counts.positives as f64 + negative.total() / counts.negatives as f64)
}

/// Reference twin of `crate::contrastive::loss_gradient`: Σ over ordered pairs (i, j) of
/// t_ij(z_i − z_j) on row i and t_ij(z_j − z_i) on row j, differences split exactly, every entry
/// a compensated sum.
///
/// # Errors
///
/// Exactly those of the fast twin.
pub fn loss_gradient<'l, L: IntoLabels<'l>>(
    z: &[f64],
    dim: usize,
    labels: L,
    margin: f64,
) -> Result<Vec<f64>> {
    // The gradient is taken at the checked (unit) rows the targets are computed from.
    let batch = check_batch(z, dim, labels.into_labels())?;
    let z = &*batch.z;
    let targets = pair_targets(z, dim, &*batch.labels, margin)?;
    let mut acc = vec![Neumaier::new(); z.len()];
    for p in targets {
        for k in 0..dim {
            let (s, e) = two_sum(z[p.i * dim + k], -z[p.j * dim + k]);
            let (hi, lo) = two_prod(p.target, s);
            let lo = lo + p.target * e;
            acc[p.i * dim + k].add_pair((hi, lo));
            acc[p.j * dim + k].add_pair((-hi, -lo));
        }
    }
    Ok(acc.iter().map(Neumaier::total).collect())
}
