//! The public paths and signatures that other tools rely on: they compile against them, so a
//! changed signature must fail here, at compile time, before it fails them.
// HIB's positional `(a, b)` forms are deprecated (the named `hib::SoftThreshold` calls the
// same code) and stay pinned, as the registry's fast items, for the release that keeps them.
#![allow(deprecated)]
// The signatures are written out in full on purpose: a type alias would hide what is pinned.
use probdml::Result;

#[test]
// The deprecated aliases stay pinned for the release that keeps them.
#[allow(deprecated)]
fn pinned_signatures_compile() {
    let kl: fn(&[f64], f64, &[f64], f64) -> Result<f64> = probdml::nivmf::kl_vmf;
    let _: fn(&[f64], f64, &[f64], f64) -> Result<f64> = probdml::nivmf::exact::kl_vmf;
    let _: fn(f64, &[f64], &[f64]) -> Result<f64> = probdml::nivmf::log_ppk_vmf;
    let _: fn(f64, &[f64], &[f64]) -> Result<f64> = probdml::nivmf::exact::log_ppk_vmf;
    let _: fn(&[f64], &[f64], &[f64]) -> Result<f64> = probdml::nivmf::log_density;
    let _: fn(&[f64], &[f64], &[f64]) -> Result<f64> = probdml::nivmf::exact::log_density;
    let _: fn(&[f64], &[f64], &[f64]) -> Result<f64> = probdml::nivmf::log_density_heuristic;
    let _: fn(&[f64], &[f64], &[f64]) -> Result<f64> = probdml::nivmf::exact::log_density_heuristic;
    let moments: fn(&[f64], &[f64], &[f64], &[f64], &[f64], &[f64]) -> Result<(f64, f64)> =
        probdml::triplet::moments;
    let _: fn(&[f64], &[f64], &[f64], &[f64], &[f64], &[f64]) -> Result<(f64, f64)> =
        probdml::triplet::exact::moments;
    let _: fn(&[f64], &[f64], &[f64], &[f64], &[f64], &[f64], f64) -> Result<f64> =
        probdml::triplet::log_likelihood;
    let _: fn(&[f64], &[f64], &[f64], &[f64], &[f64], &[f64], f64) -> Result<f64> =
        probdml::triplet::exact::log_likelihood;
    let _: fn(&[f64], &[f64], &[f64], &[f64], f64, f64) -> Result<f64> =
        probdml::hib::exact::match_probability;
    let _: fn(usize, f64) -> f64 = probdml::vmf::log_norm_const;
    let _: fn(usize, f64) -> f64 = probdml::vmf::mean_resultant_length;
    let _: fn(usize, f64) -> Result<f64> = probdml::vmf::kappa_mle;
    let _: fn(usize, f64, usize) -> Result<f64> = probdml::vmf::kappa_sra;
    let _: fn(usize, f64) -> f64 = probdml::vmf::kl_to_uniform;
    let _: fn(f64, f64) -> f64 = probdml::special::log_bessel_i;
    let _: fn(f64, f64) -> f64 = probdml::special::bessel_i_ratio;
    // Scores in either precision: one generic function, instantiated per precision.
    let _: fn(&[f64], &[f64]) -> Result<f64> = probdml::metrics::auroc;
    let _: fn(&[f32], &[f32]) -> Result<f64> = probdml::metrics::auroc;
    let _: fn(&[f32], &[f32]) -> Result<f64> = probdml::metrics::auprc;
    let _: fn(&[f32], &[f32]) -> Result<probdml::metrics::RocCurve> = probdml::metrics::roc_curve;
    let _: fn(&[f32], &[f32]) -> Result<f64> = probdml::metrics::kendall_tau_b;
    let _: fn(&[f32], &[bool]) -> Result<f64> = probdml::metrics::verification_average_precision;
    let _: fn(&[f32], &[f64]) -> Result<probdml::metrics::Sparsification> =
        probdml::metrics::sparsification_curve;
    let _: fn(&[f32], &[bool], usize) -> Result<probdml::metrics::Calibration> =
        probdml::metrics::expected_calibration_error;
    let _: fn(&[f32], &[f64], usize) -> Result<probdml::metrics::Calibration> =
        probdml::metrics::ece_at_k;
    let _: fn(&[f32], &[f64], usize) -> Result<probdml::metrics::BinnedKendall> =
        probdml::metrics::binned_kendall_tau;
    let _: fn(&[f32], &[f32], &[bool], usize) -> Result<probdml::metrics::BinnedKendall> =
        probdml::metrics::binned_kendall_tau_verification;
    let _: fn(&[f32], &[f32], &[usize]) -> Result<Vec<f64>> =
        probdml::metrics::query_neighbour_uncertainty;
    // The exact twins stay f64: an f32 caller widens for them.
    let _: fn(&[f64], &[f64]) -> Result<f64> = probdml::metrics::exact::auroc;
    // The pointers are the functions themselves: a call through them behaves as documented.
    assert_eq!(kl(&[1.0, 0.0], 2.0, &[1.0, 0.0], 2.0).unwrap(), 0.0);
    // One dimension, point masses a = 0, p = 1, n = 3: τ = 1 − 9 = −8 exactly, Var τ = 0.
    assert_eq!(
        moments(&[0.0], &[0.0], &[1.0], &[0.0], &[3.0], &[0.0]).unwrap(),
        (-8.0, 0.0)
    );
}

/// The names and orders of the one naming scheme (data first, each matrix followed by its width
/// `dim`, then the scalar parameters; `mu`, `var`, `kappa`, `n_samples`), the checked forms of the
/// raw kernels, and the typed batches: a changed signature fails to compile here.
#[test]
fn the_naming_scheme_is_pinned() {
    use probdml::hib::HedgedEmbedding;
    use probdml::triplet::{TripletGradient, Triplets};
    use probdml::Gaussians;
    let ppk: fn(&[f64], &[f64], f64) -> Result<f64> = probdml::nivmf::log_ppk;
    let _: fn(&[f64], &[f64], f64) -> Result<f64> = probdml::nivmf::exact::log_ppk;
    let _: fn(usize, f64) -> Result<f64> = probdml::vmf::checked::log_norm_const;
    let _: fn(usize, f64) -> Result<f64> = probdml::vmf::checked::mean_resultant_length;
    let _: fn(usize, f64) -> Result<f64> = probdml::vmf::checked::mean_resultant_length_complement;
    let _: fn(usize, f64) -> Result<f64> = probdml::vmf::checked::entropy;
    let checked_kl: fn(usize, f64) -> Result<f64> = probdml::vmf::checked::kl_to_uniform;
    let _: fn(usize) -> Result<f64> = probdml::vmf::checked::log_sphere_area;
    let _: fn(usize, f64) -> f64 = probdml::vmf::kernel::log_norm_const;
    let _: fn(usize, f64) -> f64 = probdml::vmf::kernel::kl_to_uniform;
    let _: fn(&[f64], usize) -> Result<probdml::vmf::MeanResultant> = probdml::vmf::mean_resultant;
    let _: fn(&[f64], &[f64]) -> Result<HedgedEmbedding> = HedgedEmbedding::gaussian;
    let _: fn(&[f64], &[f64], usize) -> Result<HedgedEmbedding> = HedgedEmbedding::mixture;
    let _: fn(probdml::Gaussian<'_>) -> Result<HedgedEmbedding> = HedgedEmbedding::from_gaussian;
    let _: fn(probdml::Gaussian<'_>, usize) -> Result<HedgedEmbedding> =
        HedgedEmbedding::from_components;
    let _: fn(&HedgedEmbedding, usize) -> &[f64] = HedgedEmbedding::mu;
    let _: fn(&HedgedEmbedding, usize) -> &[f64] = HedgedEmbedding::var;
    let _: fn(&Gaussians<'_>) -> Result<HedgedEmbedding> = HedgedEmbedding::from_gaussians;
    let _: fn(&[f64], &[f64]) -> Result<f64> = probdml::hib::kl_to_standard_normal;
    let _: fn(
        &HedgedEmbedding,
        &HedgedEmbedding,
        f64,
        f64,
        usize,
        &mut probdml::rand::rngs::StdRng,
    ) -> Result<f64> = probdml::hib::match_probability;
    let _: fn(&[f64], f64, f64) -> Result<Vec<f64>> = probdml::laplace::posthoc_precision;
    let _: fn(&[f64], f64, f64) -> Result<Vec<f64>> = probdml::laplace::exact::posthoc_precision;
    let _: fn(&[f64], &[f64], &[f64]) -> Result<f64> = probdml::laplace::output_variance;
    let _: fn(&[f64], usize, &[f64]) -> Result<f64> = probdml::laplace::exact::output_variance;
    // The impl's lifetime is early-bound: each pointer is pinned at `'static` (the literals
    // below are promoted constants).
    let gaussians: fn(&'static [f64], &'static [f64], usize) -> Result<Gaussians<'static>> =
        Gaussians::new;
    let _: fn(probdml::Gaussian<'static>, usize) -> Result<Gaussians<'static>> =
        Gaussians::from_rows;
    let triplets: fn(
        Gaussians<'static>,
        Gaussians<'static>,
        Gaussians<'static>,
    ) -> Result<Triplets<'static>> = Triplets::new;
    let batch_ll: fn(&Triplets<'static>, f64) -> Result<Vec<f64>> = Triplets::log_likelihood;
    let _: fn(&Triplets<'static>) -> Result<Vec<(f64, f64)>> = Triplets::moments;
    let _: fn(&Triplets<'static>, f64) -> Result<TripletGradient> = Triplets::nll_gradient;
    // Calls through the pointers behave as documented.
    assert_eq!(ppk(&[3.0, 0.0], &[3.0, 0.0], 0.5).unwrap(), 0.0);
    assert!(checked_kl(64, -1.0).is_err());
    let point = gaussians(&[0.0, 0.1, 2.0], &[0.0; 3], 1).unwrap();
    let far = gaussians(&[2.0, 0.1, 0.0], &[0.0; 3], 1).unwrap();
    let batch = triplets(point, point, far).unwrap();
    // Point masses, a = p: τ = −‖a − n‖² = −4, 0, −4 against −m = −1.
    assert_eq!(
        batch_ll(&batch, 1.0).unwrap(),
        vec![0.0, f64::NEG_INFINITY, 0.0]
    );
}

/// The twins that differ in signature, as `registry::SIGNATURE_DIFFERENCES` states them: both
/// sides pinned, so that a change on either side is seen here and in the registry together.
#[test]
fn the_twins_that_differ_are_pinned() {
    use probdml::hib::{self, HedgedEmbedding};
    use probdml::laplace;
    use probdml::rand::rngs::StdRng;
    let _: fn(&HedgedEmbedding, &HedgedEmbedding, f64, f64, usize, &mut StdRng) -> Result<f64> =
        hib::match_probability;
    let _: fn(&[f64], &[f64], &[f64], &[f64], f64, f64) -> Result<f64> =
        hib::exact::match_probability;
    let mixture: fn(&HedgedEmbedding, &HedgedEmbedding, f64, f64) -> Result<f64> =
        hib::exact::mixture_match_probability;
    let _: fn(&HedgedEmbedding, f64, f64, usize, &mut StdRng) -> Result<f64> = hib::self_mismatch;
    let _: fn(&HedgedEmbedding, f64, f64) -> Result<f64> = hib::exact::self_mismatch;
    // The named forms of the same computations.
    let _: fn(
        &hib::SoftThreshold,
        &HedgedEmbedding,
        &HedgedEmbedding,
        usize,
        &mut StdRng,
    ) -> Result<f64> = hib::SoftThreshold::match_probability;
    let _: fn(&hib::SoftThreshold, &HedgedEmbedding, usize, &mut StdRng) -> Result<f64> =
        hib::SoftThreshold::self_mismatch;
    let _: fn(&hib::SoftThreshold, &probdml::Gaussian<'_>, &probdml::Gaussian<'_>) -> Result<f64> =
        hib::SoftThreshold::match_probability_moment_matched;
    let _: fn(&[f64], &[f64], &mut StdRng, &mut [f64]) -> Result<()> = laplace::sample_posterior;
    let _: fn(&[f64], &[f64], &mut StdRng, &mut [f64]) -> Result<()> =
        laplace::exact::sample_posterior;
    let _: fn(f64, &[f64], &[f64], f64) -> Result<f64> = laplace::log_marginal_likelihood;
    let _: fn(f64, &[f64], &[f64], f64) -> Result<f64> = laplace::exact::log_marginal_likelihood;
    let _: fn(&[f64], &[f64]) -> Result<f64> = laplace::optimal_prior_precision;
    let _: fn(&[f64], &[f64]) -> Result<f64> = laplace::exact::optimal_prior_precision;
    let names: Vec<&str> = probdml_proofs::registry::SIGNATURE_DIFFERENCES
        .iter()
        .map(|d| d.name)
        .collect();
    for pinned in [
        "hib::match_probability",
        "hib::self_mismatch",
        "laplace::output_variance",
        "laplace::posthoc_precision",
        "laplace::sample_posterior",
        "laplace::log_marginal_likelihood",
        "laplace::optimal_prior_precision",
    ] {
        assert!(names.contains(&pinned), "{pinned} is not listed");
    }
    // The mixture route with the Monte Carlo twin's signature less (n_samples, rng): a point
    // mass against itself matches with probability sigmoid(b).
    let point = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.3, -1.0],
        var: &[0.0, 0.0],
    })
    .unwrap();
    let p = mixture(&point, &point, 2.0, 1.5).unwrap();
    assert!((p - 1.0 / (1.0 + (-1.5f64).exp())).abs() < 1e-15, "{p}");
}

/// Field names of the public structs follow the same scheme (`mu`, `var`, `dim`): constructing
/// and reading them by name fails to compile when one is renamed.
#[test]
fn struct_fields_follow_the_naming_scheme() {
    use probdml::ggn::{self, Approximation, Split};
    use probdml::hib::{self, VibPair};
    let pair = VibPair {
        mu1: &[0.0],
        var1: &[1.0],
        mu2: &[0.0],
        var2: &[1.0],
        noise1: &[0.0],
        noise2: &[0.0],
        is_match: true,
    };
    let loss = hib::vib_loss(&pair, 1.0, 0.0, 0.0).unwrap();
    let _: (&Vec<f64>, &Vec<f64>, &Vec<f64>, &Vec<f64>) = (
        &loss.grad_mu1,
        &loss.grad_log_var1,
        &loss.grad_mu2,
        &loss.grad_log_var2,
    );
    // M = 2, F = 1 (the example of `last_layer_ggn_diagonal`): dim · n_features entries each.
    let pairs = [probdml::contrastive::PairTarget {
        i: 0,
        j: 1,
        target: 1.0,
    }];
    let d = ggn::last_layer_ggn_diagonals(&[1.0, 1.0], &[1.0, -2.0], 1, &pairs).unwrap();
    assert_eq!((d.dim, d.n_features), (2, 1));
    assert_eq!(d.get(Split::ALL[0], Approximation::ALL[0]).len(), 2);
}
