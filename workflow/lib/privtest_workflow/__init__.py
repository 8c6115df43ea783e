"""Workflow-side helpers of privtest (not part of the library): the output catalogue (``config/catalogue.yaml``) and
the code files each job depends on, derived from its imports. Imported by ``workflow/rules/common.smk`` and the
tests.
"""
