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

The package is typed (``py.typed``, PEP 561): array arguments are ``numpy.typing.ArrayLike``,
results ``numpy.typing.NDArray[numpy.float64]`` or ``float``, and the stubs ``probdml/_probdml/*.pyi`` state
the extension's signatures. Every public function's docstring ends with examples that run as
doctests, their printed values checked against closed forms.
"""

from . import _probdml
from . import hib, laplace, metrics, nivmf, special, triplet, vmf

__version__: str = _probdml.__version__

__all__ = ["hib", "laplace", "metrics", "nivmf", "special", "triplet", "vmf", "instruction_set"]


def instruction_set() -> str:
    """The instruction set the kernels chose when the module was loaded.

    The wheel is built for x86-64 in general; the AVX2/FMA and AVX-512 kernels are compiled
    beside the portable ones and chosen at run time, so the same wheel runs on any x86-64 CPU.

    Returns
    -------
    str
        ``"avx512"``, ``"avx2-fma"`` or ``"portable"``.

    Examples
    --------
    >>> import probdml
    >>> probdml.instruction_set() in ("avx512", "avx2-fma", "portable")
    True
    """
    return _probdml.instruction_set()
