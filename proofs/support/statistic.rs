//! One goodness-of-fit statistic's result, and how a battery of them decides: it rejects when
//! any p-value is below α (`SAMPLER_ALPHA` per statistic).
#![allow(dead_code)]

/// One statistic's KS result.
#[derive(Debug, Clone)]
pub struct Statistic {
    pub name: String,
    pub n: usize,
    pub d: f64,
    pub p: f64,
}

/// The smallest p-value of a battery.
pub fn smallest_p(stats: &[Statistic]) -> f64 {
    stats.iter().map(|s| s.p).fold(1.0, f64::min)
}

/// One line per statistic, for the test log.
pub fn describe(stats: &[Statistic]) -> String {
    stats
        .iter()
        .map(|s| format!("{} (n = {}): D = {:.2e}, p = {:.2e}", s.name, s.n, s.d, s.p))
        .collect::<Vec<_>>()
        .join("; ")
}
