# Simulations: privtest.experiments.<exp>.simulate(config[<exp>], rng) -> results/raw/<exp>.csv.
# Expensive and cached; plotting rules only read these files.


rule simulate:
    input:
        module="src/privtest/experiments/{exp}.py",
        library=LIBRARY,
    output:
        raw="results/raw/{exp}.csv",
    log:
        "results/logs/simulate/{exp}.log",
    benchmark:
        "results/benchmarks/simulate/{exp}.tsv"
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        cfg=lambda wc: config[wc.exp],
        seed=config["seed"],
    script:
        "../scripts/simulate.py"
