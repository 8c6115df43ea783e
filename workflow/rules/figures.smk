# Figures and tables: papermill runs notebooks/<id>.ipynb on results/raw/<id>.csv. The executed copy goes to
# results/notebooks/, the claims it checks to results/claims/<id>.csv. Re-plotting never reruns a simulation.


rule figure:
    input:
        notebook="notebooks/{fig}.ipynb",
        raw="results/raw/{fig}.csv",
        module="src/privtest/experiments/{fig}.py",
        library=LIBRARY,
    output:
        pdf="figures/{fig}.pdf",
        png=report(
            "figures/{fig}.png",
            caption="../report/output.rst",
            category=section,
            labels={"output": "{fig}"},
        ),
        data="figures/data/{fig}.csv",
        claims="results/claims/{fig}.csv",
        executed="results/notebooks/{fig}.ipynb",
        provenance="figures/{fig}.provenance.json",
    log:
        "results/logs/figures/{fig}.log",
    benchmark:
        "results/benchmarks/figure/{fig}.tsv"
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        cfg=lambda wc: config[wc.fig],
        caption=caption,
        seed=config["seed"],
        benchmark="results/benchmarks/simulate/{fig}.tsv",
    script:
        "../scripts/run_notebook.py"


rule table:
    input:
        notebook="notebooks/{tab}.ipynb",
        raw="results/raw/{tab}.csv",
        module="src/privtest/experiments/{tab}.py",
        library=LIBRARY,
    output:
        tex="figures/{tab}.tex",
        md="figures/{tab}.md",
        csv=report(
            "figures/{tab}.csv",
            caption="../report/output.rst",
            category=section,
            labels={"output": "{tab}"},
        ),
        claims="results/claims/{tab}.csv",
        executed="results/notebooks/{tab}.ipynb",
        provenance="figures/{tab}.provenance.json",
    log:
        "results/logs/tables/{tab}.log",
    benchmark:
        "results/benchmarks/table/{tab}.tsv"
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        cfg=lambda wc: config[wc.tab],
        caption=caption,
        seed=config["seed"],
        benchmark="results/benchmarks/simulate/{tab}.tsv",
    script:
        "../scripts/run_notebook.py"
