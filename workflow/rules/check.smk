# Claims: each output's checks of the paper's statements on its analysis tables -> results/claims/<id>.csv (check),
# and every output's claims in one table, figures/claims.csv and figures/claims.md, with an HTML rendering of the
# latter for the report, figures/claims.html (claims). A check depends on its
# analysis tables and the code files its module imports, never on the raw results or a notebook.


rule check:
    input:
        analysis=catalogue.ANALYSIS.format("{id}"),
        library=library("check.py", "claims"),
    output:
        claims="results/claims/{id}.csv",
    log:
        "results/logs/check/{id}.log",
    benchmark:
        "results/benchmarks/check/{id}.tsv"
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        cfg=output_cfg,
        module=lambda wc: catalogue.OUTPUT_MODULE.format(wc.id),
        code=stage_code("claims"),
        # the error policy's Bonferroni split of the file's 5% over the outputs (privtest_artifact.claims.family_alpha)
        n_outputs=len(ids()),
    message:
        "check {wildcards.id} -> {output.claims}"
    script:
        "../scripts/check.py"


rule claims:
    input:
        claims=[catalogue.CLAIMS.format(i) for i in ids()],
        library=library("collect_claims.py"),
    output:
        csv="figures/claims.csv",
        md="figures/claims.md",
        # the report shows this HTML rendering of claims.md (written by the same job) in place
        html=report(
            "figures/claims.html",
            caption="../report/claims.rst",
            category=reporting.category(reporting.CLAIMS_SECTION, SECTIONS),
            labels=lambda wc: {
                "output": "claims",
                "claims": reporting.file_verdict_counts(
                    "figures/claims.csv", every=True
                ),
            },
        ),
    log:
        "results/logs/claims.log",
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        # output id -> the paper section it tests (catalogue), for the summary of figures/claims.md
        sections={i: CATALOGUE[i].section for i in ids()},
    message:
        "claims -> {output}"
    script:
        "../scripts/collect_claims.py"
