//! Claim: `Xoshiro256PlusPlusX8` is eight Xoshiro256++ streams, lane `k` the seeded generator
//! after `k` jumps of `2¹²⁸` steps, interleaved word by word (word `8t + k` is lane `k`'s word
//! `t`), whichever way the words are taken.
//!
//! The reference is the `rand_xoshiro` crate's `Xoshiro256PlusPlus` and its `jump`, an
//! implementation written independently of this one. Checked: every lane over 10⁴ steps for
//! several seeds, by `seed_from_u64` and `from_seed` (and the all-zero seed's replacement);
//! `next_u64`, `next_u32` (the word's upper half) and `fill_bytes` over pieces of every length
//! from 0 to 1100 bytes, mixed at random, all read the one sequence; clones continue it.
//!
//! The generator's law is Xoshiro256++'s, lane by lane; that draws from different lanes are
//! independent enough for the samplers is tested where it matters, by the ziggurat's battery on
//! consecutive draws (which come from different lanes) in `ziggurat_law.rs`.

use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;
use rand::{Rng, RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The reference sequence: `steps` words of each of the eight jumped lanes, interleaved.
fn reference(lane0: Xoshiro256PlusPlus, steps: usize) -> Vec<u64> {
    let mut lanes = Vec::new();
    let mut g = lane0;
    for _ in 0..8 {
        lanes.push(g.clone());
        g.jump();
    }
    let mut words = Vec::with_capacity(8 * steps);
    for _ in 0..steps {
        for lane in lanes.iter_mut() {
            words.push(lane.next_u64());
        }
    }
    words
}

#[test]
fn every_lane_is_the_jumped_reference() {
    for seed in [0u64, 1, 42, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
        let want = reference(Xoshiro256PlusPlus::seed_from_u64(seed), 10_000);
        let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(seed);
        let got: Vec<u64> = (0..want.len()).map(|_| rng.next_u64()).collect();
        assert!(got == want, "seed_from_u64({seed})");
    }
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37).wrapping_add(1);
    }
    let want = reference(Xoshiro256PlusPlus::from_seed(seed), 1000);
    let mut rng = Xoshiro256PlusPlusX8::from_seed(seed);
    let got: Vec<u64> = (0..want.len()).map(|_| rng.next_u64()).collect();
    assert!(got == want, "from_seed");
    // The all-zero state is a fixed point; both crates replace it by seed_from_u64(0).
    let want = reference(Xoshiro256PlusPlus::from_seed([0; 32]), 100);
    let mut rng = Xoshiro256PlusPlusX8::from_seed([0; 32]);
    let got: Vec<u64> = (0..want.len()).map(|_| rng.next_u64()).collect();
    assert!(got == want, "from_seed of zeros");
    assert_ne!(want[0], 0);
}

#[test]
fn every_way_of_taking_words_reads_one_sequence() {
    let want = reference(Xoshiro256PlusPlus::seed_from_u64(7), 40_000);
    let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(7);
    let mut chooser = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut at = 0;
    let mut lengths_seen = std::collections::HashSet::new();
    while at + 500 < want.len() {
        match chooser.random_range(0..4) {
            0 => {
                assert_eq!(rng.next_u64(), want[at], "next_u64 at word {at}");
                at += 1;
            }
            1 => {
                assert_eq!(
                    rng.next_u32(),
                    (want[at] >> 32) as u32,
                    "next_u32 at word {at}"
                );
                at += 1;
            }
            _ => {
                let len = chooser
                    .random_range(0..=1100usize)
                    .min(8 * (want.len() - at - 1));
                lengths_seen.insert(len % 64);
                // Half the fills start one byte into their allocation: the words cannot then
                // be generated in place, and pass through the generator's buffer instead.
                let offset = usize::from(chooser.random_bool(0.5));
                let mut storage = vec![0u8; len + offset];
                let bytes = &mut storage[offset..];
                rng.fill_bytes(bytes);
                let expected: Vec<u8> = want[at..at + len.div_ceil(8)]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .take(len)
                    .collect();
                assert!(
                    bytes == &expected[..],
                    "fill_bytes of {len} at word {at}, offset {offset}"
                );
                at += len.div_ceil(8);
            }
        }
        if chooser.random_range(0..50) == 0 {
            // A clone continues the same sequence from the same point.
            let mut copy = rng.clone();
            assert_eq!(copy.next_u64(), rng.clone().next_u64());
        }
    }
    // Every remainder modulo a lane step (64 bytes) was exercised, whole words and cut ones.
    assert_eq!(lengths_seen.len(), 64, "{lengths_seen:?}");
    // `Rng::fill` of words is `fill_bytes`: the samplers take their words that way.
    let mut words = [0u64; 300];
    rng.fill(&mut words[..]);
    assert!(words[..] == want[at..at + 300]);
}
