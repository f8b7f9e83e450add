//! Worked values of the vMF normaliser and of the κ estimators, fast against exact.
//!
//! Run with `cargo run --release --example worked_values`.
//!
//! Numbers are printed in Rust's shortest round-trip form: every digit shown is a digit of the
//! `f64`, none is padding.
//!
//! Two tables, over embedding dimensions M ∈ {3, 128, 512, 2048, 10000} and a few κ:
//!
//! 1. ln C_M(κ) and A_M(κ) = I_{M/2}(κ)/I_{M/2−1}(κ): the fast twin, the 256-bit exact twin and
//!    their difference in the measure the registry budgets it by (`max(1, |exact|)`-scaled for
//!    the logarithm, relative for the ratio).
//! 2. κ recovered from R̄ = A_M(κ) (exact): Banerjee's start (0 Newton steps, what LAM uses),
//!    Sra's κ̂₁ and κ̂₂ (1 and 2 steps), and the MLE (the root of A_M(κ) = R̄), with the relative
//!    error of each estimator against the MLE.
//!
//! Rows marked `*` are points where `scipy.stats.vonmises_fisher` (SciPy 1.17.1) returns
//! `logpdf = +inf` and `entropy = NaN`: it forms ln C_M(κ) through
//! `ln(ive(M/2 − 1, κ)) + κ`, and the scaled Bessel function `ive` underflows to 0 there.

use probdml::vmf;

/// Embedding dimensions: the circle's neighbour S², then the sizes the papers train with.
const DIMS: [usize; 5] = [3, 128, 512, 2048, 10_000];
/// Concentrations from nearly uniform to sharply peaked; nivMF sees norms 46–140 at M = 512.
const KAPPAS: [f64; 5] = [1.0, 5.0, 50.0, 100.0, 1000.0];
/// (M, κ) where SciPy's vonmises_fisher overflows (see the module docs).
const SCIPY_INF: [(usize, f64); 2] = [(512, 5.0), (2048, 100.0)];

fn main() {
    let points: Vec<(usize, f64)> = DIMS
        .iter()
        .flat_map(|&dim| KAPPAS.iter().map(move |&kappa| (dim, kappa)))
        .collect();

    normaliser_table(&points);
    println!();
    kappa_table(&points);
    println!();
    println!(
        "* scipy.stats.vonmises_fisher (SciPy 1.17.1) returns logpdf = +inf and entropy = NaN at \
         this point: ive(M/2 - 1, kappa) underflows to 0 inside its ln C_M(kappa)."
    );
}

/// Table 1: ln C_M(κ) and A_M(κ), fast against exact.
fn normaliser_table(points: &[(usize, f64)]) {
    println!("ln C_M(kappa) and A_M(kappa) = I_(M/2)(kappa) / I_(M/2-1)(kappa): fast vs exact");
    println!(
        "{:>6} {:>7}  {:>22} {:>22} {:>10}  {:>22} {:>22} {:>10}",
        "M", "kappa", "ln C fast", "ln C exact", "dlnC/max1", "A fast", "A exact", "dA/A"
    );
    for &(dim, kappa) in points {
        let ln_c = vmf::log_norm_const(dim, kappa);
        let ln_c_exact = vmf::exact::log_norm_const(dim, kappa);
        // The registry's AbsOrRel measure: absolute near the zero crossings of the logarithm.
        let ln_c_err = (ln_c - ln_c_exact).abs() / ln_c_exact.abs().max(1.0);
        let a = vmf::mean_resultant_length(dim, kappa);
        let a_exact = vmf::exact::mean_resultant_length(dim, kappa);
        let a_err = relative_error(a, a_exact);
        println!(
            "{:>6} {:>7}{} {:>22} {:>22} {:>10.2e}  {:>22} {:>22} {:>10.2e}",
            dim,
            kappa,
            scipy_mark(dim, kappa),
            ln_c,
            ln_c_exact,
            ln_c_err,
            a,
            a_exact,
            a_err
        );
    }
}

/// Table 2: κ̂ from R̄ = A_M(κ) by Banerjee, Sra (1 and 2 Newton steps) and the MLE.
fn kappa_table(points: &[(usize, f64)]) {
    println!("kappa from Rbar = A_M(kappa) (exact): Banerjee (0 steps), Sra (1, 2 steps), MLE");
    println!(
        "{:>6} {:>7}  {:>22} {:>22} {:>22} {:>22} {:>22}  {:>9} {:>9} {:>9} {:>9}",
        "M",
        "kappa",
        "Rbar",
        "Banerjee",
        "Sra 1",
        "Sra 2",
        "MLE",
        "err 0",
        "err 1",
        "err 2",
        "|MLE-k|/k"
    );
    for &(dim, kappa) in points {
        let rbar = vmf::exact::mean_resultant_length(dim, kappa);
        let mle = vmf::kappa_mle(dim, rbar);
        let mle_value = mle.as_ref().copied().unwrap_or(f64::NAN);
        let sra: Vec<Result<f64, probdml::Error>> = (0..=2)
            .map(|steps| vmf::kappa_sra(dim, rbar, steps))
            .collect();
        let err = |estimate: &Result<f64, probdml::Error>| match estimate {
            Ok(value) => format!("{:>9.1e}", relative_error(*value, mle_value)),
            Err(_) => format!("{:>9}", "error"),
        };
        println!(
            "{:>6} {:>7}{} {:>22} {} {} {} {}  {} {} {} {:>9.1e}",
            dim,
            kappa,
            scipy_mark(dim, kappa),
            rbar,
            cell(&sra[0]),
            cell(&sra[1]),
            cell(&sra[2]),
            cell(&mle),
            err(&sra[0]),
            err(&sra[1]),
            err(&sra[2]),
            // The round trip κ → A_M(κ) → κ̂_MLE.
            relative_error(mle_value, kappa)
        );
    }
}

/// `|value − reference| / |reference|`, or NaN when either is NaN.
fn relative_error(value: f64, reference: f64) -> f64 {
    (value - reference).abs() / reference.abs()
}

/// An estimate (shortest round-trip form, so no digit beyond `f64`'s is shown), or the word
/// "error" in its place.
fn cell(estimate: &Result<f64, probdml::Error>) -> String {
    match estimate {
        Ok(value) => format!("{value:>22}"),
        Err(_) => format!("{:>22}", "error"),
    }
}

fn scipy_mark(dim: usize, kappa: f64) -> char {
    if SCIPY_INF.contains(&(dim, kappa)) {
        '*'
    } else {
        ' '
    }
}
