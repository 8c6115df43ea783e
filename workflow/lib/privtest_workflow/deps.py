"""The library files a job depends on, derived from what it imports.

Snakemake reruns a job when one of its input files changes, but it does not follow Python imports. So each job
declares as inputs the library files it would execute: the transitive closure, found statically with :mod:`ast`,
of the ``privtest`` imports of the code the job runs (its library module, its Snakemake script, or a notebook's
code cells). Importing ``privtest.a.b`` executes ``privtest/__init__.py`` and ``privtest/a/__init__.py`` before
``privtest/a/b.py``, so those count too. Nothing is listed by hand: moving or splitting modules changes the result
accordingly. Two conservative rules: imports inside functions count (they may run), and a string literal that is
exactly a module name, optionally with ``:attribute`` (the form ``importlib`` loaders take), counts as an import.
Third-party imports are ignored (the environment is pinned).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

_MODULE_STRING = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(:[A-Za-z_]\w*)?$")


class ImportGraph:
    """Static import graph of one package under a source root.

    Args:
        src: directory that holds the package (``src``); returned paths start with it (relative stays relative).
        package: the top-level package whose files are tracked.
    """

    def __init__(self, src: str | Path = "src", package: str = "privtest"):
        self.src = Path(src)
        self.package = package
        self._imports: dict[Path, frozenset[str]] = {}

    def module_file(self, name: str) -> Path | None:
        """The file executed when module ``name`` is imported (``a/b.py`` or ``a/b/__init__.py``), or None."""
        if name.split(".")[0] != self.package:
            return None
        base = self.src.joinpath(*name.split("."))
        for path in (base / "__init__.py", base.with_suffix(".py")):
            if path.is_file():
                return path
        return None

    def _module_name(self, path: Path) -> tuple[str, bool]:
        parts = list(path.relative_to(self.src).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        return ".".join(parts[:-1] if is_package else parts), is_package

    def _files_of(self, name: str) -> list[Path]:
        """Files executed by ``import name``: every package ``__init__`` on the way, then the module itself."""
        parts = name.split(".")
        files = [self.module_file(".".join(parts[: i + 1])) for i in range(len(parts))]
        return [f for f in files if f is not None]

    def _candidates(self, tree: ast.AST, module: str | None, is_package: bool) -> set[str]:
        """Absolute names that ``tree`` may import (from-import names may be attributes, not modules)."""
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    if module is None:
                        continue  # relative import outside the package: not ours
                    pkg = module.split(".") if is_package else module.split(".")[:-1]
                    base_parts = pkg[: len(pkg) - (node.level - 1)]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module
                names.add(base)
                names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_STRING.match(node.value):
                names.add(node.value.split(":")[0])
        return {n for n in names if n.split(".")[0] == self.package}

    def _imports_of_file(self, path: Path) -> frozenset[str]:
        if path not in self._imports:
            module, is_package = self._module_name(path)
            tree = ast.parse(path.read_text(), filename=str(path))
            self._imports[path] = frozenset(self._candidates(tree, module, is_package))
        return self._imports[path]

    def _closure(self, names: set[str]) -> list[str]:
        seen: set[Path] = set()
        todo = [f for n in names for f in self._files_of(n)]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            todo.extend(f for n in self._imports_of_file(path) for f in self._files_of(n))
        return sorted(str(p) for p in seen)

    def of_modules(self, *modules: str) -> list[str]:
        """Library files executed by importing each of ``modules`` (transitively), sorted.

        Raises:
            ValueError: if a module does not exist under ``src``.
        """
        for m in modules:
            if self.module_file(m) is None:
                raise ValueError(f"module {m!r} not found under {self.src}/ (expected {m.replace('.', '/')}.py).")
        return self._closure(set(modules))

    def of_source(self, code: str, filename: str = "<source>") -> list[str]:
        """Library files executed by running the top-level Python ``code`` (not part of the package), sorted."""
        tree = ast.parse(code, filename=filename)
        return self._closure(self._candidates(tree, None, False))

    def of_script(self, path: str | Path) -> list[str]:
        """Library files executed by running the script at ``path``, sorted."""
        return self.of_source(Path(path).read_text(), str(path))

    def of_notebook(self, path: str | Path) -> list[str]:
        """Library files executed by running the code cells of the notebook at ``path`` (IPython magics and shell
        lines, which start with ``%`` or ``!``, are skipped), sorted."""
        cells = json.loads(Path(path).read_text())["cells"]
        code = []
        for cell in cells:
            if cell["cell_type"] == "code":
                lines = "".join(cell["source"]).splitlines()
                code.append("\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!"))))
        return self.of_source("\n\n".join(code), str(path))
