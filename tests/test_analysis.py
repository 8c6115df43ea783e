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
