"""Claims of fig_expost: Theorem 23's ex-post calibration: Lemma 17's halting loss equals the theorem's loss function,
pbar_t is flat in t, and the per-step Type II (at p*) and Type I (at pbar_t) budgets hold."""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.checks._common import continue_claim, miss_claim
from privtest.claims import Claim, fmt, verdict_exact
from privtest.schedule import beta_t


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    curve, mc = raw[raw.kind == "curve"], raw[raw.kind == "mc"]
    for ratio, g in curve.groupby("eps_ratio"):
        gap = float(np.max(np.abs(g.halt_loss - g.halt_loss_theorem)))
        out.append(
            Claim(
                claim_id=f"expost.halt_loss[r={ratio}]",
                source="Thm 23, Lemma 17",
                statement="consistency: Lemma 17's halting loss 1/tau1 + 2/tau2_t equals Thm 23's "
                "eps_C + C_H eps_t ln(4/beta_t)",
                measured=f"max abs difference {gap:.2e} over {len(g)} steps up to t={int(g.t.max())}",
                bound="<= 1e-9",
                verdict=verdict_exact(gap <= 1e-9),
                note="privacy loss of a halting transcript from the calibration's noise scales",
            )
        )
        # pbar from Lemma 19's Lambda_t (computed from mu1 and tau2_t), not from the theorem's closed form
        x = cfg["gamma"] * g.Lambda_lemma19
        pbar19 = np.maximum(cfg["pstar"] / x, 1 - x * (1 - cfg["pstar"]))
        spread = float(pbar19.max() - pbar19.min())
        out.append(
            Claim(
                claim_id=f"expost.pbar_flat[r={ratio}]",
                source="Thm 23",
                statement="pbar_t from Lemma 19's Lambda_t with the calibrated tau2_t does not depend on t",
                measured=f"pbar in [{fmt(pbar19.min())}, {fmt(pbar19.max())}]; Thm 21 at the same "
                f"eps_t: {fmt(g.pbar_global.iloc[0])} -> {fmt(g.pbar_global.iloc[-1])}",
                bound="spread 0",
                verdict=verdict_exact(spread <= 1e-9 * float(pbar19.max())),
                note="",
            )
        )
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
