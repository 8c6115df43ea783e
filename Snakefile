# privtest: reproduction of "Near-Optimal Generalized Private Testing" (Chaturvedi, Henzinger, Upadhyay).
# `snakemake --cores all` builds every output of the catalogue (config/catalogue.yaml) with its claims.


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/analyse.smk"
include: "workflow/rules/check.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/docs.smk"


rule all:
    default_target: True
    input:
        catalogue_outputs(),
        "figures/claims.md",
        "figures/claims.csv",
        "figures/benchmarks.md",
        docs_targets(),


# A requested target no rule builds is refused here with the valid targets listed (Snakemake's own message names
# none of them): configuration.unknown_targets.
UNKNOWN_TARGETS = configuration.unknown_targets(
    configuration.requested_targets(sys.argv),
    CATALOGUE,
    workflow.basedir,
    rules=[r.name for r in workflow.rules],
    produced=lambda f: any(r.is_producer(f) for r in workflow.rules),
)
if UNKNOWN_TARGETS:
    raise WorkflowError(UNKNOWN_TARGETS)
