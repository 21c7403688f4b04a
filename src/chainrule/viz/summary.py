"""``summary(out)``: a text table of the backward graph, for finding what holds memory.

    >>> x = chainrule.ones(2, 2, requires_grad=True)
    >>> print(summary((x * x).mean(), {"x": x}))
    node            output shape  dtype    saved bytes
    MeanBackward0   ()            float32            0
    MulBackward0    (2, 2)        float32           16
    AccumulateGrad  (2, 2)        float32            0
    total: 3 nodes, 16 bytes saved (16 B)
    leaves reached: x (2, 2)

A node's output shape is not stored on the node; it is the shape its consumer expected
for that input (``node.meta``), which is the consumer's own output shape when the
engine has nothing to reduce. Saved bytes count each saved array once per node, and
once in the total even when several nodes saved it.
"""
import numpy as np

from .._core.dtype import from_numpy_dtype
from .._core.tensor import Tensor
from .graph import FN, LEAF, node_name, output_meta, saved_items, size_text, walk


def saved_arrays(node):
    """The NumPy arrays a node keeps for backward, each once."""
    arrays = {}
    ans = getattr(node, "ans", None)
    if ans is not None and ans.__class__ is np.ndarray:
        arrays[id(ans)] = ans
    for _, value in saved_items(node):
        values = value if isinstance(value, (tuple, list)) else (value,)
        for v in values:
            if isinstance(v, Tensor):
                arrays.setdefault(id(v._data), v._data)
    return arrays


def _human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # pragma: no cover


def summary(out, params=None):
    """The table described in the module docstring, as text."""
    graph = walk(out, params)
    meta = output_meta(out)
    rows, total = [], {}
    for vertex in graph.vertices.values():
        if vertex.kind != FN:
            continue
        node = vertex.obj
        variable = getattr(node, "variable", None)
        m = (variable._data.shape, variable._data.dtype) if variable is not None else meta.get(node)
        arrays = saved_arrays(node)
        total.update(arrays)
        shape, dtype = ("-", "-") if m is None else (size_text(m[0]), str(from_numpy_dtype(m[1])).split(".")[-1])
        rows.append((node_name(node), shape, dtype, str(sum(a.nbytes for a in arrays.values()))))
    head = ("node", "output shape", "dtype", "saved bytes")
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(4)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]:>{widths[3]}}"
             for r in [head] + rows]
    saved = sum(a.nbytes for a in total.values())
    lines.append(f"total: {len(rows)} nodes, {saved} bytes saved ({_human(saved)})")
    leaves = [f"{v.name or 'leaf'} {size_text(v.obj.shape)}" for v in graph.vertices.values() if v.kind == LEAF]
    lines.append("leaves reached: " + (", ".join(leaves) if leaves else "none"))
    return "\n".join(lines)
