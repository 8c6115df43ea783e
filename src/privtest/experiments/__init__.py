"""One module per output of the catalogue (``figures/<id>.*``): ``simulate(cfg, rng) -> DataFrame`` produces the
raw results (``results/raw/<id>.csv``) and ``claims(raw, cfg) -> list[Claim]`` checks the paper's statements on
them. Notebooks only read the raw results, call ``claims``, and plot.
"""
