"""The types of the public signatures: what an argument accepts and what a result is.

Array arguments are ``numpy.typing.ArrayLike`` (a numpy array, a nested list, a scalar); the
run-time rule (``probdml._arrays``) then refuses what the type cannot: ``None``, strings and
complex numbers with ``TypeError``. Scalar arguments are read by the extension's rule
(``probdml-py/src/arguments.rs``): a real number is a Python ``int`` or ``float`` or a numpy
integer or float scalar; a count is an integer (a float, even a whole one, is refused).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

#: A float64 result array.
FloatArray: TypeAlias = npt.NDArray[np.float64]
#: A real number argument (``margin``, ``kappa``, ``temperature``, …).
Real: TypeAlias = float | np.floating[Any] | np.integer[Any]
#: A non-negative integer argument (a dimension, a number of steps, of bins, of samples).
Count: TypeAlias = int | np.integer[Any]
#: A seed as scipy reads ``seed``: an integer in ``[0, 2**64)``, a generator to draw it from, or
#: None for fresh entropy.
Seed: TypeAlias = int | np.integer[Any] | np.random.Generator | np.random.RandomState | None
#: The ``size`` of a draw as scipy's ``rvs`` reads it: None, an integer or a tuple of integers.
Size: TypeAlias = int | np.integer[Any] | tuple[int, ...] | None
