"""Can-fail tests of table3's check: synthetic rows in its raw schema whose printed CO cell has a smaller
exponent than Theorem 42's substitution gives, or whose privacy ledger exceeds eps, make the claims FAIL (ERRATUM on
the recorded erratum row); rows that meet the substitution and the ledger PASS."""

import pandas as pd

from privtest_artifact.outputs import table3 as check

from .co_synth import decided, section


def rows(shown=(3, 1, 1), ledger_eps: float = 0.13) -> pd.DataFrame:
    """Two rows (an unrecorded work and the recorded Rafiey and Yoshida erratum row): printed CO exponents ``shown``
    of (ln t, 1/kappa, 1/eps) against the derived (3, 1, 1), ledger ``ledger_eps`` at eps = 0.5, delta = 0."""
    return pd.DataFrame(
        dict(
            work=["Synthetic et al. (2025)", "Rafiey and Yoshida (2020)"],
            privacy="eps-DP",
            factor_batch="1-1/e",
            factor_co="1-1/e",
            batch_eps_exp=1,
            co_lnt_exp=shown[0],
            co_kappa_exp=shown[1],
            co_eps_exp=shown[2],
            derived_lnt_exp=3,
            derived_kappa_exp=1,
            derived_eps_exp=1,
            eps=0.5,
            delta=0.0,
            ledger_eps=ledger_eps,
            ledger_delta=0.0,
        )
    )


def test_fail_printed_exponent_below_the_substitution():
    got = decided(check, rows(shown=(2, 1, 1)), section("table3"))
    assert got["co.table3.exponents[0:Synthetic et al. (2025)]"].verdict == "FAIL"
    assert got["co.table3.erratum[1:Rafiey and Yoshida (2020)]"].verdict == "ERRATUM"
    got = decided(check, rows(shown=(3, 0, 1)), section("table3"))
    assert got["co.table3.exponents[0:Synthetic et al. (2025)]"].verdict == "FAIL"


def test_fail_ledger_above_eps():
    got = decided(check, rows(ledger_eps=1.0), section("table3"))
    assert {v.verdict for k, v in got.items() if ".privacy[" in k} == {"FAIL"}


def test_safe_rows_meeting_the_substitution_pass():
    got = decided(check, rows(), section("table3"))
    assert "FAIL" not in {c.verdict for c in got.values()}
    assert got["co.table3.exponents[0:Synthetic et al. (2025)]"].verdict == "PASS"
    assert {v.verdict for k, v in got.items() if ".privacy[" in k} == {"PASS"}
