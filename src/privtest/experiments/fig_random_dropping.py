"""fig_random_dropping: Corollaries 51 and 53 measured. Random dropping (a shared dropping probability, no per-step
noise) makes the false-halt probability grow like T * pbar, so a fixed pbar fails once T is large.

* Cohen et al. (Algorithm 4): p_t = pbar at every step t <= T; measured Pr[halt within T] against Lemma 50's lower
  bound (1/2)(1 - exp(-T N_t 2^(-1/theta_C) pbar)) used in Corollary 51.
* Ghazi et al. (Algorithm 5, uniform selection): T - G bad mechanisms (p_t = pbar) then G good ones (p_t = p*);
  measured Pr[a bad (+1, t) is selected] against the lower bound in the proof of Corollary 53.
* GTM on the same streams: Pr[halt within T - G steps at p_t = pbar] (a halt before the first good step is the
  GTM's bad selection; with G = 0 it is the false halt on Cohen's stream).
All three use the same pbar and eps_1/eps; beta is the GTM's and Cohen's failure probability. Analysis:
:mod:`privtest.analysis.fig_random_dropping`; claims: :mod:`privtest.checks.fig_random_dropping`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest import bounds
from privtest.registry import make_tester
from privtest.testers import bernoulli_stream


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows (method, T, G, events, runs, bound, pbar_max, events_at_pbar_max, event, source): events = false halts
    (Cohen, GTM) or bad selections (Ghazi) at p_t = pbar; ``bound`` the lower bound of the method's corollary (NaN for
    the GTM, whose Theorem 21 bounds the event by beta from above), ``pbar_max`` the largest pbar the method's
    guarantee covers (the GTM's pbar_{T-G}), ``events_at_pbar_max`` (GTM only, NaN otherwise) the same runs' false
    halts at p_t = pbar_{T-G} (coupled: a run halts within T - G steps iff p >= its critical p), ``source`` the paper
    result. No ``inputs``. The rates and their intervals: :mod:`privtest.analysis.fig_random_dropping`."""
    beta, r, ps, pbar, G = cfg["beta"], cfg["eps_ratio"], cfg["pstar"], cfg["pbar"], cfg["G"]
    eps1 = r * cfg["eps"]
    rows = []
    for T in cfg["T"]:
        cohen = make_tester("Cohen", cfg, ps, r, T)
        runs = max(cfg["runs"], cfg.get("run_steps", 0) // T)  # small T: more runs within the same step budget
        n = int(np.count_nonzero(cohen.critical_p(T, runs, rng).p_crit <= pbar))
        rows.append(
            dict(
                method="Cohen",
                T=T,
                G=0,
                events=n,
                runs=runs,
                bound=bounds.cohen_false_halt_lower(pbar, cohen.theta, T * cohen.N),
                pbar_max=bounds.cor51_pbar_max(beta, cohen.theta, T * cohen.N),
                event="false-halt",
                source="Cor 51 (Lemma 50)",
            )
        )
        ghazi = make_tester("Ghazi", cfg, ps, r, T)
        p = np.r_[np.full(T - G, pbar), np.full(G, ps)]
        selected, _ = ghazi.run(bernoulli_stream(p, eps1), runs, rng)
        bad = int(np.count_nonzero((selected >= 1) & (selected <= T - G)))
        rows.append(
            dict(
                method="Ghazi",
                T=T,
                G=G,
                events=bad,
                runs=runs,
                bound=bounds.cor53_bad_selection_lower(T, G, ps, pbar, ghazi.theta_G),
                pbar_max=bounds.cor53_pbar_max(beta, T, G, ps, ghazi.theta_G),
                event="bad-selection",
                source="Cor 53 (proof)",
            )
        )
        gtm = make_tester("GTM", cfg, ps, r, T - G)
        p_crit = gtm.critical_p(T - G, cfg["runs_gtm"], rng).p_crit
        n = int(np.count_nonzero(p_crit <= pbar))
        # the same coupled runs at p_t = pbar_{T-G} (<= pbar_t for every t <= T - G): inside Theorem 21
        n_at_pbar_max = int(np.count_nonzero(p_crit <= gtm.pbar(T - G)))
        rows.append(
            dict(
                method="GTM",
                T=T,
                G=G,
                events=n,
                runs=cfg["runs_gtm"],
                bound=np.nan,  # no lower bound: the GTM's guarantee (Theorem 21) bounds the event by beta
                pbar_max=gtm.pbar(T - G),
                events_at_pbar_max=n_at_pbar_max,
                event="false-halt",
                source="Thm 21",
            )
        )
    return pd.DataFrame(rows)
