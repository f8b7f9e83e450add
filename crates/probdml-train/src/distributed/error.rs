//! What can stop a distributed run: a launcher variable that breaks its rule, a rendezvous that
//! cannot complete, a collective that fails — and, when it fails because a peer is gone, which
//! rank that was.

use std::time::Duration;

/// Errors of [`crate::distributed`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistributedError {
    /// A variable that `torchrun` sets is missing or malformed.
    #[error("environment variable `{var}` = {value:?}: {rule}")]
    Environment {
        /// The variable's name (`RANK`, `WORLD_SIZE`, ...).
        var: &'static str,
        /// Its value, or `<unset>`.
        value: String,
        /// The rule it broke.
        rule: &'static str,
    },
    /// The store or the backend could not be set up (address unreachable, a rank never came).
    #[error("rendezvous at {store} as rank {rank} of {world} failed within {timeout:?}: {reason}")]
    Rendezvous {
        /// `MASTER_ADDR:MASTER_PORT`.
        store: String,
        /// This process's rank.
        rank: usize,
        /// The world size.
        world: usize,
        /// The timeout it ran under.
        timeout: Duration,
        /// libtorch's message.
        reason: String,
    },
    /// A collective failed because other ranks stopped: their heartbeats stood still, or the
    /// store's host is gone.
    #[error("{op} failed on rank {rank}: lost {lost}; libtorch said: {reason}")]
    LostRank {
        /// The collective (`all_reduce`, `broadcast`, ...).
        op: &'static str,
        /// This process's rank.
        rank: usize,
        /// Which ranks were lost, in words (`rank 1`, `ranks 1, 3`, or the store's host).
        lost: String,
        /// The ranks lost, when known (empty when the store's host vanished).
        ranks: Vec<usize>,
        /// libtorch's message.
        reason: String,
    },
    /// A collective failed while every rank is still alive (timeout, shape mismatch, ...).
    #[error("{op} failed on rank {rank} (every other rank still alive): {reason}")]
    Collective {
        /// The collective.
        op: &'static str,
        /// This process's rank.
        rank: usize,
        /// libtorch's message.
        reason: String,
    },
    /// A tensor handed to a collective breaks its rule (not contiguous, wrong dtype, ...).
    #[error("{op}: `{arg}` {rule}")]
    InvalidTensor {
        /// The collective.
        op: &'static str,
        /// The argument.
        arg: &'static str,
        /// The rule it broke.
        rule: String,
    },
}

/// Result alias of [`crate::distributed`].
pub type DistributedResult<T> = std::result::Result<T, DistributedError>;
