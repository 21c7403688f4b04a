"""``chainrule.save`` and ``chainrule.load``: PyTorch's own file format, both ways.

A checkpoint is the zip archive ``torch.save`` writes, record for record:

* ``<archive>/data.pkl``: the object, pickled with protocol 2. A tensor is written as a call
  ``torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
  OrderedDict())`` and its storage as a persistent id ``('storage', torch.FloatStorage, '0',
  'cpu', numel)``: names of PyTorch's globals, written by name (torch is never imported).
* ``<archive>/data/<key>``: one raw little-endian record per storage. Tensors that view one
  NumPy buffer share one storage, so views and tied weights survive the round trip.
* ``.format_version``, ``.storage_alignment``, ``byteorder``, ``version`` and
  ``.data/serialization_id``, as PyTorch's zip writer (miniz) lays them out: records stored
  uncompressed, each payload aligned to 64 bytes by an ``FB`` padding field.

>>> chainrule.save(model.state_dict(), "model.pt")      # torch.load reads it
>>> state = chainrule.load("model.pt")                  # and this reads torch.save's files

Loading never imports or calls anything the file names: see ``_weights_only_unpickler``.
"""
import io
import os
import pickle
import struct
import sys
import zlib
from collections import OrderedDict

import numpy as np

from ._core import dtype as _dtype
from ._core.tensor import Size, Tensor, device
from .nn.parameter import Parameter
from ._weights_only_unpickler import (LoadedStorage, StorageType, Unpickler, add_safe_globals, clear_safe_globals,
                                      get_safe_globals, safe_globals)

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals", "safe_globals",
           "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
_ALIGNMENT = 64
_FILE_FORMAT_VERSION = b"3\n"


# --- the pickle: PyTorch's globals by name --------------------------------------------

class _TorchGlobal:
    """A global of torch's namespace, written into the pickle as ``GLOBAL module name``."""

    __slots__ = ("module", "name")

    def __init__(self, module, name):
        self.module = module
        self.name = name

    def __call__(self, *args):
        # pickle's save_reduce wants a callable; torch calls the real function on loading
        raise TypeError(f"{self.module}.{self.name} is a name written into checkpoints, not a function")


_REBUILD_TENSOR_V2 = _TorchGlobal("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _TorchGlobal("torch._utils", "_rebuild_parameter")
_REBUILD_PARAMETER_WITH_STATE = _TorchGlobal("torch._utils", "_rebuild_parameter_with_state")
_TORCH_SIZE = _TorchGlobal("torch", "Size")
_TORCH_DEVICE = _TorchGlobal("torch", "device")
_STORAGE_TYPES = {d.np: _TorchGlobal("torch", f"{_dtype._LEGACY_NAMES[d.name]}Storage") for d in _dtype.ALL_DTYPES}
_DTYPES = {d: _TorchGlobal("torch", d.name) for d in _dtype.ALL_DTYPES}
_STORAGE = "storage"
_CPU = "".join(("c", "pu"))  # one object for every location, never the interned "cpu" (pickle's memo)


class _Storage:
    """A NumPy buffer that one or more saved tensors view: one ``data/<key>`` record."""

    __slots__ = ("key", "root", "dtype")

    def __init__(self, key, root, dtype):
        self.key = key
        self.root = root  # the C-contiguous array owning the bytes
        self.dtype = dtype

    def numel(self):
        return self.root.nbytes // self.dtype.itemsize

    def buffer(self):
        return memoryview(self.root.reshape(-1).view(np.uint8))


class _Storages:
    """Finds the storage under each tensor's array, one per buffer, keys in order of first use."""

    def __init__(self):
        self.by_root = {}
        self.ordered = []

    def locate(self, array):
        """(storage, offset, stride) for ``array``, in elements of its dtype."""
        root = _owning_array(array)
        itemsize, shape = array.itemsize, array.shape
        if root is None:
            array = np.ascontiguousarray(array)  # no shareable buffer (negative strides): a copy of its own
            root = array
        if array.size == 0:  # nothing to share
            root = array = np.empty(0, array.dtype)
        storage = self.by_root.get(id(root))
        if storage is None:
            storage = _Storage(str(len(self.ordered)), root, array.dtype)
            self.by_root[id(root)] = storage
            self.ordered.append(storage)
        elif storage.dtype != array.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        offset = (array.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // itemsize
        if array.size == 0:  # NumPy 2 gives empty arrays zero strides; torch's are contiguous
            return storage, 0, _contiguous_strides(shape)
        return storage, offset, tuple(s // itemsize for s in array.strides)


def _contiguous_strides(shape):
    """PyTorch's strides for a fresh tensor of ``shape`` (a dimension of size 0 counts as 1)."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _owning_array(array):
    """The C-contiguous array at the bottom of ``array``'s chain of bases, if ``array`` can be
    described as (offset, non-negative strides) within it; else None."""
    root, obj = array, array
    while getattr(obj, "base", None) is not None:
        obj = obj.base
        if isinstance(obj, np.ndarray):
            root = obj
    itemsize = array.itemsize
    start = array.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if (not root.flags.c_contiguous or any(s < 0 or s % itemsize for s in array.strides)
            or start % itemsize or root.nbytes % itemsize or start < 0):
        return None
    if array.size and start + sum((n - 1) * s for n, s in zip(array.shape, array.strides)) + itemsize > root.nbytes:
        return None
    return root


class _Pickler(pickle._Pickler):
    """Python's pickler, writing chainrule's tensors, dtypes and sizes under torch's names.

    The pure-Python pickler is used because it lets a global be written by name: the C
    pickler insists on importing ``torch._utils`` to check it. Its opcodes and memo are the
    C pickler's, so ``data.pkl`` comes out byte for byte as torch.save writes it.
    """

    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file, protocol, storages):
        super().__init__(file, protocol)
        self.storages = storages

    def save_torch_global(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[_TorchGlobal] = save_torch_global

    def save_dtype(self, obj):
        self.save(_DTYPES[obj])

    dispatch[_dtype.dtype] = save_dtype

    def persistent_id(self, obj):
        if type(obj) is _Storage:
            return (_STORAGE, _STORAGE_TYPES[obj.dtype], obj.key, _CPU, obj.numel())
        return None

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return self.reduce_tensor(obj)
        if type(obj) is Size:
            return (_TORCH_SIZE, (tuple(obj),))
        if type(obj) is device:
            return (_TORCH_DEVICE, (str(obj),))
        return NotImplemented

    def reduce_tensor(self, t):
        if isinstance(t, Parameter):
            # PyTorch pickles a Parameter as its data plus the flag (Parameter.__reduce_ex__)
            state = {k: v for k, v in vars(t).items()} if hasattr(t, "__dict__") else None
            args = (t.detach(), t.requires_grad, OrderedDict())
            if state:
                return (_REBUILD_PARAMETER_WITH_STATE, args + (state,))
            return (_REBUILD_PARAMETER, args)
        data = np.asarray(t._data)
        storage, offset, stride = self.storages.locate(data)
        return (_REBUILD_TENSOR_V2, (storage, offset, data.shape, stride, t.requires_grad, OrderedDict()))


# --- the zip archive, as PyTorch's writer (miniz) lays it out ------------------------

class _ArchiveWriter:
    """Stored (uncompressed) records with 64-byte aligned payloads, then a zip64 directory."""

    def __init__(self, out, archive_name):
        self.out = out
        self.prefix = archive_name + "/"
        self.offset = 0
        self.entries = []  # (name bytes, crc, size, header offset)
        self.crc_hash = 0  # PyTorch's serialization id folds the payloads' CRCs together
        self.names = []

    def _write(self, data):
        self.out.write(data)
        self.offset += len(data)

    def write_record(self, name, data):
        data = memoryview(data).cast("B") if not isinstance(data, bytes) else data
        full = (self.prefix + name).encode("utf-8")
        size = len(data)
        if size >= 0xFFFFFFFF or self.offset >= 0xFFFFFFFF:
            raise RuntimeError("chainrule.save cannot write archives of 4 GiB or more yet")
        crc = zlib.crc32(data) if size else 0
        padding = -(self.offset + 30 + len(full) + 4) % _ALIGNMENT
        extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
        flags = 0x0808 if size else 0x0800  # UTF-8 names; a data descriptor follows each payload
        self.entries.append((full, crc, size, self.offset, flags))
        self._write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra))
                    + full + extra)
        self._write(data)
        if size:
            self._write(struct.pack("<IIII", 0x08074B50, crc, size, size))
            self.crc_hash = _hash_combine(self.crc_hash, crc)
        self.names.append(name)

    def finish(self):
        self.write_record(".data/serialization_id", self._serialization_id())
        start = self.offset
        for full, crc, size, header, flags in self.entries:
            self._write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, flags, 0, 0, 0, crc, size, size,
                                    len(full), 0, 0, 0, 0, 0, header) + full)
        n, directory_size, zip64_start = len(self.entries), self.offset - start, self.offset
        self._write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 0x002D, 0, 0, n, n, directory_size, start))
        self._write(struct.pack("<IIQI", 0x07064B50, 0, zip64_start, 1))
        self._write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, directory_size, start, 0))

    def _serialization_id(self):
        """PyTorch's id: 20 digits from the record names' hashes, 20 from the payloads' CRCs.

        The CRC half is PyTorch's exactly. The name half folds the names' hashes in the
        iteration order of PyTorch's ``std::unordered_set``, which this does not emulate
        (sorted order instead), so it differs from torch's. Readers never check the id.
        """
        name_hash = 0
        for name in sorted(self.names):
            name_hash = _hash_combine(name_hash, _hash_bytes(name.encode("utf-8")))
        return f"{name_hash:020d}{self.crc_hash:020d}".encode("ascii")


_MASK = (1 << 64) - 1
_MURMUR = (0xC6A4A793 << 32) + 0x5BD1E995


def _hash_combine(seed, value):
    """``c10::hash_combine`` on 64-bit values (boost's formula)."""
    return (seed ^ ((value + 0x9E3779B9 + (seed << 6) + (seed >> 2)) & _MASK)) & _MASK


def _hash_bytes(data, seed=0xC70F6907):
    """libstdc++'s ``std::hash<std::string>`` (``_Hash_bytes``, a 64-bit MurmurHash2)."""
    def shift_mix(v):
        return v ^ (v >> 47)
    h = (seed ^ (len(data) * _MURMUR)) & _MASK
    whole = len(data) & ~7
    for i in range(0, whole, 8):
        word = (shift_mix((int.from_bytes(data[i:i + 8], "little") * _MURMUR) & _MASK) * _MURMUR) & _MASK
        h = ((h ^ word) * _MURMUR) & _MASK
    if len(data) & 7:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * _MURMUR) & _MASK
    return shift_mix((shift_mix(h) * _MURMUR) & _MASK)


def _archive_name(path):
    """The folder PyTorch's writer puts records in: the file's name without directory and
    last extension (``ckpt/model.pt`` -> ``model``), or ``archive`` for non-ASCII names."""
    try:
        path.encode("ascii")
    except UnicodeEncodeError:
        return "archive"
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if "." in name:
        name = name[:name.rindex(".")]
    if not name:
        raise RuntimeError(f"invalid file name: {path}")
    return name


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Writes ``obj`` (tensors, Parameters, state_dicts, nested containers) as ``torch.save`` does.

    ``f`` is a path or a binary file object. Tensors viewing one buffer share one storage in
    the file, so ``torch.load`` (or ``chainrule.load``) gives back views of one storage.
    """
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("chainrule.save writes PyTorch's zip format only "
                                  "(_use_new_zipfile_serialization=True, the default since PyTorch 1.6)")
    storages = _Storages()
    pickled = io.BytesIO()
    _Pickler(pickled, pickle_protocol, storages).dump(obj)
    if isinstance(f, (str, os.PathLike)):
        path = os.fspath(f)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
        with open(path, "wb") as out:
            _write_archive(out, _archive_name(path), pickled.getvalue(), storages, _disable_byteorder_record)
    else:
        if not callable(getattr(f, "write", None)):
            message = f"Buffer of {str(type(f)).strip('<>')} has no callable attribute 'write'"
            raise (AttributeError if not hasattr(f, "write") else TypeError)(message)
        _write_archive(f, "archive", pickled.getvalue(), storages, _disable_byteorder_record)


def _write_archive(out, archive_name, pickled, storages, disable_byteorder):
    writer = _ArchiveWriter(out, archive_name)
    writer.write_record("data.pkl", pickled)
    writer.write_record(".format_version", b"1")
    writer.write_record(".storage_alignment", str(_ALIGNMENT).encode())
    if not disable_byteorder:
        writer.write_record("byteorder", sys.byteorder.encode())
    for storage in storages.ordered:
        writer.write_record(f"data/{storage.key}", storage.buffer())
    writer.write_record("version", _FILE_FORMAT_VERSION)
    writer.finish()


# --- loading --------------------------------------------------------------------------

_CORRUPTED = (". This is an internal miniz error. If you are seeing this error, there is a high likelihood that "
              "your checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was "
              "transferred incorrectly, or the file was modified after saving.")

_REFUSED = ("Weights only load failed. chainrule.load only rebuilds tensors and plain data: it never imports or "
            "runs code that a file names.\n\tWeightsUnpickler error: ")


class _ArchiveReader:
    """The records of a PyTorch zip archive, found under its single top folder, CRC-checked."""

    def __init__(self, file, mmap_path=None):
        import zipfile  # noqa: PLC0415  (here, not at the top: it adds 2 MB to `import chainrule`; the writer needs none of it)
        self.stored, self.bad_zip = zipfile.ZIP_STORED, zipfile.BadZipFile
        try:
            self.zip = zipfile.ZipFile(file)
        except zipfile.BadZipFile:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: failed finding central directory"
                               + _CORRUPTED) from None
        names = self.zip.namelist()
        if not names:
            raise RuntimeError("archive does not contain any files")
        if "/" not in names[0]:
            raise RuntimeError(f"file in archive is not in a subdirectory: {names[0]}")
        self.prefix = names[0].split("/", 1)[0] + "/"
        self.mmap = None if mmap_path is None else np.memmap(mmap_path, np.uint8, mode="c")

    def has_record(self, name):
        return self.prefix + name in self.zip.NameToInfo

    def record(self, name):
        if not self.has_record(name):
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found" + _CORRUPTED)
        try:
            return self.zip.read(self.prefix + name)
        except (self.bad_zip, EOFError, OSError, zlib.error) as e:
            raise RuntimeError(f"PytorchStreamReader failed reading file {name}: {e}" + _CORRUPTED) from None

    def storage(self, name, dtype, numel):
        """The record ``name`` as ``numel`` elements of ``dtype``, refused if its size differs."""
        if not self.has_record(name):
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not found" + _CORRUPTED)
        nbytes = numel * dtype.itemsize
        size = self.zip.getinfo(self.prefix + name).file_size
        if size != nbytes:
            raise RuntimeError(f"record size ({size} bytes) does not match expected size ({nbytes} bytes = "
                               f"{nbytes} elements * 1 bytes/element) for dtype Byte")
        info = self.zip.getinfo(self.prefix + name)
        if self.mmap is not None and info.compress_type == self.stored:
            start = info.header_offset + 30 + len(info.orig_filename.encode()) + len(_local_extra(self.mmap, info))
            return self.mmap[start:start + nbytes].view(dtype.np)
        return np.frombuffer(bytearray(self.record(name)), dtype.np)


def _local_extra(mapped, info):
    """The local header's extra field (its length can differ from the central directory's)."""
    start = info.header_offset
    name_len, extra_len = struct.unpack("<HH", bytes(mapped[start + 26:start + 30]))
    return mapped[start + 30 + name_len:start + 30 + name_len + extra_len]


def _restore_location(location, map_location):
    """Where a storage saved at ``location`` goes: the CPU, or PyTorch's CPU-build error."""
    if isinstance(map_location, dict):
        location = map_location.get(location, location)
    elif map_location is not None and not callable(map_location):
        location = str(map_location)
    if not str(location).startswith("cpu"):
        if str(location).startswith("cuda"):
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() "
                               "is False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        raise RuntimeError(f"chainrule cannot load storages onto device {location!r}: it runs on the CPU only")


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Reads a file written by ``torch.save`` (or ``chainrule.save``): a path or a binary file object.

    Only tensors, Parameters, dtypes, sizes and plain containers come back (plus what
    ``add_safe_globals`` allowlisted); anything else is refused with ``UnpicklingError``.
    """
    if weights_only is False:
        raise pickle.UnpicklingError(
            "chainrule.load(weights_only=False) is not supported: it would let the file run arbitrary code "
            "(pickle calls whatever the file names), and chainrule never runs code from a file. Load with "
            "weights_only=True (the default); allowlist your own classes with "
            "chainrule.serialization.add_safe_globals([...]) if you trust them.")
    if pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
    if mmap and path is None:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if path is not None:
        with open(path, "rb") as file:
            return _load_file(file, map_location, path if mmap else None)
    return _load_file(f, map_location, None)


def _load_file(file, map_location, mmap_path):
    start = file.tell()
    magic = file.read(4)
    file.seek(start)
    if not magic:
        raise EOFError
    if magic != b"PK\x03\x04":
        raise pickle.UnpicklingError("chainrule.load reads PyTorch's zip format (what torch.save writes since "
                                     "PyTorch 1.6); this file is not a zip archive (PyTorch's legacy format, or "
                                     "not a checkpoint)")
    reader = _ArchiveReader(file, mmap_path)
    swap = reader.has_record("byteorder") and reader.record("byteorder") == b"big"
    if reader.has_record("byteorder") and reader.record("byteorder") not in (b"little", b"big"):
        raise ValueError("Unknown endianness type: " + reader.record("byteorder").decode())
    loaded = {}

    def persistent_load(pid):
        if not (type(pid) is tuple and len(pid) == 5):
            raise pickle.UnpicklingError(f"unsupported persistent id encountered: {pid!r}")
        _, storage_type, key, location, numel = pid
        if type(storage_type) is not StorageType or type(key) is not str or type(numel) is not int or numel < 0:
            raise pickle.UnpicklingError(f"malformed storage reference in data.pkl: {pid!r}")
        if key not in loaded:
            _restore_location(location, map_location)
            array = reader.storage(f"data/{key}", storage_type.dtype, numel)
            loaded[key] = LoadedStorage(array.byteswap() if swap else array)
        elif loaded[key].array.dtype != storage_type.dtype.np:
            raise pickle.UnpicklingError(f"storage {key} is referenced with two dtypes in data.pkl")
        return loaded[key]

    pickled = io.BytesIO(reader.record("data.pkl"))
    try:
        return Unpickler(pickled, persistent_load).load()
    except pickle.UnpicklingError as e:
        raise pickle.UnpicklingError(_REFUSED + str(e)) from None
    except (IndexError, KeyError, EOFError, struct.error, UnicodeDecodeError, TypeError, ValueError) as e:
        raise pickle.UnpicklingError(_REFUSED + f"malformed data.pkl ({type(e).__name__}: {e})") from None
