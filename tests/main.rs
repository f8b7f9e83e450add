//! The behaviour tests (bad input, error positions, distribution objects, public API, the
//! registry's coverage of proofs, benches and chapters): one module per file, all in one test
//! binary. `cargo test --test tests -- registry_coverage::` runs one file's tests.
//!
//! The list is written by `bash scripts/test-targets.sh` from the files of tests/.

// BEGIN generated modules (bash scripts/test-targets.sh)
#[path = "bad_input.rs"]
mod bad_input;
#[path = "build_sharing.rs"]
mod build_sharing;
#[path = "checked_and_raw.rs"]
mod checked_and_raw;
#[path = "contrastive_bad_input.rs"]
mod contrastive_bad_input;
#[path = "distribution_objects.rs"]
mod distribution_objects;
#[path = "doc_snippets.rs"]
mod doc_snippets;
#[path = "error_positions.rs"]
mod error_positions;
#[path = "exact_special_smoke.rs"]
mod exact_special_smoke;
#[path = "ggn_bad_input.rs"]
mod ggn_bad_input;
#[path = "hib_bad_input.rs"]
mod hib_bad_input;
#[path = "integer_labels.rs"]
mod integer_labels;
#[path = "laplace_bad_input.rs"]
mod laplace_bad_input;
#[path = "laplace_chain.rs"]
mod laplace_chain;
#[path = "metrics_bad_input.rs"]
mod metrics_bad_input;
#[path = "named_inputs.rs"]
mod named_inputs;
#[path = "nivmf_bad_input.rs"]
mod nivmf_bad_input;
#[path = "public_api.rs"]
mod public_api;
#[path = "reference_values.rs"]
mod reference_values;
#[path = "registry_coverage.rs"]
mod registry_coverage;
#[path = "triplet_bad_input.rs"]
mod triplet_bad_input;
#[path = "vmf_distribution.rs"]
mod vmf_distribution;
// END generated modules
