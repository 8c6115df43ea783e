# Configuration, validation, the output catalogue and the helpers the rules share. Loaded before any other rules file.
# The catalogue (config/catalogue.yaml) is the only list of outputs; the library files each job depends on are
# derived from its imports (workflow/lib/privtest_workflow/deps.py).
import functools
import hashlib
import os
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.logging import logger
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


sys.path.insert(0, str(Path(workflow.basedir, "workflow", "lib")))
from privtest_workflow import (
    captions,
    catalogue,
    configuration,
    deps,
    reporting,
)  # noqa: E402

# The answers of the dependency walk (below) and of the testers' check, kept between runs while no file they read
# changes (an edit there starts afresh), nor the workflow that asks (its rules, scripts, helpers and schemas).
SAVED = deps.SavedQueries(
    Path(".snakemake", "privtest", "deps.json"),
    tuple(
        Path(workflow.basedir, root)
        for root in ("src/privtest", "src/privtest_artifact", "notebooks", "workflow")
    ),
)
# Validated against workflow/schemas/catalogue.schema.yaml; then every output's config section and inputs must exist.
CATALOGUE = catalogue.load(workflow.basedir)
# The config the jobs see: finite numbers, shared sections (gtm, co) merged under the sections that inherit
# them, validated against workflow/schemas/config.schema.yaml, testers' own ranges checked, keys in canonical order.
# A fault stops Snakemake here, before any job, with one short line per fault naming the key path.
RESOLVED, FAULT = configuration.load_or_fault(
    config, CATALOGUE, workflow.basedir, SAVED.get
)
if FAULT:
    raise WorkflowError(f"Invalid configuration (config/README.md):\n{FAULT}")
config.clear()
config.update(RESOLVED)
catalogue.check_config(CATALOGUE, config)
LIBRARY = deps.ImportGraph("src", ("privtest", "privtest_artifact"))
# Per-output modules hold three stages run by three jobs: each job follows its own stage function's definitions
# (deps.StageCode), so editing a claim reruns the check, never the simulation.
STAGES = deps.StageCode(LIBRARY)
ENV = "../envs/privtest.yaml"
# Section -> its analysis keys, those that only judge or display (schema annotation x-stage: analysis): not passed to the simulation.
ANALYSIS_KEYS = configuration.load_analysis_keys(workflow.basedir)


def output_cfg(wildcards):
    """The output's config section plus the extra keys its catalogue entry merges in (the analysis, check and
    notebook params)."""
    return CATALOGUE[wildcards.id].cfg(config)


def simulation_cfg(wildcards):
    """The simulation's params: :func:`output_cfg` without the section's analysis keys (x-stage: analysis in
    workflow/schemas/config.schema.yaml), so that changing one reruns the analysis and what reads it, never the
    simulation."""
    return CATALOGUE[wildcards.id].cfg(config, drop=ANALYSIS_KEYS.get(wildcards.id, ()))


def data_inputs(wildcards):
    """Input name -> path of the simulation's data inputs (raw_<id>, wheel_<source>, opt_<stream>)."""
    return CATALOGUE[wildcards.id].data_inputs(config)


@functools.cache
def stage_of(oid, stage):
    """(files, code) of the stage function ``stage`` of output ``oid``'s module (deps.StageCode)."""
    return SAVED.get(
        f"stage {oid} {stage}",
        lambda: STAGES.of(catalogue.OUTPUT_MODULE.format(oid), stage),
    )


def stage_code(stage):
    """Param: SHA-256 of the code of the output's ``stage`` function and of the artifact definitions it uses
    (docstrings and comments left out), so that an edit of them reruns the job and an edit elsewhere in the module
    does not."""
    return lambda wildcards: hashlib.sha256(
        stage_of(wildcards.id, stage)[1].encode()
    ).hexdigest()


def library(script, stage=None, notebook=None):
    """Input function: the files a job executes: its Snakemake script itself, and the code files derived from
    imports (deps.py) of that script and of its output module's ``stage`` function (deps.StageCode: the library
    modules it reaches, whole) or of its notebook's code cells ({} = output id).

    The script is an input so that Snakemake compares its content (checksum) rather than its timestamp: the
    profiles turn off the `code` rerun trigger, which for `script:` rules only compares the script's mtime with
    the outputs', so a content-unchanged touch or checkout reruns nothing, while a real edit still does.
    """
    script = Path(workflow.basedir, "workflow", "scripts", script)
    own = str(script.relative_to(workflow.basedir))

    def files(wildcards):
        found = set(SAVED.get(f"script {own}", lambda: LIBRARY.of_script(script)))
        found.add(own)
        if stage is not None:
            found.update(stage_of(wildcards.id, stage)[0])
        if notebook is not None:
            path = notebook.format(wildcards.id)
            found.update(
                SAVED.get(f"notebook {path}", lambda: LIBRARY.of_notebook(path))
            )
        return sorted(found)

    return files


def simulation_provenance(wildcards):
    """The simulation's provenance record for the notebook's sidecar, if the output has a simulation."""
    if CATALOGUE[wildcards.id].simulates:
        return {"simulation": catalogue.RAW_PROVENANCE.format(wildcards.id)}
    return {}


def rendered_claims(wildcards):
    """The output's claims, for notebooks that render them (catalogue: renders_claims)."""
    if CATALOGUE[wildcards.id].renders_claims:
        return {"claims": catalogue.CLAIMS.format(wildcards.id)}
    return {}


def notebook_outputs(kind, extra=()):
    """Files of a notebook job of this kind (and extra data tables) by notebook parameter name, a table's HTML
    rendering (``html``, written after the notebook), and sidecars; the reported one (catalogue.REPORTED) in
    report()."""
    out = {
        name: pattern.format("{id}") for name, pattern in catalogue.FILES[kind].items()
    }
    if kind == "table":
        out["html"] = catalogue.HTML.format("{id}")
    reported = catalogue.REPORTED[kind]
    out[reported] = report(
        out[reported],
        caption="../report/output.rst",
        category=section,
        labels=row_labels,
    )
    out |= {f"data_{n}": catalogue.EXTRA_DATA.format("{id}", n) for n in extra}
    return out | {name: p.format("{id}") for name, p in catalogue.SIDECARS.items()}


# The paper sections in the catalogue's (paper) order: the order of the report's sections (privtest_workflow.reporting).
SECTIONS = catalogue.sections(workflow.basedir)


def section(wildcards):
    """Report category: the paper section the output tests (catalogue), lettered in paper order."""
    return reporting.category(CATALOGUE[wildcards.id].section, SECTIONS)


def row_labels(wildcards):
    """Report labels of an output's row: its place in the catalogue, its id and its verdict counts
    (reporting.row_labels), evaluated when the report is made, from the claims then on disk.
    """
    outputs = [(o.id, o.section) for o in CATALOGUE.values()]
    counts = {
        i: reporting.file_verdict_counts(catalogue.CLAIMS.format(i)) for i, _ in outputs
    }
    return reporting.row_labels(outputs, counts)[wildcards.id]


def caption(wildcards):
    """The notebook's title cell as reStructuredText (math as MathML) for the report: the caption lives in one place,
    next to the plotting code. A parameter whose text, in the report's parameter list, only names that source
    (captions.Caption); the report's caption template renders its ``.rst``."""
    return captions.caption(f"notebooks/{wildcards.id}.ipynb")


def ids(kind=None):
    """Output ids of the catalogue (of one kind), in catalogue order."""
    return [o.id for o in CATALOGUE.values() if kind in (None, o.kind)]


def catalogue_outputs():
    """Every file of every output: the targets of rule all."""
    return [f for o in CATALOGUE.values() for f in o.targets()]


wildcard_constraints:
    id="|".join(ids()),


# Generated documentation (docs.smk)
DOCS_ROOT = config["docs"]["root"]
# the documents with generated blocks (<!-- BEGIN generated:<name> --> ... <!-- END generated:<name> -->)
DOCUMENTS = [
    "README.md",
    "ARTIFACT-APPENDIX.md",
    "docs/findings.md",
    "docs/slurm.md",
    "docs/library.md",
]


def docs_path(path):
    """``path`` under the configured docs root."""
    return os.path.normpath(os.path.join(DOCS_ROOT, path))


def document_outputs():
    """The documents with generated blocks, under the docs root: rewritten in place (update: never deleted before
    the job, restored after a failure) when the root is the repository."""
    flag = update if os.path.normpath(DOCS_ROOT) == "." else (lambda f: f)
    return [flag(docs_path(d)) for d in DOCUMENTS]


def docs_targets():
    """Every file rule docs writes (a target of rule all)."""
    pages = [f"docs/results/{i}.md" for i in ids()]
    snapshots = [f"docs/results/{n}" for n in ("README.md", "claims.csv")]
    return [
        docs_path(p) for p in pages + snapshots + ["docs/paper_index.md"] + DOCUMENTS
    ]


def cancel_schedule_timers():
    """Cancel the threading.Timer threads left when the run ends (the Snakefile's onsuccess/onerror hooks)."""
    import threading

    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
