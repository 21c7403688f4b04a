"""``to_html(out, path)``: one self-contained page to explore a backward graph.

The page holds the SVG picture (``svg.render_svg``) and a small script, nothing
fetched from the network. Click a box to see, beside the picture:

* its forward value (summarised for big tensors): a tensor's own values; for a node,
  its output when the graph kept it (an op that saved its output, or a consumer that
  saved it as an input), else a note that autograd did not need it;
* the gradient that reached it in backward: ``to_html`` runs its own backward
  (``explain.trace_backward``, with hooks on every node, ``.grad`` untouched), so the
  page shows every node's gradient whether or not ``out.backward()`` ran; when the
  graph was already freed, the leaves show their ``.grad`` and the nodes say why not;
* its local derivative rule in words (``rules``).

The mouse wheel zooms, dragging pans, and the page works offline.

    >>> to_html(out, "graph.html", params=dict(model.named_parameters()))
    'graph.html'
"""
import html
import json
import os

import numpy as np

from .._core.tensor import Tensor, _wrap
from .._autograd.engine import AccumulateGrad
from .explain import tensor_text, trace_backward
from .graph import FN, LEAF, node_name, saved_items, size_text, walk
from .rules import rule_words
from .svg import render_svg

MAX_VALUES = 64  # entries written out in full; bigger tensors are summarised

SCRIPT = r"""
(function () {
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const svg = document.querySelector("#picture svg");
  const panel = document.getElementById("panel");
  const box = svg.viewBox.baseVal;
  const full = {x: box.x, y: box.y, width: box.width, height: box.height};
  function show(id) {
    const info = data[id];
    document.querySelectorAll("g.node.selected").forEach(g => g.classList.remove("selected"));
    document.getElementById("node" + id).classList.add("selected");
    const rows = [["value", info.value], ["gradient", info.grad], ["rule", info.rule]];
    panel.replaceChildren();
    const title = document.createElement("h2");
    title.textContent = info.title;
    panel.appendChild(title);
    for (const [name, text] of rows) {
      const head = document.createElement("h3");
      head.textContent = name;
      const body = document.createElement("pre");
      body.className = name;
      body.textContent = text;
      panel.append(head, body);
    }
  }
  document.querySelectorAll("g.node").forEach(g => {
    g.addEventListener("click", () => show(g.dataset.id));
  });
  svg.addEventListener("wheel", event => {
    event.preventDefault();
    const scale = event.deltaY > 0 ? 1.2 : 1 / 1.2;
    const r = svg.getBoundingClientRect();
    const px = box.x + (event.clientX - r.left) / r.width * box.width;
    const py = box.y + (event.clientY - r.top) / r.height * box.height;
    box.x = px - (px - box.x) * scale; box.y = py - (py - box.y) * scale;
    box.width *= scale; box.height *= scale;
  }, {passive: false});
  let drag = null;
  svg.addEventListener("mousedown", event => { drag = {x: event.clientX, y: event.clientY}; });
  window.addEventListener("mouseup", () => { drag = null; });
  window.addEventListener("mousemove", event => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    box.x -= (event.clientX - drag.x) / r.width * box.width;
    box.y -= (event.clientY - drag.y) / r.height * box.height;
    drag = {x: event.clientX, y: event.clientY};
  });
  document.getElementById("reset").addEventListener("click", () => Object.assign(box, full));
})();
"""

STYLE = """
body { margin: 0; font-family: sans-serif; display: flex; height: 100vh; }
#picture { flex: 1; overflow: hidden; border-right: 1px solid #ccc; position: relative; }
#picture svg { width: 100%; height: 100%; cursor: grab; }
#panel { width: 26em; padding: 0 1em; overflow: auto; }
#reset { position: absolute; top: 0.5em; left: 0.5em; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: 0.4em; }
g.node { cursor: pointer; }
g.node.selected rect { stroke: red; stroke-width: 2; }
"""


def _values(t):
    """A tensor's values as text: all of them when few, else a summary and the start."""
    data = np.asarray(t._data)
    if data.size <= MAX_VALUES:
        return f"shape {size_text(data.shape)}, {data.dtype}\n{np.array2string(data, precision=4)}"
    return (f"shape {size_text(data.shape)}, {data.dtype}: {tensor_text(t)}\nfirst entries: "
            f"{np.array2string(data.reshape(-1)[:8], precision=4)}")


def _node_outputs(graph):
    """node -> a tensor holding its output's values, where the graph kept one: the
    output itself (the picture's output tensor, or an op that saved its result), or a
    consumer's saved input made by that node."""
    outputs = {}
    for vertex in graph.vertices.values():
        obj = vertex.obj
        if vertex.kind != FN:
            if obj.grad_fn is not None:
                outputs.setdefault(obj.grad_fn, obj)
            continue
        ans = getattr(obj, "ans", None)
        if ans is not None and ans.__class__ is np.ndarray:
            outputs.setdefault(obj, _wrap(ans))
        for _, value in saved_items(obj):
            if isinstance(value, Tensor) and value.grad_fn is not None:
                outputs.setdefault(value.grad_fn, value)
    return outputs


def _gradients(out, graph, gradient):
    """id(node or tensor) -> the gradient text, from our own backward when possible."""
    leaves = [v.obj for v in graph.vertices.values() if v.kind == LEAF]
    if gradient is None and out.numel() == 1:
        gradient = np.ones_like(out._data)
    note = ""
    if gradient is None:
        gradient = np.ones_like(out._data)
        note = " (with v = ones: the output is not a scalar and no gradient was given)"
    v = gradient if isinstance(gradient, Tensor) else _wrap(np.asarray(gradient, dtype=out._data.dtype))
    try:
        trace, _ = trace_backward(out, leaves, v)
    except RuntimeError as e:
        if "second time" not in str(e):
            raise
        freed = ("not available: backward() already freed the graph; build the page before "
                 "backward() or call backward(retain_graph=True)")
        grads = {id(n.obj): freed for n in graph.vertices.values() if n.kind == FN}
        for leaf in leaves:
            grads[id(leaf)] = freed if leaf.grad is None else f"{_values(leaf.grad)}\n(its .grad)"
        return grads
    grads = {id(node): _values(g) + note for node, g in trace.got.items() if isinstance(g, Tensor)}
    for node, g in trace.got.items():
        if node.__class__ is AccumulateGrad and isinstance(g, Tensor):
            grads[id(node.variable)] = _values(g) + note
    grads[id(out)] = _values(v) + " (v, where backward starts)"
    return grads


def page(out, params=None, gradient=None, title="chainrule: the backward graph"):
    """The HTML text of the page (see the module docstring)."""
    graph = walk(out, params)
    outputs = _node_outputs(graph)
    grads = _gradients(out, graph, gradient)
    info = {}
    for vid, vertex in graph.vertices.items():
        obj = vertex.obj
        if vertex.kind == FN:
            name = node_name(obj)
            kept = outputs.get(obj)
            if obj.__class__ is AccumulateGrad:
                value = _values(obj.variable)
            elif kept is not None:
                value = _values(kept)
            else:
                value = "not kept: autograd did not need this node's output for backward"
            info[vid] = {"title": name, "value": value, "grad": grads.get(id(obj), "no gradient reached it"),
                         "rule": rule_words(name)}
        else:
            label = vertex.name or ("the output" if vertex.kind == "output" else "a tensor")
            info[vid] = {"title": f"{label} {size_text(obj.shape)}", "value": _values(obj.detach()),
                         "grad": grads.get(id(obj), "no gradient reached it"),
                         "rule": "a leaf: backward adds the gradient into .grad" if vertex.kind == LEAF
                         else "a tensor: the gradient arrives from the node that made it"}
    payload = json.dumps(info).replace("</", "<\\/")
    svg = render_svg(graph).split("\n", 1)[1]  # without the XML declaration, inside HTML
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{STYLE}</style></head><body>\n"
            f'<div id="picture"><button id="reset">reset zoom</button>\n{svg}</div>\n'
            '<div id="panel"><p>Click a box to see its value, the gradient that reached it, and its '
            "derivative rule. Wheel: zoom; drag: pan.</p></div>\n"
            f'<script type="application/json" id="graph-data">{payload}</script>\n'
            f"<script>{SCRIPT}</script>\n</body></html>\n")


def to_html(tensor, path, params=None, gradient=None):
    """Writes the page for ``tensor``'s backward graph to ``path`` and returns ``path``."""
    path = os.fspath(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page(tensor, params, gradient))
    return path
