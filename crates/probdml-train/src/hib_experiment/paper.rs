//! The published numbers of HIB's own experiment (Oh et al., "Modeling Uncertainty with Hedged
//! Instance Embeddings", ICLR 2019, §4.3–4.4), transcribed once from Tables 1 and 2.

/// The paper's training steps (Appendix A: "We use a batch size of 128 and 500k training
/// iterations"), for every setting and method of its tables.
pub const TRAINING_STEPS: usize = 500_000;

/// The three settings of the paper's tables, in its order: (N digits, D dimensions).
pub const SETTINGS: [(usize, usize); 3] = [(2, 2), (3, 3), (3, 2)];

/// The three methods of Table 1, in its order: point embeddings, HIB with one Gaussian, HIB
/// with a mixture of two.
pub const METHODS: [&str; 3] = ["point", "MoG-1", "MoG-2"];

/// One row of HIB Table 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table1Row {
    /// Digits per image N.
    pub digits: usize,
    /// Embedding dimension D.
    pub latent_dim: usize,
    /// "point", "MoG-1" or "MoG-2".
    pub method: &'static str,
    /// Verification AP on the clean and the corrupt test twin.
    pub verification_ap: [f64; 2],
    /// K-NN (K = 5) identification accuracy on the clean and the corrupt twin.
    pub knn_accuracy: [f64; 2],
}

/// HIB Table 1, "Accuracy of pairwise verification and KNN identification tasks".
pub const TABLE_1: [Table1Row; 9] = {
    const fn row(
        digits: usize,
        latent_dim: usize,
        method: &'static str,
        verification_ap: [f64; 2],
        knn_accuracy: [f64; 2],
    ) -> Table1Row {
        Table1Row {
            digits,
            latent_dim,
            method,
            verification_ap,
            knn_accuracy,
        }
    }
    [
        row(2, 2, "point", [0.987, 0.880], [0.871, 0.583]),
        row(2, 2, "MoG-1", [0.989, 0.907], [0.879, 0.760]),
        row(2, 2, "MoG-2", [0.990, 0.912], [0.888, 0.757]),
        row(3, 3, "point", [0.987, 0.901], [0.795, 0.522]),
        row(3, 3, "MoG-1", [0.989, 0.922], [0.770, 0.555]),
        row(3, 3, "MoG-2", [0.991, 0.925], [0.766, 0.598]),
        row(3, 2, "point", [0.978, 0.886], [0.554, 0.274]),
        row(3, 2, "MoG-1", [0.981, 0.899], [0.591, 0.350]),
        row(3, 2, "MoG-2", [0.976, 0.904], [0.540, 0.351]),
    ]
};

/// One row of HIB Table 2: each correlation as (value, the ± the paper prints).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Table2Row {
    /// Digits per image N.
    pub digits: usize,
    /// Embedding dimension D.
    pub latent_dim: usize,
    /// "MoG-1" or "MoG-2" (point embeddings have no η).
    pub method: &'static str,
    /// Kendall τ between η and AP, on the clean and the corrupt twin.
    pub ap_tau: [(f64, f64); 2],
    /// Kendall τ between η and K-NN accuracy, on the clean and the corrupt twin.
    pub knn_tau: [(f64, f64); 2],
}

/// HIB Table 2, "Correlations between each input image's measure of uncertainty, η(x), and AP
/// and KNN performances".
pub const TABLE_2: [Table2Row; 6] = {
    const fn row(
        digits: usize,
        latent_dim: usize,
        method: &'static str,
        ap_tau: [(f64, f64); 2],
        knn_tau: [(f64, f64); 2],
    ) -> Table2Row {
        Table2Row {
            digits,
            latent_dim,
            method,
            ap_tau,
            knn_tau,
        }
    }
    [
        row(
            2,
            2,
            "MoG-1",
            [(0.74, 0.03), (0.81, 0.04)],
            [(0.71, 0.06), (0.47, 0.09)],
        ),
        row(
            2,
            2,
            "MoG-2",
            [(0.43, 0.06), (0.79, 0.08)],
            [(0.57, 0.06), (0.43, 0.10)],
        ),
        row(
            3,
            3,
            "MoG-1",
            [(0.51, 0.04), (0.85, 0.04)],
            [(0.74, 0.07), (0.67, 0.05)],
        ),
        row(
            3,
            3,
            "MoG-2",
            [(0.39, 0.02), (0.79, 0.04)],
            [(0.54, 0.03), (0.34, 0.12)],
        ),
        row(
            3,
            2,
            "MoG-1",
            [(0.63, 0.05), (0.82, 0.03)],
            [(0.76, 0.03), (0.49, 0.06)],
        ),
        row(
            3,
            2,
            "MoG-2",
            [(0.28, 0.04), (0.76, 0.03)],
            [(0.29, 0.12), (0.50, 0.08)],
        ),
    ]
};

/// The Table 1 row of `(digits, latent_dim, method)`, if the paper has one.
pub fn table_1_row(digits: usize, latent_dim: usize, method: &str) -> Option<&'static Table1Row> {
    TABLE_1
        .iter()
        .find(|r| (r.digits, r.latent_dim, r.method) == (digits, latent_dim, method))
}

/// The Table 2 row of `(digits, latent_dim, method)`, if the paper has one.
pub fn table_2_row(digits: usize, latent_dim: usize, method: &str) -> Option<&'static Table2Row> {
    TABLE_2
        .iter()
        .find(|r| (r.digits, r.latent_dim, r.method) == (digits, latent_dim, method))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers the paper's text repeats (§4.3): 88.0 / 90.7 / 91.2 % AP and 58.3 / 76.0 /
    /// 75.7 % K-NN accuracy on corrupt 2-digit images at D = 2.
    #[test]
    fn transcription_agrees_with_the_text() {
        let corrupt = |m: &str| {
            let r = table_1_row(2, 2, m).unwrap();
            (r.verification_ap[1], r.knn_accuracy[1])
        };
        assert_eq!(corrupt("point"), (0.880, 0.583));
        assert_eq!(corrupt("MoG-1"), (0.907, 0.760));
        assert_eq!(corrupt("MoG-2"), (0.912, 0.757));
        assert!(table_2_row(2, 2, "point").is_none());
        // Every setting holds every method once.
        for (n, d) in SETTINGS {
            for m in METHODS {
                assert!(table_1_row(n, d, m).is_some(), "{n} {d} {m}");
            }
        }
    }
}
