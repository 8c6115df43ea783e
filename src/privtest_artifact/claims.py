"""Claim records and the verdict policy: one row of ``figures/claims.csv`` per checked statement of the paper.

Verdict kinds, one meaning each (:data:`VERDICTS`):

- ``PASS``: the statement holds. Exact computation, or the data establish it: every cell's one-sided confidence
  limit at level :data:`PASS_CONFIDENCE` (97.5%, the end of the usual two-sided 95% interval) lies on the statement's
  side of the bound.
- ``FAIL``: the statement is contradicted. Exact computation, or the data refute it under the family-wise policy
  below. A FAIL accuses the paper (or this code) of an error.
- ``INCONCLUSIVE``: the sample is too small to decide; the note says how many runs would resolve it (at the
  observed rate), or that more runs cannot and why (e.g. a :class:`Bracket` on the wrong side of its bound: a
  bracket cannot refute).
- ``VACUOUS``: the bound is not binding on this input (e.g. a utility guarantee that is negative, so the statement
  cannot fail); the note gives the bound's value.
- ``ERRATUM``: the paper's statement (the claim's ``statement``, as printed) is contradicted, and the contradiction
  is recorded in ``ERRATA.md``; the note names the entry. Decided like a FAIL.

Identities of our own code that cannot fail are unit tests, not claims. A claim whose check can never reach FAIL by
design (e.g. the privacy audit's ``flags_broken``: it tests the auditor's power, not the paper) says so: its statement
or note contains :data:`CANNOT_FAIL` followed by the reason (docs/claims.md lists these claims and why).

**Zero standard error** is not exactness: a :class:`Normal` cell with se == 0 (all runs identical, or one run) is
decided by a test valid for a quantity bounded in its ``span`` (:class:`Normal`), so a single run is INCONCLUSIVE
with the runs that would resolve it; an exact number without sampling error is :func:`exact`.

**Error policy** (:func:`decide`, the one place where statistical verdicts are made). A statistical claim carries its
evidence (:class:`Binomial` counts k/n, or a :class:`Normal` mean and standard error) and the bound's direction.
FAIL/ERRATUM is decided by Holm's step-down procedure over all statistical cells of one output at level
``alpha_out = FILE_ALPHA / (number of outputs in the catalogue)`` (:func:`family_alpha`): the probability that an
output shows any false FAIL is <= alpha_out whatever the true values, so by the union bound the probability that
``figures/claims.csv`` contains any false FAIL is <= FILE_ALPHA = 5%. PASS is decided per claim (97.5% one-sided).
The asymmetry is deliberate: a FAIL is an accusation read on its own, so the whole file's false-FAIL probability is
controlled; a false PASS needs a statement that is actually false, and then it occurs with probability <= 2.5% for
that statement, so the file's false-PASS probability is <= 2.5% times the number of false statements (zero if the
paper is right) -- controlling it family-wise as well would turn resolved claims into INCONCLUSIVE ones without
protecting against anything more likely. A claim over several cells is FAIL if any cell is rejected, PASS if every
cell is established, INCONCLUSIVE otherwise.

A :class:`Claim` does not know which output it belongs to: :func:`to_frame` decides the pending claims of one output
and stamps its id.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

COLUMNS = ["claim_id", "source", "statement", "experiment", "measured", "bound", "verdict", "note"]
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "VACUOUS", "ERRATUM")
#: Probability that the whole claims file contains any false FAIL (union bound over outputs, Holm within each).
FILE_ALPHA = 0.05
#: One-sided confidence a PASS needs per claim (= the upper/lower end of a two-sided 95% interval).
PASS_CONFIDENCE = 0.975
#: Required note content per kind (checked by :class:`Claim`); the builders write these phrases.
NOTE_PATTERNS = {
    "INCONCLUSIVE": re.compile(r"(\d[\d.e+]*|more than [\d.e+]+) runs would resolve|more runs cannot resolve it: \S"),
    "VACUOUS": re.compile(r"not binding on this input: its value here is [-+]?(\d|inf|nan)"),
    "ERRATUM": re.compile(r'ERRATA\.md entry "[^"]+"'),
}
_MAX_RUNS = 1e15
#: A Normal standard error at most this fraction of |mean| is the rounding noise of identical values: se = 0.
_SE_ROUNDING = 1e-12
#: Phrase that a claim whose check can never reach FAIL carries in its statement or note, followed by the reason.
CANNOT_FAIL = "cannot be FAIL by design:"


def family_alpha(n_outputs: int) -> float:
    """Holm level of one output: FILE_ALPHA / n_outputs (Bonferroni over the catalogue's outputs).

    Raises:
        ValueError: if ``n_outputs`` is not a positive integer.
    """
    if isinstance(n_outputs, bool) or not isinstance(n_outputs, int | np.integer) or n_outputs < 1:
        raise ValueError(f"n_outputs must be a positive integer. Found {n_outputs!r}.")
    return FILE_ALPHA / int(n_outputs)


def _interval(direction: str, bound) -> tuple[float, float]:
    """The statement 'lo <= quantity <= hi' for direction at_most (bound), at_least (bound) or within (lo, hi)."""
    if direction == "at_most":
        return -math.inf, float(bound)
    if direction == "at_least":
        return float(bound), math.inf
    if direction == "within":
        lo, hi = (float(b) for b in bound)
        if not lo <= hi:
            raise ValueError(f"bound must be (lo, hi) with lo <= hi for direction 'within'. Found {bound!r}.")
        return lo, hi
    raise ValueError(f"direction must be one of ('at_most', 'at_least', 'within'). Found {direction!r}.")


@dataclass(frozen=True)
class _Evidence:
    """Common part of the evidence types: the statement is lo <= quantity <= hi (:func:`_interval`)."""

    def _bounds(self) -> tuple[float, float]:
        return _interval(self.direction, self.bound)

    def p_against(self) -> float:
        """p-value of the data against the statement (small: the statement is refuted). Valid: under any value
        of the quantity satisfying the statement, Pr[p_against <= a] <= a."""
        lo, hi = self._bounds()
        p_hi = self._upper_tail(hi) if math.isfinite(hi) else 1.0
        p_lo = self._lower_tail(lo) if math.isfinite(lo) else 1.0
        if math.isfinite(lo) and math.isfinite(hi):
            return min(1.0, 2.0 * min(p_hi, p_lo))
        return min(p_hi, p_lo)

    def p_for(self) -> float:
        """p-value of the data against the statement's negation (small: the statement is established); for
        'within' the larger of the two one-sided p-values (two one-sided tests)."""
        lo, hi = self._bounds()
        p = 0.0
        if math.isfinite(hi):
            p = max(p, self._lower_tail(hi))
        if math.isfinite(lo):
            p = max(p, self._upper_tail(lo))
        return p

    def established(self) -> bool:
        return self.p_for() <= 1.0 - PASS_CONFIDENCE

    def unresolvable(self) -> str:
        """Why no number of runs would resolve this cell ("" if more runs could)."""
        return ""

    def runs_needed(self, level_against: float) -> float:
        """Runs that would resolve this cell if the observed estimate held: to establish the statement when the
        estimate satisfies it, to refute it at ``level_against`` otherwise; inf if the estimate is on the bound."""
        lo, hi = self._bounds()
        est = self.estimate()
        if lo < est < hi:

            def ok(n):
                return self.scaled(n).established()

        elif est > hi or est < lo:

            def ok(n):
                return self.scaled(n).p_against() <= level_against

        else:
            return math.inf
        n0 = float(self.runs)
        hi_n = n0
        while not ok(hi_n):
            hi_n *= 2.0
            if hi_n > _MAX_RUNS:
                return math.inf
        lo_n = hi_n / 2.0
        while hi_n / lo_n > 1.01:
            mid = math.sqrt(lo_n * hi_n)
            lo_n, hi_n = (lo_n, mid) if ok(mid) else (mid, hi_n)
        return max(hi_n, n0)


@dataclass(frozen=True)
class Binomial(_Evidence):
    """k events in n independent runs; the statement is about their probability.

    Attributes:
        k: events, 0 <= k <= n.
        n: runs, >= 1.
        k_low: when the count is only bracketed, k_low <= true count <= k (e.g. events judged at a confidence
            bracket of an unknown quantity): a statement is established with the bracket end against it and refuted
            with the end in its favour. None (default): k_low = k.
        direction: "at_most" (probability <= bound), "at_least" (>= bound) or "within" (bound = (lo, hi)).
        bound: float in [0, 1], or (lo, hi) for "within".
        cell: optional label of the cell (for claims over several cells).

    Raises:
        ValueError: if the counts or the bound are out of range.
    """

    k: float
    n: float
    direction: str
    bound: object
    cell: str = ""
    k_low: float | None = None

    def __post_init__(self):
        k_low = self.k if self.k_low is None else self.k_low
        if not (self.n > 0 and 0 <= k_low <= self.k <= self.n):
            raise ValueError(
                f"Binomial needs 0 <= k_low <= k <= n and n > 0. Found k={self.k!r}, k_low={self.k_low!r}, "
                f"n={self.n!r}."
            )
        lo, hi = self._bounds()
        if not (lo <= 1 and hi >= 0):
            raise ValueError(f"bound must lie in [0, 1]. Found {self.bound!r}.")

    @property
    def runs(self) -> float:
        return float(self.n)

    def estimate(self) -> float:
        return self.k / self.n

    def scaled(self, n: float) -> Binomial:
        k_low = None if self.k_low is None else self.k_low / self.n * n
        return dataclasses.replace(self, k=self.estimate() * n, n=n, k_low=k_low)

    def _upper_tail(self, p: float) -> float:
        """Pr[X >= k_low] for X ~ Bin(n, p) (continuous in k through the regularized incomplete beta function)."""
        k = self.k if self.k_low is None else self.k_low
        if k <= 0 or p >= 1:
            return 1.0
        if p <= 0:
            return 0.0
        return float(special.betainc(k, self.n - k + 1, p))

    def _lower_tail(self, p: float) -> float:
        """Pr[X <= k] for X ~ Bin(n, p)."""
        if self.k >= self.n or p <= 0:
            return 1.0
        if p >= 1:
            return 0.0
        return float(special.betainc(self.n - self.k, self.k + 1, 1 - p))


@dataclass(frozen=True)
class Normal(_Evidence):
    """A mean over n independent runs with standard error se (normal approximation, e.g. mean evaluations per step).

    A zero standard error (all n runs gave the same value v, or a single run whose spread is unknown) is not treated
    as exact: the cell is then decided by the bounded-range test, which needs ``span``, the a-priori range [lo, hi]
    of the quantity in one run (e.g. (0, 1) for a rate or f/OPT, (-1, 1) for a difference of two such). For the
    statement "mean <= b" with v <= b: Pr[all n runs <= v | mean > b] <= ((hi - b) / (hi - v))**n (Markov's
    inequality for hi - X >= 0, :meth:`_lower_tail`), symmetrically with lo for "mean >= b" and for a refutation
    (:meth:`_upper_tail`); a "within" statement takes the larger of its two one-sided p-values as usual. A single
    run (n = 1) is therefore INCONCLUSIVE (unless hi - b <= 2.5% of hi - v, a bound at the very end of the span),
    with the runs that would resolve it from the same formula. A genuinely exact number (no sampling) is
    :func:`exact`, not Normal(se=0).

    Attributes:
        mean: the estimate.
        se: its standard error (>= 0; 0 = all runs identical, decided by the bounded-range test on ``span``; an se
            <= 1e-12 |mean|, the rounding noise of the spread of identical values, counts as 0).
        n: runs the mean is over (>= 1; used to say how many runs would resolve the claim, se ~ 1/sqrt(n)).
        direction, bound, cell: as in :class:`Binomial` (bound any real, or (lo, hi)).
        span: (lo, hi), lo < hi, the range of the quantity in one run (an end may be infinite, e.g. (0, inf) for
            evaluations per step: the test then cannot use that side); required when se == 0, and the mean must lie
            in it. None (default): no a-priori range (only valid with se > 0).

    Raises:
        ValueError: if se < 0, n < 1 or a value is not finite; if se == 0 and span is None ("se=0 needs
            span=(lo, hi)"); if span is not (lo, hi) with lo < hi finite, or the mean lies outside it.
    """

    mean: float
    se: float
    n: float
    direction: str
    bound: object
    cell: str = ""
    span: tuple[float, float] | None = None

    def __post_init__(self):
        if not (math.isfinite(self.mean) and math.isfinite(self.se) and self.se >= 0 and self.n >= 1):
            raise ValueError(
                f"Normal needs a finite mean, se >= 0 and n >= 1. Found mean={self.mean!r}, se={self.se!r}, "
                f"n={self.n!r}."
            )
        self._bounds()
        if self.se <= _SE_ROUNDING * abs(self.mean):  # identical values: their computed spread is rounding noise
            object.__setattr__(self, "se", 0.0)
        if self.span is not None:
            try:
                lo, hi = (float(x) for x in self.span)
            except (TypeError, ValueError):
                raise ValueError(f"span must be (lo, hi) with lo < hi. Found {self.span!r}.") from None
            if not lo < hi:
                raise ValueError(f"span must be (lo, hi) with lo < hi (an end may be infinite). Found {self.span!r}.")
            slack = 1e-9 * (hi - lo) if math.isfinite(hi - lo) else 0.0
            if not lo - slack <= self.mean <= hi + slack:
                raise ValueError(
                    f"Normal{self._label()}: the mean must lie in span = {self.span!r}. Found mean={self.mean!r}."
                )
            object.__setattr__(self, "span", (lo, hi))
        elif self.se == 0:
            raise ValueError(
                f"se=0 needs span=(lo, hi), the quantity's a-priori range per run, for the bounded-range test "
                f"(a genuinely exact number is claims.exact){self._label()}: mean={self.mean!r}, n={self.n!r}, "
                f"{self.direction} {self.bound!r}."
            )

    def _label(self) -> str:
        return f" [cell {self.cell!r}]" if self.cell else ""

    def unresolvable(self) -> str:
        """Non-empty when se == 0 and the span end the bounded-range test needs is infinite (e.g. identical
        evaluation counts below a lower bound: a count has no a-priori upper end): identical values can then never
        decide the cell, only runs that differ (se > 0) could."""
        if self.se > 0:
            return ""
        lo, hi = self._bounds()
        v, (s_lo, s_hi) = self.mean, self.span
        ends = set()
        if lo < v < hi:  # to establish: hi needs the span's upper end, lo its lower end
            ends |= {"upper"} if math.isfinite(hi) and not math.isfinite(s_hi) else set()
            ends |= {"lower"} if math.isfinite(lo) and not math.isfinite(s_lo) else set()
        elif v > hi and not math.isfinite(s_lo):  # to refute "<= hi" from above
            ends.add("lower")
        elif v < lo and not math.isfinite(s_hi):  # to refute ">= lo" from below
            ends.add("upper")
        if not ends:
            return ""
        return (
            f"all {fmt(self.n)} runs gave {fmt(v)} and the quantity has no a-priori {' or '.join(sorted(ends))} end "
            f"(span {self.span}), so identical values cannot decide it; only runs that differ (a standard error > 0) "
            "could"
        )

    @property
    def runs(self) -> float:
        return float(self.n)

    def estimate(self) -> float:
        return self.mean

    def scaled(self, n: float) -> Normal:
        return dataclasses.replace(self, se=self.se * math.sqrt(self.n / n), n=n)

    def _upper_tail(self, b: float) -> float:
        """Pr[mean' >= mean] when the true value is b. With se == 0 (all runs = v): Pr[all n runs >= v | true
        mean <= b] <= ((b - lo) / (v - lo))**n for lo <= b < v (Markov for X - lo >= 0), 1 if v <= b."""
        if self.se > 0:
            return float(special.ndtr(-((self.mean - b) / self.se)))  # scipy.stats.norm.sf, without its slow import
        lo, _ = self.span
        v = self.mean
        if v <= b:
            return 1.0
        if b <= lo:
            return 0.0
        if not math.isfinite(lo):
            return 1.0
        return float(((b - lo) / (v - lo)) ** self.n)

    def _lower_tail(self, b: float) -> float:
        """Pr[mean' <= mean] when the true value is b. With se == 0 (all runs = v): Pr[all n runs <= v | true
        mean >= b] <= ((hi - b) / (hi - v))**n for v < b <= hi (Markov for hi - X >= 0), 1 if v >= b."""
        if self.se > 0:
            return float(special.ndtr((self.mean - b) / self.se))
        _, hi = self.span
        v = self.mean
        if v >= b:
            return 1.0
        if b >= hi:
            return 0.0
        if not math.isfinite(hi):
            return 1.0
        return float(((hi - b) / (hi - v)) ** self.n)


@dataclass(frozen=True)
class Bracket(_Evidence):
    """A quantity known only to lie in [lo, hi], each end a one-sided confidence limit at level ``confidence`` (e.g. a
    ratio of two measured thresholds). Established iff the whole bracket is on the statement's side; it can refute
    only at its own fixed level 1 - confidence (p_against), which Holm's thresholds never reach for confidence
    <= 0.99 and a catalogue of more than two outputs: a bracket alone yields PASS or INCONCLUSIVE, never FAIL.

    Attributes:
        lo, hi: the bracket, lo <= hi.
        confidence: one-sided level of each end, in (0, 1).
        n: runs behind the bracket (its width is taken to shrink like 1/sqrt(n) to say how many would resolve it).
        direction, bound, cell: as in :class:`Binomial`.

    Raises:
        ValueError: if lo > hi, confidence is outside (0, 1) or n < 1.
    """

    lo: float
    hi: float
    confidence: float
    n: float
    direction: str
    bound: object
    cell: str = ""

    def __post_init__(self):
        if not (self.lo <= self.hi and 0 < self.confidence < 1 and self.n >= 1):
            raise ValueError(
                f"Bracket needs lo <= hi, confidence in (0, 1) and n >= 1. Found lo={self.lo!r}, hi={self.hi!r}, "
                f"confidence={self.confidence!r}, n={self.n!r}."
            )
        self._bounds()

    @property
    def runs(self) -> float:
        return float(self.n)

    def estimate(self) -> float:
        return 0.5 * (self.lo + self.hi)

    def established(self) -> bool:
        lo, hi = self._bounds()
        return lo <= self.lo and self.hi <= hi

    def p_against(self) -> float:
        lo, hi = self._bounds()
        return 1.0 - self.confidence if (self.hi < lo or self.lo > hi) else 1.0

    def p_for(self) -> float:
        return 1.0 - self.confidence if self.established() else 1.0

    def unresolvable(self) -> str:
        """Non-empty when the bracket's centre is not strictly inside the statement's interval: more runs would only
        narrow the bracket on the wrong side (or onto the bound), and a bracket cannot refute (p_against is fixed at
        1 - confidence), so the claim stays INCONCLUSIVE."""
        lo, hi = self._bounds()
        if lo < self.estimate() < hi:
            return ""
        return (
            f"a bracket cannot refute (its level {fmt(1.0 - self.confidence)} against the statement is fixed, above "
            "Holm's thresholds) and this one is centred on or beyond the bound; only a direct measurement of the "
            "quantity could decide it"
        )

    def runs_needed(self, level_against: float) -> float:
        """Runs that would establish the statement if the bracket's centre held and its width shrank like
        1/sqrt(n); inf if the centre is not strictly inside the statement's interval (:meth:`unresolvable`)."""
        lo, hi = self._bounds()
        c, hw = self.estimate(), 0.5 * (self.hi - self.lo)
        if self.unresolvable():
            return math.inf
        return max(self.n, self.n * (hw / min(c - lo, hi - c)) ** 2)


Evidence = Binomial | Normal | Bracket


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One checked claim, built with keyword arguments only (prefer the builders :func:`exact`, :func:`statistical`,
    :func:`vacuous`, :func:`inconclusive`).

    Attributes:
        claim_id: stable identifier (``<topic>.<check>[<cell>]``).
        source: the paper's theorem/lemma the claim comes from.
        statement: what is checked, in words (for an erratum: the paper's statement as printed).
        measured, bound: human-readable numbers (strings).
        verdict: one of :data:`VERDICTS`, or "" for a statistical claim whose verdict :func:`decide` makes.
        note: context; must contain the kind's required content (:data:`NOTE_PATTERNS`).
        evidence: the statistical cells (:class:`Binomial`, :class:`Normal`, :class:`Bracket`) of a statistical
            claim.
        erratum: title of the ERRATA.md entry recording that the statement is wrong (a refutation is then ERRATUM).

    Raises:
        ValueError: if ``verdict`` is not one of :data:`VERDICTS` (or "" with evidence), if the note lacks the kind's
            required content, if an ERRATUM names no entry, or if a claim with a recorded erratum is marked FAIL.
    """

    claim_id: str
    source: str
    statement: str
    measured: str
    bound: str
    verdict: str = ""
    note: str = ""
    evidence: tuple = ()
    erratum: str = ""

    def __post_init__(self):
        if self.verdict == "" and not self.evidence:
            raise ValueError(f"{self.claim_id}: verdict must be one of {VERDICTS} (or '' with evidence). Found ''.")
        if self.verdict not in (*VERDICTS, ""):
            raise ValueError(f"{self.claim_id}: verdict must be one of {VERDICTS}. Found {self.verdict!r}.")
        for ev in self.evidence:
            if not isinstance(ev, Binomial | Normal | Bracket):
                raise ValueError(f"{self.claim_id}: evidence must be Binomial, Normal or Bracket. Found {ev!r}.")
        pattern = NOTE_PATTERNS.get(self.verdict)
        if pattern is not None and not pattern.search(self.note):
            raise ValueError(
                f"{self.claim_id}: a {self.verdict} note must match {pattern.pattern!r}. Found {self.note!r}."
            )
        if self.verdict == "ERRATUM" and f'ERRATA.md entry "{self.erratum}"' not in self.note:
            raise ValueError(f"{self.claim_id}: an ERRATUM must name its ERRATA.md entry (erratum=...).")
        if self.verdict == "FAIL" and self.erratum:
            raise ValueError(f"{self.claim_id}: a refuted recorded erratum is ERRATUM, not FAIL.")
        if self.verdict == "VACUOUS" and self.evidence:
            raise ValueError(f"{self.claim_id}: a VACUOUS claim is not decided from evidence.")


def _erratum_note(entry: str, note: str) -> str:
    return f'the paper\'s statement is contradicted, ERRATA.md entry "{entry}". {note}'.strip()


def exact(
    *, claim_id: str, source: str, statement: str, measured: str, bound: str, ok: bool, note: str = "", erratum=""
) -> Claim:
    """A deterministic check (exact computation, no sampling error): PASS if ``ok``, else FAIL, or ERRATUM when the
    statement is a recorded erratum (``erratum`` = its ERRATA.md entry title)."""
    ok = bool(ok)
    if ok:
        verdict = "PASS"
    elif erratum:
        verdict, note = "ERRATUM", _erratum_note(erratum, note)
    else:
        verdict = "FAIL"
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=measured,
        bound=bound,
        verdict=verdict,
        note=note,
        erratum=erratum,
    )


def statistical(
    *,
    claim_id: str,
    source: str,
    statement: str,
    measured: str,
    bound: str,
    evidence: Evidence | Sequence[Evidence],
    note: str = "",
    erratum: str = "",
) -> Claim:
    """A claim decided from data by :func:`decide` (verdict pending until then). ``evidence``: one cell or several
    (the claim holds iff it holds in every cell)."""
    cells = (evidence,) if isinstance(evidence, Binomial | Normal | Bracket) else tuple(evidence)
    if not cells:
        raise ValueError(f"{claim_id}: a statistical claim needs at least one evidence cell.")
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=measured,
        bound=bound,
        note=note,
        evidence=cells,
        erratum=erratum,
    )


def vacuous(*, claim_id: str, source: str, statement: str, measured: str, bound: str, value, note: str = "") -> Claim:
    """The bound is not binding on this input (the statement cannot fail here); ``value``: the bound's value."""
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=measured,
        bound=bound,
        verdict="VACUOUS",
        note=f"not binding on this input: its value here is {fmt(float(value))}. {note}".strip(),
    )


def runs_text(runs: float, now: float, reason: str = "") -> str:
    """'N runs would resolve it (now n)', the INCONCLUSIVE note's required content; with ``reason`` (runs must then
    be inf): 'more runs cannot resolve it: <reason> (now n)'."""
    if reason:
        if math.isfinite(runs):
            raise ValueError(f"runs must be inf when a reason why more runs cannot resolve is given. Found {runs!r}.")
        return f"more runs cannot resolve it: {reason} (now {fmt(now)})"
    if not math.isfinite(runs):
        return f"more than {_MAX_RUNS:.0e} runs would resolve it at the observed rate (now {fmt(now)})"
    r = _round_up(runs)
    return f"{math.ceil(r) if r < 1e6 else f'{r:.2g}'} runs would resolve it at the observed rate (now {fmt(now)})"


def _round_up(x: float) -> float:
    """Round up to two significant digits."""
    e = math.floor(math.log10(x)) - 1
    return math.ceil(x / 10**e) * 10**e


def inconclusive(
    *,
    claim_id: str,
    source: str,
    statement: str,
    measured: str,
    bound: str,
    runs: float,
    now: float,
    note: str = "",
    reason: str = "",
) -> Claim:
    """The sample is too small: ``runs`` (if the observed estimate held) would resolve it; ``now`` runs were made.
    ``reason`` (with runs = inf): why more runs cannot resolve it (:func:`runs_text`)."""
    return Claim(
        claim_id=claim_id,
        source=source,
        statement=statement,
        measured=measured,
        bound=bound,
        verdict="INCONCLUSIVE",
        note=f"{runs_text(runs, now, reason)}. {note}".strip(),
    )


def holm(p_values: Sequence[float], alpha: float) -> np.ndarray:
    """Holm's step-down procedure: boolean array, True where the hypothesis is rejected. Controls the probability of
    any false rejection at ``alpha`` under arbitrary dependence.

    Raises:
        ValueError: if alpha is not in (0, 1).
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1). Found {alpha!r}.")
    p = np.asarray(p_values, dtype=float)
    m = p.size
    reject = np.zeros(m, dtype=bool)
    for j, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > alpha / (m - j):
            break
        reject[i] = True
    return reject


def decide(claims: Sequence[Claim], alpha: float) -> list[Claim]:
    """Verdicts of the pending statistical claims of one output (the policy of the module docstring).

    Args:
        claims: the output's claims; those with a verdict already are returned unchanged.
        alpha: the output's family-wise level for FAIL/ERRATUM (:func:`family_alpha`), in (0, 1).

    Returns:
        The claims in the same order, every verdict decided (PASS, FAIL, ERRATUM or INCONCLUSIVE with the runs that
        would resolve it).
    """
    pending = [c for c in claims if c.verdict == ""]
    cells = [ev for c in pending for ev in c.evidence]
    m = len(cells)
    rejected = dict(zip(map(id, cells), holm([ev.p_against() for ev in cells], alpha), strict=True)) if m else {}
    out = []
    for c in claims:
        if c.verdict:
            out.append(c)
            continue
        bad = [ev for ev in c.evidence if rejected[id(ev)]]
        if bad:
            p = min(ev.p_against() for ev in bad)
            why = f"refuted at family-wise level {fmt(alpha)} (Holm over {m} cells; p = {fmt(p)})"
            if c.erratum:
                out.append(dataclasses.replace(c, verdict="ERRATUM", note=_erratum_note(c.erratum, f"{why}. {c.note}")))
            else:
                out.append(dataclasses.replace(c, verdict="FAIL", note=f"{why}. {c.note}".strip()))
        elif all(ev.established() for ev in c.evidence):
            out.append(dataclasses.replace(c, verdict="PASS"))
        else:
            open_cells = [ev for ev in c.evidence if not ev.established()]
            runs = max(ev.runs_needed(alpha / m) for ev in open_cells)
            now = max(ev.runs for ev in open_cells)
            reason = next((r for ev in open_cells if (r := ev.unresolvable())), "")
            text = runs_text(runs, now, reason)
            out.append(dataclasses.replace(c, verdict="INCONCLUSIVE", note=f"{text}. {c.note}".strip()))
    return out


def to_frame(claims: Sequence[Claim], experiment: str, alpha: float | None = None) -> pd.DataFrame:
    """Claims of output ``experiment`` (its catalogue id, e.g. "fig_oc"), pending ones decided at ``alpha``
    (:func:`decide`), as a DataFrame with exactly :data:`COLUMNS`.

    Raises:
        ValueError: if ``experiment`` is empty, or if a claim is pending and ``alpha`` is None.
    """
    if not isinstance(experiment, str) or not experiment:
        raise ValueError(f"experiment must be a non-empty output id. Found {experiment!r}.")
    if any(c.verdict == "" for c in claims):
        if alpha is None:
            raise ValueError("alpha (the output's family-wise level, family_alpha(n_outputs)) is needed to decide.")
        claims = decide(claims, alpha)
    rows = [
        dict(
            claim_id=c.claim_id,
            source=c.source,
            statement=c.statement,
            experiment=experiment,
            measured=c.measured,
            bound=c.bound,
            verdict=c.verdict,
            note=c.note,
        )
        for c in claims
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


def fmt(x: float, digits: int = 4) -> str:
    """Compact number formatting for claim rows."""
    return f"{x:.{digits}g}"
