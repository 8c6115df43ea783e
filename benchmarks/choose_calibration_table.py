"""Print the Markdown table of :func:`privtest.calibration.choose_calibration` that docs/library.md shows (its
generated block ``choose_calibration``, rendered by the workflow's docs rule: ``privtest_artifact.docs``).

Usage: python benchmarks/choose_calibration_table.py
"""

from privtest_artifact.docs import calibration_choice_table

if __name__ == "__main__":
    print(calibration_choice_table())
