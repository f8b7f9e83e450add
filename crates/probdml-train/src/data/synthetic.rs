//! Seeded synthetic image sets for tests: learnable in-distribution classes and a visibly
//! different out-of-distribution set, generated in memory in milliseconds.
//!
//! Why: the training tests must run without the downloaded data and fast, yet on images that a
//! small convolutional net can actually separate, so that "the loss goes down" and "OOD images
//! get higher uncertainty" are meaningful checks. Class `c` of [`synthetic()`] is one bright
//! stroke whose position (on a circle around the centre) and orientation both depend on `c`,
//! jittered per image by a small shift and tilt, with per-pixel noise. [`synthetic_ood`] draws
//! checkerboards and rings, which no class resembles.
//!
//! Determinism: everything comes from one [`StdRng`] seeded with `seed`, drawn in a fixed
//! order, so the same arguments give the same bytes (with the same `rand` version on the same
//! platform); different seeds give different images.

use std::f64::consts::PI;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::ImageSet;

/// Amplitude of the uniform per-pixel noise, as a fraction of full scale.
const NOISE: f64 = 0.08;

fn to_byte(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Distance from point `p` to the segment `a`–`b`.
fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (qx * qx + qy * qy).sqrt()
}

/// A learnable synthetic set: `classes × per_class` single-channel `side × side` images.
///
/// Image `i` has label `i % classes` (classes interleaved, so every prefix of
/// `k · classes` images is balanced). Class `c` is a bright stroke of length ≈ 0.45·side
/// centred at angle 2πc/classes on a circle of radius 0.22·side around the image centre, at
/// orientation πc/classes; each image shifts it by up to side/16 in x and y, tilts it by up to
/// ±0.1 rad, scales its brightness in [0.75, 1], and adds uniform noise of ±8 % per pixel.
/// Named `synthetic`. Deterministic given `seed`.
///
/// # Panics
/// If `classes > 256` (labels are bytes).
pub fn synthetic(classes: usize, per_class: usize, side: usize, seed: u64) -> ImageSet {
    assert!(
        classes <= 256,
        "synthetic: {classes} classes, labels are bytes (at most 256)"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let n = classes * per_class;
    let s = side as f64;
    let (radius, half_len, width, max_shift) = (0.22 * s, 0.22 * s, (0.06 * s).max(0.7), s / 16.0);
    let mut images = Vec::with_capacity(n * side * side);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let c = i % classes;
        let phi = 2.0 * PI * c as f64 / classes as f64;
        let shift_x = rng.random_range(-1.0..=1.0) * max_shift;
        let shift_y = rng.random_range(-1.0..=1.0) * max_shift;
        let theta = PI * c as f64 / classes as f64 + rng.random_range(-0.1..=0.1);
        let brightness = rng.random_range(0.75..=1.0);
        let centre = (
            s / 2.0 + radius * phi.cos() + shift_x,
            s / 2.0 + radius * phi.sin() + shift_y,
        );
        let (ux, uy) = (half_len * theta.cos(), half_len * theta.sin());
        let a = (centre.0 - ux, centre.1 - uy);
        let b = (centre.0 + ux, centre.1 + uy);
        for y in 0..side {
            for x in 0..side {
                let d = segment_distance((x as f64 + 0.5, y as f64 + 0.5), a, b);
                let stroke = brightness * (-d * d / (2.0 * width * width)).exp();
                let noise = rng.random_range(-NOISE..=NOISE);
                images.push(to_byte(stroke + noise));
            }
        }
        labels.push(c as u16);
    }
    ImageSet {
        name: "synthetic".to_string(),
        images,
        labels,
        channels: 1,
        rows: side,
        cols: side,
        classes,
    }
}

/// A synthetic out-of-distribution set: `n` single-channel `side × side` images unlike any
/// class of [`synthetic()`]: even indices are checkerboards (random period in
/// [side/7, side/3.5], random phase, label 0), odd ones rings (random centre near the middle,
/// radius in [0.2, 0.4]·side, label 1), all with the same ±8 % noise. `classes` is 2. Named
/// `synthetic-ood`. Deterministic given `seed`.
pub fn synthetic_ood(n: usize, side: usize, seed: u64) -> ImageSet {
    let mut rng = StdRng::seed_from_u64(seed);
    let s = side as f64;
    let mut images = Vec::with_capacity(n * side * side);
    let mut labels = Vec::with_capacity(n);
    for i in 0..n {
        let checker = i % 2 == 0;
        let high = rng.random_range(0.8..=1.0);
        let period = rng.random_range(s / 7.0..=s / 3.5).max(1.0);
        let (phase_x, phase_y) = (rng.random_range(0.0..period), rng.random_range(0.0..period));
        let centre = (
            s / 2.0 + rng.random_range(-0.1..=0.1) * s,
            s / 2.0 + rng.random_range(-0.1..=0.1) * s,
        );
        let radius = rng.random_range(0.2..=0.4) * s;
        let thickness = (0.05 * s).max(0.7);
        for y in 0..side {
            for x in 0..side {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let v = if checker {
                    let cell = ((px + phase_x) / period).floor() as i64
                        + ((py + phase_y) / period).floor() as i64;
                    if cell.rem_euclid(2) == 0 {
                        high
                    } else {
                        0.0
                    }
                } else {
                    let r = ((px - centre.0).powi(2) + (py - centre.1).powi(2)).sqrt();
                    let d = r - radius;
                    high * (-d * d / (2.0 * thickness * thickness)).exp()
                };
                let noise = rng.random_range(-NOISE..=NOISE);
                images.push(to_byte(v + noise));
            }
        }
        labels.push(u16::from(!checker));
    }
    ImageSet {
        name: "synthetic-ood".to_string(),
        images,
        labels,
        channels: 1,
        rows: side,
        cols: side,
        classes: 2,
    }
}
