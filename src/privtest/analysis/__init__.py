"""The analysis stage, one module per output of the catalogue: ``privtest.analysis.<id>.analyse(raw, cfg)`` turns
the raw results of ``privtest.experiments.<id>.simulate`` (``results/raw/<id>.csv``: what was drawn) and the
output's config section into named results tables (summaries, differences, crossovers, quantiles, measured
thresholds: everything a check or a plot derives), computed once per output. The workflow's ``analyse`` rule writes
them to ``results/analysis/<id>/<name>.csv`` (:func:`write`); the check (``privtest.checks.<id>``), the notebook
and the generated documentation read them back with :func:`read` and compute nothing of their own.

The keys of a config section that only judge or display (tolerances, margins, confidence levels) are annotated
``x-stage: analysis`` in ``workflow/schemas/config.schema.yaml``: the simulation never receives them, so changing
one reruns the analysis and what reads it, never the simulation.

This ``__init__`` imports no output's module: a notebook that reads the tables (``from privtest.analysis import
read``) depends on this file only, not on the analysis code (whose edits reach it through the tables).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

#: A table name: the file ``<name>.csv`` of the output's analysis directory.
SUFFIX = ".csv"


def write(tables: dict[str, pd.DataFrame], directory: str | os.PathLike) -> None:
    """Write each table to ``directory/<name>.csv`` atomically (:func:`privtest.io.write_csv_atomic`).

    Args:
        tables: table name -> DataFrame; names are non-empty identifiers (letters, digits, ``_``).
        directory: the output's analysis directory (created if missing).

    Raises:
        ValueError: if ``tables`` is empty, a name is not an identifier or a value is not a DataFrame.
    """
    from privtest.io import write_csv_atomic

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


def read(directory: str | os.PathLike) -> dict[str, pd.DataFrame]:
    """The tables :func:`write` left in ``directory``: name -> DataFrame (``pandas.read_csv``), sorted by name.

    Raises:
        FileNotFoundError: if ``directory`` does not exist (its analyse job has not run).
        ValueError: if ``directory`` holds no table.
    """
    if not Path(directory).is_dir():
        raise FileNotFoundError(f"{directory}: no such analysis directory (the output's analyse job writes it).")
    paths = sorted(Path(directory).glob(f"*{SUFFIX}"))
    if not paths:
        raise ValueError(f"{directory}: no analysis table (<name>{SUFFIX}) found.")
    return {p.name[: -len(SUFFIX)]: pd.read_csv(p) for p in paths}
