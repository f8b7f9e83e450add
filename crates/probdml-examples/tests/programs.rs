//! Runs the seven programs as a user runs them: each must exit 0 (each checks its own numbers).
//! Cargo builds them for this test in the same `cargo test` as the rest of the workspace, so
//! they cost no second build with other features.
use std::process::Command;

fn run(program: &str, path: &str) {
    let out = Command::new(path).output().expect("the program starts");
    assert!(
        out.status.success(),
        "{program} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_program_checks_out() {
    for (program, path) in [
        ("special_functions", env!("CARGO_BIN_EXE_special_functions")),
        ("vmf_from_f32", env!("CARGO_BIN_EXE_vmf_from_f32")),
        ("retrieval_and_ood", env!("CARGO_BIN_EXE_retrieval_and_ood")),
        ("bayesian_triplet", env!("CARGO_BIN_EXE_bayesian_triplet")),
        ("vmf_kl_and_nivmf", env!("CARGO_BIN_EXE_vmf_kl_and_nivmf")),
        ("hedged_embeddings", env!("CARGO_BIN_EXE_hedged_embeddings")),
        ("bad_input", env!("CARGO_BIN_EXE_bad_input")),
    ] {
        run(program, path);
    }
}
