//! The losses the methods share, as differentiable tensor operations: the contrastive loss
//! ([`contrastive`], chapter 03), the Bayesian triplet loss ([`bayesian_triplet`], chapter 05)
//! and the vMF log-normaliser the probabilistic distances need ([`vmf_normaliser`], chapter 06).
//! A loss only one method uses (HIB's VIB loss, PFE's mutual likelihood score, ProxyNCA++'s
//! proxy loss) stays in that method's file.

pub mod bayesian_triplet;
pub mod contrastive;
pub mod vmf_normaliser;
