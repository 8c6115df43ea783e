"""The README's "Using the library" section is executed as a doctest: if the README snippet and the library diverge,
this test fails. The section stays within 28 lines."""

import doctest
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _section() -> str:
    text = README.read_text()
    start = text.index("## Using the library")
    end = text.index("\n## ", start + 1)
    return text[start:end]


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_usage_section_runs_as_a_doctest():
    section = _section()
    assert len(section.strip().splitlines()) <= 28
    code = "\n".join("" if line.startswith("```") else line for line in section.splitlines())  # fences end examples
    test = doctest.DocTestParser().get_doctest(code, {}, "README.md#using-the-library", str(README), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)
