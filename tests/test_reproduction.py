"""Reproduction = empty diff (docs/reproduction.md): which results git tracks (.gitignore), their
size budget, `make verify-reproduction`, and workflow/scripts/compare_runs.py with a tolerance and against git."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "workflow/lib"))
from privtest_workflow import catalogue  # noqa: E402

#: The committed text results may take at most this many bytes in all.
BUDGET = 10 * 1024**2
#: The directories of tracked results.
RESULTS = ("figures", "docs/results", "results/analysis")

_spec = importlib.util.spec_from_file_location("compare_runs", ROOT / "workflow/scripts/compare_runs.py")
compare_runs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_runs)

needs_git = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)


def _git(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _check_ignore(paths: list[str]) -> set[str]:
    """The subset of ``paths`` (relative to the repository) that .gitignore ignores."""
    proc = subprocess.run(
        ["git", "check-ignore", "--no-index", "--stdin"],
        cwd=ROOT,
        input="\n".join(paths) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return set(proc.stdout.split())


@needs_git
def test_gitignore_tracks_the_text_results_and_nothing_with_a_time_or_path():
    cat = catalogue.load(ROOT)
    tracked, untracked = ["figures/claims.csv", "figures/claims.md"], ["figures/benchmarks.md", "figures/report.html"]
    untracked += ["figures/claims.html"]  # renderings for the report only
    for i, out in cat.items():
        for key, pattern in catalogue.FILES[out.kind].items():
            (untracked if key in ("pdf", "png") else tracked).append(pattern.format(i))
        tracked += [catalogue.EXTRA_DATA.format(i, name) for name in out.extra_data]
        tracked += [f"docs/results/{i}.md", f"results/analysis/{i}/summary.csv", f"results/analysis/{i}.csv"]
        untracked += [s.format(i) for s in catalogue.SIDECARS.values()] + [catalogue.HTML.format(i)]
        untracked += [catalogue.RAW.format(i), catalogue.RAW_PROVENANCE.format(i), catalogue.CLAIMS.format(i)]
        untracked += [f"results/analysis/{i}/.snakemake_timestamp", f"results/analysis/{i}.provenance.json"]
        untracked += [f"results/benchmarks/simulate/{i}.tsv", f"results/logs/simulate/{i}.log"]
    ignored = _check_ignore(tracked + untracked)
    assert not ignored & set(tracked), sorted(ignored & set(tracked))
    assert set(untracked) <= ignored, sorted(set(untracked) - ignored)


@needs_git
def test_tracked_results_stay_under_the_size_budget():
    names = _git("ls-files", "-z", "--", *RESULTS).stdout.split("\0")
    sizes = {n: (ROOT / n).stat().st_size for n in names if n and (ROOT / n).is_file()}
    total = sum(sizes.values())
    largest = sorted(sizes, key=sizes.get, reverse=True)[:5]
    assert total < BUDGET, f"tracked results take {total / 1024**2:.1f} MB (budget 10 MB); largest: {largest}"


def _run(root: Path, claims_measured="0.5 ± 0.01", data_value="1.000000", md="| a | 0.25 |\n") -> Path:
    (root / "figures/data").mkdir(parents=True)
    (root / "results/raw").mkdir(parents=True)
    claims = pd.DataFrame(
        {
            "claim_id": ["c1", "c2"],
            "source": ["Lemma 22", "Theorem 21"],
            "statement": ["x <= 1", "y >= 0"],
            "experiment": ["fig_a", "fig_a"],
            "measured": [claims_measured, "3"],
            "bound": ["1", "0"],
            "verdict": ["PASS", "PASS"],
            "note": ["", ""],
        }
    )
    claims.to_csv(root / "figures/claims.csv", index=False)
    pd.DataFrame({"t": ["1", "2"], "mean": [data_value, "2.5"]}).to_csv(root / "figures/data/fig_a.csv", index=False)
    pd.DataFrame({"run": ["0"], "x": ["7"]}).to_csv(root / "results/raw/fig_a.csv", index=False)
    (root / "figures/table1.md").write_text(md)
    return root


def test_compare_identical_runs(tmp_path, capsys):
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b")
    assert compare_runs.main([str(a), str(b)]) == 0
    assert "identical" in capsys.readouterr().out


@pytest.mark.parametrize(
    "change",
    [
        {"data_value": "1.000001"},
        {"claims_measured": "0.5000004 ± 0.01"},
        {"md": "| a | 0.2500001 |\n"},
    ],
)
def test_last_digits_differ_exactly_but_agree_within_a_tolerance(tmp_path, change):
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b", **change)
    assert compare_runs.main([str(a), str(b)]) == 1
    assert compare_runs.main([str(a), str(b), "--rtol", "1e-5"]) == 0
    assert compare_runs.main([str(a), str(b), "--rtol", "1e-9"]) == 1


@pytest.mark.parametrize(
    "change", [{"data_value": "1.1"}, {"md": "| b | 0.25 |\n"}, {"claims_measured": "0.5 +- 0.01"}]
)
def test_a_tolerance_does_not_hide_other_differences(tmp_path, change):
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b", **change)
    assert compare_runs.main([str(a), str(b), "--rtol", "1e-3"]) == 1


def test_a_verdict_is_compared_exactly(tmp_path, capsys):
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b")
    claims = pd.read_csv(b / "figures/claims.csv", dtype=str, keep_default_na=False)
    claims.loc[0, "verdict"] = "INCONCLUSIVE"
    claims.to_csv(b / "figures/claims.csv", index=False)
    assert compare_runs.main([str(a), str(b), "--rtol", "1"]) == 1
    assert "INCONCLUSIVE" in capsys.readouterr().out


def test_verdicts_of_a_redrawn_run(tmp_path, capsys):
    """--verdicts: new numbers with the same verdicts agree; a moved verdict is listed with both measured values."""
    a, b = _run(tmp_path / "a"), _run(tmp_path / "b", claims_measured="0.7 ± 0.02", data_value="9")
    assert compare_runs.main([str(a), str(b)]) == 1
    assert compare_runs.main([str(a), str(b), "--verdicts"]) == 0
    claims = pd.read_csv(b / "figures/claims.csv", dtype=str, keep_default_na=False)
    claims.loc[0, "verdict"] = "INCONCLUSIVE"
    claims.to_csv(b / "figures/claims.csv", index=False)
    capsys.readouterr()
    assert compare_runs.main([str(a), str(b), "--verdicts"]) == 1
    out = capsys.readouterr().out
    assert (
        "c1: PASS -> INCONCLUSIVE (measured 0.5 ± 0.01 -> 0.7 ± 0.02)" in out and "after: INCONCLUSIVE 1, PASS 1" in out
    )


@pytest.mark.parametrize("arg", [["--rtol", "-1"], ["--atol", "nan"]])
def test_a_bad_tolerance_is_refused(tmp_path, arg, capsys):
    a = _run(tmp_path / "a")
    assert compare_runs.main([str(a), str(a), *arg]) == 2
    assert ("rtol" if "--rtol" in arg else "atol") in capsys.readouterr().err
    with pytest.raises(ValueError, match="rtol"):
        compare_runs.Tolerance(rtol=-0.5)


@pytest.fixture
def committed_run(tmp_path):
    """A git repository whose commit holds a run's text results (raw results stay uncommitted, as in .gitignore)."""
    repo = _run(tmp_path / "repo")
    (repo / ".gitignore").write_text("results/raw/\n")
    shutil.copy(ROOT / "Makefile", repo / "Makefile")
    for args in (
        ["init", "-q"],
        ["add", "figures", "Makefile", ".gitignore"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "r"],
    ):
        assert _git(*args, cwd=repo).returncode == 0
    return repo


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_compare_a_run_with_the_committed_results(committed_run, monkeypatch, capsys):
    monkeypatch.chdir(committed_run)
    assert compare_runs.main(["git:HEAD", "."]) == 0
    out = capsys.readouterr().out
    assert "compared 1 tables, 1 rendered texts, 2 claims" in out  # the raw table is not committed: not compared
    (committed_run / "figures/data/fig_a.csv").write_text("t,mean\n1,1.0000001\n2,2.5\n")
    assert compare_runs.main(["git:HEAD", "."]) == 1
    assert compare_runs.main(["git:HEAD", ".", "--rtol", "1e-6"]) == 0
    assert compare_runs.main(["git:nosuchrev", "."]) == 2
    assert "not a git revision" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("make") is None, reason="needs git and make")
def test_verify_reproduction_fails_on_a_changed_or_new_result(committed_run):
    verify = ["make", "--no-print-directory", "-s", "verify-reproduction"]
    ok = subprocess.run(verify, cwd=committed_run, capture_output=True, text=True)
    assert ok.returncode == 0 and "git status is clean" in ok.stdout, ok.stdout + ok.stderr
    (committed_run / "results/raw/fig_a.csv").write_text("run,x\n0,8\n")  # ignored, as results/raw/ in .gitignore
    assert subprocess.run(verify, cwd=committed_run, capture_output=True).returncode == 0
    (committed_run / "figures/table1.md").write_text("| a | 0.26 |\n")
    (committed_run / "figures/data/fig_b.csv").write_text("t\n1\n")
    bad = subprocess.run(verify, cwd=committed_run, capture_output=True, text=True)
    assert bad.returncode != 0
    assert " M figures/table1.md" in bad.stdout and "?? figures/data/fig_b.csv" in bad.stdout


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("make") is None, reason="needs git and make")
def test_verify_reproduction_fails_without_committed_results(tmp_path):
    assert _git("init", "-q", cwd=tmp_path).returncode == 0
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    proc = subprocess.run(["make", "-s", "verify-reproduction"], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0 and "no committed results" in proc.stdout


def test_reproduction_time_counts_the_jobs_from_the_job_stats_table():
    """benchmarks/reproduction_time.py counts a run's jobs from Snakemake's first "Job stats:" table (the rules'
    messages replace the "rule <name>:" lines it once matched, and the long run's record got no job counts)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("reproduction_time", ROOT / "benchmarks/reproduction_time.py")
    rt = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rt)
    log = "\n".join(
        [
            "Building DAG of jobs...", "Job stats:", "job         count", "--------  -------", "all             1",
            "check           7", "simulate        7", "total          15", "", "[Mon]",
            "Job 3: simulate fig_oc -> results/raw/fig_oc.csv", "Job stats:", "job      count", "-----  -------",
            "check        1", "total        1",
        ]
    )  # fmt: skip
    assert rt.job_counts(log) == {"all": 1, "check": 7, "simulate": 7}
    assert rt.job_counts("Nothing to be done.") == {}
