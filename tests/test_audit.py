"""privtest.audit and privtest.svt_variants: the auditor's bound is valid on private mechanisms (false-alarm rate) and
detects every non-private SVT variant of Lyu, Su and Li (2017) at fixed seeds."""

import math

import numpy as np
import pandas as pd
import pytest
from conftest import ALPHA
from scipy import stats

from privtest.audit import audit, estimate_epsilon
from privtest.svt_variants import CODINGS, PRIVATE, SVTVariant, first_top, pattern_distance, witness_pairs


def _rr(eps):
    """Randomized response with privacy exactly eps on inputs 1 (a) and 0 (b)."""
    keep = math.exp(eps) / (1 + math.exp(eps))
    return (lambda n, r: (r.random(n) < keep).astype(np.int64)), (lambda n, r: (r.random(n) >= keep).astype(np.int64))


def test_randomized_response_bound_is_tight_and_valid():
    ra, rb = _rr(1.0)
    res = estimate_epsilon(ra, rb, 200_000, np.random.default_rng(1))
    assert 0.9 < res.eps_lower <= 1.0
    assert res.eps_hat == pytest.approx(1.0, abs=0.05)
    assert res.event in ("== 1", ">= 1", "== 0", "<= 0")


def test_false_alarm_rate_on_private_mechanisms():
    """Randomized response at exactly its claimed eps: the 95% bound exceeds eps in at most 5% of audits; over 40
    seeded audits the count of false alarms stays below the binomial(40, 0.05) quantile at level 1 - ALPHA."""
    ra, rb = _rr(1.0)
    flags = sum(estimate_epsilon(ra, rb, 2000, np.random.default_rng(s)).eps_lower > 1.0 for s in range(40))
    assert flags <= stats.binom.isf(ALPHA, 40, 0.05)


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PRIVATE))
def test_svt_variants_flagged_iff_not_private(variant):
    """The witness search flags each broken variant and neither private one (c = 1, 10 queries, fixed seed)."""
    mech = SVTVariant(variant, 1.0)
    res = audit(mech.run, witness_pairs(10), CODINGS, 50_000, np.random.default_rng(7), 0.95, pilot=25_000)
    assert (res.eps_lower > 1.0) == (not PRIVATE[variant]), res


def test_svt_answers_and_codes():
    mech = SVTVariant("alg5", 1.0, threshold=0.5)  # no query noise: top iff q >= 0.5 + rho
    ans, _ = mech.run(np.array([1.0, 0.0, 1.0]), 1000, np.random.default_rng(0))
    assert set(np.unique(ans)) <= {0, 1}  # no cutoff: never aborted
    assert np.all(ans[:, 0] == ans[:, 2])  # equal queries, same threshold noise
    one = SVTVariant("alg1", 1.0)
    ans, _ = one.run(np.full(5, 100.0), 100, np.random.default_rng(0))
    assert np.all(first_top(ans) == 1) and np.all(ans[:, 1:] == -1)  # aborts after c = 1 top
    assert np.all(pattern_distance(ans, 1) == 0)


def test_estimate_epsilon_validates_arguments():
    ra, rb = _rr(1.0)
    with pytest.raises(ValueError, match="confidence"):
        estimate_epsilon(ra, rb, 100, np.random.default_rng(0), confidence=1.5)
    with pytest.raises(ValueError, match="^n must be"):
        estimate_epsilon(ra, rb, 0, np.random.default_rng(0))


def _recount(x, event: str) -> int:
    """Count of ``event`` ("== v", "<= v" or ">= v", v written as in AuditResult.event) among the outputs x."""
    op, v = event.split()
    x = np.asarray(x)
    return int(np.count_nonzero({"==": x == float(v), "<=": x <= float(v), ">=": x >= float(v)}[op]))


def test_real_valued_outputs_are_refused():
    # a continuous output (Laplace samples) would give an event "<= 0" whose counts cannot be reproduced: refused
    with pytest.raises(ValueError, match=r"^run_a must return integer-coded outputs"):
        estimate_epsilon(
            lambda n, r: r.laplace(0.0, 1.0, n), lambda n, r: r.laplace(1.0, 1.0, n), 2000, np.random.default_rng(0)
        )
    with pytest.raises(ValueError, match=r"^run_b must return integer-coded outputs"):
        estimate_epsilon(lambda n, r: r.integers(0, 3, n), lambda n, r: r.random(n), 2000, np.random.default_rng(0))


def test_the_reported_event_reproduces_the_counts():
    ra, rb = _rr(1.0)
    rng = np.random.default_rng(3)
    res = estimate_epsilon(ra, rb, 5000, rng)
    # replay the same draws: pilot a, pilot b, the Poisson main sample sizes (delta = 0), then the main samples
    replay = np.random.default_rng(3)
    ra(res.pilot, replay), rb(res.pilot, replay)
    na, nb = replay.poisson(res.n, 2)
    xa, xb = ra(na, replay), rb(nb, replay)
    if res.direction == "b/a":
        xa, xb = xb, xa
    assert (len(xa), len(xb)) == (res.n_a, res.n_b)
    assert (_recount(xa, res.event), _recount(xb, res.event)) == (res.k_a, res.k_b)
    # integral floats (e.g. halting steps stored as float) are integer-coded outputs too
    res = estimate_epsilon(
        lambda n, r: ra(n, r).astype(float), lambda n, r: rb(n, r).astype(float), 5000, np.random.default_rng(3)
    )
    assert res.event.split()[1] in ("0", "1")


# The verdict (privtest.audit.verdict): the only part of an audit that depends on the confidence level.


def _logit_cp_lower(k_a, k_b, alpha):
    """The conditional test's bound by hand: logit of the one-sided Clopper-Pearson lower limit of k_a / (k_a + k_b)."""
    lo = stats.beta.ppf(alpha, k_a, k_b + 1)
    return math.log(lo / (1 - lo))


def test_verdict_ties_go_to_the_first_in_pilot_order_whatever_the_order_of_the_cells():
    from privtest.audit import verdict

    cells = [
        dict(rank=2, witness="w2", k_a=5, k_b=5, n_a=100, n_b=100),
        dict(rank=1, witness="w1", k_a=30, k_b=10, n_a=100, n_b=100),  # same counts as rank 0: a tie
        dict(rank=0, witness="w0", k_a=30, k_b=10, n_a=100, n_b=100),
    ]
    v = verdict(cells, 0.95)
    assert v.alpha == pytest.approx(0.05 / 3)  # union bound over the three carried witnesses
    assert v.bounds == pytest.approx([_logit_cp_lower(30, 10, 0.05 / 3)] * 2 + [_logit_cp_lower(5, 5, 0.05 / 3)])
    assert v.best["witness"] == "w0" and v.eps_lower == v.bounds[0]
    assert v.eps_hat == pytest.approx(math.log(3.0))  # ln((30/100) / (10/100))
    assert [c["witness"] for c in v.cells] == ["w0", "w1", "w2"]  # best first, the tie in pilot order
    assert v.cells[0] == {**cells[2], "eps_lower": v.eps_lower}  # the cell as given plus its bound
    with pytest.raises(ValueError, match="distinct"):
        verdict([dict(cells[0], rank=0), cells[2]], 0.95)
    with pytest.raises(ValueError, match="non-empty"):
        verdict([], 0.95)
    with pytest.raises(ValueError, match="confidence"):
        verdict(cells, 1.0)


def test_verdict_a_changed_confidence_changes_alpha_and_the_best_witness():
    from privtest.audit import verdict

    # a rare event never seen under b (9 vs 0: the lower limit is alpha^(1/9)) against a frequent one at ratio 2
    cells = [dict(rank=0, k_a=600, k_b=300, n_a=10**4, n_b=10**4), dict(rank=1, k_a=9, k_b=0, n_a=10**4, n_b=10**4)]
    loose, strict = verdict(cells, 0.5), verdict(cells, 0.999)
    assert (loose.alpha, strict.alpha) == pytest.approx((0.25, 0.0005))
    rare = [math.log(a ** (1 / 9) / (1 - a ** (1 / 9))) for a in (0.25, 0.0005)]  # 1.79, -0.28
    assert loose.bounds == pytest.approx([_logit_cp_lower(600, 300, 0.25), rare[0]])
    assert strict.bounds == pytest.approx([_logit_cp_lower(600, 300, 0.0005), rare[1]])
    assert loose.best["rank"] == 1 and loose.eps_hat == math.inf  # k_b = 0
    assert strict.best["rank"] == 0 and strict.eps_hat == pytest.approx(math.log(2.0))
    # delta > 0: ln((CP_lower(k_a/n_a) - delta) / CP_upper(k_b/n_b)), each tail at alpha / 2
    (cell,) = verdict([dict(rank=0, k_a=600, k_b=300, n_a=10**4, n_b=10**4)], 0.9, delta=0.01).cells
    lo, hi = stats.beta.ppf(0.05, 600, 10**4 - 600 + 1), stats.beta.ppf(0.95, 301, 10**4 - 300)
    assert cell["eps_lower"] == pytest.approx(math.log((lo - 0.01) / hi))


# Auditor power: the default run's fig_privacy_audit section with a schema-valid cutoff of 3.


def _audit_section(**override) -> dict:
    import sys
    from pathlib import Path

    import yaml
    from snakemake.utils import update_config

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "workflow/lib"))
    from privtest_workflow import catalogue, configuration

    config: dict = {}
    update_config(config, yaml.safe_load((root / "config/config.yaml").read_text()))
    update_config(config, {"fig_privacy_audit": override})
    cat = catalogue.load(root)
    return cat["fig_privacy_audit"].cfg(configuration.load(config, cat, root)), config["seed"]


@pytest.mark.slow
def test_cutoff_3_flags_algorithm_3_and_no_claim_fails():
    from privtest_artifact.io import job_rng
    from privtest_artifact.outputs.fig_privacy_audit import analyse, claims, simulate

    cfg, seed = _audit_section(cutoff=3)  # `fig_privacy_audit: {cutoff: 3}`
    raw = simulate(cfg, job_rng(seed, "fig_privacy_audit"), {})
    tables = analyse(raw, cfg)
    row = tables["summary"].set_index("mechanism").loc["SVT alg3"]
    assert row.flagged and row.eps_lower > cfg["eps"], row.to_dict()
    verdicts = {c.claim_id: c.verdict for c in claims(tables, cfg)}
    assert "FAIL" not in {v for k, v in verdicts.items() if k.startswith("audit.flags_broken")}, verdicts


def _allowed_cutoffs() -> list[int]:
    from pathlib import Path

    import yaml

    schema = yaml.safe_load((Path(__file__).resolve().parents[1] / "workflow/schemas/config.schema.yaml").read_text())
    section = schema["properties"]["fig_privacy_audit"]["allOf"][1]["properties"]["cutoff"]
    return list(range(section["minimum"], section["maximum"] + 1))


@pytest.mark.slow
@pytest.mark.parametrize("cutoff", [c for c in _allowed_cutoffs() if c != 3])  # 3: the test above
def test_every_broken_variant_is_flagged_at_every_allowed_cutoff(cutoff):
    from privtest.svt_variants import actual_epsilon
    from privtest_artifact.io import job_rng
    from privtest_artifact.outputs.fig_privacy_audit import svt_audit

    cfg, seed = _audit_section(cutoff=cutoff)
    rng = job_rng(seed, "fig_privacy_audit", cutoff)
    for variant in sorted(PRIVATE):
        res = svt_audit(SVTVariant(variant, cfg["eps"], c=cutoff).run, cfg, rng)
        broken = actual_epsilon(variant, cfg["eps"], cutoff, cfg["queries"]) > cfg["eps"]
        assert broken == (not PRIVATE[variant])  # at the default 20 queries every variant is what Lyu et al. say
        assert (res.eps_lower > cfg["eps"]) == broken, (variant, res)


def _svt_row(mechanism: str, actual_eps: float, k_a: int, k_b: int) -> pd.DataFrame:
    """A raw row (the simulation's schema) of an SVT witness search with claimed eps 1 and one carried witness of
    1000 runs per input; the analysis judges it at the config's confidence (one witness: alpha = 1 - confidence)."""
    from privtest_artifact.outputs.fig_privacy_audit import raw_row

    witness = dict(witness="all below", coding="bottoms and released value", event="bottoms >= 12", direction="a/b")
    carried = [witness | dict(k_a=k_a, k_b=k_b, n_a=1000, n_b=1000)]
    return pd.DataFrame([raw_row(mechanism, 1.0, 0.0, actual_eps, carried, 1000, 30)])


def test_an_undetected_violation_is_inconclusive_with_the_audits_power():
    from privtest import audit
    from privtest_artifact.outputs.fig_privacy_audit import analyse, claims

    cfg = {"confidence": 0.95, "queries": 20, "cutoff": 3}
    # 40 vs 10: the 95% bound 0.77 is below the claim 1, so the broken variant is not flagged; the power is at the
    # claims policy's PASS level, 97.5% one-sided over the one carried witness (alpha = 0.025), not at the audit's
    # own 95%: runs_to_flag(40, 10, 1000, 1, 0.025) = 3327 -> "3400"
    assert audit.bound(40, 10, 1000, 0.05) < 1.0
    assert audit.runs_to_flag(40, 10, 1000, 1.0, 0.025) == pytest.approx(3327, rel=0.01)
    (claim,) = claims(analyse(_svt_row("SVT alg3", 3.3, 40, 10), cfg), cfg)
    assert claim.verdict == "INCONCLUSIVE" and "3400 runs would resolve" in claim.note, claim
    (claim,) = claims(analyse(_svt_row("SVT alg3", 3.3, 400, 40), cfg), cfg)  # bound 2.0 > 1 at both levels: flagged
    assert claim.verdict == "PASS"


def test_a_flagged_private_mechanism_fails_only_at_the_family_wise_level():
    from privtest import audit
    from privtest_artifact.claims import decide
    from privtest_artifact.outputs.fig_privacy_audit import analyse, claims

    cfg = {"confidence": 0.95, "queries": 20, "cutoff": 1}
    alpha = 0.05 / 22
    # share k_a / (k_a + k_b) against e/(1+e) = 0.73: 900 of 1000 refutes the claim at any level; 85 of 100 is
    # flagged at the audit's 95% (bound 1.26 > 1) but its binomial p-value 0.0035 is above 0.05/22: not a FAIL;
    # 500 vs 480 is not flagged (the audit finds no violation)
    assert audit.bound(85, 15, 1000, 0.05) > 1.0
    assert decide(claims(analyse(_svt_row("SVT alg1", 1.0, 900, 100), cfg), cfg), alpha)[0].verdict == "FAIL"
    assert decide(claims(analyse(_svt_row("SVT alg1", 1.0, 85, 15), cfg), cfg), alpha)[0].verdict == "INCONCLUSIVE"
    assert decide(claims(analyse(_svt_row("SVT alg1", 1.0, 500, 480), cfg), cfg), alpha)[0].verdict == "PASS"


@pytest.mark.parametrize("m", [2, 5, 20])
def test_witness_pairs_are_neighbours(m):
    pairs = witness_pairs(m)
    assert len(pairs) == 10
    for qa, qb in pairs.values():
        assert qa.shape == qb.shape == (m,) and np.max(np.abs(qa - qb)) <= 1  # sensitivity 1


def test_algorithm_3_is_broken_iff_the_queries_outnumber_twice_the_cutoff():
    from privtest.svt_variants import actual_epsilon

    assert actual_epsilon("alg3", 1.0, 3, 20) == pytest.approx(20 / 6)
    assert actual_epsilon("alg3", 1.0, 5, 10) == pytest.approx(1.0)  # m = 2c: exactly eps-DP
    assert actual_epsilon("alg4", 1.0, 2, 20) == pytest.approx(13 / 4)


# The audit's checks follow the claims policy (FAIL through Holm, PASS at 97.5%).


def _audit_row(mechanism, expected, k_a, k_b, eps_exact=float("nan")) -> dict:
    """A raw row (the simulation's schema) of a one-pair audit with one carried witness of n = 40000 runs per input."""
    from privtest_artifact.outputs.fig_privacy_audit import raw_row

    witness = dict(witness="", coding="output", event="== 0", direction="a/b", k_a=k_a, k_b=k_b, n_a=40000, n_b=40000)
    actual = 2.0 if expected == "broken" else 1.0
    return raw_row(mechanism, 1.0, 0.0, actual, [witness], 40000, 1, "pair", eps_exact)


def test_audit_claims_follow_the_claims_policy():
    import pandas as pd

    from privtest_artifact.claims import to_frame
    from privtest_artifact.outputs.fig_privacy_audit import analyse, claims

    cfg = dict(confidence=0.95, queries=10, cutoff=1)
    # GTM-like pair with exact loss 1/3: 6400 vs 4400 gives eps_lower 0.342 > 1/3 at the audit's 95% (a random
    # lower bound: happens ~5% of the time for a true claim), but z = (ln(64/44) - 1/3)/sqrt(1/6400 + 1/4400) ~ 2.1
    # does not refute Pr_a[E] <= e^(1/3) Pr_b[E] at a family-wise level: not a FAIL (was an exact FAIL).
    # SVT-like broken variant: 336 vs 100 has bound 1.020 > 1 at 95% but 0.986 < 1 at the policy's 97.5%: not a
    # PASS (was PASS at the audit's 95%), INCONCLUSIVE with the runs that would flag it.
    from privtest import audit

    raw = pd.DataFrame([_audit_row("GTM", "private", 6400, 4400, 1 / 3), _audit_row("SVT alg3", "broken", 336, 100)])
    # the audit's own 95% bounds (one carried witness: alpha = 0.05)
    assert audit.bound(6400, 4400, 40000, 0.05) > 1 / 3 and audit.bound(336, 100, 40000, 0.05) > 1.0
    v = to_frame(claims(analyse(raw, cfg), cfg), "fig_privacy_audit", 0.05 / 22).set_index("claim_id")
    assert v.verdict["audit.below_exact[GTM]"] == "INCONCLUSIVE", v.note["audit.below_exact[GTM]"]
    assert v.verdict["audit.flags_broken[SVT alg3]"] == "INCONCLUSIVE"
    assert "runs would resolve" in v.note["audit.flags_broken[SVT alg3]"]
    # far beyond the exact loss: refuted through Holm (FAIL), and a clear flag is PASS
    raw = pd.DataFrame([_audit_row("GTM", "private", 8000, 2000, 1 / 3), _audit_row("SVT alg3", "broken", 600, 100)])
    v = to_frame(claims(analyse(raw, cfg), cfg), "fig_privacy_audit", 0.05 / 22).set_index("claim_id")
    assert v.verdict["audit.below_exact[GTM]"] == "FAIL" and "Holm" in v.note["audit.below_exact[GTM]"]
    assert v.verdict["audit.flags_broken[SVT alg3]"] == "PASS"


def test_audit_results_are_pinned_to_the_audit_before_its_verdict_was_factored_out():
    # Regression pin: the values below were printed by privtest.audit as it was before :func:`verdict` existed (the
    # verdict computed inline in audit()), on the same seeds: an SVT witness search (alg3, broken) and a one-pair
    # audit at delta > 0 whose carried witnesses tie in pairs ("== 3" and ">= 3" count the same outputs).
    res = audit(
        SVTVariant("alg3", 1.0, c=1).run, witness_pairs(4), CODINGS, 2000, np.random.default_rng(7), 0.95,
        pilot=500, candidates=4,
    )  # fmt: skip
    assert (res.eps_lower, res.eps_hat) == (0.7865416082922174, 1.3551290481552536)
    assert (res.event, res.direction, res.witness, res.coding) == (
        "bottoms >= 3 & min_value <= 5", "a/b", "one below rest above (last)", "bottoms and released value"
    )  # fmt: skip
    assert (res.k_a, res.k_b, res.n_a, res.n_b, res.alpha) == (83, 22, 1985, 2040, pytest.approx(0.0125))
    assert [(c["k_a"], c["k_b"]) for c in res.cells] == [(83, 22), (55, 13), (74, 22), (63, 19)]
    res = estimate_epsilon(
        lambda k, r: r.binomial(3, 0.6, k), lambda k, r: r.binomial(3, 0.4, k), 3000, np.random.default_rng(3), 0.9,
        delta=0.01,
    )  # fmt: skip
    assert (res.eps_lower, res.eps_hat, res.event, res.k_a, res.k_b) == (
        0.9554571508040526, 1.1920462953142066, "== 3", 669, 194
    )  # fmt: skip
    assert [(c["k_a"], c["k_b"]) for c in res.cells] == [(669, 194), (669, 194), (654, 204), (654, 204)]


@pytest.mark.parametrize(
    "cell, match",
    [
        (dict(k_a=11, n_a=10), r"k_a must be in \[0, n_a\]"),
        (dict(k_b=-1), "cells.0..k_b must be an integer >= 0"),
        (dict(n_a=2.5), "cells.0..n_a must be an integer"),
        (dict(k_a=None), "cells.0..k_a"),
    ],
)
def test_verdict_refuses_counts_that_are_not_counts(cell, match):
    from privtest.audit import verdict

    good = dict(rank=0, k_a=3, k_b=1, n_a=10, n_b=10)
    assert verdict([good], 0.95).eps_lower < math.inf
    with pytest.raises(ValueError, match=match):
        verdict([good | cell], 0.95)
