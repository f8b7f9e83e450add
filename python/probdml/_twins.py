"""The docstring of an exact twin: its fast twin's, with the examples run on the exact twin.

The twins take the same arguments and return the same values to the printed precision, so
each exact twin states what it computes once, in its fast twin's docstring; the examples'
``from probdml import <module>`` becomes ``from probdml.<module> import exact as <module>``,
so that the doctests run (and check) the exact twin itself.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])


def documented_as(fast: Callable[..., Any], module: str) -> Callable[[_F], _F]:
    """Give the decorated exact twin the docstring of ``fast``, a function of ``probdml.<module>``."""

    def decorate(exact: _F) -> _F:
        doc = fast.__doc__ or ""
        summary, _, body = doc.partition("\n")
        exact.__doc__ = (
            f"The exact twin of ``probdml.{module}.{fast.__name__}`` (the reference: slow, exact "
            f"arithmetic). {summary}\n"
            + body.replace(f">>> from probdml import {module}\n", f">>> from probdml.{module} import exact as {module}\n")
        )
        return exact

    return decorate
