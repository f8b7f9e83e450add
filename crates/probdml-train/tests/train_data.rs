//! The data layer of the training module (chapter 09): the IDX reader on files written here
//! (plain and gzip, every corruption case), the named sets' checks, CIFAR-10 records, the
//! synthetic sets, and — when `bash scripts/setup-data.sh` has been run — the real
//! Fashion-MNIST and MNIST files, MNIST against the values that an independent reader
//! (`scripts/reference/mnist_values.py`) wrote into `scripts/reference/mnist_values.txt`; and
//! the N-digit MNIST generator on stand-in digit sets whose pixels say which image they are.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use probdml_train::config::TrainConfig;
use probdml_train::data::{
    cifar10, default_data_dir, fashion_mnist, mnist, mnist_ood, n_digit_mnist, read_idx_images,
    read_idx_labels, read_idx_pair, synthetic, synthetic_ood, ImageSet, NDigitConfig, NDigitSet,
    Partition, DATA_FIX,
};
use probdml_train::n_digit_gap::NDigitGap;
use probdml_train::pipeline::load_data;
use probdml_train::report::MNIST_TEST_OOD_SET;
use probdml_train::TrainError;

/// A fresh folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("probdml-train-data-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

fn idx_images(n: u32, rows: u32, cols: u32, pixels: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [0x0803, n, rows, cols] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    out.extend_from_slice(pixels);
    out
}

fn idx_labels(labels: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x0801u32.to_be_bytes());
    out.extend_from_slice(&(labels.len() as u32).to_be_bytes());
    out.extend_from_slice(labels);
    out
}

/// 5 images of 3×4 with distinct pixels, labels in 0..10.
fn sample() -> (Vec<u8>, Vec<u8>) {
    let pixels: Vec<u8> = (0..5 * 12).map(|i| (i * 37 % 256) as u8).collect();
    (pixels, vec![3, 0, 9, 9, 1])
}

/// Asserts `err` is CorruptData for `path`, its message names the file and contains `needle`.
fn assert_corrupt(err: TrainError, path: &Path, needle: &str) {
    let msg = err.to_string();
    match &err {
        TrainError::CorruptData { path: p, fix, .. } => {
            assert_eq!(p, path, "{msg}");
            assert_eq!(*fix, DATA_FIX);
        }
        other => panic!("expected CorruptData for {}, got {other:?}", path.display()),
    }
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(msg.contains(needle), "`{needle}` not in: {msg}");
    assert!(msg.contains("bash scripts/setup-data.sh"), "{msg}");
}

#[test]
fn idx_round_trip_plain_gzip_and_multi_member_gzip() {
    let dir = TempDir::new("round-trip");
    let (pixels, labels) = sample();
    let img = idx_images(5, 3, 4, &pixels);
    let lab = idx_labels(&labels);
    let concat = |b: &[u8]| {
        // Two gzip members (as `cat a.gz b.gz`): gzip -d yields the concatenation.
        let (head, tail) = b.split_at(b.len() / 2);
        [gzip(head), gzip(tail)].concat()
    };
    let variants: [(&str, Vec<u8>, Vec<u8>); 3] = [
        ("plain", img.clone(), lab.clone()),
        ("gzip", gzip(&img), gzip(&lab)),
        ("multi", concat(&img), concat(&lab)),
    ];
    for (kind, img_bytes, lab_bytes) in variants {
        let ip = dir.path(&format!("{kind}-images"));
        let lp = dir.path(&format!("{kind}-labels"));
        write(&ip, &img_bytes);
        write(&lp, &lab_bytes);
        let (px, n, rows, cols) = read_idx_images(&ip).unwrap();
        assert_eq!((n, rows, cols), (5, 3, 4), "{kind}");
        assert_eq!(px, pixels, "{kind}");
        assert_eq!(read_idx_labels(&lp, 10).unwrap(), labels, "{kind}");
        let set = read_idx_pair(&ip, &lp, 10, "tiny").unwrap();
        assert_eq!(set.name, "tiny");
        assert_eq!(set.len(), 5);
        assert_eq!(
            (set.channels, set.rows, set.cols, set.classes),
            (1, 3, 4, 10)
        );
        assert_eq!(set.image(2), &pixels[24..36]);
        assert_eq!(set.labels_usize(), vec![3, 0, 9, 9, 1]);
    }
}

#[test]
fn every_corruption_is_corrupt_data_naming_the_file() {
    let dir = TempDir::new("corrupt");
    let (pixels, labels) = sample();
    let good_img = idx_images(5, 3, 4, &pixels);
    let good_lab = idx_labels(&labels);

    // Each case, plain and gzip-compressed.
    let image_cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "bad-magic",
            [&[1u8, 0][..], &good_img[2..]].concat(),
            "bad magic number",
        ),
        (
            "float-type",
            [&[0u8, 0, 0x0d, 3][..], &good_img[4..]].concat(),
            "element type 0x0d",
        ),
        (
            "labels-as-images",
            good_lab.clone(),
            "declares 1 dimensions",
        ),
        (
            "short-header",
            good_img[..10].to_vec(),
            "ends inside the IDX images header",
        ),
        (
            "truncated",
            good_img[..good_img.len() - 1].to_vec(),
            "truncated",
        ),
        (
            "trailing",
            [&good_img[..], &[0u8][..]].concat(),
            "trailing bytes",
        ),
        ("zero-rows", idx_images(5, 0, 4, &[]), "0x4 images"),
        ("empty", Vec::new(), "ends inside the IDX images header"),
    ];
    for (name, bytes, needle) in image_cases {
        for (suffix, content) in [("", bytes.clone()), (".gz", gzip(&bytes))] {
            let p = dir.path(&format!("{name}-images{suffix}"));
            write(&p, &content);
            assert_corrupt(read_idx_images(&p).unwrap_err(), &p, needle);
        }
    }

    let label_cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "bad-magic",
            [&[0u8, 0, 8, 3][..], &good_lab[4..]].concat(),
            "declares 3 dimensions",
        ),
        (
            "signed-type",
            [&[0u8, 0, 0x09, 1][..], &good_lab[4..]].concat(),
            "element type 0x09",
        ),
        (
            "truncated",
            good_lab[..good_lab.len() - 2].to_vec(),
            "truncated",
        ),
        (
            "trailing",
            [&good_lab[..], &[7u8, 7][..]].concat(),
            "trailing bytes",
        ),
        (
            "out-of-range",
            idx_labels(&[1, 2, 10, 3]),
            "label 10 at index 2 is outside 0..10",
        ),
    ];
    for (name, bytes, needle) in label_cases {
        for (suffix, content) in [("", bytes.clone()), (".gz", gzip(&bytes))] {
            let p = dir.path(&format!("{name}-labels{suffix}"));
            write(&p, &content);
            assert_corrupt(read_idx_labels(&p, 10).unwrap_err(), &p, needle);
        }
    }

    // A damaged gzip stream: cut inside the compressed data, and a flipped byte in the middle.
    let gz = gzip(&good_img);
    let cut = dir.path("cut.gz");
    write(&cut, &gz[..gz.len() / 2]);
    assert_corrupt(read_idx_images(&cut).unwrap_err(), &cut, "gzip");
    let mut flipped = gz.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xff;
    let flip = dir.path("flipped.gz");
    write(&flip, &flipped);
    assert!(matches!(
        read_idx_images(&flip).unwrap_err(),
        TrainError::CorruptData { path, .. } if path == flip
    ));

    // Image and label counts disagree: the labels file is named, the images file mentioned.
    let ip = dir.path("pair-images");
    let lp = dir.path("pair-labels");
    write(&ip, &good_img);
    write(&lp, &idx_labels(&labels[..4]));
    let err = read_idx_pair(&ip, &lp, 10, "pair").unwrap_err();
    assert!(err.to_string().contains(&ip.display().to_string()), "{err}");
    assert_corrupt(err, &lp, "4 labels, but the images file");
}

#[test]
fn missing_file_is_missing_data_with_the_fix() {
    let dir = TempDir::new("missing");
    let p = dir.path("nope-idx3-ubyte.gz");
    for err in [
        read_idx_images(&p).unwrap_err(),
        read_idx_labels(&p, 10).unwrap_err(),
    ] {
        let msg = err.to_string();
        match &err {
            TrainError::MissingData { path, fix, .. } => {
                assert_eq!(path, &p);
                assert_eq!(*fix, DATA_FIX);
            }
            other => panic!("expected MissingData, got {other:?}"),
        }
        assert!(msg.contains("bash scripts/setup-data.sh"), "{msg}");
        assert!(msg.contains("nope-idx3-ubyte.gz"), "{msg}");
    }
    // The named sets name the file the setup script writes.
    let err = fashion_mnist(&dir.0, Partition::Train).unwrap_err();
    assert!(
        matches!(&err, TrainError::MissingData { path, .. }
            if path == &dir.path("fashion-mnist/train-images-idx3-ubyte.gz")),
        "{err:?}"
    );
    assert!(err.to_string().contains("bash scripts/setup-data.sh"));
    // The OOD set is the MNIST test split: its error names the t10k file.
    for (err, file) in [
        (mnist_ood(&dir.0).unwrap_err(), "t10k-images-idx3-ubyte.gz"),
        (
            mnist(&dir.0, Partition::Test).unwrap_err(),
            "t10k-images-idx3-ubyte.gz",
        ),
        (
            mnist(&dir.0, Partition::Train).unwrap_err(),
            "train-images-idx3-ubyte.gz",
        ),
    ] {
        assert!(
            matches!(&err, TrainError::MissingData { path, .. }
                if path == &dir.path("mnist").join(file)),
            "{err:?}"
        );
    }
    let err = cifar10(&dir.0, Partition::Test).unwrap_err();
    assert!(
        matches!(&err, TrainError::MissingData { path, .. }
            if path == &dir.path("cifar-10-batches-bin/test_batch.bin")),
        "{err:?}"
    );
}

#[test]
fn named_sets_reject_the_wrong_size_and_accept_plain_files() {
    let dir = TempDir::new("named");
    // Valid IDX files of the wrong size for Fashion-MNIST test (5 images instead of 10 000).
    let (pixels, labels) = sample();
    let fm = dir.path("fashion-mnist");
    let ip = fm.join("t10k-images-idx3-ubyte.gz");
    write(&ip, &gzip(&idx_images(5, 3, 4, &pixels)));
    write(
        &fm.join("t10k-labels-idx1-ubyte.gz"),
        &gzip(&idx_labels(&labels)),
    );
    assert_corrupt(
        fashion_mnist(&dir.0, Partition::Test).unwrap_err(),
        &ip,
        "expected 10000 of 28x28",
    );

    // The right size, stored uncompressed without the `.gz` suffix: accepted.
    let n = 10_000usize;
    let px: Vec<u8> = (0..n * 784).map(|i| (i % 251) as u8).collect();
    let lab: Vec<u8> = (0..n).map(|i| (i % 10) as u8).collect();
    std::fs::remove_file(&ip).unwrap();
    std::fs::remove_file(fm.join("t10k-labels-idx1-ubyte.gz")).unwrap();
    write(
        &fm.join("t10k-images-idx3-ubyte"),
        &idx_images(n as u32, 28, 28, &px),
    );
    write(&fm.join("t10k-labels-idx1-ubyte"), &idx_labels(&lab));
    let set = fashion_mnist(&dir.0, Partition::Test).unwrap();
    assert_eq!(set.name, "fashion-mnist-test");
    assert_eq!(
        (set.len(), set.rows, set.cols, set.channels),
        (n, 28, 28, 1)
    );
    assert_eq!(set.images, px);
    assert_eq!(set.class_counts(), vec![1000; 10]);

    // A label of 10 in an otherwise valid MNIST test pair.
    let md = dir.path("mnist");
    let mut bad = lab.clone();
    bad[777] = 10;
    write(
        &md.join("t10k-images-idx3-ubyte.gz"),
        &gzip(&idx_images(n as u32, 28, 28, &px)),
    );
    let lp = md.join("t10k-labels-idx1-ubyte.gz");
    write(&lp, &gzip(&idx_labels(&bad)));
    assert_corrupt(mnist_ood(&dir.0).unwrap_err(), &lp, "label 10 at index 777");
}

/// The OOD loader reads the MNIST test split's files (`mnist/t10k-*`), not the training
/// split's: here only the test files exist, each image distinct.
#[test]
fn ood_set_is_the_mnist_test_split_files() {
    let dir = TempDir::new("mnist-ood");
    let n = 10_000usize;
    // Image i: its index in the first two bytes, then a ramp; labels cycle through the digits.
    let px: Vec<u8> = (0..n)
        .flat_map(|i| {
            let mut img: Vec<u8> = (0..784).map(|k| ((i + k) % 256) as u8).collect();
            img[..2].copy_from_slice(&(i as u16).to_be_bytes());
            img
        })
        .collect();
    let lab: Vec<u8> = (0..n).map(|i| ((i * 7) % 10) as u8).collect();
    let md = dir.path("mnist");
    write(
        &md.join("t10k-images-idx3-ubyte.gz"),
        &gzip(&idx_images(n as u32, 28, 28, &px)),
    );
    write(
        &md.join("t10k-labels-idx1-ubyte.gz"),
        &gzip(&idx_labels(&lab)),
    );
    for set in [
        mnist_ood(&dir.0).unwrap(),
        mnist(&dir.0, Partition::Test).unwrap(),
    ] {
        assert_eq!(set.name, "mnist-test");
        assert_eq!(
            (set.len(), set.channels, set.rows, set.cols, set.classes),
            (n, 1, 28, 28, 10)
        );
        assert_eq!(set.images, px);
        assert_eq!(
            set.labels,
            lab.iter().map(|&l| u16::from(l)).collect::<Vec<_>>()
        );
    }
    // The training split is another pair of files, absent here.
    assert!(matches!(
        mnist(&dir.0, Partition::Train).unwrap_err(),
        TrainError::MissingData { path, .. } if path == md.join("train-images-idx3-ubyte.gz")
    ));
}

#[test]
fn cifar10_records_and_their_checks() {
    let dir = TempDir::new("cifar");
    let cd = dir.path("cifar-10-batches-bin");
    let record = |i: usize| -> Vec<u8> {
        let mut r = vec![(i % 10) as u8];
        r.extend((0..3072).map(|k| ((i * 7 + k) % 256) as u8));
        r
    };
    let batch: Vec<u8> = (0..10_000).flat_map(record).collect();
    // Stored gzip-compressed: the reader decompresses whatever the name.
    let tp = cd.join("test_batch.bin");
    write(&tp, &gzip(&batch));
    let set = cifar10(&dir.0, Partition::Test).unwrap();
    assert_eq!(
        (set.len(), set.channels, set.rows, set.cols),
        (10_000, 3, 32, 32)
    );
    assert_eq!(set.image_len(), 3072);
    assert_eq!(set.class_counts(), vec![1000; 10]);
    assert_eq!(set.image(1234), &record(1234)[1..]);
    assert_eq!(set.labels[1234], 4);

    // One byte short, a whole record short, a byte too many, a label of 10.
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            batch[..batch.len() - 1].to_vec(),
            "not a whole number of 3073-byte records",
        ),
        (batch[..batch.len() - 3073].to_vec(), "9999 records"),
        (
            [&batch[..], &[0u8][..]].concat(),
            "more than 30730000 bytes",
        ),
        (
            {
                let mut b = batch.clone();
                b[5 * 3073] = 10;
                b
            },
            "label 10 in record 5",
        ),
    ];
    for (bytes, needle) in cases {
        write(&tp, &bytes);
        assert_corrupt(cifar10(&dir.0, Partition::Test).unwrap_err(), &tp, needle);
    }
}

#[test]
fn image_set_helpers() {
    let set = synthetic(4, 3, 8, 1);
    assert_eq!(set.len(), 12);
    assert!(!set.is_empty());
    let sub = set.subset(&[5, 0, 5]);
    assert_eq!(sub.len(), 3);
    assert_eq!(
        sub.labels,
        vec![set.labels[5], set.labels[0], set.labels[5]]
    );
    assert_eq!(sub.image(0), set.image(5));
    assert_eq!(sub.image(1), set.image(0));
    assert_eq!(
        (sub.rows, sub.cols, sub.channels, sub.classes),
        (8, 8, 1, 4)
    );
    let head = set.take(5);
    assert_eq!(head.len(), 5);
    assert_eq!(head.images, set.images[..5 * 64]);
    assert_eq!(set.take(1000), set);
    assert!(set.take(0).is_empty());
    let px = set.pixels_f32();
    assert_eq!(px.len(), set.images.len());
    for (&f, &b) in px.iter().zip(&set.images) {
        assert_eq!(f, f32::from(b) / 255.0);
        assert!((0.0..=1.0).contains(&f));
    }
    // Debug prints a summary, not the pixels.
    let dbg = format!("{set:?}");
    assert!(dbg.contains("len: 12") && dbg.len() < 200, "{dbg}");
}

/// Mean image of each class, as f64.
fn class_means(set: &ImageSet) -> Vec<Vec<f64>> {
    let mut sums = vec![vec![0.0; set.image_len()]; set.classes];
    for i in 0..set.len() {
        for (s, &b) in sums[usize::from(set.labels[i])]
            .iter_mut()
            .zip(set.image(i))
        {
            *s += f64::from(b);
        }
    }
    let counts = set.class_counts();
    for (s, &c) in sums.iter_mut().zip(&counts) {
        s.iter_mut().for_each(|v| *v /= c as f64);
    }
    sums
}

fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

fn sq_dist_u8(a: &[u8], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| (f64::from(x) - y).powi(2))
        .sum()
}

#[test]
fn synthetic_is_deterministic_balanced_and_learnable() {
    let a = synthetic(10, 50, 28, 7);
    assert_eq!(a, synthetic(10, 50, 28, 7));
    let b = synthetic(10, 50, 28, 8);
    assert_ne!(a.images, b.images);
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.len(), 500);
    assert_eq!((a.rows, a.cols, a.channels, a.classes), (28, 28, 1, 10));
    assert_eq!(a.class_counts(), vec![50; 10]);
    assert_eq!(a.take(30).class_counts(), vec![3; 10]);
    assert!(a
        .labels
        .iter()
        .enumerate()
        .all(|(i, &l)| usize::from(l) == i % 10));
    // Bright strokes on a dark background: the full byte range is used.
    assert_eq!(*a.images.iter().min().unwrap(), 0);
    assert!(*a.images.iter().max().unwrap() >= 230);

    // Learnable: even nearest-class-mean (means from seed 7, images of seed 99) is right far
    // above chance (0.10); it scores 0.93-0.96 over seeds 0-11, a CNN does better.
    let means = class_means(&a);
    let test = synthetic(10, 30, 28, 99);
    let correct = (0..test.len())
        .filter(|&i| {
            let best = (0..10)
                .min_by(|&p, &q| {
                    sq_dist_u8(test.image(i), &means[p])
                        .total_cmp(&sq_dist_u8(test.image(i), &means[q]))
                })
                .unwrap();
            best == usize::from(test.labels[i])
        })
        .count();
    assert!(
        correct as f64 >= 0.85 * test.len() as f64,
        "{correct}/{}",
        test.len()
    );
}

#[test]
fn synthetic_ood_is_deterministic_and_unlike_the_classes() {
    let ood = synthetic_ood(40, 28, 3);
    assert_eq!(ood, synthetic_ood(40, 28, 3));
    assert_ne!(ood.images, synthetic_ood(40, 28, 4).images);
    assert_eq!(
        (ood.len(), ood.rows, ood.cols, ood.classes),
        (40, 28, 28, 2)
    );
    assert_eq!(ood.class_counts(), vec![20, 20]);

    // Every OOD image is farther from its nearest class mean than any fresh in-distribution
    // image is from its nearest one.
    let id = synthetic(10, 50, 28, 7);
    let means = class_means(&id);
    let nearest = |img: &[u8]| {
        means
            .iter()
            .map(|m| sq_dist_u8(img, m))
            .fold(f64::INFINITY, f64::min)
    };
    let fresh = synthetic(10, 10, 28, 11);
    let id_worst = (0..fresh.len())
        .map(|i| nearest(fresh.image(i)))
        .fold(0.0, f64::max);
    let ood_best = (0..ood.len())
        .map(|i| nearest(ood.image(i)))
        .fold(f64::INFINITY, f64::min);
    assert!(
        ood_best > id_worst,
        "ood nearest {ood_best} <= id farthest {id_worst}"
    );
    // Class means themselves are distinct.
    for p in 0..10 {
        for q in 0..p {
            assert!(sq_dist(&means[p], &means[q]) > 0.0);
        }
    }
}

#[test]
fn default_data_dir_is_under_the_crate_or_the_env_var() {
    if std::env::var_os("PROBDML_DATA").is_none() {
        assert_eq!(
            default_data_dir(),
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join("data")
        );
    }
}

/// The real sets, when `bash scripts/setup-data.sh` has fetched them (CI runs it first).
#[test]
fn real_data_when_present() {
    let dir = default_data_dir();
    if !dir.join("fashion-mnist").exists() {
        eprintln!(
            "note: {} absent, real-data checks skipped; run `bash scripts/setup-data.sh`",
            dir.join("fashion-mnist").display()
        );
        return;
    }
    let train = fashion_mnist(&dir, Partition::Train).unwrap();
    let test = fashion_mnist(&dir, Partition::Test).unwrap();
    let ood = mnist_ood(&dir).unwrap();
    for (set, n, name) in [
        (&train, 60_000, "fashion-mnist-train"),
        (&test, 10_000, "fashion-mnist-test"),
        (&ood, 10_000, "mnist-test"),
    ] {
        assert_eq!(set.name, name);
        assert_eq!(set.len(), n, "{name}");
        assert_eq!(
            (set.channels, set.rows, set.cols, set.classes),
            (1, 28, 28, 10),
            "{name}"
        );
        assert_eq!(set.images.len(), n * 784, "{name}");
        // Every set uses the full byte range; no image is blank.
        assert_eq!(*set.images.iter().min().unwrap(), 0, "{name}");
        assert_eq!(*set.images.iter().max().unwrap(), 255, "{name}");
        assert!(
            (0..n).all(|i| set.image(i).iter().any(|&b| b > 0)),
            "{name}: a blank image"
        );
        let px = set.pixels_f32();
        assert!(px.iter().all(|v| (0.0..=1.0).contains(v)), "{name}");
    }
    assert_eq!(train.class_counts(), vec![6000; 10]);
    assert_eq!(test.class_counts(), vec![1000; 10]);
    // The published first labels (ankle boot, T-shirt, T-shirt, dress, …).
    assert_eq!(train.labels[..10], [9, 0, 0, 3, 0, 2, 7, 2, 5, 5]);
    assert_eq!(test.labels[..10], [9, 2, 1, 1, 6, 1, 4, 6, 5, 7]);
    // The usual normalisation constant of Fashion-MNIST: mean pixel 0.2860 over train.
    let mean = |s: &ImageSet| {
        s.images.iter().map(|&b| f64::from(b)).sum::<f64>() / (255.0 * s.images.len() as f64)
    };
    assert!((mean(&train) - 0.2860).abs() < 5e-4, "{}", mean(&train));

    // The OOD set is MNIST's official test split: its published class counts and first labels,
    // then every value of the independent reader.
    assert_eq!(
        ood.class_counts(),
        [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    );
    assert_eq!(ood.labels[..10], [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]);
    let reference = MnistReference::read();
    check_mnist(&ood, "test", &reference);
    check_mnist(&mnist(&dir, Partition::Train).unwrap(), "train", &reference);

    // What a Fashion-MNIST run evaluates on: the test split, under its note.
    let defaults = TrainConfig::default();
    let run = load_data(&defaults.data, defaults.seed, &dir).unwrap();
    assert_eq!(run.ood, ood);
    assert_eq!(run.ood_note, MNIST_TEST_OOD_SET);
    assert_eq!(run.train, train);
    assert_eq!(run.test, test);

    // The paper's 2-digit MNIST from the official splits: 100 000 training images, 1 000 of
    // each number, every digit an official training image of that digit.
    let (digits_train, digits_test) = (mnist(&dir, Partition::Train).unwrap(), ood);
    let start = std::time::Instant::now();
    let sets = n_digit_mnist(&digits_train, &digits_test, &NDigitConfig::paper(2, 0)).unwrap();
    eprintln!(
        "2-digit MNIST, 100 000 + 2 × 10 000 images: {:.2?}",
        start.elapsed()
    );
    assert_eq!(
        (sets.train.len(), sets.test_corrupt.len()),
        (100_000, 10_000)
    );
    check_composition(&sets.train, &digits_train);
    check_composition(&sets.test_corrupt, &digits_test);
    assert_eq!(sets.train.to_image_set().class_counts(), vec![1_000; 100]);
}

/// `scripts/reference/mnist_values.txt`: `key = value` lines written by
/// `scripts/reference/mnist_values.py` (Python standard library, its own IDX reader).
struct MnistReference(Vec<(String, String)>);

impl MnistReference {
    fn read() -> MnistReference {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("scripts/reference/mnist_values.txt");
        let text = std::fs::read_to_string(&path).unwrap();
        MnistReference(
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| {
                    let (k, v) = l.split_once(" = ").unwrap();
                    (k.to_string(), v.to_string())
                })
                .collect(),
        )
    }

    fn get(&self, key: &str) -> &str {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .unwrap_or_else(|| panic!("{key} not in mnist_values.txt"))
            .1
            .as_str()
    }

    fn numbers(&self, key: &str) -> Vec<u64> {
        self.get(key)
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect()
    }

    fn hex(&self, key: &str) -> u64 {
        u64::from_str_radix(self.get(key).trim_start_matches("0x"), 16).unwrap()
    }
}

/// FNV-1a, 64 bits: the checksum of the reference script.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `set` against the independent reader's values of `split` ("test" or "train").
fn check_mnist(set: &ImageSet, split: &str, reference: &MnistReference) {
    let key = |k: &str| format!("{split}.{k}");
    let n = reference.numbers(&key("images"))[0] as usize;
    assert_eq!(set.name, format!("mnist-{split}"));
    assert_eq!(set.len(), n, "{split}");
    assert_eq!(
        vec![set.rows as u64, set.cols as u64],
        reference.numbers(&key("shape")),
        "{split}"
    );
    assert_eq!((set.channels, set.classes), (1, 10), "{split}");
    let counts: Vec<u64> = set.class_counts().iter().map(|&c| c as u64).collect();
    assert_eq!(counts, reference.numbers(&key("class_counts")), "{split}");
    let first: Vec<u64> = set.labels[..10].iter().map(|&l| u64::from(l)).collect();
    assert_eq!(first, reference.numbers(&key("first_labels")), "{split}");
    assert_eq!(
        u64::from(set.labels[n - 1]),
        reference.numbers(&key("last_label"))[0],
        "{split}"
    );
    // The pixel range, and every f32 pixel in [0, 1].
    let (lo, hi) = (set.images.iter().min(), set.images.iter().max());
    assert_eq!(
        vec![u64::from(*lo.unwrap()), u64::from(*hi.unwrap())],
        reference.numbers(&key("pixel_min_max")),
        "{split}"
    );
    assert!(
        set.pixels_f32().iter().all(|v| (0.0..=1.0).contains(v)),
        "{split}"
    );
    let sum: u64 = set.images.iter().map(|&b| u64::from(b)).sum();
    assert_eq!(sum, reference.numbers(&key("pixel_sum"))[0], "{split}");
    for i in [0, n - 1] {
        let img = set.image(i);
        assert_eq!(
            u64::from(set.labels[i]),
            reference.numbers(&key(&format!("image{i}.label")))[0],
            "{split} image {i}"
        );
        assert_eq!(
            img.iter().map(|&b| u64::from(b)).sum::<u64>(),
            reference.numbers(&key(&format!("image{i}.pixel_sum")))[0],
            "{split} image {i}"
        );
        assert_eq!(
            fnv1a64(img),
            reference.hex(&key(&format!("image{i}.fnv1a64"))),
            "{split} image {i}"
        );
    }
    // The labels file's bytes: MNIST's labels, widened to 16 bits in the set, fit one each.
    let label_bytes: Vec<u8> = set
        .labels
        .iter()
        .map(|&l| u8::try_from(l).unwrap())
        .collect();
    assert_eq!(
        fnv1a64(&label_bytes),
        reference.hex(&key("labels.fnv1a64")),
        "{split} labels"
    );
    if split == "test" {
        assert_eq!(
            fnv1a64(&set.images),
            reference.hex(&key("pixels.fnv1a64")),
            "{split} pixels"
        );
    }
}

/// A stand-in for an MNIST split: `per_digit` images of each digit, labels cycling 0–9, every
/// pixel non-zero (so an occluded pixel is the only zero) and a function of (`salt`, index,
/// pixel), so that a cell of a composed image names the split and the image it came from.
fn stand_in_digits(per_digit: usize, salt: usize) -> ImageSet {
    let n = 10 * per_digit;
    ImageSet {
        name: format!("stand-in-{salt}"),
        images: (0..n)
            .flat_map(|i| (0..784).map(move |p| (1 + (i * 131 + p * 7 + salt * 61) % 255) as u8))
            .collect(),
        labels: (0..n).map(|i| (i % 10) as u16).collect(),
        channels: 1,
        rows: 28,
        cols: 28,
        classes: 10,
    }
}

/// The 28 × 28 cell of digit `position` of image `i`.
fn cell(set: &NDigitSet, i: usize, position: usize) -> Vec<u8> {
    let width = 28 * set.digits;
    (0..28)
        .flat_map(|r| set.image(i)[r * width + 28 * position..][..28].to_vec())
        .collect()
}

/// Every image of `set`: its number's digits are its sources' labels in `split`, and each cell
/// is its source image with exactly the recorded square blacked out.
fn check_composition(set: &NDigitSet, split: &ImageSet) {
    let n = set.digits;
    for i in 0..set.len() {
        let mut number = 0usize;
        for position in 0..n {
            let source = set.sources[i * n + position] as usize;
            number = number * 10 + usize::from(split.labels[source]);
            let mut expected = split.image(source).to_vec();
            if let Some(o) = set.occlusions[i * n + position] {
                let (t, l, s) = (usize::from(o.top), usize::from(o.left), usize::from(o.side));
                assert!(
                    t + s <= 28 && l + s <= 28,
                    "{}: square {o:?} outside the cell",
                    set.name
                );
                for r in t..t + s {
                    expected[r * 28 + l..r * 28 + l + s].fill(0);
                }
            }
            assert_eq!(
                cell(set, i, position),
                expected,
                "{} image {i} digit {position}",
                set.name
            );
        }
        assert_eq!(
            usize::from(set.numbers[i]),
            number,
            "{} image {i}",
            set.name
        );
    }
}

#[test]
fn n_digit_mnist_keeps_the_splits_apart_balances_the_numbers_and_twins_the_test_set() {
    let (train, test) = (stand_in_digits(12, 0), stand_in_digits(4, 1));
    let config = NDigitConfig {
        digits: 2,
        train_images: 1_000,
        test_images: 300,
        occlusion_rate: 0.2,
        seed: 7,
        gap: NDigitGap::Instance,
    };
    let sets = n_digit_mnist(&train, &test, &config).unwrap();
    assert_eq!(sets.train.name, "n-digit-mnist-2-train");
    assert_eq!(
        (
            sets.train.len(),
            sets.test_clean.len(),
            sets.test_corrupt.len()
        ),
        (1_000, 300, 300)
    );
    assert_eq!(sets.train.image(0).len(), 28 * 56);
    // Pixels and labels: training cells from the training split, test cells from the test
    // split (the stand-ins' pixels differ, so a cell from the other split fails).
    check_composition(&sets.train, &train);
    check_composition(&sets.test_clean, &test);
    check_composition(&sets.test_corrupt, &test);
    for (set, per_number) in [(&sets.train, 10), (&sets.test_clean, 3)] {
        // Every number equally often, in order; within a number and position, distinct images.
        for number in 0..100 {
            let images = number * per_number..(number + 1) * per_number;
            assert!(set.numbers[images.clone()]
                .iter()
                .all(|&x| usize::from(x) == number));
            for position in 0..2 {
                let mut used: Vec<u32> = images
                    .clone()
                    .map(|i| set.sources[i * 2 + position])
                    .collect();
                used.sort_unstable();
                used.dedup();
                assert_eq!(
                    used.len(),
                    per_number,
                    "{} number {number} position {position}",
                    set.name
                );
            }
        }
    }
    // The twins: the same digits in the same order, none occluded in the clean one, every one in
    // the corrupt one.
    assert_eq!(sets.test_clean.sources, sets.test_corrupt.sources);
    assert_eq!(sets.test_clean.numbers, sets.test_corrupt.numbers);
    assert!(sets.test_clean.occlusions.iter().all(Option::is_none));
    assert!(sets.test_corrupt.occlusions.iter().all(Option::is_some));
    // The training images without their occlusions: the same digits, none occluded, the same
    // pixels as an image that had no square, other pixels than one that had a visible square.
    let unoccluded = sets.train.without_occlusions(&train);
    assert_eq!(unoccluded.name, "n-digit-mnist-2-train-unoccluded");
    assert_eq!(
        (&unoccluded.sources, &unoccluded.numbers),
        (&sets.train.sources, &sets.train.numbers)
    );
    assert!(unoccluded.occlusions.iter().all(Option::is_none));
    check_composition(&unoccluded, &train);
    let (mut same, mut changed) = (0, 0);
    for i in 0..sets.train.len() {
        let squares = &sets.train.occlusions[i * 2..][..2];
        if squares.iter().all(Option::is_none) {
            assert_eq!(unoccluded.image(i), sets.train.image(i), "image {i}");
            same += 1;
        } else if squares.iter().flatten().any(|o| o.side > 0) {
            assert_ne!(unoccluded.image(i), sets.train.image(i), "image {i}");
            changed += 1;
        }
    }
    assert!(
        same > 0 && changed > 0,
        "{same} unoccluded, {changed} occluded"
    );
    // Seeded: the same bytes again, other bytes for another seed.
    assert_eq!(n_digit_mnist(&train, &test, &config).unwrap(), sets);
    let other = n_digit_mnist(
        &train,
        &test,
        &NDigitConfig {
            seed: 8,
            ..config.clone()
        },
    )
    .unwrap();
    assert_ne!(other.train.sources, sets.train.sources);
    assert_ne!(other.test_corrupt.occlusions, sets.test_corrupt.occlusions);
    // The image set is labelled by the numbers, for two digits (100 classes) as for three.
    let image_set = sets.train.to_image_set();
    assert_eq!(
        (image_set.rows, image_set.cols, image_set.classes),
        (28, 56, 100)
    );
    assert_eq!(
        image_set.labels_usize(),
        sets.train
            .numbers
            .iter()
            .map(|&x| usize::from(x))
            .collect::<Vec<_>>()
    );
    let three = n_digit_mnist(
        &train,
        &test,
        &NDigitConfig {
            digits: 3,
            train_images: 1_000,
            test_images: 1_000,
            ..config
        },
    )
    .unwrap();
    check_composition(&three.train, &train);
    let three_set = three.train.to_image_set();
    assert_eq!(
        (three_set.rows, three_set.cols, three_set.classes),
        (28, 84, 1000)
    );
    // 1 000 training images, one per number in order: label k is the number k, past a byte.
    assert_eq!(three_set.labels[999], 999);
    assert_eq!(three_set.labels, (0..1000u16).collect::<Vec<_>>());
}

/// The number gap (HIB Table 3, the published generator's `--domain_gap number`): 70 of the
/// 100 numbers in training, the seen test twins of the same numbers, the unseen twins of the 30
/// others, each part ⌊images / its numbers⌋ images of each of its numbers.
#[test]
fn n_digit_mnist_number_gap_tests_thirty_numbers_unseen() {
    let (train, test) = (stand_in_digits(12, 0), stand_in_digits(12, 1));
    let config = NDigitConfig {
        digits: 2,
        train_images: 800,
        test_images: 300,
        occlusion_rate: 0.2,
        seed: 3,
        gap: NDigitGap::Number,
    };
    let sets = n_digit_mnist(&train, &test, &config).unwrap();
    let [unseen_clean, unseen_corrupt] = sets.unseen.clone().unwrap();
    // Each part's numbers, with how many images each holds, in the order of the images.
    let numbers = |set: &NDigitSet| {
        let mut counts: Vec<(u16, usize)> = Vec::new();
        for &x in &set.numbers {
            match counts.last_mut() {
                Some((last, k)) if *last == x => *k += 1,
                _ => counts.push((x, 1)),
            }
        }
        counts
    };
    let trained = numbers(&sets.train);
    // 800 / 70 = 11 images of each of 70 numbers, grouped, ascending.
    assert_eq!(trained.len(), 70);
    assert!(trained.iter().all(|&(_, k)| k == 11), "{trained:?}");
    assert!(trained.windows(2).all(|w| w[0].0 < w[1].0));
    // The seen twins: the trained numbers, 300 / 70 = 4 images each.
    let seen = numbers(&sets.test_clean);
    assert_eq!(
        seen.iter().map(|&(x, _)| x).collect::<Vec<_>>(),
        trained.iter().map(|&(x, _)| x).collect::<Vec<_>>()
    );
    assert!(seen.iter().all(|&(_, k)| k == 4), "{seen:?}");
    // The unseen twins: the 30 others, 300 / 30 = 10 images each; together every number once.
    let unseen = numbers(&unseen_clean);
    assert_eq!(unseen.len(), 30);
    assert!(unseen.iter().all(|&(_, k)| k == 10), "{unseen:?}");
    let mut all: Vec<u16> = trained.iter().chain(&unseen).map(|&(x, _)| x).collect();
    all.sort_unstable();
    assert_eq!(all, (0..100).collect::<Vec<u16>>());
    // Each part from its own split, and twinned as the seen test set is.
    check_composition(&sets.train, &train);
    for set in [
        &sets.test_clean,
        &sets.test_corrupt,
        &unseen_clean,
        &unseen_corrupt,
    ] {
        check_composition(set, &test);
    }
    assert_eq!(unseen_clean.name, "n-digit-mnist-2-test-unseen-clean");
    assert_eq!(unseen_corrupt.name, "n-digit-mnist-2-test-unseen-corrupt");
    assert_eq!(unseen_clean.sources, unseen_corrupt.sources);
    assert!(unseen_clean.occlusions.iter().all(Option::is_none));
    assert!(unseen_corrupt.occlusions.iter().all(Option::is_some));
    assert_eq!(unseen_clean.to_image_set().classes, 100);
    // Seeded: another seed holds out other numbers.
    let other = n_digit_mnist(
        &train,
        &test,
        &NDigitConfig {
            seed: 4,
            ..config.clone()
        },
    )
    .unwrap();
    assert_ne!(numbers(&other.train), trained);
    // The instance gap has no unseen part.
    let instance = NDigitConfig {
        gap: NDigitGap::Instance,
        ..config
    };
    assert_eq!(
        n_digit_mnist(&train, &test, &instance).unwrap().unseen,
        None
    );
}

#[test]
fn n_digit_mnist_occludes_by_the_papers_law() {
    // One digit per image, 30 000 training digits at rate 0.2: about 6 000 squares.
    let (train, test) = (stand_in_digits(3_000, 0), stand_in_digits(1, 1));
    let config = NDigitConfig {
        digits: 1,
        train_images: 30_000,
        test_images: 10,
        occlusion_rate: 0.2,
        seed: 11,
        gap: NDigitGap::Instance,
    };
    let sets = n_digit_mnist(&train, &test, &config).unwrap();
    let squares: Vec<_> = sets.train.occlusions.iter().flatten().collect();
    // How many: Binomial(30 000, 0.2), within 5 standard deviations.
    let (n, p) = (30_000.0, 0.2);
    let count = squares.len() as f64;
    assert!(
        (count - n * p).abs() <= 5.0 * (n * p * (1.0 - p)).sqrt(),
        "{count} squares"
    );
    // The side: uniform on 0..=28 (Pearson's χ² with 28 degrees of freedom; 80 is beyond its
    // 1 − 10⁻⁷ quantile).
    let mut by_side = [0.0f64; 29];
    for o in &squares {
        by_side[usize::from(o.side)] += 1.0;
    }
    let expected = count / 29.0;
    let chi2: f64 = by_side
        .iter()
        .map(|&c| (c - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 80.0, "side χ² = {chi2}: {by_side:?}");
    // The corner given the side: uniform on 0..=28 − L in each coordinate, so its centred sum
    // has mean 0 and variance Σ ((29 − L)² − 1)/12; within 5 standard deviations. A corner on
    // 0..=29 − L moves the sum by about 3 000, beyond 5σ ≈ 1 300.
    let variance: f64 = squares
        .iter()
        .map(|o| ((29.0 - f64::from(o.side)).powi(2) - 1.0) / 12.0)
        .sum();
    for (coordinate, of) in [
        (
            "top",
            (|o: &&probdml_train::data::Occlusion| o.top) as fn(&&_) -> u8,
        ),
        ("left", |o| o.left),
    ] {
        let centred: f64 = squares
            .iter()
            .map(|o| f64::from(of(o)) - (28.0 - f64::from(o.side)) / 2.0)
            .sum();
        assert!(
            centred.abs() <= 5.0 * variance.sqrt(),
            "{coordinate}: centred sum {centred}"
        );
    }
    // Rate 0 occludes nothing.
    let none = n_digit_mnist(
        &train,
        &test,
        &NDigitConfig {
            occlusion_rate: 0.0,
            ..config
        },
    )
    .unwrap();
    assert!(none.train.occlusions.iter().all(Option::is_none));
}

#[test]
fn n_digit_mnist_refuses_what_it_cannot_build_naming_the_field() {
    let (train, test) = (stand_in_digits(12, 0), stand_in_digits(4, 1));
    let good = NDigitConfig {
        digits: 2,
        train_images: 1_000,
        test_images: 300,
        occlusion_rate: 0.2,
        seed: 0,
        gap: NDigitGap::Instance,
    };
    let cases: Vec<(NDigitConfig, &str)> = vec![
        (
            NDigitConfig {
                digits: 0,
                ..good.clone()
            },
            "digits",
        ),
        (
            NDigitConfig {
                digits: 5,
                ..good.clone()
            },
            "digits",
        ),
        (
            NDigitConfig {
                train_images: 1_050,
                ..good.clone()
            },
            "train_images",
        ),
        (
            NDigitConfig {
                train_images: 0,
                ..good.clone()
            },
            "train_images",
        ),
        (
            NDigitConfig {
                test_images: 50,
                ..good.clone()
            },
            "test_images",
        ),
        (
            NDigitConfig {
                occlusion_rate: 1.5,
                ..good.clone()
            },
            "occlusion_rate",
        ),
        (
            NDigitConfig {
                occlusion_rate: f64::NAN,
                ..good.clone()
            },
            "occlusion_rate",
        ),
        // 13 images per number, 12 training images of each digit.
        (
            NDigitConfig {
                train_images: 1_300,
                ..good.clone()
            },
            "train_images",
        ),
        (
            NDigitConfig {
                test_images: 500,
                ..good.clone()
            },
            "test_images",
        ),
    ];
    for (config, field) in cases {
        match n_digit_mnist(&train, &test, &config) {
            Err(TrainError::InvalidConfig { arg, .. }) => assert_eq!(arg, field, "{config:?}"),
            other => panic!("{config:?}: {other:?}"),
        }
    }
    let wide = ImageSet {
        cols: 14,
        rows: 56,
        ..train.clone()
    };
    assert!(matches!(
        n_digit_mnist(&wide, &test, &good),
        Err(TrainError::InvalidConfig { arg: "train", .. })
    ));
    assert!(matches!(
        n_digit_mnist(&train, &synthetic(10, 2, 28, 0), &good),
        Err(TrainError::InvalidConfig { .. })
    ));
}
