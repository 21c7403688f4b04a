"""``to_dot``: the backward graph as Graphviz DOT text, drawn as torchviz's ``make_dot``.

The text is what ``torchviz.make_dot(...).source`` gives for the same program under
PyTorch, statement for statement, except for the node ids: torchviz uses ``id()`` of
each object, chainrule numbers them in the order they first appear (so the text is the
same every run and can be golden-tested).

    >>> x = chainrule.ones(2, requires_grad=True)
    >>> print(to_dot((x * 2).sum(), params={"x": x}))
    digraph {
        graph [size="12,12"]
        node [align=left fontname=monospace fontsize=10 height=0.2 ranksep=0.1 shape=box style=filled]
        0 [label="
     ()" fillcolor=darkolivegreen1]
        1 [label=SumBackward0]
    ...

No Graphviz is needed to make the text; ``draw`` renders it (with Graphviz when it is
installed, else with chainrule's own layout).
"""
import re

from .graph import walk

NODE_ATTRS = (("align", "left"), ("fontname", "monospace"), ("fontsize", "10"), ("height", "0.2"),
              ("ranksep", "0.1"), ("shape", "box"), ("style", "filled"))
_ID = re.compile(r"([a-zA-Z_\x80-\U0010ffff][a-zA-Z0-9_\x80-\U0010ffff]*|-?(\.[0-9]+|[0-9]+(\.[0-9]*)?))\Z")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}
_UNESCAPED_QUOTE = re.compile(r'(?<!\\)"')


def quote(text):
    """A DOT identifier as the ``graphviz`` package writes it: bare when it may be,
    else in double quotes (with unescaped quotes escaped)."""
    if _ID.match(text) and text.lower() not in _KEYWORDS:
        return text
    return '"' + _UNESCAPED_QUOTE.sub(r'\\"', text) + '"'


def _attrs(pairs):
    return " ".join(f"{quote(k)}={quote(v)}" for k, v in pairs)


def graph_size(statements):
    """torchviz's ``resize_graph``: 0.15 inch a statement, at least 12 inches."""
    return str(max(12, len(statements) * 0.15))


def render(graph):
    """DOT text for a ``graph.Graph``."""
    size = graph_size(graph.statements)
    lines = ["digraph {", f"\tgraph [size={quote(size + ',' + size)}]", f"\tnode [{_attrs(NODE_ATTRS)}]"]
    for kind, item in graph.statements:
        if kind == "node":
            extra = [("fillcolor", item.fill)] if item.fill else []
            lines.append(f"\t{quote(item.id)} [{_attrs([('label', item.label)] + extra)}]")
        else:
            attrs = f" [{_attrs(item.attrs)}]" if item.attrs else ""
            lines.append(f"\t{quote(item.tail)} -> {quote(item.head)}{attrs}")
    return "\n".join(lines) + "\n}\n"


def to_dot(tensor, params=None, show_attrs=False, show_saved=False):
    """DOT text of ``tensor``'s backward graph (``tensor`` may be a tuple of outputs).

    ``params``: names for leaves, a dict or ``model.named_parameters()``; ``show_attrs``:
    each node's saved values in its box; ``show_saved``: the saved tensors as orange
    boxes joined to their node by an undirected edge.
    """
    return render(walk(tensor, params, show_attrs, show_saved))
