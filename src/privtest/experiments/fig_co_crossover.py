"""fig_co_crossover: when does BatchToCO (Algorithm 3) overtake the recomputation schemes a user would pick instead?
Long per-interaction streams, baselines in the CO model and with an oracle horizon, predicted vs measured crossover.

Streams (densest subgraph, Section 8.2; neighbouring streams differ in one contact / message):

* ``primary_school_contacts``: SocioPatterns primary school, one contact per step (125,773 steps, 242 nodes);
* ``collegemsg_messages``: CollegeMsg, one message per step (59,835 steps, 1,899 nodes), weighted multigraph;
* ``burst``: a *synthetic* stream (:func:`privtest.co.graphs.burst_stream`): one contact per step on a sparse random
  base graph, except one unannounced step right after a geometric recomputation step that brings ``burst``
  contacts on one pair, so OPT_t jumps by a large factor. Adaptivity matters here.

Batch algorithm A: the noisy-degree prefix algorithm on the real streams (:class:`privtest.co.graphs.DensestSubgraph`,
a stand-in; exact lazy simulation) and the exponential mechanism over node pairs on the synthetic stream
(:class:`privtest.co.graphs.DensestPair`, a stand-in whose score law is exact: after the jump U_t eps_t >> 1, where
the lazy simulation would need A at almost every evaluation). BatchToCO runs every step with the corrected constants
(``log_beta``, ERRATA.md), all eps at once; the baselines (:data:`privtest.co.batch_to_co.BASELINES`) need A only where
they recompute. f(X_t, Y_t) and exact OPT_t (Charikar's LP) are recorded at ``points`` log-spaced steps (plus the
steps around the burst).

Raw rows, ``source = "run"``: one per (stream, eps, method, run, t) with value, opt, opt_kind and, for BatchToCO, the
checkpoint index ell(t), t_ell, the active instance's eps_t, s, N_t, E[N_t], the explicit bound on E[N_t]
(Theorem 42(3)), Lemma 40's explicit bound ell_bound(t) (with the exact OPT_t), the largest Lemma 39(2) margin over
the checkpoints declared so far (``l39_margin``, with U_t >= OPT_t at each checkpoint; > 0 is a violation), Theorem
42(2)'s explicit guarantee at U_t (``guarantee``; where positive, also at a confidence bracket of V_A:
:func:`privtest.experiments._co.add_va_guarantees`) and the run's ex-post privacy loss; plus ``checkpoint_runs``
runs per (stream, eps) without ThresholdSelect for Lemma 40 (:func:`privtest.experiments._co.checkpoint_rows`, one
row each at t = T).

Raw rows, ``source = "model"`` (``run`` = -1): the prediction from the explicit constants. Each method's utility at t
is modelled through the batch algorithm at the method's per-call eps (``eps_call``): a fresh draw of A(X_t, eps_call)
for the schemes that recompute at t, a draw of A at the last recomputation evaluated on X_t for the geometric and
never-update schemes, and for BatchToCO the law of its ThresholdSelect output (Lemma 41): A(X_t, eps(ell, t)/2)
tilted by Pr[f + Lap(2/eps(ell, t)) >= h_ell], with ell = the median measured ell(t) (``BatchToCO``) or Lemma 40's
explicit bound (``BatchToCO [Lemma 40 ell]``). ``value`` is the model's mean f(X_t, Y), ``value_se`` its Monte Carlo
standard error (0 where A's score law is exact), from ``model_draws`` draws per point.
:mod:`privtest.analysis.fig_co_crossover` turns runs and model into the predicted and measured crossover per
(stream, eps, baseline).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.co import graphs
from privtest.co.batch_to_co import advanced_composition_eps, baselines, batch_to_co, geometric_steps
from privtest.co.frames import METHOD, METHOD_L40
from privtest.co.mechanisms import laplace_tail
from privtest.co.params import (
    BatchToCOParams,
    calls_bound,
    lemma40_max_checkpoints,
    theorem42_guarantee,
)
from privtest.experiments import _co
from privtest.schedule import omega
from privtest.stats import standard_error_from_sd


def record_steps(T: int, points: int, extra=()) -> np.ndarray:
    """``points`` log-spaced steps in [1, T] (rounded, distinct, always 1 and T) plus ``extra``: int ndarray."""
    base = np.round(np.logspace(0.0, math.log10(T), max(int(points), 2))).astype(np.int64)
    steps = np.unique(np.concatenate([base, [1, T], np.asarray(extra, dtype=np.int64)]))
    return steps[(steps >= 1) & (steps <= T)]


def load(name: str, cfg: dict, inputs: dict[str, str]):
    """(problem, record steps, exact OPT at them) of stream ``name`` (module docstring)."""
    T_max = cfg["T_max"].get(name)
    extra = ()
    if name == "burst":
        b = cfg["burst"]
        stream = graphs.truncate(graphs.burst_stream(**b), T_max)
        tb = b["t_burst"]
        geo = geometric_steps(cfg["kappa"], stream.T)
        extra = [tb - 1, tb, tb + 1, tb + 3, tb + 10, tb + 30, tb + 100, *geo, *(geo - 1)]
        cls = graphs.DensestPair
    else:
        stream = graphs.load_stream(name, inputs[f"wheel_{graphs.STREAMS[name][0]}"], T_max)
        cls = graphs.DensestSubgraph
    rec = record_steps(stream.T, cfg["points"], extra)
    exact = graphs.densest_subgraph_exact(stream, rec)
    opt, kind = graphs.upper_from_exact(stream.T, rec, exact)
    return cls(stream, opt, kind), rec, exact


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows (module docstring) per stream of ``cfg["streams"]``; ``inputs``: ``wheel_<source>`` for the real
    streams (source: ``privtest.co.graphs.STREAMS``)."""
    frames = []
    for name in cfg["streams"]:
        prob, rec, exact = load(name, cfg, inputs)
        runs = _runs(prob, name, rec, exact, cfg, rng)
        frames += [runs, _model(prob, name, rec, exact, runs, cfg, rng)]
    return pd.concat(frames, ignore_index=True)


def _runs(prob, name, rec, exact, cfg, rng) -> pd.DataFrame:
    R, K = cfg["runs"], rec.size
    plist = [BatchToCOParams.from_config(cfg, e) for e in cfg["eps"]]
    res = batch_to_co(prob, plist, R, rng, record=rec)
    U = np.asarray(prob.opt, dtype=float)
    frames = []
    for j, (eps, params) in enumerate(zip(cfg["eps"], plist, strict=True)):
        rows = slice(j * R, (j + 1) * R)
        base = dict(
            source="run",
            stream=name,
            eps=eps,
            t=np.tile(rec, R),
            run=np.repeat(np.arange(R), K),
            opt=np.tile(exact, R),
            opt_kind="exact",
        )
        ell, t_ell, g_ell, g_s = res.ell[rows], res.t_ell[rows], res.gtm_ell[rows], res.gtm_s[rows]
        expected, bound = np.full((R, K), np.nan), np.full((R, K), np.nan)
        for r, k in zip(*np.nonzero(g_ell > 0), strict=True):
            st = params.calibration(int(g_ell[r, k])).step(int(g_s[r, k]), float(res.eps_t[rows][r, k]), params.pstar)
            expected[r, k] = st.expected_samples
            bound[r, k] = calls_bound(params, int(g_ell[r, k]), int(g_s[r, k]), int(rec[k]))
        guar = np.full((R, K), np.nan)
        two = rec >= 2
        guar[:, two] = theorem42_guarantee(params, exact[None, two], ell[:, two], t_ell[:, two], rec[None, two])
        ell_bound = np.array(
            [lemma40_max_checkpoints(params, float(o), int(t), 400) for o, t in zip(exact, rec, strict=True)]
        )
        frames.append(
            pd.DataFrame(
                {
                    **base,
                    "method": METHOD,
                    "value": res.value[rows].ravel(),
                    "ell": ell.ravel(),
                    "t_ell": t_ell.ravel(),
                    "eps_t": res.eps_t[rows].ravel(),
                    "gtm_s": g_s.ravel(),
                    "gtm_calls": res.gtm_calls[rows].ravel(),
                    "expected_calls": expected.ravel(),
                    "calls_bound": bound.ravel(),
                    "ell_bound": np.tile(ell_bound, R),
                    "l39_margin": _co.checkpoint_margins(params, res.checkpoints[rows], U, rec).ravel(),
                    "guarantee": guar.ravel(),
                    "halt_loss": np.repeat(res.halt_loss[rows], K),
                }
            )
        )
        for method, vals in baselines(prob, eps, R, rng, cfg["kappa"], cfg["delta_adv"], record=rec).items():
            frames.append(pd.DataFrame({**base, "method": method, "value": vals.ravel()}))
    if cfg["checkpoint_runs"] > 0:
        frames.append(_co.checkpoint_rows(prob, plist, cfg, name, rng, opt_kind="upper bound", source="run"))
    return _co.add_va_guarantees(pd.concat(frames, ignore_index=True), prob, cfg, rng)


def _law(prob, t: int, eps_call: float, M: int, rng: np.random.Generator):
    """(values, probabilities) of f(X_t, A(X_t, eps_call)): exact if A's score law is known, else M draws."""
    dist = prob.score_distribution(t, eps_call, 0.0)
    if dist is not None:
        return dist[0], dist[1], True
    return prob.scores(t, eps_call, 0.0, M, rng), np.full(M, 1.0 / M), False


def _mean(values, probs, exact: bool, tilt=None) -> tuple[float, float]:
    """(mean, standard error) of a law given by values/probabilities, optionally tilted by weights ``tilt``
    (self-normalised; the standard error by the delta method, 0 for an exact law)."""
    w = probs if tilt is None else probs * tilt
    z = float(w.sum())
    if z <= 0:  # the tilt vanishes numerically: fall back to the untilted law
        w, z = probs, float(probs.sum())
    mu = float(np.sum(w * values) / z)
    if exact:
        return mu, 0.0
    n = values.size
    return mu, float(math.sqrt(np.sum((w / z) ** 2 * (values - mu) ** 2) * n / max(n - 1, 1)))


def _model(prob, name, rec, exact, runs, cfg, rng) -> pd.DataFrame:
    """The model rows (module docstring)."""
    M, T = cfg["model_draws"], prob.T
    frames = []
    for eps in cfg["eps"]:
        rows = []
        params = BatchToCOParams.from_config(cfg, eps)
        b = runs[(runs.eps == eps) & (runs.method == METHOD)]  # the runs with ThresholdSelect
        ell_med = np.round(b.groupby("t")["ell"].median().reindex(rec).to_numpy()).astype(np.int64)
        ell_l40 = b.groupby("t")["ell_bound"].first().reindex(rec).to_numpy().astype(np.int64)
        eps_adv = advanced_composition_eps(eps, cfg["delta_adv"], T)
        fresh = {
            "recompute every step": lambda t, e=eps: e * omega(t),
            "oracle-horizon recompute (basic)": lambda t, e=eps: e / T,
            "oracle-horizon recompute (advanced)": lambda t, e=eps_adv: e,
        }
        for k, t in enumerate(rec):
            t = int(t)
            for method, ell in ((METHOD, ell_med[k]), (METHOD_L40, ell_l40[k])):
                if t < 2 or ell < 2:  # before the first checkpoint: the initial call A(X_1, eps(1, 1))
                    e_t = float(params.eps_it(1, 1))
                    law = _law(prob, t, e_t, M, rng)
                    mu, se = _mean(*law)
                else:
                    e_t = float(params.eps_it(int(ell), t))
                    law = _law(prob, t, 0.5 * e_t, M, rng)
                    mu, se = _mean(*law, tilt=laplace_tail(float(params.h(int(ell))), law[0], e_t))
                rows.append((method, t, mu, se, 0.5 * e_t if t >= 2 and ell >= 2 else e_t))
            for method, e_of in fresh.items():
                e_c = float(e_of(t))
                mu, se = _mean(*_law(prob, t, e_c, M, rng))
                rows.append((method, t, mu, se, e_c))
        # Stale schemes: draws at their recomputation steps, evaluated at every recorded step.
        geo = geometric_steps(cfg["kappa"], T)
        for method, when, e_of in (
            ("recompute geometric", geo, lambda j, e=eps: e * omega(j)),
            ("never update", np.array([1]), lambda j, e=eps: e),
        ):
            Ys = [prob.sample(int(tj), float(e_of(j + 1)), 0.0, M, rng) for j, tj in enumerate(when)]
            for t in rec:
                j = int(np.searchsorted(when, t, side="right")) - 1
                v = prob.value(int(t), Ys[j])
                rows.append(
                    (method, int(t), float(v.mean()), standard_error_from_sd(float(v.std(ddof=1)), M), e_of(j + 1))
                )
        out = pd.DataFrame(rows, columns=["method", "t", "value", "value_se", "eps_call"])
        frames.append(
            out.assign(
                source="model",
                stream=name,
                eps=eps,
                run=-1,
                opt=np.asarray(exact)[np.searchsorted(rec, out.t)],
                opt_kind="exact",
            )
        )
    return pd.concat(frames, ignore_index=True)
