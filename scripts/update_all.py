"""Rewrites ``__all__`` at the end of src/chainrule/__init__.py from the names it imports
and defines, so the public namespace is listed once, explicitly, and ruff stays quiet.

    python scripts/update_all.py
"""
import ast
import pathlib

INIT = pathlib.Path(__file__).resolve().parents[1] / "src" / "chainrule" / "__init__.py"


def public_names(source):
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
    return sorted((n for n in names if not n.startswith("_")), key=str.lower)


def main():
    source = INIT.read_text()
    head = source[:source.index("__all__ = [")] if "__all__ = [" in source else source
    tail = source[source.index("\n]\n", len(head)) + 3:] if "__all__ = [" in source else ""
    if tail.strip():  # what follows __all__ would be lost, and its names left out of it
        raise SystemExit(f"{INIT}: move the code after __all__ above it first:\n{tail}")
    lines, line = [], "   "
    for name in public_names(head):
        item = f' "{name}",'
        if len(line) + len(item) > 100:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    INIT.write_text(head.rstrip("\n") + "\n\n\n__all__ = [\n" + "\n".join(lines) + "\n]\n")


if __name__ == "__main__":
    main()
