"""Nested containers of tensors ("pytrees"): flatten them to a list of leaves and back.

The function transforms take and return arbitrary nests of tuples, lists and dicts
(``grad(f)(params_dict)`` returns a dict of gradients). They work on the flat list of
leaves and rebuild the user's structure at the end:

>>> leaves, spec = tree_flatten({"w": w, "b": (b1, b2)})
>>> leaves                     # [w, b1, b2]  (dict keys in insertion order)
>>> tree_unflatten([gw, gb1, gb2], spec)
{'w': gw, 'b': (gb1, gb2)}

Anything that is not a tuple, list or dict is a leaf (tensors, numbers, None). Named
tuples keep their type.
"""


class TreeSpec:
    """The shape of a nest: its container type, keys (for dicts) and children's specs.
    A leaf's spec is ``LEAF``. Two nests have the same structure iff their specs are equal."""

    __slots__ = ("kind", "keys", "children", "num_leaves")

    def __init__(self, kind, keys, children):
        self.kind, self.keys, self.children = kind, keys, children
        self.num_leaves = 1 if kind is None else sum(c.num_leaves for c in children)

    def __eq__(self, other):
        return isinstance(other, TreeSpec) and (self.kind, self.keys, self.children) == \
            (other.kind, other.keys, other.children)

    def __hash__(self):
        return hash((self.kind, self.keys, self.children))

    def __repr__(self, indent=0):
        """PyTorch's form: ``TreeSpec(tuple, None, [*,\n  *])``."""
        if self.kind is None:
            return "*"
        context = None if self.keys is None else list(self.keys)
        children = (",\n" + " " * (indent + 2)).join(c.__repr__(indent + 2) for c in self.children)
        return f"TreeSpec({self.kind.__name__}, {context}, [{children}])"


def treespec_pprint(spec):
    """The short form PyTorch puts in some messages: ``(*, [*, *])``, ``{'a': *}``."""
    if spec.kind is None:
        return "*"
    parts = [treespec_pprint(c) for c in spec.children]
    if spec.kind is dict:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(spec.keys, parts)) + "}"
    if spec.kind is list:
        return "[" + ", ".join(parts) + "]"
    inner = ", ".join(parts) + ("," if len(parts) == 1 else "")
    return f"({inner})" if spec.kind is tuple else f"{spec.kind.__name__}({inner})"


LEAF = TreeSpec(None, None, ())


def _children(tree):
    """``(kind, keys, children)`` for a container, None for a leaf."""
    if isinstance(tree, dict):
        keys = tuple(tree)
        return dict, keys, [tree[k] for k in keys]
    if isinstance(tree, (tuple, list)):
        return type(tree), None, list(tree)
    return None


def tree_flatten(tree):
    """``(leaves, spec)``; ``tree_unflatten(leaves, spec)`` gives ``tree`` back."""
    leaves = []

    def walk(node):
        parts = _children(node)
        if parts is None:
            leaves.append(node)
            return LEAF
        kind, keys, children = parts
        return TreeSpec(kind, keys, tuple(walk(c) for c in children))

    return leaves, walk(tree)


def tree_unflatten(leaves, spec):
    """Builds a nest of ``spec``'s structure holding ``leaves`` in order."""
    leaves = iter(leaves)

    def build(s):
        if s.kind is None:
            return next(leaves)
        children = [build(c) for c in s.children]
        if s.kind is dict:
            return dict(zip(s.keys, children))
        if s.kind is tuple or s.kind is list:
            return s.kind(children)
        return s.kind(*children)  # a named tuple

    return build(spec)


def tree_leaves(tree):
    return tree_flatten(tree)[0]


def tree_map(fn, tree):
    """The same nest with ``fn`` applied to every leaf."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)
