# The claims file: every experiment's checks in one table (PASS / FAIL / INCONCLUSIVE per claim).


rule claims:
    input:
        expand("results/claims/{exp}.csv", exp=CATALOGUE),
    output:
        csv="figures/claims.csv",
        md="figures/claims.md",
    log:
        "results/logs/claims.log",
    conda:
        ENV
    script:
        "../scripts/collect_claims.py"
