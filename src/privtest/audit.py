"""Black-box Monte Carlo lower confidence bounds on the privacy parameter eps of any tester (privacy auditing).

For two neighbouring inputs a and b and any output event E, eps-DP implies Pr_a[E] <= e^eps Pr_b[E] (+ delta for
approximate DP), so ln((Pr_a[E] - delta) / Pr_b[E]) is a lower bound on eps. :func:`estimate_epsilon` picks promising
events on a separate pilot sample (so the selection does not bias the main sample), then bounds Pr_a[E] from below and
Pr_b[E] from above with one-sided Clopper-Pearson intervals on the main sample, with a union bound over the selected
events and both tails: the returned ``eps_lower`` is below the true eps with probability >= ``confidence``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from privtest import _validate


@dataclass(frozen=True)
class AuditResult:
    """Outcome of :func:`estimate_epsilon`.

    Attributes:
        eps_lower: lower confidence bound on eps (valid with probability >= confidence); -inf if no event bounds it.
        eps_hat: point estimate ln((k_a/n - delta)/(k_b/n)) for the chosen event (inf if k_b = 0).
        event: the chosen event, e.g. "== 3", "<= 2", ">= 5" on the integer-coded output.
        direction: "a/b" (Pr_a[E] / Pr_b[E]) or "b/a".
        k_a, k_b: counts of the event among the n main outputs of each input (in the direction's order).
        n: main sample size per input; pilot: pilot sample size per input.
        confidence: confidence level; candidates: number of events in the union bound.
    """

    eps_lower: float
    eps_hat: float
    event: str
    direction: str
    k_a: int
    k_b: int
    n: int
    pilot: int
    confidence: float
    candidates: int


def _codes(name: str, x, n: int) -> np.ndarray:
    """The n integer-coded outputs of one ``run`` call as int64, or ValueError naming the run.

    Real-valued outputs are refused: the events are "== v", "<= v", ">= v" at observed values, reported as text, and
    with real values neither the candidate set (one event per distinct value) nor the reported threshold would let
    anyone recount the event from the samples. Discretize them first (e.g. ``np.floor(x / width)``).
    """
    x = np.asarray(x)
    if x.shape != (n,):
        raise ValueError(f"{name} must return {n} outputs (shape ({n},)). Found shape {x.shape}.")
    if x.dtype.kind in "iub":
        return x.astype(np.int64)
    if x.dtype.kind == "f":
        bad = ~np.isfinite(x) | (x != np.round(x))
        if not bad.any() and np.all(np.abs(x) < 2**53):
            return x.astype(np.int64)
        example = x[bad][0] if bad.any() else x[np.argmax(np.abs(x))]
    else:
        example = x.flat[0] if x.size else None
    raise ValueError(
        f"{name} must return integer-coded outputs (a halting step, a pattern index, ...). Found {example!r} "
        f"(dtype {x.dtype}): discretize real-valued outputs into integer codes first."
    )


def _events(values):
    """Candidate events on integer outputs: singletons and both tails at every observed value."""
    out = []
    for v in values:
        out += [("==", v), ("<=", v), (">=", v)]
    return out


def _count(x, op, v):
    if op == "==":
        return int(np.count_nonzero(x == v))
    if op == "<=":
        return int(np.count_nonzero(x <= v))
    return int(np.count_nonzero(x >= v))


def _cp_lower(k, n, alpha):
    return 0.0 if k == 0 else float(stats.beta.ppf(alpha, k, n - k + 1))


def _cp_upper(k, n, alpha):
    return 1.0 if k == n else float(stats.beta.ppf(1.0 - alpha, k + 1, n - k))


def _bound(ka, kb, n, alpha, delta):
    lo, hi = _cp_lower(ka, n, alpha), _cp_upper(kb, n, alpha)
    return math.log((lo - delta) / hi) if lo > delta else -math.inf


def estimate_epsilon(
    run_a: Callable[[int, np.random.Generator], np.ndarray],
    run_b: Callable[[int, np.random.Generator], np.ndarray],
    n: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    *,
    delta: float = 0.0,
    pilot: int | None = None,
    candidates: int = 4,
) -> AuditResult:
    """Lower confidence bound on eps from samples of a mechanism on two neighbouring inputs.

    Args:
        run_a, run_b: ``run(n, rng)`` returns n integer-coded outputs of the mechanism on input a (resp. b)
            (e.g. the halting step, 0 = never halted): an integer (or bool) array, or floats that are all integers.
        n: main sample size per input (>= 1).
        rng: numpy Generator (used for the pilot and the main samples, in that order).
        confidence: level of the bound in (0, 1).
        delta: the mechanism's claimed delta (approximate DP): the bound is then on eps at that delta.
        pilot: pilot sample size per input for event selection (default n // 4, at least 100).
        candidates: number of pilot-selected events carried to the main sample (union bound over them).

    Returns:
        :class:`AuditResult`.

    Raises:
        ValueError: on n < 1, confidence outside (0, 1), delta outside [0, 1) or candidates < 1, or if a run returns
            other than n integer-coded outputs (real values are refused: discretize them first).
    """
    _validate.step_index(n, "n")
    _validate.open_unit("confidence", confidence)
    _validate.delta_range("delta", delta)
    _validate.step_index(candidates, "candidates")
    if pilot is not None:
        _validate.step_index(pilot, "pilot")
    n, candidates = int(n), int(candidates)
    m = max(100, n // 4) if pilot is None else int(pilot)
    pa, pb = _codes("run_a", run_a(m, rng), m), _codes("run_b", run_b(m, rng), m)
    scored = []
    for op, v in _events(np.unique(np.concatenate([pa, pb]))):
        ca, cb = _count(pa, op, v), _count(pb, op, v)
        # Score as if the main sample had the pilot's frequencies: the bound that event would give.
        for direction, k1, k2 in (("a/b", ca, cb), ("b/a", cb, ca)):
            scored.append(
                (_bound(round(k1 * n / m), round(k2 * n / m), n, (1 - confidence) / 2, delta), op, v, direction)
            )
    scored.sort(key=lambda s: -s[0])
    chosen = []
    for s in scored:
        if (s[1], s[2], s[3]) not in [(c[1], c[2], c[3]) for c in chosen]:
            chosen.append(s)
        if len(chosen) == candidates:
            break
    xa, xb = _codes("run_a", run_a(n, rng), n), _codes("run_b", run_b(n, rng), n)
    alpha = (1.0 - confidence) / (2 * len(chosen))
    best = None
    for _, op, v, direction in chosen:
        ka, kb = _count(xa, op, v), _count(xb, op, v)
        if direction == "b/a":
            ka, kb = kb, ka
        lower = _bound(ka, kb, n, alpha, delta)
        if best is None or lower > best[0]:
            best = (lower, op, v, direction, ka, kb)
    lower, op, v, direction, ka, kb = best
    with np.errstate(divide="ignore"):
        eps_hat = (
            math.log((ka / n - delta) / (kb / n))
            if kb > 0 and ka / n > delta
            else (math.inf if ka / n > delta else -math.inf)
        )
    return AuditResult(lower, eps_hat, f"{op} {int(v)}", direction, ka, kb, n, m, confidence, len(chosen))
