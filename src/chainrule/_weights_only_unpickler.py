"""The restricted unpickler behind ``chainrule.load``: it rebuilds tensors and plain data, and nothing else.

A pickle is a little program: its opcodes import globals by name and call them. Python's own
``pickle.Unpickler`` runs whatever the file names (``os.system`` included), so, as PyTorch's
``torch/_weights_only_unpickler.py`` does, this module interprets the opcodes itself and
looks every global up in an allowlist: tensor rebuild functions, storage types, dtypes,
``torch.Size``, ``OrderedDict`` and plain containers, plus what the user allowlisted with
``add_safe_globals``. Files name PyTorch's globals (``torch._utils._rebuild_tensor_v2``);
each maps to chainrule's own function of that name below, so torch is never imported.

>>> with safe_globals([MyConfig]):       # a class the user trusts
...     chainrule.load("ckpt.pt")

The opcodes and messages are PyTorch's; an opcode it does not support is refused here too.
"""
import codecs
import collections
import struct
from pickle import UnpicklingError, decode_long

import numpy as np

from ._core import dtype as _dtype
from ._core.tensor import Size, Tensor, _wrap, device
from .nn.parameter import Parameter

# --- the user's allowlist (torch.serialization.add_safe_globals) --------------------

_marked_safe_globals = set()


def add_safe_globals(safe_globals):
    """Allowlist classes/functions (or ``(obj, "module.name")`` pairs) for ``load``."""
    global _marked_safe_globals
    _marked_safe_globals = _marked_safe_globals | set(safe_globals)


def get_safe_globals():
    return list(_marked_safe_globals)


def clear_safe_globals():
    global _marked_safe_globals
    _marked_safe_globals = set()


def _remove_safe_globals(globals_to_remove):
    global _marked_safe_globals
    _marked_safe_globals = _marked_safe_globals - set(globals_to_remove)


class safe_globals:
    """``with safe_globals([MyClass]): load(f)``: allowlist for the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        add_safe_globals(self.safe_globals)

    def __exit__(self, type, value, tb):
        _remove_safe_globals(self.safe_globals)


def _user_allowed_globals():
    allowed = {}
    for entry in _marked_safe_globals:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full path), but got tuple "
                                 f"of length: {len(entry)}")
            if type(entry[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full path, but got: "
                                f"{type(entry[1])}")
            allowed[entry[1]] = entry[0]
        else:
            allowed[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return allowed


# --- storages and the rebuild functions the files name ------------------------------

class StorageType:
    """What ``torch.FloatStorage`` in a file stands for: the dtype of the record's elements."""

    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name = name
        self.dtype = dtype

    def __repr__(self):
        return f"StorageType(dtype={self.dtype})"


class LoadedStorage:
    """One record of the archive, as a flat array of its dtype: tensors are views of it."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def nbytes(self):
        return self.array.nbytes


def _strided_view(storage, storage_offset, size, stride):
    """``storage[offset:]`` seen with ``size`` and ``stride``, refused unless it lies inside the storage."""
    if not isinstance(storage, LoadedStorage):
        raise UnpicklingError(f"expected a storage to rebuild a tensor from, but got {type(storage)}")
    size, stride = tuple(size), tuple(stride)
    if (type(storage_offset) is not int or len(size) != len(stride)
            or not all(type(n) is int and n >= 0 for n in size + stride) or storage_offset < 0):
        raise UnpicklingError(f"invalid tensor geometry: size {size}, stride {stride}, offset {storage_offset}")
    array = storage.array
    if 0 in size:
        return np.empty(size, array.dtype)
    extent = storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if extent > array.size:
        raise RuntimeError("Trying to resize storage that is not resizable")
    itemsize = array.itemsize
    return np.lib.stride_tricks.as_strided(array[storage_offset:], size, tuple(s * itemsize for s in stride))


def _rebuild_tensor(storage, storage_offset, size, stride):
    return _wrap(_strided_view(storage, storage_offset, size, stride))


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    data = _strided_view(storage, storage_offset, size, stride)
    if metadata:  # PyTorch's lazy conj/neg bits: chainrule keeps the values themselves
        if metadata.get("conj"):
            data = np.conj(data)
        if metadata.get("neg"):
            data = -data
    tensor = _wrap(data)
    tensor.requires_grad = bool(requires_grad)
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return Parameter(data, bool(requires_grad))


def _set_state(obj, state):
    """A subclass's Python attributes: a dict, or PyTorch's (dict, slots) pair."""
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    for part in (state, slots):
        for name, value in (part or {}).items():
            if type(name) is not str:
                raise UnpicklingError(f"attribute names must be strings, but got {type(name)}")
            setattr(obj, name, value)
    return obj


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _set_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    if func not in _REBUILDERS or new_type not in (Tensor, Parameter):
        raise UnpicklingError(f"chainrule cannot rebuild a tensor of type {new_type} with {func}")
    result = func(*args)
    if type(result) is not new_type:
        result = Parameter(result, result.requires_grad) if new_type is Parameter else result.detach()
    return _set_state(result, state) if state else result


_REBUILDERS = (_rebuild_tensor, _rebuild_tensor_v2, _rebuild_parameter, _rebuild_parameter_with_state)

# --- the allowlist: PyTorch's names, chainrule's objects -----------------------------

_STORAGE_NAMES = {d: f"{_dtype._LEGACY_NAMES[d.name]}Storage" for d in _dtype.ALL_DTYPES}

_ALLOWED = {
    "collections.OrderedDict": collections.OrderedDict,
    "collections.Counter": collections.Counter,
    "torch.nn.parameter.Parameter": Parameter,
    "torch.Size": Size,
    "torch.Tensor": Tensor,
    "torch.device": device,
    "_codecs.encode": codecs.encode,  # how protocol 2 writes bytes
    "builtins.bytearray": bytearray,
    "builtins.set": set,
    "builtins.complex": complex,
    "torch.storage.UntypedStorage": StorageType("UntypedStorage", _dtype.uint8),
    "torch._utils._rebuild_tensor": _rebuild_tensor,
    "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
    "torch._utils._rebuild_parameter": _rebuild_parameter,
    "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
    "torch._tensor._rebuild_from_type_v2": _rebuild_from_type_v2,
}
_ALLOWED.update({f"torch.{name}": StorageType(name, d) for d, name in _STORAGE_NAMES.items()})
_ALLOWED.update({f"torch.{d.name}": d for d in _dtype.ALL_DTYPES})

# PyTorch allows these, but they stand for things chainrule does not have
_TORCH_ONLY = ("torch._utils._rebuild_", "torch.sparse.", "torch.cuda.sparse.", "torch.serialization._get_layout",
               "torch.bfloat16", "torch.BFloat16", "torch.complex32", "torch.float8", "torch.Q", "torch.q",
               "torch.per_", "torch.bits", "torch.uint16", "torch.uint32", "torch.uint64", "torch.storage.TypedStorage")

_BLOCKLISTED_MODULES = ("sys", "os", "posix", "nt")

# Python 2 names that protocol 2 writes (pickle's fix_imports), as torch._utils maps them
_IMPORT_MAPPING = {"__builtin__": "builtins", "copy_reg": "copyreg", "Queue": "queue", "repr": "reprlib",
                   "_abcoll": "collections.abc", "UserDict": "collections", "UserList": "collections",
                   "UserString": "collections", "whichdb": "dbm", "StringIO": "io", "cStringIO": "io"}
_NAME_MAPPING = {("__builtin__", "xrange"): ("builtins", "range"), ("__builtin__", "reduce"): ("functools", "reduce"),
                 ("__builtin__", "intern"): ("sys", "intern"), ("__builtin__", "unichr"): ("builtins", "chr"),
                 ("__builtin__", "unicode"): ("builtins", "str"), ("__builtin__", "long"): ("builtins", "int"),
                 ("itertools", "izip"): ("builtins", "zip"), ("itertools", "imap"): ("builtins", "map"),
                 ("itertools", "ifilter"): ("builtins", "filter"),
                 ("itertools", "ifilterfalse"): ("itertools", "filterfalse"),
                 ("itertools", "izip_longest"): ("itertools", "zip_longest"),
                 ("UserDict", "IterableUserDict"): ("collections", "UserDict"),
                 ("UserList", "UserList"): ("collections", "UserList"),
                 ("UserString", "UserString"): ("collections", "UserString"),
                 ("__builtin__", "basestring"): ("builtins", "str"),
                 ("exceptions", "StandardError"): ("builtins", "Exception"),
                 ("UserDict", "UserDict"): ("collections", "UserDict")}


def _find_global(module, name):
    """The allowlisted object for ``module.name``; UnpicklingError (PyTorch's text) for the rest."""
    module, name = _NAME_MAPPING.get((module, name), (_IMPORT_MAPPING.get(module, module), name))
    full_path = f"{module}.{name}"
    if module in _BLOCKLISTED_MODULES:
        raise UnpicklingError(f"Trying to load unsupported GLOBAL {full_path} whose module {module} is blocked.")
    if full_path in _ALLOWED:
        return _ALLOWED[full_path]
    user = _user_allowed_globals()
    if full_path in user:
        return user[full_path]
    if full_path.startswith(_TORCH_ONLY):
        raise UnpicklingError(f"Unsupported global: GLOBAL {full_path} is a PyTorch type that chainrule does not "
                              "have (sparse, quantized, nested, meta and bfloat16 tensors are not supported).")
    if full_path.startswith("builtins."):
        full_path = full_path[len("builtins."):]
    raise UnpicklingError(
        f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{full_path}])` or the "
        f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
        "if you trust this class/function.")


def _allowed(obj):
    return any(obj is v for v in _ALLOWED.values()) or any(obj is v for v in _user_allowed_globals().values())


# --- the interpreter ---------------------------------------------------------------

def _tuple_n(n):
    """TUPLE1/2/3: the top ``n`` items become one tuple."""
    def op(self):
        if len(self.stack) < n:
            raise UnpicklingError("pickle stack underflow")
        items = tuple(self.stack[len(self.stack) - n:])
        del self.stack[len(self.stack) - n:]
        self.stack.append(items)
    return op


def _constant(make):
    """NONE, NEWTRUE, EMPTY_LIST, ...: push ``make()`` (a fresh container each time)."""
    def op(self):
        self.stack.append(make())
    return op


class Unpickler:
    """Runs the opcodes of PyTorch's weights-only unpickler; ``persistent_load`` supplies storages."""

    def __init__(self, file, persistent_load):
        self.read = file.read
        self.readline = file.readline
        self.persistent_load = persistent_load
        self.memo = {}

    def load(self):
        self.metastack = []
        self.stack = []
        while True:
            key = self.read(1)
            if not key:
                raise EOFError
            op = self._OPS.get(key[0])
            if op is None:
                raise UnpicklingError(f"Unsupported operand {key[0]}")
            if op is Unpickler._stop:
                return self.stack.pop()
            op(self)

    def _pop_mark(self):
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def _unpack(self, fmt, n):
        return struct.unpack(fmt, self.read(n))[0]

    # each opcode: (byte, method)
    def _global(self):
        module = self.readline()[:-1].decode("utf-8")
        name = self.readline()[:-1].decode("utf-8")
        self.stack.append(_find_global(module, name))

    def _newobj(self):
        args = self.stack.pop()
        cls = self.stack.pop()
        if cls is Parameter:
            self.stack.append(Parameter(*args))
        elif isinstance(cls, type) and _allowed(cls):
            self.stack.append(cls.__new__(cls, *args))
        else:
            raise UnpicklingError("Can only create new object for nn.Parameter or classes allowlisted "
                                  f"via `add_safe_globals` but got {cls}")

    def _reduce(self):
        args = self.stack.pop()
        func = self.stack[-1]
        if not _allowed(func) or isinstance(func, (StorageType, _dtype.dtype)):
            message = f"Trying to call reduce for unrecognized function {func}"
            if hasattr(func, "__self__"):
                message += f" which belongs to {func.__self__}"
            raise UnpicklingError(message)
        self.stack[-1] = func(*args)

    def _build(self):
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) is collections.OrderedDict:  # a state_dict's _metadata
            inst.__dict__.update(state)
        elif type(inst) in (Tensor, Parameter) or not _allowed(type(inst)):
            raise UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types allowlisted "
                                  f"via `add_safe_globals`, but got {type(inst)}")
        elif hasattr(inst, "__setstate__"):
            inst.__setstate__(state)
        else:
            _set_state(inst, state)

    def _append(self):
        item = self.stack.pop()
        if type(self.stack[-1]) is not list:
            raise UnpicklingError(f"Can only append to lists, but got {type(self.stack[-1])}")
        self.stack[-1].append(item)

    def _appends(self):
        items = self._pop_mark()
        if type(self.stack[-1]) is not list:
            raise UnpicklingError(f"Can only extend lists, but got {type(self.stack[-1])}")
        self.stack[-1].extend(items)

    def _check_set_item_target(self, opcode):
        if type(self.stack[-1]) not in (dict, collections.OrderedDict, collections.Counter):
            raise UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                                  f"collections.Counter, but got {type(self.stack[-1])}")

    def _setitem(self):
        value, key = self.stack.pop(), self.stack.pop()
        self._check_set_item_target("SETITEM")
        self.stack[-1][key] = value

    def _setitems(self):
        items = self._pop_mark()
        self._check_set_item_target("SETITEMS")
        for i in range(0, len(items), 2):
            self.stack[-1][items[i]] = items[i + 1]

    def _mark(self):
        self.metastack.append(self.stack)
        self.stack = []

    def _tuple(self):
        items = tuple(self._pop_mark())  # before looking up self.stack, which it replaces
        self.stack.append(items)

    def _binint(self):
        self.stack.append(self._unpack("<i", 4))

    def _binint1(self):
        self.stack.append(self.read(1)[0])

    def _binint2(self):
        self.stack.append(self._unpack("<H", 2))

    def _binfloat(self):
        self.stack.append(self._unpack(">d", 8))

    def _binunicode(self):
        n = self._unpack("<I", 4)
        data = self.read(n)
        if len(data) != n:
            raise UnpicklingError("pickle data was truncated")
        self.stack.append(str(data, "utf-8", "surrogatepass"))

    def _short_binstring(self):
        self.stack.append(self.read(self.read(1)[0]))

    def _binpersid(self):
        pid = self.stack.pop()
        if type(pid) is not tuple and type(pid) is not int:
            raise UnpicklingError(f"persistent_load id must be tuple or int, but got {type(pid)}")
        if type(pid) is tuple and len(pid) > 0 and _decode_ascii(pid[0]) != "storage":
            raise UnpicklingError(f"Only persistent_load of storage is allowed, but got {type(pid[0])}")
        self.stack.append(self.persistent_load(pid))

    def _binget(self):
        self.stack.append(self.memo[self.read(1)[0]])

    def _long_binget(self):
        self.stack.append(self.memo[self._unpack("<I", 4)])

    def _binput(self):
        self.memo[self.read(1)[0]] = self.stack[-1]

    def _long_binput(self):
        self.memo[self._unpack("<I", 4)] = self.stack[-1]

    def _long1(self):
        n = self.read(1)[0]
        self.stack.append(decode_long(self.read(n)))

    def _proto(self):
        self.read(1)

    def _stop(self):
        pass  # handled in load()

    _OPS = {ord("c"): _global, 0x81: _newobj, ord("R"): _reduce, ord("b"): _build, ord("a"): _append,
            ord("e"): _appends, ord("s"): _setitem, ord("u"): _setitems, ord("("): _mark, ord("t"): _tuple,
            0x85: _tuple_n(1), 0x86: _tuple_n(2), 0x87: _tuple_n(3), ord("N"): _constant(lambda: None),
            0x89: _constant(lambda: False), 0x88: _constant(lambda: True), ord(")"): _constant(tuple),
            ord("]"): _constant(list), ord("}"): _constant(dict), 0x8F: _constant(set), ord("J"): _binint, ord("K"): _binint1,
            ord("M"): _binint2, ord("G"): _binfloat, ord("X"): _binunicode, ord("U"): _short_binstring,
            ord("Q"): _binpersid, ord("h"): _binget, ord("j"): _long_binget, ord("q"): _binput,
            ord("r"): _long_binput, 0x8A: _long1, 0x80: _proto, ord("."): _stop}


def _decode_ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value
