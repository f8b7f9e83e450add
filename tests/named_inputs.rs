//! Inputs named at the call give the positional functions' values bit for bit (the proofs check
//! those against the exact twins): `Triplet` (a triplet by role) against the six-slice
//! `triplet::moments` and `log_likelihood`, `OodScores` (ID and OOD named) against `auroc`,
//! `auprc` and `roc_curve`; and their errors name the same argument and index.
// The deprecated positional forms are the comparison here.
#![allow(deprecated)]

use probdml::metrics::{self, OodScores};
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
            anchor: Gaussian {
                mean: &ma,
                var: &va,
            },
            positive: Gaussian {
                mean: &mp,
                var: &vp,
            },
            negative: Gaussian {
                mean: &mn,
                var: &vn,
            },
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
        anchor: Gaussian { mean: &m, var: &v },
        positive: Gaussian { mean: &m, var: &v },
        negative: Gaussian {
            mean: &[0.0, f64::NAN],
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
            mean: &[0.0],
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
