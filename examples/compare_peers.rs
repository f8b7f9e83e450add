//! The crate's half of `scripts/compare-peers.sh`: writes the shared inputs to `<dir>`, times the
//! crate on them and writes its outputs and timings next to them; `scripts/peers/compare.py`
//! then times scipy, scikit-learn and faiss-cpu on the same files and prints both side by side.
//!
//! Run: `cargo run --release --example compare_peers -- <dir> [<instruction set>]` (the script
//! does this). With an instruction set (`portable`, `avx2-fma`, `avx512`: `InstructionSet::name`),
//! every dispatched kernel runs the copy compiled for it (`InstructionSet::run`, passed on to the
//! retrieval's worker threads), so that one CPU measures the copy an older CPU runs; its name is
//! written to `crate_values.txt` as `instruction_set`.
//!
//! Files (little-endian, raw): `<name>.f64` / `.f32` / `.u32` arrays; `crate_times.txt` holds
//! `task seconds` lines (best of the repetitions), `crate_values.txt` `name value` lines.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use probdml::instruction_set::InstructionSet;
use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;
use probdml::{special, vmf};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

fn write_f64(dir: &Path, name: &str, x: &[f64]) {
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    fs::write(dir.join(format!("{name}.f64")), bytes).expect("write input");
}

fn write_f32(dir: &Path, name: &str, x: &[f32]) {
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    fs::write(dir.join(format!("{name}.f32")), bytes).expect("write input");
}

fn write_u32(dir: &Path, name: &str, x: &[u32]) {
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    fs::write(dir.join(format!("{name}.u32")), bytes).expect("write input");
}

/// Whether two arrays hold the same bits.
fn bits_equal(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// For each dimension of `dims`, `per_dim` mean resultant lengths evenly spaced from `start`
/// over `width`: the dimensions and the R̄, side by side.
fn rbar_grid(dims: &[f64], per_dim: usize, start: f64, width: f64) -> (Vec<f64>, Vec<f64>) {
    let (mut ms, mut rbars) = (Vec::new(), Vec::new());
    for &m in dims {
        for i in 0..per_dim {
            ms.push(m);
            rbars.push(start + width * i as f64 / (per_dim - 1) as f64);
        }
    }
    (ms, rbars)
}

/// Best wall time of `reps` runs of `f`, and its last result.
fn best<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..reps {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("reps >= 1"))
}

/// CPU seconds this process has used (user + system, all threads; Linux `/proc/self/stat`,
/// 10 ms ticks): on a shared machine, less disturbed by other load than wall time.
fn cpu_seconds() -> f64 {
    let stat = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    (tick(11) + tick(12)) / 100.0
}

fn main() {
    let usage = "usage: compare_peers <dir> [portable|avx2-fma|avx512]";
    let dir = PathBuf::from(std::env::args().nth(1).expect(usage));
    let isa = match std::env::args().nth(2) {
        None => InstructionSet::detected(),
        Some(name) => *InstructionSet::ALL
            .iter()
            .find(|isa| isa.name() == name)
            .unwrap_or_else(|| panic!("unknown instruction set {name:?}; {usage}")),
    };
    if isa.run(|| measure(&dir, isa)).is_none() {
        eprintln!("compare_peers: this CPU lacks {}", isa.name());
        std::process::exit(3);
    }
}

/// Writes the inputs, and the crate's outputs and timings, with every kernel compiled for `isa`.
fn measure(dir: &Path, isa: InstructionSet) {
    fs::create_dir_all(dir).expect("create output dir");
    let mut times = fs::File::create(dir.join("crate_times.txt")).expect("times file");
    let mut values = fs::File::create(dir.join("crate_values.txt")).expect("values file");
    writeln!(values, "instruction_set {}", isa.name()).unwrap();

    // ln I_ν(x) on a grid: ν ∈ {0, 0.5, 1.5, 10, 63, 255, 1023}, x log-spaced over 10⁻³ … 10⁵.
    let nus = [0.0, 0.5, 1.5, 10.0, 63.0, 255.0, 1023.0];
    let (mut nu, mut x) = (Vec::new(), Vec::new());
    for &n in &nus {
        for i in 0..3000 {
            nu.push(n);
            x.push(10f64.powf(-3.0 + 8.0 * i as f64 / 2999.0));
        }
    }
    write_f64(dir, "bessel_nu", &nu);
    write_f64(dir, "bessel_x", &x);
    let (t, out) = best(20, || {
        nu.iter()
            .zip(&x)
            .map(|(&n, &v)| special::log_bessel_i(n, v))
            .collect::<Vec<f64>>()
    });
    writeln!(times, "log_bessel_i {t}").unwrap();
    write_f64(dir, "crate_log_bessel_i", &out);
    // The same points through the batch kernel, one call per order (they share one ν each):
    // what a user with many arguments calls. The values must be the scalar ones, bit for bit.
    let (t, batch) = best(20, || {
        let mut batch = vec![0.0; x.len()];
        for (i, (xc, oc)) in x.chunks(3000).zip(batch.chunks_mut(3000)).enumerate() {
            special::log_bessel_i_batch(nus[i], xc, oc).expect("valid arguments");
        }
        batch
    });
    writeln!(times, "log_bessel_i_batch {t}").unwrap();
    writeln!(
        values,
        "log_bessel_i_batch_equals_scalar {}",
        u8::from(bits_equal(&batch, &out))
    )
    .unwrap();

    // ln C_M(κ): M ∈ {3, 16, 128, 512}, κ log-spaced over 10⁻³ … 10⁴.
    let (mut dims, mut kappas) = (Vec::new(), Vec::new());
    for &m in &[3.0, 16.0, 128.0, 512.0] {
        for i in 0..2500 {
            dims.push(m);
            kappas.push(10f64.powf(-3.0 + 7.0 * i as f64 / 2499.0));
        }
    }
    write_f64(dir, "normconst_dim", &dims);
    write_f64(dir, "normconst_kappa", &kappas);
    let (t, out) = best(20, || {
        dims.iter()
            .zip(&kappas)
            .map(|(&m, &k)| vmf::log_norm_const(m as usize, k))
            .collect::<Vec<f64>>()
    });
    writeln!(times, "log_norm_const {t}").unwrap();
    write_f64(dir, "crate_log_norm_const", &out);
    let (t, batch) = best(20, || {
        let mut batch = vec![0.0; kappas.len()];
        for (i, (kc, oc)) in kappas.chunks(2500).zip(batch.chunks_mut(2500)).enumerate() {
            vmf::log_norm_const_batch(dims[i * 2500] as usize, kc, oc).expect("valid κ");
        }
        batch
    });
    writeln!(times, "log_norm_const_batch {t}").unwrap();
    // M = 3 evaluates another closed form (within 4 ulps); the others are the scalar bits.
    writeln!(
        values,
        "log_norm_const_batch_equals_scalar_for_m_not_3 {}",
        u8::from(bits_equal(&batch[2500..], &out[2500..]))
    )
    .unwrap();

    // κ from R̄: M ∈ {3, 128, 512}, R̄ over 0.01 … 0.999.
    let (kdims, rbars) = rbar_grid(&[3.0, 128.0, 512.0], 1000, 0.01, 0.989);
    write_f64(dir, "kappa_dim", &kdims);
    write_f64(dir, "kappa_rbar", &rbars);
    let (t, out) = best(5, || {
        kdims
            .iter()
            .zip(&rbars)
            .map(|(&m, &r)| vmf::kappa_mle(m as usize, r).unwrap_or(f64::NAN))
            .collect::<Vec<f64>>()
    });
    writeln!(times, "kappa_mle {t}").unwrap();
    write_f64(dir, "crate_kappa_mle", &out);
    let (t, batch) = best(5, || {
        let mut batch = vec![0.0; rbars.len()];
        for (i, (rc, oc)) in rbars.chunks(1000).zip(batch.chunks_mut(1000)).enumerate() {
            vmf::kappa_mle_batch(kdims[i * 1000] as usize, rc, oc).expect("R̄ in [0, 1)");
        }
        batch
    });
    writeln!(times, "kappa_mle_batch {t}").unwrap();
    writeln!(
        values,
        "kappa_mle_batch_equals_scalar {}",
        u8::from(bits_equal(&batch, &out))
    )
    .unwrap();

    // Sra's estimator (two Newton steps from Banerjee's start) at M = 512 and 4096, 3000 R̄
    // each: the per-value loop a user writes and one `kappa_sra_batch` call per M, against the
    // same steps vectorised in numpy.
    let (sra_dims, sra_rbars) = rbar_grid(&[512.0, 4096.0], 3000, 0.02, 0.96);
    write_f64(dir, "sra_dim", &sra_dims);
    write_f64(dir, "sra_rbar", &sra_rbars);
    let (t, out) = best(5, || {
        sra_dims
            .iter()
            .zip(&sra_rbars)
            .map(|(&m, &r)| vmf::kappa_sra(m as usize, r, 2).unwrap_or(f64::NAN))
            .collect::<Vec<f64>>()
    });
    writeln!(times, "kappa_sra {t}").unwrap();
    write_f64(dir, "crate_kappa_sra", &out);
    let (t, batch) = best(5, || {
        let mut batch = vec![0.0; sra_rbars.len()];
        for (i, (rc, oc)) in sra_rbars
            .chunks(3000)
            .zip(batch.chunks_mut(3000))
            .enumerate()
        {
            vmf::kappa_sra_batch(sra_dims[i * 3000] as usize, rc, 2, oc).expect("R̄ in [0, 1)");
        }
        batch
    });
    writeln!(times, "kappa_sra_batch {t}").unwrap();
    writeln!(
        values,
        "kappa_sra_batch_equals_scalar {}",
        u8::from(bits_equal(&batch, &out))
    )
    .unwrap();

    // vMF sampling and fitting: M = 128, κ = 50, 10⁵ draws, on the crate's eight-lane
    // Xoshiro256++ (a fast non-cryptographic generator, as scipy's default PCG64 is).
    let (dim, kappa, n_draws) = (128usize, 50.0, 100_000usize);
    let mut mu = vec![0.0; dim];
    mu[0] = 1.0;
    let sampler = vmf::VonMisesFisher::new(&mu, kappa).expect("valid vMF");
    let (t, draws) = best(3, || {
        let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(5);
        let mut out = vec![0.0; n_draws * dim];
        for row in out.chunks_exact_mut(dim) {
            sampler
                .sample_into(&mut rng, row)
                .expect("dimension matches");
        }
        out
    });
    writeln!(times, "vmf_sample {t}").unwrap();
    write_f64(dir, "vmf_draws", &draws);
    // `sample_n_into` writes into the caller's buffer: it is allocated (and its pages first
    // touched) once, outside the timing, as by a caller who draws repeatedly; so are the
    // floors' buffers below. (The loop above allocates its output in every run, as scipy does.)
    let mut batch = vec![0.0; n_draws * dim];
    let (t, ()) = best(3, || {
        let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(5);
        sampler
            .sample_n_into(&mut rng, n_draws, &mut batch)
            .expect("n·M entries");
    });
    writeln!(times, "vmf_sample_batch {t}").unwrap();
    // Its draws are a stream of their own (Wood's step eight proposals at a time): their R̄,
    // as for the loop's draws.
    let batch_rbar = vmf::mean_resultant(&batch, dim).expect("valid draws").rbar;
    writeln!(values, "vmf_sample_batch_rbar {batch_rbar:e}").unwrap();
    // The floor: n·M standard normals from the same generator, by the crate's ziggurat (the
    // normals the sampler draws) and by rand_distr's (what a user would call instead).
    let mut normals = vec![0.0; n_draws * dim];
    let (t, ()) = best(3, || {
        let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(5);
        probdml::ziggurat::fill_standard_normal(&mut rng, &mut normals);
    });
    writeln!(times, "vmf_standard_normals {t}").unwrap();
    let (t, ()) = best(3, || {
        let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(5);
        for v in normals.iter_mut() {
            *v = rng.sample(StandardNormal);
        }
    });
    writeln!(times, "vmf_standard_normals_rand_distr {t}").unwrap();
    let (t, (rbar, kappa_hat)) = best(5, || {
        let m = vmf::mean_resultant(&draws, dim).expect("valid draws");
        (m.rbar, vmf::kappa_mle(dim, m.rbar).expect("R̄ in (0, 1)"))
    });
    writeln!(times, "vmf_fit {t}").unwrap();
    writeln!(values, "vmf_fit_rbar {rbar:e}").unwrap();
    writeln!(values, "vmf_fit_kappa {kappa_hat:e}").unwrap();
    writeln!(
        values,
        "vmf_expected_rbar {:e}",
        vmf::mean_resultant_length(dim, kappa)
    )
    .unwrap();

    // AUROC and AUPRC: 10⁶ + 10⁶ scores rounded to 1/1000 (ties).
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut draw = |shift: f64| -> Vec<f64> {
        (0..1_000_000)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                ((z + shift) * 1000.0).round() / 1000.0
            })
            .collect()
    };
    let (id, ood) = (draw(0.0), draw(1.0));
    write_f64(dir, "ood_id", &id);
    write_f64(dir, "ood_ood", &ood);
    let (t, roc) = best(5, || {
        metrics::OodScores { id: &id, ood: &ood }
            .auroc()
            .expect("valid scores")
    });
    writeln!(times, "auroc {t}").unwrap();
    writeln!(values, "auroc {roc:e}").unwrap();
    let (t, pr) = best(5, || {
        metrics::OodScores { id: &id, ood: &ood }
            .auprc()
            .expect("valid scores")
    });
    writeln!(times, "auprc {t}").unwrap();
    writeln!(values, "auprc {pr:e}").unwrap();

    // Retrieval: 10 000 × 128 f32 unit embeddings in 100 Gaussian clusters (noise 1.6 per
    // coordinate around N(0, 1) centres: recall@1 below 1, so the metrics tell lists apart),
    // leave-one-out.
    let (n, d, classes) = (10_000usize, 128usize, 100usize);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let centres: Vec<f64> = (0..classes * d)
        .map(|_| StandardNormal.sample(&mut rng))
        .collect();
    let mut data = Vec::with_capacity(n * d);
    let mut labels = Vec::with_capacity(n);
    for _ in 0..n {
        let c = rng.random_range(0..classes);
        let row: Vec<f64> = (0..d)
            .map(|j| {
                let z: f64 = StandardNormal.sample(&mut rng);
                centres[c * d + j] + 1.6 * z
            })
            .collect();
        let norm = row.iter().map(|v| v * v).sum::<f64>().sqrt();
        data.extend(row.iter().map(|v| (v / norm) as f32));
        labels.push(c);
    }
    write_f32(dir, "retrieval_x", &data);
    write_u32(
        dir,
        "retrieval_labels",
        &labels.iter().map(|&l| l as u32).collect::<Vec<_>>(),
    );
    let task = Retrieval::leave_one_out(
        Embeddings::from_f32(&data, d).expect("finite embeddings"),
        &labels,
        Distance::Euclidean,
    )
    .expect("valid task");
    for threads in [1usize, 2] {
        let t_task = task.with_threads(threads).expect("1 or 2 threads");
        let mut cpu = f64::INFINITY;
        let (t, report) = best(5, || {
            let c0 = cpu_seconds();
            let r = metrics::evaluate_retrieval(&t_task, &[1, 5, 10]).expect("valid cut-offs");
            cpu = cpu.min(cpu_seconds() - c0);
            r
        });
        writeln!(times, "retrieval_threads{threads} {t}").unwrap();
        writeln!(times, "retrieval_threads{threads}_cpu {cpu}").unwrap();
        for (i, k) in [1, 5, 10].iter().enumerate() {
            writeln!(values, "recall@{k} {:e}", report.recall[i]).unwrap();
        }
        writeln!(values, "map@10 {:e}", report.map[2]).unwrap();
    }
    // The exact twin's neighbours on the same task (one brute-force pass): the fast twin's
    // must be identical, ties and all.
    let nn =
        metrics::nearest_neighbours(&task.with_threads(1).expect("1 thread"), 10).expect("k = 10");
    let (t, exact) = best(1, || {
        metrics::exact::nearest_neighbours(&task, 10).expect("k = 10")
    });
    writeln!(times, "retrieval_exact_twin_knn {t}").unwrap();
    writeln!(
        values,
        "fast_equals_exact_neighbours {}",
        u8::from(nn == exact)
    )
    .unwrap();
    let ids: Vec<u32> = (0..n)
        .flat_map(|q| nn.indices(q).iter().map(|&j| j as u32))
        .collect();
    write_u32(dir, "crate_neighbours", &ids);
    eprintln!(
        "compare_peers: inputs, outputs and timings in {}",
        dir.display()
    );
}
