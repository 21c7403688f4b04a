"""``default_collate`` and ``default_convert``: how a DataLoader turns samples into batches.

``default_collate`` stacks a list of samples along a new first dimension, recursing into
their structure: tensors are stacked, NumPy arrays and numbers become tensors (Python floats
float64, ints int64, as in PyTorch), strings stay a list, dicts and named tuples keep their
type, and a tuple of fields becomes a *list* of batched fields (PyTorch's choice).

>>> default_collate([(chainrule.ones(2), 0), (chainrule.zeros(2), 1)])
[tensor([[1., 1.],
        [0., 0.]]), tensor([0, 1])]
"""
import collections.abc
import copy
import re

import numpy as np

from ..._ops import creation as _creation
from ..._ops.shape.joining import stack
from ..._core.tensor import Tensor
from ..._core import dtype as _dtype

_NP_STR_OBJ = re.compile(r"[SaUO]")  # NumPy dtypes of strings and objects: no tensor for them

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return stack(batch, 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if _NP_STR_OBJ.search(batch[0].dtype.str) is not None:
        raise TypeError(_COLLATE_ERROR.format(batch[0].dtype))
    return collate([_creation.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return _creation.as_tensor(np.array(batch))


def collate_float_fn(batch, *, collate_fn_map=None):
    return _creation.tensor(batch, dtype=_dtype.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return _creation.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {Tensor: collate_tensor_fn, np.ndarray: collate_numpy_array_fn,
                          (np.bool_, np.number, np.object_): collate_numpy_scalar_fn, float: collate_float_fn,
                          int: collate_int_fn, str: collate_str_fn, bytes: collate_str_fn}


def collate(batch, *, collate_fn_map=None):
    """Collates ``batch`` by the type of its first element: ``collate_fn_map`` first (exact type,
    then ``isinstance`` in insertion order), then mappings, named tuples and sequences."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a named tuple
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(e) == size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return fields  # PyTorch returns a list here, for backwards compatibility
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                clone[:] = fields
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    raise TypeError(_COLLATE_ERROR.format(elem_type))


def default_collate(batch):
    """A list of samples as one batch (see the module docstring)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """One sample's NumPy arrays and scalars as tensors, the rest unchanged (for ``batch_size=None``)."""
    elem_type = type(data)
    if isinstance(data, Tensor):
        return data
    if isinstance(data, (np.ndarray, np.bool_, np.number)) and elem_type.__module__ == "numpy":
        if isinstance(data, np.ndarray) and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        return _creation.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        fields = {key: default_convert(data[key]) for key in data}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)
                clone.update(fields)
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        fields = [default_convert(d) for d in data]
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                clone[:] = fields
                return clone
            return elem_type(fields)
        except TypeError:
            return fields
    return data
