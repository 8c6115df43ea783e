"""Every output's check is shown able to fail: for each id of config/catalogue.yaml there is a module
tests/can_fail/test_can_fail_<id>.py with at least one ``test_fail_*`` (synthetic data contradicting the paper: the
relevant claims are FAIL or ERRATUM) and one ``test_safe_*`` (data at the bound's safe side: no FAIL). Like the
layout tests, an output without them fails the suite; the tests themselves run with the rest of tests/."""

import ast
from pathlib import Path

import pytest
from privtest_workflow import catalogue

ROOT = Path(__file__).resolve().parents[1]
CAN_FAIL = ROOT / "tests/can_fail"
IDS = list(catalogue.load(ROOT))


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_every_catalogue_output_has_a_can_fail_module():
    missing = [i for i in IDS if not (CAN_FAIL / f"test_can_fail_{i}.py").is_file()]
    assert missing == [], f"outputs without tests/can_fail/test_can_fail_<id>.py: {missing}"


@pytest.mark.parametrize("output_id", IDS)
def test_can_fail_module_has_fail_and_safe_tests(output_id):
    path = CAN_FAIL / f"test_can_fail_{output_id}.py"
    assert path.is_file(), f"{output_id}: no {path.relative_to(ROOT)}"
    names = _test_functions(path)
    assert any(n.startswith("test_fail_") for n in names), f"{output_id}: no test_fail_* in {sorted(names)}"
    assert any(n.startswith("test_safe_") for n in names), f"{output_id}: no test_safe_* in {sorted(names)}"
    # the module feeds its own output's check
    assert f'"{output_id}"' in path.read_text(), f"{output_id}: the module never names its output id"


def test_no_module_for_an_output_outside_the_catalogue():
    stray = sorted(p.name for p in CAN_FAIL.glob("test_can_fail_*.py") if p.stem[len("test_can_fail_") :] not in IDS)
    assert stray == [], f"can-fail modules of no catalogue output: {stray}"
