//! Bad input never panics: every public function of chapters 01–02, fast and exact, with NaN,
//! ±∞, negative κ, M < 2, non-unit vectors, mismatched dimensions, R̄ ∉ [0, 1) and zero
//! samples. Checked functions return a `probdml::Error` that names the argument; the raw `f64`
//! kernels return NaN, as documented. The last test is a fuzz-style property over the whole
//! public API that asserts only "no panic, and invalid input is never a silent finite number".
use probdml::{special, vmf, Error};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const BAD_REALS: [f64; 4] = [f64::NAN, f64::NEG_INFINITY, -1.0, -f64::MIN_POSITIVE];

/// The error's message names the argument.
fn names(err: &Error, arg: &str) -> bool {
    err.to_string().contains(&format!("`{arg}`"))
}

#[test]
fn raw_special_kernels_return_nan() {
    for &bad in &BAD_REALS {
        for f in [
            special::log_bessel_i,
            special::bessel_i_ratio,
            special::exact::log_bessel_i,
            special::exact::bessel_i_ratio,
        ] {
            assert!(f(bad, 1.0).is_nan(), "ν = {bad}");
            assert!(f(1.0, bad).is_nan(), "x = {bad}");
        }
        assert!(special::exact::log_bessel_i_dd(bad, 1.0).0.is_nan());
        assert!(special::exact::bessel_i_ratio_dd(1.0, bad).0.is_nan());
    }
    // An infinite order is outside the domain too.
    assert!(special::log_bessel_i(f64::INFINITY, 1.0).is_nan());
    assert!(special::bessel_i_ratio(f64::INFINITY, 1.0).is_nan());
}

#[test]
fn raw_vmf_kernels_return_nan() {
    type Kernel = fn(usize, f64) -> f64;
    let kernels: [(&str, Kernel); 12] = [
        ("log_norm_const", vmf::log_norm_const),
        ("mean_resultant_length", vmf::mean_resultant_length),
        (
            "mean_resultant_length_complement",
            vmf::mean_resultant_length_complement,
        ),
        ("entropy", vmf::entropy),
        ("kl_to_uniform", vmf::kl_to_uniform),
        ("exact::log_norm_const", vmf::exact::log_norm_const),
        (
            "exact::mean_resultant_length",
            vmf::exact::mean_resultant_length,
        ),
        (
            "exact::mean_resultant_length_complement",
            vmf::exact::mean_resultant_length_complement,
        ),
        ("exact::entropy", vmf::exact::entropy),
        ("exact::kl_to_uniform", vmf::exact::kl_to_uniform),
        ("log_norm_const(κ)", |m, k| vmf::log_norm_const(m, k)),
        ("exact::log_norm_const_dd", |m, k| {
            vmf::exact::log_norm_const_dd(m, k).0
        }),
    ];
    for (name, f) in kernels {
        for dim in [0usize, 1] {
            assert!(f(dim, 1.0).is_nan(), "{name}: M = {dim}");
        }
        for &bad in &BAD_REALS {
            assert!(f(3, bad).is_nan(), "{name}: κ = {bad}");
        }
    }
    // |S⁰| = 2 (two points) is defined; M = 0 is not.
    assert!(vmf::log_sphere_area(0).is_nan() && vmf::exact::log_sphere_area(0).is_nan());
}

#[test]
fn log_density_rejects_each_bad_argument_by_name() {
    let mu = [1.0, 0.0, 0.0];
    let x = [0.0, 1.0, 0.0];
    for f in [vmf::log_density, vmf::exact::log_density] {
        assert!(f(&x, &mu, 2.0).is_ok());
        for &bad in &BAD_REALS {
            let err = f(&x, &mu, bad).unwrap_err();
            assert!(names(&err, "kappa"), "{err}");
        }
        assert!(names(&f(&x, &mu, f64::INFINITY).unwrap_err(), "kappa"));
        assert!(matches!(
            f(&x[..2], &mu, 1.0),
            Err(Error::DimensionMismatch { .. })
        ));
        assert!(names(&f(&[2.0, 0.0, 0.0], &mu, 1.0).unwrap_err(), "x"));
        assert!(names(&f(&x, &[0.5, 0.5, 0.0], 1.0).unwrap_err(), "mu"));
        assert!(f(&[f64::NAN, 1.0, 0.0], &mu, 1.0).is_err());
        assert!(matches!(
            f(&[1.0], &[1.0], 1.0),
            Err(Error::InvalidDimension { .. })
        ));
        assert!(f(&[], &[], 1.0).is_err());
    }
}

#[test]
fn kappa_estimators_reject_rbar_outside_the_unit_interval() {
    type Estimator = fn(usize, f64) -> probdml::Result<f64>;
    let estimators: [(&str, Estimator); 6] = [
        ("kappa_mle", vmf::kappa_mle),
        ("exact::kappa_mle", vmf::exact::kappa_mle),
        ("kappa_sra(0)", |m, r| vmf::kappa_sra(m, r, 0)),
        ("kappa_sra(2)", |m, r| vmf::kappa_sra(m, r, 2)),
        ("exact::kappa_sra(1)", |m, r| vmf::exact::kappa_sra(m, r, 1)),
        ("exact::kappa_sra(0)", |m, r| vmf::exact::kappa_sra(m, r, 0)),
    ];
    for (name, f) in estimators {
        for rbar in [1.0, 1.5, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = f(3, rbar).expect_err(name);
            assert!(names(&err, "rbar"), "{name}, R̄ = {rbar}: {err}");
        }
        assert!(
            matches!(f(1, 0.5), Err(Error::InvalidDimension { .. })),
            "{name}"
        );
        assert_eq!(f(3, 0.0), Ok(0.0), "{name}: R̄ = 0 gives κ = 0");
    }
}

#[test]
fn mean_resultant_rejects_empty_ragged_and_non_finite_samples() {
    type Fit = fn(&[f64], usize) -> probdml::Result<vmf::MeanResultant>;
    for f in [
        vmf::mean_resultant as Fit,
        vmf::exact::mean_resultant as Fit,
    ] {
        assert!(matches!(f(&[], 3), Err(Error::TooFew { .. })));
        assert!(
            f(&[1.0, 0.0, 0.0, 1.0], 3).is_err(),
            "length not a multiple of M"
        );
        assert!(f(&[1.0, f64::NAN, 0.0], 3).is_err());
        assert!(f(&[1.0, f64::INFINITY, 0.0], 3).is_err());
        assert!(matches!(f(&[1.0], 1), Err(Error::InvalidDimension { .. })));
        assert!(
            f(&[1.0, 0.0, -1.0, 0.0], 2).is_err(),
            "Σx = 0 has no direction"
        );
    }
    for f in [vmf::lam_uncertainty, vmf::exact::lam_uncertainty] {
        assert!(f(&[], 3).is_err());
        assert!(f(&[f64::NAN, 0.0], 2).is_err());
        assert_eq!(f(&[1.0, 0.0, -1.0, 0.0], 2), Ok(f64::INFINITY));
    }
}

#[test]
fn sampler_constructors_and_outputs_reject_bad_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for &bad in &BAD_REALS {
        assert!(names(
            &vmf::VonMisesFisher::new(&[1.0, 0.0], bad).unwrap_err(),
            "kappa"
        ));
        assert!(names(
            &vmf::exact::VonMisesFisher::new(&[1.0, 0.0], bad).unwrap_err(),
            "kappa"
        ));
    }
    assert!(vmf::VonMisesFisher::new(&[1.0, 0.0], f64::INFINITY).is_err());
    assert!(names(
        &vmf::VonMisesFisher::new(&[1.0, 1.0], 1.0).unwrap_err(),
        "mu"
    ));
    assert!(vmf::VonMisesFisher::new(&[1.0], 1.0).is_err());
    assert!(vmf::VonMisesFisher::new(&[], 1.0).is_err());
    assert!(vmf::exact::VonMisesFisher::new(&[0.0, 2.0], 1.0).is_err());
    assert!(vmf::VonMisesFisher::from_natural(&[f64::NAN, 1.0]).is_err());
    assert!(vmf::exact::VonMisesFisher::from_natural(&[1.0, f64::INFINITY]).is_err());
    assert!(vmf::VonMisesFisher::from_natural(&[1.0]).is_err());
    let fast = vmf::VonMisesFisher::new(&[0.0, 1.0, 0.0], 5.0).unwrap();
    let exact = vmf::exact::VonMisesFisher::new(&[0.0, 1.0, 0.0], 5.0).unwrap();
    let mut short = [0.0; 2];
    assert!(matches!(
        fast.sample_into(&mut rng, &mut short),
        Err(Error::DimensionMismatch { .. })
    ));
    assert!(matches!(
        exact.sample_into(&mut rng, &mut short),
        Err(Error::DimensionMismatch { .. })
    ));
    assert_eq!(short, [0.0; 2], "a rejected call leaves `out` untouched");
    // The reference quadrature's documented range ends at κ = 10³⁰⁰; the fast sampler has none.
    assert!(names(
        &vmf::exact::VonMisesFisher::new(&[1.0, 0.0], f64::MAX).unwrap_err(),
        "kappa"
    ));
    let x = vmf::VonMisesFisher::new(&[1.0, 0.0], f64::MAX)
        .unwrap()
        .sample(&mut rng);
    assert!(x[0] == 1.0 && x[1].abs() < 1e-150, "{x:?}");
    assert!(vmf::exact::CosineMarginal::new(1, 1.0).is_err());
    assert!(vmf::exact::CosineMarginal::new(3, f64::NAN).is_err());
}

/// Any f64 at all: NaN, ±∞, ±0, subnormals, huge, and ordinary values.
fn any_real() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            f64::from_bits(1),
            f64::MAX,
            -f64::MAX,
            1.0,
            1e8,
            1e12
        ]),
        any::<f64>(),
        -10.0..1e4f64,
    ]
}

proptest! {
    #![proptest_config(Config { cases: 300, rng_algorithm: RngAlgorithm::ChaCha, rng_seed: RngSeed::Fixed(0xbad1), failure_persistence: None, ..Config::default() })]

    /// Fuzz the fast public API: no input panics; raw kernels give NaN (never a finite number)
    /// when an argument is outside its domain; checked functions give `Err` there.
    #[test]
    fn no_public_function_panics(a in any_real(), b in any_real(), dim in 0usize..6, v in prop::collection::vec(any_real(), 0..8), steps in 0usize..4) {
        let valid_real = |t: f64| t.is_finite() && t >= 0.0;
        let r = special::log_bessel_i(a, b);
        prop_assert!(valid_real(a) && b >= 0.0 || r.is_nan());
        let r = special::bessel_i_ratio(a, b);
        prop_assert!(valid_real(a) && b >= 0.0 || r.is_nan());
        for r in [vmf::log_norm_const(dim, a), vmf::mean_resultant_length(dim, a), vmf::mean_resultant_length_complement(dim, a), vmf::entropy(dim, a), vmf::kl_to_uniform(dim, a)] {
            prop_assert!(dim >= 2 && a >= 0.0 || r.is_nan());
        }
        let _ = vmf::log_sphere_area(dim);
        let _ = vmf::unit_norm_tolerance(dim);
        let k = vmf::kappa_mle(dim, a);
        prop_assert!(k.is_err() || (dim >= 2 && (0.0..1.0).contains(&a)));
        let k = vmf::kappa_sra(dim, a, steps);
        prop_assert!(k.is_err() || (dim >= 2 && (0.0..1.0).contains(&a)));
        if let Ok(k) = k { prop_assert!(k.is_finite() && k >= 0.0); }
        let mu = v.clone();
        let x: Vec<f64> = v.iter().rev().copied().collect();
        let _ = vmf::log_density(&x, &mu, b);
        let _ = vmf::mean_resultant(&v, dim.max(1));
        let _ = vmf::lam_uncertainty(&v, dim.max(1));
        let mut rng = ChaCha8Rng::seed_from_u64(a.to_bits() ^ b.to_bits());
        if let Ok(s) = vmf::VonMisesFisher::new(&mu, b) {
            let mut out = vec![0.0; dim];
            let _ = s.sample_into(&mut rng, &mut out);
            let y = s.sample(&mut rng);
            prop_assert!(y.iter().all(|t| t.is_finite()));
        }
        if let Ok(s) = vmf::VonMisesFisher::from_natural(&v) {
            let y = s.sample(&mut rng);
            prop_assert!(y.iter().all(|t| t.is_finite()));
        }
    }
}
