# Analysis: module.analyse(raw, cfg) -> results/analysis/<id>/<name>.csv, with module = privtest.analysis.<id>, for
# every output that has an analysis module: the summaries, differences, crossovers and measured thresholds its check,
# notebook and documentation read, computed once. Its params are the whole config section, analysis keys (those
# that only judge or display, x-stage: analysis) included; the simulation's are not, so changing such a key reruns
# this job and what reads it.


rule analyse:
    input:
        raw=catalogue.RAW.format("{id}"),
        library=library("analyse.py", catalogue.ANALYSE_MODULE),
    output:
        analysis=directory(catalogue.ANALYSIS.format("{id}")),
    log:
        "results/logs/analyse/{id}.log",
    benchmark:
        "results/benchmarks/analyse/{id}.tsv"
    wildcard_constraints:
        id="|".join(i for i in ids() if analysed(i)),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        cfg=output_cfg,
        module=lambda wc: catalogue.ANALYSE_MODULE.format(wc.id),
    script:
        "../scripts/analyse.py"
