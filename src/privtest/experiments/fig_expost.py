"""fig_expost: the ex-post calibration of Theorem 23.

(a) Rejection threshold pbar_t vs t: flat under Theorem 23 (Lambda_t = (4/beta)^{eps_t/eps_C} e^{2/C_H} does not
    depend on t), decaying under Theorem 21 at the same input privacy; measured single-step halting at p* and pbar_t.
(b) Ex-post privacy loss of a transcript halting at t, eps_C + C_H eps_t ln(4/beta_t), growing like ln t, and the
    loss eps_C of every continuation prefix.

Claims: per-step halting at p* >= 1 - beta/4 - beta_t/6 and at pbar_t <= beta_t/4 + beta_t/6 (unconditional forms
of the proof's per-step budgets); the calibration's tau's give exactly the theorem's loss function (Lemma 17).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.claims import Claim, fmt, verdict_exact
from privtest.experiments._checks import continue_claim, halt_claim
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.schedule import beta_t
from privtest.simulate import halting_probability


def simulate(cfg: dict, rng: np.random.Generator) -> pd.DataFrame:
    """Rows per (eps_ratio, t): thresholds and losses of both calibrations on a log grid of t (``curve`` rows),
    plus Monte Carlo halting counts at p* and pbar_t at the ``mc_t`` steps (``mc`` rows)."""
    ex = ExPostCalibration(cfg["eps_C"], cfg["beta"], cfg["C_H"], cfg["gamma"])
    gl = GlobalCalibration(cfg["eps_C"], cfg["beta"], cfg["theta"], cfg["gamma"])
    rows = []
    ts = np.unique(np.rint(np.geomspace(1, cfg["t_max"], cfg["points"])).astype(int))
    for ratio in cfg["eps_ratio"]:
        eps_t = ratio * cfg["eps_C"]
        for t in ts:
            st, sg = ex.step(int(t), eps_t, cfg["pstar"]), gl.step(int(t), eps_t, cfg["pstar"])
            rows.append(
                dict(
                    kind="curve",
                    eps_ratio=ratio,
                    t=int(t),
                    pbar_expost=st.pbar,
                    pbar_global=sg.pbar,
                    Lambda_expost=st.Lambda,
                    halt_loss=st.halt_loss,
                    continue_loss=st.continue_loss,
                    halt_loss_theorem=cfg["eps_C"] + cfg["C_H"] * eps_t * math.log(4 / beta_t(int(t), cfg["beta"])),
                )
            )
        for t in cfg["mc_t"]:
            st = ex.step(int(t), eps_t, cfg["pstar"])
            halts, samples = halting_probability(st, [cfg["pstar"], st.pbar], cfg["runs"], rng)
            rows.append(
                dict(
                    kind="mc",
                    eps_ratio=ratio,
                    t=int(t),
                    pbar_expost=st.pbar,
                    s=st.s,
                    halts_pstar=int(halts[0]),
                    halts_pbar=int(halts[1]),
                    runs=cfg["runs"],
                    samples_mean=float(samples[0] / cfg["runs"]),
                    halt_loss=st.halt_loss,
                )
            )
    return pd.DataFrame(rows)


def claims(raw: pd.DataFrame, cfg: dict) -> list[Claim]:
    out = []
    curve, mc = raw[raw.kind == "curve"], raw[raw.kind == "mc"]
    for ratio, g in curve.groupby("eps_ratio"):
        gap = float(np.max(np.abs(g.halt_loss - g.halt_loss_theorem)))
        out.append(
            Claim(
                f"expost.halt_loss[r={ratio}]",
                "Thm 23, Lemma 17",
                "1/tau1 + 2/tau2_t equals eps_C + C_H eps_t ln(4/beta_t) at every t",
                "fig_expost",
                f"max abs difference {gap:.2e} over {len(g)} steps up to t={int(g.t.max())}",
                "<= 1e-9",
                verdict_exact(gap <= 1e-9),
                "privacy loss of a halting transcript from the calibration's noise scales",
            )
        )
        spread = float(g.pbar_expost.max() - g.pbar_expost.min())
        out.append(
            Claim(
                f"expost.pbar_flat[r={ratio}]",
                "Thm 23",
                "pbar_t does not depend on t (Lambda_t = Lambda_0)",
                "fig_expost",
                f"pbar in [{fmt(g.pbar_expost.min())}, {fmt(g.pbar_expost.max())}]; Thm 21 at the same "
                f"eps_t: {fmt(g.pbar_global.iloc[0])} -> {fmt(g.pbar_global.iloc[-1])}",
                "spread 0",
                verdict_exact(spread <= 1e-12),
                "",
            )
        )
    for r in mc.itertuples():
        bt = float(beta_t(int(r.t), cfg["beta"]))
        tag = f"t={r.t},r={r.eps_ratio}"
        out.append(
            halt_claim(
                f"expost.halt_at_pstar[{tag}]",
                "Thm 23 (proof)",
                "fig_expost",
                int(r.halts_pstar),
                int(r.runs),
                1 - cfg["beta"] / 4 - bt / 6,
                "bound beta/4 + beta_t/6",
            )
        )
        out.append(
            continue_claim(
                f"expost.continue_at_pbar[{tag}]",
                "Thm 23 (proof)",
                "fig_expost",
                int(r.halts_pbar),
                int(r.runs),
                bt / 4 + bt / 6,
                cfg["beta"],
                "bound beta_t/4 + beta_t/6",
            )
        )
    return out
