//! [`ImageSet`]: a labelled set of 8-bit images held in memory.

use std::fmt;

/// A labelled set of 8-bit images, all of the same shape, held in memory.
///
/// Image `i` occupies `images[i * image_len() .. (i + 1) * image_len()]`, channel-major
/// (C, H, W), each channel row-major; its label is `labels[i]`, in `0..classes`. The loaders of
/// this module uphold these invariants; code that builds an `ImageSet` by hand must too.
#[derive(Clone, PartialEq, Eq)]
pub struct ImageSet {
    /// A short name for logs and reports, e.g. `"fashion-mnist-train"`.
    pub name: String,
    /// The pixels, `len() * channels * rows * cols` bytes, image after image.
    pub images: Vec<u8>,
    /// One label per image, each `< classes`: 16 bits, for the 1000 numbers of 3-digit MNIST
    /// (HIB Appendix A).
    pub labels: Vec<u16>,
    /// Channels per image: 1 for the MNIST sets, 3 for CIFAR-10.
    pub channels: usize,
    /// Image height in pixels.
    pub rows: usize,
    /// Image width in pixels.
    pub cols: usize,
    /// Number of classes; labels lie in `0..classes`.
    pub classes: usize,
}

impl ImageSet {
    /// Number of images.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether the set holds no image.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Bytes per image: `channels * rows * cols`.
    pub fn image_len(&self) -> usize {
        self.channels * self.rows * self.cols
    }

    /// The bytes of image `i` (C, H, W).
    ///
    /// # Panics
    /// If `i >= len()`, like slice indexing.
    pub fn image(&self, i: usize) -> &[u8] {
        let len = self.image_len();
        &self.images[i * len..(i + 1) * len]
    }

    /// The labels as `usize`, the form the metrics of [`probdml::metrics`] take.
    pub fn labels_usize(&self) -> Vec<usize> {
        self.labels.iter().map(|&l| usize::from(l)).collect()
    }

    /// How many images each class holds: a vector of length `classes`.
    pub fn class_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.classes];
        for &l in &self.labels {
            if let Some(c) = counts.get_mut(usize::from(l)) {
                *c += 1;
            }
        }
        counts
    }

    /// The images at `indices`, in that order (repeats allowed), as a new set with the same
    /// shape, classes and name.
    ///
    /// # Panics
    /// If an index is `>= len()`, like slice indexing.
    pub fn subset(&self, indices: &[usize]) -> ImageSet {
        let len = self.image_len();
        let mut images = Vec::with_capacity(indices.len() * len);
        let mut labels = Vec::with_capacity(indices.len());
        for &i in indices {
            images.extend_from_slice(self.image(i));
            labels.push(self.labels[i]);
        }
        ImageSet {
            name: self.name.clone(),
            images,
            labels,
            ..self.shape_only()
        }
    }

    /// The first `min(n, len())` images as a new set.
    pub fn take(&self, n: usize) -> ImageSet {
        let n = n.min(self.len());
        ImageSet {
            name: self.name.clone(),
            images: self.images[..n * self.image_len()].to_vec(),
            labels: self.labels[..n].to_vec(),
            ..self.shape_only()
        }
    }

    /// All pixels as `f32` in `[0, 1]` (byte / 255), in the layout of [`ImageSet::images`]:
    /// reshaped to `(len, channels, rows, cols)` it is the usual NCHW tensor.
    pub fn pixels_f32(&self) -> Vec<f32> {
        self.images.iter().map(|&b| f32::from(b) / 255.0).collect()
    }

    fn shape_only(&self) -> ImageSet {
        ImageSet {
            name: String::new(),
            images: Vec::new(),
            labels: Vec::new(),
            channels: self.channels,
            rows: self.rows,
            cols: self.cols,
            classes: self.classes,
        }
    }
}

/// A summary (name, count, shape, classes), not the megabytes of pixels.
impl fmt::Debug for ImageSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ImageSet {{ name: {:?}, len: {}, shape: {}x{}x{}, classes: {}, images: {} bytes }}",
            self.name,
            self.len(),
            self.channels,
            self.rows,
            self.cols,
            self.classes,
            self.images.len()
        )
    }
}
