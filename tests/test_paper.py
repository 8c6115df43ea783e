"""The paper's results (privtest_artifact.paper): the list is in the paper's order, every claim's source parses to
results of the paper (one spelling each) or to a known outside source, and the reasons for untested results match
the committed claims."""

import re
from pathlib import Path

import pandas as pd
import pytest

from privtest_artifact import paper
from privtest_artifact.paper import Ref, parse_source

ROOT = Path(__file__).resolve().parents[1]


def _claims() -> pd.DataFrame:
    return pd.read_csv(ROOT / "figures/claims.csv", dtype=str, keep_default_na=False)


def test_results_are_the_papers_numbered_items_in_order():
    labels = [r.label for r in paper.RESULTS]
    assert len(labels) == len(set(labels))
    # Definitions to Lemma 55 share one counter: 1..55 each once, in increasing order
    shared = [int(lab.split()[1]) for lab in labels if lab.split()[0] not in ("Table", "Alg")]
    assert shared == list(range(1, 56))
    for kind, n in (("Table", 3), ("Alg", 5)):
        assert [int(lab.split()[1]) for lab in labels if lab.startswith(kind)] == list(range(1, n + 1))
    # placed where the text has them: Table 1 after Thm 3, Alg 1 between Def 13 and Def 14, Table 3 after Cor 44
    for before, after in (("Thm 3", "Table 1"), ("Def 13", "Alg 1"), ("Alg 1", "Def 14"), ("Cor 44", "Table 3")):
        assert labels.index(before) + 1 == labels.index(after)
    assert all(r.kind in paper.KINDS and r.title and r.section for r in paper.RESULTS)


@pytest.mark.parametrize(
    "source, refs, context",
    [
        ("Thm 21", [Ref("Thm 21")], ()),
        ("Thm 21 (proof: Lemma 19(1),(3))", [Ref("Thm 21"), Ref("Lemma 19", ("1", "3"))], ()),
        ("Lemma 24(2)-(3)", [Ref("Lemma 24", ("2", "3"))], ()),
        ("Thm 46(2),(4), eq. 25, Cor 30", [Ref("Thm 46", ("2", "4")), Ref("Cor 30")], ("eq. 25",)),
        ("Table 3 vs Thm 42, Cor 43, Cor 44", [Ref("Table 3"), Ref("Thm 42"), Ref("Cor 43"), Ref("Cor 44")], ()),
        ("Thm 42, Cor 43 (eps_batch), Sec. 1.3", [Ref("Thm 42"), Ref("Cor 43")], ("Sec. 1.3",)),
        ("Thm 42 (Table 2 row 2)", [Ref("Thm 42"), Ref("Table 2")], ()),
        ("Thm 31 (beta_II = beta, Remark 32)", [Ref("Thm 31"), Ref("Remark 32")], ()),
    ],
)  # fmt: skip
def test_a_source_names_its_results_with_their_parts(source, refs, context):
    parsed = parse_source(source)
    assert list(parsed.refs) == refs and parsed.context == context and parsed.outside == ()


def test_outside_sources_are_recognised_and_not_read_as_paper_results():
    parsed = parse_source("Dwork-Roth Thm 3.24")  # not the paper's Thm 3
    assert parsed.refs == () and parsed.outside == (paper.OUTSIDE[r"Dwork-Roth Thm 3\.24"],)
    mixed = parse_source("Lemma 34(2), privtest.opendp (OpenDP 0.16.0)")
    assert mixed.refs == (Ref("Lemma 34", ("2",)),) and len(mixed.outside) == 1


@pytest.mark.parametrize(
    "source, message",
    [
        ("Thm 20", "results of the paper"),  # 20 is a lemma
        ("Lemma 56", "results of the paper"),  # beyond the paper
        ("Theorem 21", "spell every result"),  # a second spelling
        ("Cor 43/44", "spell every result"),
        ("Lemma 17 / Thm 21", "spell every result"),  # results are joined by ", "
        ("Thm 21; Lemma 22(1)", "spell every result"),
        ("Cor 25 + Lemma 17", "spell every result"),
        ("Thm21", "spell every result"),
        ("a comparison", "name a result of the paper or a source"),
    ],
)
def test_a_source_in_another_spelling_is_refused(source, message):
    with pytest.raises(ValueError, match=message):
        parse_source(source)


def test_every_committed_claims_source_parses_to_results_of_the_paper():
    claims = _claims()
    known = paper.by_label()
    for source in sorted(set(claims["source"])):
        parsed = parse_source(source)
        assert parsed.refs or parsed.outside, source
        assert all(ref.label in known for ref in parsed.refs), source
    # the labels a reader sees have one spelling: every paper label in a source is "<kind> <number>"
    words = set(
        re.findall(r"\b(Theorem|Corollary|Proposition|Algorithm|Definition|Lem|Thm\.|Cor\.)\b", " ".join(claims.source))
    )
    assert not words  # fmt: skip


def test_the_reasons_for_untested_results_match_the_claims():
    """Every theorem, lemma, corollary, proposition, table and algorithm no committed claim names has a reason in
    paper.UNTESTED, and no result a claim names has one (a stale reason would tell the reader a tested result is
    not tested)."""
    named = {ref.label for s in set(_claims()["source"]) for ref in parse_source(s).refs}
    indexed = {r.label for r in paper.RESULTS if r.kind in paper.INDEXED_KINDS}
    assert set(paper.UNTESTED) <= indexed
    assert set(paper.UNTESTED) == indexed - named
    assert all(reason.strip() for reason in paper.UNTESTED.values())
