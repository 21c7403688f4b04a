"""Tensor printing, character for character what PyTorch 2.13 prints.

``repr(tensor)`` is the first thing users compare between chainrule and PyTorch, so this
module follows ``torch/_tensor_str.py`` exactly, quirks included: the column width is
computed from the summarised values only, ``nan``/``inf`` may overflow the column in
integer mode, the first line's length is over-counted by two when deciding whether a
suffix wraps, and so on. Everything works on NumPy arrays and Python numbers.
"""
import contextlib
import dataclasses
import math

import numpy as np

from . import dtype as _dtype


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """``torch.set_printoptions``: a profile first, then the explicit overrides.

    As in PyTorch, an unknown profile is silently ignored and ``sci_mode`` is always
    assigned, so any call without ``sci_mode`` returns it to automatic (None).
    """
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    overrides = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                     linewidth=linewidth)
    for name, value in overrides.items():
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current options, as keyword arguments ``set_printoptions`` accepts."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily change the print options (``torch._tensor_str.printoptions``)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# --- number formatting -------------------------------------------------------------

class _Formatter:
    """Decides one column width and notation for all the (real) values of a tensor.

    Floats pick one of three notations from their nonzero finite values:
    integer mode (``1.``) when all are whole, scientific when the range is too wide
    or extreme, fixed-point with ``precision`` decimals otherwise.
    """

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not floating:
            self.max_width = max([1] + [len(str(v)) for v in flat.tolist()])
            return
        nonzero_finite = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite.size == 0:
            return  # all zero / nan / inf: integer mode, width 1
        magnitudes = np.abs(nonzero_finite).astype(np.float64)
        smallest, largest = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(nonzero_finite == np.ceil(nonzero_finite)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = (largest / smallest > 1000.0 or largest > 1.0e8
                             or smallest < 1.0e-4)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        self.max_width = max(self._width_of(v) for v in nonzero_finite.tolist())

    def _width_of(self, value):
        """Width of one nonzero finite value; integer mode reserves room for the dot."""
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            return len(f"{value:.{precision}e}")
        if self.int_mode:
            return len(f"{value:.0f}") + 1
        return len(f"{value:.{precision}f}")

    def width(self):
        return self.max_width

    def format(self, value):
        """``value`` right-aligned in the column (never truncated if it overflows)."""
        precision = PRINT_OPTS.precision
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:.{precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."  # marks the tensor as floating point
        else:
            text = f"{value:.{precision}f}"
        return text.rjust(self.max_width)


def _format_value(value, real_formatter, imag_formatter=None):
    """One element; complex numbers join an aligned real part to an unpadded imag."""
    if imag_formatter is None:
        return real_formatter.format(value)
    real = real_formatter.format(value.real)
    imag = (imag_formatter.format(value.imag) + "j").lstrip()
    if imag[0] in "+-":
        return real + imag
    return real + "+" + imag


# --- layout ------------------------------------------------------------------------

def _summarized_data(data):
    """The values that are actually shown when summarising, to size the columns.

    Mirrors torch's ``get_summarized_data``, including ``a[-0:]`` being the whole row
    when ``edgeitems`` is 0 for 1-d data.
    """
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        if data.shape[0] > 2 * edge:
            return np.concatenate((data[:edge], data[-edge:]))
        return data
    if not edge:
        return np.empty((0,) * data.ndim, dtype=data.dtype)
    rows = range(data.shape[0])
    if data.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(data.shape[0] - edge, data.shape[0]))
    return np.stack([_summarized_data(data[i]) for i in rows])


def _vector_str(data, indent, summarize, formatters):
    """A 1-d row, wrapped so that lines fit in ``linewidth`` after ``indent``."""
    element_length = formatters[0].width() + 2  # ", " between elements
    if len(formatters) == 2:
        element_length += formatters[1].width() + 1  # imaginary part and its "j"
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems

    def fmt(values):
        return [_format_value(v, *formatters) for v in values.tolist()]

    if summarize and not edge:
        items = ["..."]
    elif summarize and data.shape[0] > 2 * edge:
        items = fmt(data[:edge]) + [" ..."] + fmt(data[-edge:])
    else:
        items = fmt(data)
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(data, indent, summarize, formatters):
    """Brackets within brackets; deeper dimensions are separated by more blank lines."""
    if data.ndim == 0:
        return _format_value(data.item(), *formatters)
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatters)
    edge = PRINT_OPTS.edgeitems
    size = data.shape[0]

    def sub(rows):
        return [_nested_str(data[i], indent + 1, summarize, formatters) for i in rows]

    if summarize and size > 2 * edge:
        slices = sub(range(edge)) + ["..."] + sub(range(size - edge, size))
    else:
        slices = sub(range(size))
    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _tensor_str(data, dtype, indent):
    """The bracketed values of a non-empty tensor."""
    summarize = data.size > PRINT_OPTS.threshold
    shown = _summarized_data(data) if summarize else data
    if dtype.is_complex:
        formatters = (_Formatter(shown.real, True), _Formatter(shown.imag, True))
    else:
        formatters = (_Formatter(shown, dtype.is_floating_point),)
    return _nested_str(data, indent, summarize, formatters)


def _add_suffixes(text, suffixes, indent):
    """Append ``, key=value`` suffixes, each wrapping to a new line if it won't fit.

    The first line's length is over-counted by two (torch's ``rfind`` arithmetic),
    which decides when a suffix wraps, so it is kept.
    """
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _shows_dtype(dtype, empty):
    """Whether ``dtype=`` is printed: only when the values can't imply the dtype.

    Values imply the default float dtype, its complex twin, int64 and bool; an empty
    tensor has no values, so anything but the default float dtype is spelled out.
    """
    default = _dtype.get_default_dtype()
    if empty:
        return dtype is not default
    return dtype not in (default, _dtype.default_complex_dtype(), _dtype.int64, _dtype.bool_)


def tensor_repr(data, dtype, requires_grad=False, grad_fn_name=None):
    """``repr`` of a CPU tensor holding ``data`` (a NumPy array) of chainrule ``dtype``.

    ``grad_fn_name`` (e.g. ``"MulBackward0"``) is shown instead of ``requires_grad``.
    """
    data = np.asarray(data)
    prefix = "tensor("
    indent = len(prefix)
    shape = "size=" + str(tuple(data.shape))
    suffixes = []
    if data.size == 0:
        body = "[]"
        if data.ndim != 1:
            suffixes.append(shape)
    else:
        body = _tensor_str(data, dtype, indent)
        if not PRINT_OPTS.edgeitems:
            suffixes.append(shape)
    if _shows_dtype(dtype, data.size == 0):
        suffixes.append("dtype=" + repr(dtype))
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
