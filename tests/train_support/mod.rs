//! What the training methods' tests share (`tests/train_hib.rs`, `tests/train_proxy_nca.rs`):
//! f64 leaves and host copies for the tensor-vs-math-crate checks, the lock on libtorch's global
//! generator, and the synthetic-set learning check.

use probdml::train::config::TrainConfig;
use probdml::train::evaluate::Metrics;
use probdml::train::run;
use std::path::{Path, PathBuf};
use tch::{Device, Tensor};

/// libtorch's generator is process-global: tests that seed it run one at a time.
static LIBTORCH_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the lock on libtorch's generator.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    LIBTORCH_RNG
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An f64 leaf tensor of `shape` that records its gradient.
pub fn leaf(values: &[f64], shape: &[i64]) -> Tensor {
    Tensor::from_slice(values)
        .view(shape)
        .set_requires_grad(true)
}

/// The values of `t` on the host, flattened.
pub fn host(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.detach().contiguous().view([-1])).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "probdml-train-method-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read_losses(out: &Path) -> Vec<f64> {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["mean_loss"].as_f64().unwrap())
        .collect()
}

/// Trains and evaluates `config` (synthetic data) and asserts learning: the mean loss of the
/// last epoch is below the first's, retrieval beats chance (mAP@1 0.1 with ten balanced
/// classes) by far, and the uncertainty metrics exist and are probabilities. Returns the
/// per-epoch losses and the metrics.
pub fn assert_learns(what: &str, config: &TrainConfig) -> (Vec<f64>, Metrics) {
    let out = scratch(what);
    let summary =
        run::train_and_evaluate(config, &PathBuf::from("unused"), &out, false, Device::Cpu)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
    let losses = read_losses(&out);
    assert!(
        losses.last().unwrap() < &losses[0],
        "{what}: the loss did not fall: {losses:?}"
    );
    let m = summary.metrics;
    assert!(m.map_at_1 > 0.5, "{what}: mAP@1 {}", m.map_at_1);
    for (name, v) in [
        ("auroc", m.auroc),
        ("auprc", m.auprc),
        ("ausc", m.ausc),
        ("ece", m.ece),
    ] {
        let v = v.unwrap_or_else(|| panic!("{what}: no {name}"));
        assert!((0.0..=1.0).contains(&v), "{what}: {name} = {v}");
    }
    let _ = std::fs::remove_dir_all(&out);
    (losses, m)
}
