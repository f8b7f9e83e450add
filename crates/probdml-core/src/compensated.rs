//! Compensated (error-free transformation) arithmetic for sums, dot products and norms.
//!
//! Shared by every module that needs more than naive `f64` accumulation; in the vMF code:
//!
//! * the **exact twins** (compensated dot product in the log density, Neumaier sums in the mean
//!   resultant): they must be accurate to about one rounding of the *result*, whatever the
//!   conditioning of the sum;
//! * the **samplers**, which promise `|‖x‖ − 1| ≤ 1e−15` at `M = 2048`: a naive sum of squares
//!   of 2048 terms already carries a relative error of `~√(M/3)·u ≈ 26u ≈ 6e−15` (`u = 2⁻⁵³`),
//!   so normalising by it could never meet the promise.
//!
//! The building blocks are Knuth's TwoSum and the FMA TwoProduct (Ogita, Rump & Oishi 2005,
//! "Accurate sum and dot product", Algorithms 3.1 and 3.5); `dot2` is their `Dot2`, whose result
//! is as accurate as if computed in twice the working precision and then rounded.
//!
//! Public: the overflow-safe norm [`norm2`] with its error bound, and its reference twin
//! `exact::norm2` in arbitrary precision, which the exact twins use instead of it (a
//! reference that shares the norm of the code it checks cannot see that norm's errors);
//! `proofs/compensated_norm.rs` checks the one against the other. The rest is crate-internal.

#[doc(hidden)]
pub mod double_double;

#[doc(hidden)]
pub use double_double::{two_prod, two_sum, DoubleDouble};

/// Neumaier's improved Kahan summation: the running sum plus a compensation term that
/// collects every rounding error exactly (each step is a TwoSum).
#[derive(Debug, Clone, Copy, Default)]
#[doc(hidden)]
pub struct Neumaier {
    sum: f64,
    compensation: f64,
}

impl Neumaier {
    /// An empty sum.
    #[inline(always)]
    #[doc(hidden)]
    pub const fn new() -> Self {
        Self {
            sum: 0.0,
            compensation: 0.0,
        }
    }

    /// Adds one term.
    #[inline(always)]
    #[doc(hidden)]
    pub fn add(&mut self, x: f64) {
        let (s, e) = two_sum(self.sum, x);
        self.sum = s;
        self.compensation += e;
    }

    /// Adds a double-double term `hi + lo`.
    #[inline(always)]
    #[doc(hidden)]
    pub fn add_pair(&mut self, (hi, lo): (f64, f64)) {
        self.add(hi);
        self.compensation += lo;
    }

    /// The total as a normalised double-double.
    #[inline(always)]
    #[doc(hidden)]
    pub fn pair(&self) -> (f64, f64) {
        two_sum(self.sum, self.compensation)
    }

    /// The compensated total, rounded once.
    #[inline(always)]
    #[doc(hidden)]
    pub fn total(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// `Σ aᵢbᵢ` as accurate as if computed in twice the working precision (Ogita–Rump–Oishi Dot2).
///
/// Four independent lanes, each its own Dot2 (TwoProduct + TwoSum, errors collected in a
/// compensation term), combined by a compensated sum at the end: the error bound is that of
/// Dot2 (`|Δ| ≤ u|Σ| + γ²_{n} Σ|aᵢbᵢ|`), and the lanes break the TwoSum dependency chain so the
/// loop runs at about the speed of a naive dot product.
#[inline(always)]
#[doc(hidden)]
pub fn dot2(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let mut s = [0.0_f64; 4];
    let mut c = [0.0_f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            let (p, e) = two_prod(x[l], y[l]);
            let (t, e2) = two_sum(s[l], p);
            s[l] = t;
            c[l] += e + e2;
        }
    }
    for (&x, &y) in ra.iter().zip(rb) {
        let (p, e) = two_prod(x, y);
        let (t, e2) = two_sum(s[0], p);
        s[0] = t;
        c[0] += e + e2;
    }
    let mut acc = Neumaier::new();
    for l in 0..4 {
        acc.add_pair((s[l], c[l]));
    }
    acc.total()
}

/// Lanes of [`ExtractedSumSqAndDot`]: one AVX-512 register of `f64`.
#[doc(hidden)]
pub const EXTRACTION_LANES: usize = 8;

/// `(Σ xᵢ², Σ xᵢuᵢ)` by error-free extraction against a power-of-two offset (the idea of Rump,
/// Ogita & Oishi 2008, "Accurate floating-point summation part I", `ExtractScalar`), fed eight
/// entries at a time, entry `8k + l` into lane `l`: Wood's sampler folds its normals into their
/// norm and their projection on the Householder vector with it.
///
/// Each lane's running sum starts at a power of two `K` and stays within a factor of two of it,
/// so that every step is exact in two pieces: with `s' = fl(s + x²)` (one fused multiply-add),
/// `z = s' − s` is exact (Sterbenz: `s ≤ s' ≤ 2s`), and the step's rounding error
/// `x² − z` is at most half an ulp of `s'`; a fused multiply-add gives it to one more rounding,
/// and a plain sum `c` collects it. So `Σ x² = (s − K) + Σ (x² − z)` with `s − K` exact, and
/// the result carries the error `u·|Σ|` of its last rounding plus `γ_n` times the collected
/// errors (`≤ n·ulp(2K)/2` each): about `n²u²K`, negligible against `u·|Σ|` for the sampler's
/// sums. That is Dot2's accuracy ([`dot2`], `u|Σ| + γ²_n Σ|xᵢuᵢ|`) at four floating-point
/// operations per entry and sum instead of ten, which matters where the normals themselves
/// cost about a nanosecond each.
///
/// **What it needs** (debug-asserted in [`finish`](Self::finish)): `k_sq` and `k_dot` powers of
/// two with every `xᵢ² ≤ k_sq` (Sterbenz for the squares, whose sum only grows), and
/// `Σ |xᵢuᵢ| ≤ k_dot/2` within every lane, so that the dot product's running sum stays in
/// `[k_dot/2, 3k_dot/2]`.
#[derive(Clone, Copy)]
#[doc(hidden)]
pub struct ExtractedSumSqAndDot {
    s: [f64; EXTRACTION_LANES],
    c: [f64; EXTRACTION_LANES],
    t: [f64; EXTRACTION_LANES],
    d: [f64; EXTRACTION_LANES],
    k_sq: f64,
    k_dot: f64,
}

impl ExtractedSumSqAndDot {
    /// Empty sums with the offsets `k_sq` and `k_dot` (type docs).
    #[inline(always)]
    #[doc(hidden)]
    pub const fn new(k_sq: f64, k_dot: f64) -> Self {
        Self {
            s: [k_sq; EXTRACTION_LANES],
            c: [0.0; EXTRACTION_LANES],
            t: [k_dot; EXTRACTION_LANES],
            d: [0.0; EXTRACTION_LANES],
            k_sq,
            k_dot,
        }
    }

    /// Entries `x[8k..8k+8]`, `u[8k..8k+8]` (a short last block zero-padded: a zero entry
    /// leaves every sum as it was).
    #[inline(always)]
    #[doc(hidden)]
    pub fn push(&mut self, x: &[f64; EXTRACTION_LANES], u: &[f64; EXTRACTION_LANES]) {
        for l in 0..EXTRACTION_LANES {
            let s = x[l].mul_add(x[l], self.s[l]);
            self.c[l] += x[l].mul_add(x[l], -(s - self.s[l]));
            self.s[l] = s;
            let t = x[l].mul_add(u[l], self.t[l]);
            self.d[l] += x[l].mul_add(u[l], -(t - self.t[l]));
            self.t[l] = t;
        }
    }

    /// All of `x` and `u` (equal lengths), eight entries at a time, the `len mod 8` last ones as
    /// one more zero-padded block.
    #[inline(always)]
    #[doc(hidden)]
    pub fn push_slices(&mut self, x: &[f64], u: &[f64]) {
        debug_assert_eq!(x.len(), u.len());
        let (blocks, u_blocks) = (
            x.chunks_exact(EXTRACTION_LANES),
            u.chunks_exact(EXTRACTION_LANES),
        );
        let (x_rest, u_rest) = (blocks.remainder(), u_blocks.remainder());
        for (x, u) in blocks.zip(u_blocks) {
            self.push(
                x.try_into().expect("EXTRACTION_LANES entries"),
                u.try_into().expect("EXTRACTION_LANES entries"),
            );
        }
        if !x_rest.is_empty() {
            self.push(&zero_padded(x_rest), &zero_padded(u_rest));
        }
    }

    /// `(Σ xᵢ², Σ xᵢuᵢ)`: each lane's exact high part `s − K` and its collected errors, the
    /// lanes combined by a compensated sum.
    #[inline(always)]
    #[doc(hidden)]
    pub fn finish(self) -> (f64, f64) {
        let Self {
            s,
            c,
            t,
            d,
            k_sq,
            k_dot,
        } = self;
        let (mut squares, mut dot) = (Neumaier::new(), Neumaier::new());
        for l in 0..EXTRACTION_LANES {
            debug_assert!(s[l] >= k_sq && (0.5 * k_dot..=1.5 * k_dot).contains(&t[l]));
            // Exact: K is a power of two no larger than s (so a multiple of s's ulp), and
            // t ∈ [K/2, 3K/2] (Sterbenz).
            squares.add_pair((s[l] - k_sq, c[l]));
            dot.add_pair((t[l] - k_dot, d[l]));
        }
        (squares.total(), dot.total())
    }
}

/// The last, short block of a lane loop (`rest.len() ≤ L`) padded with zeros, built in
/// registers: a `copy_from_slice` of its variable length into a zeroed array is a call to
/// `memcpy`, once per row in the sampler.
#[inline(always)]
fn zero_padded<const L: usize>(rest: &[f64]) -> [f64; L] {
    debug_assert!(rest.len() <= L);
    std::array::from_fn(|l| rest.get(l).copied().unwrap_or(0.0))
}

/// `Σ xᵢ²` as accurate as if computed in twice the working precision.
#[inline(always)]
#[doc(hidden)]
pub fn sum_sq2(x: &[f64]) -> f64 {
    dot2(x, x)
}

/// `‖x‖₂` to within one and a half roundings, overflow- and underflow-safe: the vector is
/// scaled by a power of two near its largest entry (exact), so entries up to `f64::MAX` are
/// fine.
///
/// # Formula
///
/// $$ \lVert x\rVert_2 = \Big(\sum_i x_i^2\Big)^{1/2} $$
///
/// The squares are summed as Ogita, Rump & Oishi's `Dot2` (2005, Algorithm 5.3: TwoProduct and
/// TwoSum, the errors collected in a compensation term) when the largest entry lies in
/// `[10⁻¹⁴⁰, 10¹⁴⁰]`, and as a compensated sum of the exact squares of the scaled entries
/// otherwise; the square root and the scaling back follow.
///
/// # Error bound
///
/// With `u = 2⁻⁵³` and `n = len(x)`,
///
/// $$ \lvert \mathrm{norm2}(x) - \lVert x\rVert_2\rvert \le
///    \big(\tfrac32 u + 2(n+1)^2u^2\big)\lVert x\rVert_2 \quad (+ 2^{-1075}) $$
///
/// the last term only where the result is subnormal (its last rounding onto the subnormal grid).
/// All squares are positive, so the sum of squares carries a relative error of at most
/// `u + 2(n+1)²u²` (the last rounding, and the compensation term's own rounding errors, at most
/// `γ_{2n}` times the `n + 1` collected errors of size `≤ u·Σ` each); the square root halves it
/// and adds its own rounding `u`. Squares that underflow (entries below `10⁻¹⁵⁴` next to a
/// largest entry above `10⁻¹⁴⁰`) add at most `2⁻¹⁰⁷⁵` each, far below `u²Σ`.
/// `proofs/compensated_norm.rs` checks the bound against
/// `exact::norm2_dd`.
///
/// # Errors
///
/// NaN if an entry is NaN; `+∞` if an entry is infinite (and none is NaN) or the norm exceeds
/// `f64::MAX`. The empty vector has norm 0.
///
/// # Examples
///
/// ```
/// use probdml::compensated::norm2;
/// assert_eq!(norm2(&[3.0, 4.0]), 5.0);
/// // The squares of 3·10²⁰⁰ and 4·10²⁰⁰ overflow; the norm does not.
/// assert!((norm2(&[3e200, 4e200]) / 5e200 - 1.0).abs() <= 2.0 * f64::EPSILON);
/// assert!(norm2(&[0.0, f64::NAN]).is_nan());
/// ```
#[inline(always)]
pub fn norm2(x: &[f64]) -> f64 {
    let amax = x.iter().fold(0.0_f64, |m, &v| m.max(v.abs()));
    if amax == 0.0 || !amax.is_finite() {
        // `f64::max` drops a NaN operand: a NaN entry next to zeros or an infinity would
        // otherwise return 0 or ∞.
        return if x.iter().any(|v| v.is_nan()) {
            f64::NAN
        } else {
            amax
        };
    }
    // A power of two, so scaling is exact (outside the subnormal range).
    let scale = pow2_near(amax);
    if scale == 1.0 {
        return sum_sq2(x).sqrt();
    }
    let mut acc = Neumaier::new();
    for &v in x {
        let (p, e) = two_prod(v / scale, v / scale);
        acc.add_pair((p, e));
    }
    acc.total().sqrt() * scale
}

/// The power of two `2^e` with `2^e ≤ a < 2^{e+1}`, clamped to keep `1/2^e` normal; returns 1
/// when `a` is comfortably inside the range where squaring neither overflows nor underflows.
#[inline(always)]
fn pow2_near(a: f64) -> f64 {
    if (1e-140..=1e140).contains(&a) {
        return 1.0;
    }
    let e = a.log2().floor().clamp(-1000.0, 1000.0) as i32;
    2.0_f64.powi(e)
}

/// Naive dot product with four independent accumulators: vectorisable and with an error bound
/// of `γ_{⌈n/4⌉+2} Σ|aᵢbᵢ|` instead of `γ_n Σ|aᵢbᵢ|` (Higham, *Accuracy and Stability*, §3.1).
#[inline(always)]
#[doc(hidden)]
pub fn dot_lanes(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let mut s = [0.0_f64; 4];
    let ca = a.chunks_exact(4);
    let cb = b.chunks_exact(4);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        s[0] = x[0].mul_add(y[0], s[0]);
        s[1] = x[1].mul_add(y[1], s[1]);
        s[2] = x[2].mul_add(y[2], s[2]);
        s[3] = x[3].mul_add(y[3], s[3]);
    }
    let mut tail = 0.0;
    for (x, y) in ra.iter().zip(rb) {
        tail = x.mul_add(*y, tail);
    }
    ((s[0] + s[1]) + (s[2] + s[3])) + tail
}

/// `(Σ aᵢ², Σ bᵢ², Σ (αaᵢ + βbᵢ)²)` in one pass with eight accumulator lanes per sum (one
/// AVX-512 register each): a single chain of `n` dependent fused multiply-adds would cost
/// `4n` cycles of latency, more than the rest of a KL or PPK at `n = 128`. The tail is run as
/// one more zero-padded block (`0·0 + s = s` exactly), so the lanes stay in registers. Error
/// bound `γ_{⌈n/8⌉+3}` times the sum (Higham §3.1), like [`dot_lanes`]; the same recurrence for
/// all three sums, so `b = a`, `α = β = 1` gives exactly `4Σaᵢ²` in the third.
#[inline(always)]
#[doc(hidden)]
pub fn square_sums_lanes(a: &[f64], b: &[f64], alpha: f64, beta: f64) -> (f64, f64, f64) {
    const L: usize = 8;
    debug_assert_eq!(a.len(), b.len());
    let mut acc = [[0.0_f64; L]; 3];
    let (ca, cb) = (a.chunks_exact(L), b.chunks_exact(L));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    let (x_tail, y_tail): ([f64; L], [f64; L]) = (zero_padded(ra), zero_padded(rb));
    let tail = (!ra.is_empty()).then_some((&x_tail[..], &y_tail[..]));
    let blocks = ca.zip(cb).chain(tail);
    for (x, y) in blocks {
        for l in 0..L {
            acc[0][l] = x[l].mul_add(x[l], acc[0][l]);
            acc[1][l] = y[l].mul_add(y[l], acc[1][l]);
            let c = alpha * x[l] + beta * y[l];
            acc[2][l] = c.mul_add(c, acc[2][l]);
        }
    }
    let [aa, bb, cc] = acc;
    let fold = |v: [f64; L]| ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
    (fold(aa), fold(bb), fold(cc))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sum_and_two_prod_are_error_free() {
        let (s, e) = two_sum(1.0, 1e-20);
        assert_eq!((s, e), (1.0, 1e-20));
        let a = 1.0 + f64::EPSILON;
        let (p, e) = two_prod(a, a);
        // (1 + ε)² = 1 + 2ε + ε²: the ε² lands in the error term exactly.
        assert_eq!(p, 1.0 + 2.0 * f64::EPSILON);
        assert_eq!(e, f64::EPSILON * f64::EPSILON);
    }

    #[test]
    fn dot2_survives_cancellation() {
        // Σ = 1e16 + 1 − 1e16 = 1 exactly; naive summation returns 0.
        let a = [1e16, 1.0, -1e16];
        let b = [1.0, 1.0, 1.0];
        assert_eq!(dot2(&a, &b), 1.0);
    }

    #[test]
    fn norm2_scales() {
        assert!((norm2(&[3e200, 4e200]) / 5e200 - 1.0).abs() <= 2.0 * f64::EPSILON);
        assert!((norm2(&[3e-200, 4e-200]) / 5e-200 - 1.0).abs() <= 2.0 * f64::EPSILON);
        assert_eq!(norm2(&[3.0, 4.0]), 5.0);
        assert_eq!(norm2(&[0.0, 0.0]), 0.0);
    }

    #[test]
    fn lanes_match_naive_on_exact_data() {
        let a: Vec<f64> = (0..11).map(f64::from).collect();
        let b: Vec<f64> = (0..11).map(|i| f64::from(i) * 0.5).collect();
        let naive: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert_eq!(dot_lanes(&a, &b), naive);
    }

    #[test]
    fn square_sums_lanes_with_a_tail() {
        // n = 19: two blocks of eight and a zero-padded tail of three.
        let a: Vec<f64> = (0..19).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..19).map(|i| (i as f64 * 1.1).cos()).collect();
        let (aa, bb, cc) = square_sums_lanes(&a, &b, 2.0, -3.0);
        let naive = |f: &dyn Fn(usize) -> f64| (0..19).map(|i| f(i) * f(i)).sum::<f64>();
        let want_c = naive(&|i| 2.0 * a[i] - 3.0 * b[i]);
        assert!((aa - naive(&|i| a[i])).abs() <= 1e-15 * aa);
        assert!((bb - naive(&|i| b[i])).abs() <= 1e-15 * bb);
        assert!((cc - want_c).abs() <= 1e-15 * want_c);
        // b = a, α = β = 1: the third sum is exactly four times the first.
        let (aa, _, cc) = square_sums_lanes(&a, &a, 1.0, 1.0);
        assert_eq!(cc, 4.0 * aa);
    }

    /// Dyadic data whose sums are exact in i128: `xᵢ = kᵢ/2²⁶` (`|xᵢ| < 14`, the ziggurat's
    /// bound) and `uᵢ = jᵢ/2³⁰`, 203 entries (a zero-padded last block of three); the last `u`
    /// is chosen so that `Σ xᵢuᵢ` cancels to about `2⁻³⁰` against terms near 1, which a plain
    /// sum misses by orders of magnitude. Both results must be within the type's bound of the
    /// exact sums: `2u|Σ|` plus `γ_n` times `n` errors of at most half an ulp of `2K`.
    #[test]
    fn extracted_sums_match_exact_dyadic_sums() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let n = 203;
        let mut k: Vec<i128> = (0..n)
            .map(|_| rng.random_range(-13 * (1i128 << 26)..=13 * (1i128 << 26)))
            .collect();
        k[n - 1] = 13 * (1 << 26) - 1;
        let mut j: Vec<i128> = (0..n)
            .map(|_| rng.random_range(-(1i128 << 30)..=(1i128 << 30)))
            .collect();
        let rest: i128 = (0..n - 1).map(|i| k[i] * j[i]).sum();
        j[n - 1] = -(rest / k[n - 1]);
        let dot_exact = (rest + k[n - 1] * j[n - 1]) as f64 * 2f64.powi(-56);
        let sq_exact = k.iter().map(|&v| v * v).sum::<i128>() as f64 * 2f64.powi(-52);
        let x: Vec<f64> = k.iter().map(|&v| v as f64 * 2f64.powi(-26)).collect();
        let u: Vec<f64> = j.iter().map(|&v| v as f64 * 2f64.powi(-30)).collect();
        assert!(
            u[n - 1].abs() <= 8.0,
            "the data keep Σ|xu| far below K/2 in every lane"
        );

        // A larger offset for the squares than the sampler's 256 (any power of two ≥ max xᵢ²
        // will do): the residuals grow with it, so that dropping them fails the bound below.
        let (k_sq, k_dot) = (2f64.powi(20), 4096.0);
        let mut lanes = ExtractedSumSqAndDot::new(k_sq, k_dot);
        lanes.push_slices(&x, &u);
        let (squares, dot) = lanes.finish();

        let unit = f64::EPSILON / 2.0;
        let gamma = n as f64 * unit / (1.0 - n as f64 * unit);
        let collected = |k: f64| n as f64 * (2.0 * k) * f64::EPSILON / 2.0;
        let dot_tolerance = 2.0 * unit * dot_exact.abs() + gamma * collected(k_dot);
        let naive: f64 = x.iter().zip(&u).map(|(a, b)| a * b).sum();
        assert!(
            (naive - dot_exact).abs() > 1e3 * dot_tolerance,
            "the data must defeat a plain sum: {naive} vs {dot_exact}"
        );
        assert!(
            (dot - dot_exact).abs() <= dot_tolerance,
            "dot {dot} vs {dot_exact}"
        );
        assert!(
            (squares - sq_exact).abs() <= 2.0 * unit * sq_exact + gamma * collected(k_sq),
            "squares {squares} vs {sq_exact}"
        );
    }
}
