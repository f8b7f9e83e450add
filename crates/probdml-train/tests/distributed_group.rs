//! The c10d binding with two real processes on loopback (Gloo): every collective's result, and a
//! rank killed mid-collective turning into an error that names it, within the timeout.
//!
//! Each test re-runs this test binary twice as the two ranks (`RANK`/`WORLD_SIZE`/... set as
//! `torchrun` sets them, `PROBDML_DIST_TEST_ROLE` saying what to do); the ranks assert their own
//! results and the parent checks their exit status and output.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use probdml_train::distributed::{DistributedError, ProcessGroup, Rendezvous};
use tch::{Device, Kind, Tensor};

const TIMEOUT_S: u64 = 20;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn spawn_rank(test: &str, role: &str, rank: usize, world: usize, port: u16) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([test, "--exact", "--nocapture", "--test-threads=1"]);
    spawn_with(cmd, role, rank, world, port)
}

fn spawn_with(mut cmd: Command, role: &str, rank: usize, world: usize, port: u16) -> Child {
    cmd.env("PROBDML_DIST_TEST_ROLE", role)
        .env("MASTER_ADDR", "127.0.0.1")
        .env("MASTER_PORT", port.to_string())
        .env("RANK", rank.to_string())
        .env("WORLD_SIZE", world.to_string())
        .env("LOCAL_RANK", rank.to_string())
        .env("GLOO_SOCKET_IFNAME", "lo")
        .env("PROBDML_DIST_TIMEOUT_S", TIMEOUT_S.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

fn join_on(device: Device) -> ProcessGroup {
    let rz = Rendezvous::from_env().unwrap().expect("launched as a rank");
    ProcessGroup::new(rz, device).unwrap()
}

fn join() -> ProcessGroup {
    join_on(Device::Cpu)
}

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(t.to_kind(Kind::Double).reshape([-1])).unwrap()
}

fn collectives_as_rank() {
    let pg = join();
    let r = pg.rank() as f64;
    assert_eq!(pg.world_size(), 2);

    let mut t = Tensor::from_slice(&[r + 1.0, 10.0 * (r + 1.0)]).to_kind(Kind::Float);
    pg.all_reduce_sum(&mut t).unwrap();
    assert_eq!(values(&t), [3.0, 30.0]);

    let mut t = Tensor::from_slice(&[r + 1.0, 10.0 * (r + 1.0)]).to_kind(Kind::Float);
    pg.all_reduce_mean(&mut t).unwrap();
    assert_eq!(values(&t), [1.5, 15.0]);

    let mut t = Tensor::full([3], r, (Kind::Double, Device::Cpu));
    pg.broadcast(&mut t, 1).unwrap();
    assert_eq!(values(&t), [1.0, 1.0, 1.0]);

    let t = Tensor::from_slice(&[r, 2.0 * r + 0.5]);
    let all = pg.all_gather(&t).unwrap();
    assert_eq!(all.size(), [2, 2]);
    assert_eq!(values(&all), [0.0, 0.5, 1.0, 2.5]);

    let rows = pg.all_gather_f64(&[r, -r]).unwrap();
    assert_eq!(rows, vec![vec![0.0, -0.0], vec![1.0, -1.0]]);

    let strided = Tensor::zeros([2, 2], (Kind::Float, Device::Cpu)).transpose(0, 1);
    let err = pg.all_gather(&strided).unwrap_err();
    assert!(err.to_string().contains("contiguous"), "{err}");
    pg.barrier().unwrap();
    println!("rank {} done", pg.rank());
}

/// Both ranks reach a barrier; `victim` then waits to be killed, the other enters an
/// all-reduce that can never complete and must come back with LostRank naming the victim.
fn survive_as_rank(victim: usize) {
    let pg = join();
    pg.barrier().unwrap();
    if pg.rank() == victim {
        println!("ready to be killed");
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    let mut t = Tensor::ones([4], (Kind::Float, Device::Cpu));
    let err = pg.all_reduce_sum(&mut t).unwrap_err();
    match &err {
        DistributedError::LostRank { ranks, .. } => assert_eq!(ranks, &[victim], "{err}"),
        other => panic!("expected LostRank, got {other}"),
    }
    println!("survivor error: {err}");
}

fn role() -> Option<String> {
    std::env::var("PROBDML_DIST_TEST_ROLE").ok()
}

fn wait_ok(mut child: Child, what: &str) -> String {
    let mut out = String::new();
    use std::io::Read;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{what} failed ({status}); stdout:\n{out}");
    out
}

#[test]
fn two_ranks_all_reduce_broadcast_gather_barrier() {
    if role().as_deref() == Some("collectives") {
        return collectives_as_rank();
    }
    if role().is_some() {
        return;
    }
    let port = free_port();
    let name = "two_ranks_all_reduce_broadcast_gather_barrier";
    let r0 = spawn_rank(name, "collectives", 0, 2, port);
    let r1 = spawn_rank(name, "collectives", 1, 2, port);
    assert!(wait_ok(r0, "rank 0").contains("rank 0 done"));
    assert!(wait_ok(r1, "rank 1").contains("rank 1 done"));
}

fn kill_and_watch(victim: usize) {
    let name = "a_killed_rank_is_named_by_the_survivor_within_the_timeout";
    let port = free_port();
    let role = format!("survive-{victim}");
    let mut ranks = [
        spawn_rank(name, &role, 0, 2, port),
        spawn_rank(name, &role, 1, 2, port),
    ];
    let mut line = String::new();
    let mut reader = BufReader::new(ranks[victim].stdout.take().unwrap());
    loop {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "victim rank {victim} ended early"
        );
        if line.contains("ready to be killed") {
            break;
        }
    }
    // Let the survivor block inside its all-reduce before the peer disappears.
    std::thread::sleep(Duration::from_millis(500));
    ranks[victim].kill().unwrap();
    let killed = Instant::now();
    ranks[victim].wait().unwrap();
    let [r0, r1] = ranks;
    let survivor = if victim == 0 { r1 } else { r0 };
    let out = wait_ok(survivor, "survivor");
    let took = killed.elapsed();
    assert!(out.contains("survivor error"), "{out}");
    assert!(
        took < Duration::from_secs(TIMEOUT_S),
        "survivor took {took:?}"
    );
    println!("victim {victim}: survivor exited {took:?} after the kill: {out}");
}

#[test]
fn a_killed_rank_is_named_by_the_survivor_within_the_timeout() {
    match role().as_deref() {
        Some("survive-0") => return survive_as_rank(0),
        Some("survive-1") => return survive_as_rank(1),
        Some(_) => return,
        None => {}
    }
    kill_and_watch(1);
    kill_and_watch(0);
}

/// The same collectives over NCCL on two GPUs (scripts/gpu-check.sh runs it).
fn nccl_as_rank() {
    let rank: usize = std::env::var("RANK").unwrap().parse().unwrap();
    let device = Device::Cuda(rank);
    let pg = join_on(device);
    let r = pg.rank() as f64;
    let mut t = Tensor::from_slice(&[r + 1.0, 10.0 * (r + 1.0)])
        .to_kind(Kind::Float)
        .to_device(device);
    pg.all_reduce_sum(&mut t).unwrap();
    assert_eq!(values(&t.to_device(Device::Cpu)), [3.0, 30.0]);
    let mut t = Tensor::full([3], r, (Kind::Double, device));
    pg.broadcast(&mut t, 1).unwrap();
    assert_eq!(values(&t.to_device(Device::Cpu)), [1.0, 1.0, 1.0]);
    let all = pg
        .all_gather(&Tensor::from_slice(&[r, 2.0 * r + 0.5]).to_device(device))
        .unwrap();
    assert_eq!(values(&all.to_device(Device::Cpu)), [0.0, 0.5, 1.0, 2.5]);
    pg.barrier().unwrap();
    println!("rank {} done", pg.rank());
}

#[test]
#[ignore = "needs two CUDA devices and NCCL compiled in (scripts/gpu-check.sh)"]
fn nccl_two_ranks_all_reduce_broadcast_gather() {
    if role().as_deref() == Some("nccl") {
        return nccl_as_rank();
    }
    if role().is_some() {
        return;
    }
    assert!(ProcessGroup::nccl_compiled(), "this build has no NCCL");
    assert!(tch::Cuda::device_count() >= 2, "needs two CUDA devices");
    let port = free_port();
    let name = "nccl_two_ranks_all_reduce_broadcast_gather";
    let r0 = spawn_rank_ignored(name, "nccl", 0, 2, port);
    let r1 = spawn_rank_ignored(name, "nccl", 1, 2, port);
    assert!(wait_ok(r0, "rank 0").contains("rank 0 done"));
    assert!(wait_ok(r1, "rank 1").contains("rank 1 done"));
}

fn spawn_rank_ignored(test: &str, role: &str, rank: usize, world: usize, port: u16) -> Child {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        test,
        "--exact",
        "--nocapture",
        "--test-threads=1",
        "--ignored",
    ]);
    spawn_with(cmd, role, rank, world, port)
}
