//! Claim: every kernel chosen at run time gives the same bits in its portable copy, its
//! AVX2+FMA copy and its AVX-512 copy, on the same inputs (`probdml::instruction_set`).
//!
//! Why it holds: both copies run the same IEEE-754 operations in the same order, every fused
//! multiply-add is `f64::mul_add` (correctly rounded on both), and Rust never contracts a
//! product and a sum on its own. Why it needs a proof anyway: a kernel that the compiler does
//! not inline into a wide copy, or an intrinsic path written for one copy only, would silently
//! break it.
//!
//! Each property runs the public entry point under [`InstructionSet::Portable`] and under every
//! wider instruction set of [`InstructionSet::ALL`] that this CPU has, explicitly, and compares
//! `to_bits()`. A copy that this CPU cannot run is named on stderr and skipped (a caller on this
//! CPU cannot reach it either); on a CPU without AVX2 and FMA only the portable copy runs, and
//! the test says so and checks nothing else. `copies_exercised_on_this_cpu_are_reported` sums
//! up in one paragraph which copies ran and which could not, and `scripts/test.sh` prints it at
//! the end of its run.
// The positional nivMF densities `(x, mu, kappas)` are the registry's fast items (deprecated for
// users: the distribution's `ln_pdf` names its arguments and calls the same code).
#![allow(deprecated)]
use probdml::instruction_set::InstructionSet;
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml::{special, vmf, Labels};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Runs `f` on the portable copy and on every wider copy this CPU has: `(portable, [(isa,
/// result)])`.
fn every_copy<T>(f: impl Fn() -> T) -> (T, Vec<(InstructionSet, T)>) {
    let portable = InstructionSet::Portable
        .run(&f)
        .expect("the portable copy always runs");
    let wide = InstructionSet::ALL
        .into_iter()
        .filter(|&isa| isa != InstructionSet::Portable)
        .filter_map(|isa| {
            let result = isa.run(&f);
            if result.is_none() {
                eprintln!(
                    "this CPU lacks {}: that copy is not checked here",
                    isa.name()
                );
            }
            result.map(|r| (isa, r))
        })
        .collect();
    (portable, wide)
}

/// Asserts that every wide copy's result equals the portable one.
fn assert_every_copy_equal<T: PartialEq + std::fmt::Debug>(f: impl Fn() -> T, what: &str) {
    let (portable, wide) = every_copy(f);
    for (isa, result) in wide {
        assert_eq!(portable, result, "{what}: portable vs {}", isa.name());
    }
}

fn skip_without_avx2_fma() -> bool {
    if InstructionSet::Avx2Fma.is_available() {
        return false;
    }
    eprintln!("this CPU lacks AVX2+FMA: only the portable copy exists here");
    true
}

/// The CPU as it names itself: the CPUID brand string (leaves 0x8000_0002 to 0x8000_0004) and
/// the family and model of leaf 1 (Intel SDM vol. 2A, CPUID). An emulator answers for the CPU it
/// emulates, where /proc/cpuinfo would name the host's.
#[cfg(target_arch = "x86_64")]
fn cpu_name() -> String {
    // `__cpuid` is an `unsafe fn` in some releases that the MSRV admits, a safe one in later ones.
    #[allow(unused_unsafe)]
    fn cpuid(leaf: u32) -> std::arch::x86_64::CpuidResult {
        // SAFETY: CPUID exists on every x86-64 CPU.
        unsafe { std::arch::x86_64::__cpuid(leaf) }
    }
    let brand = if cpuid(0x8000_0000).eax >= 0x8000_0004 {
        let bytes: Vec<u8> = (0x8000_0002..=0x8000_0004)
            .map(cpuid)
            .flat_map(|r| [r.eax, r.ebx, r.ecx, r.edx])
            .flat_map(u32::to_le_bytes)
            .collect();
        String::from_utf8_lossy(&bytes)
            .trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_owned()
    } else {
        "no brand string".to_owned()
    };
    let eax = cpuid(1).eax;
    let base_family = (eax >> 8) & 0xf;
    let family = base_family
        + if base_family == 0xf {
            (eax >> 20) & 0xff
        } else {
            0
        };
    let model = ((eax >> 4) & 0xf)
        | if base_family == 0x6 || base_family == 0xf {
            ((eax >> 16) & 0xf) << 4
        } else {
            0
        };
    format!("{brand}, family {family} model {model}")
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_name() -> String {
    std::env::consts::ARCH.to_owned()
}

/// What the properties of this file compare on this CPU and what they cannot, in one paragraph:
/// on stderr and in `<target>/tmp/dispatch-coverage.txt`, which `scripts/test.sh` prints at the
/// end of its report. A copy that this CPU cannot run is not checked by the run at all (README
/// names the CPU on which every copy last ran).
#[test]
fn copies_exercised_on_this_cpu_are_reported() {
    let (runnable, not_runnable): (Vec<_>, Vec<_>) = InstructionSet::ALL
        .into_iter()
        .partition(|isa| isa.is_available());
    // The report is as true as `run`: it runs, forced, exactly the copies reported runnable.
    for isa in InstructionSet::ALL {
        assert_eq!(
            isa.run(InstructionSet::active),
            runnable.contains(&isa).then_some(isa),
            "{}",
            isa.name()
        );
    }
    assert_eq!(runnable.first(), Some(&InstructionSet::Portable));
    let exercised: Vec<&str> = runnable.iter().map(|isa| isa.name()).collect();
    let lacking = if not_runnable.is_empty() {
        "none".to_owned()
    } else {
        let named: Vec<String> = not_runnable
            .iter()
            .map(|&isa| match isa {
                InstructionSet::Avx2Fma => format!("{} (needs AVX2 and FMA)", isa.name()),
                InstructionSet::Avx512 => format!(
                    "{} (needs AVX-512 F, DQ, VL and BW, with AVX2 and FMA)",
                    isa.name()
                ),
                _ => format!("{} (a copy this report does not know)", isa.name()),
            })
            .collect();
        named.join(", ")
    };
    let cpu = cpu_name();
    let verdict = if runnable.len() > 1 {
        "Each kernel family of proofs/dispatch_bit_identity.rs ran on every copy exercised, \
         compared bit for bit with the portable one"
    } else {
        "Nothing was compared: each kernel family needs a second copy"
    };
    let unchecked = if not_runnable.is_empty() {
        String::new()
    } else {
        " The copies not runnable here are unchecked by this run; README names the CPU on which \
         every copy last ran."
            .to_owned()
    };
    let summary = format!(
        "Instruction-set copies exercised on this CPU ({cpu}): {}; not runnable here: {}. \
         {verdict}.{unchecked}\n",
        exercised.join(", "),
        lacking,
    );
    eprint!("{summary}");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dispatch-coverage.txt");
    std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).expect("the target's tmp directory");
    std::fs::write(&path, &summary).expect("the coverage summary is written");
    assert_eq!(
        std::fs::read_to_string(&path).expect("and reads back"),
        summary
    );
}

/// Orders 0 … 10⁴ and arguments 10⁻⁸ … 10⁸: every regime of `special/log_bessel_i.rs`
/// (series, closed form, Hankel, recurrence, Debye) and both range branches of the logarithm.
fn bessel_grid() -> Vec<(f64, f64)> {
    let orders = [
        0.0, 0.25, 0.5, 1.0, 1.5, 2.7, 10.0, 19.5, 19.999, 20.0, 20.5, 63.0, 127.0, 255.0, 1023.0,
        1e4,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let mut grid = Vec::new();
    for &nu in &orders {
        for i in 0..=64 {
            grid.push((nu, 10f64.powf(-8.0 + 16.0 * i as f64 / 64.0)));
        }
        for _ in 0..32 {
            grid.push((nu, 10f64.powf(rng.random_range(-8.0..8.0))));
        }
        for &x in &[
            0.0,
            5e-324,
            31.999,
            32.0,
            0.75 * nu * nu,
            1e300,
            f64::INFINITY,
        ] {
            grid.push((nu, x));
        }
    }
    grid
}

fn bits(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

/// ln I_ν(x) and I_{ν+1}/I_ν, and the batched ln I_ν: the double-double arithmetic of every
/// regime, scalar and in lanes.
#[test]
fn bessel_functions_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    let grid = bessel_grid();
    let run = || {
        let logs: Vec<f64> = grid
            .iter()
            .map(|&(nu, x)| special::log_bessel_i(nu, x))
            .collect();
        let ratios: Vec<f64> = grid
            .iter()
            .map(|&(nu, x)| special::bessel_i_ratio(nu, x))
            .collect();
        // The batch per order, on its arguments as generated and sorted (the two visiting
        // orders of the small-order lanes).
        let mut batch = Vec::new();
        for per_order in grid.chunk_by(|a, b| a.0 == b.0) {
            let nu = per_order[0].0;
            let mut xs: Vec<f64> = per_order.iter().map(|&(_, x)| x).collect();
            for _ in 0..2 {
                let finite: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
                let mut out = vec![0.0; finite.len()];
                special::log_bessel_i_batch(nu, &finite, &mut out).expect("valid input");
                batch.extend(bits(&out));
                xs.sort_by(f64::total_cmp);
            }
        }
        (bits(&logs), bits(&ratios), batch)
    };
    assert_every_copy_equal(run, "(ln I_ν(x), I_(ν+1)(x)/I_ν(x), log_bessel_i_batch)");
}

fn dims() -> [usize; 9] {
    [2, 3, 4, 5, 16, 41, 42, 128, 512]
}

fn kappa_grid() -> Vec<f64> {
    let mut kappas: Vec<f64> = (0..=120)
        .map(|i| 10f64.powf(-6.0 + 12.0 * i as f64 / 120.0))
        .collect();
    kappas.extend([0.0, 5e-324, 1e-300, 700.0, 1e151, 1e300]);
    kappas
}

/// ln C_M(κ), A_M(κ), 1 − A_M(κ), the entropy and the KL to the uniform law, scalar and
/// batched: the lane kernels (Debye lanes, ln(sinh κ/κ) lanes, e^{−2κ}) and the scalar ones.
#[test]
fn vmf_normaliser_family_is_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    let kappas = kappa_grid();
    for dim in dims() {
        let run = || {
            let scalar: Vec<Vec<u64>> = [
                vmf::log_norm_const as fn(usize, f64) -> f64,
                vmf::mean_resultant_length,
                vmf::mean_resultant_length_complement,
                vmf::entropy,
                vmf::kl_to_uniform,
            ]
            .iter()
            .map(|f| bits(&kappas.iter().map(|&k| f(dim, k)).collect::<Vec<_>>()))
            .collect();
            let mut batch = vec![0.0; kappas.len()];
            vmf::log_norm_const_batch(dim, &kappas, &mut batch).expect("valid input");
            (scalar, bits(&batch))
        };
        assert_every_copy_equal(
            run,
            &format!("M = {dim}: (scalar vMF functions, log_norm_const_batch)"),
        );
    }
}

/// κ̂ = A_M⁻¹(R̄) by the safeguarded Newton solver, and Sra's iteration.
#[test]
fn kappa_estimates_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    let rbars: Vec<f64> = (0..200)
        .map(|i| i as f64 / 200.0)
        .chain([1e-12, 0.5, 0.999, 1.0 - 1e-9, 1.0 - 1e-14])
        .collect();
    for dim in dims() {
        let run = || {
            let mle: Vec<f64> = rbars
                .iter()
                .map(|&r| vmf::kappa_mle(dim, r).expect("R̄ in [0, 1)"))
                .collect();
            let sra: Vec<f64> = rbars
                .iter()
                .map(|&r| vmf::kappa_sra(dim, r, 2).expect("R̄ in [0, 1)"))
                .collect();
            (bits(&mle), bits(&sra))
        };
        assert_every_copy_equal(run, &format!("M = {dim}"));
    }
}

/// The ziggurat's block fast path (gathers in the AVX-512 copy) and the vMF sampler built on
/// it, on fills that end inside a block of eight, at a block boundary and past one, from two
/// generators (one word at a time, and eight lanes in bulk): the same draws.
#[test]
fn normals_and_vmf_draws_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    for len in [1usize, 7, 127, 256, 257, 100_003] {
        let chacha = || {
            let mut x = vec![0.0; len];
            probdml::ziggurat::fill_standard_normal(&mut ChaCha8Rng::seed_from_u64(4), &mut x);
            bits(&x)
        };
        assert_every_copy_equal(chacha, &format!("normals, ChaCha8, {len}"));
        let lanes = || {
            let mut x = vec![0.0; len];
            let mut rng = probdml::xoshiro_x8::Xoshiro256PlusPlusX8::seed_from_u64(4);
            probdml::ziggurat::fill_standard_normal(&mut rng, &mut x);
            bits(&x)
        };
        assert_every_copy_equal(lanes, &format!("normals, eight lanes, {len}"));
    }
    for (dim, kappa) in [(3usize, 5.0), (128, 50.0), (300, 0.0), (1000, 1e4)] {
        let mut mu = vec![0.0; dim];
        mu[dim / 2] = -1.0;
        let vmf = vmf::VonMisesFisher::new(&mu, kappa).expect("valid vMF");
        let run = || {
            let mut rows = vec![0.0; 400 * dim];
            let mut rng = probdml::xoshiro_x8::Xoshiro256PlusPlusX8::seed_from_u64(9);
            vmf.sample_n_into(&mut rng, 400, &mut rows)
                .expect("n·M entries");
            bits(&rows)
        };
        assert_every_copy_equal(run, &format!("vMF draws, M = {dim}, κ = {kappa}"));
    }
}

/// `v/‖v‖`.
fn normalised(v: Vec<f64>) -> Vec<f64> {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.into_iter().map(|x| x / norm).collect()
}

/// A unit vector of `dim` entries, from uniform entries in `[−1, 1)` normalised.
fn random_unit(rng: &mut ChaCha8Rng, dim: usize) -> Vec<f64> {
    normalised((0..dim).map(|_| rng.random_range(-1.0..1.0)).collect())
}

/// The nivMF divergences and densities (their one-pass lane sums, `compensated.rs`
/// `square_sums_lanes`, and the normalisers they call), at near and far pairs of means, for
/// concentrations from 0 to 10⁴ and every dimension of [`dims`].
#[test]
fn nivmf_divergences_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    use probdml::nivmf;
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for dim in dims() {
        let (mu_z, far) = (random_unit(&mut rng, dim), random_unit(&mut rng, dim));
        // A near pair: μ_z nudged and renormalised (1 − μ_pᵀμ_z ~ 10⁻⁸).
        let near = normalised(mu_z.iter().zip(&far).map(|(a, b)| a + 1e-4 * b).collect());
        let kappas: Vec<f64> = (0..dim).map(|i| 0.5 + (i % 7) as f64 * 30.0).collect();
        for mu_p in [&far, &near] {
            let run = || {
                let mut out = vec![];
                for (kz, kp) in [(0.5, 2.0), (50.0, 60.0), (1e4, 1e3), (50.0, 0.0)] {
                    out.push(nivmf::kl_vmf(&mu_z, kz, mu_p, kp).expect("valid KL arguments"));
                    out.push(nivmf::kl_vmf_paper(&mu_z, kz, mu_p, kp).expect("valid arguments"));
                    let nu_z: Vec<f64> = mu_z.iter().map(|m| m * kz).collect();
                    let nu_p: Vec<f64> = mu_p.iter().map(|m| m * kp.max(0.1)).collect();
                    for gamma in [0.5, 1.0, 2.0] {
                        out.push(nivmf::log_ppk(&nu_z, &nu_p, gamma).expect("valid PPK"));
                    }
                    out.push(nivmf::bhattacharyya_distance(&nu_z, &nu_p).expect("valid pair"));
                    out.push(nivmf::expected_likelihood_distance(&nu_z, &nu_p).expect("valid"));
                }
                out.push(nivmf::log_density(mu_p, &mu_z, &kappas).expect("valid density"));
                out.push(nivmf::log_density_heuristic(mu_p, &mu_z, &kappas).expect("valid"));
                bits(&out)
            };
            assert_every_copy_equal(run, &format!("nivMF, M = {dim}"));
        }
    }
}

/// The nivMF proxy losses on a batch (their per-pair kernels: the KL and Bhattacharyya direct
/// routes in Debye lanes, the Bregman route near `κ_z = κ_p`, the nivMF density and its
/// gradient, the batched normalisers of EL-vMF, the Monte Carlo draws of EL-nivMF), and
/// ProxyAnchor and the joint loss: the loss, the distances and every gradient, for every
/// dimension of [`dims`].
#[test]
fn nivmf_proxy_losses_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for dim in dims() {
        let scaled = |v: Vec<f64>, k: f64| -> Vec<f64> { v.into_iter().map(|x| x * k).collect() };
        let rows: Vec<Vec<f64>> = [0.5, 3.0, 30.0, 60.0, 300.0, 3000.0]
            .into_iter()
            .map(|k| scaled(random_unit(&mut rng, dim), k))
            .collect();
        // Proxies near two embeddings (κ_p ≈ κ_z, where KL and Bhattacharyya take the Bregman
        // route) and two far ones.
        let nudged = normalised(
            rows[3]
                .iter()
                .zip(random_unit(&mut rng, dim))
                .map(|(a, b)| a / 60.0 + 1e-3 * b)
                .collect(),
        );
        let proxies: Vec<f64> = [
            scaled(rows[2].clone(), 1.001),
            scaled(nudged, 60.0),
            scaled(random_unit(&mut rng, dim), 60.0),
            scaled(random_unit(&mut rng, dim), 0.7),
        ]
        .concat();
        let embeddings = rows.concat();
        let concentrations: Vec<f64> = (0..4 * dim).map(|i| 0.5 + (i % 7) as f64 * 3.0).collect();
        let batch = ProxyBatch {
            embeddings: &embeddings,
            labels: Labels::Usize(&[0, 1, 2, 3, 0, 1]),
            proxies: &proxies,
            concentrations: &concentrations,
            dim,
        };
        let run = || {
            let mut out = vec![];
            let mut push = |loss: nivmf::ProxyLoss| {
                out.push(loss.loss);
                out.extend(loss.distances);
                out.extend(loss.grad_embeddings);
                out.extend(loss.grad_proxies);
                out.extend(loss.grad_concentrations);
            };
            for distance in [
                ProxyDistance::Cosine,
                ProxyDistance::L2,
                ProxyDistance::NivMf,
                ProxyDistance::NivMfHeuristic,
                ProxyDistance::ElVmf,
                ProxyDistance::BVmf,
                ProxyDistance::KlVmf,
                ProxyDistance::ElNivMf {
                    samples: 3,
                    seed: 5,
                },
            ] {
                push(nivmf::proxy_nca_loss(distance, &batch, 0.5).expect("a valid batch"));
            }
            push(nivmf::proxy_anchor_loss(&batch, 32.0, 0.1).expect("a valid batch"));
            push(
                nivmf::joint_proxy_loss(&batch, 3, 5, 0.5, 0.3, 32.0, 0.1).expect("a valid batch"),
            );
            bits(&out)
        };
        assert_every_copy_equal(run, &format!("nivMF proxy losses, M = {dim}"));
    }
}

/// The last-layer GGN diagonals (`ggn/diagonal.rs`: the per-point coefficients, the sparse
/// cross-term loop and the dense route's quadratic forms) for both splits and every
/// approximation, one at a time and all six at once, with few pairs (the sparse route) and with
/// every pair (the dense one).
#[test]
fn ggn_diagonals_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    use probdml::contrastive::PairTarget;
    use probdml::ggn::{self, Approximation, Split};
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for (b, m, f) in [(12, 3, 9), (12, 16, 70), (20, 5, 131)] {
        let weights: Vec<f64> = (0..m * f).map(|_| rng.random_range(-1.0..1.0)).collect();
        let features: Vec<f64> = (0..b * f).map(|_| rng.random_range(-1.0..1.0)).collect();
        let every: Vec<PairTarget> = (0..b)
            .flat_map(|i| (i + 1..b).map(move |j| (i, j)))
            .map(|(i, j)| PairTarget {
                i,
                j,
                target: if (i + j) % 3 == 0 { 1.0 } else { -0.5 },
            })
            .collect();
        let few: Vec<PairTarget> = every.iter().step_by(9).copied().collect();
        for pairs in [&few, &every] {
            let run = || {
                let mut out = vec![];
                for split in Split::ALL {
                    for approximation in Approximation::ALL {
                        out.extend(
                            ggn::last_layer_ggn_diagonal(
                                &weights,
                                &features,
                                f,
                                pairs,
                                split,
                                approximation,
                            )
                            .expect("a valid problem"),
                        );
                    }
                }
                let all = ggn::last_layer_ggn_diagonals(&weights, &features, f, pairs)
                    .expect("a valid problem");
                for split in Split::ALL {
                    for approximation in Approximation::ALL {
                        out.extend_from_slice(all.get(split, approximation));
                    }
                }
                bits(&out)
            };
            let what = format!(
                "GGN diagonals, B = {b}, M = {m}, F = {f}, {} pairs",
                pairs.len()
            );
            assert_every_copy_equal(run, &what);
        }
    }
}

/// The contrastive loss family on a batch (every Gram entry through the dispatched lane dot
/// product of `contrastive/gram.rs`): the losses of both forms, the gradient, the pair counts
/// and targets, the vMF likelihood, for dimensions on both sides of a lane block.
#[test]
fn contrastive_losses_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    use probdml::contrastive::{self, LossForm};
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for dim in dims() {
        let n = 24;
        let z: Vec<f64> = (0..n).flat_map(|_| random_unit(&mut rng, dim)).collect();
        let labels: Vec<usize> = (0..n).map(|i| i % 4).collect();
        let run = || {
            let mut out = vec![];
            for margin in [0.5, 1.2, 2.0] {
                out.push(contrastive::loss(&z, dim, &labels, margin, LossForm::Squared).unwrap());
                out.push(contrastive::loss(&z, dim, &labels, margin, LossForm::Linear).unwrap());
                out.extend(contrastive::loss_gradient(&z, dim, &labels, margin).unwrap());
                let counts = contrastive::pair_counts(&z, dim, &labels, margin).unwrap();
                out.push(counts.negatives_inside as f64);
                out.extend(
                    contrastive::pair_targets(&z, dim, &labels, margin)
                        .unwrap()
                        .iter()
                        .map(|t| t.target),
                );
                out.push(contrastive::negative_log_likelihood(&z, dim, &labels, margin).unwrap());
            }
            bits(&out)
        };
        assert_every_copy_equal(run, &format!("contrastive, M = {dim}"));
    }
}

/// The retrieval scans (candidate filter of `metrics/candidate_search.rs`) at one and two
/// threads: the same neighbours and distances, ties included.
#[test]
fn retrieval_is_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    let (n, d) = (700, 24);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    // Coordinates on a coarse grid, so that many distances tie exactly.
    let data: Vec<f32> = (0..n * d)
        .map(|_| rng.random_range(-4i32..=4) as f32 / 4.0)
        .collect();
    let labels: Vec<usize> = (0..n).map(|i| i % 7).collect();
    for distance in [Distance::Euclidean, Distance::Cosine] {
        let task = Retrieval::leave_one_out(
            Embeddings::from_f32(&data, d).expect("finite embeddings"),
            &labels,
            distance,
        )
        .expect("valid task");
        for threads in [1, 2] {
            let run = || {
                let t = task.with_threads(threads).expect("1 or 2 threads");
                let nn = metrics::nearest_neighbours(&t, 10).expect("k = 10");
                let report = metrics::evaluate_retrieval(&t, &[1, 5, 10]).expect("valid k");
                let mut flat = Vec::new();
                for q in 0..n {
                    flat.extend(nn.indices(q).iter().map(|&j| j as u64));
                    flat.extend(nn.distances(q).iter().map(|v| v.to_bits()));
                }
                flat.extend(report.map.iter().map(|v| v.to_bits()));
                flat
            };
            assert_every_copy_equal(run, &format!("{distance:?}, {threads} thread(s)"));
        }
    }
}

/// The AVX2 scans of `metrics/key_scan.rs` against the portable ones on a task that reaches
/// every branch of them: several blocks of 256 with a partial last one (row scans and, in the
/// leave-one-out task, column scans), a separate query set (row scans only), `f32` and `f64`
/// coordinates on a coarse grid (exact ties at the k-th distance), both distances.
#[test]
fn retrieval_scans_are_bit_identical_across_copies() {
    if skip_without_avx2_fma() {
        return;
    }
    let (n, n_q, d) = (3 * 256 + 41, 300, 13);
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut grid = |len: usize| -> Vec<f64> {
        (0..len)
            .map(|_| f64::from(rng.random_range(-3i32..=3)) / 2.0 + 0.25)
            .collect()
    };
    let (data, query_data) = (grid(n * d), grid(n_q * d));
    let data_f32: Vec<f32> = data.iter().map(|&v| v as f32).collect();
    let labels: Vec<usize> = (0..n).map(|i| i % 5).collect();
    let query_labels: Vec<usize> = (0..n_q).map(|i| i % 5).collect();
    let f64_db = Embeddings::new(&data, d).expect("finite embeddings");
    let f32_db = Embeddings::from_f32(&data_f32, d).expect("finite embeddings");
    let queries = Embeddings::new(&query_data, d).expect("finite embeddings");
    for distance in [Distance::Euclidean, Distance::Cosine] {
        let tasks = [
            Retrieval::leave_one_out(f32_db, &labels, distance),
            Retrieval::leave_one_out(f64_db, &labels, distance),
            Retrieval::query_database(queries, &query_labels, f32_db, &labels, distance),
        ];
        for (t, task) in tasks.into_iter().enumerate() {
            let task = task.expect("valid task").with_threads(1).expect("1 thread");
            let run = || {
                let nn = metrics::nearest_neighbours(&task, 12).expect("k = 12");
                let mut flat = Vec::new();
                for q in 0..nn.query_count() {
                    flat.extend(nn.indices(q).iter().map(|&j| j as u64));
                    flat.extend(nn.distances(q).iter().map(|v| v.to_bits()));
                }
                flat
            };
            assert_every_copy_equal(run, &format!("{distance:?}, task {t}"));
        }
    }
}
