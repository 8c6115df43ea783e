"""End-to-end: the quick workflow in temporary copies of the repository.

Checks that every catalogue output is produced, that figures/claims.csv has no FAIL, that notebooks run in
parallel without kernel collisions, that numbers are identical with --cores 1 and --cores 2, that a bad config or
catalogue stops Snakemake before any job, that each edit reruns only what depends on it (a notebook: no check and
no simulation; a check module or script: no notebook but those rendering claims; plotting.py: notebooks only;
gtm.py: the simulations importing it), and that a new output needs nothing but its catalogue entry, modules,
notebook and config section.
"""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest
import yaml
from privtest_workflow import catalogue
from privtest_workflow.deps import ImportGraph, StageCode
from repo_copies import JOB, QUICK, ROOT, clone_built, copy_repo, planned_jobs, run

from privtest_artifact.claims import VERDICTS

__all__ = ["QUICK", "copy_repo", "run"]  # also imported from here by tests/test_robustness.py

pytestmark = pytest.mark.workflow

#: The one-core rebuild (``one_core_build``): outputs whose jobs cover every kind: simulations (Monte Carlo, continual
#: observation on a data wheel, exact), checks, the notebooks of a figure, a figure with an extra data table, a
#: table and a table rendering its claims; and the claims collection.
ONE_CORE_NOTEBOOKS = ("fig_oc", "fig_co_crossover", "table1", "table3")
#: Notebooks rerun at once with --cores 8 (more kernels than the machine's cores start together).
PARALLEL_NOTEBOOKS = ("fig_oc", "fig_noise_penalty", "fig_expost", "fig_co_crossover", "table1", "table3")


def expected_outputs() -> list[str]:
    out = [f for o in catalogue.load(ROOT).values() for f in o.targets()]
    return out + ["figures/claims.csv", "figures/claims.md", "figures/benchmarks.md"]


def notebook_targets(ids) -> list[str]:
    """Every file the notebook jobs of ``ids`` write."""
    cat = catalogue.load(ROOT)
    return [f for i in ids for f in cat[i].targets() if not f.startswith(("results/raw/", "results/claims/"))]


def planned(repo: Path, *targets: str) -> dict[str, set[str]]:
    """Dry run: rule -> output ids of the jobs Snakemake would run."""
    return planned_jobs(run(repo, "-n", *targets, *QUICK))


def notebooks_planned(jobs: dict[str, set[str]], repo: Path) -> set[str]:
    """Output ids of the planned notebook jobs, whatever notebook rule builds them (``figure``, ``table``, or a rule
    of an output with extra data tables such as ``figure_summary``: :func:`catalogue.notebook_jobs`)."""
    rules = catalogue.notebook_jobs(catalogue.load(repo))
    return set().union(*(jobs.get(r, set()) for r in rules))


def edited(path: Path, line: str):
    """Context: ``path`` with ``line`` appended (a real edit: Snakemake compares checksums), restored after."""

    class _Edit:
        def __enter__(self):
            self.text = path.read_text()
            path.write_text(self.text + line)

        def __exit__(self, *exc):
            path.write_text(self.text)

    return _Edit()


def written_by(repo: Path, ids) -> list[Path]:
    """The files of ``repo`` that the simulate, analyse, check and notebook jobs of the outputs ``ids`` write (raw
    table and its provenance, analysis, claims, executed notebook, figures, tables and plotted data; not logs or
    benchmarks), and the claims collection's two files."""
    found = [Path("figures/claims.csv"), Path("figures/claims.md")]
    for top in ("results/raw", "results/analysis", "results/claims", "results/notebooks", "figures"):
        for p in sorted((repo / top).rglob("*")) if (repo / top).is_dir() else []:
            parts = p.relative_to(repo / top).parts  # results/analysis/<id>/<table>.csv: a directory per output
            if p.is_file() and any(q == i or q.startswith((f"{i}.", f"{i}_")) for q in parts for i in ids):
                found.append(p.relative_to(repo))
    return found


@pytest.fixture(scope="module")
def one_core_build(quick_build, tmp_path_factory):
    """A copy of the two-core build in which every job of the outputs ``ONE_CORE_NOTEBOOKS`` (simulate, check,
    notebook) and the claims collection were deleted and rebuilt with ``--cores 1``: (the copy, the rebuilt files)."""
    b = clone_built(quick_build, tmp_path_factory.mktemp("wf") / "b")
    rebuilt = written_by(b, ONE_CORE_NOTEBOOKS)
    for f in rebuilt:
        (b / f).unlink()
    run(b, "figures/claims.csv", *notebook_targets(ONE_CORE_NOTEBOOKS), "--cores", "1", *QUICK)
    return b, rebuilt


def test_every_catalogue_output_exists(quick_build):
    a = quick_build
    missing = [p for p in expected_outputs() if not (a / p).is_file() or (a / p).stat().st_size == 0]
    assert not missing, f"missing outputs: {missing}"


def test_claims_have_the_contract_columns_and_no_fail(quick_build):
    a = quick_build
    claims = pd.read_csv(a / "figures/claims.csv", dtype=str, keep_default_na=False)
    assert list(claims.columns) == [
        "claim_id",
        "source",
        "statement",
        "experiment",
        "measured",
        "bound",
        "verdict",
        "note",
    ]
    assert set(claims["verdict"]) <= set(VERDICTS)
    assert set(claims["experiment"]) >= set(catalogue.load(ROOT)), "every output must check at least one claim"
    # no PASS reads as resting on a zero standard error ("+- 0"); identical runs name their test instead
    zero_se = claims[(claims.verdict == "PASS") & claims.measured.str.contains(r"(?:\+-|±) ?0(?![.\d])")]
    assert zero_se.empty, zero_se[["claim_id", "measured"]].to_string()
    assert claims["claim_id"].is_unique
    failed = claims[claims["verdict"] == "FAIL"]
    assert failed.empty, failed.to_string()
    # every ERRATUM names an entry that exists in ERRATA.md
    headings = set(re.findall(r"^## (.+)$", (ROOT / "ERRATA.md").read_text(), re.M))
    named = claims.loc[claims["verdict"] == "ERRATUM", "note"].str.extract(r'ERRATA\.md entry "([^"]+)"')[0]
    assert set(named) <= headings, set(named) - headings
    # claims.md opens with the summary: counts per kind, per section, and the policy
    md = (a / "figures/claims.md").read_text()
    head = md[: md.index("\n## ")]
    assert all(f" {int((claims.verdict == v).sum())} {v}" in head for v in VERDICTS)  # "727 claims: 597 PASS, ..."
    sections = {o.section for o in catalogue.load(ROOT).values()}
    assert all(f"| {s} |" in head for s in sections) and "Holm" in head


def test_report_captions_render_their_math(quick_report):
    """`make report` on the quick run: every caption's LaTeX is MathML (none loses its backslashes, the old
    ``$bar p_t$``; none is docutils' HTML math, whose \\bar p shows as a dash before p), and a figure's parameters
    name its caption's source instead of repeating the caption as raw RST. How it looks in a browser:
    tests/test_report_browser.py."""
    html = quick_report.read_text()
    assert "$bar p_t$" not in html and "$varepsilon" not in html
    assert len(re.findall(r"(<|\\u003c)math ", html)) >= len(catalogue.load(ROOT))
    assert not re.search(r'class=\\?"formula', html)
    assert ":raw-html:" not in html and ":math:" not in html and "title cell of notebooks/" in html


def test_numbers_identical_with_one_and_two_cores(quick_build, one_core_build):
    # Every kind of job (simulate: Monte Carlo, exact and continual observation on a data wheel; check; the notebooks
    # of a figure, a figure with an extra data table, a table and a table rendering its claims; the claims
    # collection), rerun alone on one core, writes the bytes the two-core build wrote while other jobs ran beside it.
    a, (b, rebuilt) = quick_build, one_core_build
    cat = catalogue.load(ROOT)
    files = set(map(str, rebuilt))
    assert {cat[i].kind for i in ONE_CORE_NOTEBOOKS} == set(catalogue.FILES)
    for i in ONE_CORE_NOTEBOOKS:
        assert {f"results/raw/{i}.csv", f"results/claims/{i}.csv", *cat[i].targets()} <= files, i
    assert "figures/data/fig_co_crossover_summary.csv" in files and "figures/claims.csv" in files
    missing = [f for f in files if not (b / f).is_file()]
    assert not missing, f"not rebuilt with --cores 1: {missing}"
    compared = [f for f in sorted(files) if f.endswith((".csv", ".md", ".tex", ".png"))]
    differ = [f for f in compared if (a / f).read_bytes() != (b / f).read_bytes()]
    assert not differ, f"outputs differ between --cores 2 and --cores 1: {differ}"
    assert sum(f.endswith(".png") for f in compared) == sum(cat[i].kind == "figure" for i in ONE_CORE_NOTEBOOKS)


def test_notebooks_in_parallel_do_not_collide(quick_build, tmp_path):
    # Rerun notebook jobs at once (more jobs than cores): kernels must not fight over ZMQ ports.
    a = clone_built(quick_build, tmp_path / "parallel")
    targets = notebook_targets(PARALLEL_NOTEBOOKS)
    before = {i: (a / f"results/notebooks/{i}.ipynb").stat().st_mtime_ns for i in PARALLEL_NOTEBOOKS}
    proc = run(a, *targets, "--cores", "8", *QUICK, "--forcerun", *targets)  # --configfile takes all values after it
    ran = [rule for rule, _ in JOB.findall(proc.stdout + proc.stderr)]
    assert len([r for r in ran if r.startswith(("figure", "table"))]) == len(PARALLEL_NOTEBOOKS), ran
    for i in PARALLEL_NOTEBOOKS:
        assert (a / f"results/notebooks/{i}.ipynb").stat().st_mtime_ns > before[i], i


def test_rebuilding_one_output_updates_its_claims(quick_build, tmp_path):
    # The documented rebuild of one output (docs/workflow.md: `snakemake <id>`) after a parameter change leaves its
    # claims, the claims table and its result page describing the new run; the output is one progress line per job
    # (profiles/default: each rule's message, no reasons), the reasons come back with --quiet host, and asking for
    # the figure file alone says that its claims are not rebuilt.
    a = clone_built(quick_build, tmp_path / "rebuild")
    own, table = a / "results/claims/fig_oc.csv", a / "figures/claims.csv"
    page = a / "results/quick-docs/docs/results/fig_oc.md"  # config/quick.yaml's docs root
    before = {f: f.read_text() for f in (own, table, page)}
    others = pd.read_csv(table, dtype=str, keep_default_na=False).query("experiment != 'fig_oc'")
    (a / "b.yaml").write_text("fig_oc:\n  t: [1, 1000]\n")  # a simulation parameter of one cheap output
    alone = run(a, "-n", "figures/fig_oc.pdf", *QUICK, "b.yaml")
    said = alone.stdout + alone.stderr
    assert "figures/fig_oc.pdf is rebuilt alone" in said and "`snakemake fig_oc`" in said, said[-3000:]
    why = run(a, "-n", "fig_oc", *QUICK, "b.yaml", "--quiet", "host")  # targets first: --configfile takes the rest
    assert "Reason: " in why.stdout + why.stderr and planned_jobs(why).get("simulate") == {"fig_oc"}
    proc = run(a, "fig_oc", "--cores", "2", *QUICK, "b.yaml")
    out = proc.stdout + proc.stderr
    jobs = planned_jobs(proc)
    assert {"simulate", "analyse", "check", "figure", "claims", "docs", "fig_oc"} <= set(jobs), jobs
    assert jobs["simulate"] == {"fig_oc"} and jobs["check"] == {"fig_oc"}, jobs
    ran = len(JOB.findall(out))
    assert ran == len(re.findall(r"^Finished jobid: \d+", out, re.M)) == int(re.findall(r"(\d+) of \d+ steps", out)[-1])
    assert "Reason:" not in out and "    input:" not in out, out[-3000:]
    for f, text in before.items():
        assert f.read_text() != text, f"{f.relative_to(a)} still describes the old parameters"
    claims = pd.read_csv(own, dtype=str, keep_default_na=False)
    assert claims.claim_id.str.contains("t=1000").any() and not claims.claim_id.str.contains("t=100,").any()
    collected = pd.read_csv(table, dtype=str, keep_default_na=False)
    assert collected.query("experiment == 'fig_oc'").reset_index(drop=True).equals(claims)
    assert collected.query("experiment != 'fig_oc'").reset_index(drop=True).equals(others.reset_index(drop=True))
    assert "t=1000" in page.read_text()


def test_replot_reruns_no_simulation_and_no_check(quick_build, tmp_path):
    a = clone_built(quick_build, tmp_path / "replot")
    assert planned(a) == {}, "a copy of the build must plan nothing"
    nb = a / "notebooks/fig_oc.ipynb"
    # a real edit (Snakemake >= 9.18 compares checksums, so a bare touch is not a change)
    nb.write_text(nb.read_text().replace("# fig_oc:", "# fig_oc (edited):", 1))
    raw, claims = a / "results/raw/fig_oc.csv", a / "results/claims/fig_oc.csv"
    before = raw.stat().st_mtime_ns, claims.stat().st_mtime_ns
    jobs = planned(a, "figures/fig_oc.pdf", "figures/claims.csv")
    assert jobs.get("figure") == {"fig_oc"} and "simulate" not in jobs and "check" not in jobs, jobs
    run(a, "figures/fig_oc.pdf", "figures/claims.csv", "--cores", "1", *QUICK)
    assert (raw.stat().st_mtime_ns, claims.stat().st_mtime_ns) == before


def test_plotting_edit_plans_only_the_notebooks_importing_it(quick_build):
    a = quick_build
    graph = ImportGraph(a / "src")
    plotting = str(a / "src/privtest_artifact/plotting.py")
    importers = {i for i in catalogue.load(a) if plotting in graph.of_notebook(a / f"notebooks/{i}.ipynb")}
    assert importers
    with edited(a / "src/privtest_artifact/plotting.py", "# a comment\n"):
        jobs = planned(a)
    assert "simulate" not in jobs and "check" not in jobs, jobs
    assert notebooks_planned(jobs, a) == importers


def test_library_edit_plans_exactly_the_simulations_importing_it(quick_build):
    # privtest.exact is imported by some simulations, not all (the package __init__ exports lazily); a simulate job
    # depends on the library files its output's simulate function reaches (deps.StageCode)
    a = quick_build
    stages = StageCode(ImportGraph(a / "src"))
    exact = str(a / "src/privtest/exact.py")
    cat = catalogue.load(a)
    importers = {
        i for i in cat if cat[i].simulates and exact in stages.of(catalogue.OUTPUT_MODULE.format(i), "simulate")[0]
    }
    assert importers and importers != set(cat)
    with edited(a / "src/privtest/exact.py", "# a comment\n"):
        jobs = planned(a)
    assert jobs.get("simulate") == importers


def test_data_and_collection_rules_depend_on_their_library_code(quick_build):
    # the OPT_t references and the claims/benchmark collections are derived from library code too: a stale one would
    # silently feed the CO simulations or the report
    a = quick_build
    with edited(a / "src/privtest/co/graphs.py", "# a comment\n"):
        jobs = planned(a)
    assert "co_opt" in jobs, jobs
    with edited(a / "src/privtest_artifact/claims.py", "# a comment\n"):
        jobs = planned(a)
    assert "claims" in jobs and "simulate" not in jobs, jobs


def _with_noop(text: str, function: str) -> str:
    """``text`` (Python source) with a no-op ``pass`` as the first statement after the docstring of its top-level
    ``function``: a code edit that changes no behaviour."""
    node = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef) and n.name == function)
    first = node.body[1] if ast.get_docstring(node) is not None else node.body[0]
    lines = text.splitlines(keepends=True)
    lines.insert(first.lineno - 1, " " * first.col_offset + "pass\n")
    return "".join(lines)


def test_a_stage_edit_reruns_its_own_job_and_what_reads_it(quick_build):
    # an output's simulate, analyse and claims live in its one module; each job follows its own stage's definitions
    # (deps.StageCode, docstrings and comments left out): a code edit of claims reruns fig_oc's check only, one of
    # analyse its analysis and what reads it, neither the simulation; a comment reruns no job of fig_oc
    a = quick_build
    path = ImportGraph(a / "src").module_file(catalogue.OUTPUT_MODULE.format("fig_oc"))
    text = path.read_text()
    try:
        path.write_text(_with_noop(text, "claims"))
        jobs = planned(a)
        assert jobs.get("check") == {"fig_oc"} and not {"simulate", "analyse"} & set(jobs), jobs
        assert not notebooks_planned(jobs, a), jobs  # fig_oc's notebook renders no claims
        path.write_text(_with_noop(text, "analyse"))
        jobs = planned(a)
        assert jobs.get("analyse") == {"fig_oc"} and jobs.get("check") == {"fig_oc"} and "simulate" not in jobs, jobs
        assert notebooks_planned(jobs, a) == {"fig_oc"}, jobs
        path.write_text(text + "# a comment\n")
        jobs = planned(a)
        assert not {"simulate", "analyse", "check"} & set(jobs) and not notebooks_planned(jobs, a), jobs
    finally:
        path.write_text(text)


def test_the_noop_edit_is_a_code_edit_of_one_stage():
    text = 'def claims(tables, cfg):\n    """Doc."""\n    return []\n\n\ndef analyse(raw, cfg):\n    return {}\n'
    edited_text = _with_noop(text, "claims")
    assert edited_text.splitlines()[2] == "    pass" and edited_text.replace("    pass\n", "", 1) == text
    assert ast.unparse(ast.parse(edited_text).body[1]) == ast.unparse(ast.parse(text).body[1])  # analyse unchanged
    assert _with_noop(text, "analyse").splitlines()[6] == "    pass"


def test_check_script_edit_reruns_checks_and_claim_renderings_only(quick_build):
    a = quick_build
    cat = catalogue.load(a)
    with edited(a / "workflow/scripts/check.py", "# a comment\n"):
        jobs = planned(a)
    assert jobs.get("check") == set(cat) and "simulate" not in jobs, jobs
    # only the notebooks that render their claims (table3's markdown lists them) are rerun
    assert notebooks_planned(jobs, a) == {i for i, o in cat.items() if o.renders_claims}


def test_bad_config_stops_before_any_job(tmp_path):
    repo = copy_repo(tmp_path / "bad")
    (repo / "bad.yaml").write_text("fig_oc:\n  beta: 1.5\n")
    proc = run(repo, "--cores", "1", *QUICK, "bad.yaml", check=False)
    assert proc.returncode != 0
    message = proc.stdout + proc.stderr
    assert "fig_oc" in message and "beta" in message, message[-2000:]
    assert not (repo / "results").exists()


def test_bad_catalogue_stops_before_any_job(tmp_path):
    repo = copy_repo(tmp_path / "badcat")
    path = repo / catalogue.PATH
    path.write_text(path.read_text().replace("fig_oc: {kind: figure", "fig_oc: {kind: plot", 1))
    proc = run(repo, "--cores", "1", *QUICK, check=False)
    assert proc.returncode != 0
    message = proc.stdout + proc.stderr
    assert "fig_oc" in message and "'plot' is not one of" in message, message[-2000:]
    assert not (repo / "results").exists()


def test_slurm_profile_dry_run_without_slurm(tmp_path):
    # The cluster profile must at least plan the whole DAG on a machine without SLURM.
    repo = copy_repo(tmp_path / "slurm")
    proc = run(repo, "-n", "--workflow-profile", "workflow/profiles/slurm", *QUICK)
    assert "Job stats" in proc.stdout + proc.stderr


# A throw-away output, written the way CONTRIBUTING.md "Adding an output" says: one module with its three stages, a
# notebook that reads the analysis tables.
MODULE = '''"""fig_tmp: throw-away output of tests/test_workflow.py."""

import pandas as pd

from privtest_artifact.claims import Claim


def simulate(cfg, rng, inputs):
    return pd.DataFrame({"x": range(cfg["n"]), "y": rng.random(cfg["n"])})


def analyse(raw, cfg):
    return {"rows": raw}


def claims(tables, cfg):
    rows = tables["rows"]
    return [
        Claim(
            claim_id="tmp.rows",
            source="none",
            statement="the simulation writes n rows",
            measured=str(len(rows)),
            bound=str(cfg["n"]),
            verdict="PASS" if len(rows) == cfg["n"] else "FAIL",
        )
    ]
'''
NOTEBOOK = [
    "# fig_tmp: a throw-away figure",
    '# Parameters (papermill injects the real values)\nanalysis = ""\ncfg = {}\npdf = ""\npng = ""\ndata = ""',
    "import matplotlib.pyplot as plt\n\nfrom privtest_artifact import plotting\n"
    "from privtest_artifact.io import read_analysis, write_csv_atomic\n\nplotting.setup()\n"
    'df = read_analysis(analysis)["rows"]\nwrite_csv_atomic(df, data)\n'
    "fig, ax = plt.subplots()\nax.plot(df.x, df.y)\nplotting.save(fig, pdf, png)",
]


#: The files a new output touches (CONTRIBUTING.md, "Adding an output"), and nothing else.
NEW_OUTPUT_FILES = {
    "src/privtest_artifact/outputs/fig_tmp.py",
    "notebooks/fig_tmp.ipynb",
    "config/catalogue.yaml",
    "config/config.yaml",
    "config/quick.yaml",
    "workflow/schemas/config.schema.yaml",
    "tests/test_fig_tmp.py",
    "tests/can_fail/test_can_fail_fig_tmp.py",
}
UNIT_TEST = '''"""fig_tmp's claims, judged through its analysis."""

import numpy as np

from privtest_artifact.outputs import fig_tmp


def test_claims_count_the_rows():
    raw = fig_tmp.simulate({"n": 3}, np.random.default_rng(0), {})
    assert [c.verdict for c in fig_tmp.claims(fig_tmp.analyse(raw, {"n": 3}), {"n": 3})] == ["PASS"]
'''
CAN_FAIL = '''"""fig_tmp's check can fail."""

import pandas as pd


def test_fail_missing_rows(output_cfg, run_check, verdicts):
    frame = run_check("fig_tmp", pd.DataFrame({"x": [0], "y": [0.5]}), output_cfg("fig_tmp"))
    assert verdicts(frame) == {"tmp.rows": "FAIL"}


def test_safe_all_rows(output_cfg, run_check, verdicts):
    cfg = output_cfg("fig_tmp")
    frame = run_check("fig_tmp", pd.DataFrame({"x": range(cfg["n"]), "y": 0.5}), cfg)
    assert verdicts(frame) == {"tmp.rows": "PASS"}
'''


def _tree(repo: Path) -> dict[str, bytes]:
    """Every source file of a repository copy (what a contributor edits), by path."""
    skip = ("results/", "figures/", "resources/", ".snakemake/", ".pytest_cache/")
    return {
        p.relative_to(repo).as_posix(): p.read_bytes()
        for p in repo.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.relative_to(repo).as_posix().startswith(skip)
    }


def test_new_output_needs_only_its_own_files(tmp_path):
    repo = copy_repo(tmp_path / "new")
    before = _tree(repo)
    graph = ImportGraph(repo / "src")
    module = catalogue.OUTPUT_MODULE.format("fig_tmp")
    path = repo / "src" / (module.replace(".", "/") + ".py")
    assert not path.exists()
    path.write_text(MODULE)
    assert graph.module_file(module) == path
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(NOTEBOOK[0])]
    nb.cells += [nbformat.v4.new_code_cell(c) for c in NOTEBOOK[1:]]
    nb.cells[1].metadata["tags"] = ["parameters"]
    nb.metadata["kernelspec"] = {"display_name": "privtest", "language": "python", "name": "privtest"}
    nbformat.write(nb, repo / "notebooks/fig_tmp.ipynb")
    with open(repo / catalogue.PATH, "a") as f:
        f.write("  fig_tmp: {kind: figure, section: gtm}\n")
    with open(repo / "config/config.yaml", "a") as f:
        f.write("\nfig_tmp:\n  n: 5\n")
    with open(repo / "config/quick.yaml", "a") as f:
        f.write("\nfig_tmp:\n  n: 4\n")
    schema = yaml.safe_load((repo / "workflow/schemas/config.schema.yaml").read_text())
    schema["properties"]["fig_tmp"] = {
        "type": "object",
        "description": "throw-away output of tests/test_workflow.py",
        "properties": {"n": {"type": "integer", "minimum": 1, "description": "rows"}},
        "required": ["n"],
        "additionalProperties": False,
    }
    schema["required"].append("fig_tmp")
    (repo / "workflow/schemas/config.schema.yaml").write_text(yaml.safe_dump(schema, sort_keys=False))
    (repo / "tests/test_fig_tmp.py").write_text(UNIT_TEST)
    (repo / "tests/can_fail/test_can_fail_fig_tmp.py").write_text(CAN_FAIL)
    after = _tree(repo)
    assert {f for f in after if before.get(f) != after[f]} | (set(before) - set(after)) == NEW_OUTPUT_FILES
    # generated, not edited: the config's key reference, rendered from the schema (CONTRIBUTING.md)
    subprocess.run([sys.executable, "workflow/scripts/render_config_readme.py"], cwd=repo, check=True)

    jobs = planned(repo)  # the default target: the whole catalogue, claims and benchmarks included
    assert all("fig_tmp" in jobs[r] for r in ("simulate", "analyse", "check", "figure")), jobs
    run(repo, "figures/fig_tmp.pdf", "figures/fig_tmp.png", "results/claims/fig_tmp.csv", "--cores", "2", *QUICK)
    assert len(pd.read_csv(repo / "figures/data/fig_tmp.csv")) == 4  # config/quick.yaml's n
    claims = pd.read_csv(repo / "results/claims/fig_tmp.csv", dtype=str, keep_default_na=False)
    assert claims[["claim_id", "experiment", "verdict"]].values.tolist() == [["tmp.rows", "fig_tmp", "PASS"]]
    # its tests, the can-fail requirement and the layout and catalogue checks accept it as it is
    tests = ["tests/test_fig_tmp.py", "tests/can_fail/test_can_fail_fig_tmp.py", "tests/test_checks_can_fail.py"]
    tests += ["tests/test_layout.py", "tests/test_catalogue.py", "tests/test_config_schema.py"]
    env = {**os.environ, "PYTHONPATH": str(repo / "src")}
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not workflow", *tests],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
    )
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]


def test_every_markdown_table_is_readable(quick_build):
    # a Markdown table meant for reading has at most MAX_MD_COLUMNS columns (the full table is the .csv)
    from privtest_artifact.tables import MAX_MD_COLUMNS, markdown_column_counts

    a = quick_build
    tables_md = sorted((a / "figures").glob("table*.md"))
    assert len(tables_md) == len([o for o in catalogue.load(ROOT).values() if o.kind == "table"])
    for md in sorted((a / "figures").glob("*.md")):  # the tables, claims.md and benchmarks.md
        counts = markdown_column_counts(md.read_text())
        assert counts, md.name
        assert max(counts) <= MAX_MD_COLUMNS, (md.name, counts)


def test_plotted_data_are_what_is_drawn(quick_build):
    # fig_hpo's data hold the OpenDP peer it plots; the CO figures' data are per-step summaries, not runs
    a = quick_build
    hpo = pd.read_csv(a / "figures/data/fig_hpo.csv")
    assert {"OpenDP selection", "OpenDP 0.16.0 as released"} <= set(hpo.method)
    for fig in ("fig_co_crossover", "fig_co_densest", "fig_co_dks", "fig_co_maxcut", "fig_co_submodular"):
        d = pd.read_csv(a / f"figures/data/{fig}.csv")
        assert {"mean", "q10", "q90"} <= set(d.columns) and "run" not in d.columns, fig
        assert not d.duplicated(["stream", "eps", "method", "t"]).any(), fig


def test_quick_run_writes_its_docs_beside_the_committed_ones(quick_build):
    """Rule docs on the quick config writes every result page and the documents with generated blocks under
    results/quick-docs (config/quick.yaml: docs.root), rendered from the quick claims; the committed documents of the
    copy stay as they were."""
    import json

    from privtest_artifact import docs

    a = quick_build
    out = a / "results/quick-docs"
    claims = pd.read_csv(a / "figures/claims.csv", dtype=str, keep_default_na=False)
    for oid in catalogue.load(ROOT):
        page = (out / f"docs/results/{oid}.md").read_text()
        mine = claims[claims.experiment == oid]
        assert page.startswith(f"# `{oid}`") and docs.counts_sentence(mine) in page, oid
    measurement = json.loads((a / "benchmarks/reproduction_time.json").read_text())
    bodies = docs.standard_blocks(claims, measurement, list(catalogue.load(ROOT)))
    for document in ("README.md", "ARTIFACT-APPENDIX.md", "docs/findings.md"):
        written = (out / document).read_text()
        assert (
            docs.render_blocks(written, bodies) == written
            and docs.counts_sentence(claims) in (out / "README.md").read_text()
        )
        assert (a / document).read_text() == (ROOT / document).read_text(), document


@pytest.mark.parametrize(
    "override, oid",
    [
        ("fig_co_crossover: {tie_tolerance: 0.03}\n", "fig_co_crossover"),  # a section three simulations read
        ("fig_privacy_exact: {quadrature_tol: 1.0e-8}\n", "fig_privacy_exact"),  # an analysis key outside Sections 7-8
        ("fig_privacy_audit: {confidence: 0.9}\n", "fig_privacy_audit"),  # judges counts the simulation records
    ],
)
def test_analysis_keys_rerun_the_analysis_never_the_simulation(quick_build, tmp_path, override, oid):
    # an analysis key (x-stage: analysis: it only judges or displays) is no simulation param: changing it
    # reruns the output's analysis, check and notebook (and the collections reading the claims), no simulation
    from privtest_workflow import configuration

    key = override.split("{")[1].split(":")[0]
    assert key in configuration.load_analysis_keys(quick_build).get(oid, ()), (oid, key)
    a = clone_built(quick_build, tmp_path / "judge")
    (a / "judge.yaml").write_text(override)
    jobs = planned_with(a, "judge.yaml")
    assert "simulate" not in jobs, jobs
    assert jobs.get("analyse") == {oid} and jobs.get("check") == {oid}, jobs
    assert notebooks_planned(jobs, a) == {oid}, jobs
    # the negative control: a simulation key of the same section does rerun its simulation
    (a / "sim.yaml").write_text(f"{oid}: {{{SIMULATION_KEY[oid]}}}\n")
    assert oid in planned_with(a, "sim.yaml").get("simulate", set())


#: A simulation key of each section above, with a value other than quick.yaml's.
SIMULATION_KEY = {
    "fig_co_crossover": "model_draws: 9",
    "fig_privacy_exact": "grid: 13",
    "fig_privacy_audit": "queries: 10",
}


def planned_with(repo: Path, *configfiles: str) -> dict[str, set[str]]:
    """Dry run of the default target with quick.yaml and then ``configfiles``: rule -> output ids of the jobs."""
    return planned_jobs(run(repo, "-n", *QUICK, *configfiles))
