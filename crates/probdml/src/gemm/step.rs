//! Where a tile's block of k stands in its chain of products and sums: what the register tiles
//! (the scalar one and the x86-64 ones) load before the block and store after it.

/// Where a tile's block of k stands in its chain.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    /// C holds the partial sums of the blocks before (else the chain starts at zero).
    pub(super) continues: bool,
    /// The block is the last: the tile stores α times its sums (else the sums).
    pub(super) last: bool,
}
