"""privtest_artifact.stats: the standard error of a mean against hand-computed values."""

import math

import pytest

from privtest_artifact.stats import standard_error, standard_error_from_sd


def test_standard_error_by_hand():
    # values 1, 2, 3, 4: mean 2.5, sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3
    assert standard_error([1.0, 2.0, 3.0, 4.0]) == pytest.approx(math.sqrt(5 / 3) / 2, rel=1e-15)


def test_standard_error_skips_nan_and_is_zero_for_one_value():
    assert standard_error([1.0, float("nan"), 3.0]) == pytest.approx(math.sqrt(2) / math.sqrt(2), rel=1e-15)
    assert standard_error([7.0]) == 0.0
    assert standard_error([]) == 0.0


def test_standard_error_from_sd():
    assert standard_error_from_sd(3.0, 9) == 1.0
    assert math.isnan(standard_error_from_sd(float("nan"), 4))
    with pytest.raises(ValueError, match="n must be >= 1"):
        standard_error_from_sd(1.0, 0)
    with pytest.raises(ValueError, match="sd must be >= 0"):
        standard_error_from_sd(-1.0, 3)
