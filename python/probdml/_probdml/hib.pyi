# probdml-py/src/hib.rs: Gaussians and mixtures as flat 1-D float64 buffers with their dim.
import numpy as np
import numpy.typing as npt

from probdml._types import Count, Real, Seed

__all__ = ["match_probability", "match_probability_moment_matched", "self_mismatch", "kl_to_standard_normal", "vib_loss"]

_F64 = npt.NDArray[np.float64]

def match_probability(
    mu1: _F64, var1: _F64, mu2: _F64, var2: _F64, dim: int, a: Real, b: Real, n_samples: Count | None, seed: Seed
) -> float: ...
def match_probability_moment_matched(mu1: _F64, var1: _F64, mu2: _F64, var2: _F64, a: Real, b: Real) -> float: ...
def self_mismatch(mu: _F64, var: _F64, dim: int, a: Real, b: Real, n_samples: Count | None, seed: Seed) -> float: ...
def kl_to_standard_normal(mu: _F64, var: _F64, exact: bool) -> float: ...
def vib_loss(
    mu1: _F64, var1: _F64, mu2: _F64, var2: _F64, noise1: _F64, noise2: _F64,
    is_match: bool | np.bool_, a: Real, b: Real, beta: Real, exact: bool,
) -> tuple[float, float, float, _F64, _F64, _F64, _F64, float, float]: ...
