//! The committed mpmath values of chapter 07 (`scripts/reference/hib_values.txt`, written by
//! `scripts/reference/hib_values.py`), looked up by name: shared by the `hib_*` proofs.

/// The value on the line `name = value`.
pub fn reference(name: &str) -> f64 {
    let text = include_str!("../scripts/reference/hib_values.txt");
    let line = text
        .lines()
        .find(|l| l.split(" = ").next() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in hib_values.txt"));
    line.rsplit(" = ").next().unwrap().parse().unwrap()
}
