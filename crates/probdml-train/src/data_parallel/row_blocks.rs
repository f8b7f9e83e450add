//! Row blocks: the unit of the backbone's work in a training step, so that a run's bits depend
//! on the global batch and its blocks, never on how many processes compute them.
//!
//! libtorch's CPU kernels choose their algorithm, and with it the order of their sums, by the
//! shape of their input and by the instruction set (oneDNN's convolutions: direct, im2col-GEMM
//! or Winograd, blocked by batch size, AVX2 or AVX-512). A backbone run over 32 images is
//! therefore not the same floating-point work as two runs over 16, and RMSprop amplifies the
//! difference: its first step is θ ← θ − lr·g/(√((1 − α)g²) + ε) ≈ θ ∓ 10·lr, so a near-zero
//! gradient entry whose sign a rounding flips moves by 20·lr instead of by nothing. Measured on
//! an AMD EPYC (AVX2, no AVX-512): one process at batch 32 and two ranks at 16 parted by
//! 5.6·10⁻⁴ relative in the first epoch's mean loss.
//!
//! So the global batch is cut into `--row-blocks N` equal blocks (by default one per rank); the
//! backbone runs over each block on its own — the same shapes, hence the same kernels, hence
//! the same bits, in whichever process it runs — and its gradient is the sum of the blocks'
//! gradients added in block order, from +0 ([`super::gradients`]). One process with
//! `--row-blocks 2` and two ranks (two blocks, one each) then do the same floating-point work
//! bit for bit, on any CPU; so do four ranks and two ranks with `--row-blocks 4`.
//!
//! Inside a process holding several blocks, each block runs on its own leaf copy of the
//! backbone's parameters ([`block_parameter`]), so that back-propagation leaves each block's
//! gradient apart (autograd would otherwise add them in an order of its own).

use crate::error::{TrainError, TrainResult};
use std::cell::{Cell, RefCell};
use tch::Tensor;

thread_local! {
    /// The row blocks of a global batch, set by the program (`--row-blocks`) on the thread that
    /// trains; 0 means one per rank.
    static TOTAL: Cell<usize> = const { Cell::new(0) };
    /// This step's leaf copies of the backbone's parameters, per own block: (the address of
    /// the variable's data, its leaf copy).
    static LEAVES: RefCell<Vec<Vec<(usize, Tensor)>>> = const { RefCell::new(Vec::new()) };
}

/// Sets the number of row blocks of every global batch of `batch` images per rank. `blocks`
/// must be a positive multiple of the world size (each rank holds the same number of whole
/// blocks) that divides the global batch.
///
/// # Errors
///
/// [`TrainError::InvalidConfig`] naming `row-blocks`.
pub fn set_total(blocks: usize, batch: usize) -> TrainResult<()> {
    let world = super::world_size();
    let global = batch.saturating_mul(world);
    if blocks == 0 || !blocks.is_multiple_of(world) || !global.is_multiple_of(blocks) {
        return Err(TrainError::config(
            "row-blocks",
            blocks,
            format!(
                "must be a positive multiple of the world size {world} (each rank holds the \
                 same number of whole blocks) that divides the global batch {global} (--batch \
                 {batch} × {world} ranks)"
            ),
        ));
    }
    TOTAL.with(|t| t.set(blocks));
    Ok(())
}

/// The row blocks of a global batch: as set, else one per rank.
pub fn total() -> usize {
    match TOTAL.with(Cell::get) {
        0 => super::world_size(),
        n => n,
    }
}

/// The blocks each rank holds.
pub fn per_rank() -> usize {
    (total() / super::world_size()).max(1)
}

/// Forgets the last step's leaf copies (the start of a step).
pub(super) fn clear() {
    LEAVES.with(|l| l.borrow_mut().clear());
}

/// The leaf copy of the backbone's variable `var` for own block `block` of this step: made on
/// first use (the same values, no history, requiring grad), the same tensor afterwards within
/// the step.
pub fn block_parameter(block: usize, var: &Tensor) -> Tensor {
    let key = var.data_ptr() as usize;
    LEAVES.with(|l| {
        let mut l = l.borrow_mut();
        if l.len() <= block {
            l.resize_with(block + 1, Vec::new);
        }
        if let Some((_, t)) = l[block].iter().find(|(k, _)| *k == key) {
            return t.shallow_clone();
        }
        // A frozen variable (PFE's backbone) stays frozen in its copies.
        let leaf = var.detach().set_requires_grad(var.requires_grad());
        l[block].push((key, leaf.shallow_clone()));
        leaf
    })
}

/// The gradients of this step's leaf copies of `var`, in block order (empty when the step made
/// none: one block per rank).
pub(super) fn block_gradients(var: &Tensor) -> Vec<Tensor> {
    let key = var.data_ptr() as usize;
    LEAVES.with(|l| {
        l.borrow()
            .iter()
            .filter_map(|block| block.iter().find(|(k, _)| *k == key))
            .map(|(_, t)| t.grad())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_parallel::gradients::reduce_gradients;
    use crate::data_parallel::shard::GatherDuringStep;
    use crate::network::{normalise, EmbeddingNet};
    use tch::{nn, Device, Kind};

    /// A loss that couples the rows of the batch, as the pair losses do: Σᵢⱼ cᵢⱼ zᵢ·zⱼ.
    fn coupled_loss(z: &Tensor, c: &Tensor) -> Tensor {
        (z.matmul(&z.tr()) * c).sum(Kind::Float)
    }

    fn backbone_variables(vs: &nn::VarStore) -> Vec<(String, Tensor)> {
        let mut v: Vec<_> = vs
            .variables()
            .into_iter()
            .filter(|(n, _)| n.starts_with(crate::data_parallel::gradients::BEFORE_THE_GATHER))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    fn bits(t: &Tensor) -> Vec<u32> {
        Vec::<f32>::try_from(t.reshape([-1]))
            .unwrap()
            .into_iter()
            .map(f32::to_bits)
            .collect()
    }

    /// Three blocks of an 12-image batch in one process: each backbone variable's gradient must
    /// be, bit for bit, +0 + g₀ + g₁ + g₂, where g_h is what autograd gives the module's own
    /// variable when back-propagating block h's share alone (∂L/∂f_h, taken from the whole
    /// batch's loss). The reference uses neither the block copies nor the reduction: a gradient
    /// scaled, dropped, doubled or added out of order in either fails it.
    #[test]
    fn blocked_gradient_is_the_ordered_sum_of_the_blocks_gradients() {
        tch::manual_seed(11);
        let vs = nn::VarStore::new(Device::Cpu);
        let net = EmbeddingNet::new(
            &vs,
            3,
            crate::dropout::Dropout::NONE,
            crate::input_geometry::InputGeometry::MNIST,
            crate::backbone_layout::BackboneLayout::Reference,
            crate::conv_init::ConvInit::Kaiming,
        );
        let (n, blocks) = (12i64, 3i64);
        let images = Tensor::rand([n, 1, 28, 28], (Kind::Float, Device::Cpu));
        let c = Tensor::randn([n, n], (Kind::Float, Device::Cpu));
        let head = |f: &Tensor| normalise(&net.head.raw(f));

        set_total(blocks as usize, n as usize).unwrap();
        let step = GatherDuringStep::start();
        assert_eq!(super::super::shard::own_blocks(), 3);
        let z = head(&net.backbone.features(&images, true));
        drop(step);
        coupled_loss(&z, &c).backward();
        reduce_gradients(&vs).unwrap();
        let blocked: Vec<Vec<u32>> = backbone_variables(&vs)
            .iter()
            .map(|(name, v)| {
                assert!(v.grad().defined(), "{name} has no gradient");
                bits(&v.grad())
            })
            .collect();
        TOTAL.with(|t| t.set(0));

        let rows = n / blocks;
        let f: Vec<Tensor> = (0..blocks)
            .map(|j| {
                net.backbone
                    .features(&images.narrow(0, j * rows, rows), true)
            })
            .collect();
        let loss = coupled_loss(&head(&Tensor::cat(&f, 0)), &c);
        let upstream = Tensor::run_backward(&[&loss], &f, false, false);
        let vars = backbone_variables(&vs);
        let params: Vec<&Tensor> = vars.iter().map(|(_, v)| v).collect();
        let mut sums: Vec<Tensor> = params.iter().map(|p| p.zeros_like().detach()).collect();
        for (fj, gj) in f.iter().zip(&upstream) {
            let share = (fj * gj.detach()).sum(Kind::Float);
            let g = Tensor::run_backward(&[&share], &params, true, false);
            for (s, g) in sums.iter_mut().zip(&g) {
                let _ = tch::no_grad(|| s.f_add_(g)).unwrap();
            }
        }
        for ((name, _), (b, s)) in vars.iter().zip(blocked.iter().zip(&sums)) {
            assert_eq!(
                b,
                &bits(s),
                "{name}: blocked gradient against the blocks' sum"
            );
        }
    }

    #[test]
    fn row_blocks_must_divide_the_global_batch() {
        for (blocks, batch) in [(0, 32), (3, 32), (64, 32)] {
            let e = set_total(blocks, batch).unwrap_err().to_string();
            assert!(e.contains("row-blocks") && e.contains("divides"), "{e}");
        }
        set_total(4, 32).unwrap();
        assert_eq!((total(), per_rank()), (4, 4));
        TOTAL.with(|t| t.set(0));
        assert_eq!((total(), per_rank()), (1, 1));
    }
}
