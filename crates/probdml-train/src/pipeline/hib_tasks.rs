//! HIB's experiment on a trained model ([`crate::hib_experiment`]): embeds the training set and
//! both N-digit MNIST test twins, scores the seeded verification pairs and the K-NN
//! identification, and returns the run files' records (`hib_tasks.json`, `hib_embedding.json`).

use crate::error::{TrainError, TrainResult};
use crate::hib_experiment::{
    cpu_model, embedding_subset, fit_images, paper_method, HibEmbedding, HibRunRecord,
    KnnGalleries, TwinEmbedding, TwinMetrics, TwinScores, VerificationPairs, EMBEDDING_IMAGES,
    KNN_K, PAPER_PAIRS,
};
use crate::method::{Method, TensorSet};
use crate::pipeline::RunData;
use crate::prediction::{sample_mean_direction, PredictRequest, Prediction, EVAL_BATCH};
use crate::seeds;
use crate::trainer::Trained;
use probdml::metrics::{knn_identification, Distance, Embeddings, KnnIdentification, Retrieval};
use std::time::Instant;
use tch::{Device, Kind, Tensor};

/// One set's mean embeddings (row-major N × D) and, for a method with one, its η per image.
struct Embedded {
    mean: Vec<f32>,
    eta: Option<Vec<f64>>,
}

/// The evaluation's draws: the run's evaluation seed, batch `b` of the set.
fn request(trained: &Trained, b: usize, device: Device) -> PredictRequest {
    PredictRequest {
        samples: trained.config.evaluation.eval_samples,
        seed: seeds::evaluation(trained.config.seed),
        batch: b,
        device,
    }
}

/// The mean embedding of every image of `set` (the method's [`Method::embedding_means`] where it
/// has them, else the mean direction of a distribution or the one sample of a point embedding)
/// and the method's uncertainty, `EVAL_BATCH` images at a time.
fn embed(
    trained: &Trained,
    member: &dyn Method,
    set: &TensorSet,
    device: Device,
) -> TrainResult<Embedded> {
    let n = set.len();
    let (mut mean, mut eta) = (Vec::new(), Vec::new());
    let mut has_eta = true;
    for (b, start) in (0..n).step_by(EVAL_BATCH).enumerate() {
        let len = (EVAL_BATCH as i64).min(n - start);
        let images = set.images.narrow(0, start, len);
        let request = request(trained, b, device);
        let (m, u) = match member.predict(&images, &request)? {
            Prediction::Samples(z) => (sample_mean_direction(&z), None),
            Prediction::Distribution {
                mean, uncertainty, ..
            } => (mean, Some(uncertainty)),
        };
        let m = member.embedding_means(&images, &request)?.unwrap_or(m);
        mean.extend(Vec::<f32>::try_from(
            m.to_device(Device::Cpu).to_kind(Kind::Float).flatten(0, -1),
        )?);
        match u {
            Some(u) => eta.extend(Vec::<f64>::try_from(
                u.to_device(Device::Cpu).to_kind(Kind::Double),
            )?),
            None => has_eta = false,
        }
    }
    Ok(Embedded {
        mean,
        eta: has_eta.then_some(eta),
    })
}

/// Match scores of `pairs` on one twin: the method's p(m | x₁, x₂), in one call (each image
/// embedded once, the draws of batch 0), or −‖μ₁ − μ₂‖ of the mean embeddings for a method
/// without one (point embeddings).
fn match_scores(
    trained: &Trained,
    member: &dyn Method,
    set: &TensorSet,
    embedded: &Embedded,
    pairs: &VerificationPairs,
    device: Device,
) -> TrainResult<Vec<f64>> {
    let index = |ix: &[usize]| {
        let ix: Vec<i64> = ix.iter().map(|&i| i as i64).collect();
        Tensor::from_slice(&ix)
    };
    let (first, second) = (index(&pairs.first), index(&pairs.second));
    let request = request(trained, 0, device);
    if let Some(p) = member.match_probability(&set.images, &first, &second, &request)? {
        return Ok(Vec::<f64>::try_from(
            p.to_device(Device::Cpu).to_kind(Kind::Double),
        )?);
    }
    let d = trained.config.model.latent_dim;
    Ok(pairs
        .first
        .iter()
        .zip(&pairs.second)
        .map(|(&i, &j)| {
            let (x, y) = (&embedded.mean[i * d..][..d], &embedded.mean[j * d..][..d]);
            -x.iter()
                .zip(y)
                .map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .collect())
}

/// What a N-digit MNIST run keeps of HIB's experiment: the tables' numbers and the embedding
/// subset of the figures.
pub struct HibTasks {
    /// `hib_tasks.json`.
    pub record: HibRunRecord,
    /// `hib_embedding.json`.
    pub embedding: HibEmbedding,
}

impl Embedded {
    /// The rows `index` of this set's embeddings (`dim` values each).
    fn subset(&self, index: &[usize], dim: usize) -> TwinEmbedding {
        TwinEmbedding {
            mean: index
                .iter()
                .flat_map(|&i| self.mean[i * dim..][..dim].iter().copied())
                .collect(),
            eta: self
                .eta
                .as_ref()
                .map(|eta| index.iter().map(|&i| eta[i]).collect()),
        }
    }
}

/// HIB Tables 1 and 2's numbers for `trained` on its N-digit MNIST `data` (the clean twin as
/// `data.test`, the corrupt one as `data.ood`), the training images as the K-NN gallery; and
/// the embeddings of [`EMBEDDING_IMAGES`] seeded test images of both twins.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `dataset` for data that is not N-digit MNIST, `method`
/// for a method the paper does not compare or an ensemble; libtorch and metric errors.
pub fn evaluate_hib_tasks(
    trained: &Trained,
    data: &RunData,
    device: Device,
) -> TrainResult<HibTasks> {
    let config = &trained.config;
    let digits = config.data.dataset.digits().ok_or_else(|| {
        TrainError::config(
            "dataset",
            config.data.dataset.name(),
            "HIB's tasks are defined on N-digit MNIST (n-digit-mnist-2, n-digit-mnist-3)",
        )
    })?;
    let method = paper_method(
        &config.method,
        config.model.backbone,
        &config.optimiser,
        config.data.n_digit_gap,
    )?;
    let member = match trained.model.members() {
        [one] => one.as_ref(),
        many => {
            return Err(TrainError::config(
                "method",
                format!("{} members", many.len()),
                "HIB's tasks score one model, not an ensemble",
            ))
        }
    };
    let unoccluded_train = data.train_unoccluded.as_ref().ok_or_else(|| {
        TrainError::config(
            "dataset",
            config.data.dataset.name(),
            "N-digit MNIST loaded with its unoccluded training images",
        )
    })?;
    let started = Instant::now();
    let geometry = config.data.geometry();
    let embed_set = |set: &crate::data::ImageSet| {
        embed(
            trained,
            member,
            &TensorSet::new(set, geometry, device)?,
            device,
        )
    };
    let gallery = embed_set(&data.train)?;
    let unoccluded = embed_set(unoccluded_train)?;
    let labels = data.test.labels_usize();
    let pairs = VerificationPairs::draw(&labels, PAPER_PAIRS, seeds::verification_pairs())?;
    let d = config.model.latent_dim;
    let train_labels = data.train.labels_usize();
    let knn_against = |queries: &[f32], query_labels: &[usize], database: &[f32]| {
        let task = Retrieval::query_database(
            Embeddings::from_f32(queries, d)?,
            query_labels,
            Embeddings::from_f32(database, d)?,
            train_labels.as_slice(),
            Distance::Euclidean,
        )?;
        Ok::<_, TrainError>(knn_identification(&task, KNN_K)?)
    };
    let knn_within = |means: &[f32], labels: &[usize]| {
        let task =
            Retrieval::leave_one_out(Embeddings::from_f32(means, d)?, labels, Distance::Euclidean)?;
        Ok::<_, TrainError>(knn_identification(&task, KNN_K)?)
    };
    // The same images of both twins (the corrupt twin is the clean one occluded, image by image).
    let subset = embedding_subset(labels.len(), EMBEDDING_IMAGES, seeds::embedding_subset());
    // One twin's Table 1 and 2 numbers under `pairs`, with `knn` the K-NN identification of its
    // means and labels against its gallery; and its embeddings.
    let score = |set: &crate::data::ImageSet,
                 pairs: &VerificationPairs,
                 knn: &dyn Fn(&[f32], &[usize]) -> TrainResult<KnnIdentification>|
     -> TrainResult<(TwinMetrics, Embedded)> {
        let twin = TensorSet::new(set, geometry, device)?;
        let embedded = embed(trained, member, &twin, device)?;
        let scores = match_scores(trained, member, &twin, &embedded, pairs, device)?;
        let knn = knn(&embedded.mean, &twin.labels_host)?;
        let metrics = TwinMetrics::compute(&TwinScores {
            pairs,
            match_score: &scores,
            knn_correct: &knn.correct,
            eta: embedded.eta.as_deref(),
        })?;
        Ok((metrics, embedded))
    };
    // A test twin against the training images, and its K-NN accuracy against the other galleries
    // (unoccluded training images, the twin itself) and its figures' embeddings.
    let score_twin =
        |set: &crate::data::ImageSet| -> TrainResult<(TwinMetrics, [f64; 2], TwinEmbedding)> {
            let (metrics, embedded) = score(set, &pairs, &|means, labels| {
                knn_against(means, labels, &gallery.mean)
            })?;
            let labels = set.labels_usize();
            let galleries = [
                knn_against(&embedded.mean, &labels, &unoccluded.mean)?.accuracy,
                knn_within(&embedded.mean, &labels)?.accuracy,
            ];
            Ok((metrics, galleries, embedded.subset(&subset, d)))
        };
    let (clean, clean_galleries, clean_embedding) = score_twin(&data.test)?;
    let (corrupt, corrupt_galleries, corrupt_embedding) = score_twin(&data.ood)?;
    // The numbers the training set lacks (the number gap): their own pairs, and K-NN within
    // their twin, as no training image shows them.
    let unseen = data
        .unseen
        .as_ref()
        .map(|twins| -> TrainResult<[TwinMetrics; 2]> {
            let labels = twins[0].labels_usize();
            let pairs = VerificationPairs::draw(&labels, PAPER_PAIRS, seeds::verification_pairs())?;
            let twin = |set| Ok::<_, TrainError>(score(set, &pairs, &knn_within)?.0);
            Ok([twin(&twins[0])?, twin(&twins[1])?])
        })
        .transpose()?;
    let fit = fit_images(&train_labels, &labels);
    let knn_galleries = KnnGalleries {
        unoccluded_train: [clean_galleries[0], corrupt_galleries[0]],
        twin_leave_one_out: [clean_galleries[1], corrupt_galleries[1]],
        train_leave_one_out: knn_within(
            &unoccluded.subset(&fit, d).mean,
            &fit.iter().map(|&i| train_labels[i]).collect::<Vec<_>>(),
        )?
        .accuracy,
        train_queries: fit.len(),
    };
    let embedding = HibEmbedding {
        method: method.clone(),
        digits,
        latent_dim: d,
        seed: config.seed,
        test_images: data.test.len(),
        label: subset.iter().map(|&i| labels[i]).collect(),
        index: subset,
        clean: clean_embedding,
        corrupt: corrupt_embedding,
    };
    let record = HibRunRecord {
        method,
        digits,
        latent_dim: d,
        seed: config.seed,
        train_images: data.train.len(),
        test_images: data.test.len(),
        epochs: config.optimiser.epochs,
        learning_rate: Some(config.optimiser.learning_rate),
        lr_decay: Some(config.optimiser.lr_decay),
        epoch_losses: trained.history.iter().map(|e| e.mean_loss).collect(),
        pairs: pairs.len(),
        samples: config.evaluation.eval_samples,
        clean,
        corrupt,
        unseen,
        knn_galleries: Some(knn_galleries),
        train_seconds: trained.history.iter().map(|e| e.seconds).sum(),
        evaluation_seconds: started.elapsed().as_secs_f64(),
        device: format!("{device:?}"),
        cpu: cpu_model(),
    };
    Ok(HibTasks { record, embedding })
}
