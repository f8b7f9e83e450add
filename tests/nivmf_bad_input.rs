//! Bad input to chapter 06: a non-positive or
//! non-finite concentration, a non-unit μ or x, mismatched lengths, γ ≤ 0, NaN and ±∞ — each an
//! `Error` naming the argument and the rule, raised alike by the fast and the exact twin, never a
//! panic or a NaN.
// The positional nivMF densities `(x, mu, …)` are the registry's fast items (deprecated for
// users: the distribution's `ln_pdf` names its arguments and calls the same code).
#![allow(deprecated)]

use probdml::nivmf::{self, exact};
use probdml::Error;
use probdml::Labels;

/// Runs both twins and returns the (equal) error.
fn both<T: std::fmt::Debug>(fast: probdml::Result<T>, slow: probdml::Result<T>) -> Error {
    let (a, b) = (fast.unwrap_err(), slow.unwrap_err());
    assert_eq!(
        format!("{a:?}"),
        format!("{b:?}"),
        "the twins disagree on the error"
    );
    a
}

const MU: [f64; 3] = [0.0, 0.6, 0.8];
const X: [f64; 3] = [1.0, 0.0, 0.0];
const K: [f64; 3] = [2.0, 5.0, 9.0];

#[test]
fn density_rejects_bad_concentrations() {
    for (kappas, want) in [
        (
            [2.0, 0.0, 9.0],
            Error::OutOfDomainElement {
                arg: "kappas",
                index: 1,
                value: 0.0,
                rule: "every concentration kappa_m of K = diag(kappas) must be > 0",
            },
        ),
        (
            [2.0, -1.0, 9.0],
            Error::OutOfDomainElement {
                arg: "kappas",
                index: 1,
                value: -1.0,
                rule: "every concentration kappa_m of K = diag(kappas) must be > 0",
            },
        ),
        (
            [2.0, f64::INFINITY, 9.0],
            Error::NotFiniteElement {
                arg: "kappas",
                index: 1,
                value: f64::INFINITY,
            },
        ),
    ] {
        let e = both(
            nivmf::log_density(&X, &MU, &kappas),
            exact::log_density(&X, &MU, &kappas),
        );
        assert_eq!(e, want);
        let e = both(
            nivmf::log_density_heuristic(&X, &MU, &kappas),
            exact::log_density_heuristic(&X, &MU, &kappas),
        );
        assert_eq!(e, want);
        assert_eq!(nivmf::NonIsotropicVmf::new(&MU, &kappas).unwrap_err(), want);
    }
    // NaN: an error (compared by message, NaN ≠ NaN).
    let e = both(
        nivmf::log_density(&X, &MU, &[2.0, f64::NAN, 9.0]),
        exact::log_density(&X, &MU, &[2.0, f64::NAN, 9.0]),
    );
    assert_eq!(
        e.to_string(),
        "argument `kappas` must be finite: element 1 is NaN"
    );
}

#[test]
fn density_rejects_non_unit_vectors_and_mismatches() {
    let e = both(
        nivmf::log_density(&[1.0, 1.0, 0.0], &MU, &K),
        exact::log_density(&[1.0, 1.0, 0.0], &MU, &K),
    );
    assert!(matches!(e, Error::NotUnitVector { arg: "x", .. }), "{e:?}");
    // Just outside the tolerance (3 + 4)·2⁻²⁴ ≈ 4.2·10⁻⁷ (norm 1 + 4.8·10⁻⁷).
    let mu = [0.0, 0.6, 0.8 + 6e-7];
    let e = both(
        nivmf::log_density(&X, &mu, &K),
        exact::log_density(&X, &mu, &K),
    );
    assert!(matches!(e, Error::NotUnitVector { arg: "mu", .. }), "{e:?}");
    let e = both(
        nivmf::log_density(&[1.0, 0.0], &MU, &K),
        exact::log_density(&[1.0, 0.0], &MU, &K),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "x",
            expected: 3,
            got: 2
        }
    );
    let e = both(
        nivmf::log_density(&X, &MU, &[1.0, 2.0]),
        exact::log_density(&X, &MU, &[1.0, 2.0]),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "kappas",
            expected: 3,
            got: 2
        }
    );
    let e = both(
        nivmf::log_density(&[1.0], &[1.0], &[1.0]),
        exact::log_density(&[1.0], &[1.0], &[1.0]),
    );
    assert!(matches!(
        e,
        Error::InvalidDimension {
            arg: "mu",
            dim: 1,
            ..
        }
    ));
    let e = both(
        nivmf::log_density(&[f64::NAN, 0.0, 1.0], &MU, &K),
        exact::log_density(&[f64::NAN, 0.0, 1.0], &MU, &K),
    );
    assert!(matches!(e, Error::NotFinite { arg: "x", .. }), "{e:?}");
}

#[test]
fn kl_rejects_bad_input() {
    let e = both(
        nivmf::kl_vmf(&X, -1.0, &MU, 1.0),
        exact::kl_vmf(&X, -1.0, &MU, 1.0),
    );
    assert_eq!(
        e,
        Error::OutOfDomain {
            arg: "kappa_z",
            value: -1.0,
            rule: "must be >= 0"
        }
    );
    let e = both(
        nivmf::kl_vmf(&X, 1.0, &MU, f64::INFINITY),
        exact::kl_vmf(&X, 1.0, &MU, f64::INFINITY),
    );
    assert_eq!(
        e,
        Error::NotFinite {
            arg: "kappa_p",
            value: f64::INFINITY
        }
    );
    let e = both(
        nivmf::kl_vmf(&X, 1.0, &MU, f64::NAN),
        exact::kl_vmf(&X, 1.0, &MU, f64::NAN),
    );
    assert!(matches!(e, Error::NotFinite { arg: "kappa_p", .. }));
    let e = both(
        nivmf::kl_vmf(&X, 1.0, &[0.0, 1.0], 1.0),
        exact::kl_vmf(&X, 1.0, &[0.0, 1.0], 1.0),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "mu_p",
            expected: 3,
            got: 2
        }
    );
    let e = both(
        nivmf::kl_vmf(&[2.0, 0.0, 0.0], 1.0, &MU, 1.0),
        exact::kl_vmf(&[2.0, 0.0, 0.0], 1.0, &MU, 1.0),
    );
    assert!(matches!(e, Error::NotUnitVector { arg: "mu_z", .. }));
    assert!(nivmf::kl_vmf_paper(&X, 1.0, &MU, -2.0).is_err());
}

#[test]
fn ppk_rejects_bad_input() {
    let (a, b) = ([3.0, 0.0, 0.0], [0.0, 4.0, 0.0]);
    for gamma in [0.0, -0.5] {
        let e = both(nivmf::log_ppk(&a, &b, gamma), exact::log_ppk(&a, &b, gamma));
        assert_eq!(
            e,
            Error::OutOfDomain {
                arg: "gamma",
                value: gamma,
                rule: "the probability product kernel needs gamma > 0"
            }
        );
    }
    let e = both(
        nivmf::log_ppk(&a, &b, f64::INFINITY),
        exact::log_ppk(&a, &b, f64::INFINITY),
    );
    assert_eq!(
        e,
        Error::NotFinite {
            arg: "gamma",
            value: f64::INFINITY
        }
    );
    let e = both(
        nivmf::log_ppk(&a, &[1.0, 2.0], 1.0),
        exact::log_ppk(&a, &[1.0, 2.0], 1.0),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "nu_p",
            expected: 3,
            got: 2
        }
    );
    let e = both(
        nivmf::log_ppk(&[f64::NEG_INFINITY, 0.0, 0.0], &b, 1.0),
        exact::log_ppk(&[f64::NEG_INFINITY, 0.0, 0.0], &b, 1.0),
    );
    assert_eq!(
        e,
        Error::NotFiniteElement {
            arg: "nu_z",
            index: 0,
            value: f64::NEG_INFINITY
        }
    );
    // ‖ν‖ overflows although every entry is finite.
    let huge = [f64::MAX, f64::MAX, 0.0];
    let e = both(
        nivmf::log_ppk(&huge, &b, 1.0),
        exact::log_ppk(&huge, &b, 1.0),
    );
    assert!(matches!(e, Error::NotFinite { arg: "nu_z", .. }), "{e:?}");
    assert!(nivmf::bhattacharyya_distance(&a, &[1.0]).is_err());
    assert!(nivmf::expected_likelihood_distance(&[1.0], &[1.0]).is_err());
}

/// Extreme but valid input gives finite values, never NaN.
#[test]
fn extreme_valid_input_is_finite() {
    let tiny = [1e-300, 1e-300, 1e-300];
    let huge = [1e300, 1e300, 1e300];
    assert!(nivmf::log_density(&X, &MU, &tiny).unwrap().is_finite());
    assert!(nivmf::log_density(&X, &MU, &huge).unwrap().is_finite());
    assert!(nivmf::log_density_heuristic(&X, &MU, &[1e-300, 1.0, 1e300])
        .unwrap()
        .is_finite());
    assert!(nivmf::kl_vmf(&X, 0.0, &MU, 0.0).unwrap() == 0.0);
    assert!(nivmf::kl_vmf(&X, 1e8, &MU, 1e8).unwrap().is_finite());
    assert!(nivmf::log_ppk(&[0.0; 3], &[0.0; 3], 0.5).unwrap() == 0.0);
    assert!(nivmf::log_ppk(&[1e8, 0.0, 0.0], &[-1e8, 0.0, 0.0], 2.0)
        .unwrap()
        .is_finite());
}

/// ProxyNCA++, ProxyAnchor and the joint loss.
#[test]
fn proxy_losses_reject_bad_input() {
    use nivmf::{ProxyBatch, ProxyDistance};
    let z = [1.0, 0.0, 0.0, 2.0, 1.0, 0.0];
    let p = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let k = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let ok = ProxyBatch {
        embeddings: &z,
        labels: Labels::Usize(&[0, 1]),
        proxies: &p,
        concentrations: &k,
        dim: 3,
    };
    let nivmf_kind = ProxyDistance::NivMf;
    for t in [0.0, -1.0] {
        let e = both(
            nivmf::proxy_nca_loss(nivmf_kind, &ok, t),
            exact::proxy_nca_loss(nivmf_kind, &ok, t),
        );
        assert_eq!(
            e,
            Error::OutOfDomain {
                arg: "temperature",
                value: t,
                rule: "the softmax temperature t must be > 0"
            }
        );
    }
    let e = both(
        nivmf::proxy_nca_loss(nivmf_kind, &ok, f64::NAN),
        exact::proxy_nca_loss(nivmf_kind, &ok, f64::NAN),
    );
    assert!(matches!(
        e,
        Error::NotFinite {
            arg: "temperature",
            ..
        }
    ));
    let el = ProxyDistance::ElNivMf {
        samples: 0,
        seed: 1,
    };
    let e = both(
        nivmf::proxy_nca_loss(el, &ok, 1.0),
        exact::proxy_nca_loss(el, &ok, 1.0),
    );
    assert_eq!(
        e,
        Error::TooFew {
            arg: "samples",
            min: 1,
            got: 0
        }
    );
    let bad_label = ProxyBatch {
        labels: Labels::Usize(&[0, 2]),
        ..ok
    };
    let e = both(
        nivmf::proxy_nca_loss(nivmf_kind, &bad_label, 1.0),
        exact::proxy_nca_loss(nivmf_kind, &bad_label, 1.0),
    );
    assert_eq!(
        e,
        Error::IndexOutOfRange {
            arg: "labels",
            position: 1,
            index: 2,
            target: "proxies",
            len: 2
        }
    );
    let ragged = ProxyBatch {
        embeddings: &z[..5],
        labels: Labels::Usize(&[0]),
        ..ok
    };
    let e = both(
        nivmf::proxy_nca_loss(nivmf_kind, &ragged, 1.0),
        exact::proxy_nca_loss(nivmf_kind, &ragged, 1.0),
    );
    assert_eq!(
        e,
        Error::RaggedRows {
            arg: "embeddings",
            len: 5,
            dim: 3
        }
    );
    let bad_k = [1.0, 2.0, 3.0, 4.0, 0.0, 6.0];
    let neg = ProxyBatch {
        concentrations: &bad_k,
        ..ok
    };
    let e = both(
        nivmf::proxy_nca_loss(nivmf_kind, &neg, 1.0),
        exact::proxy_nca_loss(nivmf_kind, &neg, 1.0),
    );
    assert!(matches!(
        e,
        Error::OutOfDomainElement {
            arg: "concentrations",
            ..
        }
    ));
    let short = ProxyBatch {
        concentrations: &k[..5],
        ..ok
    };
    let e = both(
        nivmf::proxy_nca_loss(nivmf_kind, &short, 1.0),
        exact::proxy_nca_loss(nivmf_kind, &short, 1.0),
    );
    assert_eq!(
        e,
        Error::DimensionMismatch {
            arg: "concentrations",
            expected: 6,
            got: 5
        }
    );
    let zero_row = [0.0, 0.0, 0.0, 2.0, 1.0, 0.0];
    let zb = ProxyBatch {
        embeddings: &zero_row,
        ..ok
    };
    let e = both(
        nivmf::proxy_nca_loss(ProxyDistance::Cosine, &zb, 1.0),
        exact::proxy_nca_loss(ProxyDistance::Cosine, &zb, 1.0),
    );
    assert!(matches!(
        e,
        Error::Undefined {
            arg: "embeddings",
            ..
        }
    ));
    // ν_z = 0 is a valid vMF (uniform) for the vMF distances.
    assert!(nivmf::proxy_nca_loss(ProxyDistance::ElVmf, &zb, 1.0)
        .unwrap()
        .loss
        .is_finite());
    assert!(nivmf::proxy_nca_loss(ProxyDistance::KlVmf, &zb, 1.0)
        .unwrap()
        .loss
        .is_finite());
    let nan = [f64::NAN, 0.0, 0.0, 2.0, 1.0, 0.0];
    let e = both(
        nivmf::proxy_nca_loss(
            ProxyDistance::L2,
            &ProxyBatch {
                embeddings: &nan,
                ..ok
            },
            1.0,
        ),
        exact::proxy_nca_loss(
            ProxyDistance::L2,
            &ProxyBatch {
                embeddings: &nan,
                ..ok
            },
            1.0,
        ),
    );
    assert_eq!(
        e.to_string(),
        "argument `embeddings` must be finite: element 0 is NaN"
    );
    let e = both(
        nivmf::proxy_anchor_loss(&ok, 0.0, 0.1),
        exact::proxy_anchor_loss(&ok, 0.0, 0.1),
    );
    assert!(matches!(e, Error::OutOfDomain { arg: "alpha", .. }));
    let e = nivmf::joint_proxy_loss(&ok, 5, 1, 1.0, -1.0, 32.0, 0.1).unwrap_err();
    assert!(matches!(e, Error::OutOfDomain { arg: "omega", .. }));
    assert!(nivmf::joint_proxy_loss(&ok, 0, 1, 1.0, 1.0, 32.0, 0.1).is_err());
}
