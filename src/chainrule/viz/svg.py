"""SVG pictures of a backward graph: ``to_svg`` (chainrule's own layout) and ``draw``.

The SVG is shaped like Graphviz's: one ``<g class="node">`` per vertex and one
``<g class="edge">`` per edge, each with a ``<title>`` (the vertex id, or
``tail->head``), so the same tools and tests read both. The boxes keep torchviz's
colours: the output green, leaves blue, saved tensors orange, nodes grey.

    >>> x = chainrule.ones(2, requires_grad=True)
    >>> draw((x * 2).sum(), "graph.svg", params={"x": x})   # no Graphviz needed
    'graph.svg'
"""
import importlib.util
import os
import shutil
from html import escape

from .dot import render
from .graph import walk
from .layout import layout

CHAR_WIDTH = 6.02  # a 10px monospace character
LINE_HEIGHT = 12.0
PAD_X, PAD_Y = 6.0, 4.0
NODE_FILL = "lightgray"
COLOURS = {"darkolivegreen1": "#caff70", "darkolivegreen3": "#a2cd5a", "lightblue": "#add8e6",
           "orange": "#ffa500", "lightgray": "#d3d3d3"}


def box_size(label):
    lines = label.split("\n")
    return (max(len(line) for line in lines) * CHAR_WIDTH + 2 * PAD_X, len(lines) * LINE_HEIGHT + 2 * PAD_Y)


def graph_layout(graph):
    """The ``layout.Layout`` of a ``graph.Graph``: box sizes from the labels."""
    sizes = {vid: box_size(v.label) for vid, v in graph.vertices.items()}
    return layout(sizes, [(e.tail, e.head, e.directed) for e in graph.edges])


def _path_data(points):
    """Straight lines inside a layer, curves (vertical at both ends) between layers."""
    (x0, y0), rest = points[0], points[1:]
    parts = [f"M{x0:.1f},{y0:.1f}"]
    for k, (x, y) in enumerate(rest):
        px, py = points[k]
        if k % 2 == 0:
            if (x, y) != (px, py):  # a zero-length end would leave the arrowhead unoriented
                parts.append(f"L{x:.1f},{y:.1f}")
        else:
            mid = (py + y) / 2
            parts.append(f"C{px:.1f},{mid:.1f} {x:.1f},{mid:.1f} {x:.1f},{y:.1f}")
    return " ".join(parts)


def render_svg(graph, pos=None, vertex_attrs=None):
    """SVG text for a graph; ``vertex_attrs(vertex)`` may add attributes to each node's
    ``<g>`` (the HTML page adds its data there)."""
    pos = pos or graph_layout(graph)
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{pos.width:.0f}pt" height="{pos.height:.0f}pt" '
           f'viewBox="0 0 {pos.width:.1f} {pos.height:.1f}">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="black"/></marker></defs>',
           '<g id="graph0" class="graph" font-family="monospace" font-size="10">']
    for k, edge in enumerate(graph.edges):
        style = ' marker-end="url(#arrow)"' if edge.directed else ""
        if ("style", "dotted") in edge.attrs:
            style += ' stroke-dasharray="2,3"'
        out.append(f'<g id="edge{k}" class="edge" data-tail="{edge.tail}" data-head="{edge.head}">'
                   f'<title>{edge.tail}-&gt;{edge.head}</title>'
                   f'<path fill="none" stroke="black" d="{_path_data(pos.paths[k])}"{style}/></g>')
    for vid, vertex in graph.vertices.items():
        x, y, w, h = pos.boxes[vid]
        extra = "".join(f' {k}="{escape(v)}"' for k, v in (vertex_attrs(vertex) if vertex_attrs else ()))
        fill = COLOURS.get(vertex.fill or NODE_FILL, vertex.fill or NODE_FILL)
        out.append(f'<g id="node{vid}" class="node" data-id="{vid}" data-kind="{vertex.kind}"{extra}>'
                   f'<title>{vid}</title>'
                   f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" stroke="black"/>')
        for i, line in enumerate(vertex.label.split("\n")):
            ty = y + PAD_Y + (i + 0.8) * LINE_HEIGHT
            out.append(f'<text x="{x + PAD_X:.1f}" y="{ty:.1f}" xml:space="preserve">{escape(line, False)}</text>')
        out.append("</g>")
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def to_svg(tensor, params=None, show_attrs=False, show_saved=False):
    """SVG text of ``tensor``'s backward graph, laid out by chainrule (no Graphviz)."""
    return render_svg(walk(tensor, params, show_attrs, show_saved))


def has_graphviz():
    """Whether the ``graphviz`` package and its ``dot`` program are both installed."""
    return importlib.util.find_spec("graphviz") is not None and shutil.which("dot") is not None


def draw(tensor, path, params=None, show_attrs=False, show_saved=False, engine="auto"):
    """Writes a picture of ``tensor``'s backward graph to ``path`` and returns ``path``.

    ``.svg``: laid out by Graphviz when it is installed (``engine="auto"``, or
    ``"graphviz"``), else by chainrule (``engine="chainrule"`` always). ``.png`` and
    other formats need Graphviz (``pip install 'chainrule[viz]'`` and its ``dot``).
    """
    if engine not in ("auto", "graphviz", "chainrule"):
        raise ValueError(f"engine must be 'auto', 'graphviz' or 'chainrule', not {engine!r}")
    path = os.fspath(path)
    fmt = os.path.splitext(path)[1].lstrip(".").lower() or "svg"
    use_graphviz = engine == "graphviz" or (engine == "auto" and has_graphviz())
    if fmt != "svg" and not use_graphviz:
        if engine == "chainrule":
            raise ValueError(f"chainrule's own layout writes SVG only, not {fmt!r}")
        raise RuntimeError(f"writing {fmt!r} needs Graphviz: pip install 'chainrule[viz]' and the dot "
                           "program (apt-get install graphviz); or write an .svg file")
    graph = walk(tensor, params, show_attrs, show_saved)
    if use_graphviz:
        if not has_graphviz():
            raise RuntimeError("engine='graphviz' needs the graphviz package and its dot program: "
                               "pip install 'chainrule[viz]' and apt-get install graphviz")
        # the optional ``viz`` extra, imported only here: it costs ~60 ms, too much for
        # every ``import chainrule``
        import graphviz  # noqa: PLC0415
        data = graphviz.Source(render(graph)).pipe(format=fmt)
        with open(path, "wb") as f:
            f.write(data)
        return path
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_svg(graph))
    return path
