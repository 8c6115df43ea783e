"""Loading the configuration: shared sections inherited, every value checked, one short message per fault.

``workflow/rules/common.smk`` calls :func:`load` on the config Snakemake merged from ``config/config.yaml`` and any
``--configfile``; the workflow then only ever sees the result. In order:

1. Every number is finite: YAML's ``.nan`` and ``.inf`` are refused wherever they occur (JSON Schema's
   ``exclusiveMinimum: 0`` lets NaN through, since every comparison with NaN is false).
2. Shared sections are inherited (:func:`resolve`): a catalogue entry's ``inherits: gtm`` puts the keys of the
   config's ``gtm:`` section under the output's own section (the section's own keys win), so an override of ``gtm``
   in any ``--configfile`` reaches every section that inherits it.
3. The result is validated against ``workflow/schemas/config.schema.yaml`` with integers that are integers (draft
   2020-12 counts ``2000.0`` as an integer; here it is refused). A failure is reported in one line per fault, naming
   the key path and what is allowed (the names a misspelled key could be, an enumeration's values, a range).
4. Testers are built once per (method, value) the section will use (schema annotation ``x-testers``): a value a
   method cannot accept (Cohen et al. need eps > 2 eps_1, i.e. ``eps_ratio`` < 1/2) is refused with the key and the
   library's own message, before any job.
5. Mappings are put in canonical (sorted-key) order, so two override files listing the same keys and values in a
   different order give identical params and rerun nothing.
"""

from __future__ import annotations

import copy
import difflib
import functools
import importlib.metadata
import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import yaml

SCHEMA = "workflow/schemas/config.schema.yaml"
#: Schema annotation of a section whose simulation builds testers by name (privtest_artifact.registry): see
#: check_testers.
TESTERS = "x-testers"
#: Schema annotation of an analysis key, one that only judges or displays (``x-stage: analysis``): see
#: :func:`analysis_keys`.
STAGE = "x-stage"


class ConfigError(ValueError):
    """An invalid configuration: the message names the key path (``section.key[index]``) and what is allowed."""


def load(config: dict, catalogue: dict, root: str | Path = ".", remember=None) -> dict:
    """The checked, resolved and canonical configuration (a new dict; ``config`` is not modified).

    Args:
        config: the configuration as Snakemake merged it.
        catalogue: output id -> :class:`privtest_workflow.catalogue.Output` (for ``inherits``).
        root: the repository (where the schema lives).
        remember: optional ``remember(query, answer)`` returning a saved answer to the string ``query`` or
            ``answer()`` (:meth:`privtest_workflow.deps.SavedQueries.get`): the testers' check
            (:func:`check_testers`) is then asked once per configuration of their sections.

    Raises:
        ConfigError: on the first faults found (at most a few lines, each naming a key path).
    """
    check_finite(config)
    resolved = resolve(config, catalogue)
    schema = read_schema(root)
    validate(resolved, schema, shared=shared_sections(config, catalogue))
    check_testers(resolved, schema, remember)
    return canonical(resolved)


def load_or_fault(
    config: dict, catalogue: dict, root: str | Path = ".", remember=None
) -> tuple[dict | None, str | None]:
    """:func:`load`, with a fault returned as its message instead of raised: (config, None) or (None, message).

    (Raised from outside an ``except`` block, Snakemake prints the message without the chained traceback.)
    """
    try:
        return load(config, catalogue, root, remember), None
    except ConfigError as error:
        return None, str(error)


def path_str(path) -> str:
    """``['section', 'cases', 0, 'pstar']`` -> ``section.cases[0].pstar``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _walk(value, path=()) -> Iterator[tuple[tuple, object]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, (*path, i))


def check_finite(config: dict) -> None:
    """Refuse a NaN or infinite number anywhere in the configuration (no key accepts one).

    Raises:
        ConfigError: naming each key path that holds one.
    """
    bad = [
        f"{path_str(p)}: {v!r} is not a finite number"
        for p, v in _walk(config)
        if isinstance(v, float) and not math.isfinite(v)
    ]
    if bad:
        raise ConfigError(_summary(bad))


def shared_sections(config: dict, catalogue: dict) -> set[str]:
    """Names of the sections that outputs inherit from (``inherits`` in the catalogue)."""
    return {name for o in catalogue.values() for name in _inherited(o.inherits).values()}


def _inherited(inherits) -> dict[tuple, str]:
    """``inherits`` of a catalogue entry as {sub-path within the section: shared section name}."""
    if not inherits:
        return {}
    if isinstance(inherits, str):
        return {(): inherits}
    return {(key,): name for key, name in inherits.items()}


def _merge(base: dict, own: dict) -> dict:
    """``base`` with ``own`` merged over it (nested mappings merged key by key; ``own`` wins)."""
    out = copy.deepcopy(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def resolve(config: dict, catalogue: dict) -> dict:
    """The configuration with every shared section merged under the sections that inherit it.

    A catalogue entry ``inherits: gtm`` merges the config's ``gtm`` section under the output's section; ``inherits:
    {densest: co}`` merges ``co`` under the section's ``densest`` sub-section. The section's own keys win.

    Raises:
        ConfigError: if an inherited section is missing or not a mapping.
    """
    out = copy.deepcopy(config)
    for o in catalogue.values():
        for sub, name in _inherited(o.inherits).items():
            shared = config.get(name)
            if not isinstance(shared, dict):
                raise ConfigError(
                    f"{name}: missing or not a mapping; the catalogue says {o.id} inherits it (config/README.md)."
                )
            where = (o.id, *sub)
            own = _get(out, where)
            if own is None:
                own = {}
            if not isinstance(own, dict):
                continue  # the schema names the section that is not a mapping
            _set(out, where, _merge(shared, own))
    return out


def _get(config: dict, path: tuple):
    value = config
    for part in path:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _set(config: dict, path: tuple, value) -> None:
    for part in path[:-1]:
        config = config.setdefault(part, {})
    config[path[-1]] = value


def canonical(value):
    """Mappings with sorted keys, recursively (list order is kept)."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def _is_integer(checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


#: Draft 2020-12 with integers that are ints: ``runs: 2000.0`` is refused, not silently accepted.
Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


def _allowed_keys(schema: dict, root: dict) -> list[str]:
    """The property names a (sub)schema allows, following ``$ref`` and ``allOf``."""
    if "$ref" in schema:
        schema = {**_deref(schema["$ref"], root), **{k: v for k, v in schema.items() if k != "$ref"}}
    keys = list(schema.get("properties", {}))
    for sub in schema.get("allOf", []):
        keys += [k for k in _allowed_keys(sub, root) if k not in keys]
    return keys


def _deref(ref: str, root: dict) -> dict:
    node = root
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def _brief(schema: dict, root: dict) -> str:
    """A few words for what a subschema accepts (e.g. ``"auto"`` or a number in (0, 1))."""
    if "$ref" in schema:
        schema = {**_deref(schema["$ref"], root), **{k: v for k, v in schema.items() if k != "$ref"}}
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    words = schema.get("type", "value")
    words = " or ".join(words) if isinstance(words, list) else words
    bounds = []
    for key, sign in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<")):
        if key in schema:
            bounds.append(f"{sign} {schema[key]}")
    return f"{words} {' and '.join(bounds)}".strip()


def _describe(error: jsonschema.ValidationError, root: dict) -> list[str]:
    """One line per fault: the key path, then what is wrong and what is allowed."""
    where = path_str(error.absolute_path)
    hint = _string_hint(error.instance, list(error.absolute_path))
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        allowed = _allowed_keys(error.schema, root)
        # keys of a failing allOf branch count as unevaluated: only the keys no branch allows are unknown
        unknown = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
        kind = "section" if not error.absolute_path else "key"
        lines = []
        for key in unknown:
            near = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            full = path_str([*error.absolute_path, key])
            lines.append(f"{full}: unknown {kind}{hint}; allowed: {', '.join(allowed)}")
        return lines
    if error.validator == "enum":
        return [f"{where}: {error.instance!r} is not one of: {', '.join(map(str, error.validator_value))}"]
    if error.validator == "type":
        if error.validator_value == "integer" and isinstance(error.instance, float):
            return [f"{where}: {error.instance!r} is not an integer (write {int(error.instance)}, without '.0')"]
        return [f"{where}: {error.instance!r} is not of type {error.validator_value}{hint}"]
    if error.validator in ("anyOf", "oneOf"):
        integral = isinstance(error.instance, float) and error.instance.is_integer()
        if integral and any(c.validator == "type" and c.validator_value == "integer" for c in error.context):
            return [f"{where}: {error.instance!r} is not an integer (write {int(error.instance)}, without '.0')"]
        options = " or ".join(_brief(sub, root) for sub in error.validator_value)
        return [f"{where}: {error.instance!r} is not allowed; expected {options}{hint}"]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return [f"{where}: missing key {missing!r}"]
    description = error.schema.get("description")
    return [f"{where}: {error.message}" + (f" ({description})" if description else "")]


def _string_hint(instance, path=()) -> str:
    """For a string that reads as a number or a list ('2000', '[1, 2]') at key ``path``: the likely cause, a nested
    ``--config`` (shown for that key)."""
    if not isinstance(instance, str) or len(path) < 2:
        return ""
    try:
        parsed = yaml.safe_load(instance)
    except yaml.YAMLError:
        return ""
    if isinstance(parsed, (int, float, list, dict, bool)):
        return (
            " (a string: values nested in a --config mapping, as in "
            f"--config \"{path[0]}={{'{path[1]}': {instance}}}\", arrive as strings; put the override in a YAML file "
            "and pass it with --configfile)"
        )
    return ""


def unknown_targets(targets, catalogue: dict, root=".", *, rules=(), produced=None) -> str:
    """The message for requested targets that no rule can build ("" if every target is known).

    Args:
        targets: the targets Snakemake was asked for (file paths or rule names).
        catalogue: output id -> :class:`privtest_workflow.catalogue.Output`.
        root: the repository (a target may be given relative to it or absolute).
        rules: the workflow's rule names (a rule name is a valid target).
        produced: ``produced(path) -> bool``, whether some rule's output pattern matches ``path`` (None: only the
            catalogue's files count).

    Returns:
        one message naming each unknown target (with the closest valid one, a bare id pointing at its files), the
        catalogue's ids and its figure and table files.
    """
    known = {f for o in catalogue.values() for f in o.targets()}
    base = Path(root).resolve()
    lines = []
    for target in targets:
        name = str(target)
        rel = (
            str(Path(name).resolve().relative_to(base))
            if Path(name).is_absolute() and Path(name).resolve().is_relative_to(base)
            else name
        )
        if name in rules or rel in known or (produced is not None and produced(rel)):
            continue
        near = difflib.get_close_matches(rel, sorted((known | set(catalogue)) - {rel}), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        lines.append(f"unknown target {name!r}{hint}")
    if not lines:
        return ""
    first = sorted(next(iter(o.files().values())) for o in catalogue.values())  # .pdf of a figure, .tex of a table
    others = ", ".join(sorted(set(rules) - set(catalogue))) or "all"
    return "\n".join(
        [
            *lines,
            f"valid targets: an output id of config/catalogue.yaml ({', '.join(catalogue)}), which rebuilds its "
            f"files, claims and result page; another rule name ({others}); or a file of an output: "
            f"{', '.join(first)} (and each output's other files: .png / .md, figures/data/<id>.csv)",
        ]
    )


def partial_rebuilds(targets, catalogue: dict, root=".") -> list[str]:
    """One line for each requested file of an output whose id (or ``all``) is not requested too: that file is rebuilt
    alone, its claims (results/claims/<id>.csv, figures/claims.*) and result page (docs/results/<id>.md) are not.

    Args:
        targets: the targets Snakemake was asked for (file paths or rule names).
        catalogue: output id -> :class:`privtest_workflow.catalogue.Output`.
        root: the repository (a target may be given relative to it or absolute).

    Returns:
        lines naming the file and the target ``<id>`` that rebuilds all of them; [] if there is none.
    """
    base = Path(root).resolve()
    names = {str(t) for t in targets}
    lines = []
    for target in targets:
        path = Path(str(target))
        rel = (
            str(path.resolve().relative_to(base))
            if path.is_absolute() and path.resolve().is_relative_to(base)
            else str(target)
        )
        for o in catalogue.values():
            if rel in o.targets() and not {o.id, "all"} & names:
                lines.append(
                    f"{target} is rebuilt alone: the claims (results/claims/{o.id}.csv, figures/claims.*) and result "
                    f"page (docs/results/{o.id}.md) stay as they were; `snakemake {o.id}` rebuilds all of them"
                )
    return lines


def requested_targets(argv) -> list[str]:
    """The targets of a ``snakemake`` (or ``python -m snakemake``) command line ``argv`` (sys.argv), parsed with
    Snakemake's own argument parser; [] for any other program (a job's own interpreter, the test suite) or a command
    line it cannot parse. (Snakemake hands its targets to the workflow only after parsing the Snakefile, too late to
    name the valid ones.)"""
    program = Path(argv[0]) if argv else Path()
    # the `snakemake` script, or `python -m snakemake` (argv[0] is then snakemake/__main__.py)
    if not (
        program.name.startswith("snakemake") or (program.name == "__main__.py" and program.parent.name == "snakemake")
    ):
        return []
    try:
        from snakemake.cli import get_argument_parser

        args, _ = get_argument_parser().parse_known_args(list(argv[1:]))
    except (ImportError, SystemExit, Exception):  # never let a diagnostic break a run
        return []
    return [str(t) for t in (getattr(args, "targets", None) or [])]


def _summary(lines: list[str], limit: int = 2) -> str:
    more = len(lines) - limit
    return "\n".join(lines[:limit] + ([f"(and {more} more)"] if more > 0 else []))


def validate(config: dict, schema: dict, shared: set[str] = frozenset()) -> None:
    """Validate against the schema, reporting faults in at most a few lines.

    An ``allOf`` branch that fails drops its keys from ``unevaluatedProperties``, which would then call every one of
    them unknown: only keys that no branch of the section's schema allows are reported as unknown. Faults in shared
    sections come first (each also shows up in every section that inherits it), then unknown keys (a misspelling
    also makes the right key missing), then the rest by key path.

    Raises:
        ConfigError: listing the first faults, each with its key path.
    """
    kept = list(Validator(schema).iter_errors(config))
    if not kept:
        return

    def order(e):
        top = e.absolute_path[0] if e.absolute_path else ""
        unknown = e.validator in ("additionalProperties", "unevaluatedProperties")
        return (top not in shared, not unknown, [str(p) for p in e.absolute_path])

    lines = []
    for e in sorted(kept, key=order):
        lines += [line for line in _describe(e, schema) if line not in lines]
    if lines:
        raise ConfigError(_summary(lines))


def _values(section: dict, key) -> list:
    """The value(s) under ``key`` of the section, as a list ([None] without a key)."""
    value = None if key is None else section.get(key)
    return value if isinstance(value, list) else [value]


def check_testers(config: dict, schema: dict, remember=None) -> None:
    """Build every tester a section's simulation will build, at each value it takes, to catch what a method refuses.

    A section's schema names them in its ``x-testers`` annotation: ``methods`` (the key listing method names) and
    ``fixed`` (names the simulation always builds), ``eps_ratio`` (the key of eps_1/eps; or ``eps_t``: the key of
    eps_1, ratio eps_t/eps), ``pstar`` and ``T`` (keys, optional), ``needs`` (members of the tester interface the
    output uses: each must be finite, e.g. ``pbar``, which Ghazi et al.'s selection does not have; ``run`` and
    ``critical_p`` are simulated once on a tiny input, e.g. Cohen et al.'s N_t overflows as eps_ratio -> 1/2). Each
    method is
    built with :func:`privtest_artifact.registry.make_tester` at every listed eps_ratio, with the section's first p* and
    largest T: the library's own range checks, interface and simulation decide, not a copy of them.

    With ``remember`` (see :func:`load`), the faults found are remembered per content of the sections checked and
    the versions of the library's dependencies (the library's code and this schema are the saved answers' own key):
    a run whose sections are unchanged builds no tester.

    Raises:
        ConfigError: naming the section, the key and the method, with the library's message.
    """
    sections = {name: config[name] for name, _ in _tester_specs(schema) if isinstance(config.get(name), dict)}
    query = f"testers {json.dumps([sections, _versions('numpy', 'scipy', 'mpmath')], sort_keys=True, default=str)}"
    try:
        lines = (remember or (lambda _, answer: answer()))(query, lambda: _tester_faults(config, schema))
    except _NoLibrary as e:  # Snakemake runs without the library: the jobs will check (and fail) instead
        import warnings

        warnings.warn(f"tester constraints not checked at config load ({e}); run Snakemake from .venv", stacklevel=2)
        return
    if lines:
        raise ConfigError(_summary(lines))


def _versions(*names: str) -> dict[str, str | None]:
    """Installed version of each distribution (None where it is not installed)."""
    found = {}
    for name in names:
        try:
            found[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            found[name] = None
    return found


class _NoLibrary(ImportError):
    """The library cannot be imported where Snakemake runs (an ImportError while building a tester is a fault)."""


def _tester_faults(config: dict, schema: dict) -> list[str]:
    """:func:`check_testers`' faults, one line each (empty if none).

    Raises:
        _NoLibrary: where the library cannot be imported.
    """
    try:
        from privtest_artifact.registry import make_tester
    except ImportError as e:
        raise _NoLibrary(str(e)) from e

    lines = []
    for name, spec in _tester_specs(schema):
        section = config.get(name)
        if not isinstance(section, dict):
            continue
        methods = [*_values(section, spec.get("methods")), *spec.get("fixed", [])]
        methods = [m for i, m in enumerate(methods) if m is not None and m not in methods[:i]]
        if "eps_t" in spec:
            ratios = [(spec["eps_t"], e / section["eps"]) for e in _values(section, spec["eps_t"])]
        else:
            ratios = [(spec["eps_ratio"], r) for r in _values(section, spec["eps_ratio"])]
        pstar = _values(section, spec.get("pstar"))[0]
        pstar = 0.5 if pstar is None else pstar
        T = max((t for t in _values(section, spec.get("T")) if t is not None), default=100)
        for method, (key, ratio) in itertools.product(methods, ratios):
            try:
                tester = make_tester(method, section, pstar, ratio, T)
            except KeyError as e:
                lines.append(f"{name}.methods: method {method} needs the key {e} in section {name}")
            except (ValueError, TypeError) as e:
                value = section[key] if isinstance(key, str) else ratio
                lines.append(f"{name}.{key} = {value!r}: method {method} cannot run it: {e}")
            else:
                needs = spec.get("needs", [])
                missing = _lacking(tester, [m for m in needs if m not in _SIMULATIONS], T)
                if missing:
                    lines.append(f"{name}.methods: method {method} cannot serve {name} at {key} = {ratio:g}: {missing}")
                else:
                    failed = _simulate(
                        tester, [m for m in needs if m in _SIMULATIONS], pstar, ratio * section["eps"], T
                    )
                    if not failed:
                        continue
                    value = section[key] if isinstance(key, str) else ratio
                    lines.append(f"{name}.{key} = {value!r}: method {method} cannot be simulated there: {failed}")
            break
    return lines


#: Interface members that simulate (``needs`` entries run once, on one step or T steps, with 2 runs).
_SIMULATIONS = ("run", "critical_p")


def _simulate(tester, members: list[str], pstar: float, eps1: float, T: int) -> str:
    """Run each simulating member once on a tiny input; "" if all run, else the library's message."""
    import numpy as np

    from privtest.testers import bernoulli_stream

    rng = np.random.default_rng(0)
    for member in members:
        try:
            if member == "run":
                tester.run(bernoulli_stream(np.full(1, pstar), eps1), 2, rng)
            else:
                tester.critical_p(T, 2, rng)
        except (ValueError, OverflowError) as e:
            return f"{member}: {e}"
    return ""


def _lacking(tester, needs: list[str], T: int) -> str:
    """The first interface member in ``needs`` that is not finite for ``tester`` (called at t = T if a method), as
    "its <member> is <value> (<the member's own explanation>)", or "" if all are."""
    for member in needs:
        attr = getattr(type(tester), member, None)
        value = getattr(tester, member)
        value = value(T) if callable(value) else value
        if not math.isfinite(value):
            doc = " ".join((getattr(attr, "__doc__", None) or "").split())
            sentences = [t.strip() for t in doc.split(". ") if t.strip()]
            said = [t for t in sentences if "NaN" in t or "nan" in t or "inf" in t] or sentences[:1]
            why = f" ({said[0].rstrip('.')})" if said else ""
            return f"its {member} is {value!r}{why}"
    return ""


def _tester_specs(schema: dict) -> Iterator[tuple[str, dict]]:
    for name, sub in schema.get("properties", {}).items():
        if isinstance(sub, dict) and TESTERS in sub:
            yield name, sub[TESTERS]


def analysis_keys(schema: dict) -> dict[str, frozenset[str]]:
    """Section -> its keys annotated ``x-stage: analysis`` in the config schema (a key's own subschema, in the
    section's ``properties`` or in an ``allOf`` branch; ``$ref`` followed): its analysis keys. Such a key only judges
    or displays (a tolerance, a margin, a confidence level): the analysis, the check and the notebook receive it, the
    simulation does not (``workflow/rules/common.smk``: ``simulation_cfg``), so changing it reruns no simulation.

    Raises:
        ConfigError: if an ``x-stage`` annotation is other than ``analysis`` or ``simulation``.
    """
    out = {}
    for section, sub in schema.get("properties", {}).items():
        keys = set()
        for key, prop in _properties(sub, schema).items():
            stage = prop.get(STAGE, "simulation") if isinstance(prop, dict) else "simulation"
            if stage not in ("analysis", "simulation"):
                raise ConfigError(f"{section}.{key}: {STAGE} must be analysis or simulation, got {stage!r}")
            if stage == "analysis":
                keys.add(key)
        if keys:
            out[section] = frozenset(keys)
    return out


def _properties(schema: dict, root: dict) -> dict:
    """Key -> subschema of the keys a (sub)schema declares, following ``$ref`` and ``allOf`` (later branches win)."""
    if not isinstance(schema, dict):
        return {}
    if "$ref" in schema:
        schema = {**_deref(schema["$ref"], root), **{k: v for k, v in schema.items() if k != "$ref"}}
    out = {}
    for sub in schema.get("allOf", []):
        out.update(_properties(sub, root))
    out.update(schema.get("properties", {}))
    return out


def load_analysis_keys(root: str | Path = ".") -> dict[str, frozenset[str]]:
    """:func:`analysis_keys` of the config schema under ``root``."""
    return analysis_keys(read_schema(root))


def read_schema(root: str | Path = ".") -> dict:
    """The config schema under ``root`` (``workflow/schemas/config.schema.yaml``), parsed: a new dict on every call.
    The text is read every time; the parse of a text already parsed is reused (:func:`load` runs once per Snakemake
    run and per checked config in the tests, each time with the same 48 kB schema)."""
    return copy.deepcopy(_parse_yaml((Path(root) / SCHEMA).read_text()))


@functools.lru_cache(maxsize=4)
def _parse_yaml(text: str):
    return parse_repository_yaml(text)


#: PyYAML's safe loader in C (libyaml; in PyYAML's wheels) where present: the same objects, about ten times faster.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_repository_yaml(text: str):
    """A YAML file of the repository (the catalogue, the schemas), parsed with :data:`_LOADER`: every Snakemake run
    reads them. A user's config and overrides keep Snakemake's and :func:`yaml.safe_load`'s parser (their error
    messages)."""
    return yaml.load(text, Loader=_LOADER)
