# privtest: reproduction of "Near-Optimal Generalized Private Testing" (Chaturvedi, Henzinger, Upadhyay).
# `snakemake --cores all` builds every output of the catalogue (config/catalogue.yaml) with its claims.


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/check.smk"
include: "workflow/rules/figures.smk"


rule all:
    default_target: True
    input:
        catalogue_outputs(),
        "figures/claims.md",
        "figures/claims.csv",
        "figures/benchmarks.md",
