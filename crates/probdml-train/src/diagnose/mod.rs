//! Sample-free OOD scores of a trained model, for diagnosing its OOD detection (`probdml
//! diagnose`): how much of a score's separation the feature norm alone explains, and for a
//! deep ensemble how much of its members' disagreement is only their frames ([`ensemble`]).

pub mod ensemble;
pub mod procrustes;

use super::catalogue::Posterior;
use super::error::TrainResult;
use super::method::TensorSet;
use super::pipeline::RunData;
use super::trainer::Trained;
use serde::{Deserialize, Serialize};
use tch::Device;

/// OOD scores that need no weight samples, for diagnosing a model's OOD detection: the AUROC
/// (OOD positive) of the feature norm ‖x‖, of 1/‖y‖ (raw output), of ‖x‖/‖y‖ (the predictive
/// spread on the sphere under an isotropic weight posterior), and — for LAM checkpoints — of
/// √(Σ_k Σ_l σ_kl² x_l²)/‖y‖, the spread under the checkpoint's own diagonal posterior (to first
/// order the vMF 1/κ̂ of the evaluation), and of tr Cov(y), the same posterior's spread before
/// normalisation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OodDiagnosis {
    /// Mean ‖x‖ of the (ID, OOD) images.
    pub mean_feature_norm: (f64, f64),
    /// Mean ‖y‖ of the (ID, OOD) images.
    pub mean_output_norm: (f64, f64),
    /// AUROC of ‖x‖.
    pub auroc_feature_norm: f64,
    /// AUROC of 1/‖y‖.
    pub auroc_inverse_output_norm: f64,
    /// AUROC of ‖x‖/‖y‖.
    pub auroc_isotropic_spread: f64,
    /// AUROC of the diagonal-posterior spread (LAM checkpoints only).
    pub auroc_posterior_spread: Option<f64>,
    /// AUROC of tr Cov(y), the posterior's spread of the raw output before normalisation
    /// ([`crate::laplace::posterior::output_variance`]; LAM checkpoints only).
    #[serde(default)]
    pub auroc_output_variance: Option<f64>,
    /// AUROC of tr Cov(y)/(‖x‖² + 1): the output variance with the feature norm divided out. An
    /// isotropic posterior makes it constant (AUROC ½), so what separates here is the
    /// curvature's share of the signal, not the norm's (LAM checkpoints only).
    #[serde(default)]
    pub auroc_output_variance_over_norm: Option<f64>,
    /// A deep ensemble's disagreement taken apart (ensembles only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ensemble: Option<ensemble::EnsembleDisagreement>,
}

/// Computes [`OodDiagnosis`] for the first member of `trained` on the ID test and OOD sets, and
/// for an ensemble its members' disagreement taken apart on the first training images.
///
/// # Errors
///
/// Data and metric errors.
pub fn diagnose_ood(
    trained: &Trained,
    data: &RunData,
    device: Device,
) -> TrainResult<OodDiagnosis> {
    use tch::Kind;
    let member = &trained.model.members()[0];
    // Online LAM under the reference protocol adds its prior only when sampling: the spread is
    // the sampler's, (Λ + δ)^{-1/2}.
    let prior_at_sampling = match trained.config.method.model().row().posterior {
        Posterior::Online => trained.config.protocol.settings().online.prior_at_sampling,
        Posterior::Posthoc | Posterior::None => 0.0,
    };
    let std = member
        .posterior()
        .map(|p| p.std_with_prior(prior_at_sampling));
    let geometry = trained.config.data.geometry();
    let mut per_set = Vec::new();
    let mut images = Vec::new();
    for set in [&data.test, &data.ood] {
        let t = TensorSet::new(set, geometry, device)?;
        let f =
            crate::network::features_no_grad(&member.net().backbone, &t.images, 500, false, device);
        let (fx, ry, spread) = tch::no_grad(|| {
            let y = member.net().head.raw(&f);
            let fx = f
                .norm_scalaropt_dim(2.0, [1i64], false)
                .to_kind(Kind::Double);
            let ry = y
                .norm_scalaropt_dim(2.0, [1i64], false)
                .to_kind(Kind::Double);
            let spread = std.as_ref().map(|(sw, sb)| {
                let spread = f
                    .square()
                    .matmul(&sw.square().tr())
                    .sum_dim_intlist(1i64, false, Kind::Double)
                    .sqrt()
                    / &ry;
                let variance =
                    crate::laplace::posterior::output_variance(&f, sw, sb).to_kind(Kind::Double);
                (spread, variance)
            });
            (fx, ry, spread)
        });
        let host = |t: &tch::Tensor| Vec::<f64>::try_from(&t.to_device(Device::Cpu));
        per_set.push((
            host(&fx)?,
            host(&ry)?,
            spread
                .as_ref()
                .map(|(s, v)| -> TrainResult<_> { Ok((host(s)?, host(v)?)) })
                .transpose()?,
        ));
        images.push(t.images);
    }
    let members = trained.model.members();
    let ensemble = if members.len() > 1 {
        let train = TensorSet::new(&data.train, geometry, device)?;
        Some(ensemble::ensemble_disagreement(
            members,
            (&train.images, &train.labels),
            data.train.classes as i64,
            &images[0],
            &images[1],
            device,
        )?)
    } else {
        None
    };
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let ((id_x, id_y, id_s), (ood_x, ood_y, ood_s)) = (&per_set[0], &per_set[1]);
    let inv = |v: &[f64]| v.iter().map(|a| 1.0 / a).collect::<Vec<_>>();
    let ratio = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a / b).collect::<Vec<_>>();
    let auroc = |id: &[f64], ood: &[f64]| probdml::metrics::OodScores { id, ood }.auroc();
    // The posterior's scores, from each set's (spread, output variance) and its ‖x‖; None
    // when the checkpoint holds no posterior.
    type PosteriorScore<'a> = &'a dyn Fn(&(Vec<f64>, Vec<f64>), &[f64]) -> Vec<f64>;
    let posterior = |score: PosteriorScore<'_>| -> TrainResult<Option<f64>> {
        match (id_s, ood_s) {
            (Some(a), Some(b)) => Ok(Some(auroc(&score(a, id_x), &score(b, ood_x))?)),
            _ => Ok(None),
        }
    };
    Ok(OodDiagnosis {
        mean_feature_norm: (mean(id_x), mean(ood_x)),
        mean_output_norm: (mean(id_y), mean(ood_y)),
        auroc_feature_norm: auroc(id_x, ood_x)?,
        auroc_inverse_output_norm: auroc(&inv(id_y), &inv(ood_y))?,
        auroc_isotropic_spread: auroc(&ratio(id_x, id_y), &ratio(ood_x, ood_y))?,
        auroc_posterior_spread: posterior(&|s, _| s.0.clone())?,
        auroc_output_variance: posterior(&|s, _| s.1.clone())?,
        // tr Cov(y) / (‖x‖² + 1): the output variance with the feature norm's share divided out.
        auroc_output_variance_over_norm: posterior(&|s, x| {
            s.1.iter().zip(x).map(|(v, x)| v / (x * x + 1.0)).collect()
        })?,
        ensemble,
    })
}
