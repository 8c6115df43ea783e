"""Wall time of a (partial) reproduction, measured in a scratch copy so existing results are not reused.

Runs ``snakemake <targets> --cores N [--configfile ...]`` in a temporary copy of the repository and prints the
total wall time, the CPU time of Snakemake and its jobs (user + system, recorded as ``cpu_s``) and the per-job
times Snakemake's ``benchmark:`` directive recorded (results/benchmarks/).

Usage:
    python benchmarks/reproduction_time.py                       # the whole catalogue, default config, 2 cores
    python benchmarks/reproduction_time.py figures/fig_hpo.pdf   # one output
    python benchmarks/reproduction_time.py --quick               # quick config
    python benchmarks/reproduction_time.py --make-test           # `make test` in a fresh clone (.venv included)

``--long BUILT_DIR`` measures ``config/long.yaml`` (``--configfile config/scale.yaml``: the 10^6-step stream) on top
of a built default run: it copies the checkout BUILT_DIR
(a clone where ``make reproduce`` has run, ``.venv`` excluded; symlinks, mtimes and ``.snakemake`` metadata kept, so
nothing is stale), runs ``snakemake --cores N --configfile config/long.yaml`` in the copy with this interpreter and
the copy's ``src`` first on ``PYTHONPATH``, and prints (with ``--record``: records under key ``long``, or ``scale``)
the wall time, the longest jobs that reran,
the jobs run per rule, the CPU seconds of Snakemake and its jobs (:func:`children_cpu`) and the claim
counts per verdict of both runs' figures/claims.csv, with what became of the default run's INCONCLUSIVE claims.

``--make-test`` clones the current commit (``git clone``: uncommitted changes are not measured), runs ``make install``
and ``make test`` there and prints their wall times, then the quick workflow's in the same clone (its .venv now
installed) and the ratio of ``make test`` with its virtual environment (install + test) to it, with the load average
before and after each (the machine may be shared).

``--slurm`` (with ``--make-test``) then times, in the same clone, what ``.ci/run`` runs after ``make test``: the
quick workflow through the SLURM profile on the single-node test cluster
(``workflow/scripts/slurm_local_cluster.sh start``, ``pytest -m slurm tests/test_slurm.py``, ``stop``; needs root),
recorded under key ``slurm`` (the test alone; starting the cluster, which installs Debian's slurm-wlm the first
time, is printed, not recorded).

``--record`` also writes the measurement into ``benchmarks/reproduction_time.json`` (the committed file the README's
and ARTIFACT-APPENDIX.md's run-time tables are rendered from, ``privtest_artifact.docs.runtime_table``): one entry per
run key
(``workflow`` or ``quick``; ``install``, ``test`` and ``quick`` for ``--make-test``), replaced when measured again,
with the commit and the load average; keys sorted and no timestamps, so only the measured values change between runs.
For the whole catalogue on the default config (no targets, no ``--quick``) it also rewrites the per-job record
``benchmarks/job_times.csv`` (``privtest_artifact.docs.JOB_TIMES``, the run times of the result pages
docs/results/<id>.md)
from the scratch run's ``results/benchmarks/<rule>/<id>.tsv``, each row saying where it was measured (commit,
cores, idle or shared machine). This is the only writer of both records: ``make reproduce`` reads them, never
rewrites them, so its generated documents are the same bytes on every machine.
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "benchmarks" / "reproduction_time.json"
#: Below this load average (per the start of a measurement) the machine counts as idle.
IDLE_LOAD = 0.5
IGNORE = shutil.ignore_patterns(".venv", ".git", "results", ".snakemake", "__pycache__", "*.egg-info", "figures")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", nargs="*", help="Snakemake targets (default: the whole catalogue)")
    ap.add_argument("--cores", default="2")
    ap.add_argument("--quick", action="store_true", help="use config/quick.yaml")
    ap.add_argument(
        "--make-test", action="store_true", help="time `make test`, then the quick workflow, in a fresh clone"
    )
    ap.add_argument(
        "--slurm", action="store_true", help="with --make-test: then the SLURM test of .ci/run in the same clone"
    )
    ap.add_argument("--record", action="store_true", help=f"write the measurement into {RECORD.relative_to(ROOT)}")
    ap.add_argument(
        "--long",
        metavar="BUILT_DIR",
        type=Path,
        help="time config/long.yaml in a copy of BUILT_DIR, a checkout where the default run has been built",
    )
    ap.add_argument(
        "--configfile",
        default="config/long.yaml",
        help="with --long: the cluster-sized config to time (config/long.yaml or config/scale.yaml; recorded under "
        "its file's stem)",
    )
    args = ap.parse_args()
    if args.long:
        long_run(args.long, args.cores, args.record, args.configfile)
        return
    if args.slurm and not args.make_test:
        ap.error("--slurm needs --make-test (the SLURM test runs in its fresh clone, after make test)")
    if args.slurm and os.geteuid() != 0:
        ap.error("--slurm needs root (workflow/scripts/slurm_local_cluster.sh installs and starts the test cluster)")
    if args.make_test:
        make_test(args.record, args.slurm)
        return
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        shutil.copytree(ROOT, repo, ignore=IGNORE)
        (repo / "figures").mkdir(exist_ok=True)  # resources/ (fetched data wheels) is copied with the rest
        cmd = [sys.executable, "-m", "snakemake", *args.targets, "--cores", args.cores]
        if args.quick:
            cmd += ["--configfile", "config/quick.yaml"]
        load = os.getloadavg()[0]
        start, before = time.perf_counter(), children_cpu()
        subprocess.run(cmd, cwd=repo, check=True, capture_output=True)
        wall, cpu = time.perf_counter() - start, children_cpu() - before
        if args.record:
            key = "quick" if args.quick else "workflow"
            shown = ["snakemake", *args.targets, "--cores", args.cores] + (
                ["--configfile", "config/quick.yaml"] * args.quick
            )
            what = "quick workflow" if args.quick else "default configuration"
            record(
                key,
                f"{what} in a scratch copy (.venv already installed)",
                " ".join(shown),
                wall,
                "scratch copy",
                load,
                extra={"cpu_s": round(cpu)},
            )
            if not args.targets and not args.quick:
                record_jobs(repo, f"scratch copy of {_commit()}, default configuration, --cores {args.cores}", load)
        rows = [{"job": f"{j['rule']}/{j['id']}", "s": j["s"]} for j in job_seconds(repo / "results/benchmarks")]
        print(
            f"wall time: {wall:.1f} s, CPU time {cpu:.0f} s (Snakemake and its jobs) with --cores {args.cores}"
            f"{' (quick config)' if args.quick else ''}"
        )
        if rows:
            print(pd.DataFrame(rows).to_string(index=False))


def children_cpu() -> float:
    """User + system CPU seconds of this process's terminated, waited-for descendants so far (``getrusage``
    RUSAGE_CHILDREN): the difference across a ``subprocess.run`` of Snakemake is the CPU of Snakemake and of every
    job it ran, the goal's measure (a job's own ``cpu_time`` in results/benchmarks/ leaves Snakemake out)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _commit() -> str:
    """The short sha of the measured commit (``an unknown commit`` outside git)."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return commit.stdout.strip() or "an unknown commit"


def machine_state(load: float, cores: int | None = None) -> str:
    """Words for the machine a measurement ran on, the only place its load is stated: ``"idle 2-core machine (load
    average 0.2 at the start)"`` when the load average at the start was below :data:`IDLE_LOAD`, else ``"shared
    2-core machine (load average 3.1 at the start)"``."""
    n = cores or os.cpu_count() or 1
    state = "idle" if load < IDLE_LOAD else "shared"
    return f"{state} {n}-core machine (load average {load:.1f} at the start)"


def record_jobs(repo: Path, how: str, load: float) -> None:
    """Rewrite ``benchmarks/job_times.csv`` from the per-job benchmark files of the scratch run in ``repo``
    (outputs in catalogue order, jobs in ``privtest_artifact.docs.TIMED_RULES`` order, seconds to 0.1 s)."""
    sys.path.insert(0, str(ROOT / "workflow" / "lib"))
    from privtest_workflow import catalogue

    from privtest_artifact import docs

    runtimes = docs.read_runtimes(repo / "results" / "benchmarks", list(catalogue.load(ROOT)))
    target = ROOT / docs.JOB_TIMES
    target.write_text(docs.job_times_csv(runtimes, f"{how}, {machine_state(load)}"))
    print(f"recorded {len(runtimes)} job times in {docs.JOB_TIMES}")


def record(
    key: str,
    run: str,
    command: str,
    wall: float,
    how: str,
    load: float,
    commit: str | None = None,
    extra: dict | None = None,
) -> None:
    """Replace (or add) the entry ``key`` of :data:`RECORD` by this measurement (wall seconds rounded to 1 s; the
    measured ``commit``, by default this checkout's; the load goes into ``where`` once, :func:`machine_state`;
    ``extra``: optional fields merged into the entry, ``notes`` among them)."""
    doc = json.loads(RECORD.read_text()) if RECORD.exists() else {"runs": []}
    entry = {
        "command": command,
        "key": key,
        "run": run,
        "wall_s": round(wall),
        "where": f"{how} of {commit or _commit()}, {machine_state(load)}",
    } | (extra or {})
    doc["runs"] = [r for r in doc.get("runs", []) if r.get("key") != key] + [entry]
    RECORD.write_text(json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"recorded {key}: {entry['wall_s']} s in {RECORD.relative_to(ROOT)}")


#: The ``Job stats:`` table Snakemake prints before running (rule, count; up to its total line).
JOB_STATS = re.compile(r"^Job stats:\njob +count\n[- ]+\n(.*?)^total +\d+$", re.MULTILINE | re.DOTALL)


def job_counts(log: str) -> dict[str, int]:
    """Jobs per rule of a Snakemake run, from the first ``Job stats:`` table of its log (the rules' ``message:``
    replaces the ``rule <name>:`` lines, so the jobs are not counted one by one); empty if there is none."""
    m = JOB_STATS.search(log)
    rows = (line.split() for line in m.group(1).splitlines()) if m else ()
    return {r[0]: int(r[1]) for r in rows if len(r) == 2 and r[1].isdigit()}


#: The verdicts a claim can have (privtest_artifact.outputs), in the order the records list them.
VERDICTS = ("PASS", "FAIL", "INCONCLUSIVE", "VACUOUS", "ERRATUM")


def verdict_counts(claims: pd.DataFrame) -> dict[str, int]:
    """Claims per verdict (every verdict of :data:`VERDICTS`, zeros included, then any other verdict seen)."""
    seen = claims["verdict"].value_counts().to_dict()
    counts = {v: int(seen.pop(v, 0)) for v in VERDICTS}
    return counts | {str(v): int(n) for v, n in sorted(seen.items())}


def resolved(default: pd.DataFrame, long: pd.DataFrame) -> dict[str, int]:
    """What became of the default run's INCONCLUSIVE claims in the long run, matched by claim_id: ``pass``,
    ``inconclusive``, ``other`` (another verdict) and ``missing`` (no claim of that id in the long run)."""
    after = dict(zip(long["claim_id"], long["verdict"], strict=True))
    out = {"pass": 0, "inconclusive": 0, "other": 0, "missing": 0}
    for cid in default.loc[default["verdict"] == "INCONCLUSIVE", "claim_id"]:
        v = after.get(cid)
        out[
            "missing" if v is None else "pass" if v == "PASS" else "inconclusive" if v == "INCONCLUSIVE" else "other"
        ] += 1
    return out


def long_run(built: Path, cores: str, save: bool, configfile: str = "config/long.yaml") -> None:
    """Time ``configfile`` (``config/long.yaml``, ``config/scale.yaml``) in a copy of the built default-run checkout
    ``built`` (see the module docstring); recorded under the file's stem."""
    key = Path(configfile).stem
    built = built.resolve()
    default_claims = built / "figures" / "claims.csv"
    if not default_claims.is_file():
        raise SystemExit(f"--long: {default_claims} does not exist; build the default run there first")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=built, capture_output=True, text=True)
    commit = commit.stdout.strip() or "an unknown commit"
    with tempfile.TemporaryDirectory(prefix="privtest-long-") as tmp:
        repo = Path(tmp) / "repo"
        # cp -a keeps mtimes (copytree's copy2 does too, but not for directories) and the symlinks.
        repo.mkdir()
        entries = [str(p) for p in built.iterdir() if p.name != ".venv"]
        subprocess.run(["cp", "-a", *entries, str(repo)], check=True)
        env = os.environ | {"PYTHONPATH": os.pathsep.join([str(repo / "src"), os.environ.get("PYTHONPATH", "")])}
        cmd = [sys.executable, "-m", "snakemake", "--cores", cores, "--configfile", configfile]
        load = os.getloadavg()[0]
        start, before, start_epoch = time.perf_counter(), children_cpu(), time.time()
        log = Path(tmp) / "snakemake.log"  # followed with tail -f while it runs
        print(f"running {' '.join(cmd)} in {repo} (log: {log})", flush=True)
        with log.open("w") as out:
            proc = subprocess.run(cmd, cwd=repo, stdout=out, stderr=subprocess.STDOUT, env=env)
        wall, cpu = time.perf_counter() - start, children_cpu() - before
        text = log.read_text()
        if proc.returncode != 0:
            print(f"{' '.join(cmd)} failed:\n{text[-20000:]}", file=sys.stderr)
            raise subprocess.CalledProcessError(proc.returncode, cmd)
        jobs = job_counts(text)
        longest = job_seconds(repo / "results" / "benchmarks", since=start_epoch)[:3]
        before = pd.read_csv(default_claims)
        after = pd.read_csv(repo / "figures" / "claims.csv")
        state = machine_state(load)
        long = {
            "commit": commit,
            "cores": int(cores) if cores.isdigit() else cores,
            "cpu_s": round(cpu),
            "inconclusive_after": resolved(before, after),
            "jobs": dict(sorted(jobs.items())),
            "load_start": round(load, 1),
            "longest_jobs": longest,
            "machine": state,
            "verdicts_default": verdict_counts(before),
            "verdicts_long": verdict_counts(after),
        }
    print(f"wall time: {wall:.1f} s with --cores {cores} ({state})")
    print(json.dumps(long, indent=2))
    if save:
        shown = f"snakemake --cores {cores} --configfile {configfile}"
        record(
            key,
            f"{configfile} on top of a built default run (copy of its checkout, results kept)",
            shown,
            wall,
            "copy of a built default-run checkout",
            load,
            commit=commit,
            extra={"long": long},
        )


def job_seconds(bench: Path, since: float = 0.0) -> list[dict]:
    """The wall seconds of every job whose Snakemake ``benchmark:`` file under ``bench`` (``<rule>/<id>.tsv``, its
    last row) was written at or after ``since`` (epoch seconds; in a long run's copy, older files are the built
    default run's): a list of ``{"rule", "id", "s"}``, longest first."""
    rows = []
    for f in bench.glob("*/*.tsv"):
        if f.stat().st_mtime >= since:
            s = float(pd.read_csv(f, sep="\t")["s"].iloc[-1])
            rows.append({"rule": f.parent.name, "id": f.stem, "s": round(s, 1)})
    return sorted(rows, key=lambda r: -r["s"])


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Wall time in seconds of ``cmd`` in ``cwd`` and the load average before it (raises CalledProcessError if it
    fails, after printing the tail of its output: the scratch copy is deleted)."""
    load = os.getloadavg()
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"{' '.join(cmd)} failed:\n{proc.stdout[-20000:]}\n{proc.stderr[-5000:]}", file=sys.stderr)
        raise subprocess.CalledProcessError(proc.returncode, cmd)
    wall = time.perf_counter() - start
    print(f"{' '.join(cmd)}: {wall:.0f} s (load average before {load[0]:.1f}, after {os.getloadavg()[0]:.1f})")
    return wall, load[0]


def make_test(save: bool = False, slurm: bool = False) -> None:
    """``make install`` then ``make test`` from a fresh clone, then the quick workflow in that clone; prints the
    three and the ratio of ``make test`` with its virtual environment (install + test) to the quick workflow, and with
    ``save`` records ``install``, ``test`` (install + test: what ``make test`` costs on a fresh clone, where it
    creates ``.venv`` first) and ``quick``. With ``slurm``, then the SLURM test of ``.ci/run`` in the same clone
    (module docstring), recorded as ``slurm``."""
    with tempfile.TemporaryDirectory(prefix="privtest-bench-") as tmp:
        repo = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(repo)], check=True)
        install, load_install = _timed(["make", "install"], repo)
        test, load_test = _timed(["make", "test"], repo)
        quick_cmd = [".venv/bin/snakemake", "--cores", "all", "--configfile", "config/quick.yaml"]
        quick, load_quick = _timed(quick_cmd, repo)
        print(f"make test with its .venv: {install + test:.0f} s; / quick workflow: {(install + test) / quick:.1f}")
        if save:
            commit = _commit()
            record(
                "install",
                "create .venv from requirements.lock (fresh clone)",
                "make install",
                install,
                "fresh clone",
                load_install,
                commit,
            )
            record(
                "test",
                f"make test in a fresh clone, make install included ({install:.0f} s, then make test {test:.0f} s)",
                "make test",
                install + test,
                "fresh clone",
                load_install,
                commit,
            )
            record(
                "quick",
                "quick workflow (same clone, after make test)",
                " ".join(quick_cmd),
                quick,
                "fresh clone",
                load_quick,
                commit,
            )

        if slurm:  # as .ci/run runs it, after make test (the times above are recorded first)
            cluster = "workflow/scripts/slurm_local_cluster.sh"
            slurm_cmd = [".venv/bin/python", "-m", "pytest", "-m", "slurm", "tests/test_slurm.py"]
            try:
                _timed([cluster, "start"], repo)
                slurm_wall, load_slurm = _timed(["timeout", "-k", "60", "2400", *slurm_cmd], repo)
            finally:
                subprocess.run([cluster, "stop"], cwd=repo, check=False)
            if save:
                record(
                    "slurm",
                    "quick workflow through the SLURM profile on the single-node test cluster",
                    " ".join(slurm_cmd),
                    slurm_wall,
                    "fresh clone (after make test)",
                    load_slurm,
                    _commit(),
                )


if __name__ == "__main__":
    main()
