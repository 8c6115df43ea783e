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

__all__ = [
    "admit_stream",
    "boolean",
    "counts",
    "delta_range",
    "finite",
    "fmt",
    "function",
    "gamma_range",
    "generator",
    "integer",
    "interval",
    "is_finite_real",
    "negative",
    "node_pairs",
    "nonnegative",
    "open_unit",
    "per_step",
    "positive",
    "real",
    "sign",
    "sizes",
    "step_index",
    "weighted_pairs",
]

#: The largest count an int64 array holds (evaluation counts, sample sizes).
INT64_MAX = 2**63 - 1
#: Scalar types taken as they are (the fast path of every check: these are never bools, never out of float range).
_FLOATS = (float, np.float64, np.float32)
_INTS = (np.int64, np.int32, np.uint32, np.intc)
_FLOAT_MAX = float(np.finfo(float).max)


def fmt(value) -> str:
    """``value`` as a refusal message shows it (arrays as lists; a huge integer by its size in bits)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and abs(int(value)) > 2**64:
        return f"an integer of {int(value).bit_length()} bits"
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)


def real(name: str, value, *, scalar: bool = True):
    """Require a real number (any numeric type) or, with ``scalar=False``, a numeric array.

    Returns:
        ``value`` unchanged if it is a scalar number, else the numeric ndarray ``np.asarray(value)``.

    Raises:
        ValueError: naming ``name`` for a string, None, a bool, a complex or non-numeric value, an integer beyond the
            float range (e.g. 2**1100), or (``scalar``) an array that is not 0-d.
    """
    kind = type(value)
    if kind in _FLOATS or kind in _INTS:  # fast path
        return value
    if kind is int and -_FLOAT_MAX <= value <= _FLOAT_MAX:
        return value
    if kind is np.ndarray and value.dtype.kind in "iuf" and (value.ndim == 0 or not scalar):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a real number, not a bool. Found {value!r}.")
    if isinstance(value, numbers.Real):
        if not isinstance(value, float):
            try:  # a Python int (or Fraction) beyond the float range cannot enter any formula
                float(value)
            except OverflowError:
                raise ValueError(
                    f"{name} must be a real number within the float range (|x| <= 1.8e308). Found {fmt(value)}."
                ) from None
        return value
    if value is None or isinstance(value, (str, bytes, numbers.Complex)):
        raise ValueError(f"{name} must be a real number. Found {value!r} ({type(value).__name__}).")
    try:
        arr = np.asarray(value)
    except Exception:  # ragged sequences and the like
        raise ValueError(f"{name} must be a real number. Found {value!r}.") from None
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be a real number. Found {fmt(value)} (dtype {arr.dtype}).")
    if arr.ndim == 0:
        return arr
    if scalar:
        raise ValueError(f"{name} must be a number, not an array. Found {fmt(value)}.")
    return arr


def interval(name: str, value, lo: float, hi: float, *, lo_open: bool, hi_open: bool, scalar: bool = True) -> None:
    """Require ``value`` (see :func:`real`) in the interval from ``lo`` to ``hi`` (NaN is never inside)."""
    if type(value) in _FLOATS and (value > lo if lo_open else value >= lo) and (value < hi if hi_open else value <= hi):
        return  # fast path: a float inside
    if not _inside(real(name, value, scalar=scalar), lo, hi, lo_open, hi_open):
        rng = f"{'(' if lo_open else '['}{_num(lo)}, {_num(hi)}{')' if hi_open else ']'}"
        raise ValueError(f"{name} must be in {rng}. Found {fmt(value)}.")


def _num(x: float) -> str:
    return "inf" if x == math.inf else f"{x:g}"


def open_unit(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` in the open interval (0, 1)."""
    interval(name, value, 0.0, 1.0, lo_open=True, hi_open=True, scalar=scalar)


def _inside(x, lo: float, hi: float, lo_open: bool, hi_open: bool) -> bool:
    """Whether the number or every element of the numeric array ``x`` lies between lo and hi (NaN never does)."""
    if isinstance(x, np.ndarray):  # comparisons with NaN are False (and numpy does not warn on them)
        if lo == -math.inf and hi == math.inf:
            return bool(np.isfinite(x).all())
        low = (x > lo) if lo_open else (x >= lo)
        return bool(low.all()) and bool(((x < hi) if hi_open else (x <= hi)).all())
    return bool((x > lo if lo_open else x >= lo) and (x < hi if hi_open else x <= hi))


def positive(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` finite and > 0."""
    if type(value) in _FLOATS and 0.0 < value < math.inf:
        return  # fast path
    if not _inside(real(name, value, scalar=scalar), 0.0, math.inf, True, True):
        raise ValueError(f"{name} must be > 0 and finite. Found {fmt(value)}.")


def nonnegative(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` finite and >= 0."""
    if type(value) in _FLOATS and 0.0 <= value < math.inf:
        return  # fast path
    if not _inside(real(name, value, scalar=scalar), 0.0, math.inf, False, True):
        raise ValueError(f"{name} must be >= 0 and finite. Found {fmt(value)}.")


def negative(name: str, value, *, scalar: bool = True) -> None:
    """Require ``value`` finite and < 0 (e.g. a log-probability floor)."""
    if not _inside(real(name, value, scalar=scalar), -math.inf, 0.0, True, True):
        raise ValueError(f"{name} must be < 0 and finite. Found {fmt(value)}.")


def finite(name: str, value, *, scalar: bool = True) -> None:
    """Require a finite real ``value`` (e.g. a threshold)."""
    if type(value) in _FLOATS and -math.inf < value < math.inf:
        return  # fast path
    if not _inside(real(name, value, scalar=scalar), -math.inf, math.inf, True, True):
        raise ValueError(f"{name} must be a finite real number. Found {fmt(value)}.")


def gamma_range(gamma, name: str = "gamma") -> None:
    """Require the target ratio ``gamma`` (a number) in (1, 2] (Lemma 11)."""
    interval(name, gamma, 1.0, 2.0, lo_open=True, hi_open=False, scalar=True)


def delta_range(name: str, delta, *, scalar: bool = True) -> None:
    """Require an approximate-DP ``delta`` in [0, 1)."""
    interval(name, delta, 0.0, 1.0, lo_open=False, hi_open=True, scalar=scalar)


def integer(name: str, value, minimum: int = 1, *, scalar: bool = True, maximum: int | None = None):
    """The library's one integer rule: an integer of any integer type, or an integral float (``4.0``), >= ``minimum``
    (and <= ``maximum`` when given).

    Returns:
        ``value`` converted once: a Python ``int`` (scalar), or an int64 ndarray (``scalar=False`` and an array).

    Raises:
        ValueError: naming ``name`` for a bool, a non-integral or non-finite float, a value below ``minimum`` or above
            ``maximum``, or anything :func:`real` refuses (an integer beyond the float range among them).
    """
    kind = type(value)
    if (kind is int or kind in _INTS) and minimum <= value and (maximum is None or value <= maximum):
        if kind is not int or -_FLOAT_MAX <= value <= _FLOAT_MAX:
            return int(value)  # fast path: what the checks below return for an integer in range
    x = real(name, value, scalar=scalar)
    kind = type(x)
    if (kind is int or kind in _INTS or isinstance(x, numbers.Integral)) and not isinstance(x, np.ndarray):
        if x >= minimum and (maximum is None or x <= maximum):  # fast path
            return int(x)
    arr = np.asarray(x)
    with np.errstate(invalid="ignore"):
        ok = np.issubdtype(arr.dtype, np.integer) or bool(np.all(np.isfinite(arr) & (np.mod(arr, 1) == 0)))
    if not ok or np.any(arr < minimum) or (maximum is not None and np.any(arr > maximum)):
        within = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
        raise ValueError(f"{name} must be an integer {within}. Found {fmt(value)}.")
    if arr.ndim == 0:
        return int(arr)
    if arr.dtype.kind in "uf" and np.any(np.abs(arr) > INT64_MAX):
        raise ValueError(f"{name} must hold integers of at most {INT64_MAX} (int64). Found {fmt(value)}.")
    return arr.astype(np.int64)


def sizes(name: str, value):
    """Require a count of evaluations or draws: an integer >= 0 that fits int64, or (an array of) such integers.

    Returns:
        ``value`` as an int64 ndarray (0-d for a scalar).

    Raises:
        ValueError: naming ``name`` for a bool, a fraction, NaN or an infinity, a negative count, a count beyond int64,
            or anything :func:`real` refuses.
    """
    out = integer(name, value, 0, scalar=False, maximum=INT64_MAX)
    return np.asarray(out, dtype=np.int64)


def boolean(name: str, value) -> bool:
    """Require a flag: ``True`` or ``False`` (a Python or numpy bool); returns it as a Python bool.

    Raises:
        ValueError: naming ``name`` for anything else (``0``, ``1``, ``"yes"``, None).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False. Found {value!r}.")
    return bool(value)


def function(name: str, value) -> None:
    """Require a callable (the user's black box: a sampler, a counter, a coding).

    Raises:
        TypeError: naming ``name`` if ``value`` is not callable.
    """
    if not callable(value):
        raise TypeError(f"{name} must be callable. Found {value!r} ({type(value).__name__}).")


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
    if (  # what the library's mechanisms return: int64 counts within [0, n] for int64 n of their shape, as they are
        type(K) is np.ndarray
        and type(n) is np.ndarray
        and K.dtype == np.int64
        and n.dtype == np.int64
        and K.shape == n.shape
        and (K.size == 0 or (K.min() >= 0 and bool((K <= n).all())))
    ):
        return K
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
        raise ValueError(f"{where}: count_plus must return integer counts. Found {fmt(arr[:3] if arr.ndim else arr)}.")
    if not bool(np.all((arr >= 0) & (arr <= n_arr))):
        bad = np.flatnonzero(~((arr >= 0) & (arr <= n_arr)).ravel())[0]
        raise ValueError(
            f"{where}: count_plus must return counts 0 <= K <= n. Found K = {arr.ravel()[bad]!r} at n = "
            f"{n_arr.ravel()[bad]!r}."
        )
    return arr.astype(np.int64, copy=False)


def node_pairs(name: str, pairs, n: int, *, ordered: bool = True, nonempty: bool = False) -> None:
    """Require an integer array (P, 2) of node pairs in [0, n): u < v (``ordered``) or u != v; P >= 1 if
    ``nonempty``. An empty array passes unless ``nonempty``.

    Raises:
        ValueError: naming ``name`` otherwise.
    """
    if np.size(pairs) == 0 and not nonempty:
        return
    integer(name, pairs, 0, scalar=False, maximum=n - 1)
    a = np.asarray(pairs)
    bad_order = a.ndim == 2 and a.shape[-1] == 2 and np.any(a[:, 0] >= a[:, 1] if ordered else a[:, 0] == a[:, 1])
    if a.ndim != 2 or a.shape[1] != 2 or len(a) == 0 or bad_order:
        rel = "u < v" if ordered else "u != v"
        raise ValueError(f"{name} must be a non-empty integer array (P, 2) of node pairs {rel} in [0, n={n}).")


def per_step(name: str, values, T: int) -> None:
    """Require one finite real >= 0 per step: shape (T,).

    Raises:
        ValueError: naming ``name`` otherwise.
    """
    nonnegative(name, values, scalar=False)
    if np.shape(values) != (T,):
        raise ValueError(f"{name} must hold one value per step, shape ({T},). Found {np.shape(values)}.")


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


def weighted_pairs(n, pairs, w) -> int:
    """A weighted graph on nodes 0..n-1: n (an integer >= 1), pairs (u < v in [0, n)) and one weight >= 0 per pair;
    returns n as an int.

    Raises:
        ValueError: naming n, pairs or w.
    """
    n = integer("n", n, 1)
    node_pairs("pairs", pairs, n)
    nonnegative("w", w, scalar=False)
    if np.shape(w) != (len(pairs),):
        raise ValueError(f"w must hold one weight per pair, shape ({len(pairs)},). Found {np.shape(w)}.")
    return n
