//! The CUDA path against the CPU on one seeded model and one seeded batch: the last-layer GGN
//! diagonal (chapter 04, `probdml_train::laplace::ggn`) and one training step's loss. Ignored
//! by default — it needs a CUDA device; `scripts/gpu-check.sh` runs it.
//!
//! The tolerance, 10⁻² relative (to the largest entry, for the diagonal): cuDNN runs the two
//! convolutions in TF32 by default, which rounds their inputs to 10 mantissa bits
//! (u = 2⁻¹¹ ≈ 4.9·10⁻⁴), while the CPU computes in single precision. To first order each
//! convolution adds a relative error of about u to the features, so after two of them the
//! features, and the embeddings and the loss that are smooth in them, carry ≈ 2u ≈ 10⁻³; the
//! GGN diagonal is quadratic in the features (J = x ⊗ ∂z/∂y), doubling it to ≈ 4u ≈ 2·10⁻³.
//! 10⁻² leaves a factor 5 for the accumulation order of the reductions (over 9216 features and
//! the batch's pairs), which single precision adds on both devices. A real defect of the CUDA
//! path (a wrong kernel, a lost term, another layout) is O(1).

use probdml_train::config::{TrainConfig, ValidConfig};
use probdml_train::data::synthetic;
use probdml_train::guards::Position;
use probdml_train::input_geometry::InputGeometry;
use probdml_train::laplace::ggn::last_layer_ggn_diagonal_tensor;
use probdml_train::method::deterministic::contrastive_step;
use probdml_train::method::{Batch, TensorSet};
use probdml_train::mining::hessian_tuples;
use probdml_train::network::{normalise, Network};
use probdml_train::protocol::HessianMining;
use tch::{Device, Kind, Tensor};

const RTOL: f64 = 1e-2;

fn relative_gap(a: &Tensor, b: &Tensor) -> f64 {
    let a = a.to_device(Device::Cpu).to_kind(Kind::Double);
    let b = b.to_device(Device::Cpu).to_kind(Kind::Double);
    let scale = a.abs().max().double_value(&[]).max(1e-30);
    (a - b).abs().max().double_value(&[]) / scale
}

#[test]
#[ignore = "needs a CUDA device (scripts/gpu-check.sh)"]
fn cpu_and_cuda_agree_on_the_ggn_diagonal_and_one_step_loss() {
    assert!(tch::Cuda::is_available(), "no CUDA device");
    let cuda = Device::Cuda(0);
    let config = ValidConfig::new(TrainConfig::default()).unwrap();
    let set = synthetic(10, 8, 28, 3);
    let cpu_set = TensorSet::new(&set, InputGeometry::MNIST, Device::Cpu).unwrap();
    let cpu = Network::new(
        &config.model,
        InputGeometry::MNIST,
        Device::Cpu,
        11,
        probdml_train::dropout::Dropout::NONE,
    );
    let mut gpu = Network::new(
        &config.model,
        InputGeometry::MNIST,
        cuda,
        11,
        probdml_train::dropout::Dropout::NONE,
    );
    gpu.vs.copy(&cpu.vs).unwrap();

    // The GGN diagonal over the set's pairs, on identical features-to-pairs inputs.
    let ggn = |net: &Network, device: Device| {
        tch::no_grad(|| {
            let x = cpu_set.images.to_device(device);
            let labels = cpu_set.labels.to_device(device);
            let features = net.net.backbone.features(&x, false);
            let z = normalise(&net.net.head.raw(&features));
            let (pairs, _) = hessian_tuples(
                &z,
                &labels,
                config.pairs.margin,
                i64::MAX,
                HessianMining::Pairs,
                features.kind(),
            );
            last_layer_ggn_diagonal_tensor(
                &net.net.head.weight.detach(),
                &net.net.head.bias.detach(),
                &features,
                &pairs,
                config.laplace.split,
                config.laplace.approximation,
            )
            .unwrap()
        })
    };
    let (cw, cb) = ggn(&cpu, Device::Cpu);
    let (gw, gb) = ggn(&gpu, cuda);
    let (dw, db) = (relative_gap(&cw, &gw), relative_gap(&cb, &gb));
    println!("ggn diagonal: relative gap W {dw:.3e}, b {db:.3e} (tolerance {RTOL:e})");
    assert!(dw <= RTOL && db <= RTOL, "GGN diagonal: W {dw:e}, b {db:e}");

    // One step's loss (the deterministic method's: every mined pair of the batch).
    let step_loss = |net: &Network, device: Device| {
        let images = cpu_set.images.to_device(device);
        let labels = cpu_set.labels.to_device(device);
        let at = Position {
            epoch: 1,
            step: 1,
            global_step: 1,
        };
        let step = contrastive_step(
            &net.net,
            &Batch {
                images: &images,
                labels: &labels,
                at,
                train_size: cpu_set.len(),
            },
            &config.pairs,
        )
        .unwrap();
        step.loss.to_device(Device::Cpu).double_value(&[])
    };
    let (lc, lg) = (step_loss(&cpu, Device::Cpu), step_loss(&gpu, cuda));
    let gap = (lc - lg).abs() / lc.abs().max(1e-30);
    println!("loss: cpu {lc:.9}, cuda {lg:.9}, relative gap {gap:.3e} (tolerance {RTOL:e})");
    assert!(lc.is_finite() && gap <= RTOL, "loss: cpu {lc}, cuda {lg}");
}

/// Runs everywhere: where libtorch ships its CUDA backend (the PyPI wheel does, GPU or not),
/// the test binary must have loaded it. The linker's default `--as-needed` drops
/// libtorch_cuda.so, whose only work is done by static initialisers, and then every
/// `--device cuda` is refused on a GPU machine with "no such CUDA device" (build.rs links it).
#[test]
fn libtorch_cuda_is_loaded_where_libtorch_ships_it() {
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    let cpu = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| p.ends_with("/libtorch_cpu.so"))
        .expect("libtorch_cpu.so is mapped");
    let cuda = std::path::Path::new(cpu).with_file_name("libtorch_cuda.so");
    if !cuda.exists() {
        println!("this libtorch has no CUDA backend ({})", cuda.display());
        return;
    }
    let loaded = maps.lines().any(|l| l.ends_with("/libtorch_cuda.so"));
    assert!(loaded, "{} exists but was not loaded", cuda.display());
}
