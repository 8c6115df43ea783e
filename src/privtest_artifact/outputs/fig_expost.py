"""fig_expost: the ex-post calibration of Theorem 23.

(a) Rejection threshold pbar_t vs t: flat under Theorem 23 (Lambda_t = (4/beta)^{eps_t/eps_C} e^{2/C_H} does not depend
    on t), decaying under Theorem 21 at the same input privacy; measured single-step halting at p* and pbar_t.
(b) Ex-post privacy loss of a transcript halting at t, eps_C + C_H eps_t ln(4/beta_t), growing like ln t, and the loss
    eps_C of every continuation prefix.

Simulation (:func:`simulate`), per eps_ratio: ``curve`` rows of both calibrations' thresholds and losses on a log grid
of t, and ``mc`` rows at the ``mc_t`` steps: Monte Carlo halting counts at p* and pbar_t and the exact per-step
probabilities (:func:`privtest.exact.step_log_probs`, columns ``miss_good_exact``, ``halt_pbar_exact``).

Analysis (:func:`analyse`):

* ``series``: the raw rows as drawn (``figures/data/fig_expost.csv``): pbar_expost, pbar_global (probabilities),
  halt_loss, continue_loss (privacy loss, nats) per (eps_ratio, t);
* ``steps``: one row per mc step (eps_ratio, t), in simulation order: the exact ``miss_good_exact`` (Pr[miss a halt at
  p* | eta_1 <= mu1]) with its bound ``beta_II`` (beta_t/6) and its Monte Carlo count ``misses_good`` of
  ``good_runs_pstar``; the exact ``halt_pbar_exact`` (Pr[halt at pbar_t]) with its bound
  ``continue_bound`` = beta_t/4 + beta_t/6 (:func:`privtest.gtm.continue_bound`) and its count ``halts_pbar`` of
  ``runs``;
* ``rates``: per mc step, in simulation order: pbar_expost, halt_loss and the Monte Carlo halting rates
  ``halt_at_pstar`` (at p*) and ``halt_at_pbar`` (at pbar_t), the figure's table.

Claims (:func:`claims`): Theorem 23's ex-post calibration keeps the per-step Type II (at p*) and Type I (at pbar_t)
budgets, checked on the exact probabilities with the Monte Carlo counts beside them: miss at p* <= beta_t/6 given
eta_1 <= mu1, halting at pbar_t <= beta_t/4 + beta_t/6 (the eta_2,t tail beta_t/4 of Lemma 19 plus the Poisson tail
beta_t/6 of Lemma 20). The calibration's identities (Lemma 17's halting loss equals the theorem's loss function, pbar_t
is flat in t) cannot fail and are unit tests (tests/test_gtm.py::test_expost_identities_over_t).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.exact import step_log_probs
from privtest.gtm import ExPostCalibration, GlobalCalibration, continue_bound
from privtest.runs import halting_counts
from privtest.schedule import beta_t
from privtest_artifact.claims import Claim
from privtest_artifact.outputs._common import exact_step_claim


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


#: Columns of the table ``steps``.
STEP_COLUMNS = ["eps_ratio", "t", "miss_good_exact", "beta_II", "misses_good", "good_runs_pstar", "halt_pbar_exact",
                "continue_bound", "halts_pbar", "runs"]  # fmt: skip
#: Columns of the table ``rates``.
RATE_COLUMNS = ["eps_ratio", "t", "pbar_expost", "halt_at_pstar", "halt_at_pbar", "halt_loss"]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables of the module docstring; ``cfg`` needs ``beta`` (in (0, 1))."""
    return {"series": raw.copy(), "steps": steps(raw, cfg["beta"]), "rates": rates(raw)}


def steps(raw: pd.DataFrame, beta: float) -> pd.DataFrame:
    """The table ``steps`` (module docstring) of the raw ``mc`` rows; ValueError if ``beta`` is not in (0, 1)
    (:func:`privtest.gtm.continue_bound`)."""
    mc = raw[raw.kind == "mc"].copy()
    mc["t"] = mc["t"].astype(int)
    mc["continue_bound"] = continue_bound(mc["t"].to_numpy(), beta, theorem=23)
    mc["misses_good"] = (mc["good_runs_pstar"] - mc["good_halts_pstar"]).astype(int)
    return mc[STEP_COLUMNS].reset_index(drop=True)


def rates(raw: pd.DataFrame) -> pd.DataFrame:
    """The table ``rates`` (module docstring) of the raw ``mc`` rows."""
    mc = raw[raw.kind == "mc"].copy()
    mc["t"] = mc["t"].astype(int)
    mc["halt_at_pstar"] = mc["halts_pstar"] / mc["runs"]
    mc["halt_at_pbar"] = mc["halts_pbar"] / mc["runs"]
    return mc[RATE_COLUMNS].reset_index(drop=True)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """Per mc step t and ratio (the table ``steps`` of :func:`analyse`): the exact miss probability at p* given
    eta_1 <= mu1 (<= beta_II = beta_t/6) and the exact halting probability at pbar_t (<= beta_t/4 + beta_t/6), Monte
    Carlo beside each."""
    steps = tables["steps"]
    out = []
    for r in steps.itertuples():
        tag = f"t={r.t},r={r.eps_ratio}"
        out.append(
            exact_step_claim(
                f"expost.halt_at_pstar[{tag}]",
                "Thm 23 (proof: Lemma 19(3), Lemma 20)",
                "Pr[one step misses a halt | eta_1 <= mu1] <= beta_II = beta_t/6 when p_t = p* (Lemma 20)",
                float(r.miss_good_exact),
                float(r.beta_II),
                int(r.misses_good),
                int(r.good_runs_pstar),
            )
        )
        out.append(
            exact_step_claim(
                f"expost.continue_at_pbar[{tag}]",
                "Thm 23 (proof: Lemma 19(2), Lemma 20)",
                "one step halts w.p. <= beta_t/4 + beta_t/6 when p_t = pbar_t",
                float(r.halt_pbar_exact),
                float(r.continue_bound),
                int(r.halts_pbar),
                int(r.runs),
                "bound = Pr[eta_2,t > tau2,t ln(4/beta_t)] (beta_t/4, Lemma 19 with c_G = 1/4) + the Poisson tail "
                "beta_t/6 (Lemma 20)",
            )
        )
    return out
