"""The analysis stage (issue 18 item 1): privtest.analysis.<id>.analyse(raw, cfg) -> named tables, written and read
back by privtest.analysis.write/read; the config keys that only judge or display (x-stage: analysis) never reach a
simulation; the checks and notebooks of the outputs with an analysis import no experiment module.

The dry run proving that changing such a key reruns the analysis, the check and the notebook but no simulation is
``test_judging_keys_rerun_the_analysis_never_the_simulation`` in tests/test_workflow.py.
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
from privtest_workflow.deps import ImportGraph

from privtest import analysis

ROOT = Path(__file__).resolve().parents[1]
CAT = catalogue.load(ROOT)
GRAPH = ImportGraph(ROOT / "src")
ANALYSED = sorted(i for i in CAT if GRAPH.module_file(catalogue.ANALYSE_MODULE.format(i)) is not None)
KEYS = configuration.load_analysis_keys(ROOT)


def test_tables_round_trip_through_csv(tmp_path):
    tables = {
        "a": pd.DataFrame({"t": [1, 2], "x": [0.5, math.inf], "s": ["u", "v"], "n": [np.nan, 1.0]}),
        "b": pd.DataFrame({"y": [1.0 / 3.0]}),
    }
    analysis.write(tables, tmp_path / "out")
    back = analysis.read(tmp_path / "out")
    assert list(back) == ["a", "b"]
    pd.testing.assert_frame_equal(back["a"], tables["a"])
    assert back["b"].y.iloc[0] == pytest.approx(1.0 / 3.0, rel=1e-9)  # written to 10 significant digits


@pytest.mark.parametrize(
    "tables, word",
    [({}, "at least one"), ({"a b": pd.DataFrame()}, "identifier"), ({"a": [1, 2]}, "DataFrame")],
)
def test_write_refuses_what_is_not_a_table(tmp_path, tables, word):
    with pytest.raises(ValueError, match=word):
        analysis.write(tables, tmp_path)


def test_read_refuses_an_empty_directory(tmp_path):
    with pytest.raises(ValueError, match="no analysis table"):
        analysis.read(tmp_path)


def test_converted_outputs_have_an_analysis_and_a_check_that_takes_it():
    assert {"fig_co_crossover", "fig_co_densest", "fig_oc"} <= set(ANALYSED), ANALYSED
    for oid in ANALYSED:
        module = importlib.import_module(catalogue.ANALYSE_MODULE.format(oid))
        assert list(inspect.signature(module.analyse).parameters) == ["raw", "cfg"], oid
        check = importlib.import_module(catalogue.CHECK_MODULE.format(oid))
        params = list(inspect.signature(check.claims).parameters)
        assert params in (["raw", "cfg"], ["raw", "cfg", "analysis"]), (oid, params)


@pytest.mark.parametrize("oid", ANALYSED)
def test_check_and_notebook_of_an_analysed_output_import_no_experiment_module(oid):
    experiments = str(ROOT / "src/privtest/experiments")
    check = GRAPH.of_modules(catalogue.CHECK_MODULE.format(oid))
    notebook = GRAPH.of_notebook(ROOT / f"notebooks/{oid}.ipynb")
    analysis_code = GRAPH.of_modules(catalogue.ANALYSE_MODULE.format(oid))
    for what, files in (("check", check), ("notebook", notebook), ("analysis", analysis_code)):
        bad = [f for f in files if f.startswith(experiments)]
        assert not bad, f"{oid}: the {what} imports {bad}"
    # the notebook reads the tables: it depends on privtest.analysis' __init__, not on the output's analysis code
    assert str(ROOT / f"src/privtest/analysis/{oid}.py") not in notebook


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


def test_simulation_params_leave_out_the_judging_keys():
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    resolved = configuration.load(config, CAT, ROOT)
    assert {"crossover_alpha", "tie_tolerance", "equivalence_margin"} <= KEYS["fig_co_crossover"]
    full = CAT["fig_co_crossover"].cfg(resolved)
    sim = CAT["fig_co_crossover"].cfg(resolved, drop=KEYS["fig_co_crossover"])
    assert set(full) - set(sim) == KEYS["fig_co_crossover"]
    assert {k: full[k] for k in sim} == sim


def _strings(path: str) -> set[str]:
    return {n.value for n in ast.walk(ast.parse(Path(path).read_text())) if isinstance(n, ast.Constant)}


@pytest.mark.parametrize("oid", sorted(KEYS))
def test_no_simulation_reads_a_judging_key(oid):
    # statically: no file the simulation executes names the key (cfg["tie_tolerance"] would, and would then fail
    # with a KeyError in the workflow, which passes the simulation only its simulation keys)
    files = GRAPH.of_modules(catalogue.SIMULATE_MODULE.format(oid))
    for key in KEYS[oid]:
        readers = [f for f in files if key in _strings(f)]
        assert not readers, f"{oid}.{key} is x-stage: analysis but {readers} name it"


def test_a_notebook_reads_the_analysis_iff_its_parameters_cell_declares_it(tmp_path):
    def notebook(params: str) -> Path:
        path = tmp_path / f"nb{len(list(tmp_path.iterdir()))}.ipynb"
        cells = [
            {"cell_type": "markdown", "metadata": {}, "source": ["analysis = 'not code'\n"]},
            {"cell_type": "code", "metadata": {"tags": ["parameters"]}, "source": [params]},
            {"cell_type": "code", "metadata": {}, "source": ["analysis = 1\n"]},
        ]
        path.write_text(json.dumps({"cells": cells}))
        return path

    assert catalogue.declares_parameter(notebook('raw = "r"\nanalysis = "a"\n'), "analysis")
    assert not catalogue.declares_parameter(notebook('raw = "r"\nanalysis_x = 2\n'), "analysis")
    assert not catalogue.declares_parameter(notebook('raw = "r"\n'), "analysis")
    # the converted notebooks that read tables declare the parameter
    for oid in ANALYSED:
        nb = ROOT / f"notebooks/{oid}.ipynb"
        reads = "read(analysis)" in nb.read_text()
        assert reads == catalogue.declares_parameter(nb, "analysis"), oid


def test_a_check_reads_the_analysis_iff_its_claims_take_it(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("def claims(raw, cfg, analysis=None):\n    pass\n\n\ndef other(analysis):\n    pass\n")
    assert catalogue.takes_parameter(mod, "claims", "analysis")
    mod.write_text("def claims(raw, cfg):\n    pass\n\n\ndef other(analysis):\n    pass\n")
    assert not catalogue.takes_parameter(mod, "claims", "analysis")
    for oid in ANALYSED:
        check = importlib.import_module(catalogue.CHECK_MODULE.format(oid))
        takes = "analysis" in inspect.signature(check.claims).parameters
        assert takes == catalogue.takes_parameter(
            GRAPH.module_file(catalogue.CHECK_MODULE.format(oid)), "claims", "analysis"
        )


# --- one unit test per analysis module: a hand-made raw frame -> the expected table values ---


def test_fig_sample_complexity_summary_is_the_last_step_and_the_worst_mean_to_bound():
    from privtest.analysis import fig_sample_complexity as mod

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
    from privtest.analysis import fig_amortized_samples as mod

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
    from privtest.analysis import fig_expost as mod
    from privtest.schedule import beta_t

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
    from privtest.analysis import fig_purification as mod
    from privtest.schedule import beta_t

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
    from privtest.analysis import fig_rejection_threshold as mod
    from privtest.stats import clopper_pearson

    th = dict(kind="theory", curve="GTM (max)", method="GTM", pstar=0.5, pbar=0.1)
    me = dict(kind="measured", curve="GTM", method="GTM", pstar=0.5, pbar=0.2, pbar_upper=0.15, pbar_theory=0.1,
              halts_at_theory=5, runs=100, budget=0.05)  # fmt: skip
    tables = mod.analyse(pd.DataFrame([th, me, dict(me, method="Cohen", pbar_upper=0.5)]), {})
    assert list(tables["theory"].curve) == ["GTM (max)"]
    m = tables["measured"].iloc[0]
    lo, hi = clopper_pearson(5, 100)
    assert m.rate == pytest.approx(0.05) and (m.ci_low, m.ci_high) == pytest.approx((lo, hi))
    assert list(tables["points"].pbar_err) == pytest.approx([0.0, 0.3])  # clipped at 0 below pbar


def test_fig_noise_penalty_margins_and_theta_opt():
    import math

    from privtest import bounds
    from privtest.analysis import fig_noise_penalty as mod

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
    theta = tables["theta_opt"]
    assert list(theta.t) == list(mod.THETA_T) and (theta.rel_gap < 1e-5).all()
    assert theta.theta_closed_form.iloc[0] == pytest.approx(bounds.gtm_theta_opt(10, 0.05))


def test_fig_lower_bounds_margins_standard_errors_and_thm29_sums():
    from privtest.analysis import fig_lower_bounds as mod

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
