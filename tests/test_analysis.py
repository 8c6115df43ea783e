"""The analysis stage: privtest_artifact.outputs.<id>.analyse(raw, cfg) -> named tables, written and read
back by privtest_artifact.io.write_analysis/read_analysis; the analysis keys of the config, which only judge or display
(x-stage: analysis), never reach a simulation; the claims read the analysis tables alone, and the notebooks read the
tables, importing no output module.

The dry run proving that changing such a key reruns the analysis, the check and the notebook but no simulation is
``test_analysis_keys_rerun_the_analysis_never_the_simulation`` in tests/test_workflow.py.
"""

import ast
import importlib
import inspect
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from privtest_workflow import catalogue, configuration
from privtest_workflow.deps import ImportGraph, StageCode
from scipy import stats

from privtest_artifact.io import read_analysis, write_analysis

ROOT = Path(__file__).resolve().parents[1]
CAT = catalogue.load(ROOT)
GRAPH = ImportGraph(ROOT / "src")
STAGES = StageCode(GRAPH)
ANALYSED = sorted(i for i in CAT if GRAPH.module_file(catalogue.OUTPUT_MODULE.format(i)) is not None)
KEYS = configuration.load_analysis_keys(ROOT)


def test_tables_round_trip_through_csv(tmp_path):
    tables = {
        "a": pd.DataFrame({"t": [1, 2], "x": [0.5, math.inf], "s": ["u", "v"], "n": [np.nan, 1.0]}),
        "b": pd.DataFrame({"y": [1.0 / 3.0]}),
    }
    write_analysis(tables, tmp_path / "out")
    back = read_analysis(tmp_path / "out")
    assert list(back) == ["a", "b"]
    pd.testing.assert_frame_equal(back["a"], tables["a"])
    assert back["b"].y.iloc[0] == pytest.approx(1.0 / 3.0, rel=1e-9)  # written to 10 significant digits


@pytest.mark.parametrize(
    "tables, word",
    [({}, "at least one"), ({"a b": pd.DataFrame()}, "identifier"), ({"a": [1, 2]}, "DataFrame")],
)
def test_write_refuses_what_is_not_a_table(tmp_path, tables, word):
    with pytest.raises(ValueError, match=word):
        write_analysis(tables, tmp_path)


def test_read_refuses_a_missing_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such analysis directory"):
        read_analysis(tmp_path / "missing")


def test_read_refuses_an_empty_directory(tmp_path):
    with pytest.raises(ValueError, match="no analysis table"):
        read_analysis(tmp_path)


def test_every_output_has_an_analysis_and_claims_that_take_its_tables():
    assert ANALYSED == sorted(CAT), sorted(set(CAT) - set(ANALYSED))  # simulate -> analyse -> claims
    for oid in ANALYSED:
        module = importlib.import_module(catalogue.OUTPUT_MODULE.format(oid))
        assert list(inspect.signature(module.analyse).parameters) == ["raw", "cfg"], oid
        assert list(inspect.signature(module.claims).parameters) == ["tables", "cfg"], oid


@pytest.mark.parametrize("oid", ANALYSED)
def test_the_notebook_of_an_output_imports_no_output_module(oid):
    # the notebook reads the analysis tables (privtest_artifact.io.read_analysis): it depends on no module of
    # privtest_artifact.outputs, in particular not on the output's own simulation, analysis and claims
    outputs = str(ROOT / "src/privtest_artifact/outputs")
    notebook = GRAPH.of_notebook(ROOT / f"notebooks/{oid}.ipynb")
    bad = [f for f in notebook if f.startswith(outputs)]
    assert not bad, f"{oid}: the notebook imports {bad}"
    assert str(ROOT / f"src/privtest_artifact/outputs/{oid}.py") not in notebook
    assert str(ROOT / "src/privtest_artifact/io.py") in notebook  # read_analysis


def test_analysis_keys_follow_refs_and_allof():
    schema = {
        "$defs": {"shared": {"properties": {"a": {"type": "number", "x-stage": "analysis"}, "b": {}}}},
        "properties": {
            "s": {"allOf": [{"$ref": "#/$defs/shared"}, {"properties": {"c": {"x-stage": "analysis"}, "d": {}}}]},
            "plain": {"properties": {"e": {"x-stage": "simulation"}}},
        },
    }
    assert configuration.analysis_keys(schema) == {"s": frozenset({"a", "c"})}
    schema["properties"]["plain"]["properties"]["e"]["x-stage"] = "plot"
    with pytest.raises(configuration.ConfigError, match="plain.e"):
        configuration.analysis_keys(schema)


def test_simulation_params_leave_out_the_analysis_keys():
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    resolved = configuration.load(config, CAT, ROOT)
    assert {"crossover_alpha", "tie_tolerance", "equivalence_margin"} <= KEYS["fig_co_crossover"]
    full = CAT["fig_co_crossover"].cfg(resolved)
    sim = CAT["fig_co_crossover"].cfg(resolved, drop=KEYS["fig_co_crossover"])
    assert set(full) - set(sim) == KEYS["fig_co_crossover"]
    assert {k: full[k] for k in sim} == sim


def _strings(source: str) -> set[str]:
    """The constants of ``source`` (Python text) that could name a config key: all but the argument names that
    ``privtest._validate`` checks put into their error messages (``_validate.open_unit("confidence", confidence)``
    validates an argument, it reads no config)."""
    tree = ast.parse(source)
    labels = {
        id(a)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)
        if n.func.value.id == "_validate"
        for a in [*n.args, *(k.value for k in n.keywords)]
    }
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and id(n) not in labels}


def test_strings_name_config_keys_not_validated_argument_names():
    source = 'x = cfg["tie_tolerance"]; y = {k: cfg[k] for k in ("n",)}; _validate.open_unit("confidence", c)'
    assert {"tie_tolerance", "n"} <= _strings(source) and "confidence" not in _strings(source)


@pytest.mark.parametrize("oid", sorted(i for i in KEYS if CAT[i].simulates))
def test_no_simulation_reads_an_analysis_key(oid):
    # statically: no code the simulate job executes names the key (cfg["tie_tolerance"] would, and would then fail
    # with a KeyError in the workflow, which passes the simulation only its simulation keys). The output's module also
    # holds its analysis and claims, which read these keys: what counts is what the workflow tracks for the job
    # (deps.StageCode), the artifact definitions reached from simulate and the library files they import.
    files, code = STAGES.of(catalogue.OUTPUT_MODULE.format(oid), "simulate")
    assert "def simulate(" in code
    for key in KEYS[oid]:
        readers = [f for f in files if key in _strings(Path(f).read_text())]
        readers += [d.split("\n", 1)[0] for d in code.split("\n\n# ") if key in _strings(d)]
        assert not readers, f"{oid}.{key} is x-stage: analysis but {readers} name it"


def _parameters(notebook: Path) -> set[str]:
    """The names the ``parameters`` cell of ``notebook`` assigns (what papermill may inject)."""
    cells = json.loads(notebook.read_text())["cells"]
    cell = [c for c in cells if c["cell_type"] == "code" and "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(cell) == 1, notebook
    tree = ast.parse("".join(cell[0]["source"]))
    return {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


@pytest.mark.parametrize("oid", ANALYSED)
def test_a_notebook_receives_the_analysis_and_cfg_and_no_raw(oid):
    # workflow/scripts/run_notebook.py passes cfg, the analysis directory, the output's files and, where the catalogue
    # says so, its claims: never the raw table
    nb = ROOT / f"notebooks/{oid}.ipynb"
    params = _parameters(nb)
    assert {"analysis", "cfg"} <= params and "raw" not in params, (oid, params)
    assert "read_analysis(analysis)" in nb.read_text(), oid


# --- one unit test per analysis module: a hand-made raw frame -> the expected table values ---


def test_fig_sample_complexity_summary_is_the_last_step_and_the_worst_mean_to_bound():
    from privtest_artifact.outputs import fig_sample_complexity as mod

    rows = [("GTM", 1, 2.0, 4.0, 0, 0.05), ("GTM", 10, 3.0, 4.0, 3, 0.05), ("Cohen", 1, 5.0, 5.0, 0, 0.0)]
    raw = pd.DataFrame(
        [
            dict(
                method=m,
                eps_ratio=0.1,
                pstar=0.2,
                t=t,
                samples_mean=s,
                bound=b,
                exceed_runs=e,
                runs=100,
                budget=bu,
                source="src",
            )
            for m, t, s, b, e, bu in rows
        ]  # fmt: skip
    )
    tables = mod.analyse(raw, {})
    pd.testing.assert_frame_equal(tables["series"], raw)
    s = tables["summary"].set_index("method")
    assert list(s.index) == ["GTM", "Cohen"]
    assert s.loc["GTM", "T"] == 10 and s.loc["GTM", "exceed_runs"] == 3
    assert s.loc["GTM", "max_mean_to_bound"] == pytest.approx(0.75)
    assert s.loc["Cohen", "max_mean_to_bound"] == pytest.approx(1.0)
    assert s.loc["GTM", "claimed"] and not s.loc["Cohen", "claimed"]  # budget 0: by construction, not a claim


def test_fig_amortized_samples_summary_keeps_the_finite_bounds_at_budget_beta_over_2():
    from privtest_artifact.outputs import fig_amortized_samples as mod

    raw = pd.DataFrame(
        [
            dict(
                eps_ratio=0.1,
                pstar=0.2,
                T=T,
                above=a,
                runs=50,
                amortized_mean=3.0,
                bound=b,
                leading_term=1.0,
                per_step_bound=9.0,
                sigma=2.0,
            )
            for T, a, b in ((4, 0, np.nan), (100, 2, 7.0))
        ]  # fmt: skip
    )
    s = mod.analyse(raw, {"beta": 0.1})["summary"]
    assert list(s["T"]) == [100] and s["above"].iloc[0] == 2
    assert s["budget"].iloc[0] == pytest.approx(0.05)
    with pytest.raises(ValueError, match="beta"):
        mod.summarize(raw, 1.5)


def test_fig_expost_steps_and_rates():
    from privtest.schedule import beta_t
    from privtest_artifact.outputs import fig_expost as mod

    mc = dict(
        kind="mc",
        eps_ratio=0.1,
        t=100,
        pbar_expost=0.3,
        halt_loss=1.5,
        miss_good_exact=1e-9,
        beta_II=1e-7,
        good_runs_pstar=90,
        good_halts_pstar=88,
        halt_pbar_exact=1e-3,
        halts_pbar=5,
        halts_pstar=95,
        runs=100,
    )
    raw = pd.DataFrame([dict(mc, kind="curve"), mc])
    tables = mod.analyse(raw, {"beta": 0.05})
    st, rt = tables["steps"].iloc[0], tables["rates"].iloc[0]
    assert len(tables["steps"]) == 1 and st.misses_good == 2
    bt = float(beta_t(100, 0.05))
    assert st.continue_bound == pytest.approx(bt / 4 + bt / 6)
    assert rt.halt_at_pstar == pytest.approx(0.95) and rt.halt_at_pbar == pytest.approx(0.05)


def test_fig_purification_shift_steps_and_rates():
    from privtest.schedule import beta_t
    from privtest_artifact.outputs import fig_purification as mod

    sm = dict(kind="smoothing", delta=0.001, phi=0.02, p=0.25, p_tilde=0.26, plus=27, n=100)
    g = dict(kind="gtm", delta=0.001, phi=0.02, t=3, pstar=0.5, pbar=0.1, p_halt=0.52, p_continue=0.08,
             halts_at_halt=180, good_runs_at_halt=190, good_halts_at_halt=179, halts_at_continue=4, beta_II=1e-3,
             runs=200, worst_log_ratio=0.049, miss_good_exact=1e-4, halt_continue_exact=1e-3)  # fmt: skip
    tables = mod.analyse(pd.DataFrame([sm, g]), {"eps": 1.0, "eps_ratio": 0.05, "beta": 0.05})
    s, st, rt = tables["smoothing"].iloc[0], tables["steps"].iloc[0], tables["rates"].iloc[0]
    assert s.shift_exact == pytest.approx(0.01) and s.shift_measured == pytest.approx(0.02)
    assert st.eps1 == pytest.approx(0.05) and st.misses_good == 11
    assert st.continue_bound == pytest.approx(float(beta_t(3, 0.05)) / 2)
    assert rt.halt_rate_at_halt == pytest.approx(0.9) and rt.halt_rate_at_continue == pytest.approx(0.02)


def test_fig_rejection_threshold_measured_rates_intervals_and_error_bars():
    from privtest_artifact.outputs import fig_rejection_threshold as mod
    from privtest_artifact.stats import clopper_pearson

    th = dict(kind="theory", curve="GTM (max)", method="GTM", pstar=0.5, pbar=0.1)
    me = dict(kind="measured", curve="GTM", method="GTM", pstar=0.5, pbar=0.2, pbar_upper=0.15, pbar_theory=0.1,
              halts_at_theory=5, runs=100, budget=0.05)  # fmt: skip
    tables = mod.analyse(pd.DataFrame([th, me, dict(me, method="Cohen", pbar_upper=0.5)]), {})
    assert list(tables["theory"].curve) == ["GTM (max)"]
    m = tables["measured"].iloc[0]
    lo, hi = clopper_pearson(5, 100)
    assert m.rate == pytest.approx(0.05) and (m.ci_low, m.ci_high) == pytest.approx((lo, hi))
    assert list(tables["points"].pbar_err) == pytest.approx([0.0, 0.3])  # clipped at 0 below pbar


def test_fig_noise_penalty_margins_and_capped_curves():
    import math

    from privtest import bounds
    from privtest_artifact.outputs import fig_noise_penalty as mod

    cfg = {"eps": 1.0, "eps_ratio": 0.1, "beta": 0.05}
    lb = [bounds.lower_bound_log_noise_penalty(t, 1.0, 0.1, 0.05) / math.log(10) for t in (2, 50)]
    raw = pd.DataFrame(
        [dict(curve="A", method="GTM", t=1, log10_Lambda=0.0, log10_gap=-9.0, delta=0.0, cor30=True)]
        + [dict(curve="A", method="GTM", t=t, log10_Lambda=b, log10_gap=b + o, delta=0.0, cor30=True)
           for t, b, o in ((2, lb[0], 0.5), (50, lb[1], 0.25))]
        + [dict(curve="B", method="x", t=2, log10_Lambda=400.0, log10_gap=-9.0, delta=0.0, cor30=False)]
    )  # fmt: skip
    tables = mod.analyse(raw, cfg)
    assert list(tables["margins"].curve) == ["A"]  # t = 1 and unconstrained curves are left out
    assert tables["margins"].min_log10_margin.iloc[0] == pytest.approx(0.25)
    assert tables["curves"].Lambda.iloc[-1] == pytest.approx(1e300)  # capped for plotting
    assert sorted(tables) == ["curves", "margins", "series"]


def test_fig_lower_bounds_margins_standard_errors_and_thm29_sums():
    from privtest_artifact.outputs import fig_lower_bounds as mod

    a = [
        dict(panel="a", kind="theory", method=m, beta=0.1, T=T, x=0.0, y=y)
        for m, T, y in (("LowerBound", 10, 1.0), ("LowerBound", 100, 2.0), ("GTM", 10, 1.5), ("GTM", 100, 2.25))
    ]
    b = [dict(panel="b", kind="theory", method="LowerBound", beta=0.1, T=100, samples=2.0),
         dict(panel="b", kind="measured", method="GTM", beta=0.1, T=100, samples=5.0, samples_sd=2.0, runs=400,
              lower_bound=2.0),
         dict(panel="b", kind="measured", method="Cohen", beta=0.1, T=100, samples=5.0, samples_sd=np.nan, runs=1,
              lower_bound=2.0)]  # fmt: skip
    c = [dict(panel="c", kind="measured", method="AboveThreshold", beta=0.1, T=100, alpha=3.0, errors=4, runs=200,
              alpha_sum_lower=4.0)]  # fmt: skip
    tables = mod.analyse(pd.DataFrame(a + b + c), {})
    assert tables["margins"].to_dict("records") == [{"method": "GTM", "min_margin": pytest.approx(0.25)}]
    s = tables["samples"].set_index("method")
    assert s.loc["GTM", "se"] == pytest.approx(0.1) and s.loc["GTM", "ci_half"] == pytest.approx(0.196)
    assert s.loc["Cohen", "se"] == 0.0 and np.isnan(s.loc["LowerBound", "se"])
    at = tables["above_threshold"].iloc[0]
    assert at.rate == pytest.approx(0.02) and at.alpha_sum == 6.0 and at.alpha_sum_ratio == pytest.approx(1.5)


# One unit test per analysis module: a hand-made raw frame -> the expected table values.


def _section(oid: str) -> dict:
    """Output ``oid``'s full config section (config/config.yaml), analysis keys included, as analyse gets it."""
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    return dict(CAT[oid].cfg(configuration.load(config, CAT, ROOT)))


def test_fig_random_dropping_analysis_rates_and_intervals():
    from privtest_artifact.outputs import fig_random_dropping
    from privtest_artifact.stats import clopper_pearson

    raw = pd.DataFrame(
        dict(method=["Cohen", "GTM"], T=[10, 10], events=[10, 0], runs=[100, 50], bound=[0.05, np.nan])
    ).assign(events_at_pbar_max=[np.nan, 5.0])
    s = fig_random_dropping.analyse(raw, {})["summary"]
    assert s.rate.tolist() == [0.1, 0.0]
    assert (s.ci_low[0], s.ci_high[0]) == clopper_pearson(10, 100)
    assert s.ci_low[1] == 0.0 and 0 < s.ci_high[1] < 0.1  # no event: the interval starts at 0
    assert np.isnan(s.rate_at_pbar_max[0]) and np.isnan(s.ci_low_at_pbar_max[0])  # Cohen: no coupled GTM count
    assert s.rate_at_pbar_max[1] == 0.1
    assert (s.ci_low_at_pbar_max[1], s.ci_high_at_pbar_max[1]) == pytest.approx(clopper_pearson(5, 50))


def test_fig_privacy_audit_analysis_cells_and_pass_level_flags():
    from privtest_artifact.outputs import fig_privacy_audit
    from privtest_artifact.outputs.fig_privacy_audit import raw_row

    witness = dict(witness="", coding="output", event="== 1", direction="a/b", n_a=100, n_b=100)
    carried = [witness | dict(k_a=30, k_b=10), witness | dict(k_a=0, k_b=0)]
    raw = pd.DataFrame(
        [
            raw_row("GTM", 1.0, 0.0, 1.0, carried, 100, 1, "i", eps_exact=0.5),
            raw_row("SVT 3", 0.5, 0.0, 2.0, carried, 100, 1, "i"),
        ]
    )
    out = fig_privacy_audit.analyse(raw, {"confidence": 0.95})
    c = out["cells"]
    # the witness whose event was never seen is no cell; GTM is tested at its claim and at its exact loss
    assert c[["mechanism", "against", "cell"]].values.tolist() == [
        ["GTM", "claimed", 1],
        ["GTM", "exact", 1],
        ["SVT 3", "claimed", 1],
    ]
    assert (c.k == 30).all() and (c.n == 40).all()
    assert c.bound.tolist() == pytest.approx([math.exp(e) / (1 + math.exp(e)) for e in (1.0, 0.5, 0.5)])
    s = out["summary"]
    assert list(s.columns[:-2]) == fig_privacy_audit.COLUMNS  # the figure data, then the pass-level columns
    assert s.expected.tolist() == ["private", "broken"] and not s.flagged.any()
    assert np.isnan(s.runs_to_flag[0]) and s.runs_to_flag[1] > 0  # the broken, unflagged variant: the audit's power
    assert np.isnan(s.eps_lower_pass[0]) and np.isnan(s.runs_to_flag_pass[0])  # private: no pass-level flag
    # 30 of 40 at the level 0.05 / 2 (two carried witnesses): below ln 3 (the plug-in estimate) and the claim 0.5
    assert s.eps_lower[0] == pytest.approx(
        math.log(stats.beta.ppf(0.025, 30, 11) / (1 - stats.beta.ppf(0.025, 30, 11)))
    )
    assert 0 < s.eps_lower_pass[1] < s.eps_lower[1] < 0.5 < math.log(3)  # the pass level is stricter


def _real_audits(confidence: float) -> dict:
    """Small real audits at ``confidence``: a witness search over SVT input pairs and codings, and a one-pair audit
    of randomized response at eps = 1 with a claimed delta."""
    from privtest.audit import audit, estimate_epsilon
    from privtest.svt_variants import CODINGS, SVTVariant, witness_pairs

    keep = math.exp(1.0) / (1 + math.exp(1.0))
    ra = lambda k, r: (r.random(k) < keep).astype(np.int64)  # noqa: E731
    rb = lambda k, r: (r.random(k) >= keep).astype(np.int64)  # noqa: E731
    svt = SVTVariant("alg3", 1.0)
    return {
        "SVT alg3": audit(svt.run, witness_pairs(5), CODINGS, 2000, np.random.default_rng(5), confidence, pilot=1000),
        "RR": estimate_epsilon(ra, rb, 3000, np.random.default_rng(6), confidence, delta=1e-3),
    }


@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_fig_privacy_audit_analysis_reproduces_the_audits_own_verdict(confidence):
    # the simulation records the carried witnesses' counts only; judged at the audit's confidence, the analysis
    # gives exactly what privtest.audit.audit returned (through a CSV round trip, as the workflow reads the raw)
    import io

    from privtest_artifact.outputs import fig_privacy_audit
    from privtest_artifact.outputs.fig_privacy_audit import _row

    res = _real_audits(confidence)
    assert len(res["SVT alg3"].cells) == 2 and len(res["RR"].cells) == 4  # carried witnesses: 2 (audit), 4 (one pair)
    rows = [_row("SVT alg3", 1.0, 0.0, 2.5, res["SVT alg3"]), _row("RR", 1.0, 1e-3, 1.0, res["RR"], "rr pair")]
    raw = pd.read_csv(io.StringIO(pd.DataFrame(rows).to_csv(index=False)))
    assert not {"eps_lower", "alpha", "cells", "event"} & set(raw.columns)  # nothing the confidence decides
    judged = fig_privacy_audit.judge(raw, confidence).set_index("mechanism")
    for name, r in res.items():
        got = judged.loc[name]
        assert (got.eps_lower, got.eps_hat, got.alpha) == (r.eps_lower, r.eps_hat, r.alpha)
        assert got.event == f"{r.event} ({r.direction})"
        assert (got.k_a, got.k_b, got.n_a, got.n_b) == (r.k_a, r.k_b, r.n_a, r.n_b)
        counts = [{k: c[k] for k in ("k_a", "k_b", "n_a", "n_b")} for c in r.cells]
        assert json.loads(got.cells) == counts  # best first, as the audit sorts them
    assert judged.loc["SVT alg3", "inputs"] == f"{res['SVT alg3'].witness}; {res['SVT alg3'].coding}"
    assert judged.loc["RR", "inputs"] == "rr pair"  # a one-pair audit keeps the simulation's description
    summary = fig_privacy_audit.analyse(raw, {"confidence": confidence})["summary"]
    assert summary.eps_lower.tolist() == [r.eps_lower for r in res.values()]


def test_fig_privacy_audit_confidence_judges_the_same_counts():
    # the counts drawn do not depend on the confidence (same seeds): only the verdict does, and the analysis
    # judging the 95% audit's raw at 80% gives the 80% audit's verdict
    from privtest_artifact.outputs import fig_privacy_audit
    from privtest_artifact.outputs.fig_privacy_audit import _row

    high, low = _real_audits(0.95), _real_audits(0.8)
    delta = {"SVT alg3": 0.0, "RR": 1e-3}
    raw = {
        c: pd.DataFrame([_row(k, 1.0, delta[k], 1.0, r) for k, r in a.items()]) for c, a in ((0.95, high), (0.8, low))
    }
    assert raw[0.95].carried.tolist() == raw[0.8].carried.tolist()
    judged = fig_privacy_audit.judge(raw[0.95], 0.8).set_index("mechanism")
    for name, r in low.items():
        assert (judged.loc[name, "eps_lower"], judged.loc[name, "alpha"]) == (r.eps_lower, r.alpha)
        assert judged.loc[name, "eps_lower"] != high[name].eps_lower


def test_fig_calibration_analysis_budgets_rows_and_maxima():
    from privtest.schedule import beta_t
    from privtest_artifact.outputs import fig_calibration

    def row(cal, pstar, error_type, samples, error):
        return dict(
            calibration=cal, t=1, eps_ratio=0.1, pstar=pstar, samples_mean=samples, error_type=error_type
        ) | dict(error_exact=error, budget=0.01)

    raw = pd.DataFrame(
        [
            row("paper", 0.2, "II at p*", 10.0, 1e-3),
            row("paper", 0.9, "II at p*", 20.0, 2e-3),
            row("exact tails", 0.2, "II at p*", 5.0, 4e-3),
            row("exact tails", 0.9, "II at p*", 10.0, 3e-3),
            row("certified (T=10)", 0.2, "II at p*", 1.0, 0.5),
            row("paper", 0.2, "whole run, T=10", 10.0, 0.04),
        ]
    )
    raw = raw.drop(columns="budget")  # the analysis adds the proof's budgets
    out = fig_calibration.analyse(raw, {"beta": 0.05})
    budget = out["rows"].set_index("error_type").budget
    assert budget["II at p*"].iloc[0] == pytest.approx(0.05 / 4 + float(beta_t(1, 0.05)) / 4)
    assert budget["whole run, T=10"] == 0.05
    with pytest.raises(ValueError, match="error_type"):
        fig_calibration.analyse(raw.assign(error_type="II somewhere"), {"beta": 0.05})
    assert len(out["per_step"]) == 4 and set(out["per_step"].calibration) == {"paper", "exact tails"}
    assert out["whole_run"].error_exact.tolist() == [0.04]
    assert out["samples_ratio"].ratio.tolist() == [0.5, 0.5]
    m = out["error_max"].set_index("calibration")
    assert (m.budget == 0.05 / 4 + float(beta_t(1, 0.05)) / 4).all()
    assert m.loc["paper", "error_exact"] == 2e-3 and m.loc["exact tails", "error_exact"] == 4e-3


def test_fig_co_checkpoints_analysis_bounds_and_ratios_over_steps_from_two():
    from privtest.co.params import BatchToCOParams, calls_bound, max_checkpoints
    from privtest_artifact.outputs import fig_co_checkpoints

    cfg = _section("fig_co_checkpoints")
    rows = pd.DataFrame(  # the rows of runs_summary, per (stream, eps, t)
        dict(stream="s", eps=[0.5] * 3 + [1.0] * 2, t=[1, 2, 3, 1, 2], runs=4, ell_mean=1.0, ell_max=[1, 2, 2, 1, 1])
        | dict(opt=[1.0, 2.0, 3.0, 1.0, 2.0], calls_mean=[0.0, 8.0, 9.0, 0.0, 4.0])
        | dict(calls_expected=[np.nan, 9.0, 10.0, np.nan, np.nan])
    )
    s = fig_co_checkpoints.with_bounds(rows, cfg)
    assert list(s.columns[:10]) == ["stream", "eps", "t", "runs", "ell_mean", "ell_max", "ell_bound"] + [
        "calls_mean",
        "calls_expected",
        "calls_bound",
    ]  # the figure data's columns
    p = BatchToCOParams.from_config(cfg, 0.5)
    assert s.ell_bound[2] == max_checkpoints(p, 3.0, 3)
    assert s.calls_bound[2] == calls_bound(p, 3, 2, 3)  # instance max ell(t) + 1, step t - 1
    assert np.isnan(s.calls_bound[0]) and np.isnan(s.calls_bound[3])  # no GTM step at t = 1
    c = fig_co_checkpoints.calls(s)
    assert c.steps.tolist() == [2, 1]
    assert c.max_calls_ratio[0] == max(8.0 / s.calls_bound[1], 9.0 / s.calls_bound[2])
    assert c.max_expected_ratio[0] == max(9.0 / s.calls_bound[1], 10.0 / s.calls_bound[2])
    assert np.isnan(c.max_expected_ratio[1])  # a step without its exact expectation cannot be judged


def test_fig_co_checkpoints_analysis_summarises_the_runs_of_the_outputs_it_reads():
    # no simulation: analyse gets {output id: raw table} of the CO outputs (catalogue reads) and summarises their
    # BatchToCO runs per (stream, eps, t), leaving out other methods and fig_co_crossover's model rows
    from privtest.co.params import BatchToCOParams
    from privtest_artifact.outputs import fig_co_checkpoints
    from privtest_artifact.outputs._co import METHOD

    cfg = _section("fig_co_checkpoints")
    t, run = np.tile([1, 2, 3], 2), np.repeat([0, 1], 3)
    ell = np.array([1, 1, 2, 1, 2, 2])
    eps_t = np.where(t >= 2, BatchToCOParams.from_config(cfg, 0.5).eps_it(ell + 1, t), np.nan)  # t_ell = 1: ell + 1
    runs = pd.DataFrame(
        dict(method=METHOD, stream="s", eps=0.5, t=t, run=run, t_ell=1, ell=ell, eps_t=eps_t, opt=t * 1.0)
        | dict(gtm_calls=[0.0, 8.0, 9.0, 0.0, 10.0, 11.0], expected_calls=np.where(t >= 2, 8.0 + t, np.nan))
    )
    baseline = runs.assign(method="Greedy", ell=99)
    model = runs.iloc[:3].assign(source="model", ell=99, run=-1)
    raw = {"fig_co_densest": pd.concat([runs, baseline]), "fig_co_crossover": model}
    s = fig_co_checkpoints.runs_summary(raw, cfg)
    assert s.t.tolist() == [1, 2, 3] and (s.runs == 2).all() and s.opt.tolist() == [1.0, 2.0, 3.0]
    assert s.ell_mean.tolist() == [1.0, 1.5, 2.0] and s.ell_max.tolist() == [1, 2, 2]
    assert s.calls_mean.tolist() == [0.0, 9.0, 10.0] and s.calls_expected.tolist()[1:] == [10.0, 11.0]
    out = fig_co_checkpoints.analyse(raw, cfg)
    pd.testing.assert_frame_equal(out["summary"], fig_co_checkpoints.with_bounds(s, cfg))
    pd.testing.assert_frame_equal(out["calls"], fig_co_checkpoints.calls(out["summary"]))
    # runs drawn with other BatchToCO constants are refused
    with pytest.raises(ValueError, match="constants differ"):
        fig_co_checkpoints.runs_summary({"fig_co_densest": runs.assign(eps_t=runs.eps_t * 1.01)}, cfg)


def test_table1_analysis_judges_with_the_recorded_guarantees():
    from privtest import bounds
    from privtest_artifact.outputs import table1
    from privtest_artifact.stats import clopper_pearson

    cfg = _section("table1")
    eps, beta, r, T, pstar = cfg["eps"], cfg["beta"], 0.1, 100, 0.2

    def row(method, pbar, pbar_upper):
        return (
            dict(method=method, eps=eps, eps1=r * eps, eps_ratio=r, T=T, pstar=pstar, eps0=np.nan, delta=np.nan)
            | dict(source="src", runs=1000, type2_runs=500, halts_at_pbar_theory=10, halt_p=pstar, halts_at_halt_p=490)
            | dict(halts_at_pstar=490, samples_measured=100.0, samples_sd=20.0, samples_measured_kind="Monte Carlo")
            | dict(pbar_theory=0.01, pbar_measured=pbar, pbar_measured_upper=pbar_upper)
            | dict(type1_bound=0.04, type2_bound=0.03, privacy_delta=0.0)
        )

    raw = pd.DataFrame([row("GTM", 0.02, 0.03), row("Cohen", 0.001, 0.002), dict(method="LowerBound", T=T)])
    out = table1.analyse(raw, cfg)
    assert not set(table1.RECORDED) & set(out["table"]) and len(out["table"]) == 3
    g = out["testers"].set_index("method").loc["GTM"]
    assert g.cell == "r=0.1,p*=0.2" and g.cont_rate == 0.01 and g.cont_bound == 0.04
    assert (g.cont_low, g.cont_high) == clopper_pearson(10, 1000)
    assert g.halt_rate == 0.98 and g.halt_need == pytest.approx(0.97)
    assert not g.no_guarantee_at_pstar and np.isnan(g.moreover_bound) and not g.with_delta
    assert g.samples_se == pytest.approx(20.0 / math.sqrt(1000))
    assert g.samples_lb == bounds.lower_bound_sample_complexity(pstar, eps, r * eps, beta)
    c = out["testers"].set_index("method").loc["Cohen"]
    assert c.cor30_pbar == bounds.lower_bound_rejection_threshold(T, pstar, eps, r * eps, 2 * beta, 0.0)
    q = out["ratios"].iloc[0]
    assert (q.ratio_low, q.ratio_high, q.runs) == (0.02 / 0.002, 0.03 / 0.001, 1000)
    assert q.factor == table1.table1_factor(r, T, pstar, cfg)


def _table2_raw(own: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """table2's analysis input: its own raw table ``own`` and the raw tables of the CO outputs it reads (catalogue
    reads), here without a run (no summarised line)."""
    from can_fail.co_synth import bco_runs

    return {"table2": own} | {name: bco_runs().iloc[:0] for name in CAT["table2"].reads}


def test_table2_analysis_evaluates_row_2_against_row_1():
    from privtest_artifact.outputs import table2

    cfg = _section("table2")
    # the analysis numbers the lines by stream: row 1's and one of no row
    streams = [table2.ROWS[1].stream, "s2"]
    raw = pd.DataFrame(dict(application="a", stream=streams, eps=cfg["approx"]["eps"][0], opt_T=100.0)).assign(
        level="line"
    )
    runs = raw[["application", "stream", "eps"]].assign(level="run", run=0, utility_margin_va_hi=-1.0)
    raw = pd.concat([raw, runs.assign(utility_margin_va_lo=-2.0)], ignore_index=True)
    rows = table2.analyse(_table2_raw(raw), cfg)["rows"]
    ry = rows[rows.table2_row == 2]
    assert len(rows) == 2 + len(cfg["approx"]["eps"]) and str(rows.table2_row.dtype) == "Int64"
    assert ry.opt_T.iloc[0] == 100.0 and np.isnan(ry.opt_T.iloc[1:]).all()  # row 1 ran at the first eps only
    assert (ry.ry_error > 0).all() and (ry.eps_batch_max > 0).all()
    assert ry.ry_error.is_monotonic_decreasing  # k^7 m ln m / eps_batch^3: larger eps, smaller error
    # no row 1: nothing to evaluate row 2 against
    assert len(table2.analyse(_table2_raw(raw[raw.stream == "s2"]), cfg)["rows"]) == 1


def test_fig_oc_curves_select_pstar_and_pbar_rows_with_theorem_21_bounds(tmp_path):
    from privtest.schedule import beta_t
    from privtest_artifact.outputs import fig_oc as check
    from privtest_artifact.outputs import fig_oc as mod

    beta = 0.05
    common = dict(eps_ratio=0.5, variant="direct", runs=1000, beta_II=0.001)
    raw = pd.DataFrame(
        [  # curve t = 2 (pbar > 0): grid points p = 0.05 (pbar), 0.2, 0.5 (p*); curve t = 1 (pbar <= 0): p = 0.5
            dict(common, t=2, pstar=0.5, pbar=0.05, p=0.05, halts=3, good_runs=900, good_halts=2,
                 halt_prob_exact=0.003, miss_good_exact=0.99),
            dict(common, t=2, pstar=0.5, pbar=0.05, p=0.2, halts=400, good_runs=900, good_halts=380,
                 halt_prob_exact=0.4, miss_good_exact=0.6),
            dict(common, t=2, pstar=0.5, pbar=0.05, p=0.5, halts=990, good_runs=900, good_halts=898,
                 halt_prob_exact=0.99, miss_good_exact=0.0008),
            dict(common, t=1, pstar=0.5, pbar=-0.2, p=0.5, halts=995, good_runs=950, good_halts=949,
                 halt_prob_exact=0.99, miss_good_exact=0.0005),
        ]
    )  # fmt: skip
    tables = mod.analyse(raw, {"beta": beta})
    c = tables["curves"]
    assert list(c.columns) == mod.CURVE_COLUMNS and list(c.t) == [1, 2]  # sorted by (t, eps_ratio, pstar, variant)
    r = c.iloc[1]
    assert (r.misses_good, r.good_runs, r.misses, r.runs) == (2, 900, 10, 1000)
    assert r.miss_good_exact == 0.0008 and r.miss_exact == pytest.approx(0.01)
    bt = float(beta_t(2, beta))
    assert r.miss_bound == pytest.approx(beta / 4 + bt / 4) and r.continue_bound == pytest.approx(bt / 2)
    assert (r.halt_pbar_exact, r.halts_pbar, r.runs_pbar) == (0.003, 3, 1000)
    assert c.iloc[0][["halt_pbar_exact", "halts_pbar", "runs_pbar"]].isna().all()  # no p_t <= pbar_t <= 0
    # the check reads the tables: the same claims from the written-and-read tables as from the analysis in memory
    write_analysis(tables, tmp_path)
    read_back = read_analysis(tmp_path)
    assert check.claims(read_back, {"beta": beta}) == check.claims(tables, {"beta": beta})
    verdicts = {x.claim_id: x.verdict for x in check.claims(read_back, {"beta": beta})}
    assert verdicts["oc.continue_at_pbar[t=1,r=0.5,p*=0.5,direct]"] == "VACUOUS"
    assert verdicts["oc.halt_at_pstar[t=2,r=0.5,p*=0.5,direct]"] == "PASS"  # 0.0008 <= 0.001
    assert verdicts["oc.continue_at_pbar[t=2,r=0.5,p*=0.5,direct]"] == "PASS"  # 0.003 <= beta_2/2 = 0.0038
    assert verdicts["oc.halt_at_pstar_exact[t=2,r=0.5,p*=0.5,direct]"] == "PASS"  # 0.01 <= beta/4 + beta_2/4 = 0.0144


def test_fig_privacy_exact_results_do_not_depend_on_the_search_path():
    """Where a privacy bound is attained the maximum is flat: which maximiser Nelder-Mead reaches, after how many
    evaluations, and the loss's last bits (~1e-13) differ between CPUs. Two such raw tables give the same analysis
    table and the same claims; a real difference in the loss still shows."""
    from privtest_artifact.outputs import fig_privacy_exact as check

    cfg = dict(quadrature_tol=1e-9, detect_margin=1e-3)
    row = dict(variant="direct", calibration="global", expected="private", eps_ratio=0.1, kind="halt", worst_t=3)
    row |= dict(worst_transcript="C^2 H", claimed_eps=1.0, s="[1.0, 1.0, 1.0]", delta=0.0, T=6)
    a = dict(row, max_loss=1.0 + 1.7e-13, worst_inputs="p=[0.063]; p'=[0.070]", evaluations=748, method="nelder-mead")
    b = dict(row, max_loss=1.0 + 1.5e-13, worst_inputs="p=[0.064]; p'=[0.071]", evaluations=752, method="grid2")
    frames = [pd.DataFrame([r]).assign(slack=lambda d: d.claimed_eps - d.max_loss) for r in (a, b)]
    tables = [check.analyse(f, cfg)["verdicts"] for f in frames]
    assert tables[0].to_csv(float_format="%.10g") == tables[1].to_csv(float_format="%.10g")
    assert not {"worst_inputs", "evaluations", "method"} & set(tables[0])
    assert tables[0].slack.iloc[0] == 0.0 and not np.signbit(tables[0].slack.iloc[0])
    notes = [[c.note for c in check.claims(check.analyse(f, cfg), cfg)] for f in frames]
    assert notes[0] == notes[1]
    c = dict(row, max_loss=0.99, worst_inputs="", evaluations=1, method="grid")
    assert check.analyse(pd.DataFrame([c]).assign(slack=0.01), cfg)["verdicts"].slack[0] == 0.01


def _co_runs() -> pd.DataFrame:
    """Three BatchToCO runs of one (stream, eps), t = 1..3, checkpoint at t = 1 (t = 2, 3 covered): per run N_t over
    E[N_t] = 10 gives sum N / sum E[N] = 1.0, 1.1, 0.9; the Lemma 39(2) margins at T are -0.5, 0.2, -inf (one
    violating run); f falls below the guarantee at V_hi (4) in runs 1 and 2, below the one at V_lo (2) in run 2."""
    from privtest_artifact.outputs._co import METHOD

    t = np.tile([1, 2, 3], 3)
    run = np.repeat([0, 1, 2], 3)
    later = t >= 2
    guarantee = np.where(t == 2, 5.0, np.where(later, -1.0, np.nan))
    return pd.DataFrame(
        dict(stream="s", eps=2.0, method=METHOD, t=t, run=run, t_ell=1, opt=100.0, opt_kind="exact")
        | dict(ell=[1, 1, 2, 1, 2, 3, 1, 1, 1], l39_margin=[-np.inf, -1, -0.5, -np.inf, 0.2, 0.2] + [-np.inf] * 3)
        | dict(gtm_calls=[0, 10, 10, 0, 12, 10, 0, 8, 10], expected_calls=np.where(later, 10.0, 0.0))
        | dict(value=[50, 10, 10, 50, 10, 3, 50, 1, 10.0], guarantee=guarantee)
        | dict(guarantee_va_hi=np.where(t == 2, 4.0, np.nan), guarantee_va_lo=np.where(t == 2, 2.0, np.nan))
        | dict(halt_loss=np.repeat([0.1, 0.3, 0.2], 3))
    )  # fmt: skip


def test_co_analysis_counts_violating_runs_and_the_calls_ratio():
    from privtest.co.params import BatchToCOParams
    from privtest_artifact.outputs import _co
    from privtest_artifact.outputs._co import CHECKPOINT_RUNS

    cfg = _section("fig_co_densest")
    raw = _co_runs()
    raw.loc[(raw.run == 1) & (raw.t == 3), "guarantee_va_hi"] = 4.0  # run 1: below V_hi (4) at t = 3, not V_lo
    raw.loc[(raw.run == 1) & (raw.t == 3), "guarantee"] = 5.0
    out = _co.tables(raw, cfg)
    c = out["calls"].iloc[0]
    assert (c.runs, c.calls_ratio_mean, c.calls_mean, c.expected_calls_max) == (3, pytest.approx(1.0), 10.0, 10.0)
    assert c.calls_ratio_se == pytest.approx(0.1 / math.sqrt(3))
    k = out["checkpoints"].iloc[0]
    assert (k.runs, k.runs_violating, k.ell_T_max, k.l39_margin_max, k["T"]) == (3, 1, 3, 0.2, 3)
    assert not k.checkpoint_only
    u = out["utility"].iloc[0]
    assert (u.runs, u.runs_violating_va_hi, u.runs_violating_va_lo) == (3, 2, 1)
    assert (u.guarantee_positive, u.guarantee_max, u.guarantee_va_hi_max) == (4 / 6, 5.0, 4.0)
    p = out["privacy"].iloc[0]
    led = BatchToCOParams.from_config(cfg, 2.0).privacy_budget()
    assert (p.eps_total, p.delta_total, p.eps_bound) == (led["eps_total"], led["delta_total"], led["eps_bound"])
    assert (p.halt_loss_max, p.runs, p.delta, p.constants) == (0.3, 3, 0.0, "corrected constants")
    assert [list(out[n].columns) for n in ("privacy", "checkpoints", "calls", "utility")] == [
        _co.PRIVACY,
        _co.CHECKPOINTS,
        _co.CALLS,
        _co.UTILITY,
    ]
    # checkpoint-only runs, where present, are what Lemma 40 is judged on
    cp = pd.DataFrame(dict(stream="s", eps=2.0, method=CHECKPOINT_RUNS, t=5, run=[0, 1], ell=[4, 2]))
    k = _co.checkpoints(pd.concat([raw, cp.assign(l39_margin=[0.1, -1.0])], ignore_index=True)).iloc[0]
    assert (k.runs, k.runs_violating, k.ell_T_max, k.l39_margin_max, k["T"]) == (2, 1, 4, 0.1, 5) and k.checkpoint_only
    # no covered step with a positive guarantee: nothing at V_hi, and the utility check is vacuous
    flat = raw.assign(guarantee=-1.0, guarantee_va_hi=np.nan, guarantee_va_lo=np.nan)
    u = _co.utility(flat).iloc[0]
    assert u.guarantee_positive == 0.0 and np.isnan(u.guarantee_va_hi_max) and u.runs_violating_va_hi == 0


def test_co_calls_ratio_per_run_mean_and_standard_error():
    from privtest_artifact.outputs._co import calls_ratio, run_ratios

    steps = pd.DataFrame(dict(run=[0, 0, 1, 1], gtm_calls=[3, 5, 6, 6], expected_calls=[4.0, 4.0, 4.0, 4.0]))
    assert run_ratios(steps).tolist() == [1.0, 1.5]
    r = calls_ratio(steps)
    assert (r.mean, r.runs) == (1.25, 2) and r.se == pytest.approx(np.std([1.0, 1.5], ddof=1) / math.sqrt(2))
    one = calls_ratio(steps[steps.run == 0])
    assert (one.mean, one.se, one.runs) == (1.0, 0.0, 1)  # one run: no spread


def test_fig_co_crossover_long_run_tables_keep_the_raw_order_and_count_steps_over_the_bound():
    from privtest_artifact.outputs import fig_co_crossover

    a = _co_runs().assign(source="run", calls_bound=11.0, ell_bound=7)
    b = a.assign(stream="b", calls_bound=9.0)  # E[N_t] = 10 > 9: every recorded step t >= 2 is over the bound
    runs = pd.concat([a, b], ignore_index=True)
    runs.loc[runs.t == 1, "expected_calls"] = np.nan  # no GTM step at t = 1
    calls = fig_co_crossover.long_run_calls(runs)
    assert calls.stream.tolist() == ["s", "b"]  # the order of the raw rows, as the claims
    assert calls.steps.tolist() == [6, 6] and calls.steps_per_run.tolist() == [2, 2]
    assert calls.steps_over_bound.tolist() == [0, 6]
    assert calls.max_expected_ratio.tolist() == [10.0 / 11.0, 10.0 / 9.0]
    assert calls.expected_calls_T.tolist() == [10.0, 10.0] and calls.calls_mean_T.tolist() == [10.0, 10.0]
    assert calls.calls_ratio_mean[0] == pytest.approx(1.0) and calls.calls_ratio_runs[0] == 3
    cp = fig_co_crossover.long_run_checkpoints(runs)
    assert cp.stream.tolist() == ["s", "b"] and cp.ell_bound_T.tolist() == [7, 7] and cp.runs_violating[0] == 1


def test_table2_analysis_counts_the_run_rows_into_their_lines():
    from privtest_artifact.outputs import table2

    cfg = _section("table2")
    # the lines as the simulation writes them (application first; the analysis numbers them, table2_row, by stream)
    line = dict(algorithm="x", stream="s", eps=2.0, runs=3, C_beta=1 / 3, delta=1e-6, delta_budget=5e-7)
    lines = pd.DataFrame([dict(application="a") | line | dict(level="line"),
                          dict(application="b") | line | dict(level="line")])  # fmt: skip
    runs = pd.DataFrame(
        dict(level="run", application="a", stream="s", eps=2.0, run=[0, 1, 2], utility_margin_va_hi=[1.0, -2.0, 0.5])
        | dict(utility_margin_va_lo=[-1.0, -3.0, 0.1], l39_margin=[-np.inf, 0.3, -0.1], ell=[4.0, 5.0, 3.0])
        | dict(delta_loss=[1e-8, 3e-8, 2e-8], calls_ratio=[0.9, 1.0, 1.4])
    )  # fmt: skip
    other = pd.DataFrame(
        dict(level="run", application="b", stream="s", eps=2.0, run=[0, 1], utility_margin_va_hi=[np.nan, 2.0])
        | dict(utility_margin_va_lo=[np.nan, -1.0])
    )  # fmt: skip
    rows = table2.analyse(_table2_raw(pd.concat([lines, runs, other], ignore_index=True)), cfg)["rows"]
    assert list(rows.columns) == [
        *["application", "algorithm", "stream", "eps", "runs", "C_beta", "delta", "runs_violating"],
        *["runs_violating_va_lo", "delta_ledger_max", "delta_budget", "checkpoint_runs", "checkpoint_runs_violating"],
        *["ell_T_max", "l39_margin_max", "calls_ratio_mean", "calls_ratio_se", "calls_runs", "table2_row"],
    ]  # the counts at their place among the lines' columns (figures/table2.csv)
    assert rows.table2_row.isna().all()  # stream "s" is no row's
    a, b = rows.iloc[0], rows.iloc[1]
    assert (a.runs_violating, a.runs_violating_va_lo, b.runs_violating, b.runs_violating_va_lo) == (2, 1, 1, 0)
    assert (a.checkpoint_runs, a.checkpoint_runs_violating, a.ell_T_max, a.l39_margin_max) == (3, 1, 5, 0.3)
    assert a.delta_ledger_max == 3e-8 and np.isnan(b.checkpoint_runs) and np.isnan(b.delta_ledger_max)
    # Theorem 42(3): mean 1.1 of the runs' sum N / sum E[N], standard error sd / sqrt(3) = sqrt(0.07) / sqrt(3)
    assert (a.calls_ratio_mean, a.calls_runs) == (pytest.approx(1.1), 3)
    assert a.calls_ratio_se == pytest.approx(math.sqrt(0.07 / 3)) and np.isnan(b.calls_ratio_mean)
    with pytest.raises(ValueError, match="share an"):
        table2.analyse(_table2_raw(pd.concat([lines, lines.iloc[:1]], ignore_index=True)), cfg)


def _hpo_raw() -> pd.DataFrame:
    """A hand-made fig_hpo raw frame: one scenario, a GTM (reference), a Cohen tester and a documented-schedule
    selection peer, two settings (p_t = 1/2 and 3/4 from 2/4 and 3/4 trainings)."""
    nan = float("nan")
    common = dict(scenario="s", eps_train=1.0, target=0.5)
    method = dict(kind="method", **common)
    rows = [
        dict(method="GTM", family="gtm", schedule="x", error_bound=0.05, source="Theorem 21", stop_probability=nan),
        dict(method="Cohen", family="cohen", schedule="x", error_bound=0.05, source="Prop 48", stop_probability=nan),
        dict(
            method="peer", family="selection", schedule="documented", error_bound=nan, source="", stop_probability=0.1
        ),
    ]
    rows = [{**method, **r} for r in rows]
    rows += [dict(kind="p", t=t, successes=k, evals=4, features=1, quantile=0.5, **common) for t, k in ((1, 2), (2, 3))]
    pbar = {"GTM": (0.4, 0.6), "Cohen": (0.2, 0.3)}
    rows += [
        dict(kind="step", scenario="s", method=m, t=t, pstar=0.99, pbar=pbar[m][t - 1], halts=0, trainings=0)
        for m in pbar
        for t in (1, 2)
    ]
    halts = {"GTM": (1, 2), "Cohen": (2, 0), "peer": (0, 2)}
    rows += [
        dict(kind="search", scenario="s", method=m, halt_step=h, trainings=3 * h + 1) for m in halts for h in halts[m]
    ]
    return pd.DataFrame(rows)


def test_hpo_claim_tables_by_hand():
    """The claim tables of fig_hpo on a hand-made frame: no definite error (p* = 0.99 is never surely reached and no
    halt is at a p_t surely <= pbar_t); pbar ratios 0.4/0.2, 0.6/0.3; one of two peer searches releases nothing;
    the mean p of the outputs (0 for none) and trainings against the reference tester."""
    from privtest_artifact.outputs import fig_hpo
    from privtest_artifact.stats import clopper_pearson

    raw = _hpo_raw()
    err = fig_hpo.error_table(raw, 0.05)
    assert list(err.method) == ["GTM", "Cohen"] and list(err.definite) == [0, 0] and list(err.searches) == [2, 2]
    # the 95% intervals of p_t from 2/4 and 3/4 ([0.068, 0.932], [0.194, 0.994]) reach every pbar_t (possible Type I
    # at each halt) and p* = 0.99 at t = 2 (Cohen's search that never halts passed it: a possible Type II error)
    assert list(err.possible) == [2, 2]
    assert err.ci_high.iloc[0] == clopper_pearson(2, 2, 0.95)[1] and err.ci_low.iloc[0] == 0.0
    pbar = fig_hpo.pbar_table(raw)
    assert list(pbar.method) == ["Cohen"] and pbar.min_ratio.iloc[0] == 2.0 and bool(pbar.all_above.iloc[0])
    assert (pbar.reference_pbar_min.iloc[0], pbar.pbar_max.iloc[0]) == (0.4, 0.3)
    sel = fig_hpo.selection_table(raw, eps0=0.0)
    p = fig_hpo.p_rows(raw)
    p1_lo = p.p_low.mean()
    assert (sel.failures.iloc[0], sel.searches.iloc[0], sel.reference_bound.iloc[0]) == (1, 2, 0.05)
    assert sel.lemma_bound.iloc[0] == pytest.approx((1 - p1_lo) * 0.1 / p1_lo, rel=1e-15)
    assert sel.exact_failure_high.iloc[0] == pytest.approx((1 - p1_lo) * 0.1 / (p1_lo + 0.1 * (1 - p1_lo)))
    cmp_ = fig_hpo.comparison_table(raw).iloc[0]
    # peer: outputs none and h=2 (p 0 and 3/4); GTM: h=1, 2 (p 1/2, 3/4); trainings 1, 7 vs 4, 7
    assert (cmp_.p_peer, cmp_.p_reference, cmp_.p_diff) == (0.375, 0.625, -0.25)
    assert (cmp_.trainings_peer, cmp_.trainings_reference, cmp_.trainings_diff, cmp_.p_runs) == (4.0, 5.5, -1.5, 2.0)
    assert cmp_.p_se == pytest.approx(math.sqrt(np.var([0, 0.75], ddof=1) / 2 + np.var([0.5, 0.75], ddof=1) / 2))


def test_fig_co_densest_cor35_table_and_its_erratum_claim():
    """Algorithm 3's printed eps(i, t) against Corollary 35 (ERRATA.md): the table tries every checkpoint i in 2..11
    at the steps t >= i of (2, 3, 5, 10, 30, 100) (6 + 5 + 4 + 4 + 5 * 3 + 2 = 36 rows) against ln Lambda =
    1/C_1 + 2/C_H = 1/2 + 2/2; the claim is ERRATUM at the worst row, and PASS on a table that meets the bound."""
    from privtest_artifact.claims import decide
    from privtest_artifact.outputs import fig_co_densest
    from privtest_artifact.outputs.fig_co_densest import cor35

    cfg = _section("fig_co_densest")
    table = cor35(cfg)
    assert len(table) == 36 and (table.t >= table.i).all() and set(table.i) == set(range(2, 12))
    assert table.log_Lambda.unique().tolist() == [pytest.approx(1 / cfg["C_1"] + 2 / cfg["C_H"])] == [1.5]
    worst = table.loc[table.log_Lambda_t.idxmax()]
    assert (worst.i, worst.t) == (2, 2) and worst.log_Lambda_t > 1.5

    def verdict(t):
        claims = fig_co_densest.claims({**_co_tables_stub(), "cor35": t}, cfg)
        c = next(c for c in decide(claims, 0.05) if c.claim_id == "co.cor35_erratum")
        return c.verdict, c.measured

    assert verdict(table) == ("ERRATUM", f"max ln Lambda_t = {worst.log_Lambda_t:.4g} at i=2, t=2")
    met = table.assign(log_Lambda_t=table.log_Lambda - 0.01)
    assert verdict(met)[0] == "PASS"


def _co_tables_stub() -> dict[str, pd.DataFrame]:
    """Empty CO long-run tables (no stream, no eps): the shared CO claims then build nothing."""
    from privtest_artifact.outputs import _co

    return {name: pd.DataFrame(columns=cols) for name, cols in zip(
        ("privacy", "checkpoints", "calls", "utility"), (_co.PRIVACY, _co.CHECKPOINTS, _co.CALLS, _co.UTILITY),
        strict=True)}  # fmt: skip


def test_co_calls_ratio_summary_skips_runs_without_a_gtm_step():
    from privtest_artifact.outputs._co import summarise

    r = summarise(pd.Series([1.0, np.nan, 1.2]))  # the middle run has no step t >= 2: 0 / 0
    assert (r.mean, r.runs) == (pytest.approx(1.1), 2) and r.se == pytest.approx(0.1)
    none = summarise(pd.Series([np.nan]))
    assert np.isnan(none.mean) and np.isnan(none.se) and none.runs == 0
