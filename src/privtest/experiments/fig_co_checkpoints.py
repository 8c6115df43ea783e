"""fig_co_checkpoints: checkpoints ell(t) of BatchToCO vs t against Lemma 40's explicit bound, and calls of A per step
against Theorem 42(3) / Corollary 35(3).

No new simulation: the rows summarise the BatchToCO runs of ``fig_co_densest`` (two streams, one step per day / per
10-minute window), ``fig_co_maxcut`` (one step per edge) and ``fig_co_crossover`` (one step per contact / message, up
to t = 125,773, recorded at log-spaced steps) (``inputs``).
Per (stream, eps, t): the number of runs, mean and max of ell(t) over runs, OPT_t, mean GTM calls N_t and their
exact expectation. The explicit bounds the figure draws next to them (Lemma 39(2)'s on ell(t), Theorem 42(3)'s on
the calls) are evaluated by :mod:`privtest.analysis.fig_co_checkpoints` with this section's BatchToCO constants,
which must equal those of the summarised experiments (all three sections merge the shared ``co`` block of
config/config.yaml); :func:`simulate` checks them against the raw rows' ``eps_t``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from privtest.co.frames import METHOD
from privtest.co.params import BatchToCOParams


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Rows per (stream, eps, t) (module docstring) from the raw tables of ``inputs`` whose names start with ``raw_``
    (``raw_fig_co_densest``, ``raw_fig_co_maxcut``). ``rng`` is unused."""
    del rng  # summary of other experiments' runs
    raw = pd.concat([pd.read_csv(inputs[k]) for k in sorted(inputs) if k.startswith("raw_")])
    raw = raw[raw.method == METHOD]
    if "source" in raw:  # fig_co_crossover: its runs, not its model rows
        raw = raw[raw.source.isna() | (raw.source == "run")]
    rows = []
    for (stream, eps), g in raw.groupby(["stream", "eps"], sort=True):
        params = BatchToCOParams.from_config(cfg, float(eps))
        run = g[g.t >= 2]
        stepped = np.where(run.t == run.t_ell, run.ell, run.ell + 1)  # the instance that stepped at t
        if not np.allclose(run.eps_t, params.eps_it(stepped, run.t.to_numpy()), rtol=1e-9, atol=0):
            raise ValueError(f"fig_co_checkpoints: its BatchToCO constants differ from those of the {stream} runs.")
        by_t = g.groupby("t")
        ell_mean, ell_max = by_t["ell"].mean(), by_t["ell"].max()
        opt = by_t["opt"].first()
        calls = by_t["gtm_calls"].mean()
        expected = by_t["expected_calls"].mean()
        for t in ell_mean.index:
            rows.append(
                dict(
                    stream=stream,
                    eps=eps,
                    t=int(t),
                    runs=int(g.run.nunique()),
                    ell_mean=ell_mean[t],
                    ell_max=int(ell_max[t]),
                    opt=float(opt[t]),
                    calls_mean=calls[t],
                    calls_expected=expected[t],
                )
            )
    return pd.DataFrame(rows)
