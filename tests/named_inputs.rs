//! Inputs named at the call give the positional functions' values bit for bit (the proofs check
//! those against the exact twins): `Triplet` (a triplet by role) against the six-slice
//! `triplet::moments` and `log_likelihood`, `OodScores` (ID and OOD named) against `auroc`,
//! `auprc` and `roc_curve`, `hib::SoftThreshold` (HIB's `a` and `b` named) against the
//! positional match probability, self-mismatch and VIB loss, and the densities of
//! `NonIsotropicVmf` against the positional `(x, mu, kappas)` forms; and their errors name the
//! same argument and index.
// The deprecated positional forms are the comparison here.
#![allow(deprecated)]

use probdml::hib::{self, HedgedEmbedding, SoftThreshold, VibPair};
use probdml::metrics::{self, OodScores};
use probdml::nivmf::{self, NonIsotropicVmf};
use probdml::rand::{rngs::StdRng, RngExt, SeedableRng};
use probdml::triplet::{self, Triplet};
use probdml::{Error, Gaussian};

#[test]
fn a_triplet_by_role_is_the_six_slice_call() {
    let mut rng = StdRng::seed_from_u64(0x0005_0011);
    for case in 0..200 {
        let dim = 1 + case % 17;
        let mut draw = |scale: f64, positive: bool| -> Vec<f64> {
            (0..dim)
                .map(|_| {
                    let x: f64 = rng.random_range(-scale..scale);
                    if positive {
                        x.abs()
                    } else {
                        x
                    }
                })
                .collect()
        };
        let [ma, va, mp, vp, mn, vn] = [
            draw(2.0, false),
            draw(1.0, true),
            draw(2.0, false),
            draw(1.0, true),
            draw(2.0, false),
            draw(1.0, true),
        ];
        let t = Triplet {
            anchor: Gaussian { mu: &ma, var: &va },
            positive: Gaussian { mu: &mp, var: &vp },
            negative: Gaussian { mu: &mn, var: &vn },
        };
        let margin = 0.1 * (case % 5) as f64;
        assert_eq!(
            t.moments().unwrap(),
            triplet::moments(&ma, &va, &mp, &vp, &mn, &vn).unwrap()
        );
        let by_role = t.log_likelihood(margin).unwrap();
        let six = triplet::log_likelihood(&ma, &va, &mp, &vp, &mn, &vn, margin).unwrap();
        assert_eq!(by_role.to_bits(), six.to_bits(), "case {case}");
    }
}

#[test]
fn a_triplet_by_role_names_the_slice_in_its_errors() {
    let (m, v) = ([0.0, 0.0], [0.5, 0.5]);
    let t = Triplet {
        anchor: Gaussian { mu: &m, var: &v },
        positive: Gaussian { mu: &m, var: &v },
        negative: Gaussian {
            mu: &[0.0, f64::NAN],
            var: &v,
        },
    };
    assert!(matches!(
        t.moments().unwrap_err(),
        Error::NotFiniteElement {
            arg: "mu_n",
            index: 1,
            ..
        }
    ));
    let t = Triplet {
        positive: Gaussian {
            mu: &[0.0],
            var: &[0.5],
        },
        ..t
    };
    assert!(matches!(
        t.log_likelihood(0.1).unwrap_err(),
        Error::DimensionMismatch {
            arg: "mu_p",
            expected: 2,
            got: 1
        }
    ));
}

#[test]
fn ood_scores_by_name_are_the_positional_call() {
    let mut rng = StdRng::seed_from_u64(0x0008_0021);
    for case in 0..100 {
        let (n_id, n_ood) = (1 + case % 13, 1 + case % 7);
        // Quarter steps give ties; f32 and f64 alike.
        let id: Vec<f32> = (0..n_id)
            .map(|_| rng.random_range(0..8) as f32 / 4.0)
            .collect();
        let ood: Vec<f32> = (0..n_ood)
            .map(|_| rng.random_range(1..9) as f32 / 4.0)
            .collect();
        let named = OodScores { id: &id, ood: &ood };
        assert_eq!(named.auroc().unwrap(), metrics::auroc(&id, &ood).unwrap());
        assert_eq!(named.auprc().unwrap(), metrics::auprc(&id, &ood).unwrap());
        assert_eq!(
            named.roc_curve().unwrap(),
            metrics::roc_curve(&id, &ood).unwrap()
        );
        // Swapping the sets is the complement: what a silent positional swap returned.
        let swapped = OodScores { id: &ood, ood: &id }.auroc().unwrap();
        assert!((swapped - (1.0 - named.auroc().unwrap())).abs() <= f64::EPSILON);
    }
    assert!(matches!(
        OodScores::<f64> {
            id: &[0.2, f64::NAN],
            ood: &[0.9]
        }
        .auprc()
        .unwrap_err(),
        Error::NotFiniteElement {
            arg: "id_scores",
            index: 1,
            ..
        }
    ));
}

#[test]
fn a_named_threshold_is_the_positional_call() {
    let mut rng = StdRng::seed_from_u64(0x0007_0002);
    for case in 0..100 {
        let dim = 1 + case % 5;
        let mut draw =
            |lo: f64, hi: f64| -> Vec<f64> { (0..dim).map(|_| rng.random_range(lo..hi)).collect() };
        let (mu1, var1, mu2, var2) = (
            draw(-2.0, 2.0),
            draw(0.0, 1.0),
            draw(-2.0, 2.0),
            draw(0.0, 1.0),
        );
        let (a, b) = (rng.random_range(0.1..5.0), rng.random_range(-3.0..3.0));
        let threshold = SoftThreshold { a, b };
        let (g1, g2) = (
            Gaussian {
                mu: &mu1,
                var: &var1,
            },
            Gaussian {
                mu: &mu2,
                var: &var2,
            },
        );
        assert_eq!(
            threshold
                .match_probability_moment_matched(&g1, &g2)
                .unwrap(),
            hib::match_probability_moment_matched(&mu1, &var1, &mu2, &var2, a, b).unwrap()
        );
        let x1 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
            mu: &mu1,
            var: &var1,
        })
        .unwrap();
        let x2 = HedgedEmbedding::from_gaussian(probdml::Gaussian {
            mu: &mu2,
            var: &var2,
        })
        .unwrap();
        let seed = rng.random::<u64>();
        assert_eq!(
            threshold
                .match_probability(&x1, &x2, 4, &mut StdRng::seed_from_u64(seed))
                .unwrap(),
            hib::match_probability(&x1, &x2, a, b, 4, &mut StdRng::seed_from_u64(seed)).unwrap()
        );
        assert_eq!(
            threshold
                .self_mismatch(&x1, 4, &mut StdRng::seed_from_u64(seed))
                .unwrap(),
            hib::self_mismatch(&x1, a, b, 4, &mut StdRng::seed_from_u64(seed)).unwrap()
        );
        let noise: Vec<f64> = (0..2 * dim).map(|_| rng.random_range(-2.0..2.0)).collect();
        let pair = VibPair {
            mu1: &mu1,
            var1: &var1,
            mu2: &mu2,
            var2: &var2,
            noise1: &noise[..dim],
            noise2: &noise[dim..],
            is_match: case % 2 == 0,
        };
        let var_positive = var1.iter().chain(&var2).all(|&v| v > 0.0);
        if var_positive {
            assert_eq!(
                threshold.vib_loss(&pair, 0.5).unwrap(),
                hib::vib_loss(&pair, a, b, 0.5).unwrap()
            );
        }
        // The swap the names prevent: (b, a) in place of (a, b) is another probability.
        if b > 0.0 && (a - b).abs() > 0.1 {
            let swapped = SoftThreshold { a: b, b: a };
            assert_ne!(
                swapped.match_probability_moment_matched(&g1, &g2).unwrap(),
                threshold
                    .match_probability_moment_matched(&g1, &g2)
                    .unwrap()
            );
        }
    }
    // The same errors, naming `a`.
    let bad = SoftThreshold { a: -1.0, b: 0.0 };
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.0],
        var: &[1.0],
    })
    .unwrap();
    let named = bad
        .self_mismatch(&x, 4, &mut StdRng::seed_from_u64(1))
        .unwrap_err();
    let positional =
        hib::self_mismatch(&x, -1.0, 0.0, 4, &mut StdRng::seed_from_u64(1)).unwrap_err();
    assert_eq!(named.to_string(), positional.to_string());
    assert!(named.to_string().contains("`a`"), "{named}");
}

#[test]
fn the_nivmf_density_of_the_distribution_is_the_positional_call() {
    let mut rng = StdRng::seed_from_u64(0x0006_0002);
    for case in 0..100 {
        let dim = 2 + case % 9;
        let mut unit = || -> Vec<f64> {
            let v: Vec<f64> = (0..dim).map(|_| rng.random_range(-1.0..1.0)).collect();
            let n = probdml::compensated::norm2(&v);
            v.iter().map(|x| x / n).collect()
        };
        let (x, mu) = (unit(), unit());
        let kappas: Vec<f64> = (0..dim).map(|m| 0.5 + (m * case) as f64 % 7.0).collect();
        let law = NonIsotropicVmf::new(&mu, &kappas).unwrap();
        assert_eq!(
            law.ln_pdf(&x).unwrap(),
            nivmf::log_density(&x, &mu, &kappas).unwrap()
        );
        assert_eq!(
            law.ln_pdf_heuristic(&x).unwrap(),
            nivmf::log_density_heuristic(&x, &mu, &kappas).unwrap()
        );
        // The swap the distribution prevents: unlike the vMF's (symmetric in x and μ), the
        // nivMF density at μ under the law centred at x is another number.
        if kappas.iter().any(|&k| k != kappas[0]) {
            assert_ne!(
                nivmf::log_density(&mu, &x, &kappas).unwrap(),
                law.ln_pdf(&x).unwrap()
            );
        }
    }
}
