# The claims file: every experiment's checks in one table (PASS / FAIL / INCONCLUSIVE per claim).


rule claims:
    input:
        expand("results/claims/{exp}.csv", exp=CATALOGUE),
    output:
        csv=report("figures/claims.csv", category="Claims", labels={"output": "claims"}),
        md="figures/claims.md",
    log:
        "results/logs/claims.log",
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/collect_claims.py"


rule benchmarks:
    input:
        catalogue_outputs(),
    output:
        "figures/benchmarks.md",
    log:
        "results/logs/benchmarks.log",
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/summarize_benchmarks.py"
