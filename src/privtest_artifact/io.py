"""Small I/O helpers: atomic writes (an interrupted job never leaves a truncated file), job seeds, and the analysis
tables of an output (``results/analysis/<id>/<name>.csv``: :func:`write_analysis`, :func:`read_analysis`).

numpy, pandas and tqdm are imported by the functions that use them: the notebook jobs' driver
(workflow/scripts/run_notebook.py) only writes text, and importing pandas costs it ~0.4 s of CPU."""

from __future__ import annotations

import os
import sys
import tempfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

_PROGRESS = {"enabled": False}


def enable_progress(enabled: bool = True) -> None:
    """Show tqdm progress bars of long simulations (the workflow's simulate jobs turn this on; they go to the log)."""
    _PROGRESS["enabled"] = enabled


def progress(iterable, desc: str, total: int | None = None):
    """``tqdm`` over ``iterable`` on stderr when enabled by :func:`enable_progress`, else the iterable unchanged."""
    if not _PROGRESS["enabled"]:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, desc=desc, total=total, file=sys.stderr, mininterval=5.0, ascii=True)


def job_rng(seed: int, *identity: str | int) -> np.random.Generator:
    """Generator seeded from the config ``seed`` and the job's identity (e.g. the experiment id).

    ``SeedSequence([seed, crc32(identity)...])``: the same job gets the same stream on every run and any number of
    cores; different jobs get independent streams.
    """
    import numpy as np

    words = [int(seed)] + [zlib.crc32(str(part).encode()) for part in identity]
    return np.random.default_rng(np.random.SeedSequence(words))


def write_atomic(path: str | os.PathLike, write) -> None:
    """Call ``write(tmp_path)`` on a temporary file next to ``path``, then rename it onto ``path`` atomically.

    The file gets the usual permissions (0666 less the umask; mkstemp alone would leave 0600), and the temporary
    file is removed if ``write`` fails, so an interrupted job never leaves a truncated ``path``.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_csv_atomic(df: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write ``df`` to ``path`` atomically (float format stable across runs: %.10g)."""
    write_atomic(path, lambda tmp: df.to_csv(tmp, index=False, float_format="%.10g", lineterminator="\n"))


def write_text_atomic(text: str, path: str | os.PathLike) -> None:
    """Write ``text`` to ``path`` atomically."""
    write_atomic(path, lambda tmp: Path(tmp).write_text(text))


#: A table name: the file ``<name>.csv`` of the output's analysis directory.
SUFFIX = ".csv"


def write_analysis(tables: dict[str, pd.DataFrame], directory: str | os.PathLike) -> None:
    """Write each table to ``directory/<name>.csv`` atomically (:func:`write_csv_atomic`).

    Args:
        tables: table name -> DataFrame; names are non-empty identifiers (letters, digits, ``_``).
        directory: the output's analysis directory (created if missing).

    Raises:
        ValueError: if ``tables`` is empty, a name is not an identifier or a value is not a DataFrame.
    """
    import pandas as pd

    if not tables:
        raise ValueError("tables must name at least one table.")
    for name, frame in tables.items():
        if not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(f"tables: name {name!r} must be an identifier (the file <name>.csv).")
        if not isinstance(frame, pd.DataFrame):
            raise ValueError(f"tables[{name!r}] must be a pandas DataFrame, got {type(frame).__name__}.")
    Path(directory).mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        write_csv_atomic(frame, Path(directory) / f"{name}{SUFFIX}")


def read_analysis(directory: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """The tables :func:`write_analysis` left in ``directory``: name -> DataFrame (``pandas.read_csv``), sorted by name.

    Raises:
        FileNotFoundError: if ``directory`` does not exist (its analyse job has not run).
        ValueError: if ``directory`` holds no table.
    """
    import pandas as pd

    if not Path(directory).is_dir():
        raise FileNotFoundError(f"{directory}: no such analysis directory (the output's analyse job writes it).")
    paths = sorted(Path(directory).glob(f"*{SUFFIX}"))
    if not paths:
        raise ValueError(f"{directory}: no analysis table (<name>{SUFFIX}) found.")
    return {p.name[: -len(SUFFIX)]: pd.read_csv(p) for p in paths}
