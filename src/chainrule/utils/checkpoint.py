"""Activation checkpointing: trade compute for memory.

``checkpoint(f, x)`` returns ``f(x)`` but keeps none of the tensors that ``f``'s ops
saved for backward; backward runs ``f`` again to get them back. Memory for a deep
network drops from one set of activations per layer to one per checkpointed segment,
for about one extra forward pass.

>>> y = checkpoint(block, x, use_reentrant=False)
>>> y.sum().backward()      # block runs again here, with the same random numbers

Two ways to do it, as in PyTorch:

* **Non-reentrant** (``use_reentrant=False``, recommended): saved-tensor hooks. The
  pack hook swaps each saved tensor for its position; the first unpack in backward
  reruns the whole forward once, collecting the saved tensors in the same order, and
  each unpack takes its own out (so each is freed as soon as its node used it).
* **Reentrant** (``use_reentrant=True``, the default when it is not passed, with
  PyTorch's warning): a custom ``Function`` that runs ``f`` under ``no_grad`` and, in
  its backward, reruns it with grad mode on and calls ``backward`` on the result (a
  backward nested in a backward). It cannot serve ``autograd.grad`` or ``inputs=``.
"""
import contextlib
import warnings

from .._ops import creation as _creation
from ..autograd import graph
from .._autograd.engine import TASKS
from ..autograd.function import Function
from .._autograd.gradients import backward as _backward
from .._autograd.grad_mode import enable_grad, no_grad
from .._core.tensor import Tensor

__all__ = ["CheckpointError", "CheckpointFunction", "check_backward_validity", "checkpoint", "checkpoint_sequential",
           "detach_variable", "noop_context_fn", "set_checkpoint_early_stop"]

_EARLY_STOP = [None]  # set_checkpoint_early_stop's value, None outside it

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.
"""


class CheckpointError(RuntimeError):
    """The recomputation saved different tensors than the forward did."""


def noop_context_fn():
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def set_checkpoint_early_stop(enable):
    """Checkpoints whose forward runs inside override their ``early_stop`` with ``enable``."""
    previous = _EARLY_STOP[0]
    _EARLY_STOP[0] = enable
    try:
        yield
    finally:
        _EARLY_STOP[0] = previous


def check_backward_validity(inputs):
    if not any(a.requires_grad for a in inputs if isinstance(a, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


def checkpoint(function, *args, use_reentrant=None, context_fn=noop_context_fn, determinism_check="default",
               debug=False, early_stop=True, **kwargs):
    """``function(*args, **kwargs)``, keeping no activations for backward (module
    docstring). ``preserve_rng_state=True`` (a keyword): the rerun draws the same random
    numbers. ``context_fn()`` gives two context managers, for the forward and the rerun."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
                      "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
                      "use_reentrant=False is recommended, but if you need to preserve the current default "
                      "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    if determinism_check not in ("default", "none"):
        raise ValueError(f"determinism_check should be one of ['default', 'none'], but got {determinism_check}")
    return _Recomputation(function, args, kwargs, preserve, context_fn, determinism_check, early_stop).run()


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs the callables ``functions`` one after the other on ``input``, in
    ``segments`` chunks of equal length: each chunk but the last is checkpointed."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be passed "
                      "explicitly. In version 2.9 we will raise an exception if use_reentrant is not passed. "
                      "use_reentrant=False is recommended, but if you need to preserve the current default "
                      "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    functions = list(functions.children()) if hasattr(functions, "children") else list(functions)
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(_run_range(functions, start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return _run_range(functions, end + 1, len(functions) - 1)(input)


def _run_range(functions, start, end):
    def forward(x):
        for j in range(start, end + 1):
            x = functions[j](x)
        return x
    return forward


def detach_variable(inputs):
    """Each tensor detached, keeping its ``requires_grad``."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for x in inputs:
        if isinstance(x, Tensor):
            requires_grad = x.requires_grad
            x = x.detach()
            x.requires_grad = requires_grad
        out.append(x)
    return tuple(out)


@contextlib.contextmanager
def _rng_replay(state):
    """Runs the block from the random state ``state`` (None: as it is), and restores
    the caller's state afterwards."""
    if state is None:
        yield
        return
    outer = _creation.get_rng_state()
    _creation.set_rng_state(state)
    try:
        yield
    finally:
        _creation.set_rng_state(outer)


# --- non-reentrant ----------------------------------------------------------------------

class _StopRecomputation(Exception):
    """Raised inside the rerun once every saved tensor is back (``early_stop``)."""


def _metadata(t):
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


class _Recomputation:
    """One checkpointed call: the forward with packing hooks, and its reruns.

    ``metas``: per saved tensor, in saving order, its metadata (what the determinism
    check compares). ``recomputed``: position -> tensor from the latest rerun, each
    taken out by its unpack.
    """

    def __init__(self, function, args, kwargs, preserve, context_fn, determinism_check, early_stop):
        self.function, self.args, self.kwargs = function, args, kwargs
        self.rng_state = _creation.get_rng_state() if preserve else None
        self.forward_context, self.recompute_context = context_fn()
        self.check = determinism_check == "default"
        self.early_stop = early_stop if _EARLY_STOP[0] is None else _EARLY_STOP[0]
        self.metas = []
        self.recomputed = {}

    def run(self):
        with graph.saved_tensors_hooks(self.pack, self.unpack), self.forward_context:
            return self.function(*self.args, **self.kwargs)

    def pack(self, tensor):
        self.metas.append(_metadata(tensor) if self.check else None)
        return len(self.metas) - 1

    def unpack(self, position):
        if position not in self.recomputed:
            self.rerun()
        return self.recomputed.pop(position)

    def rerun(self):
        """Runs the forward again (grad mode on, so its ops save), keeping what they save."""
        saved = []

        def keep(tensor):
            if len(saved) == len(self.metas) and self.check:
                raise CheckpointError("torch.utils.checkpoint: trying to save more tensors during recomputation "
                                      f"than during the original forward pass.\n{_DEBUG_TIP}")
            saved.append(tensor if tensor.grad_fn is None else tensor.detach())
            if self.early_stop and len(saved) == len(self.metas):
                raise _StopRecomputation
        try:
            with _rng_replay(self.rng_state), enable_grad(), graph.saved_tensors_hooks(keep, _never), \
                    self.recompute_context:
                self.function(*self.args, **self.kwargs)
        except _StopRecomputation:
            pass
        if self.check:
            self.compare(saved)
        self.recomputed = dict(enumerate(saved))

    def compare(self, saved):
        if len(saved) != len(self.metas):
            raise CheckpointError("torch.utils.checkpoint: A different number of tensors was saved during the "
                                  "original forward and recomputation.\n"
                                  f"Number of tensors saved during forward: {len(self.metas)}\n"
                                  f"Number of tensors saved during recomputation: {len(saved)}.\n{_DEBUG_TIP}")
        different = ""
        for i, (meta, t) in enumerate(zip(self.metas, saved)):
            if meta != _metadata(t):
                different += f"tensor at position {i}:\nsaved metadata: {meta}\nrecomputed metadata: {_metadata(t)}\n"
        if different:
            raise CheckpointError("torch.utils.checkpoint: Recomputed values for the following tensors have "
                                  f"different metadata than during the forward pass.\n{different}.\n{_DEBUG_TIP}")


def _never(packed):
    raise AssertionError("checkpoint: a recomputed tensor was unpacked")


# --- reentrant --------------------------------------------------------------------------

class CheckpointFunction(Function):
    """The reentrant form: forward without a graph, backward reruns it with one."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng_state = _creation.get_rng_state() if preserve_rng_state else None
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        if TASKS and TASKS[-1].has_inputs:
            raise RuntimeError("When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                               "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                               "either set use_reentrant=False, or call .backward() without passing the "
                               "`inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _rng_replay(ctx.rng_state):
            detached = detach_variable(tuple(inputs))
            with enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        pairs = [(o, g) for o, g in zip(outputs, grads) if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        _backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, None) + tuple(x.grad if isinstance(x, Tensor) else None for x in detached)
