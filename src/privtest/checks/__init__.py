"""Claim checks, one module per output of the catalogue: ``privtest.checks.<id>.claims(raw, cfg) -> list[Claim]``
turns the raw results of ``privtest.experiments.<id>.simulate`` (``results/raw/<id>.csv``, read back with
``pandas.read_csv``) and the output's config section into verdicts on the paper's statements; the writer
(:func:`privtest.claims.to_frame`) stamps the output id. Shared claim builders: :mod:`privtest.checks._common`
(single-step and whole-run error rates) and :mod:`privtest.checks._co` (continual observation).

Nothing here is imported by a notebook or by a simulation: editing a check reruns only that output's check.
"""
