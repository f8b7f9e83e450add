//! Every seed of a run, derived from the run's one `--seed` in this one place, so that a
//! resumed run, an ensemble member or a re-evaluation draws exactly what the original did.
//!
//! The derivations are fixed: changing one changes every published number of the project.

/// Seed of ensemble member `k` (member 0 is the run itself).
pub fn member(seed: u64, k: usize) -> u64 {
    seed.wrapping_add(1000 * k as u64)
}

/// libtorch seed of one epoch (from 0): a function of the member seed and the epoch only, so
/// that a resumed run draws the same batches, weight samples and masks as an uninterrupted one.
pub fn epoch(seed: u64, epoch: usize) -> i64 {
    (seed.wrapping_mul(1_000_003).wrapping_add(epoch as u64) & 0x7fff_ffff_ffff_ffff) as i64
}

/// Seed of the test-time weight draws (or dropout masks): the same for the ID and the OOD set,
/// and for `train` and a later `eval` of its checkpoint.
pub fn evaluation(seed: u64) -> u64 {
    seed.wrapping_add(7)
}

/// libtorch seed of post-hoc LAM's Hessian pass (pair subsampling).
pub fn posthoc(seed: u64) -> i64 {
    seed as i64
}

/// libtorch seed of a member's weight initialisation.
pub fn initialisation(seed: u64) -> i64 {
    seed as i64
}

/// Seeds of the synthetic set's (train, test, OOD) images.
pub fn synthetic(seed: u64) -> (u64, u64, u64) {
    (seed, seed.wrapping_add(1), seed.wrapping_add(2))
}

/// libtorch seed of post-hoc LAM's Hessian batch `k` (its pair subsampling): a function of the
/// run's seed and the batch alone, so that whichever rank of a data-parallel run computes the
/// batch draws the same pairs.
pub fn posthoc_batch(seed: u64, k: i64) -> i64 {
    (seed.wrapping_mul(1_000_033).wrapping_add(k as u64) & 0x7fff_ffff_ffff_ffff) as i64
}

/// Seed of the per-input draws (dropout masks, PFE/BTL/HIB/ProxyNCA++ samples) of evaluation
/// batch `b` (from 0, counted over the whole set): a function of the evaluation seed and the
/// batch alone, so that whichever rank of a data-parallel run embeds the batch draws the same
/// masks and samples. Batch 0 keeps the evaluation seed itself; the others are spread by the
/// golden-ratio increment, so that no batch's seed is another's or a member's.
pub fn evaluation_batch(seed: u64, b: usize) -> u64 {
    seed.wrapping_add((b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Seed of HIB's verification pairs ([`crate::hib_experiment::VerificationPairs`]): fixed, not
/// the run's, so that every method and seed is scored on the same pairs of the same test images.
pub fn verification_pairs() -> u64 {
    2019
}

/// Seed of the test images whose embeddings a N-digit MNIST run keeps in `hib_embedding.json`
/// ([`crate::hib_experiment::embedding_subset`]): fixed, not the run's, so that every method and
/// seed is drawn on the same images.
pub fn embedding_subset() -> u64 {
    2019
}
