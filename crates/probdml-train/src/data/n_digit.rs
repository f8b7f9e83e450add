//! N-digit MNIST, the data set of the hedged instance embedding paper (Oh et al., ICLR 2019,
//! Section 4 and Appendix A): images of N MNIST digits side by side, 28 × 28N pixels, whose
//! class is the N-digit number they show (10ᴺ classes), with occluded digits as the source of
//! aleatoric uncertainty.
//!
//! # The construction
//!
//! * **Splits.** Training images are built from the official MNIST training split only, test
//!   images from the official test split only, so no digit image is shared between them.
//! * **Classes.** Every number 0 … 10ᴺ − 1 holds the same number of images, `images / 10ᴺ`
//!   (100 000 training and 10 000 test images in the paper: 1 000 and 100 per number for N =
//!   2, 100 and 10 for N = 3), as in the paper's published generator ("instance" protocol).
//!   Under its "number" protocol ([`NDigitGap::Number`]) the training set holds 70 % of the
//!   numbers and the test set comes twice: the seen numbers and the unseen rest, each part
//!   ⌊images / its numbers⌋ images of each of its numbers.
//! * **Digits.** For each number and each of its N positions, the images of that position are
//!   distinct MNIST images of the position's digit, drawn without replacement from the split
//!   (a partial Fisher–Yates shuffle of the digit's images); different numbers and positions
//!   draw independently, so one MNIST image can appear in several numbers.
//! * **Occlusion** (Appendix A). A digit is occluded by a black square: its side L is uniform
//!   on {0, 1, …, 28}, then its top and left corner each uniform on {0, …, 28 − L}, so the
//!   square lies inside the digit's 28 × 28 cell and covers L² pixels (L = 0 occludes
//!   nothing, as the paper's L ~ U(0, 28) does with probability → 0). The paper draws on the
//!   continuum; the pixel grid is what an image has. In the training set each digit is
//!   occluded independently with probability `occlusion_rate` (0.2 in the paper); the test set
//!   comes as twins, clean (no digit occluded) and corrupt (every digit occluded), the same
//!   digit images in the same order.
//! * **Order.** Images are grouped by number (0, 1, …), in the order drawn; a training loop
//!   shuffles them.
//!
//! # Seeds
//!
//! Everything drawn comes from one [`Xoshiro256PlusPlusX8`] seeded with
//! `seed_from_u64(seed)`, read word by word in a fixed order (under the number gap first the
//! training numbers; then the training split, then the test split, then the unseen test split;
//! within a split number by number and position by position, then the occlusions image by
//! image and digit by digit), and integers below n are drawn by Lemire's multiply-and-reject
//! ([`below`]): the same seed and MNIST files give the same bytes on every machine and with
//! every version of `rand`.

use probdml::rand::{Rng, SeedableRng};
use probdml::xoshiro_x8::Xoshiro256PlusPlusX8;

use super::ImageSet;
use crate::error::{TrainError, TrainResult};
use crate::n_digit_gap::NDigitGap;

/// Side of an MNIST digit image, in pixels.
const SIDE: usize = 28;

/// What to generate (module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct NDigitConfig {
    /// Digits per image, 1 to 4 (the paper uses 2 and 3).
    pub digits: usize,
    /// Training images, a multiple of 10ᴺ (100 000 in the paper).
    pub train_images: usize,
    /// Test images of each twin, a multiple of 10ᴺ (10 000 in the paper).
    pub test_images: usize,
    /// Probability that a training digit is occluded (0.2 in the paper).
    pub occlusion_rate: f64,
    /// Seed of every draw.
    pub seed: u64,
    /// Whether the training and test sets also differ in their numbers.
    pub gap: NDigitGap,
}

impl NDigitConfig {
    /// The paper's set for `digits` digits: 100 000 training and 10 000 test images, 20 % of
    /// the training digits occluded.
    pub fn paper(digits: usize, seed: u64) -> Self {
        Self {
            digits,
            train_images: 100_000,
            test_images: 10_000,
            occlusion_rate: 0.2,
            seed,
            gap: NDigitGap::Instance,
        }
    }
}

/// The black square over one digit: rows `top..top + side`, columns `left..left + side` of the
/// digit's 28 × 28 cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occlusion {
    /// Side L, 0 to 28.
    pub side: u8,
    /// First row, 0 to 28 − L.
    pub top: u8,
    /// First column, 0 to 28 − L.
    pub left: u8,
}

/// One split of N-digit MNIST.
#[derive(Clone, Debug, PartialEq)]
pub struct NDigitSet {
    /// `n-digit-mnist-<N>-<train|test-clean|test-corrupt|test-unseen-clean|test-unseen-corrupt>`.
    pub name: String,
    /// Digits per image.
    pub digits: usize,
    /// The pixels, 28 × 28N per image, row-major, image after image.
    pub images: Vec<u8>,
    /// The number each image shows, in 0..10ᴺ.
    pub numbers: Vec<u16>,
    /// The index in its MNIST split of each digit image, N per image (most significant
    /// first).
    pub sources: Vec<u32>,
    /// The occlusion of each digit, N per image, `None` where the digit is clean.
    pub occlusions: Vec<Option<Occlusion>>,
}

impl NDigitSet {
    /// Number of images.
    pub fn len(&self) -> usize {
        self.numbers.len()
    }

    /// Whether the set holds no image.
    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty()
    }

    /// Number of classes, 10ᴺ.
    pub fn classes(&self) -> usize {
        10usize.pow(self.digits as u32)
    }

    /// The pixels of image `i` (28 rows of 28N).
    ///
    /// # Panics
    /// If `i >= len()`, like slice indexing.
    pub fn image(&self, i: usize) -> &[u8] {
        let len = SIDE * SIDE * self.digits;
        &self.images[i * len..(i + 1) * len]
    }

    /// The same images without their occlusions: the same digit images of `split`, the MNIST
    /// split this set was drawn from (the K-NN galleries of chapter 10's diagnostics).
    pub fn without_occlusions(&self, split: &ImageSet) -> NDigitSet {
        compose(
            split,
            self.digits,
            format!("{}-unoccluded", self.name),
            self.sources.clone(),
            self.numbers.clone(),
            vec![None; self.sources.len()],
        )
    }

    /// As an [`ImageSet`] (one channel, 28 × 28N) for the training loop, labelled by the
    /// numbers.
    pub fn to_image_set(&self) -> ImageSet {
        ImageSet {
            name: self.name.clone(),
            images: self.images.clone(),
            labels: self.numbers.clone(),
            channels: 1,
            rows: SIDE,
            cols: SIDE * self.digits,
            classes: self.classes(),
        }
    }
}

/// The training set and the test twins.
#[derive(Clone, Debug, PartialEq)]
pub struct NDigitMnist {
    /// From MNIST's training split, `occlusion_rate` of the digits occluded.
    pub train: NDigitSet,
    /// From MNIST's test split, no digit occluded.
    pub test_clean: NDigitSet,
    /// The clean twin's images with every digit occluded.
    pub test_corrupt: NDigitSet,
    /// Under [`NDigitGap::Number`], the test images of the numbers the training set lacks, as
    /// twins [clean, corrupt]; None under [`NDigitGap::Instance`]. `test_clean` and
    /// `test_corrupt` then hold the seen numbers.
    pub unseen: Option<[NDigitSet; 2]>,
}

/// N-digit MNIST from MNIST's official `train` and `test` splits ([`super::mnist`]), as the
/// module docs describe.
///
/// # Errors
/// [`TrainError::InvalidConfig`] naming the field when `digits` is not 1 to 4, an image count
/// is not a positive multiple of 10ᴺ, `occlusion_rate` is not in [0, 1], or a split holds
/// fewer images of a digit than one number needs; naming `train` or `test` when that set is
/// not 28 × 28 single-channel images of ten classes.
pub fn n_digit_mnist(
    train: &ImageSet,
    test: &ImageSet,
    config: &NDigitConfig,
) -> TrainResult<NDigitMnist> {
    let invalid = |arg: &'static str, value: String, rule: &str| TrainError::InvalidConfig {
        arg,
        value,
        rule: rule.into(),
    };
    let n = config.digits;
    if !(1..=4).contains(&n) {
        return Err(invalid("digits", n.to_string(), "1 to 4 digits per image"));
    }
    let classes = 10usize.pow(n as u32);
    for (arg, count) in [
        ("train_images", config.train_images),
        ("test_images", config.test_images),
    ] {
        if count == 0 || count % classes != 0 {
            return Err(invalid(
                arg,
                count.to_string(),
                &format!("a positive multiple of 10^digits = {classes}, so every number holds as many images"),
            ));
        }
    }
    if !(0.0..=1.0).contains(&config.occlusion_rate) {
        return Err(invalid(
            "occlusion_rate",
            config.occlusion_rate.to_string(),
            "a probability in [0, 1]",
        ));
    }
    for (arg, set) in [("train", train), ("test", test)] {
        if set.channels != 1 || set.rows != SIDE || set.cols != SIDE || set.classes != 10 {
            return Err(invalid(
                arg,
                format!(
                    "{} ({}×{}×{}, {} classes)",
                    set.name, set.channels, set.rows, set.cols, set.classes
                ),
                "MNIST: one channel of 28 × 28, ten classes",
            ));
        }
    }
    let mut rng = Xoshiro256PlusPlusX8::seed_from_u64(config.seed);
    // The numbers of the training set (and the seen test set), ascending, and the unseen rest.
    let (seen, unseen): (Vec<usize>, Vec<usize>) = match config.gap {
        NDigitGap::Instance => ((0..classes).collect(), Vec::new()),
        NDigitGap::Number => {
            let mut pool: Vec<u32> = (0..classes as u32).collect();
            let mut chosen =
                choose_distinct(&mut pool, config.gap.train_numbers(classes), &mut rng);
            chosen.sort_unstable();
            let chosen: Vec<usize> = chosen.into_iter().map(|x| x as usize).collect();
            let rest = (0..classes)
                .filter(|x| chosen.binary_search(x).is_err())
                .collect();
            (chosen, rest)
        }
    };
    let name = |part: &str| format!("n-digit-mnist-{n}-{part}");
    // The digits of one split's numbers, or the error naming its image count when a digit is
    // too rare. A count is a positive multiple of 10ᴺ, so every number gets an image.
    let draw = |split: &ImageSet,
                numbers: &[usize],
                (arg, count): (&'static str, usize),
                part: &str,
                rng: &mut Xoshiro256PlusPlusX8| {
        let per_number = count / numbers.len();
        draw_sources(split, n, numbers, per_number, rng).map_err(|(digit, have, need)| {
            invalid(
                arg,
                count.to_string(),
                &format!("{need} images per number need {need} distinct {part} images of the digit {digit}; MNIST's {part} split has {have}"),
            )
        })
    };
    let (sources, numbers) = draw(
        train,
        &seen,
        ("train_images", config.train_images),
        "training",
        &mut rng,
    )?;
    let occlusions = draw_occlusions(sources.len(), config.occlusion_rate, &mut rng);
    let train_set = compose(train, n, name("train"), sources, numbers, occlusions);

    // A test split's twins: the same digits, none and every one occluded.
    let twins = |numbers: &[usize],
                 part: &str,
                 rng: &mut Xoshiro256PlusPlusX8|
     -> TrainResult<[NDigitSet; 2]> {
        let (sources, numbers) = draw(
            test,
            numbers,
            ("test_images", config.test_images),
            "test",
            rng,
        )?;
        let occlusions = draw_occlusions(sources.len(), 1.0, rng);
        let clean = compose(
            test,
            n,
            name(&format!("{part}clean")),
            sources.clone(),
            numbers.clone(),
            vec![None; sources.len()],
        );
        let corrupt = compose(
            test,
            n,
            name(&format!("{part}corrupt")),
            sources,
            numbers,
            occlusions,
        );
        Ok([clean, corrupt])
    };
    let [test_clean, test_corrupt] = twins(&seen, "test-", &mut rng)?;
    let unseen = if unseen.is_empty() {
        None
    } else {
        Some(twins(&unseen, "test-unseen-", &mut rng)?)
    };
    Ok(NDigitMnist {
        train: train_set,
        test_clean,
        test_corrupt,
        unseen,
    })
}

/// For every number of `chosen` (in order) `per_number` images: the split's indices of their
/// digits, N per image, and the numbers. Err((digit, images of it, per_number)) when a digit is
/// too rare.
fn draw_sources(
    split: &ImageSet,
    n: usize,
    chosen: &[usize],
    per_number: usize,
    rng: &mut Xoshiro256PlusPlusX8,
) -> Result<(Vec<u32>, Vec<u16>), (usize, usize, usize)> {
    let mut by_digit: Vec<Vec<u32>> = vec![Vec::new(); 10];
    for (i, &label) in split.labels.iter().enumerate() {
        by_digit[usize::from(label)].push(i as u32);
    }
    if let Some((digit, pool)) = by_digit
        .iter()
        .enumerate()
        .find(|(_, pool)| pool.len() < per_number)
    {
        return Err((digit, pool.len(), per_number));
    }
    let mut columns = vec![Vec::new(); n];
    let mut sources = vec![0u32; chosen.len() * per_number * n];
    let mut numbers = Vec::with_capacity(chosen.len() * per_number);
    for (slot, &number) in chosen.iter().enumerate() {
        for (position, column) in columns.iter_mut().enumerate() {
            let digit = number / 10usize.pow((n - 1 - position) as u32) % 10;
            *column = choose_distinct(&mut by_digit[digit], per_number, rng);
        }
        for k in 0..per_number {
            let image = slot * per_number + k;
            for (position, column) in columns.iter().enumerate() {
                sources[image * n + position] = column[k];
            }
            numbers.push(number as u16);
        }
    }
    Ok((sources, numbers))
}

/// `count` distinct entries of `pool`, in the order drawn: the first `count` steps of a
/// Fisher–Yates shuffle of `pool` (which is left permuted).
fn choose_distinct(pool: &mut [u32], count: usize, rng: &mut Xoshiro256PlusPlusX8) -> Vec<u32> {
    for i in 0..count {
        let j = i + below(rng, (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool[..count].to_vec()
}

/// For each of `digits` digits, an occlusion with probability `rate` (module docs).
fn draw_occlusions(
    digits: usize,
    rate: f64,
    rng: &mut Xoshiro256PlusPlusX8,
) -> Vec<Option<Occlusion>> {
    (0..digits)
        .map(|_| {
            // A uniform in [0, 1) on 53 bits against the rate: rate 1 always, rate 0 never.
            let u = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            (u < rate).then(|| {
                let side = below(rng, SIDE as u64 + 1) as u8;
                let room = SIDE as u64 + 1 - u64::from(side);
                let top = below(rng, room) as u8;
                let left = below(rng, room) as u8;
                Occlusion { side, top, left }
            })
        })
        .collect()
}

/// A uniform integer in 0..n (n ≥ 1): Lemire's multiply-and-reject ("Fast random integer
/// generation in an interval", ACM TOMS 29(1), 2019), exactly uniform.
fn below(rng: &mut Xoshiro256PlusPlusX8, n: u64) -> u64 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// The images of a split from their digits' sources, squares blacked out.
fn compose(
    split: &ImageSet,
    n: usize,
    name: String,
    sources: Vec<u32>,
    numbers: Vec<u16>,
    occlusions: Vec<Option<Occlusion>>,
) -> NDigitSet {
    let width = SIDE * n;
    let mut images = vec![0u8; numbers.len() * SIDE * width];
    for (image, pixels) in images.chunks_exact_mut(SIDE * width).enumerate() {
        for position in 0..n {
            let digit = split.image(sources[image * n + position] as usize);
            let square = occlusions[image * n + position];
            for row in 0..SIDE {
                let out = &mut pixels[row * width + position * SIDE..][..SIDE];
                out.copy_from_slice(&digit[row * SIDE..(row + 1) * SIDE]);
                if let Some(o) = square {
                    let (top, left, side) =
                        (usize::from(o.top), usize::from(o.left), usize::from(o.side));
                    if (top..top + side).contains(&row) {
                        out[left..left + side].fill(0);
                    }
                }
            }
        }
    }
    NDigitSet {
        name,
        digits: n,
        images,
        numbers,
        sources,
        occlusions,
    }
}
