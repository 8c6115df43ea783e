"""The six sparse-vector (SVT) variants compared by Lyu, Su and Li, "Understanding the Sparse Vector Technique for
Differential Privacy" (PVLDB 10(6), 2017, Figure 1): known test mechanisms for the black-box auditor
(:mod:`privtest.audit`). Several published variants are not eps-DP although they claim to be.

All take sensitivity-Delta queries q_1..q_m (answers on one dataset), a public threshold T, a cutoff c and a claimed
eps, and answer top (1) / bottom (0) per query (-1 after the cutoff aborts); Alg. 3 also releases q_i + nu_i.

Per variant: the noise, what happens after the c-th top, and the privacy on m queries.

* ``alg1``: rho ~ Lap(Delta/eps1), nu_i ~ Lap(2c Delta/eps2), eps1 = eps/2; aborts; eps.
* ``alg2``: rho ~ Lap(c Delta/eps1), nu_i ~ Lap(2c Delta/eps1), eps1 = eps/2, rho redrawn after a top; aborts; eps.
* ``alg3``: rho ~ Lap(Delta/eps1), nu_i ~ Lap(c Delta/eps2), releases q_i + nu_i; aborts; m eps/(2c).
* ``alg4``: rho ~ Lap(Delta/eps1), nu_i ~ Lap(Delta/eps2), eps1 = eps/4; aborts; (1 + 6c)/4 eps.
* ``alg5``: rho ~ Lap(Delta/eps1), no query noise; never aborts; infinite.
* ``alg6``: rho ~ Lap(Delta/eps1), nu_i ~ Lap(Delta/eps2); never aborts; <= m eps/2.

(eps2 = eps - eps1.) Alg. 1 with c = 1 is AboveThreshold with eps1 = eps2 = eps/2. Alg. 3 and Alg. 6 are unbounded
only as the number of queries m grows (:func:`actual_epsilon`); on m queries Alg. 3 is broken iff m > 2c.

:func:`witness_pairs` gives the input pairs an audit searches (StatDP's patterns) and :data:`CODINGS` the integer
codings of an output (:func:`privtest.audit.audit`). Every function checks its arguments first (ValueError naming
the parameter and its range).

Example:
    Auditing Alg. 3 (broken on m > 2c queries) against its claim:

    >>> from privtest.audit import audit
    >>> res = audit(SVTVariant("alg3", 1.0).run, witness_pairs(6), CODINGS, 4000, rng=0, claimed_eps=1.0)
    >>> res.refuted
    True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privtest import _validate
from privtest.audit import Coding

__all__ = ["CODINGS", "PRIVATE", "SVTVariant", "actual_epsilon", "first_top", "pattern_distance", "witness_pairs"]

#: variant -> whether it is eps-DP as claimed (Lyu et al. 2017, Figure 1) for every number of queries and cutoff.
PRIVATE = {"alg1": True, "alg2": True, "alg3": False, "alg4": False, "alg5": False, "alg6": False}


def actual_epsilon(variant: str, eps: float, c: int, m: int) -> float:
    """The privacy each variant really has on m queries with cutoff c and claimed eps (inf = unbounded).

    alg1, alg2: eps. alg4: (1 + 6c)/4 eps (Lyu et al., Theorem 5). alg5: unbounded for m >= 2 (no query noise: some
    top/bottom patterns are impossible on one input and possible on a neighbour). alg3: m eps/(2c), exactly: its
    outputs are a function of the data-independent rho and of the m noisy answers q_i + nu_i, each (eps/(2c))-DP,
    and the pair "m - 1 bottoms that rise by 1, a top that falls by 1" attains the sum as rho -> -inf; so Alg. 3 is
    broken iff m > 2c, and unbounded only as m grows. alg6: the same composition gives m eps/2 (an upper bound;
    unbounded in m, Lyu et al.).

    Args:
        variant: "alg1" ... "alg6". eps: the claimed eps > 0. c: cutoff, an integer >= 1. m: queries, an integer >= 1.

    Returns:
        float: the actual eps (nats; inf = unbounded).

    Raises:
        ValueError: on an unknown variant, eps <= 0, c < 1 or m < 1 (naming it).

    Example:
        >>> actual_epsilon("alg3", 1.0, c=1, m=10), actual_epsilon("alg1", 1.0, c=1, m=10)
        (5.0, 1.0)
    """
    if variant not in PRIVATE:
        raise ValueError(f"variant must be one of {sorted(PRIVATE)}. Found {variant!r}.")
    _validate.positive("eps", eps)
    c = _validate.step_index(c, "c")
    m = _validate.step_index(m, "m")
    return {
        "alg1": eps,
        "alg2": eps,
        "alg3": m * eps / (2 * c),
        "alg4": (1 + 6 * c) / 4 * eps,
        "alg5": np.inf if m >= 2 else eps / 2,
        "alg6": m * eps / 2,
    }[variant]


@dataclass(frozen=True)
class SVTVariant:
    """One SVT variant of Lyu et al. (2017).

    Args:
        variant: "alg1" ... "alg6".
        eps: claimed privacy > 0.
        threshold: public threshold T.
        c: cutoff (number of tops before aborting; ignored by alg5/alg6) >= 1.
        sensitivity: Delta > 0.

    Raises:
        ValueError: on an unknown variant or a parameter out of range (naming it).

    Example:
        >>> answers, values = SVTVariant("alg1", 1.0, threshold=0.5).run([0.0, 5.0, 0.0], n=4, rng=0)
        >>> answers.tolist()
        [[1, -1, -1], [1, -1, -1], [1, -1, -1], [1, -1, -1]]
    """

    variant: str
    eps: float
    threshold: float = 0.0
    c: int = 1
    sensitivity: float = 1.0

    def __post_init__(self):
        if not isinstance(self.variant, str) or self.variant not in PRIVATE:
            raise ValueError(f"variant must be one of {sorted(PRIVATE)}. Found {self.variant!r}.")
        _validate.positive("eps", self.eps)
        _validate.finite("threshold", self.threshold)
        _validate.positive("sensitivity", self.sensitivity)
        _validate.step_index(self.c, "c")

    def run(self, queries, n: int, rng: np.random.Generator):
        """n independent runs on query answers ``queries`` (shape (m,)).

        Args:
            queries: the m >= 1 query answers on one dataset, finite reals (1-d).
            n: number of runs, an integer >= 0.
            rng: anything :func:`numpy.random.default_rng` accepts.

        Returns:
            (answers, values): int8 array (n, m) with 1 (top), 0 (bottom), -1 (aborted), and float array (n, m) of the
            released noisy answers (Alg. 3 only; NaN elsewhere, and then a read-only array).

        Raises:
            ValueError: naming queries, n or rng when invalid.
        """
        _validate.finite("queries", queries, scalar=False)
        if np.ndim(queries) != 1 or np.size(queries) == 0:
            raise ValueError(f"queries must be a non-empty 1-d array of query answers. Found {_validate.fmt(queries)}.")
        n = _validate.integer("n", n, 0)
        rng = _validate.generator(rng)
        q = np.asarray(queries, dtype=float)
        m, D, eps, c = len(q), self.sensitivity, self.eps, self.c
        v = self.variant
        eps1 = eps / 4 if v == "alg4" else eps / 2
        eps2 = eps - eps1
        rho_scale = {"alg2": c * D / eps1}.get(v, D / eps1)
        nu_scale = {"alg1": 2 * c * D / eps2, "alg2": 2 * c * D / eps1, "alg3": c * D / eps2, "alg5": 0.0}.get(
            v, D / eps2
        )
        cutoff = v not in ("alg5", "alg6")
        rho = rng.laplace(0.0, rho_scale, n)
        # Built query-major ((m, n), one contiguous row per query) and returned as (n, m) views: the same values as
        # filling the columns of an (n, m) array, without its strided masked writes.
        answers = np.empty((m, n), dtype=np.int8)
        values = np.full((m, n), np.nan) if v == "alg3" else np.broadcast_to(np.float64(np.nan), (m, n))
        tops = np.zeros(n, dtype=np.int64)
        level = self.threshold + rho  # the noisy threshold, updated where alg2 redraws rho
        for i in range(m):
            nu = rng.laplace(0.0, nu_scale, n) if nu_scale > 0 else np.zeros(n)
            top = q[i] + nu >= level
            if cutoff:
                active = tops < c
                hit = active & top
                # 1 / 0 while active, -1 once aborted: hit + active - 1
                np.add(hit.view(np.int8), active.view(np.int8), out=answers[i])
                answers[i] -= 1
            else:
                hit = top
                answers[i] = top
            if v == "alg3":
                values[i, hit] = q[i] + nu[hit]
            if v == "alg2":  # Dwork-Roth: a fresh threshold noise after every top
                rho[hit] = rng.laplace(0.0, c * D / eps2, int(np.count_nonzero(hit)))
                level[hit] = self.threshold + rho[hit]
            tops += hit
        return answers.T, values.T


def _in_range(a: np.ndarray) -> bool:
    """Whether every element of the integer (or bool) array ``a`` is -1, 0 or 1 (np.isin without its sort)."""
    return a.size == 0 or (int(a.min()) >= -1 and int(a.max()) <= 1)


def _check_answers(answers) -> np.ndarray:
    _validate.real("answers", answers, scalar=False)
    a = np.asarray(answers)
    if a.ndim != 2 or not (_in_range(a) if a.dtype.kind in "iub" else np.all(np.isin(a, (-1, 0, 1)))):
        raise ValueError(f"answers must be an (n, m) array of 1 (top), 0 (bottom), -1 (aborted). Found {a!r}.")
    return a


def first_top(answers) -> np.ndarray:
    """Integer code: 1-based index of the first top, 0 if none (the halting step of a c = 1 SVT).

    Args:
        answers: (n, m) array of 1 (top), 0 (bottom), -1 (aborted), as :meth:`SVTVariant.run` returns.

    Returns:
        int64 array (n,).

    Raises:
        ValueError: naming answers when malformed.

    Example:
        >>> first_top([[0, 1, -1], [0, 0, 0]]).tolist()
        [2, 0]
    """
    answers = _check_answers(answers)
    top = answers == 1
    return np.where(top.any(axis=1), top.argmax(axis=1) + 1, 0).astype(np.int64)


def pattern_distance(answers, k: int) -> np.ndarray:
    """Integer code: Hamming distance of the top/bottom vector (aborted = bottom) to top^k bottom^(m-k).

    Args:
        answers: (n, m) array of 1, 0, -1 (:meth:`SVTVariant.run`). k: an integer in [0, m].

    Returns:
        int64 array (n,).

    Raises:
        ValueError: naming answers or k when out of range.

    Example:
        >>> pattern_distance([[1, 0, -1], [0, 1, 1]], 1).tolist()
        [0, 3]
    """
    answers = _check_answers(answers)
    k = _validate.integer("k", k, 0, maximum=answers.shape[1])
    target = np.zeros(answers.shape[1], dtype=bool)
    target[:k] = True
    return np.count_nonzero((answers == 1) != target[None, :], axis=1).astype(np.int64)


def witness_pairs(m: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Neighbouring query answers (sensitivity 1: every coordinate differs by at most 1) of length m >= 2, around a
    threshold at 0: the patterns of StatDP (Ding et al., CCS 2018, ``generators.generate_databases``: d1 at the
    threshold, d2 = one below, one above, one above rest below, one below rest above, half above half below, all
    above, all below, and the "x shape" pair) plus the two "rest" patterns with the distinguished query last (the
    order matters for mechanisms that stop after c tops).

    Args:
        m: number of queries, an integer >= 2.

    Returns:
        dict label -> (queries a, queries b), float arrays (m,).

    Raises:
        ValueError: if m < 2 (naming m).

    Example:
        >>> pairs = witness_pairs(4)
        >>> len(pairs), pairs["one above"][1].tolist()
        (10, [1.0, 0.0, 0.0, 0.0])
    """
    m = _validate.integer("m", m, 2)
    h = m // 2
    zero, ones = np.zeros(m), np.ones(m)

    def rest(first, others, last=False):
        q = np.full(m, float(others))
        q[-1 if last else 0] = first
        return q

    return {
        "one below": (zero, rest(-1, 0)),
        "one above": (zero, rest(1, 0)),
        "one above rest below": (zero, rest(1, -1)),
        "one below rest above": (zero, rest(-1, 1)),
        "one above rest below (last)": (zero, rest(1, -1, last=True)),
        "one below rest above (last)": (zero, rest(-1, 1, last=True)),
        "half above half below": (zero, np.r_[np.ones(h), -np.ones(m - h)]),
        "all above": (zero, ones),
        "all below": (zero, -ones),
        "x shape": (np.r_[np.ones(h), np.zeros(m - h)], np.r_[np.zeros(h), np.ones(m - h)]),
    }


def _tops(out) -> np.ndarray:
    answers = np.asarray(out[0])
    return np.stack([first_top(answers), np.count_nonzero(answers == 1, axis=1)], axis=1)


def _bottoms_and_min_value(out) -> np.ndarray:
    """(bottoms, floor of the smallest released value clipped to [-20, 20]; 21 when nothing is released)."""
    answers, values = np.asarray(out[0]), np.asarray(out[1], dtype=float)
    if np.isnan(values).all():  # nothing released (every variant but alg3)
        low = np.full(len(values), 21, dtype=np.int64)
    else:
        released = np.where(np.isfinite(values), values, np.inf).min(axis=1)
        low = np.where(np.isfinite(released), np.clip(np.floor(released), -20, 20), 21).astype(np.int64)
    return np.stack([np.count_nonzero(answers == 0, axis=1), low], axis=1)


def _hamming(out) -> np.ndarray:
    answers = np.asarray(out[0])
    return pattern_distance(answers, answers.shape[1] // 2)


#: Integer codings of an SVT output (answers, values) searched by the audit.
CODINGS = [
    Coding("tops", ("first_top", "tops"), _tops),
    # many bottoms and a low released value: where Alg. 3's loss builds up (its rho is anchored below the value)
    Coding(
        "bottoms and released value",
        ("bottoms", "min_value"),
        _bottoms_and_min_value,
        ops=((">=", "any"), ("<=", "any")),
    ),
    Coding("hamming", ("hamming",), _hamming),
]
