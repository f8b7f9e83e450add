//! The executable proofs: one module per proof file, all in one test binary (linked once, not
//! once per file). `cargo test --test proofs -- vmf_density::` runs one file's proofs.
//!
//! The list is written by `bash scripts/test-targets.sh` from the files of proofs/.

// Shared by the proofs, each file loaded once; a proof names it `crate::<module>`.
#[path = "support/bernstein.rs"]
mod bernstein;
#[path = "support/chi_squared.rs"]
mod chi_squared;
#[path = "support/clt_error.rs"]
mod clt_error;
#[path = "support/deadline.rs"]
mod deadline;
#[path = "support/embeddings.rs"]
mod embeddings;
#[path = "support/gaussian_law.rs"]
mod gaussian_law;
#[path = "ggn_support.rs"]
mod ggn_support;
#[path = "hib_reference.rs"]
mod hib_reference;
#[path = "support/ks.rs"]
mod ks;
#[path = "support/ks_power.rs"]
mod ks_power;
#[path = "metrics_reference_data.rs"]
mod metrics_reference_data;
#[path = "support/normal_law.rs"]
mod normal_law;
#[path = "support/statistic.rs"]
mod statistic;
mod support; // proofs/support/mod.rs: checks against the registry's budgets, the proptest setup
#[path = "support/vmf_law.rs"]
mod vmf_law;

// BEGIN generated modules (bash scripts/test-targets.sh)
#[path = "batch_kernels.rs"]
mod batch_kernels;
#[path = "compensated_norm.rs"]
mod compensated_norm;
#[path = "contrastive_likelihood.rs"]
mod contrastive_likelihood;
#[path = "contrastive_loss.rs"]
mod contrastive_loss;
#[path = "contrastive_rescaling.rs"]
mod contrastive_rescaling;
#[path = "dispatch_bit_identity.rs"]
mod dispatch_bit_identity;
#[path = "gaussian_quadratic_form.rs"]
mod gaussian_quadratic_form;
#[path = "ggn_approximations.rs"]
mod ggn_approximations;
#[path = "ggn_diagonal.rs"]
mod ggn_diagonal;
#[path = "ggn_splits.rs"]
mod ggn_splits;
#[path = "hib_exact_routes.rs"]
mod hib_exact_routes;
#[path = "hib_metrics.rs"]
mod hib_metrics;
#[path = "hib_moment_matched.rs"]
mod hib_moment_matched;
#[path = "hib_monte_carlo.rs"]
mod hib_monte_carlo;
#[path = "hib_monte_carlo_law.rs"]
mod hib_monte_carlo_law;
#[path = "hib_self_mismatch.rs"]
mod hib_self_mismatch;
#[path = "hib_vib.rs"]
mod hib_vib;
#[path = "laplace_marginal_likelihood.rs"]
mod laplace_marginal_likelihood;
#[path = "laplace_online.rs"]
mod laplace_online;
#[path = "laplace_output_variance.rs"]
mod laplace_output_variance;
#[path = "laplace_posterior.rs"]
mod laplace_posterior;
#[path = "laplace_sampler_law.rs"]
mod laplace_sampler_law;
#[path = "metrics_f32.rs"]
mod metrics_f32;
#[path = "metrics_kendall.rs"]
mod metrics_kendall;
#[path = "metrics_ood.rs"]
mod metrics_ood;
#[path = "metrics_retrieval.rs"]
mod metrics_retrieval;
#[path = "metrics_uncertainty.rs"]
mod metrics_uncertainty;
#[path = "nivmf_bregman_series.rs"]
mod nivmf_bregman_series;
#[path = "nivmf_density.rs"]
mod nivmf_density;
#[path = "nivmf_divergences.rs"]
mod nivmf_divergences;
#[path = "nivmf_el_draws_law.rs"]
mod nivmf_el_draws_law;
#[path = "nivmf_normaliser_batch.rs"]
mod nivmf_normaliser_batch;
#[path = "nivmf_proxy_nca.rs"]
mod nivmf_proxy_nca;
#[path = "nivmf_sampler_law.rs"]
mod nivmf_sampler_law;
#[path = "special_bessel.rs"]
mod special_bessel;
#[path = "special_ratio.rs"]
mod special_ratio;
#[path = "triplet_gradient.rs"]
mod triplet_gradient;
#[path = "triplet_likelihood.rs"]
mod triplet_likelihood;
#[path = "triplet_moments.rs"]
mod triplet_moments;
#[path = "triplet_prior.rs"]
mod triplet_prior;
#[path = "vmf_density.rs"]
mod vmf_density;
#[path = "vmf_kappa.rs"]
mod vmf_kappa;
#[path = "vmf_normaliser.rs"]
mod vmf_normaliser;
#[path = "vmf_sampler.rs"]
mod vmf_sampler;
#[path = "vmf_sampler_law.rs"]
mod vmf_sampler_law;
#[path = "xoshiro_x8.rs"]
mod xoshiro_x8;
#[path = "ziggurat_law.rs"]
mod ziggurat_law;
// END generated modules
