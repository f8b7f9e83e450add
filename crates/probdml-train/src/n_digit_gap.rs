//! How N-digit MNIST's training and test sets differ: in their digit images only, or also in
//! their numbers (`--n-digit-gap`, `config.json`'s `data.n_digit_gap`).
//!
//! The hedged instance embedding paper (Oh et al., ICLR 2019, Appendix A) builds training
//! images from MNIST's training digits and test images from its test digits, and its Table 3
//! gives, for N = 2, "Training Classes 70, Unseen Test Classes 30, Seen Test Classes 70":
//! a split of the numbers as well. Its published generator (`google/n-digit-mnist`,
//! `--domain_gap instance|number`, `--number_ratio_train 70`) builds either:
//!
//! * `instance` — every number 0 … 10ᴺ − 1 in both sets; only the digit images differ;
//! * `number` — 70 % of the numbers, drawn without replacement, in the training set; the test
//!   set comes in two parts, the **seen** numbers (the training ones) and the **unseen** rest,
//!   each of `test_images` images. Every part holds ⌊images / its numbers⌋ images of each of
//!   its numbers, the generator's `int(total_num_sample / len(chosen_numbers))`: for N = 2,
//!   1 428 × 70 = 99 960 training images, 142 × 70 = 9 940 seen and 333 × 30 = 9 990 unseen
//!   test images.
//!
//! The paper does not say which of the two its Table 1 used; `instance` is every earlier run's.

use serde::{Deserialize, Serialize};

/// Which numbers the training set holds (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tch", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum NDigitGap {
    /// Every number in training and test; the digit images apart.
    #[default]
    Instance,
    /// 70 % of the numbers in training, the rest only in the unseen test set.
    Number,
}

/// The share of the numbers the `number` gap trains on, in per cent (the published
/// generator's `--number_ratio_train` default, HIB Table 3's 70 of 100).
pub const TRAIN_NUMBER_PERCENT: usize = 70;

impl NDigitGap {
    /// Whether this is the default (`config.json` leaves it out, so that runs of the default
    /// write the file older versions wrote).
    pub fn is_instance(&self) -> bool {
        *self == NDigitGap::Instance
    }

    /// The name of the flag's value and of `config.json`'s.
    pub fn name(self) -> &'static str {
        match self {
            NDigitGap::Instance => "instance",
            NDigitGap::Number => "number",
        }
    }

    /// The name a table gives it: "number gap" (the default has none).
    pub fn display_name(self) -> Option<&'static str> {
        match self {
            NDigitGap::Instance => None,
            NDigitGap::Number => Some("number gap"),
        }
    }

    /// How many of the `classes` numbers the training set holds: all of them, or
    /// ⌊[`TRAIN_NUMBER_PERCENT`] % of them⌋ (the generator's `int(ratio * len / 100)`).
    pub fn train_numbers(self, classes: usize) -> usize {
        match self {
            NDigitGap::Instance => classes,
            NDigitGap::Number => TRAIN_NUMBER_PERCENT * classes / 100,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HIB Table 3: 70 training numbers of 100 for N = 2, 700 of 1000 for N = 3.
    #[test]
    fn the_number_gap_trains_on_seventy_per_cent() {
        assert_eq!(NDigitGap::Number.train_numbers(100), 70);
        assert_eq!(NDigitGap::Number.train_numbers(1000), 700);
        assert_eq!(NDigitGap::Number.train_numbers(10), 7);
        assert_eq!(NDigitGap::Instance.train_numbers(100), 100);
        assert_eq!(NDigitGap::default(), NDigitGap::Instance);
        assert_eq!(
            serde_json::to_string(&NDigitGap::Number).unwrap(),
            "\"number\""
        );
    }
}
