"""One module per output of the catalogue (``figures/<id>.*``): ``simulate(cfg, rng, inputs) -> DataFrame`` produces
the raw results (``results/raw/<id>.csv``) from the output's config section, a numpy Generator and ``inputs`` (input
name -> file path: data wheels, OPT references, other outputs' raw tables; empty for most), plus the summaries and
plotting helpers its notebook uses (``summarize``). The paper's statements are checked on the raw results by
:mod:`privtest.checks` (one module per output), never here.
"""
