# Analysis: module.analyse(raw, cfg) -> results/analysis/<id>/<name>.csv, with module = privtest_artifact.outputs.<id>,
# for every output: the summaries, differences, crossovers and measured thresholds its check, notebook and
# documentation read, computed once. Its params are the whole config section, analysis keys (those
# that only judge or display, x-stage: analysis) included; the simulation's are not, so changing such a key reruns
# this job and what reads it.


rule analyse:
    input:
        unpack(lambda wc: CATALOGUE[wc.id].analysis_inputs()),
        library=library("analyse.py", "analyse"),
    output:
        analysis=directory(catalogue.ANALYSIS.format("{id}")),
    log:
        "results/logs/analyse/{id}.log",
    benchmark:
        "results/benchmarks/analyse/{id}.tsv"
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=2000,
        runtime=15,
    params:
        cfg=output_cfg,
        module=lambda wc: catalogue.OUTPUT_MODULE.format(wc.id),
        code=stage_code("analyse"),
        # the raw tables the analysis reads as {name: DataFrame} (catalogue reads, and its own if it simulates);
        # empty: its own raw table alone, as a DataFrame
        reads=lambda wc: [
            n.removeprefix("raw_")
            for n in CATALOGUE[wc.id].analysis_inputs()
            if n != "raw"
        ],
    message:
        "analyse {wildcards.id} -> {output.analysis}/"
    script:
        "../scripts/analyse.py"
