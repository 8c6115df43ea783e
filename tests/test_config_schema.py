"""workflow/schemas/config.schema.yaml: the shipped configs validate, and misspelled or unknown keys are rejected.

Validation goes through snakemake.utils.validate (what workflow/rules/common.smk calls) on configs merged the way
Snakemake merges `--configfile` files (snakemake.utils.update_config into an empty config), without running Snakemake.
"""

from pathlib import Path

import pytest
import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import update_config, validate

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "workflow/schemas/config.schema.yaml")
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
QUICK = yaml.safe_load((ROOT / "config/quick.yaml").read_text())


def merged(*overrides: dict) -> dict:
    """config.yaml, then each override, merged like `snakemake --configfile config/config.yaml a.yaml b.yaml`."""
    config: dict = {}
    for doc in (CONFIG, *overrides):
        update_config(config, doc)  # copies nested dicts, so YAML aliases (table2's *co) are not shared
    return config


def rejection(config: dict) -> str:
    """The validation error message (the test fails if the config is accepted)."""
    with pytest.raises(WorkflowError) as info:
        validate(config, SCHEMA)
    return str(info.value)


def test_schema_is_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    schema = yaml.safe_load(Path(SCHEMA).read_text())
    assert schema["$schema"] == Draft202012Validator.META_SCHEMA["$schema"]  # the draft snakemake.utils.validate uses
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("overrides", [(), (QUICK,)], ids=["config.yaml", "config.yaml+quick.yaml"])
def test_shipped_configs_validate(overrides):
    validate(merged(*overrides), SCHEMA)


@pytest.mark.parametrize("section", [k for k, v in CONFIG.items() if isinstance(v, dict)])
def test_unknown_key_in_any_section_is_rejected(section):
    message = rejection(merged(QUICK, {section: {"runz": 100}}))
    assert "'runz' was unexpected" in message, message[:2000]
    assert f"['{section}']" in message, message[:2000]


@pytest.mark.parametrize(
    "override, key",
    [
        ({"fig_oc": {"runz": 100}}, "runz"),  # typo of runs (GTM section: allOf with $defs/gtm)
        ({"fig_co_maxcut": {"runz": 100}}, "runz"),  # CO section: allOf with $defs/co
        ({"fig_co_checkpoints": {"kapa": 0.5}}, "kapa"),  # only the co anchor's keys
        ({"fig_expost": {"mc_T": [1]}}, "mc_T"),  # no composition: additionalProperties
        ({"table2": {"maxcut": {"C_Beta": 0.3}}}, "C_Beta"),
        ({"table2": {"dense": {}}}, "dense"),
        ({"fig_hpo": {"adaptive": {"stop": 0.4}}}, "stop"),
        ({"fig_oc": {"cases": [{"pstar": 0.2, "varient": "direct"}]}}, "varient"),
        ({"fig_co_submodular": {"matroid": {"groups": 3, "caps": 2}}}, "caps"),
    ],
)
def test_misspelled_key_is_named(override, key):
    message = rejection(merged(override))
    assert f"'{key}' was unexpected" in message, message[:2000]


def test_unknown_top_level_section_is_rejected():
    message = rejection(merged({"fig_ocs": {"runs": 100}}))
    assert "'fig_ocs' was unexpected" in message, message[:2000]


def test_renamed_key_in_a_full_config_is_named():
    # editing config.yaml itself: the misspelled key replaces the right one, which is then missing as well
    config = merged()
    config["fig_ocs"] = config.pop("fig_oc")
    assert "'fig_ocs' was unexpected" in rejection(config)
    config = merged()
    config["fig_expost"]["runz"] = config["fig_expost"].pop("runs")
    assert "'runz' was unexpected" in rejection(config)
    config = merged()
    config["fig_oc"]["runz"] = config["fig_oc"].pop("runs")  # allOf section: the missing key is reported first
    message = rejection(config)
    assert "'runs' is a required property" in message and "On instance['fig_oc']" in message, message[:2000]


def test_bad_value_is_reported_before_unknown_keys():
    # a failing allOf branch hides its keys from unevaluatedProperties; the value error must still come first
    message = rejection(merged({"fig_oc": {"beta": 1.5}}))
    assert "On instance['fig_oc']['beta']" in message, message[:2000]


@pytest.mark.parametrize("section", ["co", "fig_co_maxcut", "fig_co_checkpoints", "table3"])
def test_co_constants_are_range_checked_in_every_co_section(section):
    message = rejection(merged({section: {"C_beta": 0.5}}))
    assert f"On instance['{section}']['C_beta']" in message, message[:2000]


def test_matroid_may_be_null():
    validate(merged({"fig_co_submodular": {"matroid": None}}), SCHEMA)
