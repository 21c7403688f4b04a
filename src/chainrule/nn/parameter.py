"""``nn.Parameter`` and ``nn.Buffer``: tensors a Module registers when they are assigned.

A Parameter is a Tensor subclass that shares its data's memory; assigning one to a Module
attribute makes it a parameter (``model.parameters()``, ``state_dict()``). Ops on it give
plain Tensors, as in PyTorch, because every op builds its result with ``_wrap``:

>>> p = Parameter(chainrule.ones(2))
>>> p
Parameter containing:
tensor([1., 1.], requires_grad=True)
>>> type(p * 2).__name__
'Tensor'

``Buffer`` marks a tensor to be registered as a buffer (``persistent=False`` keeps it out of
``state_dict``); PyTorch returns a plain tensor with a flag, chainrule a subclass, since a
chainrule Tensor has slots and no room for flags.
"""
from .._core.tensor import Tensor, _rebuild
from .._ops import creation as _creation


def _share(cls, data, requires_grad):
    """A ``cls`` instance over ``data``'s memory and version counter, without history."""
    out = object.__new__(cls)
    out._data = data._data
    out._counter = data._counter
    out.grad_fn = None
    out._grad = None
    out._extra = None
    out._requires_grad = False
    out.requires_grad_(requires_grad)
    return out


class Parameter(Tensor):
    """A tensor that is a module parameter: ``Parameter(data=None, requires_grad=True)``."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _creation.empty(0)
        return _share(cls, data, requires_grad)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._data, self._requires_grad))


class Buffer(Tensor):
    """A tensor to be registered as a buffer on assignment: ``Buffer(data=None, *, persistent=True)``."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _creation.empty(0)
        out = _share(cls, data, data.requires_grad)
        out.persistent = persistent
        return out

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._data, self._requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(_rebuild(data, False), requires_grad)
