//! Eight Xoshiro256++ generators in lockstep: one 64-bit word per lane and step, eight words
//! for the cost of about one, for the samplers that draw millions of words.
//!
//! **The generator.** Xoshiro256++ (Blackman & Vigna, "Scrambled linear pseudorandom number
//! generators", ACM TOMS 47(4), 2021): 256 bits of state, period `2²⁵⁶ − 1`, output
//! `rotl(s₀ + s₃, 23) + s₀`. One stream of it is a chain of dependent xor/shift steps, so a
//! CPU cannot draw its words faster than that chain's latency (about one nanosecond per word);
//! eight independent streams advance together in one 512-bit register (or two 256-bit ones),
//! about eight words in the time of one.
//!
//! **The eight streams** are one Xoshiro256++ sequence cut into non-overlapping pieces: lane
//! `k` starts from the seeded state advanced by `k` jumps of `2¹²⁸` steps (Vigna's `jump`
//! polynomial), so no lane can reach another's words for `2¹²⁸` draws. This is the
//! construction the generator's authors give for parallel streams.
//!
//! **The word order** (what seeded results depend on): word `8t + k` of the output is lane
//! `k`'s word `t`. It does not depend on how the words are taken: `next_u64`, `next_u32` (the
//! upper half of a word), and `fill_bytes` (eight bytes per word, little-endian, the last word
//! cut short) all read the same sequence, one word per call or per started eight bytes.
//!
//! **Seeding.** [`from_seed`](SeedableRng::from_seed) takes lane 0's state as four
//! little-endian words, as `rand_xoshiro::Xoshiro256PlusPlus` does (the all-zero seed, a fixed
//! point of the generator, is replaced by `seed_from_u64(0)`), and
//! [`seed_from_u64`](SeedableRng::seed_from_u64) expands the `u64` by SplitMix64 as that type
//! does; so lane 0 of `Xoshiro256PlusPlusX8::seed_from_u64(s)` is exactly
//! `Xoshiro256PlusPlus::seed_from_u64(s)`, and lane `k` is that generator after `k` calls of
//! its `jump`. `proofs/xoshiro_x8.rs` checks every lane against `rand_xoshiro`.
#![cfg_attr(doc, doc = include_str!("../docs/katex-header.html"))]

use core::convert::Infallible;

use rand::{Rng, SeedableRng, TryRng};

/// Lanes, and words per refill of the buffer that serves `next_u64`.
const LANES: usize = 8;
const BUFFER: usize = 8 * LANES;

/// The jump polynomial of Xoshiro256: applying it advances a state by `2¹²⁸` steps
/// (Blackman & Vigna's reference code, `jump()`).
const JUMP: [u64; 4] = [
    0x180e_c6d3_3cfd_0aba,
    0xd5a6_1266_f0c9_392c,
    0xa958_2618_e03f_c9aa,
    0x39ab_dc45_29b1_661c,
];

/// Eight Xoshiro256++ streams advanced together (module docs: the streams, the word order and
/// the seeding).
///
/// # Examples
///
/// ```
/// use probdml::rand::{RngExt, SeedableRng};
/// use probdml::vmf::VonMisesFisher;
/// use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;
/// let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(7);
/// let vmf = VonMisesFisher::new(&[0.0, 1.0, 0.0], 10.0).unwrap();
/// let mut rows = vec![0.0; 1000 * 3];
/// vmf.sample_n_into(&mut rng, 1000, &mut rows).unwrap();
/// let mean_cosine = rows.chunks_exact(3).map(|x| x[1]).sum::<f64>() / 1000.0;
/// assert!((mean_cosine - 0.9).abs() < 0.01); // A₃(10) = coth 10 − 1/10 ≈ 0.9; s.e. 0.003
/// let _: u64 = rng.random();
/// ```
#[derive(Clone)]
pub struct Xoshiro256PlusPlusX8 {
    /// `state[j][k]`: word `j` of lane `k`'s state.
    state: [[u64; LANES]; 4],
    buffer: [u64; BUFFER],
    /// The next unread word of `buffer`; `BUFFER` when it is empty.
    next: usize,
}

impl std::fmt::Debug for Xoshiro256PlusPlusX8 {
    /// The state is the generator's secret as much as its seed: not printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Xoshiro256PlusPlusX8")
            .finish_non_exhaustive()
    }
}

/// Writes the next `out.len()` words of the lanes' sequence (a multiple of eight), advancing
/// `state`.
#[inline(always)]
fn generate(state: &mut [[u64; LANES]; 4], out: &mut [u64]) {
    debug_assert!(out.len().is_multiple_of(LANES));
    crate::instruction_set::dispatch(
        #[inline(always)]
        || {
            for chunk in out.chunks_exact_mut(LANES) {
                step(state, chunk.try_into().expect("eight words"));
            }
        },
    );
}

/// One step of all lanes: writes each lane's output word and advances it.
#[inline(always)]
fn step(state: &mut [[u64; LANES]; 4], out: &mut [u64; LANES]) {
    let [s0, s1, s2, s3] = state;
    for k in 0..LANES {
        out[k] = s0[k]
            .wrapping_add(s3[k])
            .rotate_left(23)
            .wrapping_add(s0[k]);
        let t = s1[k] << 17;
        s2[k] ^= s0[k];
        s3[k] ^= s1[k];
        s1[k] ^= s2[k];
        s0[k] ^= s3[k];
        s2[k] ^= t;
        s3[k] = s3[k].rotate_left(45);
    }
}

impl Xoshiro256PlusPlusX8 {
    /// The eight lanes from lane 0's state (not all zero): lane `k` is `k` jumps ahead. A jump
    /// xors together the states that the polynomial's set bits select along 256 steps (run
    /// here by the lanes' own `step`, every lane holding the same state).
    fn from_lane0(s: [u64; 4]) -> Self {
        let mut state = [[0; LANES]; 4];
        let mut lane = s;
        for k in 0..LANES {
            for (lane_word, &w) in state.iter_mut().zip(&lane) {
                lane_word[k] = w;
            }
            let mut walk = lane.map(|w| [w; LANES]);
            let mut jumped = [0; 4];
            for word in JUMP {
                for bit in 0..64 {
                    if word >> bit & 1 == 1 {
                        jumped.iter_mut().zip(&walk).for_each(|(a, w)| *a ^= w[0]);
                    }
                    step(&mut walk, &mut [0; LANES]);
                }
            }
            lane = jumped;
        }
        Self {
            state,
            buffer: [0; BUFFER],
            next: BUFFER,
        }
    }

    #[inline(always)]
    fn refill(&mut self) {
        generate(&mut self.state, &mut self.buffer);
        self.next = 0;
    }
}

/// Infallible, so it is a `rand::Rng` (rand 0.10's core trait) by the blanket impl.
impl TryRng for Xoshiro256PlusPlusX8 {
    type Error = Infallible;

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        if self.next == BUFFER {
            self.refill();
        }
        let word = self.buffer[self.next];
        self.next += 1;
        Ok(word)
    }

    /// The upper half of the next word (Xoshiro's low bits are its weakest).
    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok((self.next_u64() >> 32) as u32)
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        // The buffered words first, then whole chunks generated straight for `dest`, then the
        // rest through the buffer: the same words, in order, as `next_u64` would give.
        let buffered = (BUFFER - self.next).min(dest.len() / 8);
        let (head, dest) = dest.split_at_mut(8 * buffered);
        copy_words(&self.buffer[self.next..self.next + buffered], head);
        self.next += buffered;
        // Whole steps of the eight lanes: 64 bytes each.
        let (body, tail) = if self.next == BUFFER {
            dest.split_at_mut(dest.len() / (8 * LANES) * (8 * LANES))
        } else {
            dest.split_at_mut(0)
        };
        // SAFETY: every bit pattern is a valid `u64`; `align_to_mut` only reinterprets.
        let (before, aligned, _) = unsafe { body.align_to_mut::<u64>() };
        if cfg!(target_endian = "little") && before.is_empty() {
            // Words in memory are their little-endian bytes: generated in place (`body` is
            // whole words, so `aligned` covers it).
            generate(&mut self.state, aligned);
        } else {
            // The spent buffer holds the words on their way into `dest`.
            for chunk in body.chunks_mut(8 * BUFFER) {
                let words = &mut self.buffer[..chunk.len() / 8];
                generate(&mut self.state, words);
                copy_words(words, chunk);
            }
        }
        let mut tail = tail.chunks_exact_mut(8);
        for bytes in &mut tail {
            bytes.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        let last = tail.into_remainder();
        if !last.is_empty() {
            let n = last.len();
            last.copy_from_slice(&self.next_u64().to_le_bytes()[..n]);
        }
        Ok(())
    }
}

/// `bytes ← words`, eight little-endian bytes per word (`bytes.len() = 8·words.len()`).
#[inline(always)]
fn copy_words(words: &[u64], bytes: &mut [u8]) {
    for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
        b.copy_from_slice(&w.to_le_bytes());
    }
}

impl SeedableRng for Xoshiro256PlusPlusX8 {
    /// Lane 0's state, four little-endian words.
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Self {
        if seed == [0; 32] {
            return Self::seed_from_u64(0);
        }
        let mut s = [0; 4];
        for (w, bytes) in s.iter_mut().zip(seed.chunks_exact(8)) {
            *w = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        }
        Self::from_lane0(s)
    }

    /// SplitMix64 (Steele, Lea & Flood 2014) expands `state` into the seed, as for
    /// `rand_xoshiro::Xoshiro256PlusPlus`.
    fn seed_from_u64(mut state: u64) -> Self {
        let mut seed = [0u8; 32];
        for bytes in seed.chunks_exact_mut(8) {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            bytes.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
        Self::from_seed(seed)
    }
}
