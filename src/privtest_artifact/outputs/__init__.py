"""One module per output of the catalogue (``config/catalogue.yaml``; the module ``<id>`` makes ``figures/<id>.*``),
packaged by feature: the three stages of an output live together, while the workflow runs them as three cached jobs.

* ``simulate(cfg, rng, inputs) -> DataFrame``: what was drawn (``results/raw/<id>.csv``), from the output's config
  section without its analysis keys (``x-stage: analysis`` in ``workflow/schemas/config.schema.yaml``), a numpy
  Generator seeded from the config seed and the output id, and ``inputs`` (input name -> file path: data wheels, OPT
  references, other outputs' raw tables; empty for most). Expensive and cached.
* ``analyse(raw, cfg) -> dict[name, DataFrame]``: every derived quantity, computed once
  (``results/analysis/<id>/<name>.csv``, :func:`privtest_artifact.io.write_analysis`).
* ``claims(tables, cfg) -> list[Claim]``: the paper's statements judged on the analysis tables alone
  (``results/claims/<id>.csv``); tests call ``claims(analyse(raw, cfg), cfg)``.

The notebook ``notebooks/<id>.ipynb`` plots the analysis tables. Shared helpers: :mod:`._co` (every
continual-observation output) and :mod:`._common` (single-step and whole-run error-rate claims).
"""
