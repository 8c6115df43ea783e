"""fig_audit_suites' check can fail: a private mechanism whose witnesses plainly exceed its claim, or a non-private
one whose witnesses plainly exceed its closed-form eps, is FAIL. ``suites.flags_broken`` cannot be FAIL by design (the
auditor's power, not the suite, is tested): its claims say so (privtest_artifact.claims.CANNOT_FAIL)."""

import math

import pandas as pd

from privtest_artifact.claims import CANNOT_FAIL
from privtest_artifact.outputs.fig_audit_suites import raw_row


def _row(mechanism, private, k_a, k_b, claimed=0.7, true=math.nan, kind="exact", n=200_000, delta=0.0) -> dict:
    """One audited mechanism in fig_audit_suites' raw schema (one carried witness of n runs per input)."""
    witness = dict(witness="one above", coding="value", event="<= 3", direction="a/b", k_a=k_a, k_b=k_b, n_a=n, n_b=n)
    true = claimed if math.isnan(true) and delta == 0 else true
    row = raw_row(mechanism, claimed, delta, true, [witness], n, 8)
    row.update(suite="StatDP", true_kind=kind, private=private, samples=4 * n, pilot=1000, source="statdp/x.py",
               pairs_source="StatDP's patterns", coding_note="the value", label_note="")  # fmt: skip
    return row


def test_fail_private_mechanism_flagged_far_above_its_claim(output_cfg, run_check, verdicts):
    # Pr_a[E] / Pr_b[E] = 20 000 / 200 = e^4.6 > e^0.7: every sample refutes eps = 0.7
    raw = pd.DataFrame([_row("histogram", True, 20_000, 200), _row("SVT", True, 10_000, 9_000)])
    v = verdicts(run_check("fig_audit_suites", raw, output_cfg("fig_audit_suites")), "suites.not_refuted")
    assert v == {"suites.not_refuted[StatDP/histogram]": "FAIL", "suites.not_refuted[StatDP/SVT]": "PASS"}


def test_fail_private_gaussian_refuted_on_the_delta_path(output_cfg, run_check, verdicts):
    # an (eps, delta) claim, delta = 1e-3: Pr_a[E] = 0.1 > e^1 Pr_b[E] + delta ~ 0.0037 refutes it; a witness within
    # e^1 Pr_b[E] + delta does not
    raw = pd.DataFrame(
        [
            _row("gauss_a", True, 20_000, 200, claimed=1.0, kind="", delta=1e-3),
            _row("gauss_b", True, 10_000, 9_000, claimed=1.0, kind="", delta=1e-3),
        ]
    )
    v = verdicts(run_check("fig_audit_suites", raw, output_cfg("fig_audit_suites")), "suites.")
    assert v == {"suites.not_refuted[StatDP/gauss_a]": "FAIL", "suites.not_refuted[StatDP/gauss_b]": "PASS"}


def test_fail_bound_above_the_closed_form_eps(output_cfg, run_check, verdicts):
    # a non-private mechanism with eps 1.43 whose witness shows a ratio e^4.6: the closed form (or the code) is wrong
    raw = pd.DataFrame([_row("histogram_eps", False, 20_000, 200, true=1 / 0.7)])
    v = verdicts(run_check("fig_audit_suites", raw, output_cfg("fig_audit_suites")), "suites.")
    assert v == {"suites.flags_broken[StatDP/histogram_eps]": "PASS", "suites.below_true[StatDP/histogram_eps]": "FAIL"}


def test_safe_flags_broken_is_pass_or_inconclusive_and_says_it_cannot_fail(output_cfg, run_check, verdicts):
    raw = pd.DataFrame(
        [
            _row("iSVT1", False, 20_000, 200, true=math.inf),  # plainly flagged: PASS
            _row("iSVT3", False, 1_000, 999, true=1.225, kind="upper bound"),  # missed: INCONCLUSIVE, not FAIL
        ]
    )
    frame = run_check("fig_audit_suites", raw, output_cfg("fig_audit_suites"))
    v = verdicts(frame, "suites.")
    assert v == {
        "suites.flags_broken[StatDP/iSVT1]": "PASS",
        "suites.flags_broken[StatDP/iSVT3]": "INCONCLUSIVE",
        "suites.below_true[StatDP/iSVT3]": "PASS",
    }
    broken = frame[frame.claim_id.str.startswith("suites.flags_broken")]
    assert all(CANNOT_FAIL in note for note in broken.note)
    assert "runs would resolve" in broken.set_index("claim_id").loc["suites.flags_broken[StatDP/iSVT3]", "note"]
