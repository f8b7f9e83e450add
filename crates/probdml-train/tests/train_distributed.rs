//! Data-parallel training through the `probdml` program, two ranks on loopback (Gloo), the way
//! `torchrun` starts them (chapter 09, "Many processes"): post-hoc LAM's precision is the same
//! bits as one process's; two ranks at batch B/2 train bit for bit as one process at batch B
//! with the same row blocks (`--row-blocks 2`); a killed rank
//! stops the other with an error that names it; MC dropout's masks are one process's; two ranks
//! evaluate (`train`, `eval`, `posthoc`) into one process's metrics.json byte for byte.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tch::{Kind, Tensor};

const TIMEOUT_S: u64 = 30;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("probdml-train-distributed-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `PROBDML_DIST_DEVICE=cuda` (scripts/gpu-check.sh, two GPUs): the same checks over NCCL.
fn device_args() -> Vec<String> {
    match std::env::var("PROBDML_DIST_DEVICE") {
        Ok(d) => vec!["--device".into(), d],
        Err(_) => Vec::new(),
    }
}

fn probdml() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_probdml"));
    // One intra-op thread per process, as torchrun sets OMP_NUM_THREADS=1: the bitwise claims
    // hold at a fixed thread count (a reduction's association may follow it).
    cmd.env("OMP_NUM_THREADS", "1").env("RUST_LOG", "info");
    for var in [
        "RANK",
        "WORLD_SIZE",
        "LOCAL_RANK",
        "MASTER_ADDR",
        "MASTER_PORT",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Variables set for the program on top of [`probdml`]'s (none, or a cap on oneDNN's
/// instruction set).
type Env<'a> = &'a [(&'a str, &'a str)];

fn one_process(args: &[&str]) -> Output {
    one_process_with(args, &[])
}

fn one_process_with(args: &[&str], env: Env<'_>) -> Output {
    let out = probdml()
        .args(args)
        .args(device_args())
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "probdml {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn spawn_ranks(args: &[&str], world: usize, env: Env<'_>) -> Vec<Child> {
    let port = free_port();
    (0..world)
        .map(|rank| {
            probdml()
                .args(args)
                .args(device_args())
                .envs(env.iter().copied())
                .env("MASTER_ADDR", "127.0.0.1")
                .env("MASTER_PORT", port.to_string())
                .env("RANK", rank.to_string())
                .env("WORLD_SIZE", world.to_string())
                .env("LOCAL_RANK", rank.to_string())
                .env("GLOO_SOCKET_IFNAME", "lo")
                .env("PROBDML_DIST_TIMEOUT_S", TIMEOUT_S.to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect()
}

fn ranks_succeed(args: &[&str], world: usize) -> Vec<Output> {
    ranks_succeed_with(args, world, &[])
}

fn ranks_succeed_with(args: &[&str], world: usize, env: Env<'_>) -> Vec<Output> {
    spawn_ranks(args, world, env)
        .into_iter()
        .enumerate()
        .map(|(rank, child)| {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "rank {rank} of probdml {args:?} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out
        })
        .collect()
}

/// `common` run as one process at `--batch 32 --row-blocks 2` into `one`, and as two ranks at
/// `--batch 16` (the same global batch, one row block each) into `two`. `blocks` more row
/// blocks are passed to both (4: two per rank).
fn one_rank_and_two_at_half_batch(
    common: &[&str],
    blocks: usize,
    env: Env<'_>,
    one: &Path,
    two: &Path,
) {
    let blocks = blocks.max(2).to_string();
    let mut a: Vec<&str> = common.to_vec();
    a.extend_from_slice(&["--batch", "32", "--row-blocks", &blocks]);
    a.extend_from_slice(&["--out", one.to_str().unwrap()]);
    one_process_with(&a, env);
    let mut b: Vec<&str> = common.to_vec();
    b.extend_from_slice(&["--batch", "16", "--row-blocks", &blocks]);
    b.extend_from_slice(&["--out", two.to_str().unwrap()]);
    ranks_succeed_with(&b, 2, env);
}

/// Owned arguments as the `&str`s the runners take.
fn strs(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

fn tensors(path: &Path) -> Vec<(String, Tensor)> {
    let mut named = Tensor::read_safetensors(path).unwrap();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named
}

fn f32_bits(t: &Tensor) -> Vec<u32> {
    let v = Vec::<f32>::try_from(t.to_kind(Kind::Float).reshape([-1])).unwrap();
    v.into_iter().map(f32::to_bits).collect()
}

/// Post-hoc LAM's curvature is a sum over the training set: added rank by rank it would change
/// association with the world size; added chunk by chunk in f64 it must not change one bit.
/// 352 images are 5 Hessian batches of 64, so the second rank sits out the last round.
#[test]
fn posthoc_precision_two_ranks_is_one_rank_bit_for_bit() {
    let dir = scratch("posthoc");
    let det = dir.join("det");
    let small = [
        "--dataset",
        "synthetic",
        "--train-limit",
        "352",
        "--test-limit",
        "60",
        "--threads",
        "1",
    ];
    let mut train = vec![
        "train",
        "--method",
        "deterministic",
        "--epochs",
        "1",
        "--out",
    ];
    train.push(det.to_str().unwrap());
    train.extend_from_slice(&small);
    one_process(&train);

    // The data set and its limits come from the checkpoint.
    let posthoc = |out: &Path| -> Vec<String> {
        let mut a = vec!["posthoc", "--checkpoint", det.to_str().unwrap(), "--out"];
        a.push(out.to_str().unwrap());
        a.extend_from_slice(&["--threads", "1"]);
        a.iter().map(|s| s.to_string()).collect()
    };
    let one = dir.join("one");
    let two = dir.join("two");
    let args_one = posthoc(&one);
    one_process(&args_one.iter().map(String::as_str).collect::<Vec<_>>());
    let args_two = posthoc(&two);
    ranks_succeed(&args_two.iter().map(String::as_str).collect::<Vec<_>>(), 2);

    // The curvature itself, before the prior precision δ is added (an f32 Λ = H + δ with a
    // large δ can hide differences in H's last bits): its f64 sum, the evidence and the
    // chosen δ, as posthoc.json records them (read back bit for bit).
    let choices = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("posthoc.json")).unwrap()).unwrap()
    };
    let (ca, cb) = (choices(&one), choices(&two));
    for key in ["curvature_sum", "prior_precision", "log_evidence_minus_fit"] {
        let (x, y) = (ca[key].as_f64(), cb[key].as_f64());
        assert!(
            x.is_some() || key == "log_evidence_minus_fit",
            "{key} missing"
        );
        assert_eq!(
            x.map(f64::to_bits),
            y.map(f64::to_bits),
            "{key}: {x:?} against {y:?}"
        );
    }
    let a = tensors(&one.join("laplace.safetensors"));
    let b = tensors(&two.join("laplace.safetensors"));
    assert_eq!(a.len(), b.len());
    assert!(!a.is_empty());
    for ((na, ta), (nb, tb)) in a.iter().zip(&b) {
        assert_eq!(na, nb);
        assert_eq!(ta.size(), tb.size(), "{na}");
        let (ba, bb) = (f32_bits(ta), f32_bits(tb));
        let differ = ba.iter().zip(&bb).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "{na}: {differ} of {} entries differ", ba.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two ranks at batch 16 see the same global batches of 32 as one process at batch 32 and mine
/// their pairs over the whole global batch (the features are gathered), so both runs compute
/// the loss of the same pairs. With the same row blocks (`--row-blocks 2` in the one process,
/// one block per rank in the two) the backbone runs over the same 16-image blocks, the
/// backbone's gradient is the same blocks' gradients added in the same order, and the heads'
/// gradients are the same computation on the same gathered features: the two runs do the same
/// floating-point work, so everything must agree bit for bit — every epoch's mean loss and mean
/// pair count, every weight, every number of metrics.json — on any CPU. The test runs the
/// comparison three times: as libtorch chooses its kernels on this CPU, and with oneDNN's
/// convolutions held to AVX2 and to SSE4.1 (`ONEDNN_MAX_CPU_ISA`), the instruction sets of
/// other machines. (Measured on an Intel Xeon with AVX-512: one process at 32 without
/// `--row-blocks` matched two ranks in the first epoch's loss to 6·10⁻⁸ and parted from them by
/// 1.2 % in the second, 0.32009 against 0.32385.)
///
/// Without the row blocks the claim is false, and not by a bounded amount: libtorch's
/// convolutions may choose another algorithm at batch 32 than at 16 (by shape and instruction
/// set), and RMSprop's first step moves a near-zero gradient entry by ±10·lr whichever its
/// rounding makes its sign (on an AMD EPYC with AVX2 the first epoch's mean loss parted by
/// 5.6·10⁻⁴ relative).
///
/// Mining per rank without the gather halves the pairs; dropping a rank's blocks, or scaling
/// one variable's gradient on one side, changes the weights' bits.
#[test]
fn two_ranks_at_half_batch_train_as_one_rank_at_the_whole_batch() {
    for (name, isa) in [
        ("native", None),
        ("avx2", Some("AVX2")),
        ("sse41", Some("SSE41")),
    ] {
        let env: Vec<(&str, &str)> = isa.map(|i| ("ONEDNN_MAX_CPU_ISA", i)).into_iter().collect();
        println!("oneDNN instruction set: {name}");
        same_run_on_one_and_two_ranks(&format!("equivalence-{name}"), 2, &env);
    }
}

/// As [`two_ranks_at_half_batch_train_as_one_rank_at_the_whole_batch`] with four row blocks:
/// two per rank against four in one process, so that the blocks' leaf copies, the gather of
/// several blocks per rank and the ordered sum of four gradients are exercised together.
#[test]
fn four_row_blocks_train_alike_on_one_and_on_two_ranks() {
    same_run_on_one_and_two_ranks("four-blocks", 4, &[]);
}

fn same_run_on_one_and_two_ranks(name: &str, blocks: usize, env: Env<'_>) {
    let dir = scratch(name);
    let one = dir.join("one");
    let two = dir.join("two");
    let common = [
        "train",
        "--method",
        "deterministic",
        "--dataset",
        "synthetic",
        "--epochs",
        "2",
        "--train-limit",
        "320",
        "--test-limit",
        "100",
        "--threads",
        "1",
    ];
    one_rank_and_two_at_half_batch(&common, blocks, env, &one, &two);

    let history = |dir: &Path| -> Vec<(f64, f64)> {
        let state: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap())
                .unwrap();
        state["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["mean_loss"].as_f64().unwrap(),
                    e["mean_pairs"].as_f64().unwrap(),
                )
            })
            .collect()
    };
    let (ha, hb) = (history(&one), history(&two));
    assert_eq!(ha.len(), 2);
    assert_eq!(hb.len(), 2);
    for (e, (a, b)) in ha.iter().zip(&hb).enumerate() {
        println!(
            "epoch {}: mean loss 1 process {:.9}, 2 ranks {:.9}",
            e + 1,
            a.0,
            b.0
        );
        assert_eq!(
            a.0.to_bits(),
            b.0.to_bits(),
            "epoch {}: mean loss {:e} against {:e}",
            e + 1,
            a.0,
            b.0
        );
        assert_eq!(
            a.1,
            b.1,
            "epoch {}: mean pairs {} against {}",
            e + 1,
            a.1,
            b.1
        );
    }

    let (wa, wb) = (
        tensors(&one.join("model.safetensors")),
        tensors(&two.join("model.safetensors")),
    );
    assert_eq!(wa.len(), wb.len());
    assert!(!wa.is_empty());
    for ((na, ta), (nb, tb)) in wa.iter().zip(&wb) {
        assert_eq!(na, nb);
        assert_eq!(ta.size(), tb.size(), "{na}");
        let (ba, bb) = (f32_bits(ta), f32_bits(tb));
        let differ = ba.iter().zip(&bb).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "{na}: {differ} of {} weights differ", ba.len());
    }

    let metrics = |dir: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("metrics.json")).unwrap()).unwrap()
    };
    let (ma, mb) = (metrics(&one), metrics(&two));
    let mut compared = 0;
    compare_numbers(&ma, &mb, "metrics", &mut compared);
    assert!(compared > 3, "metrics.json held only {compared} numbers");
    let _ = std::fs::remove_dir_all(&dir);
}

/// MC dropout's masks: every rank draws the global batch's mask and keeps its own rows, so two
/// ranks at batch 16 draw one process's masks at batch 32. Two epochs of 32 images, so that the
/// second epoch's loss is of weights updated through the masks: with the same row blocks both
/// must agree bit for bit (as the equivalence test). With libtorch's dropout on each rank's
/// rows, row i of both ranks got one mask and the loss differed by 12 % (1.2697 against
/// 1.1147).
#[test]
fn mc_dropout_masks_of_two_ranks_are_one_process_masks() {
    let dir = scratch("dropout");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let common = [
        "train",
        "--method",
        "mc-dropout",
        "--dropout",
        "0.5",
        "--dataset",
        "synthetic",
        "--epochs",
        "2",
        "--train-limit",
        "32",
        "--test-limit",
        "20",
        "--eval-samples",
        "2",
        "--threads",
        "1",
    ];
    one_rank_and_two_at_half_batch(&common, 2, &[], &one, &two);
    let losses = |dir: &Path| -> Vec<u64> {
        let state: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap())
                .unwrap();
        state["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["mean_loss"].as_f64().unwrap().to_bits())
            .collect()
    };
    let (la, lb) = (losses(&one), losses(&two));
    println!(
        "MC dropout mean losses: 1 process {:?}, 2 ranks {:?}",
        la.iter().map(|b| f64::from_bits(*b)).collect::<Vec<_>>(),
        lb.iter().map(|b| f64::from_bits(*b)).collect::<Vec<_>>()
    );
    assert_eq!(la.len(), 2);
    assert_eq!(la, lb, "MC dropout's epoch losses differ");
    let (wa, wb) = (
        tensors(&one.join("model.safetensors")),
        tensors(&two.join("model.safetensors")),
    );
    for ((na, ta), (_, tb)) in wa.iter().zip(&wb) {
        assert_eq!(f32_bits(ta), f32_bits(tb), "{na}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exactly equal numbers (and every other JSON value), but for timings and the device name.
fn compare_numbers(a: &serde_json::Value, b: &serde_json::Value, at: &str, n: &mut usize) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            *n += 1;
            assert_eq!(x.to_bits(), y.to_bits(), "{at}: {x} against {y}");
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                if k.contains("seconds") || k == "device" {
                    continue;
                }
                let w = y.get(k).unwrap_or_else(|| panic!("{at}.{k} missing"));
                compare_numbers(v, w, &format!("{at}.{k}"), n);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}");
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                compare_numbers(v, w, &format!("{at}[{i}]"), n);
            }
        }
        (x, y) => assert_eq!(x, y, "{at}"),
    }
}

/// Rank 1 is killed after the first epoch; rank 0 must stop with an error naming rank 1 well
/// within the collectives' timeout, not hang.
#[test]
fn a_rank_killed_mid_run_is_named_by_the_other_within_the_timeout() {
    let dir = scratch("killed");
    let args = [
        "train",
        "--method",
        "deterministic",
        "--dataset",
        "synthetic",
        "--epochs",
        "100000",
        "--batch",
        "16",
        "--train-limit",
        "64",
        "--test-limit",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ];
    let mut ranks = spawn_ranks(&args, 2, &[]);
    let stderr = ranks[0].stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = String::new();
    let waited = Instant::now();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|_| panic!("rank 0 finished no epoch in 120 s:\n{seen}"));
        seen.push_str(&line);
        seen.push('\n');
        if line.contains("epoch done") {
            break;
        }
        assert!(waited.elapsed() < Duration::from_secs(120), "{seen}");
    }
    ranks[1].kill().unwrap();
    let killed = Instant::now();
    let _ = ranks[1].wait();
    let status = loop {
        if let Some(status) = ranks[0].try_wait().unwrap() {
            break status;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(TIMEOUT_S + 30),
            "rank 0 still running {:?} after rank 1 was killed",
            killed.elapsed()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let took = killed.elapsed();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        seen.push_str(&line);
        seen.push('\n');
    }
    assert!(
        !status.success(),
        "rank 0 succeeded after losing rank 1:\n{seen}"
    );
    assert!(
        seen.contains("lost rank 1"),
        "the error does not name rank 1:\n{seen}"
    );
    assert!(
        took < Duration::from_secs(TIMEOUT_S),
        "rank 0 took {took:?} to stop (timeout {TIMEOUT_S} s)"
    );
    println!("rank 0 stopped {took:?} after rank 1 was killed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The evaluation is shared out by batches of 100 images and gathered in rank order, its draws
/// seeded by the batch, so two ranks must write the metrics.json of one process byte for byte:
/// for the deterministic method, MC dropout (per-image masks) and post-hoc LAM (posterior
/// weight draws). 250 test and 250 OOD images are 3 batches each, 2 for rank 0 and 1 for rank 1
/// (whose stderr must say it embedded its 50 images, so the shares are not empty).
///
/// The one-process side is `probdml eval` of the two-rank checkpoint (the same weights); for
/// LAM it is `posthoc` on one rank, whose precision is one rank's bit for bit (above).
/// Gathering the ranks' rows in the wrong order, or seeding the draws by the rank-local batch,
/// fails it.
#[test]
fn sharded_evaluation_writes_the_metrics_of_one_process_byte_for_byte() {
    let dir = scratch("evaluation");
    let small = [
        "--dataset",
        "synthetic",
        "--train-limit",
        "64",
        "--test-limit",
        "250",
        "--batch",
        "16",
        "--threads",
        "1",
    ];
    let metrics = |dir: &Path| -> String {
        std::fs::read_to_string(dir.join("metrics.json"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
    };
    let rank_one_embedded_its_share = |outs: &[Output], what: &str| {
        let log = String::from_utf8_lossy(&outs[1].stderr);
        assert!(
            log.lines().any(
                |l| l.contains("evaluation: embedding the ID test set") && l.contains("own=50")
            ),
            "{what}: rank 1 did not embed its 50 test images:\n{log}"
        );
    };
    // `probdml <command> --checkpoint <checkpoint> --out <out> --threads 1`.
    let from_checkpoint = |command: &str, checkpoint: &Path, out: &Path| -> Vec<String> {
        let path = |p: &Path| p.to_str().unwrap().to_owned();
        vec![
            command.to_owned(),
            "--checkpoint".into(),
            path(checkpoint),
            "--out".into(),
            path(out),
            "--threads".into(),
            "1".into(),
        ]
    };
    for method in ["deterministic", "mc-dropout"] {
        let two = dir.join(format!("{method}-two"));
        let one = dir.join(format!("{method}-one"));
        let mut train = vec!["train", "--method", method, "--epochs", "1", "--out"];
        train.push(two.to_str().unwrap());
        train.extend_from_slice(&small);
        let outs = ranks_succeed(&train, 2);
        rank_one_embedded_its_share(&outs, method);
        one_process(&strs(&from_checkpoint("eval", &two, &one)));
        let (a, b) = (metrics(&one), metrics(&two));
        assert!(a.contains("\"ece\""), "{method}: {a}");
        assert_eq!(a, b, "{method}: metrics.json of 1 rank against 2 ranks");
    }

    // `probdml eval` joins the group too: two ranks evaluating a checkpoint into a new folder
    // write one process's metrics.json.
    let (one, two) = (dir.join("mc-dropout-one"), dir.join("mc-dropout-eval-two"));
    let eval = from_checkpoint("eval", &dir.join("mc-dropout-two"), &two);
    let outs = ranks_succeed(&strs(&eval), 2);
    rank_one_embedded_its_share(&outs, "eval of mc-dropout");
    assert_eq!(
        metrics(&one),
        metrics(&two),
        "eval of mc-dropout: metrics.json of 1 rank against 2 ranks"
    );

    let checkpoint = dir.join("deterministic-two");
    let (one, two) = (dir.join("lam-one"), dir.join("lam-two"));
    one_process(&strs(&from_checkpoint("posthoc", &checkpoint, &one)));
    let outs = ranks_succeed(&strs(&from_checkpoint("posthoc", &checkpoint, &two)), 2);
    rank_one_embedded_its_share(&outs, "lam-posthoc");
    let (a, b) = (metrics(&one), metrics(&two));
    assert!(a.contains("\"auroc\""), "lam-posthoc: {a}");
    assert_eq!(a, b, "lam-posthoc: metrics.json of 1 rank against 2 ranks");
    let _ = std::fs::remove_dir_all(&dir);
}
