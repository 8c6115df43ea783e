# Figures and tables: papermill runs notebooks/<id>.ipynb on the output's analysis tables (results/analysis/<id>/,
# and its claims where the catalogue says renders_claims) and writes the output's files (by
# kind, catalogue.FILES: a figure's .pdf, .png and plotted data, a table's .tex, .md and .csv), the executed copy
# (results/notebooks/) and a provenance sidecar. One rule definition, instantiated once per kind of output (rules
# `figure` and `table`) because the two kinds write differently named files, and once more per set of extra data
# tables an output declares in the catalogue (`extra_data`, e.g. rule `figure_summary`). Re-plotting never reruns a
# simulation or a check; a notebook depends on the library files its code cells import.

for job, (kind, extra, job_ids) in catalogue.notebook_jobs(CATALOGUE).items():

    rule:
        name:
            job
        input:
            unpack(rendered_claims),
            unpack(simulation_provenance),
            notebook="notebooks/{id}.ipynb",
            analysis=catalogue.ANALYSIS.format("{id}"),
            library=library("run_notebook.py", notebook="notebooks/{}.ipynb"),
        output:
            **notebook_outputs(kind, extra),
        log:
            f"results/logs/{kind}s/{{id}}.log",
        benchmark:
            f"results/benchmarks/{kind}/{{id}}.tsv"
        wildcard_constraints:
            id="|".join(job_ids),
        conda:
            ENV
        threads: 1
        resources:
            mem_mb=2000,
            runtime=15,
        params:
            cfg=output_cfg,
            caption=caption,
            seed=config["seed"],
        message:
            "{rule} {wildcards.id}: notebooks/{wildcards.id}.ipynb -> figures/{wildcards.id}.*"
        script:
            "../scripts/run_notebook.py"


rule benchmarks:
    input:
        outputs=catalogue_outputs(),
        library=library("summarize_benchmarks.py"),
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
    message:
        "benchmarks -> {output}"
    script:
        "../scripts/summarize_benchmarks.py"
