"""Argument checks shared by the library: each raises ``ValueError`` naming the parameter and its range."""

from __future__ import annotations

import math

import numpy as np


def _fmt(value) -> str:
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)


_SCALARS = (int, float, np.floating, np.integer)


def open_unit(name: str, value) -> None:
    """Require ``value`` (scalar or array) in the open interval (0, 1)."""
    if isinstance(value, _SCALARS) and 0 < value < 1:
        return
    arr = np.asarray(value, dtype=float)
    if not np.all((arr > 0) & (arr < 1)):
        raise ValueError(f"{name} must be in (0, 1). Found {_fmt(value)}.")


def positive(name: str, value) -> None:
    """Require ``value`` (scalar or array) finite and > 0."""
    if isinstance(value, _SCALARS) and 0 < value < math.inf:
        return
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr) & (arr > 0)):
        raise ValueError(f"{name} must be > 0 and finite. Found {_fmt(value)}.")


def nonnegative(name: str, value) -> None:
    """Require ``value`` (scalar or array) finite and >= 0."""
    if isinstance(value, _SCALARS) and 0 <= value < math.inf:
        return
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr) & (arr >= 0)):
        raise ValueError(f"{name} must be >= 0 and finite. Found {_fmt(value)}.")


def gamma_range(gamma: float) -> None:
    """Require the target ratio ``gamma`` in (1, 2] (Lemma 11)."""
    if not (isinstance(gamma, (int, float, np.floating)) and 1 < gamma <= 2):
        raise ValueError(f"gamma must be in (1, 2]. Found {gamma!r}.")


def delta_range(name: str, delta) -> None:
    """Require an approximate-DP ``delta`` in [0, 1)."""
    arr = np.asarray(delta, dtype=float)
    if not np.all((arr >= 0) & (arr < 1)):
        raise ValueError(f"{name} must be in [0, 1). Found {_fmt(delta)}.")


def step_index(t) -> None:
    """Require the step index ``t`` to be an integer >= 1."""
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool) and t >= 1:
        return
    arr = np.asarray(t)
    if arr.dtype == bool:
        raise ValueError(f"t must be an integer >= 1. Found {_fmt(t)}.")
    if not (np.issubdtype(arr.dtype, np.integer) or np.all(np.mod(arr, 1) == 0)) or np.any(arr < 1):
        raise ValueError(f"t must be an integer >= 1. Found {_fmt(t)}.")


def sign(name: str, s) -> None:
    """Require a direction ``s`` in {-1, +1}."""
    if s not in (-1, 1):
        raise ValueError(f"{name} must be -1 or +1. Found {s!r}.")


def is_finite_real(x) -> bool:
    return isinstance(x, (int, float, np.floating, np.integer)) and math.isfinite(x)
