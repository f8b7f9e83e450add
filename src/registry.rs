//! The derivation registry: one list of every derivation the crate implements, with the paper
//! and equation it comes from, its error budget and the reason for that budget.
//!
//! This is the single place for tolerances (as statrs' `prec.rs` and libm's `precision.rs`):
//! proofs and tests read budgets from here by name ([`budget`]) instead of writing literals.
//! The list is a macro invocation (`registry!`, as libm's function list): each entry names its
//! fast item and its exact twin as Rust paths, which the compiler resolves, so a missing or
//! renamed function fails to compile; an entry without an exact twin says why
//! (`no_exact_because`). Each entry also names the source file that defines it.
//! `tests/registry_coverage.rs` fails when an entry has no proof file in `proofs/`, no bench in
//! `benches/`, no docs chapter in `docs/src/` that names it, or paths and files that disagree.

/// How "fast ≈ exact" is measured for one derivation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// `|fast − exact| ≤ tol · max(1, |exact|)`: absolute near zero, relative elsewhere. The
    /// natural budget for logarithms, whose zero crossings carry no relative meaning.
    AbsOrRel(f64),
    /// `|fast − exact| ≤ tol · |exact|`.
    Relative(f64),
    /// Closed form against numerical quadrature: relative `tol`.
    Quadrature(f64),
    /// A sampler judged by a Kolmogorov–Smirnov or χ² test at significance `alpha` with fixed
    /// seeds, and by moment checks inside a computed `sigmas`-σ Monte Carlo band.
    Statistical {
        /// Significance level of the goodness-of-fit test.
        alpha: f64,
        /// Width of the Monte Carlo band in standard errors.
        sigmas: f64,
    },
}

/// The reference twin of a derivation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Twin {
    /// The path of the `exact` twin, e.g. `"crate::special::exact::log_bessel_i"` (the macro
    /// that builds the registry makes the compiler resolve it).
    Exact(&'static str),
    /// There is no `exact` twin, and why not (what the proof checks the fast item against instead).
    NotNeeded(&'static str),
}

/// One derivation: what it is, where it comes from, how well the fast twin must match.
#[derive(Debug, Clone, Copy)]
pub struct Derivation {
    /// Public path of the fast implementation without the crate, e.g. `"special::log_bessel_i"`
    /// or `"vmf::VonMisesFisher::sample"`.
    pub name: &'static str,
    /// The fast item as the registry names it to the compiler, e.g.
    /// `"crate::special::log_bessel_i"` (generic items carry their instantiation).
    pub fast: &'static str,
    /// The exact twin, or the reason there is none.
    pub exact: Twin,
    /// The source file that defines the fast item, relative to the crate root: registry → code
    /// in one hop.
    pub file: &'static str,
    /// Paper and equation (or spec chapter) it implements.
    pub source: &'static str,
    /// The error budget of fast against exact.
    pub budget: Budget,
    /// One line: why this budget.
    pub reason: &'static str,
    /// The proof file in `proofs/` that establishes the budget and the paper's claims.
    pub proof: &'static str,
    /// The criterion bench file in `benches/` that times exact against fast.
    pub bench: &'static str,
    /// The docs chapter in `docs/src/` that shows worked numbers for it.
    pub chapter: &'static str,
}

/// Named budgets, used by the registry below and by every proof and test.
pub mod budget {
    /// ln I_ν(x), ln C_M(κ), and the log density: `|Δ| ≤ 4e−15 · max(1, |exact|)` (spec
    /// README): about 18 ulp of the result, room for a handful of correctly rounded operations.
    pub const LOG_SPECIAL: f64 = 4e-15;
    /// I_{ν+1}/I_ν and A_M(κ): relative 1e−14 (spec README).
    pub const RATIO: f64 = 1e-14;
    /// Closed form against adaptive quadrature (spec README).
    pub const QUADRATURE: f64 = 1e-9;
    /// Goodness-of-fit significance for sampler tests (spec README).
    pub const SAMPLER_ALPHA: f64 = 1e-6;
    /// Width of Monte Carlo bands in computed standard errors (spec README).
    pub const MONTE_CARLO_SIGMAS: f64 = 6.0;
    /// The exact twins against the committed 50-digit mpmath table (chapter 01).
    pub const EXACT_VS_TABLE: f64 = 1e-25;
    /// κ round trip κ → A_M(κ) → `kappa_mle` (chapter 02).
    pub const KAPPA_ROUND_TRIP: f64 = 1e-12;
    /// Sra's estimator with two Newton steps against the MLE (chapter 02).
    pub const KAPPA_SRA2: f64 = 1e-10;
    /// 1 − A_M(κ) against quadrature: relative 10⁻¹³ (below κ = 50 it is formed as 1 − A_M from
    /// the ratio, whose 10⁻¹⁴ relative error is amplified by A_M/(1 − A_M) ≤ 10).
    pub const COMPLEMENT: f64 = 1e-13;
    /// Unit norm of vMF samples (chapter 02).
    pub const UNIT_NORM: f64 = 1e-15;
    /// Chapter-08 metrics, fast against exact: |Δ| ≤ 10⁻¹² (spec 08). Metrics that are ratios
    /// of integers (recall@k, AUROC, τ-b, ECE bin counts) agree exactly and the proofs assert
    /// equality; sums of the same terms in another order (suffix sums, closed-form bin
    /// confidences) stay within a few ulp of values in [−1, 1].
    pub const METRIC: f64 = 1e-12;
    /// Chapter-08 metrics against scikit-learn 1.7.2, SciPy 1.16.3 and the plain-Python
    /// definitions (tests/data/metrics_reference.tsv): numpy's pairwise summation against
    /// sequential sums, |Δ| ≤ 10⁻¹² on values in [−1, 1].
    pub const METRIC_REFERENCE: f64 = 1e-12;
    /// Chapter-03 losses and gradients, fast (Gram matrix) against exact (explicit compensated
    /// pairs): `|Δ| ≤ 10⁻¹³·max(1, |exact|)`. d² = 2 − 2z_iᵀz_j has absolute error
    /// ≤ 2γ_{⌈M/4⌉+2} ≈ 3·10⁻¹⁴ at M = 512 (square roots take the explicit d² below d² = ¼), and
    /// a loss is a weighted mean of per-pair terms, so its error is absolute; L → 0 for tight
    /// clusters with far negatives, where a relative budget has no meaning.
    pub const CONTRASTIVE_LOSS: f64 = 1e-13;
    /// The vMF likelihood of chapter 03, relative to S = |P|·max(1, |ln C_M(κ_P)|) +
    /// |N_m|·max(1, |ln C_M(κ_N)|): a sum of n² logarithms with budget 4·10⁻¹⁵ each, plus the
    /// rounding of the Gram sums.
    pub const LIKELIHOOD: f64 = 1e-14;
    /// Exhaustive minibatch expectations against the full-data loss, gradient and Hessian
    /// (chapter 03): `|Δ| ≤ 10⁻¹²·max(1, |·|)` for averages of up to 3·10⁵ batch values.
    pub const RESCALING: f64 = 1e-12;
    /// Chapter-04 curvature, closed form against the hyper-dual dense reference: entrywise
    /// |Δ| ≤ 10⁻¹² · max|exact| (spec README, "dense vs diagonal linear algebra": relative 1e−12
    /// after scaling by the matrix norm).
    pub const GGN: f64 = 1e-12;
    /// Chapter-04 Laplace, diagonal against dense (precision, Cholesky draw) and the online and
    /// predictive identities: relative 10⁻¹² (spec README, "dense vs diagonal linear algebra";
    /// the Cholesky route adds one square root and one division per coordinate).
    pub const LAPLACE: f64 = 1e-12;
    /// The evidence-maximising prior precision of the dense twin (golden section, then bisection
    /// on the sign of the dense derivative) against the fast fixed-point root, in ln δ*:
    /// |Δ| ≤ 10⁻¹²·(P + 8P²·max h/δ*)/(Σq(1 − q) + δ*‖θ*‖²). The numerator bounds the rounding of
    /// γ (P terms, and the ~8P²ε·max h of a rotated dense H), the denominator is the slope of
    /// γ(δ) − δ‖θ*‖² in ln δ: the root's condition number, computed per case.
    pub const EVIDENCE_ARGMAX: f64 = 1e-12;
    /// Chapter-06 KL between vMFs (and `d_B`) where `κ_z ≈ κ_p`: relative `10⁻¹²` against the
    /// closed form in double-double. The fast KL is the Bregman divergence of `ln C_M`, summed as
    /// a Taylor series in `κ_p − κ_z` (Riccati recursion from `A_M` and `A_M'`) near `κ_z` or as
    /// the Gauss–Legendre integral of `A_M'` farther out, each with a positive leading term and
    /// `A_M'` relatively accurate to `~10⁻¹³` at worst (the Riccati band at small `M ≠ 3`), so
    /// its relative error does not grow as the two `ln C_M` cancel.
    pub const NIVMF_KL_NEAR: f64 = 1e-12;
    /// ProxyNCA++ loss and distances, fast against the reference (256-bit ln C_M, compensated
    /// sums): `|Δ| ≤ 10⁻¹²·max(1, |·|)`; the distances are differences of normalisers of size
    /// up to ~10³ at the tested M, each within `4·10⁻¹⁵` relative.
    pub const NIVMF_PROXY_LOSS: f64 = 1e-12;
    /// ProxyNCA++ analytic gradients against forward-mode (`num-dual`) derivatives of the loss
    /// written with elementary `ln C_3`, `A_3`: relative `10⁻⁹` of the largest entry (the fast
    /// `A_M` and `ln C_M` against the elementary `coth`, `ln sinh`, amplified by `1/t` and the sums).
    pub const NIVMF_PROXY_GRADIENT: f64 = 1e-9;
    /// ProxyNCA++ gradients against the reference's 4th-order central differences: relative
    /// `10⁻⁷` of the largest entry (truncation `O(h⁴)` at `h = 10⁻³`, rounding `~ε·|L|/h`).
    pub const NIVMF_PROXY_FD: f64 = 1e-7;
    /// Chapter 09 (training): a trained network's ℓ₂-normalised `f32` output is a unit vector
    /// to `|‖x‖ − 1| ≤ 10⁻³`. `f32` normalisation leaves norms within a few ulp (~10⁻⁷) of 1;
    /// 10⁻³ accepts that with a wide margin and still rejects an output never normalised.
    pub const F32_UNIT_NORM: f64 = 1e-3;
    /// Chapter 09: a raw network output `y = Wx + b` with `‖y‖` below 10⁻⁶ has collapsed (a
    /// healthy model's ‖y‖ is O(1), `f32` resolves 10⁻³⁸): its direction `y/‖y‖` is noise and
    /// the GGN of the normalisation is undefined, so training stops there.
    pub const COLLAPSED_OUTPUT_NORM: f64 = 1e-6;
    /// Chapter-05 law of a Gaussian quadratic form: `|Δ ln P| ≤ 10⁻¹⁰·max(1, |ln P|)` against
    /// closed forms and mpmath. The contour integral is taken to relative 10⁻¹² (absolute 10⁻¹²
    /// in `ln P`), and `ln P = A + ln I` adds the rounding of the cumulant `A` summed over up to
    /// 4096 terms; the contract asks 10⁻⁸ relative in `ln P` down to `ln P ≈ −700`.
    pub const QUADRATIC_FORM: f64 = 1e-10;
    /// Chapter 07: the exact match probability's routes against each other and against the
    /// mpmath values (issue 11): `|Δ| ≤ 10⁻⁹` absolute …
    pub const HIB_MATCH_ABSOLUTE: f64 = 1e-9;
    /// … and `|Δ| ≤ 10⁻⁶ p` where `p < 10⁻⁶` (tails, where an absolute bound says nothing).
    pub const HIB_MATCH_RELATIVE_TAIL: f64 = 1e-6;
    /// Chapter 07: the largest error of the moment-matched (Jensen–Solomon) match probability
    /// against the exact one over the grid of `proofs/hib_moment_matched.rs`, as measured there:
    /// 4.37·10⁻² (at D = 2, δ = 0, a tenfold anisotropy and a steep sigmoid, a = 8, b = 3; the
    /// median error is far smaller, see the book's chapter 07).
    pub const HIB_MOMENT_MATCHED: f64 = 5e-2;
    /// Chapter 07: the VIB loss and its hand-derived gradient against the dual-number twin,
    /// `|Δ| ≤ 10⁻¹²·max(1, |exact|)`: the same sums in another order, plus the log-sum-exp.
    pub const HIB_VIB: f64 = 1e-12;
    /// Chapter-05 moments of τ, per-dimension closed form against the dense `3D × 3D` quadratic
    /// form (`faer`): `|ΔE| ≤ 10⁻¹²·Σ_d(d_p² + d_n² + σ_p² + σ_n²)` (E τ is a difference of
    /// those terms) and `|ΔVar| ≤ 10⁻¹²·Var` (both sides are sums of non-negative terms; the
    /// dense side adds the rounding of two 3D-dimensional products per entry).
    pub const TRIPLET_MOMENTS: f64 = 1e-12;
    /// Chapter-05 gradient of the batch NLL, closed form against dual numbers through the dense
    /// moments and the 256-bit `ln Φ`: entrywise `|Δ| ≤ 10⁻¹⁰·max|exact|` over the batch (the
    /// hazard φ/Φ is formed from `ln Φ` by one `exp`, whose argument is as large as `z²/2`).
    pub const TRIPLET_GRADIENT: f64 = 1e-10;
}

/// Builds [`DERIVATIONS`] from entries of the form
///
/// ```text
/// special::log_bessel_i => {
///     fast: crate::special::log_bessel_i,
///     exact: crate::special::exact::log_bessel_i,     // or  no_exact_because: "…",
///     file: "src/special/log_bessel_i.rs",
///     source: "…", budget: Budget::…, reason: "…",
///     proof: "special_bessel.rs", bench: "special.rs", chapter: "01-special.md",
/// },
/// ```
///
/// and a function that is never called but must compile: it names every `fast` and `exact` item,
/// so a missing or renamed function is a compile error, as in libm's function list.
/// `tests/registry_coverage.rs` checks the rest: that `fast` is `crate::` + the name, that the
/// exact twin sits at the same path under `exact::`, and that `file` defines the item.
macro_rules! registry {
    (@twin $exact:expr ; ) => {
        Twin::Exact(stringify!($exact))
    };
    (@twin ; $reason:literal) => {
        Twin::NotNeeded($reason)
    };
    ($(
        $first:ident $(:: $rest:ident)* => {
            fast: $fast:expr,
            $(exact: $exact:expr,)?
            $(no_exact_because: $no_exact:literal,)?
            file: $file:literal,
            source: $source:expr,
            budget: $budget:expr,
            reason: $reason:expr,
            proof: $proof:literal,
            bench: $bench:literal,
            chapter: $chapter:literal $(,)?
        }
    ),* $(,)?) => {
        /// Every derivation in the crate.
        pub static DERIVATIONS: &[Derivation] = &[$(
            Derivation {
                name: concat!(stringify!($first) $(, "::", stringify!($rest))*),
                fast: stringify!($fast),
                exact: registry!(@twin $($exact)? ; $($no_exact)?),
                file: $file,
                source: $source,
                budget: $budget,
                reason: $reason,
                proof: $proof,
                bench: $bench,
                chapter: $chapter,
            },
        )*];

        /// Names every registered item so that the compiler resolves it; never called.
        #[allow(dead_code, clippy::no_effect_underscore_binding)]
        fn registered_items_exist() {
            $(
                let _ = $fast;
                $(let _ = $exact;)?
            )*
        }
    };
}

registry! {
    special::log_bessel_i => {
        fast: crate::special::log_bessel_i,
        exact: crate::special::exact::log_bessel_i,
        file: "src/special/log_bessel_i.rs",
        source: "spec 01; Abramowitz & Stegun 9.6.10 (series), 9.7.7 (Debye), 9.7.1 (Hankel)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "a logarithm: absolute near its zero crossings, relative where large",
        proof: "special_bessel.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    special::bessel_i_ratio => {
        fast: crate::special::bessel_i_ratio,
        exact: crate::special::exact::bessel_i_ratio,
        file: "src/special/bessel_ratio.rs",
        source: "spec 01; Gauss continued fraction (A&S 9.1.73), Debye (A&S 9.7.7)",
        budget: Budget::Relative(budget::RATIO),
        reason: "a positive quantity in (0, 1): relative error is the natural measure",
        proof: "special_ratio.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::log_norm_const => {
        fast: crate::vmf::log_norm_const,
        exact: crate::vmf::exact::log_norm_const,
        file: "src/vmf/normaliser.rs",
        source: "spec 01; LAM App. C; nivMF eq. (2)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "a logarithm that crosses zero as κ grows",
        proof: "vmf_normaliser.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::mean_resultant_length => {
        fast: crate::vmf::mean_resultant_length,
        exact: crate::vmf::exact::mean_resultant_length,
        file: "src/vmf/mean_resultant_length.rs",
        source: "spec 01; LAM App. C (A_M = I_{M/2}/I_{M/2−1})",
        budget: Budget::Relative(budget::RATIO),
        reason: "a Bessel ratio",
        proof: "vmf_normaliser.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::log_density => {
        fast: crate::vmf::log_density,
        exact: crate::vmf::exact::log_density,
        file: "src/vmf/density.rs",
        source: "spec 02; LAM eq. (3); nivMF eq. (1)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "ln C_M(κ) plus one dot product",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::entropy => {
        fast: crate::vmf::entropy,
        exact: crate::vmf::exact::entropy,
        file: "src/vmf/entropy.rs",
        source: "spec 02: H = −ln C_M(κ) − κ A_M(κ)",
        budget: Budget::Quadrature(budget::QUADRATURE),
        reason: "closed form against the quadrature of −∫ f ln f over the marginal of μᵀx",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kl_to_uniform => {
        fast: crate::vmf::kl_to_uniform,
        exact: crate::vmf::exact::kl_to_uniform,
        file: "src/vmf/entropy.rs",
        source: "spec 02; BTL listing `kl_div_vMF` (refuted)",
        budget: Budget::Quadrature(budget::QUADRATURE),
        reason: "closed form against the quadrature of ∫ f ln(f / u)",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::VonMisesFisher::sample => {
        fast: crate::vmf::VonMisesFisher::sample::<rand::rngs::StdRng>,
        exact: crate::vmf::exact::VonMisesFisher::sample::<rand::rngs::StdRng>,
        file: "src/vmf/sampler.rs",
        source: "spec 02; Wood (1994); LAM App. C",
        budget: Budget::Statistical {
            alpha: budget::SAMPLER_ALPHA,
            sigmas: budget::MONTE_CARLO_SIGMAS,
        },
        reason: "a sampler: goodness of fit against the exact marginal CDF, moments in a 6σ band",
        proof: "vmf_sampler.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::mean_resultant_length_complement => {
        fast: crate::vmf::mean_resultant_length_complement,
        exact: crate::vmf::exact::mean_resultant_length_complement,
        file: "src/vmf/complement.rs",
        source: "spec 01 (1 − A_M, with A_M' for Newton on R̄ near 1); A&S 9.7.7, 9.7.9",
        budget: Budget::Relative(budget::COMPLEMENT),
        reason: "1 − A_M is tiny where A_M → 1; below κ = 50 it is 1 − A_M itself, whose budget then sets it",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_mle => {
        fast: crate::vmf::kappa_mle,
        exact: crate::vmf::exact::kappa_mle,
        file: "src/vmf/kappa.rs",
        source: "spec 02; Sra (2012) eq. (4): the root of A_M(κ) = R̄",
        budget: Budget::Relative(budget::KAPPA_ROUND_TRIP),
        reason: "a root of a monotone function solved to machine precision; conditioning of A_M⁻¹",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_sra => {
        fast: crate::vmf::kappa_sra,
        exact: crate::vmf::exact::kappa_sra,
        file: "src/vmf/kappa.rs",
        source: "LAM App. C; Sra (2012) eqs. (5)–(6); Banerjee et al. (2005)",
        budget: Budget::Relative(budget::KAPPA_SRA2),
        reason: "two Newton steps from Banerjee's start, for M ≥ 45 (the spec's M ≥ 2 is refuted in the proof; four steps reach it for every M)",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::mean_resultant => {
        fast: crate::vmf::mean_resultant,
        exact: crate::vmf::exact::mean_resultant,
        file: "src/vmf/mean_resultant.rs",
        source: "spec 02; LAM App. C: μ̂ = Σx/‖Σx‖, R̄ = ‖Σx‖/n",
        budget: Budget::Relative(budget::RATIO),
        reason: "a compensated sum against a plain one: conditioning of ‖Σx‖",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    metrics::nearest_neighbours => {
        fast: crate::metrics::nearest_neighbours,
        exact: crate::metrics::exact::nearest_neighbours,
        file: "src/metrics/neighbours.rs",
        source: "spec 08: brute-force k-NN with the tie rule (equal distance → smaller database index)",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ranking of database indices: equal to the exact twin wherever distances tie exactly or differ beyond rounding (cosine keys are bitwise the exact twin's)",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::recall_at_k => {
        fast: crate::metrics::recall_at_k,
        exact: crate::metrics::exact::recall_at_k,
        file: "src/metrics/retrieval.rs",
        source: "spec 08; BTL §5 (R@k), LAM §5 and Tables 3–5",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ratio of integers: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::precision_at_k => {
        fast: crate::metrics::precision_at_k,
        exact: crate::metrics::exact::precision_at_k,
        file: "src/metrics/retrieval.rs",
        source: "spec 08: mean over queries of (positives among the k nearest)/k",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::map_at_k => {
        fast: crate::metrics::map_at_k,
        exact: crate::metrics::exact::map_at_k,
        file: "src/metrics/retrieval.rs",
        source: "spec 08; LAM Tables 1–3 (mAP@k), BTL §5: AP@k = (1/min(R, k)) Σ precision@i · rel_i",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::map_at_r => {
        fast: crate::metrics::map_at_r,
        exact: crate::metrics::exact::map_at_r,
        file: "src/metrics/retrieval.rs",
        source: "spec 08; Musgrave et al. (2020), pytorch-metric-learning AccuracyCalculator",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::r_precision => {
        fast: crate::metrics::r_precision,
        exact: crate::metrics::exact::r_precision,
        file: "src/metrics/retrieval.rs",
        source: "spec 08; Musgrave et al. (2020), pytorch-metric-learning AccuracyCalculator",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ratio of integers per query, averaged in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::auroc => {
        fast: crate::metrics::auroc,
        exact: crate::metrics::exact::auroc,
        file: "src/metrics/ood.rs",
        source: "spec 08; LAM Table 2, Fig. 6: P(s_OOD > s_ID) + ½ P(tie) (Mann–Whitney)",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "one integer divided by 2 n_ID n_OOD in both twins: equal",
        proof: "metrics_ood.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::auprc => {
        fast: crate::metrics::auprc,
        exact: crate::metrics::exact::auprc,
        file: "src/metrics/ood.rs",
        source: "spec 08; LAM Table 2; scikit-learn average_precision_score with tie groups",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same step sum over the same thresholds: equal to the exact twin",
        proof: "metrics_ood.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::kendall_tau_b => {
        fast: crate::metrics::kendall_tau_b,
        exact: crate::metrics::exact::kendall_tau_b,
        file: "src/metrics/kendall.rs",
        source: "spec 08; HIB §4.3, Table 2; Kendall (1945) τ-b, Knight (1966), scipy kendalltau",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same pair counts and the same three operations: equal to the exact twin",
        proof: "metrics_kendall.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::binned_kendall_tau => {
        fast: crate::metrics::binned_kendall_tau,
        exact: crate::metrics::exact::binned_kendall_tau,
        file: "src/metrics/binned_correlation.rs",
        source: "HIB §4.3: uncertainty in 20 equal-count bins against per-bin performance, sign inverted",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "bin means summed in the same order and τ-b's exact counts: equal to the exact twin",
        proof: "metrics_kendall.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::sparsification_curve => {
        fast: crate::metrics::sparsification_curve,
        exact: crate::metrics::exact::sparsification_curve,
        file: "src/metrics/sparsification.rs",
        source: "spec 08; LAM App. G.3 and Tables 1–5 (AUSC), Fig. 8",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "suffix sums against fresh sums: a few ulp on means in [0, 1]",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::expected_calibration_error => {
        fast: crate::metrics::expected_calibration_error,
        exact: crate::metrics::exact::expected_calibration_error,
        file: "src/metrics/calibration.rs",
        source: "spec 08; Guo et al. (2017); LAM eq. (121) with confidence 1.0 in the last bin",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same bins (edge-checked) and sums in the same order: equal to the exact twin",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::closed_set_ece => {
        fast: crate::metrics::closed_set_ece,
        exact: crate::metrics::exact::closed_set_ece,
        file: "src/metrics/calibration.rs",
        source: "spec 08; LAM App. G.3: S samples → 1-NN votes → mode and its share",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same votes, modes and bins: equal to the exact twin",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::ece_at_k => {
        fast: crate::metrics::ece_at_k,
        exact: crate::metrics::exact::ece_at_k,
        file: "src/metrics/calibration.rs",
        source: "spec 08; BTL eq. (14): equal-count bins by uncertainty, mAP@k against percentile confidence",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "closed-form bin confidence against the mean of per-query confidences: a few ulp",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    ggn::euclidean_output_hessian => {
        fast: crate::ggn::euclidean_output_hessian,
        exact: crate::ggn::exact::euclidean_output_hessian,
        file: "src/ggn/euclidean.rs",
        source: "spec 04; LAM eqs. (7)–(9): t[[I, −I], [−I, I]] over (z_i, z_j)",
        budget: Budget::Relative(budget::GGN),
        reason: "a constant matrix against hyper-dual second derivatives: scaled by the matrix norm",
        proof: "ggn_splits.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::arccos_output_hessian => {
        fast: crate::ggn::arccos_output_hessian,
        exact: crate::ggn::exact::arccos_output_hessian,
        file: "src/ggn/arccos.rs",
        source: "spec 04; LAM App. F: Hessian of t(1 − ŷ_iᵀŷ_j) in (y_i, y_j)",
        budget: Budget::Relative(budget::GGN),
        reason: "closed form against hyper-dual second derivatives: a few roundings per entry, scaled by the matrix norm",
        proof: "ggn_splits.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::fixed_weights => {
        fast: crate::ggn::fixed_weights,
        no_exact_because: "the weights are an identity, not an approximation: the proof rebuilds H_θ = Σ w_i J_iᵀJ_i and compares it with the dense hyper-dual GGN of `ggn::exact`",
        file: "src/ggn/approximation.rs",
        source: "spec 04; LAM Prop. F.3 (refuted; corrected with the per-point weights w_i)",
        budget: Budget::Relative(budget::GGN),
        reason: "Σ w_i J_iᵀJ_i against the dense hyper-dual GGN of the fixed approximation",
        proof: "ggn_approximations.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::last_layer_ggn_diagonal => {
        fast: crate::ggn::last_layer_ggn_diagonal,
        exact: crate::ggn::exact::last_layer_ggn_diagonal,
        file: "src/ggn/diagonal.rs",
        source: "spec 04; LAM §3, App. E–F: diagonal of the last-layer GGN, both splits × positive/fixed/full",
        budget: Budget::Relative(budget::GGN),
        reason: "dense vs diagonal linear algebra: relative 1e−12 after scaling by the matrix norm (spec README)",
        proof: "ggn_diagonal.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    contrastive::loss => {
        fast: crate::contrastive::loss,
        exact: crate::contrastive::exact::loss,
        file: "src/contrastive/loss.rs",
        source: "spec 03; LAM eq. (1), App. B eqs. (21)–(28): forms S, H, L over ordered pairs",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_LOSS),
        reason: "a weighted mean of per-pair terms from Gram entries: absolute error, L may vanish",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::loss_gradient => {
        fast: crate::contrastive::loss_gradient,
        exact: crate::contrastive::exact::loss_gradient,
        file: "src/contrastive/loss.rs",
        source: "spec 03; LAM App. B eqs. (22)–(23): ∇ Σ t ½‖z_i − z_j‖²",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_LOSS),
        reason: "sums of t(z_i − z_j) with the same pair set as the exact twin; relative to max(1, ‖∇L‖∞)",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::hard_negatives => {
        fast: crate::contrastive::hard_negatives,
        exact: crate::contrastive::exact::hard_negatives,
        file: "src/contrastive/pairs.rs",
        source: "spec 03/04; LAM §3 (hard negative mining): negatives with d < m",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_LOSS),
        reason: "a set: equal to the exact twin wherever no negative is within rounding of the margin",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::negative_log_likelihood => {
        fast: crate::contrastive::negative_log_likelihood,
        exact: crate::contrastive::exact::negative_log_likelihood,
        file: "src/contrastive/likelihood.rs",
        source: "spec 03; LAM App. D eqs. (46)–(51)",
        budget: Budget::Relative(budget::LIKELIHOOD),
        reason: "a sum of n² log densities: relative to the sum of their magnitudes",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::likelihood_constant => {
        fast: crate::contrastive::likelihood_constant,
        exact: crate::contrastive::exact::likelihood_constant,
        file: "src/contrastive/likelihood.rs",
        source: "spec 03; LAM App. D eqs. (52)–(55), corrected for m < 2",
        budget: Budget::Relative(budget::LIKELIHOOD),
        reason: "NLL − L_S against a closed form of two normalisers: relative to the sum of the log terms",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::class_likelihood => {
        fast: crate::contrastive::class_likelihood,
        exact: crate::contrastive::exact::class_likelihood,
        file: "src/contrastive/likelihood.rs",
        source: "LAM App. D eq. (48): product of vMFs = vMF with summed natural parameters",
        budget: Budget::Relative(budget::LIKELIHOOD),
        reason: "ln of a product of n densities: relative to the sum of their magnitudes",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::rescaled_loss => {
        fast: crate::contrastive::rescaled_loss,
        exact: crate::contrastive::exact::rescaled_loss,
        file: "src/contrastive/rescaling.rs",
        source: "spec 03; LAM App. B.1 eq. (30), Proposition B.1",
        budget: Budget::AbsOrRel(budget::RESCALING),
        reason: "an exact average over every batch against L, ∇L, ∇²L; the batch value itself within CONTRASTIVE_LOSS",
        proof: "contrastive_rescaling.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::rescaled_gradient => {
        fast: crate::contrastive::rescaled_gradient,
        no_exact_because: "an unbiased estimator: its reference is the full-data gradient `contrastive::exact::loss_gradient`, reached by the exhaustive batch expectation `contrastive::exact::batch_expectation`",
        file: "src/contrastive/rescaling.rs",
        source: "spec 03; LAM App. B.1: rescaled targets are linear, so gradients and Hessians are unbiased",
        budget: Budget::AbsOrRel(budget::RESCALING),
        reason: "an exact average over every batch against ∇L",
        proof: "contrastive_rescaling.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    laplace::posthoc_precision => {
        fast: crate::laplace::posthoc_precision,
        exact: crate::laplace::exact::posthoc_precision,
        file: "src/laplace/posterior.rs",
        source: "spec 04 (Laplace); LAM App. E: Λ = β·H_θ(θ*) + σ_prior⁻²·I",
        budget: Budget::Relative(budget::LAPLACE),
        reason: "one multiply-add per entry; the dense twin restricted to a diagonal H agrees to rounding",
        proof: "laplace_posterior.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::sample_posterior => {
        fast: crate::laplace::sample_posterior::<rand::rngs::StdRng>,
        exact: crate::laplace::exact::sample_posterior::<rand::rngs::StdRng>,
        file: "src/laplace/sampler.rs",
        source: "spec 04 (Laplace); LAM App. E: θ ~ N(θ*, Λ⁻¹), diagonal; dense twin by Cholesky",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "a sampler: sample mean and variance inside a computed 6σ band, fixed seeds",
        proof: "laplace_posterior.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::online_update => {
        fast: crate::laplace::online_update::<rand::rngs::StdRng, fn(&[f64], &mut [f64], &mut [f64])>,
        no_exact_because: "a stochastic algorithm: the proof checks its accumulation exactly (dyadic inputs, bit equality) and its memory factor against the closed-form geometric series",
        file: "src/laplace/online.rs",
        source: "spec 04 (Laplace); LAM App. E: Monte Carlo EM with memory factor 1 − α",
        budget: Budget::Relative(budget::LAPLACE),
        reason: "sums of S per-sample terms; exact in dyadic arithmetic, which the proof asserts",
        proof: "laplace_online.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::predictive_summary => {
        fast: crate::laplace::predictive_summary,
        no_exact_because: "a composition of chapter-02 estimators: the proof checks it against `vmf::exact::mean_resultant` and `vmf::kappa_sra`, which carry their own exact twins",
        file: "src/laplace/predictive.rs",
        source: "spec 04 (Laplace); LAM App. C, E: S sampled last layers → normalise → vMF (μ̂, 1/κ̂)",
        budget: Budget::Relative(budget::LAPLACE),
        reason: "μ̂ and 1/κ̂ against the chapter-02 route (mean_resultant, kappa_sra(.., 0)) off the concentrated limit",
        proof: "laplace_online.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::log_marginal_likelihood => {
        fast: crate::laplace::log_marginal_likelihood,
        exact: crate::laplace::exact::log_marginal_likelihood,
        file: "src/laplace/marginal_likelihood.rs",
        source: "issue 12; Immer et al. (2021) eq. (5); MacKay (1992): ln p(D|θ*) − (δ/2)‖θ*‖² − ½ ln det(I + H/δ)",
        budget: Budget::Relative(budget::LAPLACE),
        reason: "Σ ln(1 + h/δ) against the dense Cholesky ln det, relative to the size of the summed terms",
        proof: "laplace_marginal_likelihood.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::optimal_prior_precision => {
        fast: crate::laplace::optimal_prior_precision,
        exact: crate::laplace::exact::optimal_prior_precision,
        file: "src/laplace/marginal_likelihood.rs",
        source: "issue 12; MacKay (1992) fixed point γ(δ) = δ‖θ*‖²; laplace-torch `optimize_prior_precision`",
        budget: Budget::Relative(budget::EVIDENCE_ARGMAX),
        reason: "the fast root against the dense maximiser, scaled by the root's condition number in ln δ",
        proof: "laplace_marginal_likelihood.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::output_variance => {
        fast: crate::laplace::output_variance,
        exact: crate::laplace::exact::output_variance,
        file: "src/laplace/output_variance.rs",
        source: "issue 12 (beyond the paper): tr Cov(y) of the raw output y = Wx + b under N(θ*, Λ⁻¹), the posterior spread before normalisation",
        budget: Budget::Relative(budget::LAPLACE),
        reason: "a sum of positive terms against tr(JΛ⁻¹Jᵀ) by dense Cholesky; Monte Carlo within 6 standard errors",
        proof: "laplace_output_variance.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    nivmf::kl_vmf => {
        fast: crate::nivmf::kl_vmf,
        exact: crate::nivmf::exact::kl_vmf,
        file: "src/nivmf/kl.rs",
        source: "spec 06; nivMF Supp. E eqs. (36)–(38), eq. (39) corrected with A_M(κ_z)",
        budget: Budget::Quadrature(budget::QUADRATURE),
        reason: "closed form (Bregman form of −ln C_M) against the two-coordinate sphere quadrature of E_ζ[ln ζ − ln ρ]",
        proof: "nivmf_divergences.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_ppk_vmf => {
        fast: crate::nivmf::log_ppk_vmf,
        exact: crate::nivmf::exact::log_ppk_vmf,
        file: "src/nivmf/ppk.rs",
        source: "spec 06; nivMF Supp. C eq. (23), Supp. D eqs. (26)–(35); Jebara et al. (2004)",
        budget: Budget::AbsOrRel(budget::QUADRATURE),
        reason: "a logarithm (crosses zero) from closed-form ln C_M values against sphere quadrature of ∫ρ^γζ^γ",
        proof: "nivmf_divergences.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_density => {
        fast: crate::nivmf::log_density,
        exact: crate::nivmf::exact::log_density,
        file: "src/nivmf/density.rs",
        source: "spec 06 (change of variables on the sphere, Jacobian det K/‖Kx‖^M); nivMF eq. (4) corrected",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "ln C_M(κ̃) plus three sums, judged on the sum of the summands' magnitudes; x and μ must be unit to 10⁻¹²√M (vmf::unit_norm_tolerance)",
        proof: "nivmf_density.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_density_heuristic => {
        fast: crate::nivmf::log_density_heuristic,
        exact: crate::nivmf::exact::log_density_heuristic,
        file: "src/nivmf/density.rs",
        source: "nivMF eq. (4), Supp. B eqs. (19)–(22) (not normalised: mass 27.75 at the spec point)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "as nivmf::log_density, with ln κ̃ in place of M ln‖Kx‖",
        proof: "nivmf_density.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::NonIsotropicVmf::sample => {
        fast: crate::nivmf::NonIsotropicVmf::sample::<rand::rngs::StdRng>,
        no_exact_because: "a sampler: judged by a KS test of a projection against the CDF integrated from nivmf::log_density on S²",
        file: "src/nivmf/sampler.rs",
        source: "spec 06: X = K⁻¹Y/‖K⁻¹Y‖, Y ~ vMF(Kμ/‖Kμ‖, ‖Kμ‖)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "KS at α = 10⁻⁶ with n = 4000 fixed-seed draws",
        proof: "nivmf_density.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::proxy_nca_loss => {
        fast: crate::nivmf::proxy_nca_loss,
        exact: crate::nivmf::exact::proxy_nca_loss,
        file: "src/nivmf/proxy_nca.rs",
        source: "spec 06; nivMF eqs. (1), (2), (5), (6), Supp. C–F (gradients eqs. (40)–(45))",
        budget: Budget::AbsOrRel(budget::NIVMF_PROXY_LOSS),
        reason: "a mean of log-sum-exps of distances that are differences of ln C_M values; gradients checked separately against num-dual (NIVMF_PROXY_GRADIENT)",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::proxy_anchor_loss => {
        fast: crate::nivmf::proxy_anchor_loss,
        exact: crate::nivmf::exact::proxy_anchor_loss,
        file: "src/nivmf/proxy_anchor.rs",
        source: "Kim et al. (2020) eq. (4); nivMF eq. (7)",
        budget: Budget::AbsOrRel(budget::NIVMF_PROXY_LOSS),
        reason: "a sum of softplus-of-log-sum-exp terms of cosines, against compensated sums",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::joint_proxy_loss => {
        fast: crate::nivmf::joint_proxy_loss,
        no_exact_because: "the sum L^{EL-nivMF} + ω·L_ProxyAnchor of two registered losses: the proof checks the sum and its gradient exactly",
        file: "src/nivmf/proxy_anchor.rs",
        source: "nivMF eq. (7)",
        budget: Budget::AbsOrRel(budget::NIVMF_PROXY_LOSS),
        reason: "inherits the budgets of its two terms",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    vmf::log_norm_const_batch => {
        fast: crate::vmf::log_norm_const_batch,
        no_exact_because: "bit-identical to the registered vmf::log_norm_const for M ≠ 3 and within 4 ulps of it at M = 3 (proved), and checked against vmf::exact::log_norm_const on grids",
        file: "src/vmf/normaliser_batch.rs",
        source: "spec 01; issue 10 item 6 (one M, many κ)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "the scalar kernels with the order and constant hoisted (the same bits), and at M = 3 the closed form in lanes (absolute error ≤ 1.3e-15 plus an ulp, |ln C_3| ≥ ln 4π)",
        proof: "nivmf_normaliser_batch.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    hib::match_probability => {
        fast: crate::hib::match_probability::<rand::rngs::StdRng>,
        exact: crate::hib::exact::match_probability,
        file: "src/hib/monte_carlo.rs",
        source: "HIB eq. (4)–(5), §2.2 (stratified MoG); exact: spec 07, issue 11 (non-central χ², chapter 05's quadratic form, polar route)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "an unbiased estimator: its mean over 4000 seeds in a computed 6σ band of the exact value (routes agree to HIB_MATCH_ABSOLUTE)",
        proof: "hib_monte_carlo.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::match_probability_moment_matched => {
        fast: crate::hib::match_probability_moment_matched,
        no_exact_because: "an approximation by design (Jensen–Solomon power-normal + 24-point Gauss–Hermite): the proof measures its error against `hib::exact::match_probability` over a stated grid",
        file: "src/hib/moment_matched.rs",
        source: "beyond the paper (spec 07); Jensen & Solomon, JASA 67 (1972)",
        budget: Budget::AbsOrRel(budget::HIB_MOMENT_MATCHED),
        reason: "the largest absolute error measured over the 432-point grid of the proof (median 3.6e-5)",
        proof: "hib_moment_matched.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::self_mismatch => {
        fast: crate::hib::self_mismatch::<rand::rngs::StdRng>,
        exact: crate::hib::exact::self_mismatch,
        file: "src/hib/monte_carlo.rs",
        source: "HIB eq. (9), §2.4; spec 07 (corrected: η = 1 − sigmoid(b) for a point mass)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "the K² estimator of 1 − p(m | x, x): its mean over 4000 seeds in a computed 6σ band of the exact value",
        proof: "hib_self_mismatch.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::kl_to_standard_normal => {
        fast: crate::hib::kl_to_standard_normal,
        exact: crate::hib::exact::kl_to_standard_normal,
        file: "src/hib/divergence.rs",
        source: "HIB eq. (8), App. E: KL(N(μ, diag σ²) ‖ N(0, I)) = ½ Σ(σ² + μ² − 1 − ln σ²)",
        budget: Budget::AbsOrRel(budget::QUADRATURE),
        reason: "closed form against the quadrature of its definition; absolute near KL = 0, where the integrand cancels",
        proof: "hib_vib.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::vib_loss => {
        fast: crate::hib::vib_loss,
        exact: crate::hib::exact::vib_loss,
        file: "src/hib/vib.rs",
        source: "HIB eq. (3), (5), (8); spec 07 (log-sigmoid forms)",
        budget: Budget::AbsOrRel(budget::HIB_VIB),
        reason: "hand-derived gradient against forward-mode dual numbers on the same draws: the same sums in another order",
        proof: "hib_vib.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    metrics::verification_average_precision => {
        fast: crate::metrics::verification_average_precision,
        exact: crate::metrics::exact::verification_average_precision,
        file: "src/metrics/verification.rs",
        source: "HIB §4.1, Table 1: average precision of p(m | x₁, x₂) over test pairs",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "ratios of integer counts summed in another order",
        proof: "hib_metrics.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    metrics::knn_identification => {
        fast: crate::metrics::knn_identification,
        exact: crate::metrics::exact::knn_identification,
        file: "src/metrics/identification.rs",
        source: "HIB §4.1, Table 1: K-NN (K = 5) identification accuracy",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a majority vote over neighbour lists that agree exactly wherever distances tie alike",
        proof: "hib_metrics.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    special::ln_normal_cdf => {
        fast: crate::special::ln_normal_cdf,
        exact: crate::special::exact::ln_normal_cdf,
        file: "src/special/normal_cdf.rs",
        source: "spec 05 (CLT likelihood without the listing's clamp); A&S 7.1.2, 26.2.12, 26.2.14",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "a logarithm, from z = 40 down to z = −10⁵: erfc (< 1 ulp) above z = −20, the asymptotic Mills series below",
        proof: "triplet_likelihood.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf => {
        fast: crate::gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf,
        no_exact_because: "it is itself the reference (of triplet::exact::log_likelihood and chapter 07): the proof checks it against closed forms (one term via Φ, χ²_k, a·χ²₂ − b·χ²₂ to ln P = −2·10⁵), the sign flip, Monte Carlo bands and mpmath 1-D integrals",
        file: "src/gaussian_quadratic_form/mod.rs",
        source: "spec 05; Gil-Pelaez (1951), Imhof (1961), Helstrom (1978): inversion along the saddle-point contour",
        budget: Budget::AbsOrRel(budget::QUADRATIC_FORM),
        reason: "reached: |Δ ln P| ≤ 1e−10·max(1, |ln P|) asserted, ≤ 7e−16·max(1, |ln P|) observed on the closed forms and the mpmath table, from P ≈ ½ to ln P ≈ −2·10⁵; the contract asked 1e−8 relative down to ln P ≈ −700",
        proof: "gaussian_quadratic_form.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::moments => {
        fast: crate::triplet::moments,
        exact: crate::triplet::exact::moments,
        file: "src/triplet/moments.rs",
        source: "spec 05; BTL supplement eqs. 5, 17, 18, 26 (main-text eq. 12 refuted)",
        budget: Budget::Relative(budget::TRIPLET_MOMENTS),
        reason: "E τ relative to Σ(d_p² + d_n² + σ_p² + σ_n²) (a difference), Var τ relative to itself (non-negative terms on both sides)",
        proof: "triplet_moments.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::log_likelihood => {
        fast: crate::triplet::log_likelihood,
        exact: crate::triplet::exact::log_likelihood,
        file: "src/triplet/likelihood.rs",
        source: "spec 05; BTL eqs. (6)–(8) (CLT); exact: generalised χ² of the 2×2 reduction per dimension",
        budget: Budget::AbsOrRel(budget::QUADRATIC_FORM),
        reason: "the budget of the exact twin, ln P to 1e−10·max(1, |ln P|) against MC and mpmath; the fast twin is the paper's CLT approximation, not a rounding of the exact value: its error is measured per D (chapter 05 table), never budgeted",
        proof: "triplet_likelihood.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::nll_gradient => {
        fast: crate::triplet::nll_gradient,
        exact: crate::triplet::exact::nll_gradient,
        file: "src/triplet/batch.rs",
        source: "spec 05 (gradients); BTL eqs. (8), (11), supplement eq. (26); Fig. 2",
        budget: Budget::Relative(budget::TRIPLET_GRADIENT),
        reason: "entrywise, scaled by max|exact| over the batch: closed form against dual numbers through the dense moments and the 256-bit ln Φ",
        proof: "triplet_gradient.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::gaussian_kl => {
        fast: crate::triplet::gaussian_kl,
        exact: crate::triplet::exact::gaussian_kl,
        file: "src/triplet/prior.rs",
        source: "spec 05 (priors); BTL eq. (13), listing `kl_div_gauss`",
        budget: Budget::Quadrature(budget::QUADRATURE),
        reason: "closed form against the quadrature of ∫ q ln(q/p), relative to the summed magnitude of its terms",
        proof: "triplet_prior.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    special::log_bessel_i_batch => {
        fast: crate::special::log_bessel_i_batch,
        no_exact_because: "bit-identical to the registered special::log_bessel_i on every input (proved), which carries the budget against special::exact::log_bessel_i; a few points are also checked against it directly",
        file: "src/special/log_bessel_i_batch.rs",
        source: "A&S 9.7.7 (uniform asymptotic expansion) for ν ≥ 20, the scalar regimes below",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "the scalar kernel's operations in vectorised lanes: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::mean_resultant_length_batch => {
        fast: crate::vmf::mean_resultant_length_batch,
        no_exact_because: "bit-identical to the registered vmf::mean_resultant_length on every input (proved), which carries the budget against vmf::exact::mean_resultant_length",
        file: "src/vmf/mean_resultant_length_batch.rs",
        source: "spec 01; Banerjee et al. (2005) eq. (4.4); the Debye ratio (A&S 9.7.7) in lanes for M ≥ 42",
        budget: Budget::Relative(budget::RATIO),
        reason: "the scalar kernel's operations in vectorised lanes: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_mle_batch => {
        fast: crate::vmf::kappa_mle_batch,
        no_exact_because: "bit-identical to the registered vmf::kappa_mle on every input (proved), which carries the budget against vmf::exact::kappa_mle",
        file: "src/vmf/kappa_batch.rs",
        source: "LAM App. C; Sra (2012) eq. (4)",
        budget: Budget::Relative(budget::KAPPA_ROUND_TRIP),
        reason: "the scalar solver per value after one input check and one instruction-set choice: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::VonMisesFisher::sample_n_into => {
        fast: crate::vmf::VonMisesFisher::sample_n_into::<rand::rngs::StdRng>,
        no_exact_because: "the same draws, bit for bit and in order, as a loop of the registered sampler's sample_into with the same generator (proved), whose law is tested against vmf::exact::VonMisesFisher",
        file: "src/vmf/sampler.rs",
        source: "spec 02; Wood (1994); LAM App. C",
        budget: Budget::Statistical {
            alpha: budget::SAMPLER_ALPHA,
            sigmas: budget::MONTE_CARLO_SIGMAS,
        },
        reason: "a sampler: identical draws to the single-draw sampler, which carries the goodness-of-fit budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
}

/// Looks a derivation up by its registered name.
pub fn find(name: &str) -> Option<&'static Derivation> {
    DERIVATIONS.iter().find(|d| d.name == name)
}
