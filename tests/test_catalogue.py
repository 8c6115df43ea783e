"""The output catalogue (config/catalogue.yaml) and the derivation of each job's library dependencies (fast: no
Snakemake run). The end-to-end checks (a throw-away output built from a catalogue entry, dry runs after edits) are in
test_workflow.py."""

import json
import re
from pathlib import Path

import pytest
import yaml
from privtest_workflow import catalogue
from privtest_workflow.deps import ImportGraph, SavedQueries, UnresolvedImport

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cat():
    return catalogue.load(ROOT)


@pytest.fixture(scope="module")
def config():
    return yaml.safe_load((ROOT / "config/config.yaml").read_text())


# --- the catalogue ---------------------------------------------------------------------------------------------


def test_every_output_has_its_module_notebook_and_config_section(cat, config):
    catalogue.check_config(cat, config)
    graph = ImportGraph(ROOT / "src")
    for o in cat.values():
        assert (ROOT / f"notebooks/{o.id}.ipynb").is_file(), o.id
        assert graph.module_file(catalogue.OUTPUT_MODULE.format(o.id)) is not None, o.id
        assert o.kind in catalogue.FILES and o.section


def test_the_catalogue_is_the_only_list_of_outputs(cat):
    # No rule file, Snakemake script or thumbnail script names an output: they all read the catalogue.
    files = [ROOT / "Snakefile", *sorted((ROOT / "workflow/rules").glob("*.smk"))]
    files += sorted((ROOT / "workflow/scripts").glob("*.py")) + sorted((ROOT / "workflow/lib").rglob("*.py"))
    for path in files:
        text = path.read_text()
        named = [i for i in cat if re.search(rf"\b{i}\b", text)]
        assert named == [], f"{path.relative_to(ROOT)} names outputs {named}"
    assert "ruleorder" not in "".join(p.read_text() for p in files if p.suffix == ".smk")


def test_co_inputs_are_derived_from_the_config(cat, config):
    densest = cat["fig_co_densest"].data_inputs(config)
    streams = config["fig_co_densest"]["streams"]
    assert set(densest) == {f"wheel_{s}" for s in streams} | {f"opt_{s}" for s in streams}
    assert densest["opt_collegemsg"] == "results/co/opt_collegemsg.csv"
    # table2's simulation reads no other output's raw table; its analysis reads its own and the CO outputs' (reads)
    assert not [k for k in cat["table2"].data_inputs(config) if k.startswith("raw_")]
    table2 = cat["table2"].analysis_inputs()
    assert table2["raw_table2"] == "results/raw/table2.csv"
    assert table2["raw_fig_co_densest"] == "results/raw/fig_co_densest.csv"
    # an output that draws nothing: its analysis reads the other outputs' raw tables only
    reads = ("fig_co_densest", "fig_co_maxcut", "fig_co_crossover")
    assert not cat["fig_co_checkpoints"].simulates
    assert cat["fig_co_checkpoints"].analysis_inputs() == {f"raw_{i}": f"results/raw/{i}.csv" for i in reads}
    assert cat["fig_oc"].analysis_inputs() == {"raw": "results/raw/fig_oc.csv"}
    assert cat["fig_co_densest"].cfg(config)["T_max"] == config["co_data"]["T_max"]
    assert cat["fig_oc"].cfg(config) == config["fig_oc"] and cat["fig_oc"].data_inputs(config) == {}


def _write_catalogue(tmp_path, doc) -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "workflow/schemas").mkdir(parents=True)
    (tmp_path / catalogue.SCHEMA).write_text((ROOT / catalogue.SCHEMA).read_text())
    (tmp_path / catalogue.PATH).write_text(yaml.safe_dump(doc))
    return tmp_path


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"kind": "plot", "section": "a"}, "'plot' is not one of"),
        ({"section": "a"}, "'kind' is a required property"),
        ({"kind": "figure", "section": "b"}, "section 'b' is not one of"),
        ({"kind": "figure", "section": "a", "inputs": {"raw": ["nope"]}}, "raw inputs ['nope']"),
        ({"kind": "figure", "section": "a", "inputs": {"csv": ["x"]}}, "'csv' was unexpected"),
        ({"kind": "figure", "section": "a", "extra": 1}, "'extra' was unexpected"),
        ({"kind": "figure", "section": "a", "extra_data": ["Bad-Name"]}, "does not match"),
        ({"kind": "figure", "section": "a", "extra_data": []}, "should be non-empty"),
    ],
)
def test_invalid_catalogue_entries_are_named(tmp_path, entry, message):
    root = _write_catalogue(tmp_path, {"sections": {"a": "A"}, "outputs": {"fig_x": entry}})
    with pytest.raises(ValueError, match=re.escape(message)):
        catalogue.load(root)


def test_extra_data_tables_are_outputs_of_their_own_notebook_rule(cat):
    """An entry's extra data tables (``extra_data``) are files of the output (targets, notebook parameters
    ``data_<name>``), and the outputs with the same kind and tables share one notebook rule."""
    cross = cat["fig_co_crossover"]
    assert cross.extra_data == ("summary",)
    assert cross.files()["data_summary"] == "figures/data/fig_co_crossover_summary.csv"
    assert "figures/data/fig_co_crossover_summary.csv" in cross.targets()
    jobs = catalogue.notebook_jobs(cat)
    assert jobs["figure_summary"] == ("figure", ("summary",), ["fig_co_crossover"])
    assert "fig_co_crossover" not in jobs["figure"][2] and "fig_oc" in jobs["figure"][2]
    assert sorted(i for _, _, ids in jobs.values() for i in ids) == sorted(cat)


def test_missing_config_is_named(cat, config):
    with pytest.raises(ValueError, match="fig_oc"):
        catalogue.check_config(cat, {k: v for k, v in config.items() if k != "fig_oc"})
    broken = {**config, "fig_co_densest": {**config["fig_co_densest"], "streams": "collegemsg"}}
    with pytest.raises(ValueError, match="inputs.wheel"):
        catalogue.check_config(cat, broken)


# --- derived dependencies ----------------------------------------------------------------------------------------


def _package(tmp_path) -> Path:
    files = {
        "pkg/__init__.py": "from pkg.core import f\n",
        "pkg/core.py": "import math\nfrom . import util\n",
        "pkg/util.py": "",
        "pkg/plot.py": "from pkg.util import *\n",
        "pkg/lazy.py": "def g():\n    from .sub import deep\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "from ..core import f\n",
        "pkg/sub/other.py": "",
        "pkg/registry.py": 'FACTORIES = {"x": "pkg.sub.other:make"}\nDOC = "pkg.plot is not imported here"\n',
    }
    for name, text in files.items():
        (tmp_path / "src" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "src" / name).write_text(text)
    return tmp_path / "src"


def _names(src: Path, files: list[str]) -> list[str]:
    return sorted(str(Path(f).relative_to(src)) for f in files)


def test_closure_includes_package_inits_relative_and_function_level_imports(tmp_path):
    src = _package(tmp_path)
    g = ImportGraph(src, "pkg")
    base = ["pkg/__init__.py", "pkg/core.py", "pkg/util.py"]
    assert _names(src, g.of_modules("pkg.util")) == base
    assert _names(src, g.of_modules("pkg.plot")) == sorted(base + ["pkg/plot.py"])
    # importing pkg.sub.deep runs pkg/sub/__init__.py; an import inside a function counts (it may run)
    assert _names(src, g.of_modules("pkg.lazy")) == sorted(
        base + ["pkg/lazy.py", "pkg/sub/__init__.py", "pkg/sub/deep.py"]
    )
    # a string naming a module (importlib's "module:attribute") counts; other strings do not
    assert _names(src, g.of_modules("pkg.registry")) == sorted(
        base + ["pkg/registry.py", "pkg/sub/__init__.py", "pkg/sub/other.py"]
    )
    with pytest.raises(ValueError, match="pkg.missing"):
        g.of_modules("pkg.missing")


def test_from_import_of_a_submodule_or_an_attribute(tmp_path):
    src = _package(tmp_path)
    g = ImportGraph(src, "pkg")
    assert _names(src, g.of_source("from pkg import plot\nimport numpy")) == sorted(
        ["pkg/__init__.py", "pkg/core.py", "pkg/util.py", "pkg/plot.py"]
    )
    assert _names(src, g.of_source("from pkg import f")) == ["pkg/__init__.py", "pkg/core.py", "pkg/util.py"]
    assert g.of_source("import numpy as np\nfrom . import x") == []


def test_saved_answers_are_those_of_a_new_walk(tmp_path, monkeypatch):
    # SavedQueries (the Snakefile's cache of the walk between runs): an answer is reused while no file under its
    # roots changes; an edit there, an unreadable table, or a different key start afresh; a raising answer is not kept
    src = _package(tmp_path)
    monkeypatch.setattr("atexit.register", lambda f: None)  # saved by hand below, not at the test process's exit
    table, roots = tmp_path / "saved" / "deps.json", (src / "pkg",)
    walks = []

    def walk():
        walks.append(1)
        return ImportGraph(src, "pkg").of_modules("pkg.plot")

    first = SavedQueries(table, roots)
    fresh = first.get("plot", walk)
    first.save()
    assert table.is_file() and len(walks) == 1
    again = SavedQueries(table, roots)
    assert again.get("plot", walk) == fresh and len(walks) == 1  # read back, not walked
    again.save()  # nothing added: nothing written
    assert not list(table.parent.glob("*.tmp"))
    (src / "pkg" / "plot.py").write_text("import pkg.sub.deep\n")  # an edit under the roots
    edited = SavedQueries(table, roots)
    assert edited.key != again.key
    assert edited.get("plot", walk) == ImportGraph(src, "pkg").of_modules("pkg.plot") != fresh and len(walks) == 2
    with pytest.raises(ValueError, match="pkg.missing"):
        edited.get("missing", lambda: ImportGraph(src, "pkg").of_modules("pkg.missing"))
    assert "missing" not in edited._answers
    for bad in ("{not json", json.dumps({"key": edited.key, "answers": None}), json.dumps({"key": edited.key})):
        table.write_text(bad)
        assert SavedQueries(table, roots)._answers == {}
    # a linked folder is followed (the walk reads through it); an unreadable file keeps nothing
    elsewhere = tmp_path / "elsewhere"
    (src / "pkg" / "sub").rename(elsewhere)
    (src / "pkg" / "sub").symlink_to(elsewhere, target_is_directory=True)
    linked = SavedQueries(table, roots)
    (elsewhere / "deep.py").write_text("import pkg.plot\n")
    assert SavedQueries(table, roots).key != linked.key
    (src / "pkg" / "sub" / "loop").symlink_to(src / "pkg", target_is_directory=True)  # a link back up the tree
    assert SavedQueries(table, roots).key is not None
    (src / "pkg" / "dangling.py").symlink_to(tmp_path / "missing.py")
    table.write_text(json.dumps({"key": "kept", "answers": None}))
    blind = SavedQueries(table, roots)
    assert blind.key is None and blind.get("plot", walk) == edited.get("plot", walk)
    blind.save()
    assert json.loads(table.read_text())["key"] == "kept"  # not written over
    # a file saved while Snakemake planned: the answers are not kept
    (src / "pkg" / "dangling.py").unlink()
    racing = SavedQueries(table, roots)
    racing.get("plot", walk)
    (src / "pkg" / "plot.py").write_text("import pkg.util\n")
    racing.save()
    assert json.loads(table.read_text())["key"] == "kept"
    unwritable = SavedQueries(tmp_path / "file" / "deps.json", roots)
    (tmp_path / "file").write_text("a file where the directory would be")
    unwritable.get("plot", walk)
    unwritable.save()  # skipped without an error


def test_graph_of_two_packages_follows_imports_across_them(tmp_path):
    # ImportGraph(src, packages): the library and the artifact package, each import followed into the other; a
    # single name still tracks that package alone
    src = _package(tmp_path)
    files = {"art/__init__.py": "", "art/out.py": "from pkg import plot\nimport numpy\n", "art/io.py": ""}
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    both = ImportGraph(src, ("pkg", "art"))
    assert both.packages == ("pkg", "art")
    assert _names(src, both.of_modules("art.out")) == sorted(
        ["art/__init__.py", "art/out.py", "pkg/__init__.py", "pkg/core.py", "pkg/util.py", "pkg/plot.py"]
    )
    assert _names(src, both.of_source("from art import io\nfrom pkg.util import x")) == sorted(
        ["art/__init__.py", "art/io.py", "pkg/__init__.py", "pkg/core.py", "pkg/util.py"]
    )
    one = ImportGraph(src, "art")
    assert one.packages == ("art",) and one.module_file("pkg.util") is None
    assert _names(src, one.of_modules("art.out")) == ["art/__init__.py", "art/out.py"]
    assert ImportGraph(src).packages == ("privtest", "privtest_artifact")  # the default: both of this repository


def test_notebook_code_cells_magics_skipped(tmp_path):
    src = _package(tmp_path)
    nb = {
        "cells": [
            {"cell_type": "markdown", "source": ["import pkg.plot\n"]},
            {"cell_type": "code", "source": ["%matplotlib inline\n", "from pkg.sub import other\n"]},
            {"cell_type": "code", "source": ["!pip list\n", "x = 1"]},
        ]
    }
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb))
    assert _names(src, ImportGraph(src, "pkg").of_notebook(path)) == sorted(
        ["pkg/__init__.py", "pkg/core.py", "pkg/util.py", "pkg/sub/__init__.py", "pkg/sub/other.py"]
    )


def test_lazy_exports_and_computed_imports(tmp_path):
    src = tmp_path / "src"
    files = {
        "lz/__init__.py": 'import importlib\n_EXPORTS = {"F": "lz.a", "G": "lz.b"}\n'
        "def __getattr__(n):\n    return getattr(importlib.import_module(_EXPORTS[n]), n)\n",
        "lz/a.py": "F = 1\n",
        "lz/b.py": "G = 2\n",
        "lz/dyn.py": "import importlib\nname = 'lz.a'\nimportlib.import_module(name)\n",
    }
    for name, text in files.items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text)
    g = ImportGraph(src, "lz")
    # the export table's strings are not imports of the __init__; importing a name imports its module only
    assert _names(src, g.of_source("import lz.a")) == ["lz/__init__.py", "lz/a.py"]
    assert _names(src, g.of_source("from lz import G")) == ["lz/__init__.py", "lz/b.py"]
    assert _names(src, g.of_source("import lz")) == ["lz/__init__.py", "lz/a.py", "lz/b.py"]  # lz.F, lz.G usable
    with pytest.raises(UnresolvedImport, match="line 3"):
        g.of_modules("lz.dyn")
    with pytest.raises(UnresolvedImport):
        g.of_source("import importlib\nimportlib.import_module('lz.' + 'a')")
    assert g.of_source("import importlib\nm = 'x'\nimportlib.import_module(m)", dynamic_ok=True) == []
    nb = tmp_path / "n.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["%run helper.py\n"]}]}))
    with pytest.raises(UnresolvedImport, match="%run"):
        g.of_notebook(nb)


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_real_jobs_plotting_only_in_notebooks(cat):
    # The property the workflow relies on: no simulation, analysis or check imports plotting; figure notebooks do.
    g = ImportGraph(ROOT / "src")
    plotting = str(ROOT / "src/privtest_artifact/plotting.py")
    names = ("simulate.py", "analyse.py", "check.py", "run_notebook.py")
    scripts = {s: g.of_script(ROOT / "workflow/scripts" / s) for s in names}
    for o in cat.values():
        module = g.of_modules(catalogue.OUTPUT_MODULE.format(o.id))
        assert str(ROOT / f"src/privtest_artifact/outputs/{o.id}.py") in module, o.id
        for script in ("simulate.py", "analyse.py", "check.py"):
            assert plotting not in module + scripts[script], (o.id, script)
        nb = g.of_notebook(ROOT / f"notebooks/{o.id}.ipynb")
        assert str(ROOT / "src/privtest_artifact/__init__.py") in nb
        assert (plotting in nb) == (o.kind == "figure"), o.id


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_plotting_mathtext_renders_data_labels():
    # curve/scenario names from the data are drawn in mathtext, not plain "theta", "p*"
    from privtest_artifact.plotting import mathtext

    assert mathtext("GTM theta=1") == r"GTM $\theta$=1"
    assert mathtext("eps=20, target 0.9, p*=0.5") == r"$\varepsilon$=20, target 0.9, $p^*$=0.5"
    assert mathtext("lower bound (Cor 30, Liu-Talwar's delta)") == r"lower bound (Cor 30, Liu-Talwar's $\delta$)"
