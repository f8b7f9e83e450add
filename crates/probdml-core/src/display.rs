//! How the `Display` of a probdml value writes its numbers and vectors, so that every value
//! prints alike: `{}` gives the shortest form that reads back to the same `f64`, except that a
//! magnitude outside `[10⁻⁴, 10¹⁶)` is written in scientific notation (`1e300`, where `{}` would
//! write 301 digits); a precision (`{:.3}`) applies to every number, in either form; a vector
//! longer than [`SHOWN`] entries shows its first and last three around an ellipsis and its
//! length.

use std::fmt::{self, Display, Formatter, LowerExp};

/// The longest vector written out in full.
pub const SHOWN: usize = 8;

/// Writes `x` as described in the module docs.
pub fn number(f: &mut Formatter<'_>, x: f64) -> fmt::Result {
    let magnitude = x.abs();
    if x == 0.0 || !x.is_finite() || (1e-4..1e16).contains(&magnitude) {
        Display::fmt(&x, f)
    } else {
        LowerExp::fmt(&x, f)
    }
}

/// Writes `[x₁, x₂, …]`, each entry by [`number`]; past [`SHOWN`] entries,
/// `[x₁, x₂, x₃, …, x_{n−2}, x_{n−1}, x_n] (n = …)`.
pub fn vector(f: &mut Formatter<'_>, xs: &[f64]) -> fmt::Result {
    f.write_str("[")?;
    let elided = xs.len() > SHOWN;
    for (i, &x) in xs.iter().enumerate() {
        if elided && (3..xs.len() - 3).contains(&i) {
            if i == 3 {
                f.write_str(", …")?;
            }
            continue;
        }
        if i > 0 {
            f.write_str(", ")?;
        }
        number(f, x)?;
    }
    f.write_str("]")?;
    if elided {
        write!(f, " (n = {})", xs.len())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Shown<'a>(&'a [f64]);

    impl Display for Shown<'_> {
        fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
            vector(f, self.0)
        }
    }

    #[test]
    fn numbers_are_short_and_read_back() {
        assert_eq!(
            Shown(&[1e300, 50.0, 0.6, 0.0]).to_string(),
            "[1e300, 50, 0.6, 0]"
        );
        assert_eq!(Shown(&[1.5e-7, -2.5e16]).to_string(), "[1.5e-7, -2.5e16]");
        assert_eq!(Shown(&[f64::INFINITY, f64::NAN]).to_string(), "[inf, NaN]");
        assert_eq!(format!("{:.2}", Shown(&[1e300, 0.5])), "[1.00e300, 0.50]");
        let x = 0.1 + 0.2;
        assert_eq!(
            Shown(&[x])
                .to_string()
                .trim_matches(['[', ']'])
                .parse::<f64>(),
            Ok(x)
        );
    }

    #[test]
    fn long_vectors_are_elided() {
        let xs: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(Shown(&xs[..8]).to_string(), "[0, 1, 2, 3, 4, 5, 6, 7]");
        assert_eq!(Shown(&xs).to_string(), "[0, 1, 2, …, 7, 8, 9] (n = 10)");
    }
}
