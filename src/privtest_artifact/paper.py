"""The paper's numbered results in the paper's order, and the one parser of a claim's ``source``.

:data:`RESULTS` lists every definition, theorem, lemma, corollary, proposition, remark, table and algorithm of
*Near-Optimal Generalized Private Testing* by its uniform label (``"Thm 21"``, ``"Lemma 24"``, ``"Cor 51"``,
``"Prop 48"``, ``"Table 1"``, ``"Alg 3"``, ``"Def 7"``, ``"Remark 32"``), with its title and section. A result of the
kinds :data:`INDEXED_KINDS` that no claim names has its reason in :data:`UNTESTED`; docs/paper_index.md
(:func:`privtest_artifact.docs.paper_index`) shows both.

:func:`parse_source` reads a claim's ``source`` (``figures/claims.csv``): the paper results it names with their
parts (``"Thm 21 (proof: Lemma 19(1),(3), Lemma 20)"`` names Thm 21, Lemma 19 parts (1) and (3), and Lemma 20), the
sections and equations it cites, and the sources outside the paper (:data:`OUTSIDE`). It refuses a label that is not
a result of the paper (``"Thm 20"``: 20 is a lemma), a second spelling (``"Theorem 21"``, ``"Cor 43/44"``) and a
source that names nothing it knows, so every label in the documents has one spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "INDEXED_KINDS",
    "OUTSIDE",
    "RESULTS",
    "UNTESTED",
    "Ref",
    "Result",
    "Source",
    "by_label",
    "parse_source",
]


@dataclass(frozen=True)
class Result:
    """One numbered result of the paper.

    Attributes:
        label: its uniform label, ``"<kind> <number>"`` with kind one of :data:`KINDS` (``"Thm 21"``).
        title: its title in the paper (a description in brackets where the paper gives none).
        section: the section it is stated in (``"4.1"``, ``"A"`` for the appendix).
    """

    label: str
    title: str
    section: str

    @property
    def kind(self) -> str:
        return self.label.split(" ")[0]

    @property
    def anchor(self) -> str:
        """Its anchor in docs/paper_index.md (``"thm-21"``)."""
        return self.label.lower().replace(" ", "-")


#: The kinds of numbered item, as labels spell them. Definitions, theorems, lemmas, corollaries, propositions and
#: remarks share one counter; tables and algorithms have their own.
KINDS = ("Def", "Thm", "Lemma", "Cor", "Prop", "Remark", "Table", "Alg")
#: The kinds docs/paper_index.md lists one row each (the statements a claim can test; definitions and remarks are
#: cited as context).
INDEXED_KINDS = ("Thm", "Lemma", "Cor", "Prop", "Table", "Alg")

#: Every numbered item of the paper, in the order of the text (Table 1 stands after Theorem 3, Algorithm 1 between
#: Definitions 13 and 14, ...): label, title (a description in brackets where the paper gives none), section.
RESULTS: tuple[Result, ...] = tuple(
    Result(*row)
    for row in (
        ("Def 1", "Generalized private tester", "1.1"),
        ("Def 2", "Accuracy and sample complexity", "1.1"),
        ("Thm 3", "Upper bound (informal)", "1.2"),
        ("Table 1", "Comparison of accuracy and sample complexity", "1.2"),
        ("Thm 4", "Lower bound (informal)", "1.2"),
        ("Def 5", "Ex-post privacy", "1.2"),
        ("Thm 6", "Ex-post setting (informal)", "1.2"),
        ("Table 2", "Theorem 42 applied to batch DP submodular maximisation", "1.3"),
        ("Def 7", "Notation", "2"),
        ("Def 8", "Distributions", "2"),
        ("Def 9", "Differential privacy fundamentals", "2"),
        ("Lemma 10", "Poisson and exponential facts", "2"),
        ("Lemma 11", "Poisson overhead control", "2"),
        ("Lemma 12", "Pareto facts", "2"),
        ("Def 13", "Accuracy", "2"),
        ("Alg 1", "Generalized Thresholding Mechanism (GTM)", "3"),
        ("Def 14", "Execution variables and continuation probability", "3"),
        ("Lemma 15", "Poisson representation and pointwise shifts", "3.1"),
        ("Remark 16", "Asymmetric use of input privacy", "3.1"),
        ("Lemma 17", "Privacy of the generalized thresholding mechanism", "3.1"),
        ("Remark 18", "Sample complexity", "3.1"),
        ("Lemma 19", "Bounding lambda_t", "4"),
        ("Lemma 20", "Parameter selection", "4"),
        ("Thm 21", "Global utility", "4.1"),
        ("Lemma 22", "Sample complexity", "4.1"),
        ("Thm 23", "Ex-post privacy guarantee", "4.2"),
        ("Lemma 24", "Purification", "5"),
        ("Cor 25", "Approximate DP inputs", "5"),
        ("Def 26", "[the distance-d datasets of the lower bounds]", "6"),
        ("Lemma 27", "Acceptance probability propagation", "6"),
        ("Lemma 28", "[error probabilities of one private test]", "6"),
        ("Thm 29", "Lower bound for standard private threshold testers", "6"),
        ("Cor 30", "Lower bound for generalized private testers", "6"),
        ("Thm 31", "Expected sample complexity lower bound", "6.1"),
        ("Remark 32", "Comparison with the amortized upper bound", "6.1"),
        ("Lemma 33", "In-expectation to bounded-error conversion", "7.2"),
        ("Alg 2", "ThresholdSelect", "7.2"),
        ("Lemma 34", "Thresholded private selection (Liu and Talwar, Theorem 3.1)", "7.2"),
        ("Cor 35", "GTM with ExPost parameters", "7.2"),
        ("Alg 3", "Batch-to-Continual-Observation meta-algorithm (BatchToCO)", "7.3"),
        ("Def 36", "Test and scored mechanisms", "7.3"),
        ("Lemma 37", "Properties of the test and scored mechanisms", "7.3"),
        ("Lemma 38", "[privacy of Algorithm 3]", "7.4"),
        ("Lemma 39", "Threshold test accuracy", "7.5"),
        ("Lemma 40", "Checkpoint count", "7.5"),
        ("Lemma 41", "Checkpoint quality", "7.5"),
        ("Thm 42", "Batch-to-Continual-Observation reduction", "7.5"),
        ("Cor 43", "High-probability batch guarantee", "7.5"),
        ("Cor 44", "In-expectation batch guarantee", "7.5"),
        ("Table 3", "Theorem 42 applied to batch DP submodular maximisation", "8.1"),
        ("Def 45", "Private submodular maximization", "8.1"),
        ("Thm 46", "Liu and Talwar (2019), Theorem 4.4, restated", "9.2"),
        ("Alg 4", "Generalized private testing via Cohen et al.", "9.3"),
        ("Thm 47", "[Cohen et al., Theorem 2: privacy of their Test]", "9.3"),
        ("Prop 48", "Accuracy of the mechanism of Cohen et al.", "9.3"),
        ("Remark 49", "Approximate DP inputs", "9.3"),
        ("Lemma 50", "False positive accumulation under shared randomness", "9.3"),
        ("Cor 51", "Error lower bound of Algorithm 4", "9.3"),
        ("Alg 5", "Maximum selection with random dropping (Ghazi et al.)", "9.4"),
        ("Thm 52", "[Ghazi et al., restated]", "9.4"),
        ("Cor 53", "Error lower bound for Algorithm 5 when used for testing", "9.4"),
        ("Lemma 54", "Poisson Chernoff bounds", "A"),
        ("Lemma 55", "Poisson Chernoff bounds, multiplicative form", "A"),
    )
)

_FORMULAS = "checked against hand values and exact tails by tests/test_formulas.py (a unit test, not a claim)"
#: Why no claim names a result of :data:`INDEXED_KINDS` (docs/paper_index.md): a result listed here that a claim names,
#: or one no claim names that is missing here, fails tests/test_paper.py.
UNTESTED: dict[str, str] = {
    "Thm 3": "the informal version of Thm 21 and Cor 25, which are tested",
    "Thm 4": "the informal version of Cor 30 and Thm 31, which are tested",
    "Thm 6": "the informal statement of Thm 23, which is tested",
    "Lemma 10": f"facts the proofs use; the formulas taken from them are {_FORMULAS}",
    "Lemma 11": f"the count threshold c_t it defines is {_FORMULAS}",
    "Lemma 12": "facts the proofs use: Lemma 12(3) in Lemma 22(2)'s proof, which is tested; Lemma 12(2) in a unit test",
    "Alg 1": "the mechanism itself: every claim of Lemma 17, Lemma 20, Thm 21, Lemma 22 and Thm 23 runs it",
    "Lemma 15": "a step of Lemma 17's proof; privtest.exact computes the loss from it, tested as Lemma 17",
    "Lemma 27": "a step of Thm 31's proof; Thm 31 is tested",
    "Lemma 28": "a step of Thm 29's proof; Thm 29 is tested",
    "Lemma 33": "converts an in-expectation batch guarantee; the checks use each run's measured V_A instead",
    "Alg 2": "run by fig_hpo's private selection and inside BatchToCO; its claims name Lemma 34, its guarantee",
    "Lemma 37": "enters BatchToCO's privacy ledger, tested as Lemma 38 (exact)",
    "Lemma 41": "enters Thm 42(2)'s explicit guarantee (privtest.co.params), tested as Thm 42(2)",
    "Alg 5": "run by fig_random_dropping, whose claims name Cor 53, its error lower bound",
    "Thm 52": "the cited selection guarantee; its use for testing, Cor 53, is tested",
    "Lemma 54": "a step of Lemma 22(2)'s proof; Lemma 22(2) is tested",
    "Lemma 55": "a step of the proofs of Lemma 22(1) and Thm 23; both are tested",
}


def by_label() -> dict[str, Result]:
    """:data:`RESULTS` by label."""
    return {r.label: r for r in RESULTS}


#: Sources outside the paper a claim may name, by pattern: what a reader is told they are.
OUTSIDE: dict[str, str] = {
    r"Dwork-Roth Thm 3\.24": "Dwork and Roth (2014), Theorem 3.24: AboveThreshold",
    r"Lyu, Su, Li \(PVLDB 2017\), Fig\. 1": "Lyu, Su and Li (2017): the sparse-vector variants of their Figure 1",
    r"published privacy claim": "the published privacy claim of a baseline",
    r"consistency of privtest\.audit with privtest\.exact": "the artifact's auditor against its exact privacy loss",
    r"privtest\.opendp \(OpenDP [^)]*\)": "OpenDP's private selection (privtest.opendp)",
    r"docs/findings\.md fig_hpo \([^)]*\)": "a comparison on the fig_hpo data, not a claim of the paper",
    # a mechanism of a DP testers' benchmark suite (fig_audit_suites): the suite, its repository at a commit, the file
    r"^StatDP \(cmla-psu/statdp@[0-9a-f]+\): .*$": "a mechanism of StatDP's suite (Ding et al., CCS 2018)",
    r"^DP-Sniper \(eth-sri/dp-sniper@[0-9a-f]+\): .*$": "a mechanism of DP-Sniper's suite (Bichsel et al., S&P 2021)",
    r"^DP-Auditorium \(google/differential-privacy@[0-9a-f]+ .*$": "a mechanism of DP-Auditorium's suite (Google)",
    r"^Delta-Siege \(eth-sri/Delta-Siege@[0-9a-f]+\): .*$": "a floating-point mechanism of Delta-Siege's suite",
}


@dataclass(frozen=True)
class Ref:
    """A paper result named by a claim: its label (``"Lemma 19"``) and the parts named (``("1", "3")``, () for the
    whole result)."""

    label: str
    parts: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.label + ",".join(f"({p})" for p in self.parts)


@dataclass(frozen=True)
class Source:
    """A parsed ``source``: the paper results it names (:class:`Ref`, in the order written), the sections and
    equations it cites (``"Sec. 1.3"``, ``"eq. 25"``), and the outside sources (descriptions of :data:`OUTSIDE`)."""

    refs: tuple[Ref, ...]
    context: tuple[str, ...]
    outside: tuple[str, ...]


_PART = r"\(\d+[a-z]?\)"
_REF = re.compile(
    rf"\b(?P<label>(?:{'|'.join(KINDS)}) \d+)(?![\d.]*\d)(?P<parts>{_PART}(?:\s*[,-]\s*{_PART})*)?",
)
_CONTEXT = re.compile(r"\b(?:Sec\. \d+(?:\.\d+)*|eq\. \d+)")
#: A word that names a result outside a parsed label: a second spelling ("Theorem 21") or a label the patterns do
#: not read ("Cor 43/44" leaves "/44", "Thm21").
_STRAY = re.compile(
    r"\b(?:Thm|Theorem|Lemma|Lem|Cor|Corollary|Prop|Proposition|Table|Alg|Algorithm|Def|Definition|Remark|Sec|Section|"
    r"eq|Eq|Equation|Fig|Figure)\b"
)


def _parts(text: str) -> tuple[str, ...]:
    """``"(2)-(4)"`` -> ("2", "3", "4"); ``"(1),(3)"`` -> ("1", "3")."""
    out: list[str] = []
    for group in re.split(r"\s*,\s*", text):
        ends = re.findall(r"\((\d+[a-z]?)\)", group)
        if len(ends) == 2 and ends[0].isdigit() and ends[1].isdigit():
            out += [str(i) for i in range(int(ends[0]), int(ends[1]) + 1)]
        else:
            out += ends
    return tuple(dict.fromkeys(out))


def parse_source(source: str) -> Source:
    """The paper results, sections, equations and outside sources a claim's ``source`` names.

    Args:
        source: a ``source`` of ``figures/claims.csv`` (e.g. ``"Thm 42(3), Cor 35(3)"``).

    Returns:
        :class:`Source`.

    Raises:
        ValueError: if ``source`` names a label that is not a result of the paper (its number of another kind, or
            beyond the paper's), spells a result another way (``"Theorem 21"``, ``"Cor 43/44"``: outside
            parentheses, the text besides the parsed labels must hold no number, no result word and no ``;``, ``/``
            or ``+``: results are joined by ``", "``), or names neither a result of the paper nor a source of
            :data:`OUTSIDE`.
    """
    known = by_label()
    text, outside = str(source), []
    for pattern, what in OUTSIDE.items():
        if re.search(pattern, text):
            outside.append(what)
            text = re.sub(pattern, " ", text)
    refs = []
    for m in _REF.finditer(text):
        if m["label"] not in known:
            raise ValueError(f"source must name results of the paper (privtest_artifact.paper.RESULTS), got "
                             f"{m['label']!r} in {source!r}")  # fmt: skip
        refs.append(Ref(m["label"], _parts(m["parts"] or "")))
    context = tuple(_CONTEXT.findall(text))
    rest = _CONTEXT.sub(" ", _REF.sub(" ", text))
    outer = rest
    while re.search(r"\([^()]*\)", outer):
        outer = re.sub(r"\([^()]*\)", " ", outer)
    if _STRAY.search(rest) or re.search(r"[\d;/+]", outer):
        raise ValueError(f"source must spell every result as '<kind> <number>(<part>)' with kind in {KINDS}, got "
                         f"{source!r} (left unread: {rest.strip()!r})")  # fmt: skip
    if not refs and not outside:
        raise ValueError(f"source must name a result of the paper or a source of paper.OUTSIDE, got {source!r}")
    return Source(tuple(refs), context, tuple(dict.fromkeys(outside)))
