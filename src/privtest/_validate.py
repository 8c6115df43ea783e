"""Argument checks shared by the library: each raises ``ValueError`` naming the parameter and its range.

Numbers of any numeric type are accepted (``int``, ``float``, numpy integers and floats, 0-d numeric arrays);
anything else is refused with the parameter named: strings (even ``'1'``), ``None``, booleans, complex numbers,
non-numeric arrays, and arrays (a parameter is a number unless its function says otherwise). Vectorized functions
pass ``scalar=False`` for their array parameters: then a numeric array is accepted and every element checked.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def _fmt(value) -> str:
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)


def real(name: str, value, *, scalar: bool = True):
    """Require a real number (any numeric type) or, with ``scalar=False``, a numeric array.

    Returns:
        ``value`` unchanged if it is a scalar number, else the numeric ndarray ``np.asarray(value)``.

    Raises:
        ValueError: naming ``name`` for a string, None, a bool, a complex or non-numeric value, or (``scalar``) an
            array that is not 0-d.
    """
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a real number, not a bool. Found {value!r}.")
    if isinstance(value, numbers.Real):
        return value
    if value is None or isinstance(value, (str, bytes, numbers.Complex)):
        raise ValueError(f"{name} must be a real number. Found {value!r} ({type(value).__name__}).")
    try:
        arr = np.asarray(value)
    except Exception:  # ragged sequences and the like
        raise ValueError(f"{name} must be a real number. Found {value!r}.") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be a real number. Found {_fmt(value)} (dtype {arr.dtype}).")
    if arr.ndim == 0:
        return arr
    if scalar:
        raise ValueError(f"{name} must be a number, not an array. Found {_fmt(value)}.")
    return arr


def interval(name: str, value, lo: float, hi: float, *, lo_open: bool, hi_open: bool, scalar: bool = True) -> None:
    """Require ``value`` (see :func:`real`) in the interval from ``lo`` to ``hi`` (NaN is never inside)."""
    x = real(name, value, scalar=scalar)
    if isinstance(x, numbers.Real):  # fast path for plain numbers
        inside = (x > lo if lo_open else x >= lo) and (x < hi if hi_open else x <= hi)
    else:
        x = np.asarray(x, dtype=float)
        inside = bool(np.all((x > lo if lo_open else x >= lo) & (x < hi if hi_open else x <= hi)))
    if not inside:
        rng = f"{'(' if lo_open else '['}{_num(lo)}, {_num(hi)}{')' if hi_open else ']'}"
        raise ValueError(f"{name} must be in {rng}. Found {_fmt(value)}.")


def _num(x: float) -> str:
    return "inf" if x == math.inf else f"{x:g}"


def open_unit(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` in the open interval (0, 1)."""
    interval(name, value, 0.0, 1.0, lo_open=True, hi_open=True, scalar=scalar)


def positive(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` finite and > 0."""
    if not _finite_and(real(name, value, scalar=scalar), lambda x: x > 0):
        raise ValueError(f"{name} must be > 0 and finite. Found {_fmt(value)}.")


def nonnegative(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` finite and >= 0."""
    if not _finite_and(real(name, value, scalar=scalar), lambda x: x >= 0):
        raise ValueError(f"{name} must be >= 0 and finite. Found {_fmt(value)}.")


def finite(name: str, value, *, scalar: bool = True) -> None:
    """Require a finite real ``value`` (e.g. a threshold)."""
    if not _finite_and(real(name, value, scalar=scalar), lambda x: x == x):
        raise ValueError(f"{name} must be a finite real number. Found {_fmt(value)}.")


def _finite_and(x, test) -> bool:
    if isinstance(x, numbers.Real):
        return math.isfinite(x) and bool(test(x))
    x = np.asarray(x, dtype=float)
    return bool(np.all(np.isfinite(x) & test(x)))


def gamma_range(gamma, name: str = "gamma") -> None:
    """Require the target ratio ``gamma`` (a number) in (1, 2] (Lemma 11)."""
    interval(name, gamma, 1.0, 2.0, lo_open=True, hi_open=False, scalar=True)


def delta_range(name: str, delta, *, scalar: bool = True) -> None:
    """Require an approximate-DP ``delta`` in [0, 1)."""
    interval(name, delta, 0.0, 1.0, lo_open=False, hi_open=True, scalar=scalar)


def integer(name: str, value, minimum: int = 1, *, scalar: bool = True) -> None:
    """Require an integer (any integer type, or an integral float) >= ``minimum``."""
    x = real(name, value, scalar=scalar)
    if isinstance(x, numbers.Integral) and x >= minimum:  # fast path
        return
    arr = np.asarray(x)
    ok = np.issubdtype(arr.dtype, np.integer) or bool(np.all(np.isfinite(arr) & (np.mod(arr, 1) == 0)))
    if not ok or np.any(arr < minimum):
        raise ValueError(f"{name} must be an integer >= {minimum}. Found {_fmt(value)}.")


def step_index(t, name: str = "t", *, scalar: bool = True) -> None:
    """Require the step index (or count) ``t`` to be an integer >= 1."""
    integer(name, t, 1, scalar=scalar)


def sign(name: str, s) -> None:
    """Require a direction ``s`` in {-1, +1}."""
    real(name, s, scalar=True)
    if s not in (-1, 1):
        raise ValueError(f"{name} must be -1 or +1. Found {s!r}.")


def is_finite_real(x) -> bool:
    """Whether ``x`` is a finite real number of any numeric type, 0-d arrays included (bools excluded)."""
    try:
        finite("x", x)
    except ValueError:
        return False
    return True
