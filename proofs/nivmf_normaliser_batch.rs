//! # Batched ln C_M(κ) for one M and many κ (issue 10, item 6)
//!
//! Claim: `vmf::log_norm_const_batch` returns, bit for bit, the scalar `vmf::log_norm_const`
//! (so it inherits that derivation's proof against the 256-bit reference), and agrees with
//! `vmf::exact::log_norm_const` within `LOG_SPECIAL·max(1, |·|)` on `M ∈ {2, 3, 128, 512}` and
//! `κ ∈ [10⁻³, 10⁵]` plus `κ = 0`.

// derivation: vmf::log_norm_const_batch

#[path = "support/mod.rs"]
mod support;
use probdml::registry::budget;
use probdml::vmf;
use proptest::prelude::*;

#[test]
fn batch_equals_scalar_and_exact_on_a_grid() {
    let kappas: Vec<f64> = std::iter::once(0.0)
        .chain((-12..=20).map(|e| 10f64.powf(e as f64 / 4.0)))
        .collect();
    for dim in [2usize, 3, 4, 41, 42, 128, 512] {
        let mut out = vec![0.0; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).unwrap();
        for (&k, &v) in kappas.iter().zip(&out) {
            assert_eq!(
                v.to_bits(),
                vmf::log_norm_const(dim, k).to_bits(),
                "M = {dim}, κ = {k}"
            );
            let exact = vmf::exact::log_norm_const(dim, k);
            assert!(
                (v - exact).abs() <= budget::LOG_SPECIAL * exact.abs().max(1.0),
                "M = {dim}, κ = {k}: {v} vs {exact}"
            );
        }
    }
}

proptest! {
    #![proptest_config(support::config(64, 0x0006_0600))]

    #[test]
    fn batch_equals_scalar(dim in support::dimension(), kappas in prop::collection::vec(support::log_uniform(1e-3, 1e5), 1..40)) {
        let mut out = vec![0.0; kappas.len()];
        vmf::log_norm_const_batch(dim, &kappas, &mut out).unwrap();
        for (&k, &v) in kappas.iter().zip(&out) {
            prop_assert_eq!(v.to_bits(), vmf::log_norm_const(dim, k).to_bits());
        }
    }
}
