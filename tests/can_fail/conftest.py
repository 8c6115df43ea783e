"""Shared helpers of the can-fail tests: every output's check is fed small synthetic tables in its raw
schema that plainly contradict the paper (``test_fail_*``: the relevant claims must be FAIL or ERRATUM) and tables at
the bound's safe side (``test_safe_*``: no FAIL). ``tests/test_checks_can_fail.py`` requires such a module,
``tests/can_fail/test_can_fail_<id>.py``, for every output of ``config/catalogue.yaml``.

The helpers are fixtures (no ``import conftest``: ``tests/conftest.py`` owns that module name):

- ``output_cfg(id, configfile="config/quick.yaml", **override)``: the output's resolved config section, as the
  workflow passes it to the check (config/config.yaml, then the config file on top, then ``override`` on the output's
  section; validated, inherited keys resolved, the catalogue's extra keys merged in).
- ``run_check(id, raw, cfg)``: the analyse and check rules' path (``privtest_artifact.outputs.<id>.analyse``, the
  tables written and read back by :func:`privtest_artifact.io.write_analysis` and
  :func:`~privtest_artifact.io.read_analysis`, then ``privtest_artifact.outputs.<id>.claims`` and
  :func:`privtest_artifact.claims.to_frame` at the output's family-wise level) -> the claims DataFrame
  (:data:`privtest_artifact.claims.COLUMNS`).
- ``verdicts(frame, prefix="")``: claim_id -> verdict of the rows whose claim_id starts with ``prefix``; raises
  AssertionError if there is none (a test must not pass on an empty selection).

Everything is deterministic and fast (no simulation), and safe under pytest-xdist (no shared files).
"""

from __future__ import annotations

import copy
import functools
import importlib
import sys
import tempfile
from pathlib import Path

import pandas as pd
import pytest
import yaml

from privtest_artifact.claims import family_alpha, to_frame
from privtest_artifact.io import read_analysis, write_analysis

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "workflow/lib"))
from privtest_workflow import catalogue as _catalogue  # noqa: E402
from privtest_workflow import configuration as _configuration  # noqa: E402

#: Verdicts that refute the paper's statement.
REFUTED = {"FAIL", "ERRATUM"}


@functools.cache
def _catalogue_outputs() -> dict:
    return _catalogue.load(ROOT)


def _deep_update(base: dict, new: dict) -> None:
    """Snakemake's merge of a config file into the config (snakemake.utils.update_config): nested dicts merged."""
    for key, value in new.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _deep_update(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


@functools.cache
def _resolved(configfile: str) -> dict:
    config: dict = {}
    _deep_update(config, yaml.safe_load((ROOT / "config/config.yaml").read_text()))
    if configfile != "config/config.yaml":
        _deep_update(config, yaml.safe_load((ROOT / configfile).read_text()))
    return config


def load_output_cfg(output_id: str, configfile: str = "config/quick.yaml", **override) -> dict:
    """The output's config section as the check rule receives it (see the module docstring)."""
    config = copy.deepcopy(_resolved(configfile))
    if override:
        _deep_update(config, {output_id: override})
    cat = _catalogue_outputs()
    return cat[output_id].cfg(_configuration.load(config, cat, ROOT))


def check_frame(output_id: str, raw: pd.DataFrame, cfg: dict) -> pd.DataFrame:
    """What workflow/scripts/check.py writes for ``raw`` (the raw table read back: columns as in the CSV): the claims
    on the output's analysis tables as workflow/scripts/analyse.py writes them and the check reads them back."""
    module = importlib.import_module(f"privtest_artifact.outputs.{output_id}")
    with tempfile.TemporaryDirectory(prefix="privtest-analysis-") as tmp:
        write_analysis(module.analyse(raw, dict(cfg)), Path(tmp) / output_id)
        tables = read_analysis(Path(tmp) / output_id)
    claims = module.claims(tables, dict(cfg))
    return to_frame(claims, output_id, alpha=family_alpha(len(_catalogue_outputs())))


def select_verdicts(frame: pd.DataFrame, prefix: str = "") -> dict[str, str]:
    sel = frame[frame.claim_id.str.startswith(prefix)]
    assert len(sel), f"no claim starts with {prefix!r}; claims: {list(frame.claim_id)}"
    return dict(zip(sel.claim_id, sel.verdict, strict=True))


@pytest.fixture(scope="session")
def output_cfg():
    return load_output_cfg


@pytest.fixture(scope="session")
def run_check():
    return check_frame


@pytest.fixture(scope="session")
def verdicts():
    return select_verdicts
