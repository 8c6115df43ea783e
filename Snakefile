# privtest: reproduction of "Near-Optimal Generalized Private Testing" (Chaturvedi, Henzinger, Upadhyay).
# `snakemake --cores all` builds every table, figure and claim of the catalogue in config/config.yaml.


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/claims.smk"
include: "workflow/rules/co.smk"


rule all:
    default_target: True
    input:
        catalogue_outputs(),
        "figures/claims.md",
        "figures/claims.csv",
        "figures/benchmarks.md",
