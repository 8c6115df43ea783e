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
        png="figures/{fig}.png",
        data="figures/data/{fig}.csv",
        claims="results/claims/{fig}.csv",
        executed="results/notebooks/{fig}.ipynb",
    log:
        "results/logs/figures/{fig}.log",
    conda:
        ENV
    params:
        cfg=lambda wc: config[wc.fig],
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
        csv="figures/{tab}.csv",
        claims="results/claims/{tab}.csv",
        executed="results/notebooks/{tab}.ipynb",
    log:
        "results/logs/tables/{tab}.log",
    conda:
        ENV
    params:
        cfg=lambda wc: config[wc.tab],
    script:
        "../scripts/run_notebook.py"
