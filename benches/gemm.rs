//! The fast maths' matrix product (`probdml::gemm`: one chain of fused multiply-adds per entry
//! in the order of k, emulated exactly in the SSE2 copy; the Gram blocks' any-order product
//! rounds product and sum there) against faer's, on the shapes its callers use: the neighbour
//! search's `f32` Gram blocks
//! (256 × D by D × 256), the GGN diagonal's C·X (`f64`, rows × B by B × F), the EL-vMF proxy
//! loss's B × M by M × C. Bench ids: `gemm/<shape>/<probdml|faer>/<instruction set>`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};
use probdml::gemm::{product, product_packed, Order, Packed, View};
use probdml::instruction_set::InstructionSet;
use std::hint::black_box;

/// Deterministic values in [−1, 1) (golden-ratio sequence): no RNG in the benches.
fn values(n: usize, offset: usize) -> Vec<f64> {
    (0..n)
        .map(|s| (((s + offset) as f64 * 0.618_033_988_749_895).fract() - 0.5) * 2.0)
        .collect()
}

/// A (m × k, row-major) times Bᵀ where B is n × k row-major: the Gram layout.
fn gram<T>(
    c: &mut Criterion,
    name: &str,
    (m, k, n): (usize, usize, usize),
    order: Order,
    convert: fn(f64) -> T,
) where
    T: probdml::gemm::Tile + faer::traits::ComplexField + From<f32>,
    for<'a> View<'a, T>: Copy,
{
    let a: Vec<T> = values(m * k, 1).into_iter().map(convert).collect();
    let b: Vec<T> = values(n * k, 2).into_iter().map(convert).collect();
    let mut group = c.benchmark_group(format!("gemm/{name}"));
    for isa in InstructionSet::ALL.into_iter().filter(|i| i.is_available()) {
        let id = BenchmarkId::new("probdml", isa.name());
        group.bench_function(id, |bench| {
            let mut dst = vec![T::from(0.0); m * n];
            bench.iter(|| {
                isa.run(|| {
                    product(
                        black_box(&mut dst),
                        n,
                        T::from(1.0),
                        View::row_major(&a, m, k, k),
                        View::row_major(&b, n, k, k).t(),
                        order,
                    )
                })
            })
        });
    }
    // The neighbour search packs each block of rows once and multiplies it by many others.
    let isa = InstructionSet::detected();
    let packed_a = Packed::left(View::row_major(&a, m, k, k));
    let packed_b = Packed::right(View::row_major(&b, n, k, k).t());
    group.bench_function(BenchmarkId::new("probdml prepacked", isa.name()), |bench| {
        let mut dst = vec![T::from(0.0); m * n];
        bench.iter(|| {
            product_packed(
                black_box(&mut dst),
                n,
                T::from(1.0),
                &packed_a,
                &packed_b,
                order,
            )
        })
    });
    group.bench_function(BenchmarkId::new("faer", "own dispatch"), |bench| {
        let mut dst = vec![T::from(0.0); m * n];
        bench.iter(|| {
            let lhs = MatRef::from_row_major_slice(&a, m, k);
            let rhs = MatRef::from_column_major_slice(&b, k, n);
            let out = MatMut::from_row_major_slice_mut(black_box(&mut dst), m, n);
            matmul(out, Accum::Replace, lhs, rhs, T::from(1.0), Par::Seq);
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    gram::<f32>(
        c,
        "gram_f32_256x128x256",
        (256, 128, 256),
        Order::Any,
        |v| v as f32,
    );
    gram::<f64>(c, "ggn_f64_384x64x512", (384, 64, 512), Order::Fixed, |v| v);
    gram::<f64>(
        c,
        "proxy_f64_256x128x100",
        (256, 128, 100),
        Order::Fixed,
        |v| v,
    );
}

criterion_group!(gemm, benches);
criterion_main!(gemm);
