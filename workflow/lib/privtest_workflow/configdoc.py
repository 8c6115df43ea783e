"""config/README.md's key reference, generated from ``workflow/schemas/config.schema.yaml``: each key is documented in
one place, its ``description`` in the schema, and its type and range are read off the schema's constraints.

The hand-written prose of config/README.md (how overrides merge, validation, shared sections) stays outside the
generated block ``config-keys`` (``<!-- BEGIN generated:config-keys -->``), which :func:`render` fills;
``workflow/scripts/render_config_readme.py`` rewrites the file and ``tests/test_docs.py`` checks it is current.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from privtest_workflow.configuration import STAGE, parse_repository_yaml

SCHEMA = "workflow/schemas/config.schema.yaml"
README = "config/README.md"
BLOCK = "config-keys"
#: How the key reference marks a key annotated ``x-stage: analysis``.
ANALYSIS_KEY = "analysis key"


def _resolve(node: dict, root: dict) -> dict:
    """``node`` with a ``$ref`` to ``#/$defs/<name>`` replaced by the definition (its own keys winning)."""
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = {**root["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _number(node: dict, kind: str) -> str:
    lo = (">", node["exclusiveMinimum"]) if "exclusiveMinimum" in node else (">=", node.get("minimum"))
    hi = ("<", node["exclusiveMaximum"]) if "exclusiveMaximum" in node else ("<=", node.get("maximum"))
    if lo[1] is not None and hi[1] is not None:
        left = "(" if lo[0] == ">" else "["
        right = ")" if hi[0] == "<" else "]"
        return f"{kind} in {left}{lo[1]:g}, {hi[1]:g}{right}"
    if lo[1] is not None:
        return f"{kind} {lo[0]} {lo[1]:g}"
    if hi[1] is not None:
        return f"{kind} {hi[0]} {hi[1]:g}"
    return kind


def type_of(node: dict, root: dict) -> str:
    """A short reading of a schema node's type and range ("integer >= 1", "list of number > 0", "one of: a, b")."""
    node = _resolve(node, root)
    if "type" not in node and len(node.get("allOf", [])) == 1:
        return type_of(node["allOf"][0], root)
    if "enum" in node:
        return "one of: " + ", ".join(str(v) for v in node["enum"])
    kind = node.get("type")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind in ("integer", "number"):
        return _number(node, kind)
    if kind == "array":
        return "list of " + type_of(node.get("items", {}), root)
    if kind == "object":
        return "mapping"
    if kind == "string":
        return "string"
    if "oneOf" in node or "anyOf" in node:
        return " or ".join(type_of(n, root) for n in node.get("oneOf", node.get("anyOf")))
    return kind or "any"


def keys_of(section: dict, root: dict) -> dict[str, dict]:
    """The keys of a config section (its ``properties`` and those of every ``allOf`` part), in schema order."""
    section = _resolve(section, root)
    out = {}
    for part in [section, *section.get("allOf", [])]:
        part = _resolve(part, root)
        out.update(part.get("properties", {}))
    return out


def _inline_keys(node: dict) -> dict[str, dict]:
    """The keys an inline object schema defines itself: its ``properties`` and those of its ``allOf`` parts that are
    not a ``$ref`` (a ``$ref`` to a shared definition such as ``co`` is documented where it is defined)."""
    if "$ref" in node:
        return {}
    out = {}
    for part in [node, *node.get("allOf", [])]:
        if "$ref" not in part:
            out.update(part.get("properties", {}))
    return out


def _nested(name: str, node: dict) -> Iterator[tuple[str, dict]]:
    items = node.get("items")
    for prefix, holder in ((f"{name}.", node), (f"{name}[].", items if isinstance(items, dict) else {})):
        for key, sub in _inline_keys(holder).items():
            yield prefix + key, sub
            yield from _nested(prefix + key, sub)


def key_rows(section: dict, root: dict) -> Iterator[tuple[str, dict]]:
    """Every documented key of a config section, in schema order: (name, subschema) for its keys (:func:`keys_of`),
    each followed by the keys of the inline objects under it, named by path (``burst.n``, ``cases[].pstar`` for the
    key ``pstar`` of every item of the list ``cases``)."""
    for key, sub in keys_of(section, root).items():
        yield key, sub
        yield from _nested(key, sub)


def description_of(node: dict, root: dict) -> str:
    """A key's description: its own, else that of the definition its ``$ref`` names ("" if neither has one)."""
    return node.get("description") or _resolve(node, root).get("description", "")


def stage_of(node: dict, root: dict) -> str:
    """A key's stage, ``analysis`` or ``simulation`` (annotation ``x-stage``; default ``simulation``)."""
    return node.get(STAGE) or _resolve(node, root).get(STAGE, "simulation")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render(schema: dict) -> str:
    """The Markdown of block ``config-keys``: per top-level section its description, then a table key | type and
    range | meaning, one row per key of :func:`key_rows` (its schema description; an analysis key, ``x-stage:
    analysis``, says so first)."""
    lines = []
    for name, node in schema["properties"].items():
        node_r = _resolve(node, schema)
        lines += [f"### `{name}`", ""]
        description = node.get("description") or node_r.get("description")
        if description:
            lines += [_cell(description), ""]
        rows = list(key_rows(node, schema))
        if not rows:
            lines += [f"Type: {type_of(node, schema)}.", ""]
            continue
        lines += ["| key | type and range | meaning |", "|---|---|---|"]
        for key, sub in rows:
            meaning = description_of(sub, schema)
            if stage_of(sub, schema) == "analysis":
                meaning = f"*{ANALYSIS_KEY}*: {meaning}"
            lines.append(f"| `{key}` | {_cell(type_of(sub, schema))} | {_cell(meaning)} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def load_schema(root: str | Path = ".") -> dict:
    """The config schema under ``root``."""
    return parse_repository_yaml(Path(root, SCHEMA).read_text())
