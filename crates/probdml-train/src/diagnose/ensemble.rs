//! Whether a deep ensemble's disagreement is epistemic or only a matter of frames.
//!
//! Each member of a deep ensemble is trained from its own initialisation, and a metric loss on
//! the sphere is unchanged by any orthogonal map of the embeddings: every member is free to
//! learn its own frame. The ensemble's score, one vMF fit to the members' embeddings of an
//! image (LAM Table 2's deep ensemble), then measures the members' disagreement about the image
//! *and* how far apart their frames are. For an in-distribution image the frames' part is
//! roughly its class's, fixed by the members' initialisations; so the score's ranking of ID
//! against OOD images can follow the seed rather than the images.
//!
//! [`ensemble_alignment`] separates the two parts: it fits, for every member after the first,
//! the orthogonal map onto the first member's frame on training images
//! ([`super::procrustes::orthogonal_procrustes`]) and scores the test and OOD images by the
//! members' spread 1 − R̄ (R̄ the length of the mean of the M unit embeddings, which the vMF
//! fit's κ̂ increases with, so that both rank the images alike) before and after the maps.

use super::procrustes::orthogonal_procrustes;
use crate::error::TrainResult;
use crate::method::Method;
use crate::network::{features_no_grad, normalise};
use probdml::metrics::OodScores;
use serde::{Deserialize, Serialize};
use tch::{Device, Kind, Tensor};

/// Training images the members' maps are fitted on (the first ones of the file).
pub const ALIGNMENT_IMAGES: i64 = 10_000;

/// A deep ensemble's members before and after putting them in one frame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnsembleAlignment {
    /// Members M.
    pub members: usize,
    /// Training images the maps were fitted on.
    pub alignment_images: usize,
    /// For each member after the first: the root-mean-square distance ‖z_m − z_1‖ to the first
    /// member's embedding of the same training image, before the map.
    pub rms_distance_unaligned: Vec<f64>,
    /// The same after the member's map: what no orthogonal map explains.
    pub rms_distance_aligned: Vec<f64>,
    /// For each member after the first: whether its map is a reflection (det = −1).
    pub reflected: Vec<bool>,
    /// Mean spread 1 − R̄ of the (ID test, OOD) images in the members' own frames.
    pub mean_spread_unaligned: (f64, f64),
    /// The same in the first member's frame.
    pub mean_spread_aligned: (f64, f64),
    /// AUROC (OOD positive) of the spread in the members' own frames: the ensemble's score.
    pub auroc_unaligned: f64,
    /// AUROC of the spread in the first member's frame.
    pub auroc_aligned: f64,
}

/// Unit embeddings (N × D, f64) of `images` by `member` with its mean weights, dropout off.
fn embed(member: &dyn Method, images: &Tensor, device: Device) -> Tensor {
    let net = member.net();
    tch::no_grad(|| {
        let f = features_no_grad(&net.backbone, images, 500, false, device);
        normalise(&net.head.raw(&f)).to_kind(Kind::Double)
    })
}

/// The spread 1 − ‖(1/M) Σ_m z_m‖ of each image (N) of the members' embeddings `z` (M of N × D).
pub fn spread(z: &[Tensor]) -> Tensor {
    let mean = Tensor::stack(z, 0).mean_dim(0i64, false, Kind::Double);
    1.0 - mean.norm_scalaropt_dim(2.0, [1i64], false)
}

/// Each member's embeddings `z[m]` carried by `maps[m]` (the first member's map is I).
pub fn aligned(z: &[Tensor], maps: &[Tensor]) -> Vec<Tensor> {
    z.iter().zip(maps).map(|(z, r)| z.matmul(r)).collect()
}

/// The orthogonal maps of the members' embeddings `train` (M of N × D) onto the first's, the
/// first's the identity.
///
/// # Errors
///
/// Those of [`orthogonal_procrustes`].
pub fn member_maps(train: &[Tensor]) -> TrainResult<Vec<Tensor>> {
    train
        .iter()
        .map(|z| orthogonal_procrustes(z, &train[0]))
        .collect()
}

/// [`EnsembleAlignment`] of the members of an ensemble on the first [`ALIGNMENT_IMAGES`] images
/// of `train` (maps), `test` and `ood` (spreads), image tensors on any device.
///
/// # Errors
///
/// libtorch failures, and those of [`orthogonal_procrustes`] and of the AUROC (an empty set).
pub fn ensemble_alignment(
    members: &[Box<dyn Method>],
    train: &Tensor,
    test: &Tensor,
    ood: &Tensor,
    device: Device,
) -> TrainResult<EnsembleAlignment> {
    let train = train.narrow(0, 0, ALIGNMENT_IMAGES.min(train.size()[0]));
    let embed_all = |images: &Tensor| -> Vec<Tensor> {
        members
            .iter()
            .map(|m| embed(m.as_ref(), images, device))
            .collect()
    };
    let train_z = embed_all(&train);
    let maps = member_maps(&train_z)?;
    let rms = |a: &Tensor, b: &Tensor| {
        (a - b)
            .square()
            .sum_dim_intlist(1i64, false, Kind::Double)
            .mean(Kind::Double)
            .sqrt()
            .double_value(&[])
    };
    let train_aligned = aligned(&train_z, &maps);
    let host = |t: &Tensor| Vec::<f64>::try_from(&t.to_device(Device::Cpu));
    let (test_z, ood_z) = (embed_all(test), embed_all(ood));
    let spreads = [
        (host(&spread(&test_z))?, host(&spread(&ood_z))?),
        (
            host(&spread(&aligned(&test_z, &maps)))?,
            host(&spread(&aligned(&ood_z, &maps)))?,
        ),
    ];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let auroc = |(id, ood): &(Vec<f64>, Vec<f64>)| OodScores { id, ood }.auroc();
    Ok(EnsembleAlignment {
        members: members.len(),
        alignment_images: train.size()[0] as usize,
        rms_distance_unaligned: train_z[1..].iter().map(|z| rms(z, &train_z[0])).collect(),
        rms_distance_aligned: train_aligned[1..]
            .iter()
            .map(|z| rms(z, &train_aligned[0]))
            .collect(),
        reflected: maps[1..]
            .iter()
            .map(|r| r.det().double_value(&[]) < 0.0)
            .collect(),
        mean_spread_unaligned: (mean(&spreads[0].0), mean(&spreads[0].1)),
        mean_spread_aligned: (mean(&spreads[1].0), mean(&spreads[1].1)),
        auroc_unaligned: auroc(&spreads[0])?,
        auroc_aligned: auroc(&spreads[1])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three "members" that are one embedding in three frames (the identity, a rotation, a
    /// mirror image): in their own frames they disagree (spread > 0.05 on average), after the
    /// maps fitted on other points of the same frames they agree to rounding, and the maps
    /// found are those frames' (the third a reflection).
    #[test]
    fn members_in_three_frames_agree_once_mapped() {
        let (c, s) = (0.6f64, 0.8f64);
        let frames = [
            Tensor::eye(3, (Kind::Double, Device::Cpu)),
            Tensor::from_slice(&[1.0, 0., 0., 0., c, -s, 0., s, c]).view([3, 3]),
            Tensor::from_slice(&[0.0f64, 1., 0., 1., 0., 0., 0., 0., 1.]).view([3, 3]),
        ];
        tch::manual_seed(5);
        let unit = |n: i64| {
            let x = Tensor::randn([n, 3], (Kind::Double, Device::Cpu));
            &x / x.norm_scalaropt_dim(2.0, [1i64], true)
        };
        let (train, test) = (unit(50), unit(20));
        let in_frames =
            |z: &Tensor| -> Vec<Tensor> { frames.iter().map(|f| z.matmul(f)).collect() };
        let maps = member_maps(&in_frames(&train)).unwrap();
        for (m, f) in maps.iter().zip(&frames) {
            // z F R = z needs R = Fᵀ.
            let err = (m - f.tr()).abs().max().double_value(&[]);
            assert!(err < 1e-12, "map differs from the frame's inverse by {err}");
        }
        assert!(maps[2].det().double_value(&[]) < 0.0);
        let before = spread(&in_frames(&test))
            .mean(Kind::Double)
            .double_value(&[]);
        let after = spread(&aligned(&in_frames(&test), &maps))
            .abs()
            .max()
            .double_value(&[]);
        assert!(
            before > 0.05,
            "the frames alone spread the members by {before}"
        );
        assert!(after < 1e-12, "mapped members still spread by {after}");
    }
}
