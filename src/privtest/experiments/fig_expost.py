"""fig_expost: the ex-post calibration of Theorem 23.

(a) Rejection threshold pbar_t vs t: flat under Theorem 23 (Lambda_t = (4/beta)^{eps_t/eps_C} e^{2/C_H} does not
    depend on t), decaying under Theorem 21 at the same input privacy; measured single-step halting at p* and pbar_t.
(b) Ex-post privacy loss of a transcript halting at t, eps_C + C_H eps_t ln(4/beta_t), growing like ln t, and the
    loss eps_C of every continuation prefix.

Claims (:mod:`privtest.checks.fig_expost`), on the exact per-step probabilities (:func:`privtest.exact.step_log_probs`,
columns ``miss_good_exact``, ``halt_pbar_exact``) with the Monte Carlo counts beside them: miss at p* <= beta_t/6 given
eta_1 <= mu1, halting at pbar_t <= beta_t/4 + beta_t/6 (the eta_2,t tail beta_t/4 of Lemma 19 plus the Poisson tail
beta_t/6 of Lemma 20).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.exact import step_log_probs
from privtest.gtm import ExPostCalibration, GlobalCalibration
from privtest.runs import halting_counts
from privtest.schedule import beta_t


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows per (eps_ratio, t): thresholds and losses of both calibrations on a log grid of t (``curve`` rows),
    plus Monte Carlo halting counts at p* and pbar_t at the ``mc_t`` steps (``mc`` rows). No ``inputs``."""
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
                    # Lemma 19(2)'s general Lambda_t from the calibrated noise scales (an independent code path)
                    Lambda_lemma19=math.exp(eps_t * (st.mu1 + st.tau2 * math.log(4 / beta_t(int(t), cfg["beta"])))),
                    halt_loss=st.halt_loss,
                    continue_loss=st.continue_loss,
                    halt_loss_theorem=cfg["eps_C"] + cfg["C_H"] * eps_t * math.log(4 / beta_t(int(t), cfg["beta"])),
                )
            )
        for t in cfg["mc_t"]:
            st = ex.step(int(t), eps_t, cfg["pstar"])
            hc = halting_counts(st, [cfg["pstar"], st.pbar], cfg["runs"], rng)
            miss_good = float(np.exp(step_log_probs(st, [cfg["pstar"]], eta1_max=st.mu1)[1][0]))
            halt_pbar = float(np.exp(step_log_probs(st, [st.pbar])[0][0]))
            rows.append(
                dict(
                    kind="mc",
                    eps_ratio=ratio,
                    t=int(t),
                    pbar_expost=st.pbar,
                    s=st.s,
                    halts_pstar=int(hc.halts[0]),
                    good_runs_pstar=int(hc.good_runs[0]),
                    good_halts_pstar=int(hc.good_halts[0]),
                    halts_pbar=int(hc.halts[1]),
                    runs=cfg["runs"],
                    beta_II=st.beta_II,
                    samples_mean=float(hc.samples[0] / cfg["runs"]),
                    halt_loss=st.halt_loss,
                    miss_good_exact=miss_good,
                    halt_pbar_exact=halt_pbar,
                )
            )
    return pd.DataFrame(rows)
