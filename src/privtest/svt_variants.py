"""The six sparse-vector (SVT) variants compared by Lyu, Su and Li, "Understanding the Sparse Vector Technique for
Differential Privacy" (PVLDB 10(6), 2017, Figure 1): known test mechanisms for the black-box auditor
(:mod:`privtest.audit`). Several published variants are not eps-DP although they claim to be.

All take sensitivity-Delta queries q_1..q_m (answers on one dataset), a public threshold T, a cutoff c and a claimed
eps, and answer top (1) / bottom (0) per query (-1 after the cutoff aborts); Alg. 3 also releases q_i + nu_i.

============  ============================================================  ==========================  =============
variant       noise                                                         after the c-th top          actual privacy
============  ============================================================  ==========================  =============
``alg1``      rho ~ Lap(Delta/eps1), nu_i ~ Lap(2c Delta/eps2), eps1=eps/2  abort                       eps
``alg2``      rho ~ Lap(c Delta/eps1), nu_i ~ Lap(2c Delta/eps1), eps1=eps/2; rho redrawn after a top     eps
``alg3``      rho ~ Lap(Delta/eps1), nu_i ~ Lap(c Delta/eps2); releases q_i+nu_i  abort                  infinite
``alg4``      rho ~ Lap(Delta/eps1), nu_i ~ Lap(Delta/eps2), eps1 = eps/4   abort                       (1+6c)/4 eps
``alg5``      rho ~ Lap(Delta/eps1), no query noise                         never aborts                infinite
``alg6``      rho ~ Lap(Delta/eps1), nu_i ~ Lap(Delta/eps2)                 never aborts                infinite
============  ============================================================  ==========================  =============

(eps2 = eps - eps1.) Alg. 1 with c = 1 is AboveThreshold with eps1 = eps2 = eps/2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from privtest import _validate

#: variant -> (privacy is as claimed, actual privacy for cutoff c and claimed eps (inf = unbounded)).
PRIVATE = {"alg1": True, "alg2": True, "alg3": False, "alg4": False, "alg5": False, "alg6": False}


def actual_epsilon(variant: str, eps: float, c: int) -> float:
    """The privacy each variant really has (Lyu et al. 2017, Figure 1)."""
    return {"alg1": eps, "alg2": eps, "alg4": (1 + 6 * c) / 4 * eps}.get(variant, np.inf)


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
        ValueError: on an unknown variant or a parameter out of range.
    """

    variant: str
    eps: float
    threshold: float = 0.0
    c: int = 1
    sensitivity: float = 1.0

    def __post_init__(self):
        if self.variant not in PRIVATE:
            raise ValueError(f"variant must be one of {sorted(PRIVATE)}. Found {self.variant!r}.")
        _validate.positive("eps", self.eps)
        _validate.finite("threshold", self.threshold)
        _validate.positive("sensitivity", self.sensitivity)
        _validate.step_index(self.c, "c")

    def run(self, queries, n: int, rng: np.random.Generator):
        """n independent runs on query answers ``queries`` (shape (m,)).

        Returns:
            (answers, values): int8 array (n, m) with 1 (top), 0 (bottom), -1 (aborted), and float array (n, m) of the
            released noisy answers (Alg. 3 only; NaN elsewhere).
        """
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
        answers = np.full((n, m), -1, dtype=np.int8)
        values = np.full((n, m), np.nan)
        tops = np.zeros(n, dtype=np.int64)
        for i in range(m):
            active = tops < c if cutoff else np.ones(n, dtype=bool)
            nu = rng.laplace(0.0, nu_scale, n) if nu_scale > 0 else np.zeros(n)
            top = q[i] + nu >= self.threshold + rho
            answers[active, i] = top[active].astype(np.int8)
            hit = active & top
            if v == "alg3":
                values[hit, i] = q[i] + nu[hit]
            if v == "alg2":  # Dwork-Roth: a fresh threshold noise after every top
                rho[hit] = rng.laplace(0.0, c * D / eps2, int(np.count_nonzero(hit)))
            tops += hit
        return answers, values


def first_top(answers) -> np.ndarray:
    """Integer code: 1-based index of the first top, 0 if none (the halting step of a c = 1 SVT)."""
    answers = np.asarray(answers)
    top = answers == 1
    return np.where(top.any(axis=1), top.argmax(axis=1) + 1, 0).astype(np.int64)


def pattern_distance(answers, k: int) -> np.ndarray:
    """Integer code: Hamming distance of the top/bottom vector (aborted = bottom) to top^k bottom^(m-k)."""
    answers = np.asarray(answers)
    target = np.zeros(answers.shape[1], dtype=bool)
    target[:k] = True
    return np.count_nonzero((answers == 1) != target[None, :], axis=1).astype(np.int64)


def first_top_low_value(answers, values, cut: float) -> np.ndarray:
    """Integer code for Alg. 3: first-top index, plus 1000 when the released value at that top is <= ``cut``."""
    pos = first_top(answers)
    rows = np.flatnonzero(pos > 0)
    low = np.zeros(len(pos), dtype=bool)
    low[rows] = values[rows, pos[rows] - 1] <= cut
    return pos + 1000 * low
