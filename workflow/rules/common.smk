# Configuration, validation, the output catalogue and shared helpers. Loaded before any other rules file.
import glob
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
]
# Tables: same pattern, but the notebook writes .tex/.md/.csv instead of .pdf/.png/data .csv.
TABLES = [
    "table1",
]
CATALOGUE = FIGURES + TABLES

# Library code every simulation and claim check depends on (Snakemake's code trigger does not follow imports).
# Experiment modules are excluded here: each job depends on its own module only.
LIBRARY = sorted(
    p
    for p in glob.glob("src/privtest/**/*.py", recursive=True)
    if "experiments" not in Path(p).parts or Path(p).name == "_checks.py"
)

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
