"""probdml: verified primitives for probabilistic and Bayesian deep metric learning.

Every function is the Rust crate `probdml` called on numpy arrays: the fast implementation at
``probdml.<module>`` and its exact reference (high-precision arithmetic, quadrature) at
``probdml.<module>.exact``. Element-wise special functions follow ``scipy.special`` (arrays
broadcast, NaN outside the domain); every other function checks its input and raises
``ValueError`` naming the argument, its value and the rule it broke. An argument of the wrong
type (``None``, a string, a complex number, a float where a count or a seed belongs) raises
``TypeError`` naming it: nothing is coerced, and a complex array is never cast to its real
part.

``probdml.torch`` (imported on demand, needs PyTorch) holds autograd functions for the
Bayesian triplet loss and ProxyNCA++.
"""

from . import _probdml
from . import hib, laplace, metrics, nivmf, special, triplet, vmf

__version__: str = _probdml.__version__

__all__ = ["hib", "laplace", "metrics", "nivmf", "special", "triplet", "vmf", "instruction_set"]


def instruction_set() -> str:
    """The instruction set the kernels chose at run time: ``"avx512"``, ``"avx2-fma"`` or ``"portable"``."""
    return _probdml.instruction_set()
