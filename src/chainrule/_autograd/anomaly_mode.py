"""Anomaly detection: find the forward line behind a failing or NaN-producing backward.

While it is on, every recorded node remembers where its op was called. In backward,
a node whose vjp raises first warns with that place, then re-raises; and, with
``check_nan``, a gradient holding a NaN raises PyTorch's error::

    >>> with chainrule.autograd.detect_anomaly():
    ...     y = x.sqrt()            # x = [-1., 1.]
    ...     (y * 2).sum().backward()
    UserWarning: Error detected in SqrtBackward0. Traceback of forward call that caused the error:
      File "t.py", line 2, in <module>
        y = x.sqrt()
    RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output.

Two modes:

* **full** (``detect_anomaly()``, ``set_detect_anomaly(True)``): PyTorch's, the whole
  Python stack per node (``node.metadata['traceback_']``). It costs a stack walk with
  source lookups per op: several times the op itself.
* **cheap** (``cheap=True``, chainrule only): each node keeps one (code, line) pair, the
  first frame outside chainrule, found by walking ``f_back``; nothing is formatted
  until an error. The NaN error then ends with where the op was called,
  ``... in its 0th output. The op was created at t.py:2 in <module>: `y = x.sqrt()```.
  Cheap enough to leave on for a whole training run (see
  ``benchmarks/anomaly_overhead.py``).

Switched off, anomaly detection costs one flag check per recorded op
(``registry.record``) and one per node in backward (``engine.run_backward``).

**Error lines** (on by default, chainrule only; ``set_error_lines(False)`` turns them
off): a node that saves tensors keeps the (code, line) of the user's call that made it
(``node.where``), and an in-place write keeps where it happened beside the version
(``counter[1]``), so the "modified by an inplace operation" error can end with one line
naming both places. The line is an exception note (``with_line``): ``str(error)`` stays
PyTorch's text exactly. A frame walk per saving op and per in-place op: well under 10% of an
MLP training step (``benchmarks/error_location_overhead.py``).
"""
import functools
import linecache
import os
import sys
import traceback
import warnings

import numpy as np

from .._core.modes import ANOMALY, LINES




def set_error_lines(enabled):
    """Turns the recording of the lines that errors name on or off (chainrule only)."""
    LINES.enabled = bool(enabled)

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # .../chainrule/
_INSIDE = {}  # code filename -> whether it is chainrule's own (cached: one dict lookup a frame)


def set_anomaly_enabled(enabled, check_nan=True, *, cheap=False):
    """``torch.set_anomaly_enabled``: switches anomaly detection on or off, not scoped."""
    ANOMALY.enabled, ANOMALY.check_nan, ANOMALY.cheap = bool(enabled), bool(check_nan), bool(cheap)


def is_anomaly_enabled():
    return ANOMALY.enabled


def is_anomaly_check_nan_enabled():
    return ANOMALY.check_nan


class detect_anomaly:
    """Context manager (and decorator) turning anomaly detection on, with PyTorch's
    warning that it slows things down (not in ``cheap`` mode, which barely does).

    >>> with detect_anomaly(cheap=True):
    ...     loss.backward()     # a NaN gradient names the forward line that made it
    """

    def __init__(self, check_nan=True, *, cheap=False):
        self.prev = (ANOMALY.enabled, ANOMALY.check_nan, ANOMALY.cheap)
        self.check_nan = check_nan
        self.cheap = cheap
        if not cheap:
            warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and "
                          "should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan, cheap=self.cheap)

    def __exit__(self, *exc):
        set_anomaly_enabled(*self.prev[:2], cheap=self.prev[2])

    def __call__(self, fn):
        """As a decorator (chainrule only: PyTorch 2.13's ``detect_anomaly`` is not callable)."""
        check_nan, cheap = self.check_nan, self.cheap

        @functools.wraps(fn)
        def decorated(*args, **kwargs):
            with set_detect_anomaly(True, check_nan, cheap=cheap):
                return fn(*args, **kwargs)
        return decorated


class set_detect_anomaly:
    """Sets anomaly detection on or off; restores the previous setting when used with
    ``with``. ``cheap=True``: the cheap mode (see the module docstring).

    >>> chainrule.autograd.set_detect_anomaly(True, cheap=True)   # for the whole run
    """

    def __init__(self, mode, check_nan=True, *, cheap=False):
        self.prev = (ANOMALY.enabled, ANOMALY.check_nan, ANOMALY.cheap)
        set_anomaly_enabled(mode, check_nan, cheap=cheap)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(*self.prev[:2], cheap=self.prev[2])


# --- forward: where each node was made ------------------------------------------------------


def _user_frame(frame):
    """The first frame, from ``frame`` outwards, whose code is not chainrule's."""
    inside = _INSIDE
    while frame is not None:
        name = frame.f_code.co_filename
        is_ours = inside.get(name)
        if is_ours is None:
            is_ours = inside[name] = name.startswith(_ROOT)
        if not is_ours:
            return frame
        frame = frame.f_back
    return None


def called_from(depth=2):
    """(code, line) of the user's call that led here, or None (no frame outside chainrule).

    The search starts ``depth`` frames up from here: ``sys._getframe(depth)`` makes a
    frame object for that one frame only, while each ``f_back`` step makes one more, so a
    caller that knows how deep the user's frame usually is (the registry's ``_save``)
    pays for one frame in the common case and walks on only when it is deeper."""
    try:
        frame = sys._getframe(depth)
    except ValueError:  # the stack is not that deep
        frame = sys._getframe(1)
    code = frame.f_code
    if _INSIDE.get(code.co_filename) is False:  # the common case, without a call
        return code, frame.f_lineno
    frame = _user_frame(frame)
    return None if frame is None else (frame.f_code, frame.f_lineno)


def note_modified(counter):
    """An in-place write bumped ``counter``: keep where, beside the version (counter[1])."""
    where = called_from()
    if len(counter) == 1:
        counter.append(where)
    else:
        counter[1] = where


def place(where):
    """``t.py:2 in f: `y = x.sqrt()``` for a (code, line) pair."""
    code, line = where
    source = linecache.getline(code.co_filename, line).strip()
    return f"{code.co_filename}:{line} in {code.co_name}: `{source}`"


def with_line(error, line):
    """``error`` with chainrule's ``line`` after PyTorch's text, as an exception note
    (PEP 678): a traceback shows it on a line of its own, while ``str(error)`` stays
    exactly PyTorch's message (Python 3.10, without notes: appended to the message)."""
    if line:
        if hasattr(error, "add_note"):
            error.add_note(line)
        else:  # pragma: no cover - Python 3.10
            error.args = (f"{error.args[0]}\n{line}",)
    return error


def inplace_lines(node, counter):
    """The line the in-place error adds after PyTorch's text: where the tensor was changed
    and where the node that saved it was made; '' when neither was recorded."""
    changed = counter[1] if len(counter) > 1 else None
    saved = getattr(node, "where", None) or _metadata(node).get("origin_")
    if changed is None and saved is None:
        return ""
    name = node.name()
    if changed is None:
        return (f"chainrule: {name} saved it at {place(saved)}; where it was changed in place was not "
                "recorded.")
    if saved is None:
        return (f"chainrule: it was changed in place at {place(changed)}, after {name} saved it (where "
                "is not recorded: chainrule.autograd.set_detect_anomaly(True, cheap=True) records it).")
    return f"chainrule: it was changed in place at {place(changed)}, after {name} saved it at {place(saved)}."


def remember(node):
    """Called by the registry for each node it records while anomaly detection is on."""
    frame = _user_frame(sys._getframe(2))
    if ANOMALY.cheap:
        node._metadata = {"origin_": None if frame is None else (frame.f_code, frame.f_lineno)}
        return
    # PyTorch keeps the whole stack, formatted; chainrule's own frames (PyTorch's C++) are left out
    meta = {"traceback_": traceback.format_list(traceback.extract_stack(frame)) if frame else []}
    if ANOMALY.running is not None:
        meta["parent_"] = ANOMALY.running
    node._metadata = meta


# --- backward: report the node that failed --------------------------------------------------


def checked_vjp(call_vjp, node, g, wanted):
    """``call_vjp(node, g, wanted)`` under anomaly detection: a failure warns with where
    the node was made before it propagates; with ``check_nan``, a NaN gradient raises."""
    previous = ANOMALY.running
    ANOMALY.running = node
    try:
        grads = call_vjp(node, g, wanted)
    except Exception:
        _warn_origin(node)
        raise
    finally:
        ANOMALY.running = previous
    if ANOMALY.check_nan:
        for i, gi in enumerate(grads):
            if gi is not None and np.isnan(gi._data).any():
                message = f"Function '{node.name()}' returned nan values in its {i}th output."
                if ANOMALY.cheap:
                    raise RuntimeError(f"{message} {origin_line(node)}")
                _warn_origin(node)
                raise RuntimeError(message)
    return grads


def _metadata(node):
    return getattr(node, "_metadata", None) or {}


def origin_line(node):
    """Where a node's op was called, from cheap mode's record:
    ``The op was created at t.py:2 in f: `y = x.sqrt()```."""
    origin = _metadata(node).get("origin_")
    if origin is None:
        return ("No forward pass information available. Enable detect anomaly during forward pass "
                "for more information.")
    return f"The op was created at {place(origin)}"


def _warn_origin(node):
    """PyTorch's warnings: the node's forward traceback, then one for each node whose
    backward (under ``create_graph``) made it."""
    meta = _metadata(node)
    if "origin_" in meta:
        warnings.warn(f"Error detected in {node.name()}. {origin_line(node)}", UserWarning, stacklevel=4)
        return
    if "traceback_" not in meta:
        warnings.warn(f"Error detected in {node.name()}. No forward pass information available. "
                      "Enable detect anomaly during forward pass for more information.", UserWarning,
                      stacklevel=4)
        return
    warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
                  + "".join(meta["traceback_"]), UserWarning, stacklevel=4)
    parent = meta.get("parent_")
    while parent is not None:
        meta = _metadata(parent)
        warnings.warn(f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of forward "
                      "call that induced the previous calculation:\n" + "".join(meta.get("traceback_", [])),
                      UserWarning, stacklevel=4)
        parent = meta.get("parent_")
