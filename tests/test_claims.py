"""The verdict kinds and the error policy of privtest_artifact.claims: note contents enforced, builders, Holm's
family-wise control simulated at the bound (seeded; tolerances from Clopper-Pearson intervals at ALPHA), PASS at its
per-claim level, the runs an INCONCLUSIVE note asks for, and the ERRATA.md entries the checks name."""

import importlib
import math
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import binom_interval

import privtest_artifact.outputs
from privtest_artifact import claims as C

ROOT = Path(__file__).resolve().parents[1]
TEXT = dict(claim_id="x.y", source="Thm 0", statement="s", measured="m", bound="b")


def test_each_kind_requires_its_note():
    with pytest.raises(ValueError, match="runs would resolve"):
        C.Claim(**TEXT, verdict="INCONCLUSIVE", note="too few runs")
    with pytest.raises(ValueError, match="not binding"):
        C.Claim(**TEXT, verdict="VACUOUS", note="negative guarantee")
    with pytest.raises(ValueError, match="ERRATA"):
        C.Claim(**TEXT, verdict="ERRATUM", note="see the errata")
    with pytest.raises(ValueError, match="ERRATA.md entry"):  # names an entry, but not the claim's own
        C.Claim(**TEXT, verdict="ERRATUM", note='ERRATA.md entry "other"', erratum="mine")
    with pytest.raises(ValueError, match="not FAIL"):
        C.Claim(**TEXT, verdict="FAIL", erratum="mine")
    with pytest.raises(ValueError, match="one of"):
        C.Claim(**TEXT, verdict="OK")
    with pytest.raises(ValueError, match="with evidence"):
        C.Claim(**TEXT)  # pending without evidence
    with pytest.raises(ValueError, match="evidence must be"):
        C.Claim(**TEXT, evidence=((3, 10),))
    # the builders write what the kinds require
    assert C.inconclusive(**TEXT, runs=219.2, now=24).note.startswith("220 runs would resolve it")
    assert C.inconclusive(**TEXT, runs=math.inf, now=24).verdict == "INCONCLUSIVE"
    assert "its value here is -3.5" in C.vacuous(**TEXT, value=-3.5).note
    e = C.exact(**TEXT, ok=False, erratum="Entry")
    assert e.verdict == "ERRATUM" and 'ERRATA.md entry "Entry"' in e.note
    assert C.exact(**TEXT, ok=True, erratum="Entry").verdict == "PASS"
    assert C.exact(**TEXT, ok=False).verdict == "FAIL"


def test_evidence_validation():
    with pytest.raises(ValueError, match="k_low <= k <= n"):
        C.Binomial(5, 3, "at_most", 0.1)
    with pytest.raises(ValueError, match="k_low <= k"):
        C.Binomial(2, 10, "at_most", 0.1, k_low=3)
    with pytest.raises(ValueError, match="direction"):
        C.Binomial(1, 10, "below", 0.1)
    with pytest.raises(ValueError, match="lo <= hi"):
        C.Normal(1.0, 0.1, 10, "within", (2.0, 1.0))
    with pytest.raises(ValueError, match="se >= 0"):
        C.Normal(1.0, -0.1, 10, "at_least", 0.0)
    with pytest.raises(ValueError, match="n_outputs"):
        C.family_alpha(0)
    assert C.family_alpha(22) == pytest.approx(0.05 / 22)


def test_pass_and_fail_thresholds_by_hand():
    # 0/219 at bound 1/60: (1 - 1/60)^219 = 0.0253 > 0.025 (not established), 0/220: 0.0249 (established)
    assert not C.Binomial(0, 219, "at_most", 1 / 60).established()
    assert C.Binomial(0, 220, "at_most", 1 / 60).established()
    # the runs an INCONCLUSIVE note asks for: ln(0.025)/ln(1 - 1/60) = 219.5
    assert C.Binomial(0, 24, "at_most", 1 / 60).runs_needed(1e-3) == pytest.approx(219.5, rel=0.011)
    # refutation p-value: Pr[Bin(100, 0.1) >= 20] = 0.00198
    assert C.Binomial(20, 100, "at_most", 0.1).p_against() == pytest.approx(0.001978, rel=1e-3)
    # a bracketed count refutes with its lower end and establishes with its upper end
    b = C.Binomial(20, 100, "at_most", 0.1, k_low=10)
    assert b.p_against() > 0.4 and not b.established()
    # Normal: z = (10.5 - 10)/0.25 = 2 > 1.96 establishes '>= 10'; 'within (9, 11)' needs both sides
    assert C.Normal(10.5, 0.25, 100, "at_least", 10.0).established()
    assert not C.Normal(10.4, 0.25, 100, "at_least", 10.0).established()
    assert C.Normal(10.0, 0.25, 100, "within", (9.0, 11.0)).established()
    # zero standard error: the bounded-range test on the span, not exactness (test_zero_se_* below)
    assert C.Normal(9.0, 0.0, 5, "at_least", 10.0, span=(0.0, 20.0)).p_against() == pytest.approx((10 / 11) ** 5)
    assert C.Normal(11.0, 0.0, 5, "at_least", 10.0, span=(0.0, 20.0)).p_against() == 1.0
    # a bracket (measured thresholds) establishes when it lies on the statement's side, never refutes by itself
    assert C.Bracket(1.2, 1.5, 0.95, 100, "at_least", 1.0).established()
    assert C.Bracket(0.5, 0.8, 0.95, 100, "at_least", 1.0).p_against() == pytest.approx(0.05)


def test_holm_by_hand():
    # p sorted 0.001, 0.01, 0.02, 0.04 at alpha 0.05: thresholds 0.0125, 0.0167, 0.025, 0.05 -> all rejected;
    # with 0.03 in place of 0.02 the third (0.03 > 0.025) stops the procedure.
    assert C.holm([0.01, 0.001, 0.04, 0.02], 0.05).tolist() == [True, True, True, True]
    assert C.holm([0.01, 0.001, 0.04, 0.03], 0.05).tolist() == [True, True, False, False]
    with pytest.raises(ValueError, match="alpha"):
        C.holm([0.1], 0.0)


def _family_at_bound(rng, m, n, b, alpha):
    """One output of m claims whose true rate sits exactly at its bound b: does the policy show any FAIL?"""
    k = rng.binomial(n, b, size=m)
    family = [
        C.statistical(**{**TEXT, "claim_id": f"c{i}"}, evidence=C.Binomial(int(k[i]), n, "at_most", b))
        for i in range(m)
    ]
    return any(c.verdict == "FAIL" for c in C.decide(family, alpha))


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_policy_false_fail_rate_at_the_bound_is_at_most_alpha():
    """A simulated family of 20 true claims at their bound: the fraction of replicates with any FAIL is <= alpha
    (Clopper-Pearson at ALPHA). Per-claim 95% intervals would show a FAIL in 1 - 0.975^20 = 40% of replicates, so
    a decision that ignored the family would fail this test."""
    rng = np.random.default_rng(20240611)
    alpha, reps = 0.05, 3000
    hits = sum(_family_at_bound(rng, 20, 400, 0.05, alpha) for _ in range(reps))
    lo, hi = binom_interval(hits, reps)
    assert lo <= alpha, f"{hits}/{reps} replicates with a false FAIL"
    # the test has power: the same family with one claim at twice its bound is refuted most of the time
    rng = np.random.default_rng(7)
    refuted = 0
    for _ in range(300):
        k = rng.binomial(400, [0.05] * 19 + [0.15])
        fam = [
            C.statistical(**{**TEXT, "claim_id": f"c{i}"}, evidence=C.Binomial(int(k[i]), 400, "at_most", 0.05))
            for i in range(20)
        ]
        refuted += C.decide(fam, alpha)[-1].verdict == "FAIL"
    lo, _ = binom_interval(refuted, 300)
    assert lo > 0.8


def test_policy_false_pass_rate_of_a_false_claim_is_at_most_2_5_percent():
    """A claim whose true rate is just above its bound is PASS in <= 2.5% of replicates (Clopper-Pearson at ALPHA)."""
    rng = np.random.default_rng(99)
    reps, n, b = 20000, 500, 0.05
    k = rng.binomial(n, b * 1.0001, size=reps)
    passes = sum(C.Binomial(int(x), n, "at_most", b).established() for x in k)
    lo, _ = binom_interval(passes, reps)
    assert lo <= 1 - C.PASS_CONFIDENCE


def test_decide_verdicts_and_notes():
    ok = C.statistical(**TEXT, evidence=C.Binomial(0, 10_000, "at_most", 0.01))
    few = C.statistical(**{**TEXT, "claim_id": "few"}, evidence=C.Binomial(0, 24, "at_most", 1 / 60))
    bad = C.statistical(**{**TEXT, "claim_id": "bad"}, evidence=C.Binomial(500, 1000, "at_most", 0.05))
    err = C.statistical(**{**TEXT, "claim_id": "err"}, evidence=C.Binomial(500, 1000, "at_most", 0.05), erratum="E")
    done = C.exact(**{**TEXT, "claim_id": "done"}, ok=True)
    out = C.decide([ok, few, bad, err, done], 0.01)
    assert [c.verdict for c in out] == ["PASS", "INCONCLUSIVE", "FAIL", "ERRATUM", "PASS"]
    assert out[1].note.startswith("220 runs would resolve it")
    assert "Holm over 4 cells" in out[2].note and 'ERRATA.md entry "E"' in out[3].note
    frame = C.to_frame([ok, few], "fig_x", alpha=0.01)
    assert list(frame.columns) == C.COLUMNS and frame.verdict.tolist() == ["PASS", "INCONCLUSIVE"]
    with pytest.raises(ValueError, match="alpha"):
        C.to_frame([ok], "fig_x")
    # a claim over several cells: FAIL if any cell is refuted, PASS only if all are established
    cells = [C.Binomial(0, 10_000, "at_most", 0.01), C.Binomial(0, 24, "at_most", 1 / 60)]
    assert C.decide([C.statistical(**TEXT, evidence=cells)], 0.01)[0].verdict == "INCONCLUSIVE"


def _errata_headings() -> set[str]:
    text = (ROOT / "ERRATA.md").read_text()
    return {m.group(1).strip() for m in re.finditer(r"^## (.+)$", text, re.M)}


def test_every_named_erratum_is_an_errata_entry():
    """Each ERRATUM a check can emit names a heading of ERRATA.md (module constants ERRATUM_* and table3's
    KNOWN_ERRATA), and ERRATA.md and the README cite the paper by section/equation/theorem number, never by line of
    the paper's text file (a clone does not have it)."""
    headings = _errata_headings()
    named = []
    for info in pkgutil.iter_modules(privtest_artifact.outputs.__path__):
        mod = importlib.import_module(f"privtest_artifact.outputs.{info.name}")
        named += [v for k, v in vars(mod).items() if k.startswith("ERRATUM_")]
        named += list(getattr(mod, "KNOWN_ERRATA", {}).values())
    assert len(named) >= 3
    missing = [n for n in named if n not in headings]
    assert not missing, f"not an ERRATA.md heading: {missing}"
    for doc in ("ERRATA.md", "README.md", "ARTIFACT-APPENDIX.md"):
        text = (ROOT / doc).read_text()
        assert not re.search(r"\blines? \d|shared/paper", text), doc


def test_bracket_on_the_wrong_side_cannot_be_resolved_by_more_runs():
    # A bracket centred beyond its bound can never FAIL (p_against is fixed at 1 - confidence) and
    # more runs only narrow it there, so "N runs would resolve it" was a false promise: runs_needed is inf and the
    # note says why.
    wrong = C.Bracket(0.5, 0.8, 0.95, 1000, "at_least", 1.0)
    assert wrong.runs_needed(0.01) == math.inf and "cannot refute" in wrong.unresolvable()
    (c,) = C.decide(
        [C.statistical(claim_id="x", source="s", statement="q >= 1", measured="", bound="", evidence=wrong)], 0.01
    )
    assert c.verdict == "INCONCLUSIVE" and c.note.startswith("more runs cannot resolve it: a bracket cannot refute")
    # on the statement's side, too wide: width ~ 1/sqrt(n), half-width 0.3 vs gap 0.1 -> 1000 (0.3/0.1)^2 = 9000
    right = C.Bracket(0.8, 1.4, 0.95, 1000, "at_most", 1.2)
    assert right.unresolvable() == "" and right.runs_needed(0.01) == pytest.approx(9000)
    (c,) = C.decide(
        [C.statistical(claim_id="x", source="s", statement="q <= 1.2", measured="", bound="", evidence=right)], 0.01
    )
    assert c.verdict == "INCONCLUSIVE" and c.note.split(" runs would resolve it")[0] in ("9000", "9100")  # rounded up
    # an explicit inconclusive() with a reason
    c = C.inconclusive(
        claim_id="x", source="s", statement="", measured="", bound="", runs=math.inf, now=5, reason="why"
    )
    assert c.note == "more runs cannot resolve it: why (now 5)."
    with pytest.raises(ValueError, match="runs must be inf"):
        C.runs_text(10, 5, reason="why")
    # below 10 runs, two significant digits of 5.33 are 5.4: the note must say 6, the runs that resolve it
    assert C.runs_text(5.33, 4).startswith("6 runs would resolve it")
    assert C.runs_text(9000.5, 4).startswith("9100 runs would resolve it")


def test_zero_se_needs_span():
    with pytest.raises(ValueError, match=r"se=0 needs span=\(lo, hi\).*cell 'f/OPT'"):
        C.Normal(1.0, 0.0, 24, "within", (0.9, 1.1), cell="f/OPT")
    with pytest.raises(ValueError, match="span must be"):
        C.Normal(0.5, 0.0, 24, "at_most", 0.6, span=(1.0, 0.0))
    with pytest.raises(ValueError, match="span must be"):
        C.Normal(0.5, 0.0, 24, "at_most", 0.6, span=(math.nan, 1.0))
    # an infinite end: that side cannot be used (evaluations per step >= lb is established from lo = 0 alone)
    unbounded = C.Normal(5.0, 0.0, 24, "at_least", 2.0, span=(0.0, math.inf))
    assert unbounded.p_for() == pytest.approx(0.4**24) and unbounded.p_against() == 1.0
    assert C.Normal(1.0, 0.0, 24, "at_least", 2.0, span=(0.0, math.inf)).p_against() == 1.0
    with pytest.raises(ValueError, match="must lie in span"):
        C.Normal(1.5, 0.0, 24, "at_most", 0.6, span=(0.0, 1.0))
    # the computed spread of identical values is rounding noise, not a standard error
    assert C.Normal(-0.01, 4e-19, 20, "at_least", 0.0, span=(-1.0, 1.0)).se == 0.0
    with pytest.raises(ValueError, match="se=0 needs span"):
        C.Normal(-0.01, 4e-19, 20, "at_least", 0.0)
    # with se > 0 the span is optional and does not change the normal test
    with_span = C.Normal(0.5, 0.01, 24, "at_most", 0.6, span=(0.0, 1.0))
    assert with_span.p_for() == C.Normal(0.5, 0.01, 24, "at_most", 0.6).p_for()


def test_zero_se_bounded_range_test_by_hand():
    # 'mean <= 0.5', 24 identical runs at 0: Pr[all runs <= 0 | mean > 0.5] <= (1 - 0.5)^24 = 6e-8: established
    ev = C.Normal(0.0, 0.0, 24, "at_most", 0.5, span=(0.0, 1.0))
    assert ev.p_for() == pytest.approx(0.5**24) and ev.established()
    # a bound close to v: (1 - 0.1/1)^24 = 0.080 > 0.025, not established; ln(0.025)/ln(0.9) = 35.0 runs would
    ev = C.Normal(0.0, 0.0, 24, "at_most", 0.1, span=(0.0, 1.0))
    assert ev.p_for() == pytest.approx(0.9**24) and not ev.established()
    assert ev.runs_needed(1e-3) == pytest.approx(math.log(0.025) / math.log(0.9), rel=0.011)
    # 'mean >= b' uses the span's lower end: runs at 0.9, b = 0.8, span (0, 1): Pr[X >= 0.9 | mean < 0.8] <= 0.8/0.9
    ev = C.Normal(0.9, 0.0, 24, "at_least", 0.8, span=(0.0, 1.0))
    assert ev.p_for() == pytest.approx((0.8 / 0.9) ** 24)
    # 'within' (two one-sided tests): the larger p-value
    ev = C.Normal(0.0, 0.0, 24, "within", (-0.1, 0.1), span=(-1.0, 1.0))
    assert ev.p_for() == pytest.approx((1 - 0.1 / 1.0) ** 24)
    # a bound beyond the span's end cannot be crossed: established with any n
    assert C.Normal(0.3, 0.0, 1, "at_most", 1.0, span=(0.0, 1.0)).established()
    # on the bound: never established, runs cannot help
    ev = C.Normal(0.5, 0.0, 24, "at_most", 0.5, span=(0.0, 1.0))
    assert not ev.established() and math.isinf(ev.runs_needed(1e-3))
    # refutation: every run at 1, 'mean <= 0.1': Pr[all runs >= 1 | mean <= 0.1] <= 0.1^24
    ev = C.Normal(1.0, 0.0, 24, "at_most", 0.1, span=(0.0, 1.0))
    assert ev.p_against() == pytest.approx(0.1**24)


def test_zero_se_single_run_is_inconclusive_with_runs_needed():
    text = dict(claim_id="x.z", source="Thm 0", statement="s", measured="m", bound="b")
    one = C.statistical(**text, evidence=C.Normal(0.0, 0.0, 1, "within", (-0.05, 0.05), span=(-1.0, 1.0)))
    (c,) = C.decide([one], alpha=0.05 / 22)
    assert c.verdict == "INCONCLUSIVE"
    # (1 - 0.05)^n <= 0.025 from n = ln(0.025)/ln(0.95) = 71.9 runs
    m = re.match(r"(\d+) runs would resolve it", c.note)
    assert m and 72 <= int(m.group(1)) <= 73, c.note
    # identical values in 24 runs: PASS only when the bound is far enough from v
    far = C.statistical(**text, evidence=C.Normal(0.0, 0.0, 24, "within", (-0.2, 0.2), span=(-1.0, 1.0)))
    near = C.statistical(**text, evidence=C.Normal(0.0, 0.0, 24, "within", (-0.1, 0.1), span=(-1.0, 1.0)))
    assert [c.verdict for c in C.decide([far, near], alpha=0.05 / 22)] == ["PASS", "INCONCLUSIVE"]
    # every run contradicts the statement: FAIL (Holm at the output's level)
    bad = C.statistical(**text, evidence=C.Normal(1.0, 0.0, 24, "at_most", 0.1, span=(0.0, 1.0)))
    assert C.decide([bad], alpha=0.05 / 22)[0].verdict == "FAIL"


def test_zero_se_test_is_valid_at_the_bound():
    """The bounded-range test's false-PASS rate for the least favourable law: X in {v, hi} with mean b (Pr[X = v] =
    (hi - b)/(hi - v)), b chosen so that 24 runs all at v just PASS. A false PASS needs all n runs at v: its simulated
    frequency must match p_for (Markov is tight for two-point laws) and so stay <= 2.5% (Clopper-Pearson, seeded)."""
    rng = np.random.default_rng(19)
    v, hi, n, reps = 0.0, 1.0, 24, 200_000
    q = 0.02 ** (1 / n)  # Pr[X = v]; the mean is b = hi - q (hi - v)
    b = hi - q * (hi - v)
    ev = C.Normal(v, 0.0, n, "at_most", b, span=(v, hi))
    assert ev.established()
    false_pass = int((rng.random((reps, n)) < q).all(axis=1).sum())
    lo_ci, hi_ci = binom_interval(false_pass, reps)
    assert lo_ci <= ev.p_for() <= hi_ci
    assert lo_ci <= 1 - C.PASS_CONFIDENCE


def test_zero_se_on_an_unbounded_side_says_why_runs_cannot_resolve():
    text = dict(claim_id="x.u", source="Thm 0", statement="s", measured="m", bound="b")
    below = C.statistical(**text, evidence=C.Normal(5.0, 0.0, 24, "at_least", 10.0, span=(0.0, math.inf)))
    (c,) = C.decide([below], alpha=0.05 / 22)
    assert c.verdict == "INCONCLUSIVE" and "more runs cannot resolve it: all 24 runs gave 5" in c.note, c.note
    assert "no a-priori upper end" in c.note
    # the finite side still decides: identical counts twice the bound are established
    assert C.Normal(20.0, 0.0, 24, "at_least", 10.0, span=(0.0, math.inf)).unresolvable() == ""
    assert C.Normal(20.0, 0.1, 24, "at_least", 30.0, span=(0.0, math.inf)).unresolvable() == ""  # se > 0
