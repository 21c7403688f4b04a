"""chainrule.viz pictures: DOT as torchviz draws it, SVG laid out by chainrule.

Golden files live in tests/golden/viz/; after an intended change, rewrite them with
``CHAINRULE_REGEN_GOLDEN=1 pytest -n0 tests/test_viz.py`` and read the diff.
"""
import collections
import json
import os
import pathlib
import re
import xml.etree.ElementTree as ET

import pydot
import pytest

import chainrule
import chainrule.viz as viz
from chainrule.viz import dot as viz_dot
from chainrule.viz import graph as viz_graph
from chainrule.viz import html as viz_html
from chainrule.viz import svg as viz_svg
from helpers import require_torch
from viz_programs import mlp, seed_000_scalar, seed_000_vector, seed_004_scalar, seed_004_vector

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden" / "viz"
DRAWN = [seed_000_scalar, seed_000_vector, seed_004_scalar, seed_004_vector, mlp]
SVG_NS = "{http://www.w3.org/2000/svg}"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pydot's use of pyparsing


def check_golden(name, text):
    path = GOLDEN / name
    if os.environ.get("CHAINRULE_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def _parse_dot(text):
    (graph,) = pydot.graph_from_dot_data(text)
    labels, fills = {}, {}
    for node in graph.get_nodes():
        label = node.get("label")
        if label is not None:
            labels[node.get_name()] = label.strip('"')
            fills[node.get_name()] = node.get("fillcolor")
    edges = [(e.get_source(), e.get_destination(), e.get("dir"), e.get("style")) for e in graph.get_edges()]
    return labels, fills, edges


def _torch_structure(out):
    """(consumer, input) name pairs of torch's graph, with AccumulateGrad's leaf: what
    ``make_dot`` draws, read from ``next_functions`` directly."""
    pairs = collections.Counter()
    seen, stack = set(), [out.grad_fn]
    while stack:
        fn = stack.pop()
        if fn in seen:
            continue
        seen.add(fn)
        if hasattr(fn, "variable"):
            pairs[("AccumulateGrad", "leaf " + str(tuple(fn.variable.shape)))] += 1
        for child, _ in fn.next_functions:
            if child is not None:
                pairs[(type(fn).__name__, type(child).__name__)] += 1
                stack.append(child)
    return pairs


def _dot_structure(text):
    labels, fills, edges = _parse_dot(text)
    pairs = collections.Counter()
    for tail, head, direction, style in edges:
        if direction or style or labels[head].startswith("\n"):  # saved, view, or the output
            continue
        if fills[tail] == "lightblue":
            shape = tuple(int(n) for n in labels[tail].split("(")[1].rstrip(")").split(",") if n.strip())
            pairs[(labels[head], "leaf " + str(shape))] += 1
        else:
            pairs[(labels[head], labels[tail])] += 1
    return pairs


@pytest.mark.parametrize("program", DRAWN, ids=lambda p: p.__name__)
def test_dot_matches_golden(program):
    out, params, _ = program(chainrule)
    check_golden(f"{program.__name__}.dot", viz.to_dot(out, params=params))


@pytest.mark.parametrize("program", [seed_004_scalar, mlp], ids=lambda p: p.__name__)
def test_dot_with_saved_tensors_matches_golden(program):
    out, params, _ = program(chainrule)
    check_golden(f"{program.__name__}_saved.dot", viz.to_dot(out, params, show_attrs=True, show_saved=True))


@pytest.mark.parametrize("program", DRAWN, ids=lambda p: p.__name__)
def test_dot_has_torch_graph_structure(program):
    torch = require_torch()
    out, params, _ = program(chainrule)
    t_out, _, _ = program(torch)
    assert _dot_structure(viz.to_dot(out, params)) == _torch_structure(t_out)


def test_dot_parses_and_names_leaves_and_output():
    out, params, _ = mlp(chainrule)
    labels, _, edges = _parse_dot(viz.to_dot(out, params))
    kinds = sorted(label for label in labels.values() if "\n" in label)
    assert kinds == ["\n ()", "0.bias\n (4)", "0.weight\n (4, 3)", "2.bias\n (1)", "2.weight\n (1, 4)"]
    assert len(edges) == 14 and all(tail in labels and head in labels for tail, head, _, _ in edges)


def test_params_from_named_parameters_iterator():
    chainrule.manual_seed(0)
    net = chainrule.nn.Linear(2, 1)
    out = net(chainrule.ones(1, 2)).sum()
    assert viz.to_dot(out, net.named_parameters()) == viz.to_dot(out, dict(net.named_parameters()))
    with pytest.raises(TypeError, match="params must map names to tensors"):
        viz.to_dot(out, {"w": 3})


def test_view_output_and_tuple_of_outputs():
    a = chainrule.ones(4, requires_grad=True)
    v = (a * 2).view(2, 2)
    labels, _, edges = _parse_dot(viz.to_dot(v, {"a": a}))
    assert [e for e in edges if e[3] == "dotted"]  # the base, dotted, as torchviz draws it
    b = a.exp()
    text = viz.to_dot((b.sin(), b.cos()), {"a": a})
    assert text.count("fillcolor=darkolivegreen1") == 2 and text.count("ExpBackward0") == 1


def test_quote_as_the_graphviz_package():
    assert viz_dot.quote("MulBackward0") == "MulBackward0"
    assert viz_dot.quote("12") == "12" and viz_dot.quote("node") == '"node"'
    assert viz_dot.quote('a "b"') == '"a \\"b\\""' and viz_dot.quote("x\n (2)") == '"x\n (2)"'


def test_long_chain_needs_no_recursion():
    x = chainrule.ones(1, requires_grad=True)
    y = x
    for _ in range(3000):
        y = y * 1.0
    text = viz.to_dot(y)
    assert text.count("MulBackward0") == 3000


# --- SVG ------------------------------------------------------------------------------------

def _svg_groups(text):
    root = ET.fromstring(text.encode("utf-8"))
    groups = root.iter(SVG_NS + "g")
    nodes, edges = {}, []
    for g in groups:
        if g.get("class") == "node":
            nodes[g.get("data-id")] = "\n".join(t.text or "" for t in g.iter(SVG_NS + "text"))
        elif g.get("class") == "edge":
            edges.append((g.get("data-tail"), g.get("data-head")))
    return nodes, edges


@pytest.mark.parametrize("program", DRAWN, ids=lambda p: p.__name__)
def test_svg_matches_golden(program):
    out, params, _ = program(chainrule)
    check_golden(f"{program.__name__}.svg", viz.to_svg(out, params))


@pytest.mark.parametrize("program", DRAWN, ids=lambda p: p.__name__)
def test_svg_is_xml_with_every_node_and_edge(program):
    out, params, _ = program(chainrule)
    labels, _, dot_edges = _parse_dot(viz.to_dot(out, params))
    nodes, edges = _svg_groups(viz.to_svg(out, params))
    assert nodes == labels
    assert collections.Counter(edges) == collections.Counter((t, h) for t, h, _, _ in dot_edges)


def _big_graph():
    chainrule.manual_seed(0)
    x = chainrule.randn(3, 4, requires_grad=True)
    w = chainrule.randn(4, 4, requires_grad=True)
    h, outs = x, []
    for i in range(40):
        h = (h @ w).tanh() + h * 0.5 if i % 2 else h.sin() * x
        outs.append(h.sum())
    return sum(outs[::7]) + h.mean()


def _inside(px, py, box, pad=0.01):
    x, y, w, h = box
    return x + pad < px < x + w - pad and y + pad < py < y + h - pad


def test_layout_has_no_overlaps():
    """Boxes never overlap; an edge runs through no box but its own two ends."""
    graph = viz_svg.walk(_big_graph(), show_saved=True)
    pos = viz_svg.graph_layout(graph)
    assert len(graph.vertices) > 150
    boxes = list(pos.boxes.items())
    for i, (a, (ax, ay, aw, ah)) in enumerate(boxes):
        for b, (bx, by, bw, bh) in boxes[i + 1:]:
            assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, (a, b)
    for edge, points in zip(graph.edges, pos.paths):
        others = [box for v, box in pos.boxes.items() if v not in (edge.tail, edge.head)]
        for k in range(len(points) - 1):
            (x0, y0), (x1, y1) = points[k], points[k + 1]
            samples = [(x0 + (x1 - x0) * t / 8, y0 + (y1 - y0) * t / 8) for t in range(9)] if k % 2 == 0 else \
                [(x0, y0 + (y1 - y0) * t / 8) for t in range(9)] + [(x1, y0 + (y1 - y0) * t / 8) for t in range(9)]
            for px, py in samples:
                assert not any(_inside(px, py, box) for box in others), (edge.tail, edge.head)


def test_layout_puts_the_output_at_the_bottom_and_leaves_above():
    out, params, _ = seed_004_scalar(chainrule)
    graph = viz_svg.walk(out, params)
    pos = viz_svg.graph_layout(graph)
    for edge in graph.edges:
        assert pos.boxes[edge.tail][1] < pos.boxes[edge.head][1]


def test_draw_writes_svg_without_graphviz(tmp_path, monkeypatch):
    monkeypatch.setattr(viz_svg, "has_graphviz", lambda: False)
    out, params, _ = seed_004_scalar(chainrule)
    path = viz.draw(out, tmp_path / "g.svg", params=params)
    assert pathlib.Path(path).read_text(encoding="utf-8") == viz.to_svg(out, params)
    with pytest.raises(RuntimeError, match="needs Graphviz"):
        viz.draw(out, tmp_path / "g.png")
    with pytest.raises(ValueError, match="SVG only"):
        viz.draw(out, tmp_path / "g.png", engine="chainrule")
    with pytest.raises(RuntimeError, match="engine='graphviz' needs"):
        viz.draw(out, tmp_path / "g.svg", engine="graphviz")


# --- summary --------------------------------------------------------------------------------

def _torch_saved_bytes(fn):
    arrays = {}
    for attr in dir(fn):
        if attr.startswith("_saved_"):
            value = getattr(fn, attr)
            for t in value if isinstance(value, tuple) else (value,):
                if hasattr(t, "untyped_storage"):
                    arrays[t.untyped_storage().data_ptr()] = t.numel() * t.element_size()
    return sum(arrays.values())


def _mlp_with_input_grad(L):
    """The MLP with an input that needs a gradient too: then PyTorch saves both matrices
    of each addmm, as chainrule always does (it keeps what every input's rule needs)."""
    L.manual_seed(0)
    net = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.ReLU(), L.nn.Linear(4, 1))
    x = L.randn(5, 3, requires_grad=True)
    return L.nn.functional.mse_loss(net(x), L.zeros(5, 1)), dict(net.named_parameters(), x=x)


def test_summary_of_the_mlp_matches_torchs_saved_tensors():
    torch = require_torch()
    out, params = _mlp_with_input_grad(chainrule)
    t_out, _ = _mlp_with_input_grad(torch)
    lines = viz.summary(out, params).splitlines()
    assert lines[0].split() == ["node", "output", "shape", "dtype", "saved", "bytes"]
    ours = [(line.split()[0], int(line.split()[-1])) for line in lines[1:-2]]
    theirs, stack, seen = [], [t_out.grad_fn], set()
    while stack:
        fn = stack.pop()
        theirs.append((type(fn).__name__, _torch_saved_bytes(fn)))
        children = [c for c, _ in fn.next_functions if c is not None and c not in seen]
        seen.update(children)
        stack.extend(children)
    assert sorted(ours) == sorted(theirs)
    assert lines[-2] == "total: 11 nodes, 244 bytes saved (244 B)"
    assert lines[-1] == "leaves reached: 2.bias (1), 0.bias (4), x (5, 3), 0.weight (4, 3), 2.weight (1, 4)"


def test_summary_output_shapes_are_the_forward_shapes():
    x = chainrule.ones(2, 3, requires_grad=True, dtype=chainrule.float64)
    steps = [x.sum(0), x.t(), (x * 2).unsqueeze(0)]
    steps.append(steps[0].exp() + steps[2].mean())
    out = steps[-1].sum() + steps[1].sum()
    meta = viz_graph.output_meta(out)
    for t in steps:
        assert meta[t.grad_fn] == (tuple(t.shape), t.detach().numpy().dtype)
    table = viz.summary(out, {"x": x})
    assert re.search(r"\nAccumulateGrad +\(2, 3\) +float64 +0\n", table)
    assert table.endswith("leaves reached: x (2, 3)")


# --- the HTML page (the browser test opens it: test_viz_browser.py) ------------------------

def _page_data(text):
    start = text.index('<script type="application/json" id="graph-data">') + len(
        '<script type="application/json" id="graph-data">')
    return json.loads(text[start:text.index("</script>", start)])


def test_html_page_is_self_contained_with_every_node(tmp_path):
    out, params, _ = mlp(chainrule)
    text = pathlib.Path(viz.to_html(out, tmp_path / "g.html", params)).read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert " src=" not in text and "<link" not in text
    data = _page_data(text)
    assert sorted(data) == sorted(viz_graph.walk(out, params).vertices)
    bias = next(v for v in data.values() if v["title"] == "2.bias (1)")
    out.backward()
    assert f"{params['2.bias'].grad.item():.4f}"[:6] in bias["grad"]
    assert all(d["rule"] and d["value"] for d in data.values())


def test_html_after_backward_shows_leaf_grads_and_says_why_not_the_rest():
    out, params, _ = seed_004_scalar(chainrule)
    out.backward()
    data = _page_data(viz_html.page(out, params))
    leaf = next(v for v in data.values() if v["title"] == "x (2, 2)")
    assert "4.5" in leaf["grad"] and "(its .grad)" in leaf["grad"]
    mul = next(v for v in data.values() if v["title"] == "MulBackward0")
    assert "backward() already freed the graph" in mul["grad"]
