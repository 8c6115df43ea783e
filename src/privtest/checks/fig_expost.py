"""Claims of fig_expost: Theorem 23's ex-post calibration keeps the per-step Type II (at p*) and Type I (at pbar_t)
budgets. The calibration's identities (Lemma 17's halting loss equals the theorem's loss function, pbar_t is flat in
t) cannot fail and are unit tests (tests/test_gtm.py::test_expost_identities_over_t)."""

from __future__ import annotations

import pandas as pd

from privtest.checks._common import continue_claim, miss_claim
from privtest.claims import Claim
from privtest.schedule import beta_t


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    mc = raw[raw.kind == "mc"]
    for r in mc.itertuples():
        bt = float(beta_t(int(r.t), cfg["beta"]))
        tag = f"t={r.t},r={r.eps_ratio}"
        out.append(
            miss_claim(
                f"expost.halt_at_pstar[{tag}]",
                "Thm 23 (proof: Lemma 19(3), Lemma 20)",
                int(r.good_halts_pstar),
                int(r.good_runs_pstar),
                float(r.beta_II),
                int(r.halts_pstar),
                int(r.runs),
                cfg["beta"],
            )
        )
        out.append(
            continue_claim(
                f"expost.continue_at_pbar[{tag}]",
                "Thm 23 (proof)",
                int(r.halts_pbar),
                int(r.runs),
                bt / 4 + bt / 6,
                cfg["beta"],
                "bound beta_t/4 + beta_t/6",
            )
        )
    return out
