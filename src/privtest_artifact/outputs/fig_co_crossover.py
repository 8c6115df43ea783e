"""fig_co_crossover: when does BatchToCO (Algorithm 3) overtake the recomputation schemes a user would pick instead?
Long per-interaction streams, baselines in the CO model and with an oracle horizon, the crossover predicted from the
explicit constants (Theorem 42) vs measured.

Streams (densest subgraph, Section 8.2; neighbouring streams differ in one contact / message):

* ``primary_school_contacts``: SocioPatterns primary school, one contact per step (125,773 steps, 242 nodes);
* ``collegemsg_messages``: CollegeMsg, one message per step (59,835 steps, 1,899 nodes), weighted multigraph;
* ``burst``: a *synthetic* stream (:func:`privtest.co.graphs.burst_stream`): one contact per step on a sparse random
  base graph, except one unannounced step right after a geometric recomputation step that brings ``burst`` contacts on
  one pair, so OPT_t jumps by a large factor. Adaptivity matters here.

Simulation (:func:`simulate`). Batch algorithm A: the noisy-degree prefix algorithm on the real streams
(:class:`privtest.co.graphs.DensestSubgraph`, a stand-in; exact lazy simulation) and the exponential mechanism over node
pairs on the synthetic stream (:class:`privtest.co.graphs.DensestPair`, a stand-in whose score law is exact: after the
jump U_t eps_t >> 1, where the lazy simulation would need A at almost every evaluation). BatchToCO runs every step with
the corrected constants (``log_beta``, ERRATA.md), all eps at once; the baselines
(:data:`privtest.co.batch_to_co.BASELINES`) need A only where they recompute. f(X_t, Y_t) and exact OPT_t
(Charikar's LP) are recorded at ``points`` log-spaced steps (plus the steps around the burst).

Raw rows, ``source = "run"``: one per (stream, eps, method, run, t) with value, opt, opt_kind and, for BatchToCO, the
checkpoint index ell(t), t_ell, the active instance's eps_t, s, N_t, E[N_t], the explicit bound on E[N_t]
(Theorem 42(3)), Lemma 40's explicit bound ell_bound(t) (with the exact OPT_t), the largest Lemma 39(2) margin over the
checkpoints declared so far (``l39_margin``, with U_t >= OPT_t at each checkpoint; > 0 is a violation), Theorem 42(2)'s
explicit guarantee at U_t (``guarantee``; where positive, also at a confidence bracket of V_A:
:func:`privtest_artifact.outputs._co.add_va_guarantees`) and the run's ex-post privacy loss; plus ``checkpoint_runs``
runs per (stream, eps) without ThresholdSelect for Lemma 40 (:func:`privtest_artifact.outputs._co.checkpoint_rows`, one
row each at t = T).

Raw rows, ``source = "model"`` (``run`` = -1): the prediction from the explicit constants. Each method's utility at t is
modelled through the batch algorithm at the method's per-call eps (``eps_call``): a fresh draw of A(X_t, eps_call) for
the schemes that recompute at t, a draw of A at the last recomputation evaluated on X_t for the geometric and
never-update schemes, and for BatchToCO the law of its ThresholdSelect output (Lemma 41): A(X_t, eps(ell, t)/2) tilted
by Pr[f + Lap(2/eps(ell, t)) >= h_ell], with ell = the median measured ell(t) (``BatchToCO``) or Lemma 40's explicit
bound (``BatchToCO [Lemma 40 ell]``). ``value`` is the model's mean f(X_t, Y), ``value_se`` its Monte Carlo standard
error (0 where A's score law is exact), from ``model_draws`` draws per point.

Analysis (:func:`analyse`), turning runs and model into the predicted and measured crossover:

* ``differences``: BatchToCO's lead over each baseline per recorded step, measured from the runs and predicted from the
  model rows (:func:`differences`);
* ``crossovers``: the predicted and measured crossover per (stream, eps, baseline) with the measured trend at T
  (:func:`crossovers`);
* ``summary``: what the figure draws, mean and 10-90% band of f/OPT_t per (stream, eps, method, t);
* ``privacy``: per eps, Lemma 38's ledger and the realised ex-post loss;
* ``checkpoints``: per (stream, eps), Lemma 40's checkpoint count, with its explicit bound at T (``ell_bound_T``,
  :func:`long_run_checkpoints`);
* ``calls``: per (stream, eps), Theorem 42(3) up to t = T (:func:`long_run_calls`);
* ``utility``: per (stream, eps), Theorem 42(2).

The last four are what the long-run claims compare with the paper's bounds, computed from the BatchToCO runs
(``source = "run"``) as for every CO output (:mod:`privtest_artifact.outputs._co`), the last three in the order of the
raw rows.

Analysis keys of the config section (``x-stage: analysis``, never passed to the simulation): ``crossover_alpha``
(two-sided level of ahead/behind, Bonferroni over the recorded steps), ``tie_tolerance`` (a lead below it is a tie) and
``equivalence_margin``, which only the claims read (a predicted tie is confirmed if the measured lead at T is
established within it).

Claims (:func:`claims`): per (stream, eps, baseline) the measured lead of BatchToCO has the sign predicted from the
explicit constants (the crossover); per (stream, eps) Lemma 40's checkpoint count and Theorem 42(3)'s calls per step up
to t = T against their explicit bounds, Theorem 42(2) wherever it is not vacuous, and the realised privacy.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from privtest.co import graphs
from privtest.co.batch_to_co import BASELINES, advanced_composition_eps, baselines, batch_to_co, geometric_steps
from privtest.co.mechanisms import laplace_tail
from privtest.co.params import (
    BatchToCOParams,
    calls_bound,
    max_checkpoints,
    utility_guarantee,
)
from privtest.schedule import omega
from privtest_artifact import data
from privtest_artifact.claims import Claim, Normal, exact, fmt, statistical
from privtest_artifact.outputs import _co
from privtest_artifact.outputs._co import METHOD, METHOD_L40, calls_ratio, plotted
from privtest_artifact.stats import standard_error_from_sd


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
        stream = data.load_stream(name, inputs[f"wheel_{data.STREAMS[name][0]}"], T_max)
        cls = graphs.DensestSubgraph
    rec = record_steps(stream.T, cfg["points"], extra)
    exact = graphs.densest_subgraph_exact(stream, rec)
    opt, kind = graphs.upper_from_exact(stream.T, rec, exact)
    return cls(stream, opt, kind), rec, exact


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """Raw rows (module docstring) per stream of ``cfg["streams"]``; ``inputs``: ``wheel_<source>`` for the real
    streams (source: ``privtest_artifact.data.STREAMS``)."""
    frames = []
    for name in cfg["streams"]:
        prob, rec, exact = load(name, cfg, inputs)
        runs = _runs(prob, name, rec, exact, cfg, rng)
        frames += [runs, _model(prob, name, rec, exact, runs, cfg, rng)]
    return pd.concat(frames, ignore_index=True)


def _runs(prob, name, rec, exact, cfg, rng) -> pd.DataFrame:
    R, K = cfg["runs"], rec.size
    plist = [_co.co_params(cfg, e) for e in cfg["eps"]]
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
        eps_t, seen = res.eps_t[rows], {}  # (instance, its step, recorded step, eps_t) -> (E[N_t], its bound)
        for r, k in zip(*np.nonzero(g_ell > 0), strict=True):
            key = (int(g_ell[r, k]), int(g_s[r, k]), int(k), float(eps_t[r, k]))
            if key not in seen:
                st = params.calibration(key[0]).step(key[1], key[3], params.pstar)
                seen[key] = st.expected_samples, calls_bound(params, key[0], key[1], int(rec[k]))
            expected[r, k], bound[r, k] = seen[key]
        guar = np.full((R, K), np.nan)
        two = rec >= 2
        guar[:, two] = utility_guarantee(params, exact[None, two], ell[:, two], t_ell[:, two], rec[None, two])
        ell_bound = np.array([max_checkpoints(params, float(o), int(t), 400) for o, t in zip(exact, rec, strict=True)])
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
        params = _co.co_params(cfg, eps)
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


#: Methods drawn in the figure, in legend order.
PLOTTED = [METHOD, *BASELINES]
#: Relative slack of the exact comparison E[N_t] <= Theorem 42(3)'s explicit bound (floating point).
RTOL = 1e-9
#: Columns of the table ``calls``.
CALLS = [
    "stream",
    "eps",
    "runs",
    "steps",
    "steps_per_run",
    "max_expected_ratio",
    "steps_over_bound",
    "expected_calls_T",
    "calls_ratio_mean",
    "calls_ratio_se",
    "calls_ratio_runs",
    "calls_mean_T",
]


def analyse(raw: pd.DataFrame, cfg: dict) -> dict[str, pd.DataFrame]:
    """The tables ``differences``, ``crossovers``, ``summary``, ``privacy``, ``checkpoints``, ``calls`` and
    ``utility`` (module docstring) of one build's raw rows.

    Args:
        raw: the rows of :func:`simulate` (``source`` "run" and "model").
        cfg: the output's config section (keys ``crossover_alpha`` in (0, 1), ``tie_tolerance`` >= 0; BatchToCO's
            constants for ``privacy``).

    Raises:
        ValueError: if ``crossover_alpha`` is not in (0, 1) or ``tie_tolerance`` is negative.
    """
    diffs = differences(raw, cfg)
    runs = raw[raw.source == "run"]
    return {
        "differences": diffs,
        "crossovers": crossovers(diffs, cfg),
        "summary": summarize(raw),
        "privacy": _co.privacy(runs, cfg),
        "checkpoints": long_run_checkpoints(runs),
        "calls": long_run_calls(runs),
        "utility": _co.utility(runs, sort=False),
    }


def _analysis_keys(cfg: dict) -> tuple[float, float]:
    """``crossover_alpha`` and ``tie_tolerance`` of the config section, validated (ValueError naming the key)."""
    alpha, tol = float(cfg["crossover_alpha"]), float(cfg["tie_tolerance"])
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"crossover_alpha must be in (0, 1), got {alpha}.")
    if not tol >= 0.0:
        raise ValueError(f"tie_tolerance must be >= 0, got {tol}.")
    return alpha, tol


def differences(raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Per (stream, eps, baseline, recorded t): the lead d = mean f/OPT_t of BatchToCO minus that of the baseline,
    measured from the runs (``d_meas``, standard error ``se_meas`` from the spreads of both methods' independent runs)
    and predicted from the model rows (``d_pred``, ``se_pred``; ``d_pred_l40`` with Lemma 40's ell), BatchToCO's
    and the baseline's per-call eps (``eps_bco``, ``eps_base``), ``runs``, and the state of each (+1 ahead, -1 behind,
    0 tie: |d| must exceed max(z se, ``cfg["tie_tolerance"]``), z the two-sided normal quantile at
    ``cfg["crossover_alpha"]`` Bonferroni-corrected over the stream's recorded steps): ``state_meas``,
    ``state_pred``, ``state_pred_l40``."""
    from scipy import special  # ndtri: what scipy.stats.norm.ppf computes, without its slow import

    alpha, tol = _analysis_keys(cfg)
    runs = plotted(raw[raw.source == "run"]).assign(ratio=lambda d: d.value / d.opt)
    model = raw[raw.source == "model"].assign(ratio=lambda d: d.value / d.opt, ratio_se=lambda d: d.value_se / d.opt)
    meas = runs.groupby(["stream", "eps", "method", "t"])["ratio"].agg(["mean", "std", "count"])
    meas["se"] = meas["std"].fillna(0.0) / np.sqrt(meas["count"])
    pred = model.set_index(["stream", "eps", "method", "t"])[["ratio", "ratio_se", "eps_call"]].sort_index()
    out = []
    for (stream, eps), g in runs.groupby(["stream", "eps"], sort=False):
        ts = np.sort(g.t.unique())
        z = float(special.ndtri(1.0 - alpha / (2.0 * ts.size)))
        a = meas.loc[(stream, eps, METHOD)].reindex(ts)
        pa, pl = pred.loc[(stream, eps, METHOD)].reindex(ts), pred.loc[(stream, eps, METHOD_L40)].reindex(ts)
        for baseline in BASELINES:
            b = meas.loc[(stream, eps, baseline)].reindex(ts)
            pb = pred.loc[(stream, eps, baseline)].reindex(ts)
            f = pd.DataFrame(
                dict(
                    stream=stream,
                    eps=eps,
                    baseline=baseline,
                    t=ts,
                    runs=int(g.run.nunique()),
                    d_meas=(a["mean"] - b["mean"]).to_numpy(),
                    se_meas=np.hypot(a.se, b.se).to_numpy(),
                    d_pred=(pa.ratio - pb.ratio).to_numpy(),
                    se_pred=np.hypot(pa.ratio_se, pb.ratio_se).to_numpy(),
                    d_pred_l40=(pl.ratio - pb.ratio).to_numpy(),
                    se_pred_l40=np.hypot(pl.ratio_se, pb.ratio_se).to_numpy(),
                    eps_bco=pa.eps_call.to_numpy(),
                    eps_base=pb.eps_call.to_numpy(),
                )
            )
            for suffix in ("meas", "pred", "pred_l40"):
                f[f"state_{suffix}"] = _state(f[f"d_{suffix}"].to_numpy(), f[f"se_{suffix}"].to_numpy(), z, tol)
            out.append(f)
    return pd.concat(out, ignore_index=True)


def crossovers(diffs: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """Predicted and measured crossover of BatchToCO over each baseline, per (stream, eps, baseline).

    From the table of :func:`differences` (``diffs``): the crossover is the first recorded t >= 2 at which BatchToCO
    is ahead and after which it is never behind (inf if none), measured (``t_meas``) and predicted (``t_pred``;
    ``t_pred_lemma40`` with Lemma 40's explicit ell). ``t_eps`` is the first t after which BatchToCO's per-call eps
    (at the median ell(t)) is never below the baseline's: the crossover of the constants alone.

    Returns:
        DataFrame with stream, eps, baseline, model ("CO" or "oracle horizon"), t_pred, t_pred_lemma40, t_meas,
        t_eps (float, inf if not reached), steps_pred_ahead, steps_pred_behind (recorded steps t >= 2 where
        BatchToCO is predicted ahead, resp. behind: the steps the lead claim decides on), first_ahead, last_ahead
        (recorded steps where BatchToCO is measured ahead; NaN if never), first_behind, last_behind (likewise
        behind), T, runs, and the measured trend at the end:
        state_last ("ahead", "behind", "tie"), diff_last, se_last (f/OPT_t units), slope_last_decade (change of the
        lead per decade of t over the last decade of recorded steps), runs_to_resolve (runs per method that would
        resolve a tie at the last step if the observed lead held; NaN unless tied with |lead| above the tolerance).
    """
    from scipy import special  # ndtri: what scipy.stats.norm.ppf computes, without its slow import

    alpha, tol = _analysis_keys(cfg)
    out = []
    for (stream, eps, baseline), f in diffs.groupby(["stream", "eps", "baseline"], sort=False):
        ts, d, se = f.t.to_numpy(), f.d_meas.to_numpy(), f.se_meas.to_numpy()
        state = f.state_meas.to_numpy()
        T, n = int(ts[-1]), int(f.runs.iloc[0])
        z = float(special.ndtri(1.0 - alpha / (2.0 * ts.size)))
        row = dict(stream=stream, eps=eps, baseline=baseline, model=BASELINES[baseline][0], T=T, runs=n)
        row["t_meas"] = _first_lead(ts, state)
        row["t_pred"] = _first_lead(ts, f.state_pred.to_numpy())
        row["t_pred_lemma40"] = _first_lead(ts, f.state_pred_l40.to_numpy())
        de = (f.eps_bco - f.eps_base).to_numpy()
        row["t_eps"] = _first_lead(ts, np.sign(de) + (de == 0))
        pred = f.state_pred.to_numpy()[ts >= 2]
        row["steps_pred_ahead"], row["steps_pred_behind"] = int((pred > 0).sum()), int((pred < 0).sum())
        for word, v in (("ahead", 1), ("behind", -1)):
            hit = ts[state == v]
            row[f"first_{word}"] = float(hit[0]) if hit.size else float("nan")
            row[f"last_{word}"] = float(hit[-1]) if hit.size else float("nan")
        row["state_last"] = {1: "ahead", -1: "behind", 0: "tie"}[int(state[-1])]
        row["diff_last"], row["se_last"] = float(d[-1]), float(se[-1])
        last = ts >= T / 10.0
        row["slope_last_decade"] = (
            float(np.polyfit(np.log10(ts[last]), d[last], 1)[0]) if last.sum() >= 3 else float("nan")
        )
        row["runs_to_resolve"] = (
            float(math.ceil(n * (z * se[-1] / abs(d[-1])) ** 2))
            if state[-1] == 0 and abs(d[-1]) > tol and se[-1] > 0
            else float("nan")
        )
        out.append(row)
    return pd.DataFrame(out)


def _state(d, se, z: float, tol: float) -> np.ndarray:
    """+1 (BatchToCO ahead), -1 (behind), 0 (tie) per recorded step: |d| must exceed both z se and tol."""
    margin = np.maximum(z * np.nan_to_num(se), tol)
    return np.where(d > margin, 1, np.where(d < -margin, -1, 0))


def _first_lead(ts, state) -> float:
    """First t >= 2 with state +1 and no state -1 at any later step; inf if none."""
    behind_later = np.flip(np.cumsum(np.flip(state < 0))) > 0
    cand = np.flatnonzero((state > 0) & ~behind_later & (ts >= 2))
    return float(ts[cand[0]]) if cand.size else math.inf


def summarize(raw: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps, method, t) of the runs: mean, 10% and 90% quantiles of f/OPT_t, and OPT_t."""
    r = raw[(raw.source == "run") & raw.method.isin(PLOTTED)].assign(ratio=lambda d: d.value / d.opt)
    g = r.groupby(["stream", "eps", "method", "t"], sort=True)
    out = g["ratio"].agg(mean="mean", q10=lambda x: x.quantile(0.1), q90=lambda x: x.quantile(0.9)).reset_index()
    out["opt"] = g["opt"].first().to_numpy()
    return out


def long_run_checkpoints(runs: pd.DataFrame) -> pd.DataFrame:
    """The table ``checkpoints`` of :func:`privtest_artifact.outputs._co.checkpoints` on the run rows ``runs``
    (``source = "run"``), in the order of the raw rows, with ``ell_bound_T``: Lemma 40's explicit bound on ell(T) at
    the BatchToCO runs' last recorded step T (column ``ell_bound`` of the raw rows)."""
    out = _co.checkpoints(runs, sort=False)
    bco = runs[runs.method == METHOD]
    bound = {key: int(g[g.t == g.t.max()].ell_bound.iloc[0]) for key, g in bco.groupby(["stream", "eps"], sort=False)}
    out["ell_bound_T"] = [bound[(s, e)] for s, e in zip(out.stream, out.eps, strict=True)]
    return out


def long_run_calls(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (stream, eps) of the BatchToCO run rows (in their order), over the recorded GTM steps t >= 2 with an exact
    expectation E[N_t]: ``runs`` (all runs), ``steps`` (the (run, t) compared), ``steps_per_run`` (steps // runs),
    ``max_expected_ratio`` = max E[N_t] / Theorem 42(3)'s explicit bound (column ``calls_bound``),
    ``steps_over_bound`` (the (run, t) with E[N_t] > bound (1 + :data:`RTOL`)), ``expected_calls_T`` (mean E[N_T]
    over runs at the last step T), per run sum N_t / sum E[N_t] over the recorded steps
    (:func:`privtest_artifact.outputs._co.calls_ratio`: ``calls_ratio_mean``, ``calls_ratio_se``, ``calls_ratio_runs``)
    and the mean N_T (``calls_mean_T``).

    Returns:
        DataFrame with the columns :data:`CALLS`.
    """
    out = []
    for (stream, eps), g in runs[runs.method == METHOD].groupby(["stream", "eps"], sort=False):
        R, T = int(g.run.nunique()), int(g.t.max())
        steps = g[(g.t >= 2) & g.expected_calls.notna()]
        at_T = steps[steps.t == T]
        r = calls_ratio(steps)
        out.append(
            dict(
                stream=stream,
                eps=eps,
                runs=R,
                steps=len(steps),
                steps_per_run=len(steps) // max(R, 1),
                max_expected_ratio=float((steps.expected_calls / steps.calls_bound).max()),
                steps_over_bound=int((steps.expected_calls > steps.calls_bound * (1 + RTOL)).sum()),
                expected_calls_T=float(at_T.expected_calls.mean()),
                calls_ratio_mean=r.mean,
                calls_ratio_se=r.se,
                calls_ratio_runs=r.runs,
                calls_mean_T=float(at_T.gtm_calls.mean()),
            )
        )
    return pd.DataFrame(out, columns=CALLS)


PREFIX = "co.crossover"
#: A-priori range of one run's lead (a difference of two f/OPT_t in [0, 1]): where every run gives the same lead
#: (standard error 0) the cell is decided by :class:`privtest_artifact.claims.Normal`'s bounded-range test on it.
LEAD_SPAN = (-1.0, 1.0)


def claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """The claims of the module docstring (prefix ``co.crossover``).

    Args:
        tables: the analysis tables (:func:`analyse`: ``differences``, ``crossovers``, ``privacy``, ``checkpoints``,
            ``calls``, ``utility``).
        cfg: the config section (``equivalence_margin``, BatchToCO's constants, and the analysis keys the analysis
            used, for the notes).
    """
    out = _crossover_claims(tables, cfg)
    calls = tables["calls"].set_index(["stream", "eps"])
    utility = tables["utility"].set_index(["stream", "eps"])
    for r in tables["checkpoints"].itertuples():
        params = _co.co_params(cfg, float(r.eps))
        key = (r.stream, r.eps)
        out += _long_run_claims(r, calls.loc[key], utility.loc[key], params, cfg, f"{r.stream},eps={r.eps}")
    out += [_co.privacy_claim(r, f"{PREFIX}.privacy_budget[eps={r.eps}]") for r in tables["privacy"].itertuples()]
    return out


def _crossover_claims(tables: dict[str, pd.DataFrame], cfg: dict) -> list[Claim]:
    """One claim per (stream, eps, baseline): at every recorded step where the prediction is not a tie, BatchToCO's
    measured lead has the predicted sign (cells: Normal evidence of the measured lead, at_least 0 where predicted
    ahead, at_most 0 where predicted behind); where the prediction is a tie everywhere, the measured lead at T lies
    within +-equivalence_margin. A cell whose runs all give the same lead (standard error 0, e.g. both methods at
    f = 0 or at f = OPT_t in every run) is decided by the bounded-range test on :data:`LEAD_SPAN`, not as exact: a
    tie of 4 identical runs is INCONCLUSIVE, with the runs that would resolve it."""
    diffs = tables["differences"]
    summary = tables["crossovers"].set_index(["stream", "eps", "baseline"])
    margin = float(cfg["equivalence_margin"])
    out = []
    for (stream, eps, baseline), f in diffs.groupby(["stream", "eps", "baseline"], sort=False):
        s = summary.loc[(stream, eps, baseline)]
        n = float(f.runs.iloc[0])
        f2 = f[(f.t >= 2) & (f.state_pred != 0)]
        cells = [
            Normal(
                float(r.d_meas),
                float(r.se_meas),
                n,
                "at_least" if r.state_pred > 0 else "at_most",
                0.0,
                f"t={r.t}",
                span=LEAD_SPAN,
            )
            for r in f2.itertuples()
        ]
        last = f.iloc[-1]
        if not cells:
            cells = [
                Normal(
                    float(last.d_meas),
                    float(last.se_meas),
                    n,
                    "within",
                    (-margin, margin),
                    f"t={last.t}",
                    span=LEAD_SPAN,
                )
            ]
            bound = f"|lead at T| <= {margin} (predicted: tie at every step, no crossover)"
        else:
            bound = (
                f"lead >= 0 at the {int(s.steps_pred_ahead)} steps predicted ahead, <= 0 at the "
                f"{int(s.steps_pred_behind)} predicted behind"
            )
        out.append(
            statistical(
                claim_id=f"{PREFIX}.lead[{stream},eps={eps},{baseline}]",
                source="Thm 42, Alg 3 constants",
                statement=f"BatchToCO vs {baseline} ({s.model}): the lead in f/OPT_t has the sign predicted from "
                "Algorithm 3's per-call eps (the batch algorithm at eps_batch, ThresholdSelect's output law) at "
                "every recorded step; crossover t_pred",
                measured=f"crossover measured {_t(s.t_meas)}, predicted {_t(s.t_pred)} (with Lemma 40's ell "
                f"{_t(s.t_pred_lemma40)}; per-call eps crossover {_t(s.t_eps)}); at T = {int(s['T'])} {s.state_last} "
                f"by {float(s.diff_last):+.3f} {_spread(float(s.se_last))}, trend {float(s.slope_last_decade):+.3f}"
                "/decade",
                bound=bound,
                evidence=cells,
                note="crossover = first t where BatchToCO is ahead and never behind afterwards (ahead/behind at "
                f"level {cfg['crossover_alpha']} per pair, Bonferroni over t, ties below {cfg['tie_tolerance']}); "
                "figures/data/fig_co_crossover_summary.csv",
            )
        )
    return out


def _long_run_claims(cp, calls, utility, params: BatchToCOParams, cfg: dict, tag: str) -> list[Claim]:
    """Per (stream, eps): Lemma 40 (``cp``: a row of the table ``checkpoints``), Theorem 42(3)'s explicit bound on
    E[N_t] and the calls against their expectation (``calls``: a row of ``calls``) and Theorem 42(2) (``utility``:
    a row of ``utility``)."""
    out = [_co.checkpoint_claim(cp, params, f"{PREFIX}.checkpoints[{tag}]")]
    out[0] = dataclasses.replace(out[0], measured=f"{out[0].measured}; Lemma 40's bound at T {int(cp.ell_bound_T)}")
    out.append(
        exact(
            claim_id=f"{PREFIX}.calls_vs_bound[{tag}]",
            source="Thm 42(3), Cor 35(3)",
            statement="E[N_t] of every GTM step <= rho_s e^{1/C_1}/(1 - 2/(C_H ln(4/beta_s))) "
            "= O(ln(t/beta)/(p*(gamma-1)^2)) up to t = T",
            measured=f"max E[N_t]/bound {fmt(float(calls.max_expected_ratio))} over {int(calls.steps)} (run, t); "
            f"E[N_T] {fmt(float(calls.expected_calls_T))}",
            bound="<= 1",
            ok=int(calls.steps_over_bound) == 0,
            note="exact expectation at the recorded steps (the measured means are checked by calls_per_step)",
        )
    )
    m, se = float(calls.calls_ratio_mean), float(calls.calls_ratio_se)
    out.append(
        statistical(
            claim_id=f"{PREFIX}.calls_per_step[{tag}]",
            source="Thm 42(3), Cor 35(3)",
            statement="GTM calls of A per step match their exact expectation up to t = T",
            measured=f"sum N / sum E[N] over the recorded steps = {fmt(m)} +- {fmt(1.96 * se)}; mean N_t at T "
            f"{fmt(float(calls.calls_mean_T))}",
            bound="in [0.9, 1.1]",
            evidence=Normal(m, se, int(calls.calls_ratio_runs), "within", (0.9, 1.1), span=_co.CALLS_RATIO_SPAN),
            note=f"{int(calls.steps_per_run)} recorded steps per run",
        )
    )
    out.append(_co.utility_claim(utility, params, cfg, f"{PREFIX}.utility[{tag}]"))
    return out


def _t(x) -> str:
    x = float(x)
    return "never" if not np.isfinite(x) else f"t = {int(x)}"


def _spread(se: float) -> str:
    """'+- se', or, for identical runs, which test decides instead (no claim rests on a zero standard error)."""
    return f"+- {fmt(se, 2)}" if se > 0 else "(identical in every run: decided by the bounded-range test on [-1, 1])"
