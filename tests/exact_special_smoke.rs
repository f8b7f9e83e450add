//! Smoke test of the exact (arbitrary-precision) special functions against mpmath.
//!
//! Every reference value below is mpmath's, printed to 50 significant digits with the working
//! precision at 80 digits (so that ln I₀(10⁻⁸) = ln(1 + 2.5·10⁻¹⁷) and the cancelling
//! parts of ln C_M(κ) at tiny κ keep 50 correct digits):
//!
//! ```text
//! python3 - <<'PY'
//! import mpmath as mp
//! mp.mp.dps = 80
//! lnI   = lambda nu, x: mp.log(mp.besseli(mp.mpf(nu), mp.mpf(x)))
//! ratio = lambda nu, x: mp.besseli(mp.mpf(nu) + 1, mp.mpf(x)) / mp.besseli(mp.mpf(nu), mp.mpf(x))
//! lnC   = lambda M, k: (mp.loggamma(mp.mpf(M)/2) - mp.log(2) - mp.mpf(M)/2*mp.log(mp.pi)) if k == 0 \
//!         else (mp.mpf(M)/2-1)*mp.log(mp.mpf(k)) - mp.mpf(M)/2*mp.log(2*mp.pi) - lnI(mp.mpf(M)/2-1, k)
//! print(mp.nstr(lnI(50000, 1e8), 50))   # etc., for each row
//! PY
//! ```
//!
//! (`mp.mpf(x)` of a Python float is its exact binary value, as `BigFloat::from_f64` here.)
//! The double-double results must match to [`EXACT_VS_TABLE`] = 10⁻²⁵ relative.
//!
//! `cargo test --release --test tests -- exact_special_smoke:: --ignored --nocapture` prints the time
//! of the slowest corners of the domain.

use astro_float::{BigFloat, Consts, Radix, RoundingMode};
use probdml::special::exact::{bessel_i_ratio, bessel_i_ratio_dd, log_bessel_i, log_bessel_i_dd};
use probdml::vmf::exact::{
    log_norm_const, log_norm_const_dd, mean_resultant_length, mean_resultant_length_dd,
};
use probdml_proofs::registry::budget::EXACT_VS_TABLE;

/// |hi + lo − reference| / |reference|, computed in 320-bit arithmetic.
fn relative_error((hi, lo): (f64, f64), reference: &str) -> f64 {
    let p = 320;
    let rm = RoundingMode::ToEven;
    let mut cc = Consts::new().expect("constants cache");
    let want = BigFloat::parse(reference, Radix::Dec, p, rm, &mut cc);
    let got = BigFloat::from_f64(hi, p).add(&BigFloat::from_f64(lo, p), p, rm);
    let error = got.sub(&want, p, rm).div(&want, p, rm).abs();
    // Round through a decimal string: plenty for an error estimate.
    let text = error.format(Radix::Dec, rm, &mut cc).expect("format");
    text.parse::<f64>().unwrap_or(f64::INFINITY)
}

fn check<T: std::fmt::Debug + Copy>(
    name: &str,
    args: T,
    dd: (f64, f64),
    single: f64,
    reference: &str,
) {
    let error = relative_error(dd, reference);
    assert!(
        error <= EXACT_VS_TABLE,
        "{name}{args:?} = {dd:?}: relative error {error:e} against mpmath {reference}"
    );
    assert_eq!(
        single, dd.0,
        "{name}{args:?}: the f64 function must return hi of the pair"
    );
}

/// (ν, x, ln I_ν(x)).
const LOG_BESSEL_I: &[(f64, f64, &str)] = &[
    (
        0.0,
        1.0,
        "0.23591435850717864868941484619995178055393731586844",
    ),
    (
        0.5,
        0.5,
        "-0.53104008831178197809335732074385905770062531314985",
    ),
    (
        0.5,
        10.0,
        "7.9297689182371507916479395777216284531066448243594",
    ),
    (
        0.0,
        1e-08,
        "2.5000000000000000889878041506423633369681089005863e-17",
    ),
    (
        1.0,
        0.001,
        "-7.6009023345420849448210777293470207537530082257545",
    ),
    (
        31.0,
        140.0,
        "133.18075830081623859912108419966647521426729051944",
    ),
    (
        50000.0,
        100000000.0,
        "99999977.370721293985798799232129258732124487170701",
    ),
    (
        0.0,
        100000000.0,
        "99999989.870721096069144528397704509961093212025884",
    ),
    (
        50000.0,
        10000.0,
        "-64638.060562040641154458884992321635790529728003278",
    ),
    (
        4095.0,
        1e-08,
        "-108241.4556455552414570874903371113930668046957535",
    ),
    (
        2.5,
        300.0,
        "296.2191535630805724605807716143011639113605042223",
    ),
    (
        1023.0,
        1000.0,
        "507.83022839542616002950345472217328315803107245271",
    ),
    (
        63.0,
        1000000.0,
        "999992.17132181182165800663490796384156413350862947",
    ),
    (
        255.0,
        50.0,
        "-338.46881198536164126704055374012180082329620756272",
    ),
    (
        0.1,
        7.3,
        "5.4048993254849715265692351075619091711899704154296",
    ),
    (
        12345.678,
        0.25,
        "-129641.45665900466228086649792057857650411101566905",
    ),
    (
        1.5,
        10000.0,
        "9994.4757912758069025318483538542113669805395641514",
    ),
    (
        7.25,
        5e-324,
        "-5411.2490254086788781238274036572421961531908919227",
    ),
];
/// (ν, x, I_{ν+1}(x)/I_ν(x)).
const BESSEL_I_RATIO: &[(f64, f64, &str)] = &[
    (
        0.0,
        1.0,
        "0.44638996589653450704768179519264266977625314740039",
    ),
    (
        0.5,
        10.0,
        "0.90000000412230725337382418402808031246018002675622",
    ),
    (
        50000.0,
        100000000.0,
        "0.99950011999999342500068424991474219896101246501151",
    ),
    (
        4095.0,
        1e-08,
        "0.0000000000012207031250000000255402335697949980164878755487949",
    ),
    (
        0.0,
        100000000.0,
        "0.99999999499999998749999987499999804687495937499895",
    ),
    (
        50000.0,
        10000.0,
        "0.099017590551762574841698320674836100303153970796596",
    ),
    (
        31.0,
        140.0,
        "0.79938431132992286743991237618765124349378320859496",
    ),
    (
        0.1,
        7.3,
        "0.91515054563274646620350496191794025156282638068143",
    ),
    (
        0.0,
        1e-08,
        "0.0000000050000000000000000421128041506423604953196814640172",
    ),
    (
        1023.0,
        1000.0,
        "0.40732521742901223283813865173812543921271915281257",
    ),
    (
        2.5,
        0.5,
        "0.071146952173483250658367813517479161337163658240555",
    ),
];
/// (M, κ, ln C_M(κ)).
const LOG_NORM_CONST: &[(usize, f64, &str)] = &[
    (
        128,
        50.0,
        "117.90685868532626415444985910485012786453722215371",
    ),
    (
        512,
        50.0,
        "865.53814936874644242329317961763629023156992599898",
    ),
    (
        2048,
        100.0,
        "4895.9453547638454986050742354355944459326851001906",
    ),
    (
        3,
        5.0,
        "-5.2283937530148746197503956932251687313690051330369",
    ),
    (
        3,
        0.0,
        "-2.5310242469692907929778915942694118477982950816358",
    ),
    (
        2,
        0.0,
        "-1.8378770664093454835606594728112352797227949472756",
    ),
    (
        2048,
        0.0,
        "4898.3838626541049373217507796281553390742913090696",
    ),
    (
        128,
        200.0,
        "29.603896232064596705138403196346104455300275056551",
    ),
    (
        100000,
        1e-08,
        "433747.2358319212530789863607100152376599557898439",
    ),
    (
        2048,
        1e-08,
        "4898.3838626541049373217263655656553390732696999448",
    ),
    (
        512,
        1000000.0,
        "-996939.68213051663570997373780092657742217612948609",
    ),
];
/// (M, κ, A_M(κ)).
const MEAN_RESULTANT_LENGTH: &[(usize, f64, &str)] = &[
    (
        3,
        5.0,
        "0.80009080398201937553665792052168760383054743752189",
    ),
    (
        512,
        50.0,
        "0.096745705070352118310273834977627605520169963594064",
    ),
    (
        2048,
        100000000.0,
        "0.99998976505232643802189535476355559207426046512566",
    ),
    (
        2,
        1e-08,
        "0.0000000050000000000000000421128041506423604953196814640172",
    ),
    (
        100000,
        1000.0,
        "0.0099990002199376203607066373030658071963843352140005",
    ),
    (
        128,
        140.0,
        "0.64361486191781799677529279485368536737274877435764",
    ),
];

#[test]
fn log_bessel_i_matches_mpmath() {
    for &(nu, x, reference) in LOG_BESSEL_I {
        check(
            "log_bessel_i",
            (nu, x),
            log_bessel_i_dd(nu, x),
            log_bessel_i(nu, x),
            reference,
        );
    }
}

#[test]
fn bessel_i_ratio_matches_mpmath() {
    for &(nu, x, reference) in BESSEL_I_RATIO {
        check(
            "bessel_i_ratio",
            (nu, x),
            bessel_i_ratio_dd(nu, x),
            bessel_i_ratio(nu, x),
            reference,
        );
    }
}

#[test]
fn log_norm_const_matches_mpmath() {
    for &(dim, kappa, reference) in LOG_NORM_CONST {
        check(
            "log_norm_const",
            (dim, kappa),
            log_norm_const_dd(dim, kappa),
            log_norm_const(dim, kappa),
            reference,
        );
    }
}

#[test]
fn mean_resultant_length_matches_mpmath() {
    for &(dim, kappa, reference) in MEAN_RESULTANT_LENGTH {
        check(
            "mean_resultant_length",
            (dim, kappa),
            mean_resultant_length_dd(dim, kappa),
            mean_resultant_length(dim, kappa),
            reference,
        );
    }
}

/// The spot values of book chapter 01, to the 12 digits it prints.
#[test]
fn spec_spot_values() {
    assert!((log_norm_const(128, 50.0) - 117.906858685).abs() < 1e-9);
    assert!((log_norm_const(512, 50.0) - 865.538149369).abs() < 1e-9);
    // Known error 4: at M = 128, κ = 200 the exact value is 29.604.
    assert!((log_norm_const(128, 200.0) - 29.604).abs() < 1e-3);
}

/// I_{1/2}(x) = √(2/(πx)) sinh x and I_{3/2}/I_{1/2} = coth x − 1/x, in f64 where those closed
/// forms are accurate (moderate x).
#[test]
fn half_order_closed_forms() {
    for &x in &[0.3, 1.0, 2.5, 7.0, 20.0] {
        let closed = (2.0 / (std::f64::consts::PI * x)).sqrt().ln() + x.sinh().ln();
        let got = log_bessel_i(0.5, x);
        assert!(
            (got - closed).abs() <= 2e-15 * closed.abs().max(1.0),
            "x = {x}: {got} vs {closed}"
        );
        let ratio = 1.0 / x.tanh() - 1.0 / x;
        let got = bessel_i_ratio(0.5, x);
        // coth x − 1/x cancels at small x: the f64 closed form is only good to ~ulp(coth x).
        let closed_form_error = 4e-16 * (1.0 / x.tanh() + 1.0 / x);
        assert!(
            (got - ratio).abs() <= closed_form_error,
            "x = {x}: {got} vs {ratio}"
        );
    }
}

/// The recurrence I_{ν−1} − I_{ν+1} = (2ν/x) I_ν (A&S 9.6.26), in the form
/// I_{ν−1}/I_ν = 2ν/x + I_{ν+1}/I_ν, with both ratios from the exact twin.
#[test]
fn three_term_recurrence() {
    for &(nu, x) in &[
        (1.0, 0.5),
        (2.5, 3.0),
        (31.0, 140.0),
        (1000.0, 10.0),
        (1.75, 1e4),
    ] {
        let down = 1.0 / bessel_i_ratio(nu - 1.0, x);
        let up = 2.0 * nu / x + bessel_i_ratio(nu, x);
        assert!((down - up).abs() <= 4e-15 * down, "nu = {nu}, x = {x}");
    }
}

/// The κ → 0 limit of ln C_M is continuous and A_M(κ) ≈ κ/M there.
#[test]
fn small_kappa_limits() {
    for &dim in &[2usize, 3, 128, 2048] {
        let at_zero = log_norm_const(dim, 0.0);
        let near_zero = log_norm_const(dim, 1e-150);
        assert!(
            (at_zero - near_zero).abs() <= 1e-15 * at_zero.abs().max(1.0),
            "M = {dim}"
        );
        let a = mean_resultant_length(dim, 1e-150);
        assert!((a / (1e-150 / dim as f64) - 1.0).abs() < 1e-15, "M = {dim}");
    }
}

#[test]
fn edges_and_bad_input() {
    assert_eq!(log_bessel_i_dd(0.0, 0.0), (0.0, 0.0));
    assert_eq!(log_bessel_i(2.5, 0.0), f64::NEG_INFINITY);
    assert_eq!(log_bessel_i(0.0, -0.0), 0.0);
    assert_eq!(bessel_i_ratio_dd(0.0, 0.0), (0.0, 0.0));
    assert_eq!(bessel_i_ratio(7.0, 0.0), 0.0);
    assert_eq!(mean_resultant_length(3, 0.0), 0.0);
    // ln I₀(10⁻³⁰⁰) = 2.5·10⁻⁶⁰¹ underflows to +0.
    assert_eq!(log_bessel_i(0.0, 1e-300), 0.0);
    for (nu, x) in [
        (-1.0, 1.0),
        (1.0, -1.0),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (f64::INFINITY, 1.0),
        (1.0, f64::INFINITY),
        (0.0, 1e11),
    ] {
        assert!(log_bessel_i(nu, x).is_nan(), "({nu}, {x})");
        assert!(bessel_i_ratio(nu, x).is_nan(), "({nu}, {x})");
        let (hi, lo) = log_bessel_i_dd(nu, x);
        assert!(hi.is_nan() && lo.is_nan());
    }
    for (dim, kappa) in [
        (0usize, 1.0),
        (1, 1.0),
        (3, -1.0),
        (3, f64::NAN),
        (3, f64::INFINITY),
    ] {
        assert!(log_norm_const(dim, kappa).is_nan(), "({dim}, {kappa})");
        assert!(
            mean_resultant_length(dim, kappa).is_nan(),
            "({dim}, {kappa})"
        );
    }
}

/// Times the slowest corners of the domain the crate supports (run in release, `--ignored --nocapture`).
#[test]
#[ignore = "timing report, run on demand"]
fn corner_timings() {
    use std::time::Instant;
    for &(nu, x) in &[
        (0.0, 1e8),
        (5e4, 1e8),
        (5e4, 1e4),
        (4095.0, 1e-8),
        (0.5, 1e3),
        (0.0, 1e10),
    ] {
        let start = Instant::now();
        let value = log_bessel_i(nu, x);
        let log_time = start.elapsed();
        let start = Instant::now();
        let ratio = bessel_i_ratio(nu, x);
        let ratio_time = start.elapsed();
        println!("nu = {nu:>8}, x = {x:>8e}: ln I = {value:.17e} in {log_time:?}; ratio = {ratio:.17e} in {ratio_time:?}");
    }
}
