//! The nivMF and the Gaussian embedding carry their methods, as `VonMisesFisher` does: a
//! renormalising constructor for `f32` embeddings, `ln_pdf`, and the KL of a Gaussian embedding.
// The positional nivMF densities `(x, mu, …)` are the registry's fast items (deprecated for
// users: the distribution's `ln_pdf` names its arguments and calls the same code).
#![allow(deprecated)]
use probdml::hib::{self, HedgedEmbedding, KlToStandardNormal};
use probdml::nivmf::{self, NonIsotropicVmf};
use probdml::Error;

#[test]
fn nivmf_from_an_f32_direction_and_its_density() {
    // A direction normalised in f32: off the unit sphere by ~1e-8.
    let v32: Vec<f32> = {
        let raw = [0.3f32, -0.7, 0.2, 0.6];
        let n = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
        raw.iter().map(|x| x / n).collect()
    };
    let v: Vec<f64> = v32.iter().map(|&x| f64::from(x)).collect();
    let kappas = [4.0, 1.5, 2.0, 3.0];
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    // `new` accepts it (within (M + 4)·2⁻²⁴) and renormalises it in f64, as `from_direction` does.
    let by_new = NonIsotropicVmf::new(&v, &kappas).unwrap();
    let law = NonIsotropicVmf::from_direction(&v, &kappas).unwrap();
    assert_eq!(by_new.mu(), law.mu());
    assert_eq!(law.dim(), 4);
    for (got, want) in law.mu().iter().zip(v.iter().map(|x| x / norm)) {
        assert!(
            (got - want).abs() <= 2.0 * f64::EPSILON,
            "{got} against {want}"
        );
    }
    // ln_pdf is the free density at the renormalised mean.
    let x = [0.5, 0.5, -0.5, 0.5];
    assert_eq!(
        law.ln_pdf(&x).unwrap(),
        nivmf::log_density(&x, law.mu(), &kappas).unwrap()
    );
    assert!(matches!(
        NonIsotropicVmf::from_direction(&[0.0; 4], &kappas),
        Err(Error::OutOfDomain { arg: "v", .. })
    ));
    assert!(matches!(
        NonIsotropicVmf::from_direction(&[0.0, f64::NAN, 1.0, 0.0], &kappas),
        Err(Error::NotFiniteElement {
            arg: "v",
            index: 1,
            ..
        })
    ));
}

#[test]
fn a_gaussian_embedding_carries_its_kl() {
    // ½ Σ (μ² + σ² − 1 − ln σ²) at μ = (0.5, −1), σ² = (0.25, 2), by hand.
    let want = 0.5 * ((0.25 + 0.25 - 1.0 - 0.25f64.ln()) + (1.0 + 2.0 - 1.0 - 2f64.ln()));
    let x = HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &[0.5, -1.0],
        var: &[0.25, 2.0],
    })
    .unwrap();
    assert!((x.kl_to_standard_normal().unwrap() - want).abs() < 1e-15);
    assert_eq!(
        x.kl_to_standard_normal().unwrap(),
        hib::kl_to_standard_normal(&[0.5, -1.0], &[0.25, 2.0]).unwrap()
    );
    let mix = HedgedEmbedding::from_components(
        probdml::Gaussian {
            mu: &[0.0, 1.0],
            var: &[1.0, 1.0],
        },
        1,
    )
    .unwrap();
    assert!(matches!(
        mix.kl_to_standard_normal(),
        Err(Error::TooMany {
            arg: "components",
            max: 1,
            got: 2
        })
    ));
}
