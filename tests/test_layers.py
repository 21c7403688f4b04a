"""The package's layers (docs/architecture.md): each module imports only the layers below
its own, at module level, and no two modules import each other round a cycle.

The imports are read with ``ast`` from every module under src/chainrule, so the check sees
what the code says, not what happens to be imported at run time. Three kinds of violation:

- ``upward``: a module imports one of a higher layer (or the package's namespaces, which
  nothing inside the package imports);
- ``deferred``: an import of a chainrule module inside a function (done to dodge a cycle);
- ``cycle``: modules that import each other round a loop (a strongly connected component
  of the module-level import graph).

There are none, and any new one fails (issue 11 paid off the last of them). Inside the ops
layer the op families are held to their order too (``OP_LAYERS``).
"""
import ast
import pathlib
import sys

import pytest

SOURCE = pathlib.Path(__file__).resolve().parent.parent / "src"

# lowest first; a module belongs to the layer of the longest prefix that names it
LAYERS = (
    ("core", ("chainrule._core", "chainrule.return_types")),
    ("autograd", ("chainrule._autograd",)),
    ("ops", ("chainrule._ops",)),
    ("transforms", ("chainrule.autograd.forward_ad", "chainrule._functorch")),
    ("api", ("chainrule.autograd", "chainrule.func", "chainrule.nn", "chainrule.optim", "chainrule.utils",
             "chainrule.serialization", "chainrule._weights_only_unpickler", "chainrule.viz", "chainrule.random")),
    ("namespaces", ("chainrule", "chainrule.linalg", "chainrule.special", "chainrule.cuda", "chainrule.backends")),
    # the programs ``python -m chainrule`` runs: they use the package as a user does (``import torch``
    # meaning chainrule), so they sit above its namespaces
    ("programs", ("chainrule._demo", "chainrule.__main__")),
)


def module_name(path):
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted((SOURCE / "chainrule").rglob("*.py"))}


def layer_of(module):
    best = max((prefix for _, prefixes in LAYERS for prefix in prefixes
                if module == prefix or module.startswith(prefix + ".")), key=len)
    return next(i for i, (_, prefixes) in enumerate(LAYERS) if best in prefixes)


def _targets(module, node):
    """The chainrule modules an import statement names (``from . import x`` names x when x is
    a module, else the package)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "chainrule"]
    if node.level:
        package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
    elif (node.module or "").split(".")[0] == "chainrule":
        base = node.module
    else:
        return []
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]


def _with_packages(module, targets):
    """Each target, and the packages above it that ``module`` is not in (but the top one):
    importing ``chainrule.a.b`` runs ``a/__init__.py`` first, so from outside ``a`` the
    package's own imports count too (inside it, they have run or are running)."""
    for target in targets:
        parts = target.split(".")
        for i in range(2, len(parts)):
            package = ".".join(parts[:i])
            if not (module == package or module.startswith(package + ".")):
                yield package
        yield target


def imports():
    """{module: set of modules it imports at module level}, [(module, imported, line)] of
    imports inside functions."""
    top, deferred = {m: set() for m in MODULES}, []

    def visit(module, node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                targets = _targets(module, child)
                for target in (targets if inside else _with_packages(module, targets)):
                    if target in MODULES and target != module:
                        if inside:
                            deferred.append((module, target, child.lineno))
                        else:
                            top[module].add(target)
            visit(module, child, inside)

    for module, path in MODULES.items():
        visit(module, ast.parse(path.read_text(), str(path)), False)
    return top, deferred


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def violations():
    """(upward arrows, deferred imports, cycles) as the debt file lists them."""
    top, deferred = imports()
    upward = {(m, t) for m, targets in top.items() for t in targets if layer_of(t) > layer_of(m)}
    return upward, {(m, t) for m, t, _ in deferred}, {frozenset(c) for c in cycles(top)}


def _short(module):
    return module.replace("chainrule.", "", 1) if module != "chainrule" else "chainrule"


def test_every_module_has_a_layer():
    unplaced = [m for m in MODULES if not any(m == p or m.startswith(p + ".") for _, ps in LAYERS for p in ps)]
    assert not unplaced, f"modules in no layer of LAYERS: {unplaced}"


@pytest.mark.parametrize("kind", ("upward", "deferred", "cycle"))
def test_no_violations(kind):
    upward, deferred, found = violations()
    now = {"upward": sorted((_short(m), _short(t)) for m, t in upward),
           "deferred": sorted((_short(m), _short(t)) for m, t in deferred),
           "cycle": sorted(sorted(map(_short, c)) for c in found)}[kind]
    assert not now, f"{kind} imports (see docs/architecture.md): {now}"


# inside the ops layer, lowest first: what every family builds on, then the families
OP_LAYERS = (
    ("common", tuple(f"chainrule._ops.{m}" for m in ("registry", "batching", "tangents", "operands", "inplace",
                                                      "methods", "random_kernels", "creation", "legacy"))),
    ("pointwise", ("chainrule._ops.pointwise",)),
    ("index", ("chainrule._ops.index",)),
    ("shape", ("chainrule._ops.shape",)),
    ("reduce", ("chainrule._ops.reduce",)),
    ("linalg", ("chainrule._ops.linalg",)),
    ("random", ("chainrule._ops.random",)),
    ("nn", ("chainrule._ops.nn",)),
)


def op_layer_of(module):
    return next((i for i, (_, prefixes) in enumerate(OP_LAYERS)
                 if any(module == p or module.startswith(p + ".") for p in prefixes)), None)


def test_every_op_module_has_a_family():
    unplaced = [m for m in MODULES if m.startswith("chainrule._ops.") and op_layer_of(m) is None]
    assert not unplaced, f"_ops modules in no entry of OP_LAYERS: {unplaced}"


def test_op_families_import_only_those_below():
    """No debt here: a family imports the common modules and the families before it only."""
    top, _ = imports()
    upward = sorted((_short(m), _short(t)) for m, targets in top.items() if op_layer_of(m) is not None
                    for t in targets if op_layer_of(t) is not None and op_layer_of(t) > op_layer_of(m))
    assert not upward, f"op families importing a later one (see OP_LAYERS): {upward}"


def test_the_check_sees_a_violation(tmp_path, monkeypatch):
    """The analysis itself: an upward arrow, a deferred import and a cycle, in a made-up package."""
    package = tmp_path / "chainrule"
    (package / "_ops").mkdir(parents=True)
    (package / "_core").mkdir()
    for init in ("__init__.py", "_ops/__init__.py", "_core/__init__.py"):
        (package / init).write_text("")
    (package / "_core" / "tensor.py").write_text("from .._ops import registry\n")
    (package / "_ops" / "registry.py").write_text("from .._core.tensor import Tensor\n\ndef f():\n    from .. import nn\n")
    (package / "nn.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "SOURCE", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "MODULES", {module_name(p): p for p in package.rglob("*.py")})
    upward, deferred, found = violations()
    assert upward == {("chainrule._core.tensor", "chainrule._ops.registry"), ("chainrule._core.tensor", "chainrule._ops")}
    assert deferred == {("chainrule._ops.registry", "chainrule.nn")}
    assert found == {frozenset({"chainrule._core.tensor", "chainrule._ops.registry"})}
