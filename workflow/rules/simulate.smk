# Simulations: module.simulate(cfg, rng, inputs) -> results/raw/<id>.csv, for every output of the catalogue, with
# module = privtest_artifact.outputs.<id> and inputs = the data inputs its catalogue entry declares (other outputs' raw
# tables, data wheels, OPT references). Expensive and cached; the check and notebook rules only read these files.


rule simulate:
    input:
        unpack(data_inputs),
        library=library("simulate.py", "simulate"),
    output:
        # update(): Snakemake neither deletes the previous raw table before the job nor after a failure (it restores
        # it); the script replaces it atomically (privtest_artifact.io) only once the new table is complete.
        raw=update(catalogue.RAW.format("{id}")),
        # the commit and SHA-256 of every file the job executed; the notebook job copies it into its sidecar
        provenance=catalogue.RAW_PROVENANCE.format("{id}"),
    log:
        "results/logs/simulate/{id}.log",
    benchmark:
        "results/benchmarks/simulate/{id}.tsv"
    wildcard_constraints:
        id="|".join(o.id for o in CATALOGUE.values() if o.simulates),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        # without the analysis keys (x-stage: analysis): changing one reruns no simulation
        cfg=simulation_cfg,
        module=lambda wc: catalogue.OUTPUT_MODULE.format(wc.id),
        code=stage_code("simulate"),
        seed=config["seed"],
    message:
        "simulate {wildcards.id} -> {output.raw}"
    script:
        "../scripts/simulate.py"
