"""privtest_artifact: what exists to reproduce the paper "Near-Optimal Generalized Private Testing" with the library
:mod:`privtest` (which imports nothing from here, and whose wheel does not contain this package).

* :mod:`privtest_artifact.outputs`: one module per output of the catalogue (``config/catalogue.yaml``), each with
  ``simulate(cfg, rng, inputs)``, ``analyse(raw, cfg)`` and ``claims(tables, cfg)``, run by the Snakemake workflow
  as three cached jobs;
* :mod:`~privtest_artifact.claims` (the claim records and the error policy), :mod:`~privtest_artifact.stats`,
  :mod:`~privtest_artifact.registry` (testers by name for the configuration), :mod:`~privtest_artifact.hpo`
  (Section 1.5's hyperparameter search), :mod:`~privtest_artifact.data` (the data wheels and their streams);
* the rendering: :mod:`~privtest_artifact.plotting`, :mod:`~privtest_artifact.tables`, :mod:`~privtest_artifact.docs`;
* the plumbing: :mod:`~privtest_artifact.io` (atomic writes, job seeds, analysis tables) and
  :mod:`~privtest_artifact.provenance`.

It runs from the repository's checkout (``src/`` is on the path: ``make install`` adds it to the virtual
environment, the workflow to every job's ``PYTHONPATH``); CONTRIBUTING.md says where a new output goes.
"""
