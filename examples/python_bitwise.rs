//! The Rust side of `python/tests/test_bitwise.py`: calls the crate on seeded inputs and writes
//! inputs and outputs as the hexadecimal bits of each `f64`, so that the test can call the
//! Python package on the same inputs and demand the same bits (no tolerance: the bindings may
//! only convert and move, never compute).
//!
//! Usage: `cargo run --release --example python_bitwise -- <out.txt>`. Format: a line
//! `case <name>`, then one line per argument or result, `<label> <hex> <hex> …` (integers in
//! decimal under a label starting with `int_`).

use std::fmt::Write as _;

use probdml::metrics::{self, Distance, Embeddings, Retrieval};
use probdml::nivmf::{self, ProxyBatch, ProxyDistance};
use probdml::rand::{rngs::StdRng, RngExt, SeedableRng};
use probdml::Labels;
use probdml::{hib, laplace, special, triplet, vmf};
// The Python package's generator behind every `seed` (probdml-py/src/generator.rs).
use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;

fn hex(label: &str, values: &[f64]) -> String {
    let mut s = label.to_string();
    for v in values {
        write!(s, " {:016x}", v.to_bits()).unwrap();
    }
    s.push('\n');
    s
}

fn ints(label: &str, values: &[usize]) -> String {
    let mut s = label.to_string();
    for v in values {
        write!(s, " {v}").unwrap();
    }
    s.push('\n');
    s
}

fn uniform(rng: &mut StdRng, n: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..n).map(|_| rng.random_range(lo..hi)).collect()
}

fn unit_rows(rng: &mut StdRng, n: usize, dim: usize) -> Vec<f64> {
    let mut out = uniform(rng, n * dim, -1.0, 1.0);
    for row in out.chunks_mut(dim) {
        let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
        row.iter_mut().for_each(|x| *x /= norm);
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: python_bitwise <out.txt>")?;
    let mut rng = StdRng::seed_from_u64(20_261_126);
    let mut out = String::new();

    // ln I_ν(x) across its regimes, including orders and arguments where scipy's ive underflows.
    let nu: Vec<f64> = [0.0, 0.5, 1.0, 63.0, 511.0, 1023.0, 2.5, 4095.0].repeat(4);
    let x: Vec<f64> = (0..32).map(|i| 1e-3 * 10f64.powf(i as f64 / 4.0)).collect();
    let y: Vec<f64> = nu
        .iter()
        .zip(&x)
        .map(|(n, x)| special::log_bessel_i(*n, *x))
        .collect();
    out += "case log_bessel_i\n";
    out += &hex("nu", &nu);
    out += &hex("x", &x);
    out += &hex("out", &y);

    let dims: Vec<usize> = [2, 3, 64, 128, 1024, 4096].repeat(5);
    let kappa: Vec<f64> = (0..30).map(|i| 1e-2 * 10f64.powf(i as f64 / 5.0)).collect();
    let y: Vec<f64> = dims
        .iter()
        .zip(&kappa)
        .map(|(d, k)| vmf::log_norm_const(*d, *k))
        .collect();
    out += "case log_norm_const\n";
    out += &ints("int_dim", &dims);
    out += &hex("kappa", &kappa);
    out += &hex("out", &y);

    let rbar = uniform(&mut rng, 20, 0.0, 0.999);
    let y: Vec<f64> = rbar
        .iter()
        .map(|r| vmf::kappa_mle(128, *r))
        .collect::<Result<_, _>>()?;
    out += "case kappa_mle\n";
    out += &ints("int_dim", &[128]);
    out += &hex("rbar", &rbar);
    out += &hex("out", &y);

    let mu = unit_rows(&mut rng, 1, 5);
    let mut draws = vec![0.0; 16 * 5];
    vmf::VonMisesFisher::new(&mu, 20.0)?.sample_n_into(
        &mut Xoshiro256PlusPlusX8::seed_from_u64(42),
        16,
        &mut draws,
    )?;
    out += "case vmf_rvs\n";
    out += &hex("mu", &mu);
    out += &hex("kappa", &[20.0]);
    out += &ints("int_seed", &[42]);
    out += &hex("out", &draws);

    let (b, d) = (4, 3);
    let s: Vec<Vec<f64>> = (0..6)
        .map(|i| {
            if i % 2 == 0 {
                uniform(&mut rng, b * d, -1.0, 1.0)
            } else {
                uniform(&mut rng, b * d, 0.01, 0.5)
            }
        })
        .collect();
    let g = triplet::nll_gradient(&s[0], &s[1], &s[2], &s[3], &s[4], &s[5], d, 0.2)?;
    out += "case triplet_nll_gradient\n";
    for (name, v) in ["mu_a", "var_a", "mu_p", "var_p", "mu_n", "var_n"]
        .iter()
        .zip(&s)
    {
        out += &hex(name, v);
    }
    out += &hex("margin", &[0.2]);
    out += &hex("nll", &[g.nll]);
    for (name, v) in [
        ("g_mu_a", &g.mu_a),
        ("g_var_a", &g.var_a),
        ("g_mu_p", &g.mu_p),
        ("g_var_p", &g.var_p),
        ("g_mu_n", &g.mu_n),
        ("g_var_n", &g.var_n),
    ] {
        out += &hex(name, v);
    }

    let embeddings = uniform(&mut rng, 3 * 4, -3.0, 3.0);
    let proxies = uniform(&mut rng, 5 * 4, -3.0, 3.0);
    let labels = [0usize, 3, 4];
    let batch = ProxyBatch {
        embeddings: &embeddings,
        labels: Labels::Usize(&labels),
        proxies: &proxies,
        concentrations: &[],
        dim: 4,
    };
    for (name, distance) in [
        ("proxy_nca_cosine", ProxyDistance::Cosine),
        ("proxy_nca_el_vmf", ProxyDistance::ElVmf),
    ] {
        let l = nivmf::proxy_nca_loss(distance, &batch, 0.5)?;
        out += &format!("case {name}\n");
        out += &hex("embeddings", &embeddings);
        out += &hex("proxies", &proxies);
        out += &ints("int_labels", &labels);
        out += &hex("temperature", &[0.5]);
        out += &hex("loss", &[l.loss]);
        out += &hex("distances", &l.distances);
        out += &hex("grad_embeddings", &l.grad_embeddings);
        out += &hex("grad_proxies", &l.grad_proxies);
    }

    let id = uniform(&mut rng, 50, 0.0, 1.0);
    let ood = uniform(&mut rng, 40, 0.2, 1.2);
    out += "case auroc_auprc\n";
    out += &hex("id", &id);
    out += &hex("ood", &ood);
    out += &hex(
        "out",
        &[
            metrics::OodScores { id: &id, ood: &ood }.auroc()?,
            metrics::OodScores { id: &id, ood: &ood }.auprc()?,
        ],
    );

    let emb32: Vec<f32> = uniform(&mut rng, 40 * 6, -1.0, 1.0)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let emb32_as_f64: Vec<f64> = emb32.iter().map(|&v| f64::from(v)).collect();
    let classes: Vec<usize> = (0..40).map(|i| i % 4).collect();
    let task = Retrieval::leave_one_out(
        Embeddings::from_f32(&emb32, 6)?,
        &classes,
        Distance::Euclidean,
    )?;
    out += "case retrieval_f32\n";
    out += &hex("embeddings", &emb32_as_f64);
    out += &ints("int_labels", &classes);
    out += &hex(
        "out",
        &[
            metrics::recall_at_k(&task, 1)?,
            metrics::map_at_k(&task, 5)?,
            metrics::map_at_r(&task)?,
        ],
    );

    let (mu1, var1) = (
        uniform(&mut rng, 3, -1.0, 1.0),
        uniform(&mut rng, 3, 0.05, 0.5),
    );
    let (mu2, var2) = (
        uniform(&mut rng, 3, -1.0, 1.0),
        uniform(&mut rng, 3, 0.05, 0.5),
    );
    let x1 = hib::HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu1,
        var: &var1,
    })?;
    let x2 = hib::HedgedEmbedding::from_gaussian(probdml::Gaussian {
        mu: &mu2,
        var: &var2,
    })?;
    let p = hib::SoftThreshold { a: 2.0, b: 1.0 }.match_probability(
        &x1,
        &x2,
        8,
        &mut Xoshiro256PlusPlusX8::seed_from_u64(7),
    )?;
    out += "case hib_match_probability\n";
    for (name, v) in [
        ("mu1", &mu1),
        ("var1", &var1),
        ("mu2", &mu2),
        ("var2", &var2),
    ] {
        out += &hex(name, v);
    }
    out += &ints("int_seed", &[7]);
    out += &hex("out", &[p]);

    let wp = uniform(&mut rng, 2 * 3, 0.5, 4.0);
    let bp = uniform(&mut rng, 2, 0.5, 4.0);
    let feat = uniform(&mut rng, 3, -2.0, 2.0);
    out += "case laplace_output_variance\n";
    out += &hex("weight_precision", &wp);
    out += &hex("bias_precision", &bp);
    out += &hex("features", &feat);
    out += &hex("out", &[laplace::output_variance(&wp, &bp, &feat)?]);

    std::fs::write(&path, out)?;
    Ok(())
}
