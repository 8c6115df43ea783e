"""fig_hpo: the GTM as a private tester for hyperparameter search on real data (Section 1.5), against the private
selection a practitioner would pick instead (OpenDP's ``make_select_private_candidate``), at equal total privacy.

The stream: T hyperparameters h_t (number of features x clipping quantile, a public grid sweep) of a
differentially private Gaussian naive Bayes model (:mod:`privtest.hpo`) on the breast-cancer data shipped with
scikit-learn. M_t trains one eps_t-DP model with h_t on the private training split and outputs +1 iff its accuracy on
the public validation split is >= ``target``; every evaluation is a real training run. For each h_t and each
per-training eps used below, the true p_t = Pr[M_t = +1] is estimated non-privately from ``p_evals`` trainings
(Clopper-Pearson interval).

Scenarios (:func:`scenarios`), each a total privacy budget eps and a task (target accuracy, p*):
* the paper-scale one: eps = cfg eps (20), eps_t = cfg eps_t (1), the constant and the adaptive p* schedules;
* the practitioner's: eps = ``practitioner.eps`` (2) for each of ``practitioner.tasks``, with eps_t chosen by the
  calibration (:func:`calibrated_eps_t`: the largest eps_t with Lambda_T <= ``practitioner.Lambda_max``).
In each, ``searches`` private searches run the GTM (Theorem 21) and every other tester of ``methods`` (Cohen et al.)
at the same eps, eps_t and p*, and ``peer.searches`` runs of the peer: private selection with a known threshold
(Algorithm 2 = Liu-Talwar = OpenDP's combinator, :func:`privtest.hpo.private_selection`) over random search of the
same space, the same learner and data, at the same total eps: each candidate is trained at eps_Q = (eps - eps0)/2
(Lemma 34(1): 2 eps_Q + eps0 = eps; OpenDP's map 2 eps_Q). Two peer variants: stop probability ``stop_probability``
as OpenDP documents it, and as OpenDP 0.16.0 draws it (:func:`privtest.opendp.opendp_effective_stop_probability`).

Analysis (p_t intervals, plotted tables, summaries): :mod:`privtest.analysis.fig_hpo`; claims:
:mod:`privtest.checks.fig_hpo`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from privtest.gtm import GlobalCalibration
from privtest.hpo import (
    PEER,
    PEER_RELEASED,
    DPNaiveBayesMechanism,
    Hyper,
    RandomSearchCandidate,
    load_split,
    private_selection,
)
from privtest.opendp import opendp_effective_stop_probability
from privtest.registry import make_tester


def stream_hypers(cfg: dict) -> list[Hyper]:
    """The T = len(quantiles) * len(features) hyperparameters in the search's (public, data-independent) order: a grid
    sweep from the default model (all ``features`` in the order given, widest bounds first) towards stronger
    dimension reduction and clipping: quantiles outer loop, features inner loop, each in the order of ``cfg``."""
    return [Hyper(int(k), float(q)) for q in cfg["quantiles"] for k in cfg["features"]]


def schedules(cfg: dict, T: int, pstar: float | None = None) -> dict[str, np.ndarray]:
    """p*_t of each schedule, arrays (T,): "constant" (``pstar``, default cfg pstar) and "adaptive" (linear from
    cfg adaptive start to end)."""
    a = cfg["adaptive"]
    frac = np.arange(T) / max(T - 1, 1)
    const = float(cfg["pstar"] if pstar is None else pstar)
    return {"constant": np.full(T, const), "adaptive": a["start"] + (a["end"] - a["start"]) * frac}


def adaptive_methods(cfg: dict) -> list[str]:
    """Testers of ``methods`` that also run with the adaptive p*_t schedule (cfg ``adaptive.methods``, default: the
    first method); they are displayed as "<name> (constant p*)" and "<name> (adaptive p*)"."""
    return list(cfg["adaptive"].get("methods", cfg["methods"][:1]))


def tester_runs(cfg: dict, adaptive: bool) -> list[tuple[str, str, str]]:
    """(registry name, schedule "constant" | "adaptive", display name) of every tester run in a scenario, in order:
    each of ``methods`` at the constant p*, followed by its adaptive run where configured (and ``adaptive``)."""
    out = []
    for m in cfg["methods"]:
        if m in adaptive_methods(cfg):
            out.append((m, "constant", f"{m} (constant p*)"))
            if adaptive:
                out.append((m, "adaptive", f"{m} (adaptive p*)"))
        else:
            out.append((m, "constant", m))
    return out


def reference_method(cfg: dict) -> str:
    """Display name of the tester the others are compared with: the first of ``methods``, at the constant p*."""
    return tester_runs(cfg, False)[0][2]


def build_stream(cfg: dict, eps_t: float | None = None, target: float | None = None) -> list[DPNaiveBayesMechanism]:
    """The mechanisms M_1..M_T of the search (eps_t-DP each; defaults: cfg eps_t and target)."""
    split = load_split(cfg["dataset"], cfg["val_fraction"], cfg["split_seed"])
    eps_t = cfg["eps_t"] if eps_t is None else eps_t
    target = cfg["target"] if target is None else target
    return [DPNaiveBayesMechanism(split, h, eps_t, target) for h in stream_hypers(cfg)]


def calibrated_eps_t(cfg: dict, eps: float, T: int, Lambda_max: float) -> float:
    """eps_t chosen by Theorem 21's calibration for total eps: the largest eps_t with Lambda_T <= Lambda_max
    (ln Lambda_t = eps_t (mu1 + tau2 ln(4/beta_t)) is linear in eps_t and grows with t), i.e. a rejection threshold
    pbar_t >= p*/(gamma Lambda_max) at every step t <= T."""
    cal = GlobalCalibration(eps, cfg["beta"], cfg["theta"], cfg["gamma"])
    return math.log(Lambda_max) / cal.log_Lambda(T, 1.0)


def scenarios(cfg: dict, T: int) -> list[dict]:
    """The budgets and tasks compared (module docstring): dicts with name, eps, eps_t, target, pstar, adaptive."""

    def name(eps, target, pstar):
        return f"eps={eps:g}, target {target:g}, p*={pstar:g}"

    out = [
        dict(
            name=name(cfg["eps"], cfg["target"], cfg["pstar"]),
            eps=float(cfg["eps"]),
            eps_t=float(cfg["eps_t"]),
            target=float(cfg["target"]),
            pstar=float(cfg["pstar"]),
            adaptive=True,
        )
    ]
    pr = cfg.get("practitioner")
    if pr:
        eps_t = calibrated_eps_t(cfg, pr["eps"], T, pr["Lambda_max"])
        for task in pr["tasks"]:
            out.append(
                dict(
                    name=name(pr["eps"], task["target"], task["pstar"]),
                    eps=float(pr["eps"]),
                    eps_t=eps_t,
                    target=float(task["target"]),
                    pstar=float(task["pstar"]),
                    adaptive=False,
                )
            )
    return out


def peer_eps(cfg: dict, eps: float) -> float:
    """Per-candidate privacy of the peer at total eps: (eps - eps0)/2 (Lemma 34(1))."""
    return 0.5 * (eps - cfg["peer"]["eps0"])


def _method_rows(scenario, method, pstar, pbar, error_bound, halt_step, samples):
    T = samples.shape[1]
    rows = [
        dict(
            kind="step",
            scenario=scenario,
            method=method,
            t=t,
            pstar=pstar[t - 1],
            pbar=pbar[t - 1],
            error_bound=error_bound,
            halts=int(np.count_nonzero(halt_step == t)),
            trainings=int(samples[:, t - 1].sum()),
        )
        for t in range(1, T + 1)
    ]
    rows += _search_rows(scenario, method, halt_step, samples.sum(axis=1))
    return rows


def _search_rows(scenario, method, halt_step, trainings):
    return [
        dict(kind="search", scenario=scenario, method=method, search=i, halt_step=int(h), trainings=int(n))
        for i, (h, n) in enumerate(zip(halt_step, trainings, strict=True))
    ]


def _p_rows(cfg, hypers, eps_targets, rng):
    """p_t at every (per-training eps, target) needed: ``p_evals`` trainings per h and eps, thresholded per target."""
    split = load_split(cfg["dataset"], cfg["val_fraction"], cfg["split_seed"])
    n = int(cfg["p_evals"])
    rows = []
    for eps_train in sorted(eps_targets):
        for t, h in enumerate(hypers, start=1):
            m = DPNaiveBayesMechanism(split, h, eps_train, 1.0)
            acc = m.model.accuracies(n, m.X_val, split.y_val, rng)
            for target in sorted(eps_targets[eps_train]):
                rows.append(
                    dict(
                        kind="p",
                        eps_train=eps_train,
                        target=target,
                        t=t,
                        features=h.features,
                        quantile=h.quantile,
                        successes=int(np.count_nonzero(acc >= target - 1e-12)),
                        evals=n,
                        mean_acc=float(acc.mean()),
                    )
                )
    return rows


def simulate(cfg: dict, rng: np.random.Generator, inputs: dict[str, str]) -> pd.DataFrame:
    """p_t estimates and the outcomes of the private searches of every scenario and method (no ``inputs``).

    Returns:
        DataFrame with a ``kind`` column: "p" rows (eps_train, target, t, features, quantile, successes, evals,
        mean_acc), "method" rows (scenario, method, total_eps, eps_train, target, pstar, stop_probability,
        error_bound), "step" rows (scenario, method, t, pstar, pbar, halts at t, trainings at t summed over
        searches; testers only) and "search" rows (scenario, method, search, halt_step: the step or h index + 1 of the
        output, 0 = none, trainings).
    """
    hypers = stream_hypers(cfg)
    T = len(hypers)
    split = load_split(cfg["dataset"], cfg["val_fraction"], cfg["split_seed"])
    scen = scenarios(cfg, T)
    peer = cfg.get("peer")
    eps_targets: dict[float, set] = {}
    for sc in scen:
        eps_targets.setdefault(sc["eps_t"], set()).add(sc["target"])
        if peer:
            eps_targets.setdefault(peer_eps(cfg, sc["eps"]), set()).add(sc["target"])
    rows = _p_rows(cfg, hypers, eps_targets, rng)
    R = int(cfg["searches"])
    for sc in scen:
        mechs = [DPNaiveBayesMechanism(split, h, sc["eps_t"], sc["target"]) for h in hypers]
        c = cfg | {"eps": sc["eps"]}
        ratio = sc["eps_t"] / sc["eps"]
        sch = schedules(cfg, T, sc["pstar"])
        for family, schedule, method in tester_runs(cfg, sc["adaptive"]):
            pstar_t = sch[schedule] if schedule == "adaptive" or family in adaptive_methods(cfg) else sc["pstar"]
            tester = make_tester(family, c, pstar_t, ratio, T)
            halt_step, samples = tester.run(mechs, R, rng)
            pstar = np.array([tester.halt_p(t) for t in range(1, T + 1)])
            pbar = np.array([tester.pbar(t) for t in range(1, T + 1)])
            rows.append(
                dict(
                    kind="method",
                    scenario=sc["name"],
                    method=method,
                    total_eps=float(tester.privacy.eps),
                    eps_train=sc["eps_t"],
                    target=sc["target"],
                    pstar=sc["pstar"],
                    error_bound=tester.error_bound,
                    family=family,
                    schedule=schedule,
                    source=tester.source,
                )
            )
            rows += _method_rows(sc["name"], method, pstar, pbar, tester.error_bound, halt_step, np.asarray(samples))
        if not peer:
            continue
        eps_q = peer_eps(cfg, sc["eps"])
        for method, variant, xi in (
            (PEER, "documented", peer["stop_probability"]),
            (PEER_RELEASED, "released", opendp_effective_stop_probability(peer["stop_probability"])),
        ):
            Q = RandomSearchCandidate(split, hypers, eps_q)
            choice, draws = private_selection(Q, sc["target"], xi, peer["eps0"], int(peer["searches"]), rng)
            rows.append(
                dict(
                    kind="method",
                    scenario=sc["name"],
                    method=method,
                    total_eps=2 * eps_q + peer["eps0"],
                    eps_train=eps_q,
                    target=sc["target"],
                    pstar=np.nan,
                    stop_probability=xi,
                    family="selection",
                    schedule=variant,
                    source="Lemma 34",
                )
            )
            rows += _search_rows(sc["name"], method, choice, draws)
    return pd.DataFrame(rows)
