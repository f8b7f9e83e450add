//! The derivation registry: one list of every derivation the crate implements, with the paper
//! and equation it comes from, its error budget and the reason for that budget.
//!
//! This is the single place for tolerances (as statrs' `prec.rs` and libm's `precision.rs`):
//! proofs and tests read budgets from here instead of writing literals. A proof compares a fast
//! twin with its reference only through `proofs/support/check.rs`, which looks the derivation up
//! ([`find`]), applies its [`Budget`] as the kind defines it and prints the worst error observed;
//! each registered budget is at most ten times that worst error, and its reason quotes it and
//! the grid it came from.
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
    /// The path of the `exact` twin, e.g. `"probdml::special::exact::log_bessel_i"` (the macro
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
    /// `"probdml::special::log_bessel_i"` (generic items carry their instantiation).
    pub fast: &'static str,
    /// The exact twin, or the reason there is none.
    pub exact: Twin,
    /// The source file that defines the fast item, relative to the repository root: registry → code
    /// in one hop.
    pub file: &'static str,
    /// Paper and equation (or book chapter) it implements.
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
    /// ln I_ν(x), ln C_M(κ), and the log density: `|Δ| ≤ 4e−15 · max(1, |exact|)`:
    /// about 18 ulp of the result, room for a handful of correctly rounded operations.
    pub const LOG_SPECIAL: f64 = 4e-15;
    /// I_{ν+1}/I_ν and A_M(κ): relative 1e−14 (chapter 01).
    pub const RATIO: f64 = 1e-14;
    /// Closed form against adaptive quadrature.
    pub const QUADRATURE: f64 = 1e-9;
    /// Goodness-of-fit significance for sampler tests.
    pub const SAMPLER_ALPHA: f64 = 1e-6;
    /// Width of Monte Carlo bands in computed standard errors.
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
    /// Chapter-08 metrics, fast against exact: |Δ| ≤ 10⁻¹². Metrics that are ratios
    /// of integers (recall@k, AUROC, τ-b, ECE bin counts) agree exactly and the proofs assert
    /// equality; sums of the same terms in another order (suffix sums, closed-form bin
    /// confidences) stay within a few ulp of values in [−1, 1].
    pub const METRIC: f64 = 1e-12;
    /// Chapter-08 metrics against scikit-learn 1.7.2, SciPy 1.16.3 and the plain-Python
    /// definitions (scripts/reference/metrics/metrics_reference.tsv): numpy's pairwise summation against
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
    /// |Δ| ≤ 10⁻¹² · max|exact| (dense vs diagonal linear algebra: relative 1e−12
    /// after scaling by the matrix norm).
    pub const GGN: f64 = 1e-12;
    /// Chapter-04 identities between hyper-dual references (split gradients against the
    /// gradient, the Arccos GGN against the Hessian, the PSD claims): entrywise
    /// `|Δ| ≤ 10⁻¹²·Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)²`, the size of the terms summed (their
    /// results can cancel to zero, where a relative bound has no meaning).
    pub const GGN_IDENTITIES: f64 = 1e-12;
    /// Chapter-04 Laplace, diagonal against dense (precision, Cholesky draw) and the online and
    /// predictive identities: relative 10⁻¹² (dense vs diagonal linear algebra;
    /// the Cholesky route adds one square root and one division per coordinate).
    pub const LAPLACE: f64 = 1e-12;
    /// Chapter-04 Laplace: the dense Cholesky draw against the diagonal draw from the same
    /// normals, `|Δ| ≤ 10⁻¹²·(|μ| + σ|z|)` per coordinate (one square root and one division).
    pub const LAPLACE_DRAW: f64 = 1e-12;
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
    /// Chapter-05 law of a Gaussian quadratic form: `|Δ ln P| ≤ 10⁻¹⁰·max(1, |ln P|)` against
    /// closed forms and mpmath. The contour integral is taken to relative 10⁻¹² (absolute 10⁻¹²
    /// in `ln P`), and `ln P = A + ln I` adds the rounding of the cumulant `A` summed over up to
    /// 4096 terms; the contract asks 10⁻⁸ relative in `ln P` down to `ln P ≈ −700`.
    pub const QUADRATIC_FORM: f64 = 1e-10;
    /// Chapter 07: the exact match probability's routes against each other and against the
    /// mpmath values: `|Δ| ≤ 10⁻⁹` absolute …
    pub const HIB_MATCH_ABSOLUTE: f64 = 1e-9;
    /// … and `|Δ| ≤ 10⁻⁶ p` where `p < 10⁻⁶` (tails, where an absolute bound says nothing).
    pub const HIB_MATCH_RELATIVE_TAIL: f64 = 1e-6;
    /// Chapter 07: the largest error of the moment-matched (Jensen–Solomon) match probability
    /// against the exact one over the grid of `proofs/hib_moment_matched.rs`, as measured there:
    /// 4.36·10⁻² (at D = 2, δ = 0, a tenfold anisotropy and a steep sigmoid, a = 8, b = 3; the
    /// median 3.6·10⁻⁵ and the 95th percentile 4.9·10⁻³, which the proof also asserts).
    pub const HIB_MOMENT_MATCHED: f64 = 4.4e-2;
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

    // Registered fast-against-reference budgets, each at most ten times the worst error its
    // proof observes and prints (`proofs/support/check.rs`): the observation and its grid are in
    // the entry's reason. A regression of more than a factor of ten fails its proof.
    /// The vMF likelihood of chapter 03, fast against exact, relative to S (see LIKELIHOOD, the a-priori bound).
    pub const LIKELIHOOD_TWIN: f64 = 3.7e-15;
    /// The likelihood's constant, fast against exact, relative to the sum of the log terms (chapter 03).
    pub const LIKELIHOOD_CONSTANT: f64 = 2.1e-15;
    /// The class likelihood's κ and ln scale against the exact twin, relative to the summed log-density magnitudes (chapter 03).
    pub const CLASS_LIKELIHOOD: f64 = 3.4e-15;

    /// ln I_ν(x), fast against the 256-bit series (chapter 01).
    pub const LOG_BESSEL_I: f64 = 2e-15;
    /// A_M(κ), fast against the 256-bit ratio (chapter 01).
    pub const MEAN_RESULTANT_LENGTH: f64 = 3.5e-15;
    /// vMF entropy, closed form against quadrature, relative to max(1, |H|) (chapter 02).
    pub const VMF_ENTROPY: f64 = 2e-11;
    /// KL(vMF ‖ uniform), closed form against quadrature, relative (chapter 02).
    pub const VMF_KL_TO_UNIFORM: f64 = 1.6e-11;
    /// 1 − A_M(κ), fast against quadrature, measured; COMPLEMENT is the a-priori bound (chapter 02).
    pub const COMPLEMENT_TWIN: f64 = 3e-14;
    /// kappa_mle against its exact twin, relative (chapter 02).
    pub const KAPPA_MLE: f64 = 5e-14;
    /// kappa_sra against its exact twin at 0, 1 and 2 steps, relative (chapter 02).
    pub const KAPPA_SRA: f64 = 1.1e-13;
    /// R̄ and μ̂ against the compensated sums, relative to the condition number of the sum (chapter 02).
    pub const MEAN_RESULTANT: f64 = 2.4e-15;
    /// Λ = βH + σ⁻², fast against the dense twin, relative (chapter 04).
    pub const POSTHOC_PRECISION: f64 = 1e-15;
    /// The online precision and mean against the closed-form geometric series, relative (chapter 04).
    pub const ONLINE_UPDATE: f64 = 2.2e-14;
    /// μ̂ and 1/κ̂ against the chapter-02 route, relative to the amplification 1/(1 − R̄²) (chapter 04).
    pub const PREDICTIVE_SUMMARY: f64 = 9.8e-15;
    /// Σ ln(1 + h/δ) against the dense Cholesky ln det, relative to the size of the summed terms (chapter 04).
    pub const LOG_MARGINAL_LIKELIHOOD: f64 = 1.7e-15;
    /// tr(JΛ⁻¹Jᵀ), fast against the dense Cholesky, relative (chapter 04).
    pub const OUTPUT_VARIANCE: f64 = 6e-15;
    /// The contrastive loss, fast (Gram) against exact (compensated pairs), measured; CONTRASTIVE_LOSS is the a-priori bound (chapter 03).
    pub const CONTRASTIVE_LOSS_TWIN: f64 = 1.1e-14;
    /// ∇L, fast (Gram) against the explicit pairs, entrywise relative to max(1, ‖∇L‖∞); also the rescaled gradient (chapter 03).
    pub const CONTRASTIVE_GRADIENT: f64 = 1.1e-15;
    /// The rescaled batch loss against its exact twin (chapter 03).
    pub const RESCALED_LOSS: f64 = 6.6e-15;
    /// KL between vMFs, closed form against sphere quadrature, relative (chapter 06).
    pub const NIVMF_KL_VMF: f64 = 5e-11;
    /// ln PPK between vMFs, closed form against sphere quadrature (chapter 06).
    pub const NIVMF_LOG_PPK: f64 = 3e-11;
    /// ProxyNCA++ loss and distances against the 256-bit reference (chapter 06).
    pub const PROXY_NCA_LOSS: f64 = 1.1e-14;
    /// Proxy-Anchor loss against compensated sums (chapter 06).
    pub const PROXY_ANCHOR_LOSS: f64 = 1.7e-15;
    /// The batched ln C_M against the 256-bit reference (chapter 06).
    pub const LOG_NORM_CONST_BATCH: f64 = 2.1e-15;
    /// KL(N(μ, σ²) ‖ N(0, I)), closed form against quadrature (chapter 07).
    pub const KL_TO_STANDARD_NORMAL: f64 = 4.2e-15;
    /// The VIB loss and hand-derived gradient against the dual-number twin (chapter 07).
    pub const VIB_LOSS: f64 = 1.9e-14;
    /// Verification AP against its exact twin (chapter 07).
    pub const VERIFICATION_AP: f64 = 2.2e-15;
    /// Sparsification curves and areas against fresh sums (chapter 08).
    pub const SPARSIFICATION: f64 = 1.1e-14;
    /// ECE@k and its bin confidences against the exact twin (chapter 08).
    pub const ECE_AT_K: f64 = 2.1e-14;
    /// ln Φ against the 256-bit reference, z ∈ [−10⁵, 40] (chapter 05).
    pub const LN_NORMAL_CDF: f64 = 3.5e-15;
    /// E τ (relative to the summed terms) and Var τ, per-dimension closed form against the dense quadratic form (chapter 05).
    pub const TRIPLET_MOMENTS_TWIN: f64 = 6.5e-15;
    /// The batch-NLL gradient against dual numbers, entrywise relative to max|exact| (chapter 05).
    pub const NLL_GRADIENT: f64 = 6.9e-14;
    /// KL(N(μ, σ²) ‖ N(0, s²I)) against quadrature, relative to the summed magnitude of its terms (chapter 05).
    pub const GAUSSIAN_KL: f64 = 2.8e-13;
    /// The exact twin of the triplet likelihood against mpmath and closed forms (chapter 05); the fast twin is the CLT approximation, never budgeted.
    pub const TRIPLET_LOG_LIKELIHOOD: f64 = 1.8e-14;
    /// The output Hessians (and gradients) of the Euclidean and Arccos splits against hyper-dual numbers, entrywise relative to the size of the terms summed, 4|t|(1 + r_i + r_j + 1/r_i + 1/r_j)², not to the result, which is exactly zero at M = 1 (chapter 04).
    pub const GGN_OUTPUT_HESSIAN: f64 = 8e-16;
    /// Σ w_i J_iᵀJ_i against the dense hyper-dual GGN, entrywise relative to the size of the summed terms Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)² (chapter 04).
    pub const GGN_FIXED_WEIGHTS: f64 = 2.4e-15;
    /// The last-layer GGN diagonal against the dense hyper-dual GGN, entrywise relative to the size of the summed terms Σ_pairs |t|(1 + ‖x_i‖/r_i + ‖x_j‖/r_j)², not to the result, which cancels to rounding for trivial pairs (chapter 04).
    pub const GGN_DIAGONAL: f64 = 3.2e-15;
    /// ln δ*, fast root against the dense maximiser, relative to the root's condition number (chapter 04).
    pub const OPTIMAL_PRIOR_PRECISION: f64 = 2e-15;
}

/// Builds [`DERIVATIONS`] from entries of the form
///
/// ```text
/// special::log_bessel_i => {
///     fast: probdml::special::log_bessel_i,
///     exact: probdml::special::exact::log_bessel_i,     // or  no_exact_because: "…",
///     file: "crates/probdml/src/special/log_bessel_i.rs",
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

        /// Names every registered item so that the compiler resolves it; never called. A
        /// derivation's fast item is its positional function, deprecated for one release where
        /// named inputs replace it (`triplet::Triplet`, `metrics::OodScores`, whose methods call
        /// the same kernels; `tests/named_inputs.rs`).
        #[allow(dead_code, deprecated, clippy::no_effect_underscore_binding)]
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
        fast: probdml::special::log_bessel_i,
        exact: probdml::special::exact::log_bessel_i,
        file: "crates/probdml/src/special/log_bessel_i.rs",
        source: "Abramowitz & Stegun 9.6.10 (series), 9.7.7 (Debye), 9.7.1 (Hankel)",
        budget: Budget::AbsOrRel(budget::LOG_BESSEL_I),
        reason: "a logarithm: absolute near its zero crossings, relative where large; worst observed 2.2e-16 in special_bessel.rs (862 comparisons: 800 seeded cases over ν ∈ [0, 5·10⁴], x ∈ (0, 10⁸], the regime switches)",
        proof: "special_bessel.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    special::bessel_i_ratio => {
        fast: probdml::special::bessel_i_ratio,
        exact: probdml::special::exact::bessel_i_ratio,
        file: "crates/probdml/src/special/bessel_ratio.rs",
        source: "Gauss continued fraction (A&S 9.1.73), Debye (A&S 9.7.7)",
        budget: Budget::Relative(budget::RATIO),
        reason: "a positive quantity in (0, 1): relative error is the natural measure; worst observed 1.05e-15 in special_ratio.rs (400 seeded cases over ν ∈ [0, 5·10⁴], x ∈ (0, 10⁸])",
        proof: "special_ratio.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::log_norm_const => {
        fast: probdml::vmf::log_norm_const,
        exact: probdml::vmf::exact::log_norm_const,
        file: "crates/probdml/src/vmf/normaliser.rs",
        source: "LAM App. C; nivMF eq. (2)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "a logarithm that crosses zero as κ grows; worst observed 7.8e-16 in vmf_normaliser.rs and vmf_density.rs (M ∈ [2, 10⁵], κ ∈ [0, 10⁸], 400 seeded cases, ln|S^(M−1)| for M ≤ 10⁶)",
        proof: "vmf_normaliser.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::mean_resultant_length => {
        fast: probdml::vmf::mean_resultant_length,
        exact: probdml::vmf::exact::mean_resultant_length,
        file: "crates/probdml/src/vmf/mean_resultant_length.rs",
        source: "LAM App. C (A_M = I_{M/2}/I_{M/2−1})",
        budget: Budget::Relative(budget::MEAN_RESULTANT_LENGTH),
        reason: "a Bessel ratio; worst observed 3.5e-16 in vmf_normaliser.rs (400 seeded cases, M ∈ [2, 10⁵], κ ∈ [0, 10⁸])",
        proof: "vmf_normaliser.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::log_density => {
        fast: probdml::vmf::log_density,
        exact: probdml::vmf::exact::log_density,
        file: "crates/probdml/src/vmf/density.rs",
        source: "LAM eq. (3); nivMF eq. (1)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "ln C_M(κ) plus one dot product; worst observed 4.4e-16 of max(1, |ln C_M| + κ|μᵀx|) in vmf_density.rs (256 seeded cases, M ≤ 2048, κ ∈ [0, 10⁵])",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::entropy => {
        fast: probdml::vmf::entropy,
        exact: probdml::vmf::exact::entropy,
        file: "crates/probdml/src/vmf/entropy.rs",
        source: "H = −ln C_M(κ) − κ A_M(κ) (book chapter 02)",
        budget: Budget::Quadrature(budget::VMF_ENTROPY),
        reason: "closed form against the quadrature of −∫ f ln f over the marginal of μᵀx; worst observed 2.3e-12 of max(1, |H|) in vmf_density.rs (M ∈ {2, 3, 10, 128, 2048} × κ ∈ 10⁻³…10⁵, and seeded cases)",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kl_to_uniform => {
        fast: probdml::vmf::kl_to_uniform,
        exact: probdml::vmf::exact::kl_to_uniform,
        file: "crates/probdml/src/vmf/entropy.rs",
        source: "BTL listing `kl_div_vMF` (refuted)",
        budget: Budget::Quadrature(budget::VMF_KL_TO_UNIFORM),
        reason: "closed form against the quadrature of ∫ f ln(f / u); worst observed 1.6e-12 relative in vmf_density.rs (M ∈ {2, 3, 10, 128, 2048} × κ ∈ 10⁻³…10⁵, and seeded cases)",
        proof: "vmf_density.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::VonMisesFisher::sample => {
        fast: probdml::vmf::VonMisesFisher::sample::<rand::rngs::StdRng>,
        exact: probdml::vmf::exact::VonMisesFisher::sample::<rand::rngs::StdRng>,
        file: "crates/probdml/src/vmf/sampler.rs",
        source: "Wood (1994); LAM App. C",
        budget: Budget::Statistical {
            alpha: budget::SAMPLER_ALPHA,
            sigmas: budget::MONTE_CARLO_SIGMAS,
        },
        reason: "a sampler: goodness of fit against the exact marginal CDF, moments in a 6σ band; the whole law (μᵀX, a tangent coordinate, the azimuth, the tangent given μᵀX, the mean direction's tangent part against χ²_{M−1}) with negative controls κ × 1.03 and a 2° turn towards any tangent direction that reject with power ≥ 0.999 in vmf_sampler_law.rs",
        proof: "vmf_sampler.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    ziggurat::fill_standard_normal => {
        fast: probdml::ziggurat::fill_standard_normal::<rand::rngs::StdRng>,
        no_exact_because: "a sampler of a law known in closed form: the proof tests its draws against Φ (libm's erf and erfc), not against a second sampler; the ziggurat's tables against their defining equations in a unit test",
        file: "crates/probdml/src/ziggurat.rs",
        source: "Marsaglia & Tsang (2000), J. Stat. Softw. 5(8); tail: Marsaglia (1964)",
        budget: Budget::Statistical {
            alpha: budget::SAMPLER_ALPHA,
            sigmas: budget::MONTE_CARLO_SIGMAS,
        },
        reason: "a sampler: KS of 2²⁶ draws on x, |x| and the pairs at lags 1 and 8, products and squared products at lags 1, 2, 3, 7, 8 and 16, the count beyond R and the tail's shape, with controls (scale × 1.02, correlation 0.03 at lags 1, 3 and 8, the wedge test or the tail's acceptance left out) of power ≥ 0.999",
        proof: "ziggurat_law.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::mean_resultant_length_complement => {
        fast: probdml::vmf::mean_resultant_length_complement,
        exact: probdml::vmf::exact::mean_resultant_length_complement,
        file: "crates/probdml/src/vmf/complement.rs",
        source: "1 − A_M, with A_M' for Newton on R̄ near 1 (book chapter 02); A&S 9.7.7, 9.7.9",
        budget: Budget::Relative(budget::COMPLEMENT_TWIN),
        reason: "1 − A_M is tiny where A_M → 1; below κ = 50 it is 1 − A_M itself, whose budget then sets it; worst observed 3.1e-15 in vmf_kappa.rs (256 seeded cases, M ∈ {2, 3, 10, 128, 2048, 20000}, κ ∈ [10⁻⁸, 10⁸])",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_mle => {
        fast: probdml::vmf::kappa_mle,
        exact: probdml::vmf::exact::kappa_mle,
        file: "crates/probdml/src/vmf/kappa.rs",
        source: "Sra (2012) eq. (4): the root of A_M(κ) = R̄",
        budget: Budget::Relative(budget::KAPPA_MLE),
        reason: "a root of a monotone function solved to machine precision; conditioning of A_M⁻¹; worst observed 5.4e-15 in vmf_kappa.rs (256 seeded cases, M ∈ [2, 10⁵], R̄ ∈ [10⁻⁶, 1 − 10⁻¹²])",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_sra => {
        fast: probdml::vmf::kappa_sra,
        exact: probdml::vmf::exact::kappa_sra,
        file: "crates/probdml/src/vmf/kappa.rs",
        source: "LAM App. C; Sra (2012) eqs. (5)–(6); Banerjee et al. (2005)",
        budget: Budget::Relative(budget::KAPPA_SRA),
        reason: "the same Newton steps from the same start as the exact twin, at every step count; how far two steps land from the MLE is the claim KAPPA_SRA2 (M ≥ 45; four steps for every M); worst observed 1.2e-14 in vmf_kappa.rs (256 seeded cases × 0, 1, 2 steps, M ∈ [2, 10⁵], R̄ ∈ [10⁻⁶, 1 − 10⁻¹²])",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::mean_resultant => {
        fast: probdml::vmf::mean_resultant,
        exact: probdml::vmf::exact::mean_resultant,
        file: "crates/probdml/src/vmf/mean_resultant.rs",
        source: "LAM App. C: μ̂ = Σx/‖Σx‖, R̄ = ‖Σx‖/n",
        budget: Budget::Relative(budget::MEAN_RESULTANT),
        reason: "a compensated sum against a plain one: conditioning of ‖Σx‖; worst observed 2.4e-16 times the condition number in vmf_kappa.rs (M ∈ {2, 3, 10, 128, 512} × κ ∈ {0, 0.5, 10, 10³} × n ∈ {1, 7, 10³, 2·10⁴})",
        proof: "vmf_kappa.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    metrics::nearest_neighbours => {
        fast: probdml::metrics::nearest_neighbours,
        exact: probdml::metrics::exact::nearest_neighbours,
        file: "crates/probdml/src/metrics/neighbours.rs",
        source: "brute-force k-NN with the tie rule (equal distance → smaller database index)",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ranking of database indices: equal to the exact twin wherever distances tie exactly or differ beyond rounding (cosine keys are bitwise the exact twin's)",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::recall_at_k => {
        fast: probdml::metrics::recall_at_k,
        exact: probdml::metrics::exact::recall_at_k,
        file: "crates/probdml/src/metrics/retrieval.rs",
        source: "BTL §5 (R@k), LAM §5 and Tables 3–5",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ratio of integers: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::precision_at_k => {
        fast: probdml::metrics::precision_at_k,
        exact: probdml::metrics::exact::precision_at_k,
        file: "crates/probdml/src/metrics/retrieval.rs",
        source: "mean over queries of (positives among the k nearest)/k",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::map_at_k => {
        fast: probdml::metrics::map_at_k,
        exact: probdml::metrics::exact::map_at_k,
        file: "crates/probdml/src/metrics/retrieval.rs",
        source: "LAM Tables 1–3 (mAP@k), BTL §5: AP@k = (1/min(R, k)) Σ precision@i · rel_i",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::map_at_r => {
        fast: probdml::metrics::map_at_r,
        exact: probdml::metrics::exact::map_at_r,
        file: "crates/probdml/src/metrics/retrieval.rs",
        source: "Musgrave et al. (2020), pytorch-metric-learning AccuracyCalculator",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same terms summed in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::r_precision => {
        fast: probdml::metrics::r_precision,
        exact: probdml::metrics::exact::r_precision,
        file: "crates/probdml/src/metrics/retrieval.rs",
        source: "Musgrave et al. (2020), pytorch-metric-learning AccuracyCalculator",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a ratio of integers per query, averaged in the same order: equal to the exact twin",
        proof: "metrics_retrieval.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::auroc => {
        fast: probdml::metrics::auroc::<f64>,
        exact: probdml::metrics::exact::auroc,
        file: "crates/probdml/src/metrics/ood.rs",
        source: "LAM Table 2, Fig. 6: P(s_OOD > s_ID) + ½ P(tie) (Mann–Whitney)",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "one integer divided by 2 n_ID n_OOD in both twins: equal",
        proof: "metrics_ood.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::auprc => {
        fast: probdml::metrics::auprc::<f64>,
        exact: probdml::metrics::exact::auprc,
        file: "crates/probdml/src/metrics/ood.rs",
        source: "LAM Table 2; scikit-learn average_precision_score with tie groups",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same step sum over the same thresholds: equal to the exact twin",
        proof: "metrics_ood.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::kendall_tau_b => {
        fast: probdml::metrics::kendall_tau_b::<f64>,
        exact: probdml::metrics::exact::kendall_tau_b,
        file: "crates/probdml/src/metrics/kendall.rs",
        source: "HIB §4.3, Table 2; Kendall (1945) τ-b, Knight (1966), scipy kendalltau",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same pair counts and the same three operations: equal to the exact twin",
        proof: "metrics_kendall.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::binned_kendall_tau => {
        fast: probdml::metrics::binned_kendall_tau::<f64>,
        exact: probdml::metrics::exact::binned_kendall_tau,
        file: "crates/probdml/src/metrics/binned_correlation.rs",
        source: "HIB §4.3: uncertainty in 20 equal-count bins against per-bin performance, sign inverted",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "bin means summed in the same order and τ-b's exact counts: equal to the exact twin",
        proof: "metrics_kendall.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::sparsification_curve => {
        fast: probdml::metrics::sparsification_curve::<f64>,
        exact: probdml::metrics::exact::sparsification_curve,
        file: "crates/probdml/src/metrics/sparsification.rs",
        source: "LAM App. G.3 and Tables 1–5 (AUSC), Fig. 8",
        budget: Budget::AbsOrRel(budget::SPARSIFICATION),
        reason: "suffix sums against fresh sums: a few ulp on means in [0, 1]; worst observed 1.1e-15 in metrics_uncertainty.rs (1024 seeded cases, every curve point)",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::expected_calibration_error => {
        fast: probdml::metrics::expected_calibration_error::<f64>,
        exact: probdml::metrics::exact::expected_calibration_error,
        file: "crates/probdml/src/metrics/calibration.rs",
        source: "Guo et al. (2017); LAM eq. (121) with confidence 1.0 in the last bin",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same bins (edge-checked) and sums in the same order: equal to the exact twin",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::closed_set_ece => {
        fast: probdml::metrics::closed_set_ece::<&[usize]>,
        exact: probdml::metrics::exact::closed_set_ece::<&[usize]>,
        file: "crates/probdml/src/metrics/calibration.rs",
        source: "LAM App. G.3: S samples → 1-NN votes → mode and its share",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "the same votes, modes and bins: equal to the exact twin",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    metrics::ece_at_k => {
        fast: probdml::metrics::ece_at_k::<f64>,
        exact: probdml::metrics::exact::ece_at_k,
        file: "crates/probdml/src/metrics/calibration.rs",
        source: "BTL eq. (14): equal-count bins by uncertainty, mAP@k against percentile confidence",
        budget: Budget::AbsOrRel(budget::ECE_AT_K),
        reason: "closed-form bin confidence against the mean of per-query confidences: a few ulp; worst observed 2.1e-15 in metrics_uncertainty.rs (1024 seeded cases)",
        proof: "metrics_uncertainty.rs",
        bench: "metrics.rs",
        chapter: "08-metrics.md",
    },
    ggn::euclidean_output_hessian => {
        fast: probdml::ggn::euclidean_output_hessian,
        exact: probdml::ggn::exact::euclidean_output_hessian,
        file: "crates/probdml/src/ggn/euclidean.rs",
        source: "LAM eqs. (7)–(9): t[[I, −I], [−I, I]] over (z_i, z_j)",
        budget: Budget::Relative(budget::GGN_OUTPUT_HESSIAN),
        reason: "a constant matrix against hyper-dual second derivatives: scaled by the matrix norm; worst observed 0 (bitwise equal) in ggn_splits.rs (300 seeded cases): the budget of the Arccos output Hessian",
        proof: "ggn_splits.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::arccos_output_hessian => {
        fast: probdml::ggn::arccos_output_hessian,
        exact: probdml::ggn::exact::arccos_output_hessian,
        file: "crates/probdml/src/ggn/arccos.rs",
        source: "LAM App. F: Hessian of t(1 − ŷ_iᵀŷ_j) in (y_i, y_j)",
        budget: Budget::Relative(budget::GGN_OUTPUT_HESSIAN),
        reason: "closed form against hyper-dual second derivatives: a few roundings per entry, scaled by the matrix norm; worst observed 8.2e-17 of the terms' size in ggn_splits.rs (300 seeded cases, M ≤ 5, t ∈ {±1} ∪ [−3, 3])",
        proof: "ggn_splits.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::fixed_weights => {
        fast: probdml::ggn::fixed_weights,
        no_exact_because: "the weights are an identity, not an approximation: the proof rebuilds H_θ = Σ w_i J_iᵀJ_i and compares it with the dense hyper-dual GGN of `ggn::exact`",
        file: "crates/probdml/src/ggn/approximation.rs",
        source: "LAM Prop. F.3 (refuted; corrected with the per-point weights w_i)",
        budget: Budget::Relative(budget::GGN_FIXED_WEIGHTS),
        reason: "Σ w_i J_iᵀJ_i against the dense hyper-dual GGN of the fixed approximation; worst observed 2.5e-16 of the terms' size in ggn_approximations.rs (256 seeded problems)",
        proof: "ggn_approximations.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    ggn::last_layer_ggn_diagonal => {
        fast: probdml::ggn::last_layer_ggn_diagonal,
        exact: probdml::ggn::exact::last_layer_ggn_diagonal,
        file: "crates/probdml/src/ggn/diagonal.rs",
        source: "LAM §3, App. E–F: diagonal of the last-layer GGN, both splits × positive/fixed/full",
        budget: Budget::Relative(budget::GGN_DIAGONAL),
        reason: "dense vs diagonal linear algebra: relative 1e−12 after scaling by the matrix norm; worst observed 3.3e-16 of the terms' size in ggn_diagonal.rs (300 seeded problems × 2 splits × 3 approximations, and B = 8)",
        proof: "ggn_diagonal.rs",
        bench: "ggn.rs",
        chapter: "04-ggn.md",
    },
    contrastive::loss => {
        fast: probdml::contrastive::loss::<&[usize]>,
        exact: probdml::contrastive::exact::loss::<&[usize]>,
        file: "crates/probdml/src/contrastive/loss.rs",
        source: "LAM eq. (1), App. B eqs. (21)–(28): forms S, H, L over ordered pairs",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_LOSS_TWIN),
        reason: "a weighted mean of per-pair terms from Gram entries: absolute error, L may vanish; worst observed 1.2e-15 in contrastive_loss.rs (256 seeded batches, n ≤ 40, M ≤ 512, three forms)",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::loss_gradient => {
        fast: probdml::contrastive::loss_gradient::<&[usize]>,
        exact: probdml::contrastive::exact::loss_gradient::<&[usize]>,
        file: "crates/probdml/src/contrastive/loss.rs",
        source: "LAM App. B eqs. (22)–(23): ∇ Σ t ½‖z_i − z_j‖²",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_GRADIENT),
        reason: "sums of t(z_i − z_j) with the same pair set as the exact twin; relative to max(1, ‖∇L‖∞); worst observed 1.1e-16 of max(1, ‖∇L‖∞) in contrastive_loss.rs (256 seeded batches)",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::hard_negatives => {
        fast: probdml::contrastive::hard_negatives::<&[usize]>,
        exact: probdml::contrastive::exact::hard_negatives::<&[usize]>,
        file: "crates/probdml/src/contrastive/pairs.rs",
        source: "LAM §3 (hard negative mining): negatives with d < m",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_LOSS),
        reason: "a set: equal to the exact twin wherever no negative is within rounding of the margin",
        proof: "contrastive_loss.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::negative_log_likelihood => {
        fast: probdml::contrastive::negative_log_likelihood::<&[usize]>,
        exact: probdml::contrastive::exact::negative_log_likelihood::<&[usize]>,
        file: "crates/probdml/src/contrastive/likelihood.rs",
        source: "LAM App. D eqs. (46)–(51)",
        budget: Budget::Relative(budget::LIKELIHOOD_TWIN),
        reason: "a sum of n² log densities: relative to the sum of their magnitudes; worst observed 3.7e-16 of S in contrastive_likelihood.rs (256 seeded batches, n ≤ 40, M ≤ 512)",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::likelihood_constant => {
        fast: probdml::contrastive::likelihood_constant,
        exact: probdml::contrastive::exact::likelihood_constant,
        file: "crates/probdml/src/contrastive/likelihood.rs",
        source: "LAM App. D eqs. (52)–(55), corrected for m < 2",
        budget: Budget::Relative(budget::LIKELIHOOD_CONSTANT),
        reason: "NLL − L_S against a closed form of two normalisers: relative to the sum of the log terms; worst observed 2.2e-16 in contrastive_likelihood.rs (256 seeded batches)",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::class_likelihood => {
        fast: probdml::contrastive::class_likelihood::<&[usize]>,
        exact: probdml::contrastive::exact::class_likelihood::<&[usize]>,
        file: "crates/probdml/src/contrastive/likelihood.rs",
        source: "LAM App. D eq. (48): product of vMFs = vMF with summed natural parameters",
        budget: Budget::Relative(budget::CLASS_LIKELIHOOD),
        reason: "ln of a product of n densities: relative to the sum of their magnitudes; worst observed 3.4e-16 in contrastive_likelihood.rs (256 seeded batches, n ≤ 24)",
        proof: "contrastive_likelihood.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::rescaled_loss => {
        fast: probdml::contrastive::rescaled_loss::<&[usize]>,
        exact: probdml::contrastive::exact::rescaled_loss::<&[usize]>,
        file: "crates/probdml/src/contrastive/rescaling.rs",
        source: "LAM App. B.1 eq. (30), Proposition B.1",
        budget: Budget::AbsOrRel(budget::RESCALED_LOSS),
        reason: "the batch value against the exact twin's compensated pairs, as contrastive::loss; its exact average over every batch equals L, ∇L, ∇²L to RESCALING; worst observed 6.7e-16 in contrastive_rescaling.rs (256 seeded batches)",
        proof: "contrastive_rescaling.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    contrastive::rescaled_gradient => {
        fast: probdml::contrastive::rescaled_gradient::<&[usize]>,
        no_exact_because: "an unbiased estimator: its reference is the full-data gradient `contrastive::exact::loss_gradient`, reached by the exhaustive batch expectation `contrastive::exact::batch_expectation`",
        file: "crates/probdml/src/contrastive/rescaling.rs",
        source: "LAM App. B.1: rescaled targets are linear, so gradients and Hessians are unbiased",
        budget: Budget::AbsOrRel(budget::CONTRASTIVE_GRADIENT),
        reason: "entrywise against the explicit sum over the exact twin's targets; its exact average over every batch equals ∇L to RESCALING; worst observed 0 (bitwise equal) in contrastive_rescaling.rs (256 seeded batches): the budget of contrastive::loss_gradient",
        proof: "contrastive_rescaling.rs",
        bench: "contrastive.rs",
        chapter: "03-contrastive.md",
    },
    laplace::posthoc_precision => {
        fast: probdml::laplace::posthoc_precision,
        exact: probdml::laplace::exact::posthoc_precision,
        file: "crates/probdml/src/laplace/posterior.rs",
        source: "LAM App. E: Λ = β·H_θ(θ*) + σ_prior⁻²·I",
        budget: Budget::Relative(budget::POSTHOC_PRECISION),
        reason: "one multiply-add per entry; the dense twin restricted to a diagonal H agrees to rounding; worst observed 1.0e-16 in laplace_posterior.rs (300 seeded cases, H ∈ [10⁻⁶, 10⁶], β ∈ [10⁻³, 10³])",
        proof: "laplace_posterior.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::sample_posterior => {
        fast: probdml::laplace::sample_posterior::<rand::rngs::StdRng>,
        exact: probdml::laplace::exact::sample_posterior::<rand::rngs::StdRng>,
        file: "crates/probdml/src/laplace/sampler.rs",
        source: "LAM App. E: θ ~ N(θ*, Λ⁻¹), diagonal; dense twin by Cholesky",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "a sampler: sample mean and variance inside a computed 6σ band, fixed seeds; the whole law at p = 1, 3 and 16 (every whitened coordinate, the Mahalanobis² against χ²_p, exact χ²_n tests of every (e_j ± e_k)/√2 direction) with controls (variance × 1.05 and × 0.95, a correlation of the wrong sign) of power ≥ 0.999 in laplace_sampler_law.rs",
        proof: "laplace_posterior.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::online_update => {
        fast: probdml::laplace::online_update::<rand::rngs::StdRng, fn(&[f64], &mut [f64], &mut [f64])>,
        no_exact_because: "a stochastic algorithm: the proof checks its accumulation exactly (dyadic inputs, bit equality) and its memory factor against the closed-form geometric series",
        file: "crates/probdml/src/laplace/online.rs",
        source: "LAM App. E: Monte Carlo EM with memory factor 1 − α",
        budget: Budget::Relative(budget::ONLINE_UPDATE),
        reason: "sums of S per-sample terms; exact in dyadic arithmetic, which the proof asserts; worst observed 2.3e-15 in laplace_online.rs (200 seeded cases, up to 30 steps)",
        proof: "laplace_online.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::predictive_summary => {
        fast: probdml::laplace::predictive_summary,
        no_exact_because: "a composition of chapter-02 estimators: the proof checks it against `vmf::exact::mean_resultant` and `vmf::kappa_sra`, which carry their own exact twins",
        file: "crates/probdml/src/laplace/predictive.rs",
        source: "LAM App. C, E: S sampled last layers → normalise → vMF (μ̂, 1/κ̂)",
        budget: Budget::Relative(budget::PREDICTIVE_SUMMARY),
        reason: "μ̂ and 1/κ̂ against the chapter-02 route (mean_resultant, kappa_sra(.., 0)) off the concentrated limit; worst observed 9.8e-16 in laplace_online.rs (400 seeded cases)",
        proof: "laplace_online.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::log_marginal_likelihood => {
        fast: probdml::laplace::log_marginal_likelihood,
        exact: probdml::laplace::exact::log_marginal_likelihood,
        file: "crates/probdml/src/laplace/marginal_likelihood.rs",
        source: "Immer et al. (2021) eq. (5); MacKay (1992): ln p(D|θ*) − (δ/2)‖θ*‖² − ½ ln det(I + H/δ)",
        budget: Budget::Relative(budget::LOG_MARGINAL_LIKELIHOOD),
        reason: "Σ ln(1 + h/δ) against the dense Cholesky ln det, relative to the size of the summed terms; worst observed 1.7e-16 of the summed terms in laplace_marginal_likelihood.rs (600 seeded cases, δ ∈ [10⁻⁶, 10⁶], diagonal and rotated H)",
        proof: "laplace_marginal_likelihood.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::optimal_prior_precision => {
        fast: probdml::laplace::optimal_prior_precision,
        exact: probdml::laplace::exact::optimal_prior_precision,
        file: "crates/probdml/src/laplace/marginal_likelihood.rs",
        source: "MacKay (1992) fixed point γ(δ) = δ‖θ*‖²; laplace-torch `optimize_prior_precision`",
        budget: Budget::Relative(budget::OPTIMAL_PRIOR_PRECISION),
        reason: "the fast root against the dense maximiser, scaled by the root's condition number in ln δ; worst observed 2.1e-16 of the condition number in laplace_marginal_likelihood.rs (256 seeded rotated problems)",
        proof: "laplace_marginal_likelihood.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    laplace::output_variance => {
        fast: probdml::laplace::output_variance,
        exact: probdml::laplace::exact::output_variance,
        file: "crates/probdml/src/laplace/output_variance.rs",
        source: "beyond the papers: tr Cov(y) of the raw output y = Wx + b under N(θ*, Λ⁻¹), the posterior spread before normalisation",
        budget: Budget::Relative(budget::OUTPUT_VARIANCE),
        reason: "a sum of positive terms against tr(JΛ⁻¹Jᵀ) by dense Cholesky; Monte Carlo within 6 standard errors; worst observed 6.1e-16 in laplace_output_variance.rs (600 seeded cases, precisions in [10⁻¹⁵⁰, 10¹⁵⁰])",
        proof: "laplace_output_variance.rs",
        bench: "laplace.rs",
        chapter: "04-ggn.md",
    },
    nivmf::kl_vmf => {
        fast: probdml::nivmf::kl_vmf,
        exact: probdml::nivmf::exact::kl_vmf,
        file: "crates/probdml/src/vmf/kl.rs",
        source: "nivMF Supp. E eqs. (36)–(38), eq. (39) corrected with A_M(κ_z)",
        budget: Budget::Quadrature(budget::NIVMF_KL_VMF),
        reason: "closed form (Bregman form of −ln C_M) against the two-coordinate sphere quadrature of E_ζ[ln ζ − ln ρ]; worst observed 5.0e-12 in nivmf_divergences.rs (M × κ_z × κ_p/κ_z × angle grid, 256 seeded pairs)",
        proof: "nivmf_divergences.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_ppk => {
        fast: probdml::nivmf::log_ppk,
        exact: probdml::nivmf::exact::log_ppk,
        file: "crates/probdml/src/vmf/ppk.rs",
        source: "nivMF Supp. C eq. (23), Supp. D eqs. (26)–(35); Jebara et al. (2004)",
        budget: Budget::AbsOrRel(budget::NIVMF_LOG_PPK),
        reason: "a logarithm (crosses zero) from closed-form ln C_M values against sphere quadrature of ∫ρ^γζ^γ; worst observed 3.0e-12 in nivmf_divergences.rs (the same grid × γ ∈ {½, 1, 2}, 256 seeded pairs)",
        proof: "nivmf_divergences.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_density => {
        fast: probdml::nivmf::log_density,
        exact: probdml::nivmf::exact::log_density,
        file: "crates/probdml/src/nivmf/density.rs",
        source: "change of variables on the sphere, Jacobian det K/‖Kx‖^M; nivMF eq. (4) corrected",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "ln C_M(κ̃) plus three sums, judged on the sum of the summands' magnitudes; x and μ are unit to 10⁻¹²√M (vmf::renormalisation_threshold; vectors further off are renormalised first); worst observed 7.3e-16 of the summands' magnitude in nivmf_density.rs (256 seeded cases)",
        proof: "nivmf_density.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::log_density_heuristic => {
        fast: probdml::nivmf::log_density_heuristic,
        exact: probdml::nivmf::exact::log_density_heuristic,
        file: "crates/probdml/src/nivmf/density.rs",
        source: "nivMF eq. (4), Supp. B eqs. (19)–(22) (not normalised: mass 27.75 at K = diag(2, 5, 9), μ = (1,1,1)/√3)",
        budget: Budget::AbsOrRel(budget::LOG_SPECIAL),
        reason: "as nivmf::log_density, with ln κ̃ in place of M ln‖Kx‖; worst observed 6.0e-16 of the summands' magnitude in nivmf_density.rs (256 seeded cases)",
        proof: "nivmf_density.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::NonIsotropicVmf::sample => {
        fast: probdml::nivmf::NonIsotropicVmf::sample::<rand::rngs::StdRng>,
        no_exact_because: "a sampler: judged by a KS test of a projection against the CDF integrated from nivmf::log_density on S²",
        file: "crates/probdml/src/nivmf/sampler.rs",
        source: "X = K⁻¹Y/‖K⁻¹Y‖, Y ~ vMF(Kμ/‖Kμ‖, ‖Kμ‖) (book chapter 06)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "the whole law at α = 10⁻⁶: g(X) = KX/‖KX‖ against the exact vMF CDFs, three projections of X against CDFs integrated from the density, and the scores ∂ ln f/∂ ln κ_m by Bernstein's inequality, n = 100 000 to 450 000 fixed-seed draws; controls (each κ_m and all of K × 1.05 and ÷ 1.05 at the Supp. B point, κ₃ × 1.03, a 2° turn) reject with power ≥ 0.999",
        proof: "nivmf_sampler_law.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::proxy_nca_loss => {
        fast: probdml::nivmf::proxy_nca_loss,
        exact: probdml::nivmf::exact::proxy_nca_loss,
        file: "crates/probdml/src/nivmf/proxy_nca.rs",
        source: "nivMF eqs. (1), (2), (5), (6), Supp. C–F (gradients eqs. (40)–(45))",
        budget: Budget::AbsOrRel(budget::PROXY_NCA_LOSS),
        reason: "a mean of log-sum-exps of distances that are differences of ln C_M values; gradients checked separately against num-dual (NIVMF_PROXY_GRADIENT); worst observed 1.2e-15 in nivmf_proxy_nca.rs (the pinned batches, both kinds)",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::proxy_anchor_loss => {
        fast: probdml::nivmf::proxy_anchor_loss,
        exact: probdml::nivmf::exact::proxy_anchor_loss,
        file: "crates/probdml/src/nivmf/proxy_anchor.rs",
        source: "Kim et al. (2020) eq. (4); nivMF eq. (7)",
        budget: Budget::AbsOrRel(budget::PROXY_ANCHOR_LOSS),
        reason: "a sum of softplus-of-log-sum-exp terms of cosines, against compensated sums; worst observed 1.7e-16 in nivmf_proxy_nca.rs (the pinned batch, two (α, δ))",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    nivmf::joint_proxy_loss => {
        fast: probdml::nivmf::joint_proxy_loss,
        no_exact_because: "the sum L^{EL-nivMF} + ω·L_ProxyAnchor of two registered losses: the proof checks the sum and its gradient exactly",
        file: "crates/probdml/src/nivmf/proxy_anchor.rs",
        source: "nivMF eq. (7)",
        budget: Budget::AbsOrRel(budget::NIVMF_PROXY_LOSS),
        reason: "inherits the budgets of its two terms",
        proof: "nivmf_proxy_nca.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    vmf::log_norm_const_batch => {
        fast: probdml::vmf::log_norm_const_batch,
        no_exact_because: "bit-identical to the registered vmf::log_norm_const for M ≠ 3 and within 4 ulps of it at M = 3 (proved), and checked against vmf::exact::log_norm_const on grids",
        file: "crates/probdml/src/vmf/normaliser_batch.rs",
        source: "LAM App. C; nivMF eq. (2): ln C_M for one M and many κ (the ProxyNCA++ training path)",
        budget: Budget::AbsOrRel(budget::LOG_NORM_CONST_BATCH),
        reason: "the scalar kernels with the order and constant hoisted (the same bits; for M < 42 every regime in lanes over κ grouped by regime), and at M = 3 the closed form in lanes (absolute error ≤ 1.3e-15 plus an ulp, |ln C_3| ≥ ln 4π); worst observed 6.7e-16 in nivmf_normaliser_batch.rs (M ∈ {2, 3, 4, 41, 42, 128, 512} on a κ grid, M < 42 on unsorted κ of every regime, M = 3 lanes to 10⁸)",
        proof: "nivmf_normaliser_batch.rs",
        bench: "nivmf.rs",
        chapter: "06-nivmf.md",
    },
    hib::match_probability => {
        fast: probdml::hib::match_probability::<rand::rngs::StdRng>,
        exact: probdml::hib::exact::match_probability,
        file: "crates/probdml/src/hib/monte_carlo.rs",
        source: "HIB eq. (4)–(5), §2.2 (stratified MoG); exact: book chapter 07 (non-central χ², chapter 05's quadratic form, polar route)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "an unbiased estimator: its mean over 4000 seeds in a computed 6σ band of the exact value (routes agree to HIB_MATCH_ABSOLUTE); its draws' whole Gaussian law at D = 1, 3 and 16, and a mixture's draws component by component, with variance controls of power ≥ 0.999 in hib_monte_carlo_law.rs",
        proof: "hib_monte_carlo.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::match_probability_moment_matched => {
        fast: probdml::hib::match_probability_moment_matched,
        no_exact_because: "an approximation by design (Jensen–Solomon power-normal + 24-point Gauss–Hermite): the proof measures its error against `hib::exact::match_probability` over a stated grid",
        file: "crates/probdml/src/hib/moment_matched.rs",
        source: "beyond the paper (book chapter 07); Jensen & Solomon, JASA 67 (1972)",
        budget: Budget::AbsOrRel(budget::HIB_MOMENT_MATCHED),
        reason: "the largest absolute error measured over the 432-point grid of the proof (median 3.6e-5); worst observed 4.36e-2 absolute on the 432-point grid of hib_moment_matched.rs (median 3.6e-5, 95th percentile 4.9e-3, asserted there)",
        proof: "hib_moment_matched.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::self_mismatch => {
        fast: probdml::hib::self_mismatch::<rand::rngs::StdRng>,
        exact: probdml::hib::exact::self_mismatch,
        file: "crates/probdml/src/hib/monte_carlo.rs",
        source: "HIB eq. (9), §2.4 (corrected: η = 1 − sigmoid(b) for a point mass)",
        budget: Budget::Statistical { alpha: budget::SAMPLER_ALPHA, sigmas: budget::MONTE_CARLO_SIGMAS },
        reason: "the K² estimator of 1 − p(m | x, x): its mean over 4000 seeds in a computed 6σ band of the exact value",
        proof: "hib_self_mismatch.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::kl_to_standard_normal => {
        fast: probdml::hib::kl_to_standard_normal,
        exact: probdml::hib::exact::kl_to_standard_normal,
        file: "crates/probdml/src/hib/divergence.rs",
        source: "HIB eq. (8), App. E: KL(N(μ, diag σ²) ‖ N(0, I)) = ½ Σ(σ² + μ² − 1 − ln σ²)",
        budget: Budget::AbsOrRel(budget::KL_TO_STANDARD_NORMAL),
        reason: "closed form against the quadrature of its definition; absolute near KL = 0, where the integrand cancels; worst observed 4.2e-16 in hib_vib.rs (256 seeded Gaussians, σ² from 10⁻³⁰⁰, the mpmath value)",
        proof: "hib_vib.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    hib::vib_loss => {
        fast: probdml::hib::vib_loss,
        exact: probdml::hib::exact::vib_loss,
        file: "crates/probdml/src/hib/vib.rs",
        source: "HIB eq. (3), (5), (8) (log-sigmoid forms)",
        budget: Budget::AbsOrRel(budget::VIB_LOSS),
        reason: "hand-derived gradient against forward-mode dual numbers on the same draws: the same sums in another order; worst observed 2.0e-15 in hib_vib.rs (256 seeded pairs, every gradient entry)",
        proof: "hib_vib.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    metrics::verification_average_precision => {
        fast: probdml::metrics::verification_average_precision::<f64>,
        exact: probdml::metrics::exact::verification_average_precision,
        file: "crates/probdml/src/metrics/verification.rs",
        source: "HIB §4.1, Table 1: average precision of p(m | x₁, x₂) over test pairs",
        budget: Budget::AbsOrRel(budget::VERIFICATION_AP),
        reason: "ratios of integer counts summed in another order; worst observed 2.2e-16 in hib_metrics.rs (256 seeded score lists with ties)",
        proof: "hib_metrics.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    metrics::knn_identification => {
        fast: probdml::metrics::knn_identification,
        exact: probdml::metrics::exact::knn_identification,
        file: "crates/probdml/src/metrics/identification.rs",
        source: "HIB §4.1, Table 1: K-NN (K = 5) identification accuracy",
        budget: Budget::AbsOrRel(budget::METRIC),
        reason: "a majority vote over neighbour lists that agree exactly wherever distances tie alike",
        proof: "hib_metrics.rs",
        bench: "hib.rs",
        chapter: "07-hib.md",
    },
    special::log_normal_cdf => {
        fast: probdml::special::log_normal_cdf,
        exact: probdml::special::exact::log_normal_cdf,
        file: "crates/probdml/src/special/normal_cdf.rs",
        source: "BTL's CLT likelihood without the listing's clamp; A&S 7.1.2, 26.2.12, 26.2.14",
        budget: Budget::AbsOrRel(budget::LN_NORMAL_CDF),
        reason: "a logarithm, from z = 40 down to z = −10⁵: erfc (< 1 ulp) above z = −20, the asymptotic Mills series below; worst observed 3.6e-16 in triplet_likelihood.rs (512 seeded cases, z ∈ [−10⁵, 40] with the switches)",
        proof: "triplet_likelihood.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf => {
        fast: probdml::gaussian_quadratic_form::GaussianQuadraticForm::ln_cdf,
        no_exact_because: "it is itself the reference (of triplet::exact::log_likelihood and chapter 07): the proof checks it against closed forms (one term via Φ, χ²_k, a·χ²₂ − b·χ²₂ to ln P = −2·10⁵), the sign flip, Monte Carlo bands and mpmath 1-D integrals",
        file: "crates/probdml-reference/src/gaussian_quadratic_form/mod.rs",
        source: "Gil-Pelaez (1951), Imhof (1961), Helstrom (1978): inversion along the saddle-point contour",
        budget: Budget::AbsOrRel(budget::QUADRATIC_FORM),
        reason: "reached: |Δ ln P| ≤ 1e−10·max(1, |ln P|) asserted, ≤ 7e−16·max(1, |ln P|) observed on the closed forms and the mpmath table, from P ≈ ½ to ln P ≈ −2·10⁵; the contract asked 1e−8 relative down to ln P ≈ −700; worst observed 3.6e-11 of max(1, |ln P|) in gaussian_quadratic_form.rs (256 seeded cases, the closed forms and the mpmath table)",
        proof: "gaussian_quadratic_form.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::moments => {
        fast: probdml::triplet::moments,
        exact: probdml::triplet::exact::moments,
        file: "crates/probdml/src/triplet/moments.rs",
        source: "BTL supplement eqs. 5, 17, 18, 26 (main-text eq. 12 refuted)",
        budget: Budget::Relative(budget::TRIPLET_MOMENTS_TWIN),
        reason: "E τ relative to Σ(d_p² + d_n² + σ_p² + σ_n²) (a difference), Var τ relative to itself (non-negative terms on both sides); worst observed 6.6e-16 in triplet_moments.rs (256 seeded triplets, D ≤ 24)",
        proof: "triplet_moments.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::log_likelihood => {
        fast: probdml::triplet::log_likelihood,
        exact: probdml::triplet::exact::log_likelihood,
        file: "crates/probdml/src/triplet/likelihood.rs",
        source: "BTL eqs. (6)–(8) (CLT); exact: generalised χ² of the 2×2 reduction per dimension",
        budget: Budget::AbsOrRel(budget::TRIPLET_LOG_LIKELIHOOD),
        reason: "the budget of the exact twin, ln P to 1e−10·max(1, |ln P|) against MC and mpmath; the fast twin is the paper's CLT approximation, not a rounding of the exact value: its error is measured per D (chapter 05 table), never budgeted; worst observed 1.9e-15 in triplet_likelihood.rs (the mpmath table, the shifted thresholds, the one-dimensional closed form)",
        proof: "triplet_likelihood.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::nll_gradient => {
        fast: probdml::triplet::nll_gradient,
        exact: probdml::triplet::exact::nll_gradient,
        file: "crates/probdml/src/triplet/batch.rs",
        source: "BTL eqs. (8), (11), supplement eq. (26); Fig. 2",
        budget: Budget::Relative(budget::NLL_GRADIENT),
        reason: "entrywise, scaled by max|exact| over the batch: closed form against dual numbers through the dense moments and the 256-bit ln Φ; worst observed 7.0e-15 in triplet_gradient.rs (256 seeded batches)",
        proof: "triplet_gradient.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    triplet::gaussian_kl => {
        fast: probdml::triplet::gaussian_kl,
        exact: probdml::triplet::exact::gaussian_kl,
        file: "crates/probdml/src/triplet/prior.rs",
        source: "BTL eq. (13), listing `kl_div_gauss`",
        budget: Budget::Quadrature(budget::GAUSSIAN_KL),
        reason: "closed form against the quadrature of ∫ q ln(q/p), relative to the summed magnitude of its terms; worst observed 2.8e-14 in triplet_prior.rs (256 seeded Gaussians, far from the prior)",
        proof: "triplet_prior.rs",
        bench: "triplet.rs",
        chapter: "05-triplet.md",
    },
    special::log_bessel_i_batch => {
        fast: probdml::special::log_bessel_i_batch,
        no_exact_because: "bit-identical to the registered special::log_bessel_i on every input (proved), which carries the budget against special::exact::log_bessel_i; a few points are also checked against it directly",
        file: "crates/probdml/src/special/log_bessel_i_batch.rs",
        source: "A&S 9.7.7 (uniform asymptotic expansion) for ν ≥ 20, A&S 10.2.13 for ν = ½, the scalar regimes below",
        budget: Budget::AbsOrRel(budget::LOG_BESSEL_I),
        reason: "the scalar kernel's operations in vectorised lanes: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "special.rs",
        chapter: "01-special.md",
    },
    vmf::mean_resultant_length_batch => {
        fast: probdml::vmf::mean_resultant_length_batch,
        no_exact_because: "bit-identical to the registered vmf::mean_resultant_length on every input (proved), which carries the budget against vmf::exact::mean_resultant_length",
        file: "crates/probdml/src/vmf/mean_resultant_length_batch.rs",
        source: "Banerjee et al. (2005) eq. (4.4); the Debye ratio (A&S 9.7.7) in lanes for M ≥ 42",
        budget: Budget::Relative(budget::MEAN_RESULTANT_LENGTH),
        reason: "the scalar kernel's operations in vectorised lanes: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_mle_batch => {
        fast: probdml::vmf::kappa_mle_batch,
        no_exact_because: "bit-identical to the registered vmf::kappa_mle on every input (proved), which carries the budget against vmf::exact::kappa_mle",
        file: "crates/probdml/src/vmf/kappa_batch.rs",
        source: "LAM App. C; Sra (2012) eq. (4)",
        budget: Budget::Relative(budget::KAPPA_MLE),
        reason: "the scalar solver per value after one input check and one instruction-set choice: the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::kappa_sra_batch => {
        fast: probdml::vmf::kappa_sra_batch,
        no_exact_because: "bit-identical to the registered vmf::kappa_sra on every input (proved), which carries the budget against vmf::exact::kappa_sra",
        file: "crates/probdml/src/vmf/kappa_batch.rs",
        source: "Banerjee et al. (2005) eq. (4.4); Sra (2012) eqs. (5)-(6); the Debye ratio and complement in lanes for M >= 42",
        budget: Budget::Relative(budget::KAPPA_SRA),
        reason: "the scalar iteration's operations in vectorised lanes (a fixed number of steps for every value): the same bits, hence the scalar budget",
        proof: "batch_kernels.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
    vmf::VonMisesFisher::sample_n_into => {
        fast: probdml::vmf::VonMisesFisher::sample_n_into::<rand::rngs::StdRng>,
        no_exact_because: "the registered sampler's algorithm with Wood's test run on eight proposals at a time (decided as the scalar test decides, proved); its own law is tested against vmf::exact::CosineMarginal by the sampler's battery (proofs/vmf_sampler_law.rs), and for M = 2 or κ = 0 it draws what a loop of sample_into draws (proved)",
        file: "crates/probdml/src/vmf/sampler.rs",
        source: "Wood (1994); LAM App. C",
        budget: Budget::Statistical {
            alpha: budget::SAMPLER_ALPHA,
            sigmas: budget::MONTE_CARLO_SIGMAS,
        },
        reason: "a sampler: the goodness-of-fit budget of the single-draw sampler, tested on its own draws",
        proof: "vmf_sampler_law.rs",
        bench: "vmf.rs",
        chapter: "02-vmf.md",
    },
}

/// Looks a derivation up by its registered name.
pub fn find(name: &str) -> Option<&'static Derivation> {
    DERIVATIONS.iter().find(|d| d.name == name)
}

/// A registered derivation whose exact twin does not share the fast twin's signature, and why.
/// Every other twin pair has one signature (`tests/public_api.rs` pins the pairs listed here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignatureDifference {
    /// The registered name, as in [`Derivation::name`].
    pub name: &'static str,
    /// The fast twin's arguments.
    pub fast: &'static str,
    /// The exact twin's arguments.
    pub exact: &'static str,
    /// Why they differ.
    pub reason: &'static str,
}

/// The twins that differ in signature; `tests/registry_coverage.rs` checks that each is a
/// registered derivation with an exact twin.
pub const SIGNATURE_DIFFERENCES: &[SignatureDifference] = &[
    SignatureDifference {
        name: "hib::match_probability",
        fast: "(x1: &HedgedEmbedding, x2: &HedgedEmbedding, a, b, n_samples, rng)",
        exact: "(mu1, var1, mu2, var2, a, b)",
        reason: "the fast twin is HIB's Monte Carlo estimator over mixtures, so it takes the draw \
                 count and the generator; the exact twin evaluates the expectation in closed form \
                 for two single Gaussians. For mixtures, `hib::exact::mixture_match_probability(x1, \
                 x2, a, b)` has the fast twin's signature less (n_samples, rng).",
    },
    SignatureDifference {
        name: "hib::self_mismatch",
        fast: "(x: &HedgedEmbedding, a, b, n_samples, rng)",
        exact: "(x: &HedgedEmbedding, a, b)",
        reason: "the fast twin is a Monte Carlo estimator (draw count and generator); the exact \
                 twin is the expectation it estimates.",
    },
    SignatureDifference {
        name: "laplace::output_variance",
        fast: "(weight_precision, bias_precision, features)",
        exact: "(precision, dim, features)",
        reason: "the fast twin takes a diagonal posterior, split into the M×F weight and the M \
                 bias precisions; the exact twin takes a dense (M·F + M)² precision over (W, b), \
                 as a full or Kronecker-factored posterior needs, and the output width M = dim \
                 that a dense matrix cannot carry. Both check `features` first and fail alike \
                 on it.",
    },
    SignatureDifference {
        name: "laplace::posthoc_precision",
        fast: "(hessian_diagonal, beta, prior_var)",
        exact: "(hessian, beta, prior_var)",
        reason: "the same types, different shapes: the fast twin takes the Hessian's diagonal \
                 (n), the exact twin the dense n×n Hessian it differentiates through.",
    },
    SignatureDifference {
        name: "laplace::sample_posterior",
        fast: "(mu, precision, rng, out)",
        exact: "(mu, precision, rng, out)",
        reason: "the same types, different shapes: the fast twin's precision is a diagonal (n), \
                 the exact twin's a dense n×n matrix factored by Cholesky.",
    },
    SignatureDifference {
        name: "laplace::log_marginal_likelihood",
        fast: "(log_likelihood, theta, hessian_diagonal, prior_precision)",
        exact: "(log_likelihood, theta, hessian, prior_precision)",
        reason: "the same types, different shapes: a diagonal Hessian (n) against a dense n×n \
                 one whose log-determinant is taken by Cholesky.",
    },
    SignatureDifference {
        name: "laplace::optimal_prior_precision",
        fast: "(theta, hessian_diagonal)",
        exact: "(theta, hessian)",
        reason: "the same types, different shapes: a diagonal Hessian (n) against a dense n×n one.",
    },
];
