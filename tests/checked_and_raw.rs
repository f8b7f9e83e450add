//! Checked functions and raw kernels, told apart by one rule (the crate page): a function that
//! returns `Result` is checked, one that returns a bare `f64` is a raw kernel, and every raw vMF
//! kernel of `(M, κ)` has a checked form of the same name in `vmf::checked`.
use probdml::{triplet, vmf, Error};

type Kernel = fn(usize, f64) -> f64;
type Checked = fn(usize, f64) -> probdml::Result<f64>;

/// Every raw vMF kernel of `(M, κ)`, reached through `vmf::kernel`, beside its checked form.
const PAIRS: [(&str, Kernel, Checked); 5] = [
    (
        "log_norm_const",
        vmf::kernel::log_norm_const,
        vmf::checked::log_norm_const,
    ),
    (
        "mean_resultant_length",
        vmf::kernel::mean_resultant_length,
        vmf::checked::mean_resultant_length,
    ),
    (
        "mean_resultant_length_complement",
        vmf::kernel::mean_resultant_length_complement,
        vmf::checked::mean_resultant_length_complement,
    ),
    ("entropy", vmf::kernel::entropy, vmf::checked::entropy),
    (
        "kl_to_uniform",
        vmf::kernel::kl_to_uniform,
        vmf::checked::kl_to_uniform,
    ),
];

#[test]
fn kl_to_uniform_is_an_error_where_the_triplet_prior_is() {
    // The kernel keeps its NaN (batch code maps it over arrays); the checked form does not.
    assert!(vmf::kl_to_uniform(64, -1.0).is_nan());
    let checked = vmf::checked::kl_to_uniform(64, -1.0).unwrap_err();
    assert_eq!(checked, triplet::vmf_kl(64, -1.0).unwrap_err());
    assert!(matches!(checked, Error::OutOfDomain { arg: "kappa", .. }));
    // Debug, not ==: an error that carries a NaN value is not equal to itself.
    for (dim, kappa) in [(1, 2.0), (64, f64::NAN), (64, f64::INFINITY), (0, 1.0)] {
        assert_eq!(
            format!("{:?}", vmf::checked::kl_to_uniform(dim, kappa)),
            format!("{:?}", triplet::vmf_kl(dim, kappa)),
            "(M, κ) = ({dim}, {kappa})"
        );
    }
    // On the domain, the same value bit for bit.
    for (dim, kappa) in [(2, 0.0), (64, 3.5), (2048, 1e-3), (512, 1e4)] {
        assert_eq!(
            vmf::checked::kl_to_uniform(dim, kappa).unwrap(),
            triplet::vmf_kl(dim, kappa).unwrap()
        );
    }
}

#[test]
fn mean_resultant_length_of_a_one_dimensional_sphere_is_an_error_not_a_nan() {
    assert!(vmf::mean_resultant_length(1, 3.0).is_nan());
    let err = vmf::checked::mean_resultant_length(1, 3.0).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidDimension {
                arg: "dim",
                dim: 1,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn every_checked_form_errs_exactly_where_its_kernel_is_nan() {
    let dims = [0, 1, 2, 3, 64, 2048];
    let kappas = [
        f64::NEG_INFINITY,
        -1.0,
        -f64::MIN_POSITIVE,
        -0.0,
        0.0,
        f64::MIN_POSITIVE,
        1e-8,
        0.5,
        30.0,
        1e6,
        1e200,
        1e300,
        f64::MAX,
        f64::INFINITY,
        f64::NAN,
    ];
    let mut gaps = Vec::new();
    for (name, kernel, checked) in PAIRS {
        for dim in dims {
            for kappa in kappas {
                let raw = kernel(dim, kappa);
                match checked(dim, kappa) {
                    Ok(value) => assert_eq!(
                        value.to_bits(),
                        raw.to_bits(),
                        "{name}({dim}, {kappa}): the checked value is not the kernel's"
                    ),
                    Err(err) => {
                        // An input the checked form rejects is off the kernel's documented
                        // domain (M < 2 or κ not in [0, ∞)), or one where the kernel
                        // overflows to NaN (huge κ).
                        assert!(
                            dim < 2 || !(kappa >= 0.0 && kappa.is_finite()) || raw.is_nan(),
                            "{name}({dim}, {kappa}) rejected on the domain: {err}"
                        );
                    }
                }
                if raw.is_nan() && checked(dim, kappa).is_ok() {
                    gaps.push(format!("{name}({dim}, {kappa:e})"));
                }
            }
        }
    }
    assert!(
        gaps.is_empty(),
        "the kernel is NaN and the checked form is not an error: {gaps:?}"
    );
}

#[test]
fn log_sphere_area_is_checked_for_the_empty_sphere_only() {
    assert!(vmf::kernel::log_sphere_area(0).is_nan());
    assert!(vmf::checked::log_sphere_area(0).is_err());
    assert_eq!(
        vmf::checked::log_sphere_area(1).unwrap(),
        std::f64::consts::LN_2
    );
    assert_eq!(
        vmf::checked::log_sphere_area(3).unwrap(),
        vmf::log_sphere_area(3)
    );
}

/// ln C_M(κ) stays finite up to κ = f64::MAX: where κ ≫ M², ln I_ν(κ) = κ − ½ ln 2πκ to far
/// below an ulp of κ (A&S 9.7.1, the next term is (4ν² − 1)/(8κ)), so
/// ln C_M(κ) = (M/2 − 1) ln κ − (M/2) ln 2π − κ + ½ ln 2πκ. Before, ν² + κ² overflowed in the
/// uniform expansion (M = 64, κ = 10²⁰⁰) and 2κ in the closed form of ν = ½ (M = 3,
/// κ = f64::MAX), giving NaN.
#[test]
fn log_norm_const_is_finite_up_to_the_largest_kappa() {
    use probdml::vmf::log_norm_const;
    let two_pi = 2.0 * std::f64::consts::PI;
    for (dim, kappa) in [
        (64usize, 1e200),
        (64, 1e160),
        (3, f64::MAX),
        (3, 1e200),
        (128, f64::MAX),
        (4, 1e300),
    ] {
        let nu = dim as f64 / 2.0 - 1.0;
        let expected = nu * kappa.ln() - (dim as f64 / 2.0) * two_pi.ln() - kappa
            + 0.5 * (two_pi * kappa).ln();
        let got = log_norm_const(dim, kappa);
        assert!(
            (got - expected).abs() <= 4e-15 * expected.abs(),
            "ln C_{dim}({kappa:e}) = {got}, expected {expected}"
        );
    }
}
