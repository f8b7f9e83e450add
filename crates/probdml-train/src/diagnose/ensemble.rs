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
//! [`ensemble_disagreement`] takes the score apart. It scores the test and OOD images by the
//! members' spread 1 − R̄ (R̄ the length of the mean of the M unit embeddings, which the vMF
//! fit's κ̂ increases with, so that both rank the images alike):
//!
//! * in the members' own frames (the ensemble's score);
//! * after the orthogonal map of every member onto the first one's frame, fitted on training
//!   images ([`super::procrustes::orthogonal_procrustes`]): what no rotation or reflection
//!   explains;
//! * with each member's embedding replaced by the centre of the class it is nearest to in that
//!   member (the normalised mean of the member's training embeddings of the class): a score
//!   that knows only the members' class layouts and their votes, not where in a cluster an image
//!   lies;
//! * by the votes alone, 1 − (members voting for the most voted class)/M: a disagreement that
//!   no frame and no layout enters.

use super::procrustes::orthogonal_procrustes;
pub use crate::ensemble_disagreement::EnsembleDisagreement;
use crate::error::TrainResult;
use crate::method::Method;
use crate::network::{features_no_grad, normalise};
use probdml::metrics::OodScores;
use tch::{Device, Kind, Tensor};

/// Training images the members' maps are fitted on (the first ones of the file).
pub const ALIGNMENT_IMAGES: i64 = 10_000;

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

/// Each member's class centres (K × D, unit rows): the normalised mean of its training
/// embeddings `z[m]` (N × D) of each class of `labels` (int64, N, classes 0..K).
pub fn class_centres(z: &[Tensor], labels: &Tensor, classes: i64) -> Vec<Tensor> {
    let one_hot = labels.one_hot(classes).to_kind(Kind::Double);
    z.iter()
        .map(|z| normalise(&one_hot.tr().matmul(z)))
        .collect()
}

/// Each member's vote (int64, N): the class whose centre `centres[m]` its embedding `z[m]` is
/// nearest to (largest cosine).
pub fn votes(z: &[Tensor], centres: &[Tensor]) -> Vec<Tensor> {
    z.iter()
        .zip(centres)
        .map(|(z, c)| z.matmul(&c.tr()).argmax(1, false))
        .collect()
}

/// 1 − (members voting for the most voted class)/M of each image, from the members' `votes`
/// (M of int64 N) among `classes` classes.
pub fn vote_disagreement(votes: &[Tensor], classes: i64) -> Tensor {
    let tally = Tensor::stack(votes, 0)
        .one_hot(classes)
        .sum_dim_intlist(0i64, false, Kind::Double);
    1.0 - tally.amax(1i64, false) / votes.len() as f64
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

/// [`EnsembleDisagreement`] of the members of an ensemble: maps and class centres from the first
/// [`ALIGNMENT_IMAGES`] images of `train` with their `train_labels` (int64, classes
/// 0..`classes`), scores of `test` and `ood`; tensors on any device.
///
/// # Errors
///
/// libtorch failures, and those of [`orthogonal_procrustes`] and of the AUROC (an empty set).
pub fn ensemble_disagreement(
    members: &[Box<dyn Method>],
    (train, train_labels): (&Tensor, &Tensor),
    classes: i64,
    test: &Tensor,
    ood: &Tensor,
    device: Device,
) -> TrainResult<EnsembleDisagreement> {
    let n = ALIGNMENT_IMAGES.min(train.size()[0]);
    let (train, train_labels) = (train.narrow(0, 0, n), train_labels.narrow(0, 0, n));
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
    let centres = class_centres(&train_z, &train_labels.to_device(device), classes);
    let snapped = |z: &[Tensor]| -> Vec<Tensor> {
        votes(z, &centres)
            .iter()
            .zip(&centres)
            .map(|(v, c)| c.index_select(0, v))
            .collect()
    };
    let spreads = [
        (host(&spread(&test_z))?, host(&spread(&ood_z))?),
        (
            host(&spread(&aligned(&test_z, &maps)))?,
            host(&spread(&aligned(&ood_z, &maps)))?,
        ),
        (
            host(&spread(&snapped(&test_z)))?,
            host(&spread(&snapped(&ood_z)))?,
        ),
        (
            host(&vote_disagreement(&votes(&test_z, &centres), classes))?,
            host(&vote_disagreement(&votes(&ood_z, &centres), classes))?,
        ),
    ];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let auroc = |(id, ood): &(Vec<f64>, Vec<f64>)| OodScores { id, ood }.auroc();
    Ok(EnsembleDisagreement {
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
        auroc_class_centres: auroc(&spreads[2])?,
        mean_vote_disagreement: (mean(&spreads[3].0), mean(&spreads[3].1)),
        auroc_votes: auroc(&spreads[3])?,
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

    /// Two members, two classes on the circle (D = 2). Member 1 puts class 0 at e₁ and class 1
    /// at e₂, member 2 the other way round, so the centres are (e₁, e₂) and (e₂, e₁). An image
    /// at (0.9, 0.1)/‖·‖ in member 1 and (0.3, 0.7)/‖·‖ in member 2 gets the votes 0 and 0
    /// (member 2's class 0 is at e₂): no vote disagreement, while in the members' own frames the
    /// two embeddings are far apart. An image voted 0 by one member and 1 by the other has
    /// disagreement 1 − 1/2.
    #[test]
    fn class_centres_and_votes_follow_each_members_layout() {
        let d = |v: &[f64]| Tensor::from_slice(v).view([-1, 2]);
        let train = [d(&[1., 0., 0., 1.]), d(&[0., 1., 1., 0.])];
        let labels = Tensor::from_slice(&[0i64, 1]);
        let centres = class_centres(&train, &labels, 2);
        for (c, expected) in centres.iter().zip(&train) {
            let err = (c - expected).abs().max().double_value(&[]);
            assert!(err < 1e-15, "centres differ by {err}");
        }
        let unit = |x: f64, y: f64| {
            let r = (x * x + y * y).sqrt();
            [x / r, y / r]
        };
        let agree = [d(&unit(0.9, 0.1)), d(&unit(0.3, 0.7))];
        let split = [d(&unit(0.9, 0.1)), d(&unit(0.7, 0.3))];
        let v = votes(&agree, &centres);
        assert_eq!((v[0].int64_value(&[0]), v[1].int64_value(&[0])), (0, 0));
        assert_eq!(vote_disagreement(&v, 2).double_value(&[0]), 0.0);
        assert!(spread(&agree).double_value(&[0]) > 0.05);
        let v = votes(&split, &centres);
        assert_eq!((v[0].int64_value(&[0]), v[1].int64_value(&[0])), (0, 1));
        assert_eq!(vote_disagreement(&v, 2).double_value(&[0]), 0.5);
    }
}
