//! The public paths and signatures that other tools rely on: they compile against them, so a
//! changed signature must fail here, at compile time, before it fails them.
use probdml::Result;

#[test]
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
    // The pointers are the functions themselves: a call through them behaves as documented.
    assert_eq!(kl(&[1.0, 0.0], 2.0, &[1.0, 0.0], 2.0).unwrap(), 0.0);
    // One dimension, point masses a = 0, p = 1, n = 3: τ = 1 − 9 = −8 exactly, Var τ = 0.
    assert_eq!(
        moments(&[0.0], &[0.0], &[1.0], &[0.0], &[3.0], &[0.0]).unwrap(),
        (-8.0, 0.0)
    );
}
