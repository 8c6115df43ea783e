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
    message:
        "all: every output of config/catalogue.yaml, its claims and documents are up to date"


# One output and everything that reports on it: `snakemake <id>` (docs/workflow.md, "Rebuild one output") rebuilds
# its files, its claims, the claims table (figures/claims.*) and its result page (with the other generated documents,
# whose counts include it). The result page and the claims table are written from every output, so a checkout without
# results builds the rest of the catalogue first.
for o in CATALOGUE.values():

    rule:
        name:
            o.id
        input:
            o.targets(),
            catalogue.CLAIMS.format(o.id),
            "figures/claims.csv",
            "figures/claims.md",
            docs_path(f"docs/results/{o.id}.md"),
        message:
            f"{o.id}: its files, claims and result page are up to date"


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
# A file of an output requested alone leaves its claims and result page as they were: say so, and name the target
# that rebuilds them all (configuration.partial_rebuilds).
for line in configuration.partial_rebuilds(
    configuration.requested_targets(sys.argv), CATALOGUE, workflow.basedir
):
    logger.warning(line)


# The default profile's job rate limit (profiles/default/config.yaml) has Snakemake re-evaluate the schedule on timer
# threads, each started when a job ends and renewed at every period of the limit; they are not daemons, so the
# finished process would wait for them before it exits. The run is over when these hooks run: the timers are cancelled.
onsuccess:
    cancel_schedule_timers()


onerror:
    cancel_schedule_timers()
