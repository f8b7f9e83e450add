//! Class labels as a user has them: a borrowed slice of any of Rust's integer types.
//!
//! PyTorch hands labels over as `int64`, NumPy as `int64` or `int32`, a dataset file as `u8`.
//! Casting them to `usize` is where a silent error creeps in: `-1`, the "ignore" label of many
//! datasets, becomes class 18446744073709551615 and the metric returns a plausible number. Every
//! function of probdml that takes labels (retrieval tasks, the contrastive loss and likelihood,
//! calibration, ProxyNCA++) takes them as they are ([`IntoLabels`]), compares them as integers,
//! and refuses a negative one naming its index.

use std::borrow::Cow;

use crate::error::{Error, Result};

/// Class labels: a borrowed slice of one of Rust's integer types, compared by value (an `i64`
/// label 3 and a `u8` label 3 are the same class).
///
/// Build one with [`IntoLabels`] (what every function taking labels accepts): `&[i64]`,
/// `&Vec<i32>`, `&[u8; N]`, … or a `Labels` itself.
///
/// # Examples
///
/// ```
/// use probdml::metrics::{IntoLabels, Labels};
/// let torch_labels: Vec<i64> = vec![3, 1, 3];
/// let labels = (&torch_labels).into_labels();
/// assert_eq!(labels, Labels::I64(&[3, 1, 3]));
/// assert_eq!((labels.len(), labels.get(2)), (3, 3));
/// assert!(Labels::I32(&[0, -1]).check("labels").is_err()); // names element 1
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels<'a> {
    /// `usize` labels.
    Usize(&'a [usize]),
    /// `u64` labels.
    U64(&'a [u64]),
    /// `u32` labels.
    U32(&'a [u32]),
    /// `u16` labels.
    U16(&'a [u16]),
    /// `u8` labels.
    U8(&'a [u8]),
    /// `isize` labels.
    Isize(&'a [isize]),
    /// `i64` labels (PyTorch's `torch.long`, NumPy's default integer).
    I64(&'a [i64]),
    /// `i32` labels.
    I32(&'a [i32]),
    /// `i16` labels.
    I16(&'a [i16]),
    /// `i8` labels.
    I8(&'a [i8]),
}

/// Calls `$body` with `$s` bound to the slice of whichever integer type `$labels` holds.
macro_rules! with_slice {
    ($labels:expr, |$s:ident| $body:expr) => {
        match $labels {
            Labels::Usize($s) => $body,
            Labels::U64($s) => $body,
            Labels::U32($s) => $body,
            Labels::U16($s) => $body,
            Labels::U8($s) => $body,
            Labels::Isize($s) => $body,
            Labels::I64($s) => $body,
            Labels::I32($s) => $body,
            Labels::I16($s) => $body,
            Labels::I8($s) => $body,
        }
    };
}

impl Labels<'_> {
    /// The number of labels.
    pub fn len(&self) -> usize {
        with_slice!(self, |s| s.len())
    }

    /// Whether there are no labels.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Label `i` as an `i128`, which holds every value of every variant exactly (no cast
    /// wraps, so a negative label stays negative).
    ///
    /// # Panics
    ///
    /// If `i >= self.len()`, as slice indexing does.
    pub fn get(&self, i: usize) -> i128 {
        with_slice!(self, |s| s[i] as i128)
    }

    /// The labels as `i128`s, in order.
    pub fn to_vec(&self) -> Vec<i128> {
        with_slice!(self, |s| s.iter().map(|&v| v as i128).collect())
    }

    /// Checks that no label is negative.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfDomainElement`] naming `arg` and the index of the first negative label.
    pub fn check(&self, arg: &'static str) -> Result<()> {
        match (0..self.len()).find(|&i| self.get(i) < 0) {
            None => Ok(()),
            Some(index) => Err(Error::OutOfDomainElement {
                arg,
                index,
                value: self.get(index) as f64,
                rule: "a class label must be >= 0 (a negative label, such as -1 for \"ignore\", \
                       is not a class: drop those items first)",
            }),
        }
    }
}

impl<'a> Labels<'a> {
    /// The labels as class indices (`usize`), after [`Labels::check`]: the caller's slice when
    /// it is one of `usize`, a converted copy otherwise (one pass, before any O(n²) pair loop
    /// compares them).
    ///
    /// # Errors
    ///
    /// As [`Labels::check`]; [`Error::OutOfDomainElement`] also for a label above `usize::MAX`
    /// (a `u64` label on a 32-bit target).
    #[doc(hidden)]
    pub fn classes(&self, arg: &'static str) -> Result<Cow<'a, [usize]>> {
        if let Labels::Usize(s) = *self {
            return Ok(Cow::Borrowed(s));
        }
        self.check(arg)?;
        (0..self.len())
            .map(|index| {
                let value = self.get(index);
                usize::try_from(value).map_err(|_| Error::OutOfDomainElement {
                    arg,
                    index,
                    value: value as f64,
                    rule: "a class label must fit in usize",
                })
            })
            .collect::<Result<Vec<_>>>()
            .map(Cow::Owned)
    }
}

/// What a function taking labels accepts as class labels: a slice, an array or a `Vec` of any of Rust's
/// integer types, borrowed (or a [`Labels`]).
pub trait IntoLabels<'a> {
    /// The labels, borrowed.
    fn into_labels(self) -> Labels<'a>;
}

impl<'a> IntoLabels<'a> for Labels<'a> {
    fn into_labels(self) -> Labels<'a> {
        self
    }
}

macro_rules! into_labels {
    ($($t:ty => $variant:ident),* $(,)?) => {$(
        impl<'a> IntoLabels<'a> for &'a [$t] {
            fn into_labels(self) -> Labels<'a> {
                Labels::$variant(self)
            }
        }
        impl<'a, const N: usize> IntoLabels<'a> for &'a [$t; N] {
            fn into_labels(self) -> Labels<'a> {
                Labels::$variant(self)
            }
        }
        impl<'a> IntoLabels<'a> for &'a Vec<$t> {
            fn into_labels(self) -> Labels<'a> {
                Labels::$variant(self)
            }
        }
    )*};
}

into_labels!(
    usize => Usize, u64 => U64, u32 => U32, u16 => U16, u8 => U8,
    isize => Isize, i64 => I64, i32 => I32, i16 => I16, i8 => I8,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_integer_type_compares_by_value() {
        let a = [3u8, 200];
        let b = [3i64, 200];
        let c = vec![3usize, 200];
        for labels in [a.into_labels(), (&b).into_labels(), (&c).into_labels()] {
            assert_eq!(labels.to_vec(), vec![3, 200]);
        }
        assert_eq!(Labels::U64(&[u64::MAX]).get(0), u64::MAX as i128);
        assert_eq!(Labels::I8(&[-128]).get(0), -128);
    }

    #[test]
    fn a_negative_label_is_refused_at_its_index() {
        for labels in [
            Labels::I64(&[0, 1, -1, -2]),
            Labels::I32(&[0, 1, -1]),
            Labels::I16(&[0, 1, -1]),
            Labels::I8(&[0, 1, -1]),
            Labels::Isize(&[0, 1, -1]),
        ] {
            match labels.check("labels") {
                Err(Error::OutOfDomainElement {
                    arg, index, value, ..
                }) => assert_eq!((arg, index, value), ("labels", 2, -1.0)),
                other => panic!("{labels:?}: {other:?}"),
            }
        }
        assert!(Labels::U8(&[0, 255]).check("labels").is_ok());
        assert!(Labels::I64(&[i64::MAX, 0]).check("labels").is_ok());
    }

    #[test]
    fn classes_borrow_usize_and_convert_the_rest() {
        let own = [2usize, 0, 2];
        assert!(matches!(
            own.into_labels().classes("labels"),
            Ok(Cow::Borrowed(s)) if std::ptr::eq(s, &own[..])
        ));
        assert_eq!(
            Labels::I64(&[2, 0, 2]).classes("labels").unwrap().as_ref(),
            &own[..]
        );
        match Labels::I16(&[4, -1]).classes("labels") {
            Err(Error::OutOfDomainElement { arg, index, .. }) => {
                assert_eq!((arg, index), ("labels", 1))
            }
            other => panic!("{other:?}"),
        }
    }
}
