"""The output catalogue, ``config/catalogue.yaml``: the only list of the reproduction's outputs.

Each entry names an output id, its kind (figure or table), the paper section it tests (the report category), its
data inputs and any extra configuration merged into its ``cfg``. This module loads the file, validates it against
``workflow/schemas/catalogue.schema.yaml`` plus the cross-references a schema cannot express, and says what an
entry means as files. The rules (``workflow/rules/common.smk``) and the tests read it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from privtest_workflow.configuration import parse_repository_yaml

PATH = "config/catalogue.yaml"
SCHEMA = "workflow/schemas/catalogue.schema.yaml"

#: The files each kind of output writes ({} = output id), keyed by the notebook parameter that receives the path.
FILES = {
    "figure": {"pdf": "figures/{}.pdf", "png": "figures/{}.png", "data": "figures/data/{}.csv"},
    "table": {"tex": "figures/{}.tex", "md": "figures/{}.md", "csv": "figures/{}.csv"},
}
#: Extra data tables an entry declares (``extra_data``), by notebook parameter ``data_<name>`` ({} = id, name).
EXTRA_DATA = "figures/data/{}_{}.csv"
#: An HTML rendering of a table's .md, written by the table's notebook job after the notebook (not a notebook parameter)
#: for the Snakemake report, which shows HTML in place (a .csv or .md would only be offered as a download).
HTML = "figures/{}.html"
#: The file of each kind that the Snakemake report shows (a key of :meth:`Output.targets`' files, or ``html``).
REPORTED = {"figure": "png", "table": "html"}
#: Every output also leaves its executed notebook and a provenance sidecar.
SIDECARS = {"executed": "results/notebooks/{}.ipynb", "provenance": "figures/{}.provenance.json"}
#: Raw results of the simulate rule (and the provenance of the code that produced them), claims of the check rule.
RAW = "results/raw/{}.csv"
RAW_PROVENANCE = "results/raw/{}.provenance.json"
#: Results tables of the analyse rule: ``results/analysis/<id>/<name>.csv`` (:func:`privtest_artifact.outputs.write`).
ANALYSIS = "results/analysis/{}"
CLAIMS = "results/claims/{}.csv"
#: Data inputs of a simulation by kind: the input named ``<kind>_<name>`` is the file ``INPUTS[kind].format(name)``.
INPUTS = {"raw": RAW, "wheel": "resources/wheels/{}.whl", "opt": "results/co/opt_{}.csv"}

#: The module of an output ({} = output id): its simulate, analyse and check jobs run its three stages.
OUTPUT_MODULE = "privtest_artifact.outputs.{}"


@dataclass(frozen=True)
class Output:
    """One catalogue entry.

    Attributes:
        id: output id (``figures/<id>.*``, ``notebooks/<id>.ipynb``, config section ``<id>``).
        kind: ``"figure"`` or ``"table"``.
        section: the report category (title of the paper section the output tests).
        inputs: data inputs by kind (``raw``, ``wheel``, ``opt``): a list of names, or ``{"config": key}`` for the
            names listed under ``key`` in the output's config section.
        config: extra cfg keys: key -> dotted path of a config value (e.g. ``T_max: co_data.T_max``).
        renders_claims: the notebook renders the output's claims (it then reads ``results/claims/<id>.csv``).
        extra_data: names of extra data tables the notebook writes (:data:`EXTRA_DATA`), e.g. ``("summary",)``.
        reads: the other outputs whose raw tables the analysis reads (then ``analyse(raw, cfg)`` gets
            ``raw = {id: DataFrame}``, its own simulation's table under its own id).
        simulates: False for an output that draws nothing: no simulation, its analysis ``reads`` others' tables.
        inherits: the shared config section (e.g. ``"gtm"``) whose keys the output's section inherits (its own keys
            win), or {sub-section: shared section} for a section made of sub-sections; resolved when the config is
            loaded (:func:`privtest_workflow.configuration.resolve`), so an override of the shared section reaches
            the output.
    """

    id: str
    kind: str
    section: str
    inputs: dict
    config: dict
    renders_claims: bool = False
    extra_data: tuple = ()
    inherits: str | dict | None = None
    reads: tuple = ()
    simulates: bool = True

    def analysis_inputs(self) -> dict[str, str]:
        """Input name -> path of the raw tables its analysis reads: ``raw`` (its own simulation's) or, for an output
        that ``reads`` others, ``raw_<name>`` for each of them and for itself if it simulates."""
        if not self.reads:
            return {"raw": RAW.format(self.id)}
        names = ([self.id] if self.simulates else []) + list(self.reads)
        return {f"raw_{name}": RAW.format(name) for name in names}

    def files(self) -> dict[str, str]:
        """The output's files by notebook parameter name (``pdf``/``png``/``data`` or ``tex``/``md``/``csv``, and
        ``data_<name>`` for each extra data table)."""
        out = {name: pattern.format(self.id) for name, pattern in FILES[self.kind].items()}
        return out | {f"data_{n}": EXTRA_DATA.format(self.id, n) for n in self.extra_data}

    @property
    def job(self) -> str:
        """Name of the notebook rule that builds this output: the kind, plus the extra data tables if any (outputs
        with the same kind and extra tables share a rule, see :func:`notebook_jobs`)."""
        return "_".join([self.kind, *self.extra_data])

    def reported(self) -> str:
        """The file the Snakemake report shows for this output (:data:`REPORTED`): a figure's .png, a table's .html."""
        return HTML.format(self.id) if REPORTED[self.kind] == "html" else self.files()[REPORTED[self.kind]]

    def targets(self) -> list[str]:
        """Every file the output's notebook job leaves (its files, a table's HTML rendering and the provenance
        sidecar)."""
        html = [HTML.format(self.id)] if self.kind == "table" else []
        return [*self.files().values(), *html, SIDECARS["provenance"].format(self.id)]

    def cfg(self, config: dict, drop=()) -> dict:
        """The output's configuration: its config section plus the extra keys the catalogue merges in, with sorted
        keys (canonical: the same values in another order are the same params), without the keys ``drop`` (the
        simulation's params leave out the analysis keys, ``x-stage: analysis`` in the config schema).

        Raises:
            ValueError: if the config has no section for the output or an extra key's path does not exist.
        """
        if self.id not in config:
            raise ValueError(f"{self.id}: the config has no section {self.id!r} (config/config.yaml).")
        cfg = copy.deepcopy(config[self.id])
        for key, path in self.config.items():
            cfg[key] = copy.deepcopy(_lookup(config, path, f"{self.id}: config.{key}"))
        return _canonical({k: v for k, v in cfg.items() if k not in set(drop)})

    def data_inputs(self, config: dict) -> dict[str, str]:
        """Input name -> path of the simulation's data inputs (names ``raw_<id>``, ``wheel_<s>``, ``opt_<s>``).

        Raises:
            ValueError: if a ``{"config": key}`` reference is not a list of names in the output's config section.
        """
        out = {}
        for kind, names in self.inputs.items():
            if isinstance(names, dict):
                names = _lookup(config, f"{self.id}.{names['config']}", f"{self.id}: inputs.{kind}")
                if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
                    raise ValueError(
                        f"{self.id}: inputs.{kind} must name a list of strings in the config. Found {names!r}."
                    )
            for name in names:
                out[f"{kind}_{name}"] = INPUTS[kind].format(name)
        return out


def _canonical(value):
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def _lookup(config: dict, dotted: str, what: str):
    value = config
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ValueError(f"{what}: config key {dotted!r} does not exist.")
        value = value[part]
    return value


def load(root: str | Path = ".") -> dict[str, Output]:
    """Read and validate ``config/catalogue.yaml`` under ``root``.

    Returns:
        Output id -> :class:`Output`, in the file's order (the order of ``figures/claims.csv``).

    Raises:
        ValueError: naming the offending entry if the file does not match the schema, an output's section is not
            one of ``sections``, or a ``raw`` input names no output of the catalogue (or the output itself).
    """
    root = Path(root)
    doc = parse_repository_yaml((root / PATH).read_text())
    schema = parse_repository_yaml((root / SCHEMA).read_text())
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "".join(f"[{p!r}]" for p in e.absolute_path)
        raise ValueError(f"{PATH} does not match {SCHEMA}: {e.message} (on instance{where})")
    out = {}
    for oid, entry in doc["outputs"].items():
        if entry["section"] not in doc["sections"]:
            raise ValueError(
                f"{PATH}: output {oid}: section {entry['section']!r} is not one of {list(doc['sections'])}."
            )
        out[oid] = Output(
            id=oid,
            kind=entry["kind"],
            section=doc["sections"][entry["section"]],
            inputs=entry.get("inputs", {}),
            config=entry.get("config", {}),
            renders_claims=entry.get("renders_claims", False),
            extra_data=tuple(entry.get("extra_data", ())),
            inherits=entry.get("inherits"),
            reads=tuple(entry.get("reads", ())),
            simulates=entry.get("simulate", True),
        )
    for o in out.values():
        raw = o.inputs.get("raw", [])
        bad = [r for r in raw if r not in out or r == o.id] if isinstance(raw, list) else []
        if bad:
            raise ValueError(f"{PATH}: output {o.id}: raw inputs {bad} are not other outputs of the catalogue.")
        bad = [r for r in o.reads if r not in out or r == o.id or not out[r].simulates]
        if bad:
            raise ValueError(f"{PATH}: output {o.id}: reads {bad}, which are not other outputs with a simulation.")
        if not o.simulates and (o.inputs or not o.reads):
            raise ValueError(f"{PATH}: output {o.id}: without a simulation it has no inputs and reads other outputs.")
    return out


def sections(root: str | Path = ".") -> list[str]:
    """The titles of the paper sections of ``config/catalogue.yaml`` under ``root``, in the file's (paper) order: the
    order of the report's sections."""
    return list(parse_repository_yaml((Path(root) / PATH).read_text())["sections"].values())


def notebook_jobs(catalogue: dict[str, Output]) -> dict[str, tuple[str, tuple, list[str]]]:
    """The notebook rules the workflow defines: rule name -> (kind, extra data names, output ids). A rule's outputs
    are the same files for every id it builds, so outputs that declare extra data tables get a rule of their own
    kind and tables (e.g. ``figure_summary``); the others share the rule named by their kind."""
    out: dict[str, tuple[str, tuple, list[str]]] = {}
    for o in catalogue.values():
        out.setdefault(o.job, (o.kind, o.extra_data, []))[2].append(o.id)
    return out


def check_config(catalogue: dict[str, Output], config: dict) -> None:
    """Every output has a config section, its inputs and extra keys resolve in ``config``, and the sections it
    inherits are shared sections of ``config`` (mappings that are not an output's section).

    Raises:
        ValueError: naming the output and the missing key.
    """
    for o in catalogue.values():
        o.cfg(config)
        o.data_inputs(config)
        inherits = o.inherits if isinstance(o.inherits, dict) else {None: o.inherits} if o.inherits else {}
        for name in inherits.values():
            if name in catalogue or not isinstance(config.get(name), dict):
                raise ValueError(f"{o.id}: inherits {name!r}, which is not a shared section of the config.")
