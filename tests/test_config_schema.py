"""The configuration as the workflow loads it (workflow/lib/privtest_workflow/configuration.py, called by
workflow/rules/common.smk): the shipped configs validate; misspelled or unknown keys, non-finite numbers, floats for
integer keys, unknown testers and values a tester refuses are rejected with a short message naming the key path;
shared sections reach every section that inherits them; params are canonical.

Configs are merged the way Snakemake merges `--configfile` files (snakemake.utils.update_config), without running
Snakemake (tests/test_robustness.py runs it).
"""

import ast
import copy
import math
from pathlib import Path

import pytest
import yaml
from privtest_workflow import catalogue, configuration
from privtest_workflow.configuration import ConfigError, path_str
from snakemake.utils import update_config

from privtest_artifact.registry import FACTORIES

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = yaml.safe_load((ROOT / configuration.SCHEMA).read_text())
CONFIG = yaml.safe_load((ROOT / "config/config.yaml").read_text())
QUICK = yaml.safe_load((ROOT / "config/quick.yaml").read_text())
LONG = yaml.safe_load((ROOT / "config/long.yaml").read_text())
SCALE = yaml.safe_load((ROOT / "config/scale.yaml").read_text())
CAT = catalogue.load(ROOT)


def merged(*overrides: dict) -> dict:
    """config.yaml, then each override, merged like `snakemake --configfile config/config.yaml a.yaml b.yaml`."""
    config: dict = {}
    for doc in (CONFIG, *overrides):
        update_config(config, copy.deepcopy(doc))
    return config


def load(config: dict) -> dict:
    return configuration.load(config, CAT, ROOT)


def rejection(config: dict) -> str:
    """The message of the refusal (the test fails if the config is accepted); at most three lines."""
    with pytest.raises(ConfigError) as info:
        load(config)
    message = str(info.value)
    assert len(message.splitlines()) <= 3, message
    return message


def test_schema_is_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    assert SCHEMA["$schema"] == Draft202012Validator.META_SCHEMA["$schema"]
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.slow  # seconds: run by make test, not test-fast
@pytest.mark.parametrize(
    "overrides", [(), (QUICK,), (LONG,), (SCALE,)], ids=["config.yaml", "+quick.yaml", "+long.yaml", "+scale.yaml"]
)
def test_shipped_configs_validate(overrides):
    load(merged(*overrides))


@pytest.mark.parametrize("overrides", [(), (SCALE,)], ids=["config.yaml", "+scale.yaml"])
def test_burst_follows_a_geometric_recomputation(overrides):
    """fig_co_crossover's burst stream (the default one and config/scale.yaml's 10^6 steps) bursts right after a
    recomputation of the geometric baseline, as the configs' comments say: the adaptive case of Section 8.2."""
    from privtest.co.batch_to_co import geometric_steps

    cfg = load(merged(*overrides))["fig_co_crossover"]
    burst = cfg["burst"]
    assert burst["t_burst"] - 1 in geometric_steps(cfg["kappa"], burst["T"]).tolist()
    assert "burst" in cfg["streams"]


@pytest.mark.parametrize("section", [k for k, v in CONFIG.items() if isinstance(v, dict)])
def test_unknown_key_in_any_section_is_rejected(section):
    message = rejection(merged(QUICK, {section: {"runz": 100}}))
    assert f"{section}.runz: unknown key" in message, message


@pytest.mark.parametrize(
    "override, key",
    [
        ({"fig_oc": {"runz": 100}}, "fig_oc.runz"),  # typo of runs (GTM section: allOf with $defs/gtm)
        ({"fig_co_maxcut": {"runz": 100}}, "fig_co_maxcut.runz"),  # CO section: allOf with $defs/co
        ({"fig_co_checkpoints": {"kapa": 0.5}}, "fig_co_checkpoints.kapa"),  # only the co section's keys
        ({"fig_expost": {"mc_T": [1]}}, "fig_expost.mc_T"),  # no composition: additionalProperties
        ({"table2": {"maxcut": {"C_Beta": 0.3}}}, "table2.maxcut.C_Beta"),
        ({"table2": {"dense": {}}}, "table2.dense"),
        ({"fig_hpo": {"adaptive": {"stop": 0.4}}}, "fig_hpo.adaptive.stop"),
        ({"fig_oc": {"cases": [{"pstar": 0.2, "varient": "direct"}]}}, "fig_oc.cases[0].varient"),
        ({"fig_co_submodular": {"matroid": {"groups": 3, "caps": 2}}}, "fig_co_submodular.matroid.caps"),
        ({"gtm": {"epz": 2.0}}, "gtm.epz"),  # a shared section: named there, not in each inheriting section
    ],
)
def test_misspelled_key_is_named_with_the_allowed_names(override, key):
    message = rejection(merged(override))
    assert message.startswith(f"{key}: unknown"), message
    assert "allowed: " in message


def test_misspelled_section_is_one_line_with_the_allowed_names():
    # one line, not the whole schema and config
    message = rejection(merged({"fig_ocx": {"runs": 100}}))
    assert message.splitlines() == [message]
    assert message.startswith("fig_ocx: unknown section (did you mean fig_oc?); allowed: seed, gtm, co, fig_oc,")
    assert all(o in message for o in CAT)


def test_renamed_key_in_a_full_config_names_both_keys():
    # editing config.yaml itself: the misspelled key replaces the right one, which is then missing as well
    config = merged()
    config["fig_ocs"] = config.pop("fig_oc")
    assert "fig_ocs: unknown section" in rejection(config)
    for section in ("fig_expost", "fig_oc"):  # plain section; allOf section
        config = merged()
        config[section]["runz"] = config[section].pop("runs")
        message = rejection(config)
        assert f"{section}.runz: unknown key (did you mean runs?)" in message, message
        assert f"{section}: missing key 'runs'" in message, message


def test_bad_value_is_reported_before_unknown_keys():
    # a failing allOf branch hides its keys from unevaluatedProperties; that must not call them unknown
    message = rejection(merged({"fig_oc": {"beta": 1.5}}))
    assert message.startswith("fig_oc.beta: 1.5"), message
    assert "unknown" not in message


@pytest.mark.parametrize("section", ["co", "fig_co_maxcut", "fig_co_checkpoints", "table3"])
def test_co_constants_are_range_checked_in_every_co_section(section):
    message = rejection(merged({section: {"C_beta": 0.5}}))
    assert f"{section}.C_beta: 0.5" in message, message


def test_matroid_may_be_null():
    load(merged({"fig_co_submodular": {"matroid": None}}))


# Item 2: non-finite numbers and integral floats, anywhere.


def numbers(config: dict):
    """(path, value) of every number in the config (bools excluded)."""
    stack = [((), config)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack += [((*path, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [((*path, i), v) for i, v in enumerate(value)]
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            yield path, value


def replaced(config: dict, path: tuple, value) -> dict:
    config = copy.deepcopy(config)
    node = config
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return config


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
def test_non_finite_number_is_refused_at_every_key(bad):
    config = merged(QUICK)
    paths = [p for p, _ in numbers(config)]
    assert len(paths) > 100
    for path in paths:
        message = rejection(replaced(config, path, bad))
        assert message.startswith(f"{path_str(path)}: {bad!r} is not a finite number"), message


def test_nan_and_float_for_integer_are_refused_with_the_key():
    assert rejection(merged({"fig_noise_penalty": {"eps_ratio": math.nan}})).startswith("fig_noise_penalty.eps_ratio:")
    assert rejection(merged({"fig_oc": {"runs": 2000.0}})).startswith("fig_oc.runs: 2000.0 is not an integer")


@pytest.mark.slow  # seconds: run by make test, not test-fast
def test_integral_float_is_refused_at_every_integer_key():
    config = merged(QUICK)
    integer_keys = 0
    for path, value in numbers(config):
        if not isinstance(value, int):
            continue
        try:
            load(replaced(config, path, float(value)))
        except ConfigError as e:
            assert str(e).startswith(f"{path_str(path)}: {float(value)!r} is not an integer"), str(e)
            integer_keys += 1
            continue
        # accepted: then the key takes real numbers (a non-integer there is not refused as "not an integer")
        try:
            load(replaced(config, path, value + 0.5))
        except ConfigError as e:
            assert "is not an integer" not in str(e), f"{path_str(path)} accepts {float(value)} but is an integer key"
    assert integer_keys > 20


# Item 3: testers by name.


def test_tester_names_are_the_registry():
    assert sorted(SCHEMA["$defs"]["method"]["enum"]) == sorted(FACTORIES)


def test_unknown_tester_is_refused_with_the_allowed_names():
    message = rejection(merged({"fig_error_rates": {"methods": ["GTM", "Cohn"]}}))  # a misspelled tester
    assert message.startswith("fig_error_rates.methods[1]: 'Cohn' is not one of: "), message
    assert all(name in message for name in FACTORIES)


def _tester_sections():
    return {name: sub["x-testers"] for name, sub in SCHEMA["properties"].items() if "x-testers" in sub}


def literal_testers(module: str) -> set[str]:
    """Method names passed as string literals to make_tester in a module (static)."""
    tree = ast.parse((ROOT / "src" / (module.replace(".", "/") + ".py")).read_text())
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "make_tester"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_every_section_building_testers_declares_them():
    # derived: the literal testers an experiment builds are declared in its section's x-testers; a section listing
    # `methods` is declared unless the experiment deliberately tabulates refusals (table1: "not applicable" rows)
    specs = _tester_sections()
    for oid in CAT:
        module = catalogue.OUTPUT_MODULE.format(oid)
        used = literal_testers(module)
        text = (ROOT / "src" / (module.replace(".", "/") + ".py")).read_text()
        if not used and "make_tester" not in text:
            continue
        if oid == "table1":
            assert "not applicable" in text
            continue
        assert oid in specs, f"{oid} builds testers but its schema has no x-testers"
        assert used <= set(specs[oid].get("fixed", [])), (oid, used)
        if 'cfg["methods"]' in text:
            assert specs[oid].get("methods") == "methods", oid


@pytest.mark.parametrize(
    "section",
    sorted(k for k, v in _tester_sections().items() if "methods" in v or {"Cohen", "Ghazi"} & set(v.get("fixed", []))),
)
def test_a_value_a_tester_refuses_is_refused_at_load_with_the_key(section):
    # Cohen et al. and Ghazi et al. need eps > 2 eps_1: eps_ratio 0.6 is refused wherever one of them runs
    spec = _tester_sections()[section]
    config = merged(QUICK)
    if not {"Cohen", "Ghazi"} & set(spec.get("fixed", [])):
        config[section]["methods"] = ["Cohen", "GTM"]
    key = spec.get("eps_ratio", spec.get("eps_t"))
    value = 0.6 if key == "eps_ratio" else 0.6 * config[section]["eps"]
    config[section][key] = [value] if isinstance(config[section][key], list) else value
    message = rejection(config)
    assert message.startswith(f"{section}.{key} = "), message
    # the first tester refusing it names its reason: Cohen's or Ghazi's eps > 2 eps_1, or the GTM's guardrail (at
    # eps_t/eps = 0.6 >= 1/(theta + 2) its expected evaluations are infinite)
    assert "require eps > 2 eps_1" in message or ("method GTM cannot run it" in message and "vacuous" in message), (
        message
    )


def test_a_tester_requirement_is_refused_with_the_key():
    message = rejection(merged({"fig_error_rates": {"eps_ratio": 0.6, "methods": ["Cohen"]}}))  # eps > 2 eps_1
    assert message.startswith("fig_error_rates.eps_ratio = 0.6: method Cohen cannot run it: Cohen et al. require"), (
        message
    )
    message = rejection(merged({"fig_error_rates": {"eps_ratio": 0.6, "methods": ["GTM"]}}))  # E[N_t] = inf
    assert message.startswith("fig_error_rates.eps_ratio = 0.6: method GTM cannot run it:"), message
    assert "vacuous" in message and "largest admissible" in message, message


def test_a_method_missing_a_key_of_its_section_is_refused():
    message = rejection(merged({"fig_error_rates": {"methods": ["GTM ex-post"]}}))
    assert message == "fig_error_rates.methods: method GTM ex-post needs the key 'C_H' in section fig_error_rates"


def test_the_testers_check_is_remembered_per_configuration_of_its_sections(tmp_path, monkeypatch):
    """With the saved answers (deps.SavedQueries, as workflow/rules/common.smk passes them), a second load of the same
    configuration builds no tester and refuses what the first refused, with the same message; a changed section is
    checked again."""
    from privtest_workflow import deps

    calls = []
    faults = configuration._tester_faults
    monkeypatch.setattr(configuration, "_tester_faults", lambda *a: calls.append(1) or faults(*a))

    def remembered(config: dict):
        saved = deps.SavedQueries(tmp_path / "deps.json", (ROOT / "workflow/schemas",))
        try:
            return configuration.load(config, CAT, ROOT, saved.get)
        finally:
            saved.save()  # what Snakemake's exit does

    first, second = remembered(merged(QUICK)), remembered(merged(QUICK))
    assert len(calls) == 1
    assert first == second == load(merged(QUICK))  # a load without saved answers checks (call 2)
    bad = merged({"fig_error_rates": {"eps_ratio": 0.6, "methods": ["Cohen"]}})
    messages = set()
    for _ in range(2):
        with pytest.raises(ConfigError) as info:
            remembered(bad)
        messages.add(str(info.value))
    assert len(calls) == 3  # once for the bad section
    assert messages == {rejection(bad)}
    remembered(merged(QUICK, {"fig_error_rates": {"eps_ratio": 0.2}}))
    assert len(calls) == 5


# Item 4: shared sections reach every section that inherits them; a section's own key wins.


def inheriting(shared: str) -> dict[str, tuple]:
    out = {}
    for o in CAT.values():
        if o.inherits == shared:
            out[o.id] = (o.id,)
        elif isinstance(o.inherits, dict):
            out |= {f"{o.id}.{k}": (o.id, k) for k, v in o.inherits.items() if v == shared}
    return out


@pytest.mark.parametrize("shared, key, value", [("gtm", "eps", 2.0), ("co", "beta", 0.1)])
def test_shared_section_override_reaches_every_inheriting_section(shared, key, value):
    resolved = load(merged(QUICK, {shared: {key: value}}))
    sections = inheriting(shared)
    assert len(sections) >= (12 if shared == "gtm" else 8), sections
    for name, path in sections.items():
        node = resolved
        for part in path:
            node = node[part]
        assert node[key] == value, name


def test_a_sections_own_key_wins_over_the_shared_one():
    resolved = load(merged({"gtm": {"eps": 2.0}, "fig_oc": {"eps": 3.0}}))
    assert resolved["fig_oc"]["eps"] == 3.0 and resolved["fig_error_rates"]["eps"] == 2.0
    assert resolved["fig_hpo"]["eps"] == CONFIG["fig_hpo"]["eps"]  # inherits nothing: its own GTM parameters


def test_every_section_with_the_shared_keys_inherits_them():
    # a section whose schema takes the gtm or co block inherits it, or sets every key of it itself (fig_hpo: its
    # own GTM parameters, documented in config/README.md); else an override of the block would silently miss it
    for name, sub in SCHEMA["properties"].items():
        refs = {b.get("$ref") for b in sub.get("allOf", [])} | {sub.get("$ref")}
        for shared in ("gtm", "co"):
            if f"#/$defs/{shared}" in refs and name != shared:
                own = set(CONFIG[name]) >= set(CONFIG[shared])
                assert CAT[name].inherits == shared or (own and CAT[name].inherits is None), name
    assert "<<" not in (ROOT / "config/config.yaml").read_text(), "YAML merge keys bypass inheritance"


def test_resolved_config_matches_the_old_yaml_merge():
    # the sections get exactly the keys and values the YAML anchors gave them before (numbers must not change)
    resolved = load(merged())
    old = yaml.safe_load(OLD_ANCHORS)
    for name, section in old.items():
        assert {k: resolved[name][k] for k in section} == section, name


OLD_ANCHORS = """
gtm: &gtm {eps: 1.0, beta: 0.05, theta: 1.0, gamma: 1.5}
co: &co {beta: 0.05, pstar: 0.45, kappa: 0.5, gamma: 2.0, C_1: 2.0, C_H: 2.0, C_beta: 0.3333333333333333,
  log_beta: instance, delta_adv: 1.0e-6, va_draws: 400, va_alpha: 0.01}
fig_oc: *gtm
fig_calibration: *gtm
fig_co_checkpoints: *co
table3: *co
"""


# Item 7: canonical params.


def test_params_are_canonical():
    a = load(merged({"fig_oc": {"cases": [{"pstar": 0.2, "variant": "direct"}]}}))
    b = load(merged({"fig_oc": {"cases": [{"variant": "direct", "pstar": 0.2}]}}))
    for o in CAT.values():
        assert repr(o.cfg(a)) == repr(o.cfg(b)), o.id  # Snakemake compares params by repr
    assert list(a["fig_oc"]) == sorted(a["fig_oc"])


@pytest.mark.parametrize("section", ["fig_error_rates", "fig_sample_complexity", "fig_rejection_threshold"])
def test_a_method_without_what_the_output_uses_is_refused(section):
    # Ghazi in fig_error_rates would fail inside the job with "p must be in [0, 1]. Found nan"
    message = rejection(merged({section: {"methods": ["GTM", "Ghazi"]}}))
    assert message.startswith(f"{section}.methods: method Ghazi cannot serve {section} at eps_ratio = "), message
    assert "its pbar is nan (NaN: Algorithm 5 has no rejection threshold" in message, message


def test_table1_methods_are_the_table1_columns():
    from privtest.bounds import TABLE1_METHODS

    assert sorted(SCHEMA["$defs"]["table1_methods"]["items"]["enum"]) == sorted(set(TABLE1_METHODS) - {"LowerBound"})
    message = rejection(merged({"table1": {"methods": ["GTM", "Ghazi"]}}))
    assert message.startswith("table1.methods[1]: 'Ghazi' is not one of: GTM, Cohen, LiuTalwar"), message


def test_lemma_22_hypothesis_is_checked_at_load():
    # fig_amortized_samples needs sigma = eps/(eps_1 (theta+2)) > 1, i.e. eps_ratio < 1/(2+theta): the job used to
    # raise only after its earlier ratios had run; the library's guardrail (infinite E[N_t]) now refuses it first
    message = rejection(merged({"fig_amortized_samples": {"eps_ratio": [0.1, 0.4]}}))
    assert message.startswith("fig_amortized_samples.eps_ratio = [0.1, 0.4]: method GTM cannot run it: "), message
    assert "E[N_t] = inf" in message and "sigma" in message, message


def test_a_value_a_tester_cannot_simulate_is_refused_at_load():
    # Cohen et al.'s N_t = ceil(ln(2/beta) / ((beta/2)^(1/theta_C) p*)) exceeds int64 as eps_ratio -> 1/2: the
    # job died with "OverflowError: Python int too large to convert to C long"
    message = rejection(merged({"fig_error_rates": {"eps_ratio": 0.48, "methods": ["Cohen"]}}))
    assert message.startswith("fig_error_rates.eps_ratio = 0.48: method Cohen cannot be simulated there"), message


@pytest.mark.parametrize("ratio", [0.499, 0.4999])
def test_a_value_whose_calls_per_step_overflow_a_float_is_refused_with_the_key(ratio):
    # closer to 1/2, (beta/2)^(1/theta_C) underflows and N_t's division raised ZeroDivisionError at config load
    message = rejection(merged({"fig_error_rates": {"eps_ratio": ratio, "methods": ["Cohen"]}}))
    assert message.startswith(f"fig_error_rates.eps_ratio = {ratio}: method Cohen cannot run it"), message
    assert "theta" in message, message


def test_every_config_section_is_documented():
    # config/README.md must document every top-level key of config/config.yaml (issue: config documentation).
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[1]
    cfg = yaml.safe_load((root / "config/config.yaml").read_text())
    doc = (root / "config/README.md").read_text()
    assert [k for k in cfg if f"`{k}`" not in doc] == []


def test_only_a_missing_library_skips_the_testers_check(monkeypatch, tmp_path):
    """Where Snakemake runs without the library, the testers' check warns and saves no verdict (the jobs will fail);
    an ImportError raised while building a tester is not that: it propagates."""
    import sys

    from privtest_workflow import deps

    import privtest_artifact.registry as registry

    saved = deps.SavedQueries(tmp_path / "deps.json", (ROOT / "workflow/schemas",))
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "privtest_artifact.registry", None)  # `import` raises ImportError
        with pytest.warns(UserWarning, match="tester constraints not checked"):
            configuration.load(merged(QUICK), CAT, ROOT, saved.get)
    saved.save()
    assert not (tmp_path / "deps.json").exists()

    def broken(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'a_dependency_of_a_tester'")

    monkeypatch.setitem(registry.FACTORIES, "GTM", broken)
    with pytest.raises(ModuleNotFoundError, match="a_dependency_of_a_tester"):
        configuration.load(merged(QUICK), CAT, ROOT, saved.get)
