"""The error budgets of src/registry.rs, read from that file (never copied), and the comparison
that applies them as proofs/support/check.rs does:

* ``AbsOrRel(tol)``: |got − reference| ≤ tol·max(1, scale);
* ``Relative(tol)``, ``Quadrature(tol)``: |got − reference| ≤ tol·scale;

with scale = max|reference| over the entries, or the magnitude the registry's reason names (the
summed size of the terms a result is a difference of) where one is given. The Rust proofs apply
these budgets to the fast twin against the exact one; here they bound the distance of either twin
from an independent reference (mpmath, scipy, scikit-learn, numpy), which is at least as accurate
as the exact twin."""

import re
from pathlib import Path

import numpy as np

REGISTRY = Path(__file__).resolve().parents[2] / "src" / "registry.rs"
_TEXT = REGISTRY.read_text()

#: `pub const NAME: f64 = value;` of `registry::budget`.
CONSTANTS: dict[str, float] = {m[1]: float(m[2]) for m in re.finditer(r"pub const (\w+): f64 = ([-+0-9.eE]+);", _TEXT)}

#: derivation name → (kind, tolerance), from the `budget: Budget::Kind(budget::NAME)` of each
#: entry of `registry! { … }` (the statistical budgets of samplers are left out: no tolerance).
DERIVATIONS: dict[str, tuple[str, float]] = {}
for _entry in re.split(r"^    (?=[\w:]+ => \{)", _TEXT[_TEXT.index("registry! {") :], flags=re.M)[1:]:
    _budget = re.search(r"budget: Budget::(AbsOrRel|Relative|Quadrature)\(budget::(\w+)\)", _entry)
    if _budget:
        DERIVATIONS[_entry.split(" ", 1)[0]] = (_budget[1], CONSTANTS[_budget[2]])


def error(name: str, got, reference, magnitude=None) -> tuple[float, float]:
    """(error in units of the registered scale, the registered tolerance) of ``got`` against
    ``reference`` for the derivation ``name``."""
    kind, tol = DERIVATIONS[name]
    got, reference = np.asarray(got, dtype=float), np.asarray(reference, dtype=float)
    assert got.shape == reference.shape, f"{name}: shape {got.shape} against the reference's {reference.shape}"
    scale = float(np.max(np.abs(reference))) if magnitude is None else float(magnitude)
    if kind == "AbsOrRel":
        scale = max(scale, 1.0)
    diff = np.where(got == reference, 0.0, np.abs(got - reference))
    worst = float(np.max(diff)) / scale if diff.size else 0.0
    return (np.inf if np.isnan(worst) else worst), tol


def check(name: str, got, reference, magnitude=None, case: str = "") -> None:
    """``got`` within the registered budget of ``name`` of ``reference``."""
    worst, tol = error(name, got, reference, magnitude)
    assert worst <= tol, f"{name} {case}: {got!r} against the reference {reference!r}: error {worst:.3e} > budget {tol:e}"


def within_scale(got, reference, tol) -> bool:
    """Entrywise |got − reference| ≤ tol·max|reference|: a gradient against one scale, its
    largest entry (budget::NIVMF_PROXY_GRADIENT, budget::NIVMF_PROXY_FD)."""
    got, reference = np.asarray(got), np.asarray(reference)
    return bool(np.all(np.abs(got - reference) <= tol * max(np.max(np.abs(reference)), 1e-300)))
