//! `VonMisesFisher`'s distribution methods against closed forms derived independently of the
//! crate's kernels: at `M = 3` every quantity is elementary (`I_{1/2}`, `I_{3/2}` are
//! `sinh`/`cosh` expressions), so `ln C_3(κ) = ln κ − ln(4π sinh κ)` and
//! `A_3(κ) = coth κ − 1/κ`.
use probdml::rand::{rngs::StdRng, SeedableRng};
use probdml::vmf::VonMisesFisher;
use probdml::Error;
use std::f64::consts::PI;

fn ln_c3(kappa: f64) -> f64 {
    kappa.ln() - (4.0 * PI * kappa.sinh()).ln()
}

fn a3(kappa: f64) -> f64 {
    1.0 / kappa.tanh() - 1.0 / kappa
}

fn close(got: f64, want: f64, tol: f64) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "got {got:e}, want {want:e}, |Δ| = {:e}",
        (got - want).abs()
    );
}

#[test]
fn methods_match_the_elementary_m3_forms() {
    let (c, s) = (0.7_f64.cos(), 0.7_f64.sin());
    for kappa in [0.5, 2.0, 9.0, 40.0] {
        let law = VonMisesFisher::new(&[c, s, 0.0], kappa).unwrap();
        let x = [0.0, 0.6, 0.8];
        let t = s * 0.6;
        close(law.ln_pdf(&x).unwrap(), ln_c3(kappa) + kappa * t, 1e-14);
        close(law.entropy(), -ln_c3(kappa) - kappa * a3(kappa), 1e-14);
        close(law.mean_resultant_length(), a3(kappa), 1e-14);
        let mean = law.mean();
        close(mean[0], a3(kappa) * c, 1e-14);
        close(mean[1], a3(kappa) * s, 1e-14);
        assert_eq!(mean[2], 0.0);
        assert_eq!(law.natural(), vec![kappa * c, kappa * s, 0.0]);
        // KL to uniform = −H + ln|S²| = −H + ln 4π.
        close(
            law.kl_to_uniform(),
            ln_c3(kappa) + kappa * a3(kappa) + (4.0 * PI).ln(),
            1e-13,
        );
        // KL and the Bhattacharyya distance to the mirrored law vMF((c, −s, 0), κ/2).
        let other = VonMisesFisher::new(&[c, -s, 0.0], kappa / 2.0).unwrap();
        let cos_angle = c * c - s * s;
        let kl = ln_c3(kappa) - ln_c3(kappa / 2.0) + a3(kappa) * (kappa - kappa / 2.0 * cos_angle);
        close(law.kl(&other).unwrap(), kl, 1e-12);
        let nu_sum = [kappa * c + kappa / 2.0 * c, kappa * s - kappa / 2.0 * s];
        let r = 0.5 * (nu_sum[0] * nu_sum[0] + nu_sum[1] * nu_sum[1]).sqrt();
        let d_b = -(0.5 * ln_c3(kappa) + 0.5 * ln_c3(kappa / 2.0) - ln_c3(r));
        close(law.bhattacharyya(&other).unwrap(), d_b, 1e-12);
        assert_eq!(law.kl(&law).unwrap(), 0.0);
    }
}

#[test]
fn fit_recovers_the_law_it_was_sampled_from() {
    // n = 20 000 draws, M = 8, κ = 30: κ̂'s standard error is about κ/√n·√(M/2)… < 0.6, so a band
    // of 3 is over 5 standard errors; μ̂ is within ~√((M−1)/(nκ)) ≈ 0.0034 rad of μ.
    let mut mu = [0.0; 8];
    mu[3] = 1.0;
    let truth = VonMisesFisher::new(&mu, 30.0).unwrap();
    let mut rng = StdRng::seed_from_u64(11);
    let rows: Vec<f64> = (0..20_000).flat_map(|_| truth.sample(&mut rng)).collect();
    let fit = VonMisesFisher::fit(&rows, 8).unwrap();
    assert!((fit.kappa() - 30.0).abs() < 3.0, "κ̂ = {}", fit.kappa());
    assert!(fit.mu()[3] > 1.0 - 0.02_f64.powi(2), "μ̂ = {:?}", fit.mu());
}

#[test]
fn from_direction_normalises_and_names_bad_input() {
    // A μ normalised in f32 is off by ~10⁻⁸: `new` accepts it and renormalises it in f64, as
    // `from_direction` does for a direction of any length.
    let v: Vec<f64> = [0.36_f32, 0.48, 0.8]
        .iter()
        .map(|&x| f64::from(x))
        .collect();
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    assert!((norm - 1.0).abs() > 1e-9);
    let law = VonMisesFisher::from_direction(&v, 1.0).unwrap();
    let by_new = VonMisesFisher::new(&v, 1.0).unwrap();
    for ((m, n), x) in law.mu().iter().zip(by_new.mu()).zip(&v) {
        close(*m, x / norm, 1e-15);
        close(*n, x / norm, 1e-15);
    }
    // Huge and tiny directions normalise without overflow or underflow.
    let big = VonMisesFisher::from_direction(&[3e300, 4e300], 1.0).unwrap();
    assert_eq!(big.mu(), &[0.6, 0.8]);
    let tiny = VonMisesFisher::from_direction(&[3e-320, 4e-320], 1.0).unwrap();
    close(tiny.mu()[0], 0.6, 1e-3); // subnormal inputs carry ~3 digits
    assert!(matches!(
        VonMisesFisher::from_direction(&[0.0, 0.0], 1.0),
        Err(Error::OutOfDomain { arg: "v", .. })
    ));
    assert!(matches!(
        VonMisesFisher::from_direction(&[1.0, f64::NAN], 1.0),
        Err(Error::NotFinite { arg: "v", .. })
    ));
    assert!(matches!(
        VonMisesFisher::from_direction(&[1.0, 0.0], -1.0),
        Err(Error::OutOfDomain { arg: "kappa", .. })
    ));
    assert!(matches!(
        VonMisesFisher::from_direction(&[1.0], 1.0),
        Err(Error::InvalidDimension { arg: "v", .. })
    ));
    let a = VonMisesFisher::new(&[1.0, 0.0], 1.0).unwrap();
    let b = VonMisesFisher::new(&[1.0, 0.0, 0.0], 1.0).unwrap();
    assert!(a.kl(&b).is_err() && a.bhattacharyya(&b).is_err());
    assert!(a.ln_pdf(&[1.0, 0.0, 0.0]).is_err());
    // Every sample identical: R̄ = 1, κ̂ = ∞ is an error, not an infinite κ.
    assert!(VonMisesFisher::fit(&[1.0, 0.0, 1.0, 0.0], 2).is_err());
}
