# Configuration, validation, the output catalogue and shared helpers. Loaded before any other rules file.
import glob
import json
import sys
from pathlib import Path

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "../schemas/config.schema.yaml")

# The catalogue (file names are a contract; see README). Each figure <id> has a simulation module
# privtest.experiments.<id>, a notebook notebooks/<id>.ipynb and a config section <id>:.
FIGURES = [
    "fig_oc",
    "fig_error_rates",
    "fig_sample_complexity",
    "fig_amortized_samples",
    "fig_expost",
    "fig_purification",
    "fig_hpo",
    "fig_rejection_threshold",
    "fig_noise_penalty",
    "fig_lower_bounds",
    "fig_random_dropping",
    "fig_privacy_exact",
    "fig_privacy_audit",
    "fig_calibration",
    "fig_co_densest",
    "fig_co_checkpoints",
    "fig_co_maxcut",
    "fig_co_submodular",
    "fig_co_dks",
]
# Tables: same pattern, but the notebook writes .tex/.md/.csv instead of .pdf/.png/data .csv.
TABLES = [
    "table1",
    "table2",
    "table3",
]
CATALOGUE = FIGURES + TABLES

# Library code every simulation and claim check depends on (Snakemake's code trigger does not follow imports).
# Experiment modules are excluded here: each job depends on its own module only.
LIBRARY = sorted(
    p
    for p in glob.glob("src/privtest/**/*.py", recursive=True)
    if "experiments" not in Path(p).parts or Path(p).name == "_checks.py"
)

# Report categories: the part of the paper each output tests (snakemake --report).
SECTIONS = {
    "fig_hpo": "1.5 Application: hyperparameter search",
    "table1": "6, 9 Comparison and lower bounds",
    "fig_rejection_threshold": "6, 9 Comparison and lower bounds",
    "fig_noise_penalty": "6, 9 Comparison and lower bounds",
    "fig_lower_bounds": "6, 9 Comparison and lower bounds",
    "fig_random_dropping": "6, 9 Comparison and lower bounds",
    "fig_privacy_exact": "3 Privacy: exact verification and audits",
    "fig_privacy_audit": "3 Privacy: exact verification and audits",
    "fig_calibration": "4 Accuracy: exact calibration",
}


def section(wildcards):
    out = wildcards.get("fig", wildcards.get("tab", ""))
    if out in SECTIONS:
        return SECTIONS[out]
    return (
        "7-8 Continual observation"
        if "co" in out.split("_") or out in ("table2", "table3")
        else "3-5 The GTM"
    )


def caption(wildcards):
    """The notebook's title cell: the caption lives in one place, next to the plotting code."""
    out = wildcards.get("fig", wildcards.get("tab"))
    cells = json.loads(Path(f"notebooks/{out}.ipynb").read_text())["cells"]
    return "".join(cells[0]["source"]).replace("# ", "", 1) if cells else out


PYTHON = sys.executable
ENV = "../envs/privtest.yaml"


def figure_outputs(fig):
    return [f"figures/{fig}.pdf", f"figures/{fig}.png", f"figures/data/{fig}.csv"]


def table_outputs(tab):
    return [f"figures/{tab}.tex", f"figures/{tab}.md", f"figures/{tab}.csv"]


def catalogue_outputs():
    out = []
    for fig in FIGURES:
        out += figure_outputs(fig)
    for tab in TABLES:
        out += table_outputs(tab)
    return out


wildcard_constraints:
    fig="|".join(FIGURES) or "NONE",
    tab="|".join(TABLES) or "NONE",
    exp="|".join(CATALOGUE),
