"""``chainrule.viz``: see what autograd does.

* ``to_dot(out)``: the backward graph as DOT text, as torchviz's ``make_dot`` draws it;
* ``to_svg(out)`` / ``draw(out, path)``: a picture, laid out by chainrule itself when
  Graphviz is not installed (no system binary needed);
* ``to_html(out, path)``: one self-contained page; click a node for its value, the
  gradient that reached it, and its derivative rule in words;
* ``summary(out)``: a table of the nodes, their shapes and what they saved;
* ``explain(out)`` (also ``chainrule.explain``): the chain rule, node by node, in numbers.

    >>> x = chainrule.ones(2, 2, requires_grad=True)
    >>> out = (3 * (x + 2) ** 2).mean()
    >>> chainrule.viz.draw(out, "out.svg", params={"x": x})
    >>> chainrule.explain(out, {"x": x})

See docs/viz.md.
"""
from .dot import to_dot
from .explain import explain, explain_text
from .html import to_html
from .summary import summary
from .svg import draw, to_svg

__all__ = ["draw", "explain", "explain_text", "summary", "to_dot", "to_html", "to_svg"]
