# Type stubs of the extension module probdml._probdml (probdml-py/src/lib.rs). The public API is
# the pure-Python layer (probdml.special, .vmf, …), which passes C-contiguous arrays of the
# dtypes stated here; scalar arguments are passed as the caller gave them and read by
# probdml-py/src/arguments.rs. Each submodule is in sys.modules as probdml._probdml.<name>, so
# that `python -m mypy.stubtest` checks these stubs against it.
from . import hib as hib
from . import laplace as laplace
from . import metrics as metrics
from . import nivmf as nivmf
from . import special as special
from . import triplet as triplet
from . import vmf as vmf

__all__ = ["__version__", "instruction_set", "built_with_avx2", "_panic_inside_guard", "special", "vmf", "triplet", "nivmf", "hib", "laplace", "metrics"]

__version__: str

def instruction_set() -> str: ...
def built_with_avx2() -> bool: ...
def _panic_inside_guard(message: str) -> None: ...
