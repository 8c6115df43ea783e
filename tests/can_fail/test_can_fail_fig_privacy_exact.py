"""fig_privacy_exact's check can fail: a private case whose exact worst loss is twice its claimed eps is FAIL, and so
is a broken negative control the check does not flag."""

import pandas as pd


def _raw(private_loss, broken_loss, claimed=1.0) -> pd.DataFrame:
    """fig_privacy_exact's raw rows: one private GTM case and one broken negative control."""
    row = dict(variant="standard", calibration="a-priori", eps_ratio=0.1, kind="halting", worst_transcript="(1,)")
    row |= dict(claimed_eps=claimed, worst_inputs="p=0 vs p=1")
    return pd.DataFrame(
        [
            dict(row, expected="private", max_loss=private_loss, slack=claimed - private_loss),
            dict(row, variant="broken", expected="broken", max_loss=broken_loss, slack=claimed - broken_loss),
        ]
    )


def test_fail_private_loss_twice_its_claim_and_broken_control_unflagged(output_cfg, run_check, verdicts):
    frame = run_check("fig_privacy_exact", _raw(private_loss=2.0, broken_loss=1.0), output_cfg("fig_privacy_exact"))
    v = verdicts(frame, "privacy_exact.")
    assert v == {
        "privacy_exact.standard,a-priori,r=0.1,halting": "FAIL",
        "privacy_exact.detects[broken,a-priori,r=0.1,halting]": "FAIL",
    }


def test_safe_private_loss_at_its_claim_and_broken_control_flagged(output_cfg, run_check, verdicts):
    frame = run_check("fig_privacy_exact", _raw(private_loss=1.0, broken_loss=2.0), output_cfg("fig_privacy_exact"))
    v = verdicts(frame, "privacy_exact.")
    assert set(v.values()) == {"PASS"} and len(v) == 2, v
