"""The docstrings of the installed package: every example runs as a doctest and prints what its
docstring says (the printed values are closed forms or values computed independently, written
next to the call), and every public function and class has the numpydoc sections a user reads:
Parameters naming exactly the signature's arguments, Returns, Raises and Examples.

The modules are those of the installed package (the extension `probdml._probdml` exists only
there), found by walking it, so that a new module is covered without being listed here.
`probdml.torch` needs torch: without it its tests are skipped."""

import doctest
import importlib
import inspect
import io
import pkgutil
import re

import pytest

import probdml

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(probdml.__path__, prefix="probdml.")
    if not info.name.startswith("probdml._probdml")
) + ["probdml"]
# The modules users import (their private helpers, `_impl`, `_arrays`, …, are not).
PUBLIC = [name for name in MODULES if not any(part.startswith("_") for part in name.split("."))]


def load(name):
    if name == "probdml.torch":
        pytest.importorskip("torch")
    return importlib.import_module(name)


def test_the_walk_finds_every_module():
    # A walk that silently found nothing would make the tests below vacuous.
    for name in ("probdml.vmf", "probdml.vmf.exact", "probdml.metrics._impl", "probdml.torch", "probdml.laplace.exact"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_examples_run_as_doctests(name):
    module = load(name)
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    out = io.StringIO()
    runner = doctest.DocTestRunner()
    for test in tests:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()
    if name in PUBLIC:
        # Every public module documents at least one function with an example (probdml's own
        # `instruction_set` included); a module that lost its examples fails here.
        assert runner.tries > 0


SECTION = re.compile(r"^(\w[\w ]*)\n-+$", flags=re.M)
PARAMETER = re.compile(r"^(\w+(?:, \w+)*) :", flags=re.M)


def sections(doc):
    """The numpydoc sections of ``doc``: name → text."""
    heads = list(SECTION.finditer(doc))
    return {m.group(1): doc[m.end() : heads[i + 1].start() if i + 1 < len(heads) else len(doc)] for i, m in enumerate(heads)}


def documented_names(text):
    return [n for group in PARAMETER.findall(text) for n in group.split(", ")]


def arguments(f):
    """The names a caller passes: the signature less `self`/`cls` and a refused `*args`."""
    return [p.name for p in inspect.signature(f).parameters.values() if p.kind is not p.VAR_POSITIONAL and p.name not in ("self", "cls")]


def public_objects():
    for name in PUBLIC:
        if name == "probdml.torch":
            try:
                import torch  # noqa: F401
            except ImportError:
                continue
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{name}.{attr}", obj


OBJECTS = dict(public_objects())


def test_public_objects_are_found():
    for name in ("probdml.vmf.log_norm_const", "probdml.vmf.exact.VonMisesFisher", "probdml.metrics.Calibration", "probdml.instruction_set"):
        assert name in OBJECTS


def check_function(qualname, f):
    doc = inspect.getdoc(f)
    assert doc, f"{qualname} has no docstring"
    found = sections(doc)
    for section in ("Returns", "Examples"):
        assert section in found, f"{qualname}: no {section} section"
    names = arguments(f)
    if names:
        assert "Raises" in found, f"{qualname}: no Raises section"
        assert documented_names(found.get("Parameters", "")) == names, f"{qualname}: Parameters document {documented_names(found.get('Parameters', ''))}, the signature has {names}"


@pytest.mark.parametrize("qualname", sorted(OBJECTS))
def test_public_docstrings_have_the_numpydoc_sections(qualname):
    obj = OBJECTS[qualname]
    if inspect.isfunction(obj):
        check_function(qualname, obj)
        return
    doc = inspect.getdoc(obj)
    assert doc, f"{qualname} has no docstring"
    if issubclass(obj, tuple):
        # A result (NamedTuple): its fields are its Attributes.
        assert documented_names(sections(doc).get("Attributes", "")) == list(obj._fields)
        return
    if any(base.__module__.startswith("torch") for base in obj.__mro__[1:]):
        # An autograd Function: called through its wrapper function, which is checked.
        return
    found = sections(doc)
    assert "Examples" in found and "Raises" in found, qualname
    assert documented_names(found.get("Parameters", "")) == arguments(obj.__init__), qualname
    # Methods, and classmethods (`fit`), which the class hands out bound.
    for method_name, method in inspect.getmembers(obj, lambda m: inspect.isfunction(m) or inspect.ismethod(m)):
        if not method_name.startswith("_"):
            check_function(f"{qualname}.{method_name}", method)
