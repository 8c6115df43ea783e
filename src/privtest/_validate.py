"""Argument checks shared by the library: each raises ``ValueError`` naming the parameter and its range.

Numbers of any numeric type are accepted (``int``, ``float``, numpy integers and floats, 0-d numeric arrays);
anything else is refused with the parameter named: strings (even ``'1'``), ``None``, booleans, complex numbers,
non-numeric arrays, and arrays (a parameter is a number unless its function says otherwise). The argument contract
of the whole library (docs/library.md): integers by :func:`integer` (integral floats converted once, bools and
fractions refused), seeds by :func:`generator`, streams by :func:`admit_stream`, mechanism counts by
:func:`counts`. Vectorized functions pass ``scalar=False`` for their array parameters: then a numeric array is
accepted and every element checked.
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


def integer(name: str, value, minimum: int = 1, *, scalar: bool = True):
    """The library's one integer rule: an integer of any integer type, or an integral float (``4.0``), >= ``minimum``.

    Returns:
        ``value`` converted once: a Python ``int`` (scalar), or an int64 ndarray (``scalar=False`` and an array).

    Raises:
        ValueError: naming ``name`` for a bool, a non-integral or non-finite float, a value below ``minimum``, or
            anything :func:`real` refuses.
    """
    x = real(name, value, scalar=scalar)
    if isinstance(x, numbers.Integral) and x >= minimum:  # fast path
        return int(x)
    arr = np.asarray(x)
    with np.errstate(invalid="ignore"):
        ok = np.issubdtype(arr.dtype, np.integer) or bool(np.all(np.isfinite(arr) & (np.mod(arr, 1) == 0)))
    if not ok or np.any(arr < minimum):
        raise ValueError(f"{name} must be an integer >= {minimum}. Found {_fmt(value)}.")
    return int(arr) if arr.ndim == 0 else arr.astype(np.int64)


def step_index(t, name: str = "t", *, scalar: bool = True):
    """Require the step index (or count) ``t`` to be an integer >= 1; returns it converted (:func:`integer`)."""
    return integer(name, t, 1, scalar=scalar)


def generator(rng, name: str = "rng") -> np.random.Generator:
    """The library's one seed rule: whatever :func:`numpy.random.default_rng` accepts (None for fresh entropy, an
    int seed, a :class:`numpy.random.SeedSequence`, a BitGenerator or a Generator, returned as is so its stream
    continues).

    Raises:
        ValueError: naming ``name`` for anything else (a string, a float, a bool, a negative int).
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (bool, np.bool_)):
        raise ValueError(f"{name} must be None, an int seed, a SeedSequence or a numpy Generator. Found {rng!r}.")
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as e:
        raise ValueError(
            f"{name} must be None, an int seed, a SeedSequence or a numpy Generator. Found {rng!r} ({e})."
        ) from None


def admit_stream(mechanisms, T: int | None, eps_t: float | None, *, what: str = "tester") -> list:
    """A tester's admission rule: a stream of at most ``T`` mechanisms (its privacy statement covers T steps) whose
    promised ``eps`` are at most ``eps_t`` (the input privacy it was calibrated for). ``None`` skips a check.

    Returns:
        the stream as a list.

    Raises:
        ValueError: naming T (stream too long) or eps_t (a mechanism promises more than eps_t, or no number).
    """
    ms = list(mechanisms)
    if T is not None and len(ms) > T:
        raise ValueError(
            f"T: the {what} was configured for T = {T} steps and its privacy statement covers no more; "
            f"found a stream of {len(ms)} mechanisms. Build a tester with a larger T."
        )
    if eps_t is not None:
        for t, m in enumerate(ms, start=1):
            try:
                e = m.eps
            except AttributeError:
                raise ValueError(f"mechanisms: item {t} is not a mechanism (it has no eps). Found {m!r}.") from None
            if not (is_finite_real(e) and e <= eps_t):
                raise ValueError(
                    f"eps_t: mechanism {t} promises eps = {e!r}, above the eps_t = {eps_t!r} the {what} was "
                    "calibrated for (its privacy statement would not cover the run)."
                )
    return ms


def counts(K, n, step: int | None = None):
    """The mechanism contract (Definition 1 counted): ``count_plus(n, rng)`` returns integers 0 <= K <= n with the
    shape of ``n``; bools, None, NaN, fractions and wrong shapes are refused.

    Returns:
        K as an int64 ndarray with the shape of ``n``.

    Raises:
        ValueError: naming the mechanism's step (when given) and what was wrong.
    """
    where = f"the mechanism of step {step}" if step is not None else "the mechanism"
    n_arr = np.asarray(n)
    arr = None if K is None else np.asarray(K)
    if arr is None or arr.dtype.kind not in "iuf" or arr.shape != n_arr.shape:
        shape = None if arr is None else arr.shape
        kind = "None" if arr is None else str(arr.dtype)
        raise ValueError(
            f"{where}: count_plus must return integer counts shaped like n {n_arr.shape}. "
            f"Found {kind} of shape {shape}."
        )
    with np.errstate(invalid="ignore"):
        fractional = arr.dtype.kind == "f" and not bool(np.all(np.isfinite(arr) & (np.mod(arr, 1) == 0)))
    if fractional:
        raise ValueError(f"{where}: count_plus must return integer counts. Found {_fmt(arr[:3] if arr.ndim else arr)}.")
    if not bool(np.all((arr >= 0) & (arr <= n_arr))):
        bad = np.flatnonzero(~((arr >= 0) & (arr <= n_arr)).ravel())[0]
        raise ValueError(
            f"{where}: count_plus must return counts 0 <= K <= n. Found K = {arr.ravel()[bad]!r} at n = "
            f"{n_arr.ravel()[bad]!r}."
        )
    return arr.astype(np.int64, copy=False)


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
