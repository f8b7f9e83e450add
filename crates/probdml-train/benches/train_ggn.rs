//! Chapter 09: the last-layer GGN diagonal as libtorch tensor ops (what online LAM runs every
//! step) against the math crate's fast f64 implementation on identical inputs, at the training
//! size B = 64, F = 9216 (+ bias), D = 3, all ordered pairs with margin 2 (the densest case).
//! Bench ids: `last_layer_ggn_diagonal_tensor`, `last_layer_ggn_diagonal`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use probdml::contrastive::{pair_targets, PairTarget};
use probdml::ggn::{self, Approximation};
use probdml_train::laplace::ggn::{last_layer_ggn_diagonal_tensor, PairTensors};
use std::hint::black_box;
use tch::{Kind, Tensor};

fn values(n: usize, offset: usize) -> Vec<f64> {
    (0..n)
        .map(|s| (((s + offset) as f64 * 0.618_033_988_749_895).fract() - 0.5) * 2.0)
        .collect()
}

fn bench(c: &mut Criterion) {
    let (b, f, d) = (64usize, 9216usize, 3usize);
    let fe = f + 1;
    let mut theta = values(d * fe, 7);
    theta.iter_mut().for_each(|v| *v *= 0.02);
    let mut x = values(b * fe, 1_000_003);
    for i in 0..b {
        x[i * fe + f] = 1.0;
    }
    let y: Vec<f64> = x
        .chunks_exact(fe)
        .flat_map(|xi| {
            (0..d)
                .map(|k| (0..fe).map(|l| theta[k * fe + l] * xi[l]).sum::<f64>())
                .collect::<Vec<_>>()
        })
        .collect();
    let z: Vec<f64> = y
        .chunks_exact(d)
        .flat_map(|v| {
            let r = v.iter().map(|a| a * a).sum::<f64>().sqrt();
            v.iter().map(|a| a / r).collect::<Vec<_>>()
        })
        .collect();
    let labels: Vec<usize> = (0..b).map(|i| i % 10).collect();
    let pairs: Vec<PairTarget> = pair_targets(&z, d, &labels, 2.0).unwrap();
    let theta_t = Tensor::from_slice(&theta)
        .view([d as i64, fe as i64])
        .to_kind(Kind::Float);
    let w = theta_t.narrow(1, 0, f as i64);
    let bias = theta_t.select(1, f as i64);
    let xt = Tensor::from_slice(&x)
        .view([b as i64, fe as i64])
        .narrow(1, 0, f as i64)
        .to_kind(Kind::Float);
    let pt = PairTensors {
        i: Tensor::from_slice(&pairs.iter().map(|p| p.i as i64).collect::<Vec<_>>()),
        j: Tensor::from_slice(&pairs.iter().map(|p| p.j as i64).collect::<Vec<_>>()),
        target: Tensor::from_slice(&pairs.iter().map(|p| p.target as f32).collect::<Vec<_>>()),
    };
    let mut g = c.benchmark_group("train_ggn_B64_F9216_D3");
    g.sample_size(20);
    for a in [Approximation::Fixed, Approximation::Full] {
        let name = format!("{a:?}");
        g.bench_function(
            BenchmarkId::new("last_layer_ggn_diagonal_tensor", &name),
            |bch| {
                bch.iter(|| {
                    last_layer_ggn_diagonal_tensor(
                        black_box(&w),
                        &bias,
                        &xt,
                        &pt,
                        ggn::Split::Arccos,
                        a,
                    )
                    .unwrap()
                })
            },
        );
        g.bench_function(BenchmarkId::new("last_layer_ggn_diagonal", &name), |bch| {
            bch.iter(|| {
                ggn::last_layer_ggn_diagonal(
                    black_box(&theta),
                    &x,
                    fe,
                    &pairs,
                    ggn::Split::Arccos,
                    a,
                )
                .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
