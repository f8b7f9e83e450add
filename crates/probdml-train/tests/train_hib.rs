//! HIB's tensor loss (`probdml_train::method::hib`) against the math crate's chapter 07 on
//! identical inputs, and HIB training on the seeded synthetic set.
//!
//! The Monte Carlo parts are made deterministic by feeding both sides the same standard normal
//! draws: the math crate's [`SoftThreshold::vib_loss`] takes them explicitly
//! (`VibPair::noise1/2`), and [`SoftThreshold::match_probability`] /
//! [`SoftThreshold::self_mismatch`] draw them from an rng in a documented
//! order (component by component, draw by draw, coordinate by coordinate; first x₁, then x₂),
//! which the test replays into the tensor code's B × C × K × D noise. In double precision the
//! tensor loss and its autograd gradient must then equal the fast twin to the registry's
//! `HIB_VIB` budget (relative to the size of the terms), and on tiny sizes the exact twin too.

#[path = "train_support/mod.rs"]
mod train_support;

use probdml::hib::{self, exact, HedgedEmbedding, SoftThreshold, VibPair};
use probdml_proofs::registry::budget::HIB_VIB;
use probdml_train::checkpoint::AtBound;
use probdml_train::config::ValidConfig;
use probdml_train::config::{MethodConfig, MethodKind, TrainConfig};
use probdml_train::guards::Position;
use probdml_train::method::hib::HibOptions;
use probdml_train::method::hib::{
    at_cap, draws, self_mismatch_tensor, vib_loss_tensor, Hib, PairIndices, VarianceCap,
    MAX_LOG_VARIANCE,
};
use probdml_train::method::{self, Batch, TensorSet};
use probdml_train::{pipeline, trainer};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use std::path::Path;
use tch::{Device, Kind, Tensor};
use train_support::{
    assert_flags_never_panic, assert_invalid, assert_learns, assert_resume_is_exact, host, leaf,
    serial, synthetic,
};

/// |got − want| ≤ budget · max(1, scale) entrywise.
fn assert_close(what: &str, got: &[f64], want: &[f64], budget: f64, scale: f64) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= budget * scale.max(1.0),
            "{what}[{k}]: tensor {g:e} vs math crate {w:e} (|Δ| = {:e}, budget {:e})",
            (g - w).abs(),
            budget * scale.max(1.0)
        );
    }
}

/// One Gaussian (C = 1) problem: B images, K draws each, every pair i < j with a match flag.
struct Problem {
    b: usize,
    d: usize,
    k: usize,
    mean: Vec<f64>,
    variance: Vec<f64>,
    noise: Vec<f64>,
    pairs: Vec<(usize, usize, bool)>,
    a: f64,
    b_shift: f64,
    beta: f64,
}

impl Problem {
    fn random(rng: &mut ChaCha8Rng, b: usize, d: usize, k: usize) -> Self {
        let mean_scale = 10f64.powf(rng.random_range(-2.0..1.0));
        let var_exp = rng.random_range(-8.0..3.0);
        let mean = (0..b * d)
            .map(|_| rng.random_range(-1.0..1.0) * mean_scale)
            .collect();
        let variance = (0..b * d)
            .map(|_| 10f64.powf(var_exp + rng.random_range(-1.0..1.0)))
            .collect();
        let noise = (0..b * k * d).map(|_| rng.sample(StandardNormal)).collect();
        let mut pairs = Vec::new();
        for i in 0..b {
            for j in i + 1..b {
                pairs.push((i, j, rng.random_bool(0.5)));
            }
        }
        Self {
            b,
            d,
            k,
            mean,
            variance,
            noise,
            pairs,
            a: 10f64.powf(rng.random_range(-1.0..1.5)),
            b_shift: rng.random_range(-5.0..5.0),
            beta: if rng.random_bool(0.2) {
                0.0
            } else {
                10f64.powf(rng.random_range(-6.0..0.0))
            },
        }
    }

    fn row<'a>(&self, v: &'a [f64], i: usize, width: usize) -> &'a [f64] {
        &v[i * width..(i + 1) * width]
    }

    fn vib_pair(&self, i: usize, j: usize, is_match: bool) -> VibPair<'_> {
        VibPair {
            mu1: self.row(&self.mean, i, self.d),
            var1: self.row(&self.variance, i, self.d),
            mu2: self.row(&self.mean, j, self.d),
            var2: self.row(&self.variance, j, self.d),
            noise1: self.row(&self.noise, i, self.k * self.d),
            noise2: self.row(&self.noise, j, self.k * self.d),
            is_match,
        }
    }

    fn indices(&self) -> PairIndices {
        let first: Vec<i64> = self.pairs.iter().map(|p| p.0 as i64).collect();
        let second: Vec<i64> = self.pairs.iter().map(|p| p.1 as i64).collect();
        let matched: Vec<bool> = self.pairs.iter().map(|p| p.2).collect();
        PairIndices {
            first: Tensor::from_slice(&first),
            second: Tensor::from_slice(&second),
            is_match: Tensor::from_slice(&matched),
            weight: None,
        }
    }

    /// Checks the tensor loss and gradient against the fast twin (and the exact one).
    fn check(&self, with_exact: bool) {
        let (b, d, k) = (self.b as i64, self.d as i64, self.k as i64);
        let mean = leaf(&self.mean, &[b, 1, d]);
        let log_var: Vec<f64> = self.variance.iter().map(|v| v.ln()).collect();
        let log_variance = leaf(&log_var, &[b, 1, d]);
        let noise = Tensor::from_slice(&self.noise).view([b, 1, k, d]);
        let a = leaf(&[self.a], &[1]);
        let shift = leaf(&[self.b_shift], &[1]);
        let terms = vib_loss_tensor(
            &mean,
            &log_variance,
            &noise,
            &self.indices(),
            &a,
            &shift,
            self.beta,
        )
        .unwrap();
        terms.loss.backward();
        let p = self.pairs.len() as f64;
        let (mut loss, mut scale) = (0.0, 1.0f64);
        let mut grad_mean = vec![0.0; self.b * self.d];
        let mut grad_log_var = vec![0.0; self.b * self.d];
        let (mut grad_a, mut grad_b) = (0.0, 0.0);
        let nll = host(&terms.nll);
        for (q, &(i, j, m)) in self.pairs.iter().enumerate() {
            let pair = self.vib_pair(i, j, m);
            let threshold = SoftThreshold {
                a: self.a,
                b: self.b_shift,
            };
            let fast = threshold.vib_loss(&pair, self.beta).unwrap();
            if with_exact {
                let slow = exact::vib_loss(&pair, self.a, self.b_shift, self.beta).unwrap();
                assert_close(
                    "nll vs exact",
                    &[nll[q]],
                    &[slow.nll],
                    HIB_VIB,
                    slow.nll.abs(),
                );
                assert_close(
                    "pair grad μ₁ vs exact",
                    &fast.grad_mu1,
                    &slow.grad_mu1,
                    HIB_VIB,
                    slow.grad_mu1.iter().fold(1.0, |m, v| m.max(v.abs())),
                );
            }
            assert_close("nll", &[nll[q]], &[fast.nll], HIB_VIB, fast.nll.abs());
            loss += fast.loss / p;
            scale = scale.max(fast.loss.abs()).max(fast.grad_a.abs() * self.a);
            for c in 0..self.d {
                grad_mean[i * self.d + c] += fast.grad_mu1[c] / p;
                grad_mean[j * self.d + c] += fast.grad_mu2[c] / p;
                grad_log_var[i * self.d + c] += fast.grad_log_var1[c] / p;
                grad_log_var[j * self.d + c] += fast.grad_log_var2[c] / p;
                scale = scale
                    .max(fast.grad_mu1[c].abs())
                    .max(fast.grad_mu2[c].abs())
                    .max(fast.grad_log_var1[c].abs())
                    .max(fast.grad_log_var2[c].abs());
            }
            grad_a += fast.grad_a / p;
            grad_b += fast.grad_b / p;
        }
        let kl = host(&terms.kl);
        for (i, &kl_i) in kl.iter().enumerate().take(self.b) {
            let want = hib::kl_to_standard_normal(
                self.row(&self.mean, i, self.d),
                self.row(&self.variance, i, self.d),
            )
            .unwrap();
            assert_close("kl", &[kl_i], &[want], HIB_VIB, want);
        }
        assert_close("loss", &host(&terms.loss), &[loss], HIB_VIB, scale);
        assert_close("∂L/∂μ", &host(&mean.grad()), &grad_mean, HIB_VIB, scale);
        assert_close(
            "∂L/∂lnσ²",
            &host(&log_variance.grad()),
            &grad_log_var,
            HIB_VIB,
            scale,
        );
        assert_close("∂L/∂a", &host(&a.grad()), &[grad_a], HIB_VIB, scale);
        assert_close("∂L/∂b", &host(&shift.grad()), &[grad_b], HIB_VIB, scale);
    }
}

/// Seeded random Gaussian problems (means from 10⁻² to 10, variances from 10⁻⁹ to 10⁴, a from
/// 0.1 to 30, β = 0 in a fifth of them): the tensor VIB loss and its autograd gradient equal
/// the fast twin summed over the pairs; on tiny sizes the exact (dual-number) twin as well.
#[test]
fn vib_loss_tensor_equals_fast_and_exact_twins() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x07_14_01);
    for case in 0..60 {
        let (b, d, k) = (
            rng.random_range(2..6),
            rng.random_range(1..6),
            rng.random_range(1..9),
        );
        let p = Problem::random(&mut rng, b, d, k);
        p.check(case % 4 == 0 && d <= 3 && k <= 3);
    }
}

/// Edge cases: a saturated sigmoid (means 30 apart, a = 10: ln s = −300, the naive form is −∞),
/// two identical images with the same draws (every distance 0: the subgradient 0 of √ at 0),
/// tiny (10⁻¹²) and huge (10⁴) variances, K = 1.
#[test]
fn vib_loss_tensor_edge_cases() {
    let base = |mean: Vec<f64>, variance: Vec<f64>, noise: Vec<f64>, k: usize, m: bool| Problem {
        b: 2,
        d: 2,
        k,
        mean,
        variance,
        noise,
        pairs: vec![(0, 1, m)],
        a: 10.0,
        b_shift: 0.0,
        beta: 1e-4,
    };
    // Saturated, matching and not.
    for m in [true, false] {
        base(
            vec![0.0, 0.0, 30.0, 0.0],
            vec![1.0, 1.0, 1.0, 1.0],
            vec![0.0; 4],
            1,
            m,
        )
        .check(true);
    }
    // Identical images, identical draws: d = 0 for every pair.
    base(
        vec![0.3, -0.2, 0.3, -0.2],
        vec![0.5, 0.5, 0.5, 0.5],
        vec![0.1, -0.4, 1.2, 0.3, 0.1, -0.4, 1.2, 0.3],
        2,
        true,
    )
    .check(true);
    // Tiny and huge variances.
    base(
        vec![0.5, 0.5, -0.5, 0.5],
        vec![1e-12, 1e4, 1e4, 1e-12],
        vec![0.7, -1.1, 0.2, 2.0],
        1,
        false,
    )
    .check(true);
}

/// `--hib-pairs all` (`PairIndices::all_weighted`): every pair i < j of the batch once, the
/// positives and the negatives each carrying half the loss. On the same heads and draws, the
/// weighted loss equals ½ L₊ + ½ L₋, the plain means over the positive and over the negative
/// pairs, listed here by hand from the labels; a batch of one kind gives the plain mean.
#[test]
fn all_pairs_weigh_positives_and_negatives_half_each() {
    let double = (Kind::Double, Device::Cpu);
    let (b, d, k) = (6i64, 2i64, 3i64);
    let heads = {
        tch::manual_seed(21);
        (
            Tensor::randn([b, 1, d], double),
            Tensor::randn([b, 1, d], double) * 0.5 - 1.0,
            Tensor::randn([b, 1, k, d], double),
        )
    };
    let (a, shift) = (Tensor::from_slice(&[2.0f64]), Tensor::from_slice(&[1.5f64]));
    let loss = |pairs: &PairIndices| {
        let terms = vib_loss_tensor(&heads.0, &heads.1, &heads.2, pairs, &a, &shift, 0.25);
        terms.unwrap().loss.double_value(&[])
    };
    let listed = |pairs: &[(i64, i64)], is_match: bool| PairIndices {
        first: Tensor::from_slice(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
        second: Tensor::from_slice(&pairs.iter().map(|p| p.1).collect::<Vec<_>>()),
        is_match: Tensor::from_slice(&vec![is_match; pairs.len()]),
        weight: None,
    };
    // Labels 3 1 3 2 1 3: the 4 matching pairs of the 15.
    let labels = Tensor::from_slice(&[3i64, 1, 3, 2, 1, 3]);
    let positives = [(0, 2), (0, 5), (1, 4), (2, 5)];
    let negatives: Vec<(i64, i64)> = (0..b)
        .flat_map(|i| (i + 1..b).map(move |j| (i, j)))
        .filter(|p| !positives.contains(p))
        .collect();
    assert_eq!(negatives.len(), 11);
    let all = PairIndices::all_weighted(&labels, Kind::Double);
    assert_eq!(all.len(), 15);
    let weight = all.weight.as_ref().expect("all pairs are weighted");
    assert!((weight.sum(Kind::Double).double_value(&[]) - 1.0).abs() < 1e-15);
    let want = 0.5 * loss(&listed(&positives, true)) + 0.5 * loss(&listed(&negatives, false));
    let got = loss(&all);
    assert!((got - want).abs() <= 1e-12 * want.abs(), "{got} vs {want}");
    // One kind only: labels 7 7 7, every pair matching, each weighing 1/3.
    let one_kind = PairIndices::all_weighted(&Tensor::from_slice(&[7i64, 7, 7]), Kind::Double);
    let plain = listed(&[(0, 1), (0, 2), (1, 2)], true);
    let (got, want) = (loss(&one_kind), loss(&plain));
    assert!((got - want).abs() <= 1e-12 * want.abs(), "{got} vs {want}");
}

/// Fills B × C × K × D noise for `x1` then `x2` from `rng` in the math crate's order.
fn replay_noise(rng: &mut ChaCha8Rng, images: usize, c: usize, k: usize, d: usize) -> Vec<f64> {
    (0..images * c * k * d)
        .map(|_| rng.sample(StandardNormal))
        .collect()
}

/// The mixture (C = 2, the paper's MoG) match probability: the tensor NLL of a matching pair is
/// −ln of [`SoftThreshold::match_probability`] on the same draws; the tensor self-mismatch
/// equals [`SoftThreshold::self_mismatch`] on the same draws.
#[test]
fn mixture_match_probability_and_self_mismatch_equal_fast_on_same_draws() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x07_14_02);
    for _ in 0..20 {
        let (c, k, d) = (2usize, rng.random_range(1..9), rng.random_range(2..5));
        let means: Vec<f64> = (0..2 * c * d)
            .map(|_| rng.random_range(-2.0..2.0))
            .collect();
        let variances: Vec<f64> = (0..2 * c * d)
            .map(|_| 10f64.powf(rng.random_range(-4.0..1.0)))
            .collect();
        let (a, b) = (rng.random_range(0.2..6.0), rng.random_range(-3.0..3.0));
        let seed = rng.random::<u64>();
        let x1 = HedgedEmbedding::from_components(
            probdml::Gaussian {
                mu: &means[..c * d],
                var: &variances[..c * d],
            },
            d,
        )
        .unwrap();
        let x2 = HedgedEmbedding::from_components(
            probdml::Gaussian {
                mu: &means[c * d..],
                var: &variances[c * d..],
            },
            d,
        )
        .unwrap();
        let threshold = SoftThreshold { a, b };
        let want = threshold
            .match_probability(&x1, &x2, k, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        let noise = replay_noise(&mut ChaCha8Rng::seed_from_u64(seed), 2, c, k, d);
        let shape = [2, c as i64, d as i64];
        let mean = Tensor::from_slice(&means).view(shape);
        let log_var: Vec<f64> = variances.iter().map(|v| v.ln()).collect();
        let log_variance = Tensor::from_slice(&log_var).view(shape);
        let noise_t = Tensor::from_slice(&noise).view([2, c as i64, k as i64, d as i64]);
        let pairs = PairIndices {
            first: Tensor::from_slice(&[0i64]),
            second: Tensor::from_slice(&[1i64]),
            is_match: Tensor::from_slice(&[true]),
            weight: None,
        };
        let (at, bt) = (Tensor::from_slice(&[a]), Tensor::from_slice(&[b]));
        let terms = vib_loss_tensor(&mean, &log_variance, &noise_t, &pairs, &at, &bt, 0.0).unwrap();
        let got = (-host(&terms.nll)[0]).exp();
        assert_close("mixture match probability", &[got], &[want], HIB_VIB, 1.0);
        // Self-mismatch of x1: two draw sets from the same p(z|x1).
        let eta = threshold
            .self_mismatch(&x1, k, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        let both = replay_noise(&mut ChaCha8Rng::seed_from_u64(seed), 2, c, k, d);
        let one = |part: usize| {
            let n = Tensor::from_slice(&both[part * c * k * d..(part + 1) * c * k * d])
                .view([1, c as i64, k as i64, d as i64]);
            draws(&mean.narrow(0, 0, 1), &log_variance.narrow(0, 0, 1), &n)
        };
        let got = host(&self_mismatch_tensor(&one(0), &one(1), &at, &bt).unwrap())[0];
        assert_close("self-mismatch", &[got], &[eta], HIB_VIB, 1.0);
    }
}

/// Bad input is a [`TrainError`] naming the argument, never a panic.
#[test]
fn bad_input_is_an_error_not_a_panic() {
    let mean = Tensor::zeros([2, 1, 3], (Kind::Double, Device::Cpu));
    let log_variance = Tensor::zeros([2, 1, 3], (Kind::Double, Device::Cpu));
    let noise = |k: i64| Tensor::zeros([2, 1, k, 3], (Kind::Double, Device::Cpu));
    let pairs = || PairIndices {
        first: Tensor::from_slice(&[0i64]),
        second: Tensor::from_slice(&[1i64]),
        is_match: Tensor::from_slice(&[true]),
        weight: None,
    };
    let one = |v: f64| Tensor::from_slice(&[v]);
    let run = |noise: &Tensor, pairs: &PairIndices, a: f64, b: f64, beta: f64| {
        vib_loss_tensor(&mean, &log_variance, noise, pairs, &one(a), &one(b), beta)
    };
    assert_invalid(run(&noise(0), &pairs(), 1.0, 0.0, 0.0), "hib-samples");
    assert_invalid(run(&noise(2), &pairs(), 0.0, 0.0, 0.0), "hib a");
    assert_invalid(run(&noise(2), &pairs(), -1.0, 0.0, 0.0), "hib a");
    assert_invalid(run(&noise(2), &pairs(), f64::NAN, 0.0, 0.0), "hib a");
    assert_invalid(run(&noise(2), &pairs(), 1.0, f64::INFINITY, 0.0), "hib b");
    assert_invalid(run(&noise(2), &pairs(), 1.0, 0.0, -1.0), "vib-beta");
    assert_invalid(run(&noise(2), &pairs(), 1.0, 0.0, f64::NAN), "vib-beta");
    let two_weights = PairIndices {
        weight: Some(Tensor::from_slice(&[0.5f64, 0.5])),
        ..pairs()
    };
    assert_invalid(run(&noise(2), &two_weights, 1.0, 0.0, 0.0), "pairs");
    let empty = PairIndices {
        first: Tensor::zeros([0], (Kind::Int64, Device::Cpu)),
        second: Tensor::zeros([0], (Kind::Int64, Device::Cpu)),
        is_match: Tensor::zeros([0], (Kind::Bool, Device::Cpu)),
        weight: None,
    };
    assert_invalid(run(&noise(2), &empty, 1.0, 0.0, 0.0), "pairs");
    let z = Tensor::zeros([2, 0, 3], (Kind::Double, Device::Cpu));
    assert_invalid(
        self_mismatch_tensor(&z, &z, &one(1.0), &one(0.0)),
        "hib samples",
    );
    // The options, through the configuration the program validates before the first step.
    for (options, arg) in [
        (
            HibOptions {
                samples: 0,
                ..HibOptions::default()
            },
            "hib-samples",
        ),
        (
            HibOptions {
                components: 0,
                ..HibOptions::default()
            },
            "hib-components",
        ),
        (
            HibOptions {
                components: 1000,
                ..HibOptions::default()
            },
            "hib-components",
        ),
        (
            HibOptions {
                beta: f64::NAN,
                ..HibOptions::default()
            },
            "vib-beta",
        ),
        (
            HibOptions {
                beta: -1e-4,
                ..HibOptions::default()
            },
            "vib-beta",
        ),
        (
            HibOptions {
                point: true,
                variance_cap: VarianceCap::Soft,
                ..HibOptions::default()
            },
            "hib-variance-cap",
        ),
    ] {
        let config = TrainConfig {
            method: MethodConfig::Hib(options.clone()),
            ..TrainConfig::default()
        };
        assert_invalid(config.validate(), arg);
        assert_invalid(
            Hib::new(&options, &config.run_options(), Device::Cpu, 0),
            arg,
        );
    }
}

/// Eight random 28 × 28 images, two of each of four classes: one batch for a single step.
fn eight_images() -> (Tensor, Tensor) {
    let images = Tensor::rand([8, 1, 28, 28], (Kind::Float, Device::Cpu));
    (images, Tensor::from_slice(&[0i64, 0, 1, 1, 2, 2, 3, 3]))
}

/// `images` and `labels` as a run's first step.
fn first_step<'a>(images: &'a Tensor, labels: &'a Tensor) -> Batch<'a> {
    Batch {
        images,
        labels,
        at: Position {
            epoch: 1,
            step: 1,
            global_step: 1,
        },
        train_size: labels.size()[0],
    }
}

/// The bias of a HIB method's log-variance head (shares its storage: filling it sets the head).
fn log_variance_bias(hib: &dyn method::Method) -> Tensor {
    hib.var_store()
        .variables()
        .into_iter()
        .find(|(name, _)| name.ends_with("log_variance_head.bias"))
        .expect("the log-variance head's bias")
        .1
}

/// The soft cap `c − softplus(c − x)` (c = 20) against its closed form `c − ln(1 + e^{c − x})`
/// in f64 (x itself below 0, where libtorch's softplus is linear), its share at the cap counted
/// from the head's output `x ≥ c` (capped value `≥ c − ln 2`), and, in a real step with every
/// entry past the cap, a gradient on the log-variance head where the clamp passes exactly none.
#[test]
fn a_soft_cap_passes_gradient_where_the_clamp_passes_none() {
    let _guard = serial();
    let raw = [-4.6f64, 0.0, 10.0, 19.0, 20.5, 21.0, 50.0, 1e4];
    let capped = host(&VarianceCap::Soft.apply(&Tensor::from_slice(&raw)));
    for (x, got) in raw.iter().zip(&capped) {
        // libtorch's softplus is the identity past 20 (its `threshold`), so the cap is x itself
        // for x < c − 20 = 0, an error below ln(1 + e⁻²⁰) = 2.1·10⁻⁹ against the closed form.
        let want = if MAX_LOG_VARIANCE - x > 20.0 {
            *x
        } else {
            MAX_LOG_VARIANCE - (MAX_LOG_VARIANCE - x).exp().ln_1p()
        };
        assert!(
            (got - want).abs() <= 1e-14 * want.abs().max(1.0),
            "{x}: {got} vs {want}"
        );
        assert!(
            *got < MAX_LOG_VARIANCE || *x > 50.0,
            "{x}: {got} not below the cap"
        );
    }
    // Below the cap it is the identity to within e^{x − c}: 2·10⁻¹¹ at HIB's initial ln 0.01.
    assert!((capped[0] + 4.6).abs() < 3e-11, "{}", capped[0]);
    assert_eq!(at_cap(&Tensor::from_slice(&capped), VarianceCap::Soft), 0.5);
    assert_eq!(
        at_cap(&Tensor::from_slice(&capped[..4]), VarianceCap::Soft),
        0.0
    );

    let (images, labels) = eight_images();
    let batch = first_step(&images, &labels);
    let gradient = |variance_cap| {
        let config = TrainConfig {
            method: MethodConfig::Hib(HibOptions {
                variance_cap,
                ..HibOptions::default()
            }),
            ..synthetic(MethodKind::Hib, 1, 128, 20, 0)
        };
        let mut hib = method::build(&config, Device::Cpu, 0).unwrap();
        let bias = log_variance_bias(hib.as_ref());
        tch::no_grad(|| {
            let _ = bias.shallow_clone().fill_(MAX_LOG_VARIANCE + 10.0);
        });
        let step = hib.step(&batch).unwrap();
        assert_eq!(step.at_bound, Some(1.0), "{variance_cap:?}");
        step.loss.backward();
        host(&bias.grad().abs().to_kind(Kind::Double))
    };
    assert!(gradient(VarianceCap::Clamp).iter().all(|g| *g == 0.0));
    let soft = gradient(VarianceCap::Soft);
    assert!(soft.iter().all(|g| *g > 0.0), "{soft:?}");
}

/// HIB learns the seeded synthetic set (`train_support::assert_learns`): the VIB loss falls by
/// more than 15 % and retrieval on the means gains [`train_support::MAP_GAIN`] over the untrained
/// network; the self-mismatch gives the uncertainty metrics. The MoG (C = 2) trains too.
/// Measured: C = 1 loss −62 %, mAP@1 1.000 against 0.700 untrained; C = 2 loss −62 %, 0.985
/// against 0.820 (with 2 epochs on 320 images C = 2 gained only 0.025: hence 3 × 640).
#[test]
fn hib_learns_on_the_synthetic_set() {
    let _guard = serial();
    for (components, epochs, limit) in [(1, 3, 640), (2, 3, 640)] {
        let config = TrainConfig {
            method: MethodConfig::Hib(HibOptions {
                components,
                ..HibOptions::default()
            }),
            ..synthetic(MethodKind::Hib, epochs, limit, 200, 5)
        };
        assert_learns(&format!("hib C = {components}"), &config, 0.15);
    }
}

/// `ln σ²` is capped by a clamp, which passes no gradient: the step reports the fraction of its
/// entries at the cap, and the epoch log keeps the mean and the steps with any. No entry at HIB's
/// initial σ = 0.1; all of them when the log-variance head's bias is pushed past the cap; no
/// report at all for point embeddings (no σ) and for a method without a bound.
#[test]
fn hib_reports_log_variances_held_at_their_cap() {
    let _guard = serial();
    assert_eq!(
        at_cap(
            &Tensor::from_slice(&[20.0f64, 19.5, 20.0, -4.6]),
            VarianceCap::Clamp
        ),
        0.5
    );
    assert_eq!(
        at_cap(
            &Tensor::zeros([0], (Kind::Float, Device::Cpu)),
            VarianceCap::Clamp
        ),
        0.0
    );
    let (images, labels) = eight_images();
    let batch = first_step(&images, &labels);
    let build = |point: bool| {
        let config = TrainConfig {
            method: MethodConfig::Hib(HibOptions {
                point,
                ..HibOptions::default()
            }),
            ..synthetic(MethodKind::Hib, 1, 128, 20, 0)
        };
        method::build(&config, Device::Cpu, 0).unwrap()
    };
    let mut hib = build(false);
    assert_eq!(hib.step(&batch).unwrap().at_bound, Some(0.0));
    let bias = log_variance_bias(hib.as_ref());
    tch::no_grad(|| {
        let _ = bias.shallow_clone().fill_(MAX_LOG_VARIANCE + 30.0);
    });
    assert_eq!(hib.step(&batch).unwrap().at_bound, Some(1.0));
    assert_eq!(build(true).step(&batch).unwrap().at_bound, None);
    // Through the epoch loop into the log: HIB records its (empty) share, the margin loss none.
    for (kind, want) in [
        (
            MethodKind::Hib,
            Some(AtBound {
                mean_fraction: 0.0,
                steps: 0,
            }),
        ),
        (MethodKind::Deterministic, None),
    ] {
        let config = ValidConfig::new(synthetic(kind, 1, 128, 20, 0)).unwrap();
        let data = pipeline::load_data(&config.data, config.seed, Path::new("unused")).unwrap();
        let train_set = TensorSet::new(&data.train, config.data.geometry(), Device::Cpu).unwrap();
        let trained = trainer::train(&config, &train_set, Device::Cpu, None, false).unwrap();
        assert_eq!(trained.history.len(), 1);
        assert_eq!(trained.history[0].at_bound, want, "{kind:?}");
    }
}

/// A resumed HIB run equals an uninterrupted one bit for bit (heads, a, b and RMSprop state).
#[test]
fn hib_resumes_bit_for_bit() {
    let _guard = serial();
    let config = synthetic(MethodKind::Hib, 2, 192, 60, 2);
    assert_resume_is_exact("hib", &config);
}

/// HIB's flags at 0, negative, NaN, ±∞ and beyond f32 or u64: an error naming the flag, or a
/// run; never a panic.
#[test]
fn hib_flags_never_panic() {
    assert_flags_never_panic(
        "hib",
        &[
            "--hib-components",
            "--hib-samples",
            "--vib-beta",
            "--hib-means",
        ],
    );
}
