"""The library files a job depends on, derived from what it imports.

Snakemake reruns a job when one of its input files changes, but it does not follow Python imports. So each job
declares as inputs the library files it would execute: the transitive closure, found statically with :mod:`ast`,
of the ``privtest`` and ``privtest_artifact`` imports of the code the job runs (its library module, its Snakemake
script, or a notebook's
code cells). Importing ``privtest.a.b`` executes ``privtest/__init__.py`` and ``privtest/a/__init__.py`` before
``privtest/a/b.py``, so those count too. Nothing is listed by hand: moving or splitting modules changes the result
accordingly. Two conservative rules: imports inside functions count (they may run), and a string literal that is
exactly a module name, optionally with ``:attribute`` (the form ``importlib`` loaders take), counts as an import.
A package ``__init__`` may export names lazily (PEP 562) through a literal dict ``_EXPORTS = {name: module}``: then
``from package import name`` depends on that module, ``import package`` (whose attributes the code may use) on all
of them, and the dict's own strings are not imports of the ``__init__``. An import the walker cannot resolve
statically (``importlib.import_module``/``__import__`` with a computed name, ``%run`` in a notebook) raises instead
of being missed; the Snakemake scripts that load a job's module by name declare that module themselves.
Third-party imports are ignored (the environment is pinned).
"""

from __future__ import annotations

import ast
import atexit
import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

_MODULE_STRING = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(:[A-Za-z_]\w*)?$")


class UnresolvedImport(ValueError):
    """Code imports a module whose name is computed at run time: its dependencies cannot be derived statically."""


def _exports(tree: ast.AST) -> dict[str, str]:
    """The literal ``_EXPORTS = {name: module}`` dict of a package ``__init__`` (empty if none)."""
    for node in getattr(tree, "body", []):
        if (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and any(
                isinstance(t, ast.Name) and t.id == "_EXPORTS"
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            )
            and isinstance(node.value, ast.Dict)
        ):
            return {
                k.value: v.value
                for k, v in zip(node.value.keys, node.value.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(v, ast.Constant)
            }
    return {}


def _dynamic_imports(tree: ast.AST) -> list[int]:
    """Line numbers of ``importlib.import_module(x)`` / ``__import__(x)`` calls whose module name is not a literal."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__") and not (
                node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            ):
                lines.append(node.lineno)
    return lines


class ImportGraph:
    """Static import graph of the packages under a source root.

    Args:
        src: directory that holds the packages (``src``); returned paths start with it (relative stays relative).
        packages: the top-level packages whose files are tracked (a name or a tuple of names: the library
            ``privtest`` and the artifact ``privtest_artifact``).
    """

    def __init__(self, src: str | Path = "src", packages: str | tuple[str, ...] = ("privtest", "privtest_artifact")):
        self.src = Path(src)
        self.packages = (packages,) if isinstance(packages, str) else tuple(packages)
        self._imports: dict[Path, frozenset[str]] = {}
        self._exports: dict[str, dict[str, str]] = {}
        # the outputs' stages reach the same sets of library modules; the files are not edited while Snakemake plans
        self._closures: dict[frozenset[str], list[str]] = {}

    def exports(self, package: str) -> dict[str, str]:
        """The lazy exports ``{name: module}`` of ``package``'s ``__init__`` (see the module docstring)."""
        if package not in self._exports:
            path = self.module_file(package)
            is_init = path is not None and path.name == "__init__.py"
            self._exports[package] = _exports(ast.parse(path.read_text())) if is_init else {}
        return self._exports[package]

    def module_file(self, name: str) -> Path | None:
        """The file executed when module ``name`` is imported (``a/b.py`` or ``a/b/__init__.py``), or None."""
        if name.split(".")[0] not in self.packages:
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
                for alias in node.names:  # `import pkg`: the code may use any lazily exported attribute
                    if "." not in alias.name and alias.name in self.packages:
                        names.update(self.exports(alias.name).values())
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
                if base is not None and base.split(".")[0] in self.packages:
                    lazy = self.exports(base)
                    star = any(alias.name == "*" for alias in node.names)
                    names.update(m for n, m in lazy.items() if star or n in {a.name for a in node.names})
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_STRING.match(node.value):
                names.add(node.value.split(":")[0])
        return {n for n in names if n.split(".")[0] in self.packages}

    def _imports_of_file(self, path: Path) -> frozenset[str]:
        if path not in self._imports:
            module, is_package = self._module_name(path)
            tree = ast.parse(path.read_text(), filename=str(path))
            if not (is_package and _exports(tree)):  # a lazy-export __init__ imports its table's modules by name
                _refuse_dynamic(tree, str(path))
            names = self._candidates(tree, module, is_package)
            if is_package:  # the lazy-export table names modules without importing them
                names -= set(_exports(tree).values()) - self._imported_explicitly(tree)
            self._imports[path] = frozenset(names)
        return self._imports[path]

    @staticmethod
    def _imported_explicitly(tree: ast.AST) -> set[str]:
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        return names

    def _closure(self, names: set[str]) -> list[str]:
        key = frozenset(names)
        if key not in self._closures:
            self._closures[key] = self._walk(key)
        return list(self._closures[key])

    def _walk(self, names: frozenset[str]) -> list[str]:
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

    def of_source(self, code: str, filename: str = "<source>", dynamic_ok: bool = False) -> list[str]:
        """Library files executed by running the top-level Python ``code`` (not part of the package), sorted.

        Raises:
            UnresolvedImport: if the code imports a computed module name (unless ``dynamic_ok``: the caller then
                declares that module itself, as the simulate and check rules do).
        """
        tree = ast.parse(code, filename=filename)
        if not dynamic_ok:
            _refuse_dynamic(tree, filename)
        return self._closure(self._candidates(tree, None, False))

    def of_script(self, path: str | Path) -> list[str]:
        """Library files executed by running the Snakemake script at ``path``, sorted. A script may load a module by
        a computed name: the rule running it declares that module (``of_modules``)."""
        return self.of_source(Path(path).read_text(), str(path), dynamic_ok=True)

    def of_notebook(self, path: str | Path) -> list[str]:
        """Library files executed by running the code cells of the notebook at ``path`` (IPython magics and shell
        lines, which start with ``%`` or ``!``, are skipped), sorted."""
        cells = json.loads(Path(path).read_text())["cells"]
        code = []
        for cell in cells:
            if cell["cell_type"] == "code":
                lines = "".join(cell["source"]).splitlines()
                for ln in lines:
                    if ln.lstrip().startswith(("%run", "%load")):
                        raise UnresolvedImport(f"{path}: {ln.strip()!r} runs code the dependencies cannot follow")
                code.append("\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!"))))
        return self.of_source("\n\n".join(code), str(path))


def _refuse_dynamic(tree: ast.AST, filename: str) -> None:
    lines = _dynamic_imports(tree)
    if lines:
        raise UnresolvedImport(
            f"{filename}, line {lines[0]}: a module imported by a computed name cannot be tracked as a dependency; "
            "import it by name"
        )


class StageCode:
    """What one stage function of an output module executes, for its job's inputs and params.

    Per-output modules hold three stages (``simulate``, ``analyse``, ``claims``) run by three jobs; tracking the
    module file would rerun the expensive simulation when only a claim changed. So inside the *granular* packages
    (the artifact, ``privtest_artifact``) dependencies are followed per top-level definition: from the stage
    function, every top-level function, class or assignment it names, in its own module or, through an import, in
    another granular module, transitively. Their source (``ast.unparse`` without docstrings, so a comment or a
    docstring edit reruns nothing) is the job's ``code`` (a param: Snakemake reruns the job when it changes), and the
    files of every other module they reach (the library ``privtest``, whose formulas any edit may change) are the
    job's inputs, followed by whole-file imports (:meth:`ImportGraph.of_modules`) from there, with the package
    ``__init__`` files on the way. A name that cannot be resolved to a definition falls back to its whole module.
    """

    def __init__(self, graph: ImportGraph, granular: tuple[str, ...] = ("privtest_artifact",)):
        self.graph = graph
        self.granular = granular
        self._modules: dict[str, tuple[dict[str, ast.AST], dict[str, tuple[str, str | None]]]] = {}
        # per definition (module, name), computed once however many stages reach it: what it refers to (the
        # definitions to follow, the modules reached whole) and its source (a Snakemake run asks for every stage)
        self._refs: dict[tuple[str, str], tuple[tuple[tuple[str, str], ...], frozenset[str]]] = {}
        self._sources: dict[tuple[str, str], str] = {}

    def _is_granular(self, module: str) -> bool:
        return module.split(".")[0] in self.granular and self.graph.module_file(module) is not None

    def _parse(self, module: str):
        """(top-level definitions by name, import bindings: local name -> (module, attribute or None))."""
        if module not in self._modules:
            path = self.graph.module_file(module)
            tree = ast.parse(path.read_text(), filename=str(path))
            defs: dict[str, ast.AST] = {}
            binds: dict[str, tuple[str, str | None]] = {}
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    defs[node.name] = node
                elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                defs[n.id] = node
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        if a.asname:
                            binds[a.asname] = (a.name, None)
                        else:
                            binds[a.name.split(".")[0]] = (a.name.split(".")[0], None)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for a in node.names:
                        full = f"{node.module}.{a.name}"
                        if self.graph.module_file(full) is not None:
                            binds[a.asname or a.name] = (full, None)  # a submodule
                        else:
                            binds[a.asname or a.name] = (node.module, a.name)
            self._modules[module] = (defs, binds)
        return self._modules[module]

    @staticmethod
    def _source(node: ast.AST) -> str:
        """The definition's code without docstrings (unparsed with them left out, then put back: ``node`` is as
        it was, without a copy of the tree)."""
        stripped = []
        for n in ast.walk(node):
            body = getattr(n, "body", None)
            if (
                isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                stripped.append((n, body))
                n.body = body[1:] or [ast.Pass()]
        try:
            return ast.unparse(node)
        finally:
            for n, body in stripped:
                n.body = body

    def of(self, module: str, name: str) -> tuple[list[str], str]:
        """(files, code) of the definition ``name`` of ``module`` (see the class docstring).

        Raises:
            ValueError: if ``module`` is not a module of a granular package or does not define ``name``.
        """
        if not self._is_granular(module) or name not in self._parse(module)[0]:
            raise ValueError(f"{module!r} defines no top-level {name!r} to follow.")
        whole: set[str] = set()
        seen: set[tuple[str, str]] = set()
        todo = [(module, name)]
        while todo:
            mod, nm = todo.pop()
            if (mod, nm) in seen:
                continue
            defs, binds = self._parse(mod)
            if nm not in defs:
                if nm in binds:  # a re-exported name: follow the import
                    target, attr = binds[nm]
                    todo.extend(self._resolve(target, attr, whole))
                else:
                    whole.add(mod)
                continue
            seen.add((mod, nm))
            follow, reached = self._references(mod, nm)
            todo.extend(follow)
            whole |= reached
        files = set(self.graph.of_modules(*sorted(m for m in whole if self.graph.module_file(m) is not None)))
        for mod, _ in seen:  # importing a granular module runs its packages' __init__ files
            parts = mod.split(".")
            for i in range(1, len(parts)):
                init = self.graph.module_file(".".join(parts[:i]))
                if init is not None:
                    files.add(str(init))
        code = "\n\n".join(f"# {mod}.{nm}\n{self._source_of(mod, nm)}" for mod, nm in sorted(seen))
        return sorted(files), code

    def _references(self, mod: str, nm: str) -> tuple[tuple[tuple[str, str], ...], frozenset[str]]:
        """What the definition ``nm`` of ``mod`` names: (the definitions to follow, the modules reached whole)."""
        if (mod, nm) not in self._refs:
            defs, binds = self._parse(mod)
            todo: list[tuple[str, str]] = []
            whole: set[str] = set()
            for n in ast.walk(defs[nm]):
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in binds:
                    target, attr = binds[n.value.id]
                    if attr is None:  # module.attr
                        todo.extend(self._resolve(target, n.attr, whole))
                if isinstance(n, ast.Name):
                    if n.id in defs and n.id != nm:
                        todo.append((mod, n.id))
                    elif n.id in binds:
                        target, attr = binds[n.id]
                        if attr is not None:
                            todo.extend(self._resolve(target, attr, whole))
                        elif not self._is_granular(target):
                            whole.add(target)
            self._refs[mod, nm] = (tuple(todo), frozenset(whole))
        return self._refs[mod, nm]

    def _source_of(self, mod: str, nm: str) -> str:
        """:meth:`_source` of the definition ``nm`` of ``mod``."""
        if (mod, nm) not in self._sources:
            self._sources[mod, nm] = self._source(self._parse(mod)[0][nm])
        return self._sources[mod, nm]

    def _resolve(self, module: str, attr: str, whole: set[str]) -> list[tuple[str, str]]:
        """The definitions to follow for ``module.attr``: itself in a granular module, else its module as a whole."""
        if module.split(".")[0] not in self.graph.packages:
            return []  # third-party
        sub = f"{module}.{attr}"
        if self.graph.module_file(sub) is not None:
            if not self._is_granular(sub):
                whole.add(sub)
            return []  # a submodule named without using it: its uses are attribute accesses, followed there
        if self._is_granular(module):
            return [(module, attr)]
        whole.add(module)
        return []


class SavedQueries:
    """The walkers' answers kept on disk between Snakemake runs: every run plans every job, and the walk (parsing
    each module of the packages, each script and notebook) costs about as much as the rest of the planning.

    The answers are valid while the files the walkers read are unchanged, so the table is keyed by the SHA-256 of
    every file under ``roots`` (the packages' sources, the notebooks, the workflow asking; symbolic links followed),
    of this module and of the Python version (``ast.unparse`` writes the stages' code); a run whose key differs (an
    edit anywhere there) starts an empty table. The table is written once, at exit, if the run added an answer and
    the key is still the same (no file was saved while Snakemake planned), to a temporary file then renamed (a
    reader never sees a partial table; an unreadable or malformed one is ignored). An answer that raises is not
    kept. Where a file under ``roots`` cannot be read, nothing is kept: every answer is walked.

    Args:
        path: the JSON file (under Snakemake's ``.snakemake/``, which a copy of a built repository carries along).
        roots: the directories whose files the answers depend on.
    """

    def __init__(self, path: str | Path, roots: tuple[str | Path, ...]):
        self.path = Path(path)
        self.roots = tuple(map(Path, roots))
        self.key = self._key()
        self._answers: dict[str, object] = {}
        self._added = False
        try:
            saved = json.loads(self.path.read_text())
            if self.key is not None and saved["key"] == self.key and isinstance(saved["answers"], dict):
                self._answers = saved["answers"]
        except Exception:  # missing, unreadable or malformed: walk again
            pass
        atexit.register(self.save)

    def _key(self) -> str | None:
        """SHA-256 of the files under the roots, this module and the Python version; None if a file is unreadable."""
        digest = hashlib.sha256(f"{sys.version}\0".encode())
        try:
            digest.update(Path(__file__).read_bytes())
            for root in self.roots:
                seen: set[str] = set()
                for folder, dirs, files in os.walk(root, followlinks=True):
                    real = os.path.realpath(folder)
                    if real in seen:  # a link back up the tree
                        dirs.clear()
                        continue
                    seen.add(real)
                    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                    for name in sorted(files):
                        f = Path(folder, name)
                        digest.update(f"\0{f.relative_to(root.parent)}\0".encode())
                        digest.update(f.read_bytes())
        except OSError:
            return None
        return digest.hexdigest()

    def get(self, query: str, answer):
        """The saved answer to ``query`` (a string naming the question), else ``answer()`` (JSON-serializable:
        tuples come back as lists), saved."""
        if query not in self._answers:
            self._answers[query] = json.loads(json.dumps(answer()))
            self._added = self.key is not None
        return self._answers[query]

    def save(self) -> None:
        """Write the table if this run added an answer and no file changed since the run began (once; at exit; an
        unwritable directory is skipped)."""
        if not self._added or self._key() != self.key:
            return
        self._added = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        except OSError:  # a read-only directory: the next run walks again
            return
        try:
            with os.fdopen(fd, "w") as out:
                json.dump({"key": self.key, "answers": self._answers}, out)
            os.replace(tmp, self.path)
        except OSError:  # a full disk: likewise
            Path(tmp).unlink(missing_ok=True)
