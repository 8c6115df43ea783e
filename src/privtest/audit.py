"""Black-box Monte Carlo lower confidence bounds on the privacy parameter eps of any mechanism (privacy auditing).

For two neighbouring inputs a and b and any output event E, eps-DP implies Pr_a[E] <= e^eps Pr_b[E] (+ delta for
approximate DP), so ln((Pr_a[E] - delta) / Pr_b[E]) is a lower bound on eps. The auditor works in two stages, as
published DP testers do (StatDP, Ding et al., CCS 2018): a *search* stage on a pilot sample picks the witnesses
(an input pair and an event on the coded outputs) whose pilot data promise the largest bound, then a *test* stage on
fresh main samples bounds eps from below, with a union bound over the carried witnesses. The selection never sees
the main sample, so the returned ``eps_lower`` is below the true eps with probability >= ``confidence`` however
many witnesses were searched.

The test. Pure DP (delta = 0): the main sample sizes are Poisson(n) (drawn first), so the event counts k_a, k_b are
independent Poisson variables and, given K = k_a + k_b, k_a ~ Binomial(K, s) exactly with s = Pr_a[E] /
(Pr_a[E] + Pr_b[E]) <= e^eps / (1 + e^eps); the bound is logit of the one-sided Clopper-Pearson lower limit of s (an
exact conditional test, like StatDP's, and much stronger than bounding the two probabilities separately when the
event is rare). Approximate DP (delta > 0): n outputs per input, ln((lower limit of Pr_a[E] - delta) / upper limit
of Pr_b[E]) with one-sided Clopper-Pearson limits, each tail at half the level.

Outputs are coded as integers, one or two features per output (a :class:`Coding`): the events searched are, per
feature, "== v", "<= v", ">= v" at an observed value v (or no condition), and their conjunction; every reported event
can be recounted from the coded samples. :func:`audit` searches several input pairs and codings;
:func:`estimate_epsilon` audits one pair with integer outputs.

Only the test stage's verdict depends on ``confidence``: the pilot search, the carried witnesses and their
main-sample counts do not. :func:`verdict` turns the carried witnesses' counts into the verdict (the level alpha,
each witness's bound, the best witness, eps_lower, eps_hat); :func:`audit` uses it, and so can an analysis that
judges recorded counts at another confidence. Given a ``claimed_eps``, :func:`audit` and :func:`estimate_epsilon`
also say whether the claim is refuted: eps_lower > claimed_eps, a test of "the mechanism is claimed_eps-DP" at
family-wise level 1 - confidence (the union bound over the carried witnesses is already in eps_lower).

Small samples. With delta = 0 the main sample sizes are Poisson(n), so a size can be 0 (probability e^{-n} per
input). The bound needs no size (it conditions on k_a + k_b, and k_a, k_b are independent Poisson whatever sizes were
drawn), so eps_lower stays valid; the point estimate eps_hat, a ratio of proportions, is then undefined and NaN.

Example:
    Randomized response at eps = 1 audited against a claim of eps = 0.5:

    >>> import numpy as np
    >>> def rr(x, k, rng):  # report the bit x w.p. e/(1 + e), flip it otherwise
    ...     return np.where(rng.random(k) < np.e / (1 + np.e), x, 1 - x)
    >>> res = audit(rr, {"0 vs 1": (0, 1)}, [Coding("bit", ("bit",), lambda y: y)], n=20_000, rng=0, claimed_eps=0.5)
    >>> res.refuted
    True
    >>> print(res)
    AuditResult: eps >= 0.9749 at confidence 0.95 (eps_hat = 1.02, delta = 0)
      claim eps = 0.5: REFUTED (eps_lower > claimed_eps)
      witness: pair '0 vs 1', coding 'bit', event '== 0' (a/b)
      counts: k_a = 14398 of n_a = 19691, k_b = 5262 of n_b = 19950
      search: 1 pair x coding on pilot samples of 20000; 2 carried, alpha = 0.025 each
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from privtest import _validate

__all__ = [
    "SELECT_ALPHA",
    "AuditResult",
    "Coding",
    "Verdict",
    "audit",
    "bound",
    "estimate_epsilon",
    "runs_to_flag",
    "verdict",
]

#: Level of the pilot's own Clopper-Pearson bounds used to rank candidate events: ranking by what the pilot
#: establishes (not by its point estimate) avoids carrying rare events whose pilot ratio is luck.
SELECT_ALPHA = 0.01
_OPS = ("==", "<=", ">=")


@dataclass(frozen=True, repr=False)
class AuditResult:
    """Outcome of :func:`audit` or :func:`estimate_epsilon`; ``print(result)`` summarizes it in a few lines.

    Attributes:
        eps_lower: lower confidence bound on eps in nats (valid with probability >= confidence); -inf if no event
            bounds it.
        eps_hat: point estimate ln((k_a/n_a - delta)/(k_b/n_b)) for the chosen event (inf if k_b = 0, -inf if
            k_a/n_a <= delta, NaN if n_a or n_b is 0: a Poisson sample size of 0, see the module docstring).
        event: the chosen event on the coded outputs, e.g. ">= 5" or "bottoms >= 16 & min_value <= 0".
        direction: "a/b" (Pr_a[E] / Pr_b[E]) or "b/a".
        k_a, k_b: counts of the event in the main samples (in the direction's order).
        n: main sample size per input (the mean of the Poisson sizes when delta = 0); pilot: pilot size per input.
        confidence: confidence level; candidates: number of witnesses carried to the main sample (union bound).
        witness: label of the chosen input pair ("" for :func:`estimate_epsilon`); coding: name of its coding.
        searched: number of (input pair, coding) combinations searched on the pilot.
        conditions: the event as ((feature index, op, value), ...) on the coding's features (for recounting).
        n_a, n_b: the main sample sizes actually drawn for input a and b (in the direction's order).
        alpha: the level of the test of each carried witness ((1 - confidence) / candidates; each of the two tails
            gets half of it when delta > 0).
        cells: every carried witness's main-sample result, best first (ties: pilot order): dicts with keys rank
            (its order among the carried witnesses, 0 = the pilot's best), witness, coding, event, direction, k_a,
            k_b, n_a, n_b, eps_lower (for tests of all of them, e.g. Holm over claims; :func:`verdict`).
        claimed_eps: the claim audited (None: no claim given).
        refuted: None without a claim; else whether eps_lower > claimed_eps, i.e. the claim "the mechanism is
            claimed_eps-DP (at the given delta)" is rejected at family-wise level 1 - confidence.
        delta: the claimed delta the audit used.

    A result record (what :func:`audit` returns); its fields are outputs, not checked arguments.

    Example:
        >>> import numpy as np
        >>> keep = np.e / (1 + np.e)  # randomized response with eps = 1
        >>> res = estimate_epsilon(lambda n, rng: rng.random(n) < keep, lambda n, rng: rng.random(n) >= keep, 5000,
        ...                        rng=1, claimed_eps=2.0)
        >>> res.refuted, round(res.eps_lower, 3), res.event
        (False, 0.916, '== 0')
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
    witness: str = ""
    coding: str = ""
    searched: int = 1
    conditions: tuple = ()
    n_a: int = 0
    n_b: int = 0
    alpha: float = 0.0
    cells: tuple = ()
    delta: float = 0.0
    claimed_eps: float | None = None
    refuted: bool | None = None

    def __str__(self) -> str:
        if self.refuted is None:
            claim = "no claim given (claimed_eps=None)"
        else:
            verdict = "REFUTED (eps_lower > claimed_eps)" if self.refuted else "not refuted (eps_lower <= claimed_eps)"
            claim = f"claim eps = {self.claimed_eps:g}: {verdict}"
        pair = f"pair {self.witness!r}, " if self.witness else ""
        return "\n".join(
            [
                f"AuditResult: eps >= {self.eps_lower:.4g} at confidence {self.confidence:g} "
                f"(eps_hat = {self.eps_hat:.4g}, delta = {self.delta:g})",
                f"  {claim}",
                f"  witness: {pair}coding {self.coding!r}, event {self.event!r} ({self.direction})",
                f"  counts: k_a = {self.k_a} of n_a = {self.n_a}, k_b = {self.k_b} of n_b = {self.n_b}",
                f"  search: {self.searched} pair x coding on pilot samples of {self.pilot}; {self.candidates} carried, "
                f"alpha = {self.alpha:.3g} each",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"AuditResult(eps_lower={self.eps_lower!r}, eps_hat={self.eps_hat!r}, claimed_eps={self.claimed_eps!r}, "
            f"refuted={self.refuted!r}, witness={self.witness!r}, event={self.event!r}, direction={self.direction!r})"
        )


@dataclass(frozen=True)
class Verdict:
    """The test stage's outcome on the carried witnesses' main-sample counts (:func:`verdict`).

    Attributes:
        alpha: level of each witness's test, (1 - confidence) / (number of carried witnesses) (union bound; each
            of the two tails gets half of it when delta > 0).
        bounds: each carried witness's lower bound on eps (:func:`bound` at level alpha, nats), in pilot order.
        best: the carried witness with the largest bound (ties: the smallest rank), as given plus ``eps_lower``.
        eps_lower: its bound (-inf if none is bounded).
        eps_hat: its point estimate ln((k_a/n_a - delta) / (k_b/n_b)) (inf if k_b = 0, -inf if k_a/n_a <= delta,
            NaN if n_a or n_b is 0).
        cells: every carried witness as given plus ``eps_lower``, best first (ties: pilot order).

    Example:
        >>> v = verdict([dict(rank=0, k_a=300, k_b=100, n_a=10_000, n_b=10_000)], confidence=0.95)
        >>> round(v.eps_lower, 4), round(v.eps_hat, 4)
        (0.9042, 1.0986)
    """

    alpha: float
    bounds: tuple[float, ...]
    best: dict
    eps_lower: float
    eps_hat: float
    cells: tuple[dict, ...]


def verdict(cells: Sequence[Mapping], confidence: float, delta: float = 0.0) -> Verdict:
    """The audit's verdict at level ``confidence`` from the carried witnesses' main-sample counts (the test stage,
    module docstring; what :func:`audit` returns is built from it).

    Args:
        cells: one mapping per carried witness with keys rank (its order among the carried witnesses on the pilot,
            0 = the pilot's best; the tie rule follows it, so the cells may come in any order), k_a, k_b (event
            counts, in the witness's direction), n_a, n_b (main sample sizes, same order); any other keys (witness,
            coding, event, direction, ...) are passed through.
        confidence: level of the bound in (0, 1); the union bound gives each witness alpha = (1 - confidence) /
            len(cells).
        delta: the mechanism's claimed delta (the test: conditional binomial for delta = 0, else Clopper-Pearson).

    Returns:
        :class:`Verdict`: the best witness is the first in pilot order among those with the largest bound.

    Raises:
        ValueError: on no cells, a cell without one of the keys rank, k_a, k_b, n_a, n_b, counts that are not
            integers 0 <= k_a <= n_a, 0 <= k_b <= n_b, ranks that are not distinct integers, confidence outside
            (0, 1) or delta outside [0, 1) (naming the parameter).

    Example:
        >>> v = verdict([dict(rank=0, k_a=30, k_b=10, n_a=100, n_b=100), dict(rank=1, k_a=5, k_b=5, n_a=100, n_b=100)],
        ...             confidence=0.95)
        >>> round(v.alpha, 4), v.best["rank"], round(v.eps_lower, 4)
        (0.025, 0, 0.3559)
    """
    _validate.open_unit("confidence", confidence)
    _validate.delta_range("delta", delta)
    if isinstance(cells, Mapping) or not isinstance(cells, Sequence) or not cells:
        raise ValueError(
            "cells must be a non-empty sequence of mappings: the verdict needs at least one carried witness."
        )
    for i, c in enumerate(cells):
        missing = [key for key in ("rank", "k_a", "k_b", "n_a", "n_b") if not isinstance(c, Mapping) or key not in c]
        if missing:
            raise ValueError(f"cells[{i}] must be a mapping with keys rank, k_a, k_b, n_a, n_b. Missing {missing}.")
        _validate.integer(f"cells[{i}].rank", c["rank"], 0)
        for k, n in (("k_a", "n_a"), ("k_b", "n_b")):
            n_i = _validate.integer(f"cells[{i}].{n}", c[n], 0)
            if not 0 <= _validate.integer(f"cells[{i}].{k}", c[k], 0) <= n_i:
                raise ValueError(f"cells[{i}]: {k} must be in [0, {n}]. Found {k} = {c[k]}, {n} = {n_i}.")
    ranked = sorted(cells, key=lambda c: c["rank"])
    ranks = [c["rank"] for c in ranked]
    if len(set(ranks)) != len(ranks):
        raise ValueError(f"the cells' ranks must be distinct (their order on the pilot). Found {ranks}.")
    alpha = (1.0 - confidence) / len(ranked)
    judged = [{**c, "eps_lower": float(_bound(c["k_a"], c["k_b"], c["n_a"], alpha, delta, c["n_b"]))} for c in ranked]
    best = judged[0]
    for c in judged[1:]:
        if c["eps_lower"] > best["eps_lower"]:
            best = c
    return Verdict(
        alpha,
        tuple(c["eps_lower"] for c in judged),
        best,
        best["eps_lower"],
        _eps_hat(best["k_a"], best["k_b"], best["n_a"], best["n_b"], delta),
        tuple(sorted(judged, key=lambda c: -c["eps_lower"])),
    )


@dataclass(frozen=True)
class Coding:
    """How raw mechanism outputs become integer features: ``code(outputs) -> int array (n,) or (n, d)``, d <= 2.

    Attributes:
        name: label of the coding (a string).
        features: names of the d features, 1 <= d <= 2 (used in the event text).
        code: the coding function (outputs as the sampler returns them).
        ops: for each feature, the conditions the search may put on it ("==", "<=", ">="; in two dimensions also
            "any", no condition); default all. Fewer conditions mean fewer events to overfit on the pilot.

    Raises:
        TypeError: if ``code`` is not callable.
        ValueError: naming name, features or ops when malformed.

    Example:
        >>> c = Coding("halting step", ("step",), lambda outputs: outputs)
        >>> c.allowed()
        [('==', '<=', '>=')]
    """

    name: str
    features: tuple[str, ...]
    code: Callable
    ops: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise ValueError(f"name must be a string. Found {self.name!r}.")
        feats = self.features
        if isinstance(feats, str) or not (1 <= len(feats) <= 2) or not all(isinstance(f, str) for f in feats):
            raise ValueError(f"features must be a tuple of one or two names (strings). Found {feats!r}.")
        _validate.function("code", self.code)
        if self.ops is not None:
            allowed = set(_OPS) | ({"any"} if len(feats) == 2 else set())
            if len(self.ops) != len(feats) or any(
                isinstance(o, str) or not o or not set(o) <= allowed for o in self.ops
            ):
                raise ValueError(
                    f"ops must give, for each of the {len(feats)} feature(s), a non-empty tuple of conditions from "
                    f"{sorted(allowed)}. Found {self.ops!r}."
                )

    def allowed(self) -> list[tuple[str, ...]]:
        """The allowed conditions of each feature (a list with one tuple per feature)."""
        if self.ops is not None:
            return [tuple(o) for o in self.ops]
        return [_OPS] if len(self.features) == 1 else [(*_OPS, "any")] * len(self.features)


def _codes(name: str, x, n: int, d: int = 1) -> np.ndarray:
    """The n integer-coded outputs as an int64 array (n, d), or ValueError naming the run.

    Real-valued outputs are refused: the events are "== v", "<= v", ">= v" at observed values, reported as text, and
    with real values neither the candidate set (one event per distinct value) nor the reported threshold would let
    anyone recount the event from the samples. Discretize them first (e.g. ``np.floor(x / width)``).
    """
    x = np.asarray(x)
    if x.ndim == 1 and d == 1:
        x = x[:, None]
    if x.shape != (n, d):
        shape = f"({n},)" if d == 1 else f"({n}, {d})"
        raise ValueError(f"{name} must return {n} outputs (shape {shape}). Found shape {np.shape(x)}.")
    if x.dtype.kind in "iub":
        return x.astype(np.int64)
    if x.dtype.kind == "f":
        bad = ~np.isfinite(x) | (x != np.round(x))
        if not bad.any() and np.all(np.abs(x) < 2**53):
            return x.astype(np.int64)
        example = x[bad][0] if bad.any() else x.flat[np.argmax(np.abs(x))]
    else:
        example = x.flat[0] if x.size else None
    raise ValueError(
        f"{name} must return integer-coded outputs (a halting step, a pattern index, ...). Found {example!r} "
        f"(dtype {x.dtype}): discretize real-valued outputs into integer codes first."
    )


def _cp_lower(k, n, alpha):
    from scipy import stats  # on use: scipy.stats is slow to import

    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(k > 0, stats.beta.ppf(alpha, np.maximum(k, 1e-12), n - k + 1), 0.0)


def _cp_upper(k, n, alpha):
    from scipy import stats  # on use: scipy.stats is slow to import

    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(k < n, stats.beta.ppf(1.0 - alpha, k + 1, np.maximum(n - k, 1e-12)), 1.0)


def _bound(ka, kb, n, alpha, delta, nb=None):
    """The test's lower bound on eps, elementwise (module docstring): delta = 0: logit of the Clopper-Pearson lower
    limit of k_a / (k_a + k_b) at level alpha; delta > 0: ln((CP_lower(k_a/n) - delta) / CP_upper(k_b/nb)), each at
    alpha / 2. -inf where nothing is bounded."""
    ka, kb = np.asarray(ka, dtype=float), np.asarray(kb, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if delta == 0:
            lo = _cp_lower(ka, np.maximum(ka + kb, 1.0), alpha)
            return np.where(lo > 0, np.log(lo) - np.log1p(-np.minimum(lo, 1 - 1e-16)), -np.inf)
        lo, hi = _cp_lower(ka, n, alpha / 2), _cp_upper(kb, n if nb is None else nb, alpha / 2)
        return np.where(lo > delta, np.log(np.maximum(lo - delta, 1e-300) / hi), -np.inf)


def bound(k_a: int, k_b: int, n: int, alpha: float, delta: float = 0.0, n_b: int | None = None) -> float:
    """The audit's lower bound on eps from event counts k_a of n (input a) and k_b of n_b (input b, default n) at
    level alpha (module docstring: conditional on k_a + k_b when delta = 0, Clopper-Pearson limits when delta > 0).

    Args:
        k_a: event count under input a, an integer in [0, n].
        k_b: event count under input b, an integer in [0, n_b].
        n: sample size under input a, an integer >= 0 (0 only arises from Poisson sizes, delta = 0).
        alpha: level of the one-sided test in (0, 1) (the bound holds with probability >= 1 - alpha).
        delta: the mechanism's claimed delta in [0, 1).
        n_b: sample size under input b, an integer >= 0; default n.

    Returns:
        float: the lower confidence bound on eps in nats (-inf if the counts bound nothing).

    Raises:
        ValueError: naming the parameter when one is outside its range (NaN, infinities, bools and fractions too).

    Example:
        >>> round(bound(30, 10, 100, 0.05), 4)
        0.4597
        >>> bound(0, 10, 100, 0.05)
        -inf
    """
    _validate.open_unit("alpha", alpha)
    _validate.delta_range("delta", delta)
    n = _validate.integer("n", n, 0)
    n_b = n if n_b is None else _validate.integer("n_b", n_b, 0)
    _validate.integer("k_a", k_a, 0, maximum=n)
    _validate.integer("k_b", k_b, 0, maximum=n_b)
    return float(_bound(k_a, k_b, n, alpha, delta, n_b))


def runs_to_flag(k_a: int, k_b: int, n: int, claimed: float, alpha: float, delta: float = 0.0) -> float:
    """The audit's power at the observed rates: the main sample size per input at which counts in the observed
    proportions k_a/n, k_b/n would make the bound (:func:`bound` at level ``alpha``) exceed ``claimed``.

    Used to say how many runs an audit that did not flag a known violation would have needed.

    Args:
        k_a, k_b: observed event counts under inputs a and b, integers >= 0 (at most n when delta > 0; with delta = 0
            the sizes were Poisson(n), so a count may exceed n).
        n: the main sample size per input the counts come from (its mean when delta = 0), an integer >= 1.
        claimed: the claimed eps, finite and >= 0 (nats).
        alpha: level of the test in (0, 1).
        delta: the claimed delta in [0, 1).

    Returns:
        float: runs per input, within 1% (rounded up), or inf if the point estimate does not exceed ``claimed`` or
        more than 1e15 runs would be needed.

    Raises:
        ValueError: naming the parameter when one is outside its range.

    Example:
        >>> round(runs_to_flag(40, 10, 1000, claimed=1.0, alpha=0.025))
        3327
    """
    n = _validate.integer("n", n, 1)
    _validate.nonnegative("claimed", claimed)
    _validate.open_unit("alpha", alpha)
    _validate.delta_range("delta", delta)
    most = n if delta > 0 else None
    _validate.integer("k_a", k_a, 0, maximum=most)
    _validate.integer("k_b", k_b, 0, maximum=most)
    pa, pb = k_a / n, k_b / n
    if pa <= delta or (pb > 0 and math.log((pa - delta) / pb) <= claimed):
        return math.inf
    pb = max(pb, 0.5 / n)  # an event never seen under b: assume half a count

    def flags(m: float) -> bool:  # fractional counts: the bound's continuous extension in m
        return float(_bound(pa * m, pb * m, m, alpha, delta)) > claimed

    hi = float(n)
    while not flags(hi):
        hi *= 2.0
        if hi > 1e15:
            return math.inf
    lo = hi / 2.0
    while hi / lo > 1.01:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if flags(mid) else (mid, hi)
    return hi


def _value_index(xa: np.ndarray, xb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, index_a, index_b): the sorted distinct values of the int64 samples xa and xb together
    (``np.union1d``) and each sample's position in them (``np.searchsorted``). Codes within a small range are
    counted instead of sorted."""
    if len(xa) == 0 or len(xb) == 0:
        values = np.union1d(xa, xb)
        return values, np.searchsorted(values, xa), np.searchsorted(values, xb)
    lo = min(int(xa.min()), int(xb.min()))
    width = max(int(xa.max()), int(xb.max())) - lo + 1
    if width > 2 * (len(xa) + len(xb)) + 1024:
        values = np.union1d(xa, xb)
        return values, np.searchsorted(values, xa), np.searchsorted(values, xb)
    seen = (np.bincount(xa - lo, minlength=width) + np.bincount(xb - lo, minlength=width)) > 0
    rank = np.cumsum(seen) - 1  # position of each value among the observed ones
    return np.flatnonzero(seen) + lo, rank[xa - lo], rank[xb - lo]


def _search(xa: np.ndarray, xb: np.ndarray, delta: float, keep: int, choices) -> list[tuple[float, tuple, str]]:
    """The ``keep`` best events on pilot features xa, xb (m, d): (pilot score, conditions, direction), best first.

    Every conjunction of one allowed condition per feature (``choices``: "==", "<=", ">=" at an observed value, or
    "any") is scored by the bound it establishes on the pilot itself at level :data:`SELECT_ALPHA`.
    """
    m, d = xa.shape
    values, ia, ib = [], [], []
    for j in range(d):  # the observed values of feature j (sorted) and each sample's index among them
        v, i_a, i_b = _value_index(xa[:, j], xb[:, j])
        values.append(v)
        ia.append(i_a)
        ib.append(i_b)
    shape = tuple(len(v) for v in values)

    def hist(idx):  # counts per cell, as floats
        return np.bincount(np.ravel_multi_index(tuple(idx), shape), minlength=math.prod(shape)).reshape(shape) * 1.0

    ha, hb = hist(ia), hist(ib)

    def apply(h, ops):
        for axis, op in enumerate(ops):
            if op == "<=":
                h = np.cumsum(h, axis=axis)
            elif op == ">=":
                h = np.flip(np.cumsum(np.flip(h, axis=axis), axis=axis), axis=axis)
            elif op == "any":
                h = np.broadcast_to(h.sum(axis=axis, keepdims=True), h.shape)
        return h

    found = []
    for ops in np.array(np.meshgrid(*choices, indexing="ij"), dtype=object).reshape(d, -1).T:
        ops = tuple(ops)
        if all(op == "any" for op in ops):
            continue
        ca, cb = apply(ha, ops), apply(hb, ops)
        for direction, k1, k2 in (("a/b", ca, cb), ("b/a", cb, ca)):
            score = _bound(k1, k2, m, SELECT_ALPHA, delta)
            flat = np.argsort(-score, axis=None)[:keep]
            for idx in flat:
                if not np.isfinite(score.flat[idx]):
                    break
                at = np.unravel_index(idx, shape)
                cond = tuple((j, op, int(values[j][at[j]])) for j, op in enumerate(ops) if op != "any")
                found.append((float(score.flat[idx]), cond, direction))
    found.sort(key=lambda f: -f[0])
    return found[:keep]


def _count(x: np.ndarray, conditions: tuple) -> int:
    sel = np.ones(len(x), dtype=bool)
    for j, op, v in conditions:
        col = x[:, j]
        sel &= col == v if op == "==" else (col <= v if op == "<=" else col >= v)
    return int(np.count_nonzero(sel))


def _text(conditions: tuple, features: tuple[str, ...]) -> str:
    if len(features) == 1:
        return " & ".join(f"{op} {v}" for _, op, v in conditions)
    return " & ".join(f"{features[j]} {op} {v}" for j, op, v in conditions)


def _check_common(n, confidence, delta, pilot, candidates, claimed_eps) -> tuple[int, int]:
    n = _validate.step_index(n, "n")
    _validate.open_unit("confidence", confidence)
    _validate.delta_range("delta", delta)
    candidates = _validate.step_index(candidates, "candidates")
    if pilot is not None:
        pilot = _validate.step_index(pilot, "pilot")
    if claimed_eps is not None:
        _validate.nonnegative("claimed_eps", claimed_eps)
    return int(n), int(candidates)


def audit(
    sample: Callable[[object, int, np.random.Generator], object],
    pairs: Mapping[str, tuple[object, object]],
    codings: list[Coding],
    n: int,
    rng: np.random.Generator,
    confidence: float = 0.95,
    *,
    delta: float = 0.0,
    pilot: int | None = None,
    candidates: int = 2,
    claimed_eps: float | None = None,
) -> AuditResult:
    """Lower confidence bound on eps, searching witness input pairs and events (module docstring).

    Args:
        sample: ``sample(input, k, rng)`` returns k outputs of the mechanism on ``input`` (any structure the
            codings read).
        pairs: label -> (input a, input b), neighbouring inputs (e.g. query answers differing by at most the
            sensitivity in every coordinate).
        codings: how outputs become one or two integer features each; every pair is searched under every coding.
        n: main sample size per input, an integer >= 1 (with delta = 0 the sizes drawn are Poisson(n)).
        rng: anything :func:`numpy.random.default_rng` accepts (pilot samples of every pair in order, then the main
            samples).
        confidence: level of the bound in (0, 1) (family-wise over the carried witnesses).
        delta: the mechanism's claimed delta in [0, 1).
        pilot: pilot sample size per input and pair, an integer >= 1 (default n).
        candidates: number of pilot-selected witnesses (pair, coding, event, direction) carried to the main sample,
            an integer >= 1.
        claimed_eps: the eps the mechanism claims (finite, >= 0, nats), or None. Given, the result says whether the
            claim is refuted (``refuted``: eps_lower > claimed_eps at family-wise level 1 - confidence). It changes
            no draw and no bound.

    Returns:
        :class:`AuditResult` of the witness with the largest main-sample bound.

    Raises:
        TypeError: if ``sample`` is not callable.
        ValueError: on an argument out of range (naming it), no pair or coding, or a coding returning other than
            integers.

    Example:
        >>> import numpy as np
        >>> def rr(x, k, rng):  # randomized response with eps = 1 on the bit x
        ...     return np.where(rng.random(k) < np.e / (1 + np.e), x, 1 - x)
        >>> res = audit(rr, {"0 vs 1": (0, 1)}, [Coding("bit", ("bit",), lambda y: y)], 20_000, rng=0, claimed_eps=1.0)
        >>> print(res)
        AuditResult: eps >= 0.9749 at confidence 0.95 (eps_hat = 1.02, delta = 0)
          claim eps = 1: not refuted (eps_lower <= claimed_eps)
          witness: pair '0 vs 1', coding 'bit', event '== 0' (a/b)
          counts: k_a = 14398 of n_a = 19691, k_b = 5262 of n_b = 19950
          search: 1 pair x coding on pilot samples of 20000; 2 carried, alpha = 0.025 each
    """
    rng = _validate.generator(rng)
    n, candidates = _check_common(n, confidence, delta, pilot, candidates, claimed_eps)
    _validate.function("sample", sample)
    if not isinstance(pairs, Mapping) or not pairs or isinstance(codings, (str, Coding)) or not codings:
        raise ValueError("pairs (a mapping label -> (a, b)) and codings (a list of Coding) must be non-empty.")
    for label, pair in pairs.items():
        if not (isinstance(pair, Sequence) and len(pair) == 2):
            raise ValueError(f"pairs[{label!r}] must be a pair (input a, input b). Found {pair!r}.")
    for i, coding in enumerate(codings):
        if not isinstance(coding, Coding):
            raise ValueError(f"codings[{i}] must be a privtest.audit.Coding. Found {coding!r}.")
    m = n if pilot is None else int(pilot)
    found = []
    for label, (in_a, in_b) in pairs.items():
        out_a, out_b = sample(in_a, m, rng), sample(in_b, m, rng)
        for coding in codings:
            d = len(coding.features)
            xa = _codes(f"coding {coding.name} (input a)", coding.code(out_a), m, d)
            xb = _codes(f"coding {coding.name} (input b)", coding.code(out_b), m, d)
            best = _search(xa, xb, delta, candidates, coding.allowed())
            found += [(s, label, coding, cond, dr) for s, cond, dr in best]
    found.sort(key=lambda f: -f[0])
    chosen = found[:candidates]
    if not chosen:  # nothing bounded on the pilot: carry the first pair's first coding with an empty guess
        chosen = [(-math.inf, next(iter(pairs)), codings[0], ((0, ">=", 0),), "a/b")]
    main = {}
    cells = []
    for rank, (_, label, coding, cond, direction) in enumerate(chosen):
        if label not in main:
            in_a, in_b = pairs[label]
            # delta = 0: Poisson sample sizes make the counts independent Poisson (exact conditional test)
            na, nb = (int(k) for k in rng.poisson(n, 2)) if delta == 0 else (n, n)
            main[label] = (sample(in_a, na, rng), sample(in_b, nb, rng), na, nb)
        out_a, out_b, na, nb = main[label]
        d = len(coding.features)
        xa = _codes(f"coding {coding.name} (input a)", coding.code(out_a), na, d)
        xb = _codes(f"coding {coding.name} (input b)", coding.code(out_b), nb, d)
        ka, kb = _count(xa, cond), _count(xb, cond)
        n1, n2 = na, nb
        if direction == "b/a":
            ka, kb, n1, n2 = kb, ka, nb, na
        cells.append(
            dict(
                rank=rank,
                witness=label,
                coding=coding.name,
                event=_text(cond, coding.features),
                direction=direction,
                k_a=ka,
                k_b=kb,
                n_a=n1,
                n_b=n2,
            )
        )
    v = verdict(cells, confidence, delta)
    best = v.best
    _, _, coding, cond, _ = chosen[best["rank"]]
    return AuditResult(
        v.eps_lower,
        v.eps_hat,
        best["event"],
        best["direction"],
        best["k_a"],
        best["k_b"],
        n,
        m,
        confidence,
        len(chosen),
        witness=best["witness"],
        coding=coding.name,
        searched=len(pairs) * len(codings),
        conditions=cond,
        n_a=best["n_a"],
        n_b=best["n_b"],
        alpha=v.alpha,
        cells=v.cells,
        delta=float(delta),
        claimed_eps=None if claimed_eps is None else float(claimed_eps),
        refuted=None if claimed_eps is None else bool(v.eps_lower > claimed_eps),
    )


def _eps_hat(ka: int, kb: int, na: int, nb: int, delta: float) -> float:
    if na == 0 or nb == 0:  # a proportion of no draws (a Poisson size of 0, delta = 0): undefined
        return math.nan
    if ka / na <= delta:
        return -math.inf
    return math.log((ka / na - delta) / (kb / nb)) if kb > 0 else math.inf


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
    claimed_eps: float | None = None,
) -> AuditResult:
    """Lower confidence bound on eps from samples of a mechanism on one pair of neighbouring inputs.

    Args:
        run_a, run_b: ``run(n, rng)`` returns n integer-coded outputs of the mechanism on input a (resp. b)
            (e.g. the halting step, 0 = never halted): an integer (or bool) array, or floats that are all integers.
        n: main sample size per input, an integer >= 1 (with delta = 0 the sizes drawn are Poisson(n)).
        rng: anything :func:`numpy.random.default_rng` accepts (used for the pilot and the main samples, in that
            order).
        confidence: level of the bound in (0, 1).
        delta: the mechanism's claimed delta in [0, 1) (approximate DP): the bound is then on eps at that delta.
        pilot: pilot sample size per input for event selection, an integer >= 1 (default n // 4, at least 100).
        candidates: number of pilot-selected events carried to the main sample (union bound over them), >= 1.
        claimed_eps: the claimed eps (finite, >= 0) or None; given, ``refuted`` says whether eps_lower > claimed_eps.

    Returns:
        :class:`AuditResult` (events "== v", "<= v", ">= v" on the integer output).

    Raises:
        TypeError: if ``run_a`` or ``run_b`` is not callable.
        ValueError: on n < 1, confidence outside (0, 1), delta outside [0, 1), candidates < 1 or claimed_eps out of
            range (naming the parameter), or if a run returns other than n integer-coded outputs (real values are
            refused: discretize them first).

    Example:
        >>> import numpy as np
        >>> keep = np.e / (1 + np.e)  # randomized response with eps = 1: inputs 1 (a) and 0 (b)
        >>> res = estimate_epsilon(lambda n, rng: rng.random(n) < keep, lambda n, rng: rng.random(n) >= keep,
        ...                        n=20_000, rng=0, claimed_eps=0.5)
        >>> round(res.eps_lower, 3), res.refuted
        (0.965, True)
    """
    rng = _validate.generator(rng)
    n, candidates = _check_common(n, confidence, delta, pilot, candidates, claimed_eps)
    _validate.function("run_a", run_a)
    _validate.function("run_b", run_b)
    runs = {"a": run_a, "b": run_b}
    names = {"a": "run_a", "b": "run_b"}

    def sample(which, k, r):
        return _codes(names[which], runs[which](k, r), k)[:, 0]

    m = max(100, n // 4) if pilot is None else int(pilot)
    res = audit(
        sample,
        {"": ("a", "b")},
        [Coding("output", ("output",), lambda x: x)],
        n,
        rng,
        confidence,
        delta=delta,
        pilot=m,
        candidates=candidates,
        claimed_eps=claimed_eps,
    )
    return res
