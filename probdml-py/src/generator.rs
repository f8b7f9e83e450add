//! The package's random generator: every `seed` argument of `probdml` (vMF and nivMF `rvs`,
//! HIB's Monte Carlo estimates) seeds one [`Generator`] through [`generator`].
//!
//! Xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS
//! 2021) in eight streams advanced together in vector lanes, the crate's
//! [`Xoshiro256PlusPlusX8`]: lane `k` is `rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed)`
//! after `k` jumps of `2¹²⁸` steps, and the words are the lanes' interleaved. Its algorithm is
//! fixed, so a seed gives the same words in every version of the package that keeps this
//! generator (the draws made from them change only where a sampler's algorithm does, as the
//! changelog records), and a Rust program reproduces them with
//! `probdml::xoshiro_x8::Xoshiro256PlusPlusX8::seed_from_u64(seed)`. It is chosen over rand's
//! `StdRng` (ChaCha12, a cryptographic generator whose algorithm rand may change) and over one
//! Xoshiro256++ stream for speed: its words cost about a quarter of one stream's, whose chain
//! of dependent steps bounds how fast it can go (the peers table of book chapter 08 times
//! `rvs` on it).

use probdml::rand::SeedableRng;
pub use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;

/// The generator behind every `seed`.
pub type Generator = Xoshiro256PlusPlusX8;

/// The generator of `seed`.
pub fn generator(seed: u64) -> Generator {
    Generator::seed_from_u64(seed)
}
