//! The IDX format of MNIST and Fashion-MNIST, plain or gzip-compressed.
//!
//! An IDX file is a big-endian header and a bare payload:
//!
//! | bytes | content |
//! |---|---|
//! | 0–1 | zero |
//! | 2 | element type: `0x08` = unsigned byte (the only one these sets use) |
//! | 3 | number of dimensions: 3 for images, 1 for labels |
//! | 4 … | each dimension as a `u32`: `n, rows, cols` or `n` |
//! | then | the `n · rows · cols` (or `n`) elements, nothing after them |
//!
//! so the magic numbers are 2051 (`0x00000803`, images) and 2049 (`0x00000801`, labels).
//! A file that starts with the gzip signature `1f 8b` is decompressed on the fly (all members,
//! as `gzip -d` does), whatever its name.
//!
//! The trap: nothing in the payload says where it ends or what it holds, so a truncated file,
//! a file with bytes appended, or a labels file read as images would load without complaint.
//! The reader therefore checks the magic, the element type, that the payload is exactly as
//! long as the header declares, and (labels) that every label is below the number of classes;
//! each failure is a [`TrainError::CorruptData`] naming the file. The payload is read through a
//! bound of the declared length plus one byte, so a forged header cannot make it allocate more
//! than the file really holds.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::bufread::MultiGzDecoder;

use super::{ImageSet, DATA_FIX};
use crate::error::{TrainError, TrainResult};

/// Magic number of an IDX file of unsigned-byte images (3 dimensions).
pub const IDX_IMAGES_MAGIC: u32 = 0x0000_0803;
/// Magic number of an IDX file of unsigned-byte labels (1 dimension).
pub const IDX_LABELS_MAGIC: u32 = 0x0000_0801;

pub(super) fn corrupt(path: &Path, reason: impl Into<String>) -> TrainError {
    TrainError::CorruptData {
        path: path.to_path_buf(),
        reason: reason.into(),
        fix: DATA_FIX,
    }
}

pub(super) fn missing(path: &Path, source: io::Error) -> TrainError {
    TrainError::MissingData {
        path: path.to_path_buf(),
        source,
        fix: DATA_FIX,
    }
}

/// Maps an error met while reading (not opening) `path`: malformed compressed data or an early
/// end is corruption; anything else (EIO, …) means the file is unreadable.
pub(super) fn read_error(path: &Path, e: io::Error) -> TrainError {
    match e.kind() {
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => {
            corrupt(path, format!("not a valid gzip stream: {e}"))
        }
        io::ErrorKind::UnexpectedEof => corrupt(path, format!("the gzip stream ends early: {e}")),
        _ => missing(path, e),
    }
}

/// Opens `path` for reading, decompressing when it starts with the gzip signature.
pub(super) fn open_maybe_gz(path: &Path) -> TrainResult<Box<dyn Read>> {
    let file = File::open(path).map_err(|e| missing(path, e))?;
    let mut reader = BufReader::new(file);
    let head = reader.fill_buf().map_err(|e| missing(path, e))?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(MultiGzDecoder::new(reader)))
    } else {
        Ok(Box::new(reader))
    }
}

/// Reads exactly `buf.len()` header bytes; `what` names the file kind for the message.
fn read_header(path: &Path, reader: &mut dyn Read, buf: &mut [u8], what: &str) -> TrainResult<()> {
    reader.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            corrupt(path, format!("the file ends inside the IDX {what} header"))
        }
        _ => read_error(path, e),
    })
}

/// Checks the 4-byte magic: zero, zero, type 0x08, `dims` dimensions.
fn check_magic(path: &Path, magic: [u8; 4], dims: u8, what: &str) -> TrainResult<()> {
    let want = u32::from_be_bytes([0, 0, 0x08, dims]);
    let got = u32::from_be_bytes(magic);
    if magic[0] != 0 || magic[1] != 0 {
        return Err(corrupt(
            path,
            format!("bad magic number 0x{got:08x} ({got}); an IDX {what} file starts with 0x{want:08x} ({want})"),
        ));
    }
    if magic[2] != 0x08 {
        return Err(corrupt(
            path,
            format!(
                "IDX element type 0x{:02x}, expected 0x08 (unsigned byte); magic 0x{got:08x}",
                magic[2]
            ),
        ));
    }
    if magic[3] != dims {
        let other = if dims == 3 {
            " (a labels file?)"
        } else {
            " (an images file?)"
        };
        return Err(corrupt(
            path,
            format!(
                "magic number {got} declares {} dimensions, an IDX {what} file has {dims} (magic {want}){}",
                magic[3],
                if magic[3] == 1 || magic[3] == 3 { other } else { "" }
            ),
        ));
    }
    Ok(())
}

/// Reads and checks the magic number, then the `D` big-endian `u32` dimensions.
fn read_dims<const D: usize>(
    path: &Path,
    reader: &mut dyn Read,
    what: &str,
) -> TrainResult<[usize; D]> {
    let mut magic = [0u8; 4];
    read_header(path, reader, &mut magic, what)?;
    check_magic(path, magic, D as u8, what)?;
    let mut dims = [0usize; D];
    for d in &mut dims {
        let mut word = [0u8; 4];
        read_header(path, reader, &mut word, what)?;
        *d = u32::from_be_bytes(word) as usize;
    }
    Ok(dims)
}

/// Reads the payload: exactly `expected` bytes, no fewer and no more.
fn read_payload(
    path: &Path,
    reader: &mut dyn Read,
    expected: usize,
    declared: &str,
) -> TrainResult<Vec<u8>> {
    let mut payload = Vec::with_capacity(expected.min(1 << 26));
    reader
        .take(expected as u64 + 1)
        .read_to_end(&mut payload)
        .map_err(|e| read_error(path, e))?;
    match payload.len().cmp(&expected) {
        std::cmp::Ordering::Less => Err(corrupt(
            path,
            format!(
                "truncated: the header declares {declared} = {expected} payload bytes, the file holds {}",
                payload.len()
            ),
        )),
        std::cmp::Ordering::Greater => Err(corrupt(
            path,
            format!("trailing bytes after the {expected} payload bytes the header declares ({declared})"),
        )),
        std::cmp::Ordering::Equal => Ok(payload),
    }
}

/// Reads an IDX file of unsigned-byte images (magic 2051), plain or gzip.
///
/// Returns `(pixels, n, rows, cols)`, the pixels image after image, each row-major.
///
/// # Errors
/// [`TrainError::MissingData`] when the file cannot be opened or read;
/// [`TrainError::CorruptData`] when the magic or element type is wrong, an image dimension is
/// zero, the gzip stream is damaged, or the payload is not exactly `n · rows · cols` bytes.
pub fn read_idx_images(path: &Path) -> TrainResult<(Vec<u8>, usize, usize, usize)> {
    let mut reader = open_maybe_gz(path)?;
    let [n, rows, cols] = read_dims::<3>(path, &mut *reader, "images")?;
    if rows == 0 || cols == 0 {
        return Err(corrupt(
            path,
            format!("the header declares {rows}x{cols} images"),
        ));
    }
    let declared = format!("{n} images of {rows}x{cols}");
    let expected = n
        .checked_mul(rows)
        .and_then(|v| v.checked_mul(cols))
        .ok_or_else(|| corrupt(path, format!("the header declares {declared}: too large")))?;
    let pixels = read_payload(path, &mut *reader, expected, &declared)?;
    Ok((pixels, n, rows, cols))
}

/// Reads an IDX file of unsigned-byte labels (magic 2049), plain or gzip, and checks that every
/// label is `< classes`.
///
/// # Errors
/// [`TrainError::MissingData`] when the file cannot be opened or read;
/// [`TrainError::CorruptData`] when the magic or element type is wrong, the gzip stream is
/// damaged, the payload is not exactly `n` bytes, or a label is `>= classes` (the first one is
/// named).
pub fn read_idx_labels(path: &Path, classes: usize) -> TrainResult<Vec<u8>> {
    let mut reader = open_maybe_gz(path)?;
    let [n] = read_dims::<1>(path, &mut *reader, "labels")?;
    let labels = read_payload(path, &mut *reader, n, &format!("{n} labels"))?;
    if let Some((i, &l)) = labels
        .iter()
        .enumerate()
        .find(|&(_, &l)| usize::from(l) >= classes)
    {
        return Err(corrupt(
            path,
            format!("label {l} at index {i} is outside 0..{classes}"),
        ));
    }
    Ok(labels)
}

/// Reads an IDX images file and its labels file into one single-channel [`ImageSet`] named
/// `name`, checking both files and that they hold the same number of items.
///
/// # Errors
/// Those of [`read_idx_images`] and [`read_idx_labels`]; a count mismatch is a
/// [`TrainError::CorruptData`] naming the labels file, with both counts and the images file in
/// the reason.
pub fn read_idx_pair(
    images: &Path,
    labels: &Path,
    classes: usize,
    name: &str,
) -> TrainResult<ImageSet> {
    let (pixels, n, rows, cols) = read_idx_images(images)?;
    let label_bytes = read_idx_labels(labels, classes)?;
    if label_bytes.len() != n {
        return Err(corrupt(
            labels,
            format!(
                "{} labels, but the images file `{}` holds {n} images",
                label_bytes.len(),
                images.display()
            ),
        ));
    }
    Ok(ImageSet {
        name: name.to_string(),
        images: pixels,
        labels: label_bytes.into_iter().map(u16::from).collect(),
        channels: 1,
        rows,
        cols,
        classes,
    })
}
