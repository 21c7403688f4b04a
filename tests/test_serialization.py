"""save/load in PyTorch's own file format: both directions against real torch, and refusals."""
import collections
import io
import os
import pickle
import zipfile

import numpy as np
import pytest

import chainrule
import chainrule.serialization as serialization
from chainrule.nn.parameter import Parameter
from helpers import require_torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
          "complex128"]


def _values(name, shape=(2, 3)):
    rng = np.random.default_rng(len(name))
    if name == "bool":
        return rng.random(shape) > 0.5
    if name.startswith("complex"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(name)
    return (rng.standard_normal(shape) * 50).astype(name)


def _checkpoint(L):
    """One object with every structure a checkpoint holds, built the same way on both libraries."""
    base = L.from_numpy(np.arange(12, dtype=np.float32))
    weight = L.from_numpy(_values("float64", (3, 2))).requires_grad_()
    return {
        "state_dict": collections.OrderedDict([("w", base), ("view", base[2:8].view(2, 3)), ("t", base.view(3, 4).t()),
                                               ("tied", base), ("weight", weight)]),
        "dtypes": [L.from_numpy(_values(name)) for name in DTYPES],
        "scalar": L.tensor(3.5),
        "empty": L.zeros(0, 3),
        "expanded": L.from_numpy(np.arange(3.0)).expand(2, 3),
        "optimizer": {"state": {0: {"step": L.tensor(3.0), "exp_avg": L.zeros(2)}, 1: {}},
                      "param_groups": [{"lr": 0.01, "betas": (0.9, 0.999), "params": [0, 1], "amsgrad": False,
                                        "foreach": None}]},
        "meta": ("epoch", 7, 2.5, None, True, 10 ** 30, 1 + 2j, b"raw", {3, 4}, [], ()),
        "dtype": L.float16, "size": L.Size([2, 3]),
    }


def _records(raw):
    z = zipfile.ZipFile(io.BytesIO(raw))
    return [(i.filename, i.header_offset, i.flag_bits, i.file_size, z.read(i.filename)) for i in z.infolist()]


def _bits(t):
    return np.ascontiguousarray(np.asarray(t.detach().numpy())).view(np.uint8).tobytes()


def _save(lib, obj, f=None):
    f = io.BytesIO() if f is None else f
    (serialization.save if lib is chainrule else lib.save)(obj, f)
    return f.getvalue() if isinstance(f, io.BytesIO) else f


def test_save_writes_the_bytes_torch_save_writes():
    torch = require_torch()
    ours, theirs = _records(_save(chainrule, _checkpoint(chainrule))), _records(_save(torch, _checkpoint(torch)))
    assert [r[0] for r in ours] == [r[0] for r in theirs]
    for a, b in zip(ours, theirs):
        if a[0].endswith(".data/serialization_id"):  # only its CRC half is reproduced (see _serialization_id)
            assert a[1:4] == b[1:4] and a[4][20:] == b[4][20:]
        else:
            assert a == b, a[0]


def _assert_same_tensor(ours, theirs):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    if theirs.numel():  # chainrule's empty tensors report NumPy 2's zero strides (a core issue)
        assert tuple(ours.stride()) == tuple(theirs.stride())
    assert ours.requires_grad == theirs.requires_grad
    assert _bits(ours) == _bits(theirs)


def _walk(ours, theirs):
    if isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs)
        for k in theirs:
            _walk(ours[k], theirs[k])
    elif isinstance(theirs, (list, tuple)) and not hasattr(theirs, "numel"):
        assert type(ours) is type(theirs) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _walk(a, b)
    elif hasattr(theirs, "stride"):
        _assert_same_tensor(ours, theirs)
    else:
        assert str(ours) == str(theirs)


def test_files_written_by_torch_load_with_identical_bits_and_sharing():
    torch = require_torch()
    loaded = serialization.load(io.BytesIO(_save(torch, _checkpoint(torch))))
    _walk(loaded, _checkpoint(torch))
    sd = loaded["state_dict"]
    assert all(np.shares_memory(sd["w"].numpy(), sd[k].numpy()) for k in ("view", "t", "tied"))
    sd["w"][3] = 100.0  # a view of the one storage, as in torch
    assert sd["view"][0, 1].item() == 100.0 and sd["tied"][3].item() == 100.0


def test_files_written_by_chainrule_load_in_torch():
    torch = require_torch()
    loaded = torch.load(io.BytesIO(_save(chainrule, _checkpoint(chainrule))), weights_only=True)
    _walk(_checkpoint(chainrule), loaded)
    sd = loaded["state_dict"]
    ptr = sd["w"].untyped_storage().data_ptr()
    assert all(sd[k].untyped_storage().data_ptr() == ptr for k in ("view", "t", "tied"))
    assert sd["view"].storage_offset() == 2 and sd["t"].stride() == (1, 4)


def test_parameters_round_trip_through_torch():
    torch = require_torch()
    p = Parameter(chainrule.ones(2, 2))
    frozen = Parameter(chainrule.zeros(3), requires_grad=False)
    theirs = torch.load(io.BytesIO(_save(chainrule, {"p": p, "frozen": frozen})), weights_only=True)
    assert type(theirs["p"]) is torch.nn.Parameter and theirs["p"].requires_grad and not theirs["frozen"].requires_grad
    back = serialization.load(io.BytesIO(_save(torch, theirs)))
    assert type(back["p"]) is Parameter and back["p"].requires_grad and not back["frozen"].requires_grad
    assert _bits(back["p"]) == _bits(p)


def test_round_trip_keeps_structure_and_sharing():
    obj = _checkpoint(chainrule)
    back = serialization.load(io.BytesIO(_save(chainrule, obj)))
    _walk(back, obj)
    assert back["state_dict"]["tied"] is back["state_dict"]["w"]  # one object saved twice stays one object
    assert back["dtype"] is chainrule.float16 and type(back["size"]) is chainrule.Size


def test_paths_name_the_archive_folder_as_torch(tmp_path):
    torch = require_torch()
    path, torch_path = tmp_path / "model.v2.pt", tmp_path / "torch" / "model.v2.pt"
    torch_path.parent.mkdir()
    serialization.save({"x": chainrule.arange(3)}, path)
    torch.save({"x": torch.arange(3)}, str(torch_path))
    assert zipfile.ZipFile(path).namelist()[0] == "model.v2/data.pkl"
    assert _records(path.read_bytes())[:-1] == _records(torch_path.read_bytes())[:-1]
    assert torch.load(path)["x"].tolist() == [0, 1, 2]
    assert serialization.load(str(torch_path))["x"].tolist() == [0, 1, 2]
    assert serialization.load(torch_path, mmap=True)["x"].tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match="Parent directory"):
        serialization.save(1, tmp_path / "missing" / "x.pt")


def test_map_location_and_cuda_files():
    torch = require_torch()
    raw = _save(chainrule, chainrule.ones(2))
    assert serialization.load(io.BytesIO(raw), map_location="cpu").tolist() == [1.0, 1.0]
    assert serialization.load(io.BytesIO(raw), map_location=lambda storage, loc: storage).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError) as ours:
        serialization.load(io.BytesIO(raw), map_location="cuda")
    with pytest.raises(RuntimeError) as theirs:
        torch.load(io.BytesIO(raw), map_location="cuda")
    assert str(ours.value) == str(theirs.value)


def test_views_of_one_buffer_as_two_dtypes_are_refused_as_in_torch():
    torch = require_torch()
    with pytest.raises(RuntimeError) as theirs:
        x = torch.ones(2, dtype=torch.complex64)
        torch.save([x, torch.view_as_real(x)], io.BytesIO())
    data = np.ones(2, np.complex64)
    with pytest.raises(RuntimeError) as ours:
        serialization.save([chainrule.from_numpy(data), chainrule.from_numpy(data.view(np.float32))], io.BytesIO())
    assert str(ours.value) == str(theirs.value)


def test_safe_globals_allowlist_user_classes():
    torch = require_torch()
    raw = _save(torch, {"point": Point(1, 2)})
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL test_serialization.Point"):
        serialization.load(io.BytesIO(raw))
    with serialization.safe_globals([Point]):
        assert serialization.load(io.BytesIO(raw))["point"] == Point(1, 2)
    assert Point not in serialization.get_safe_globals()
    serialization.add_safe_globals([Point])
    assert serialization.load(io.BytesIO(raw))["point"] == Point(1, 2)
    serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


Point = collections.namedtuple("Point", "x y")


# --- malicious and damaged files: each refused -------------------------------------------

class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


def _weights_error(torch_message):
    return torch_message.split("WeightsUnpickler error: ")[-1].split("\n\nCheck the documentation")[0].strip()


def _refusal(raw):
    with pytest.raises(Exception) as info:
        serialization.load(io.BytesIO(raw))
    return info.value


def test_a_file_calling_os_system_is_refused():
    torch = require_torch()
    raw = _save(torch, {"a": _Evil()})
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(io.BytesIO(raw))
    error = _refusal(raw)
    blocked = "Trying to load unsupported GLOBAL posix.system whose module posix is blocked."
    assert type(error) is pickle.UnpicklingError and blocked in str(error) and blocked in str(theirs.value)


def test_an_unknown_global_is_refused_with_torchs_message():
    torch = require_torch()
    raw = _save(torch, {"a": _Evil})
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(io.BytesIO(raw))
    error = _refusal(raw)
    assert type(error) is pickle.UnpicklingError
    assert str(error).endswith(_weights_error(str(theirs.value)))


def _rewrite(raw, change):
    """The archive with each record's bytes passed through ``change(name, data)`` (None drops it)."""
    src, out = zipfile.ZipFile(io.BytesIO(raw)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = change(info.filename, src.read(info.filename))
            if data is not None:
                dst.writestr(info.filename, data)
    return out.getvalue()


def _compare_runtime_errors(raw):
    torch = require_torch()
    with pytest.raises(RuntimeError) as theirs:
        torch.load(io.BytesIO(raw))
    error = _refusal(raw)
    assert type(error) is RuntimeError and str(error) == str(theirs.value)


def test_a_storage_record_of_the_wrong_size_is_refused():
    raw = _save(chainrule, chainrule.arange(4.0))
    _compare_runtime_errors(_rewrite(raw, lambda name, data: data[:8] if name.endswith("data/0") else data))


def test_a_view_outside_its_storage_is_refused():
    raw = _save(chainrule, chainrule.arange(4.0))
    bigger = _rewrite(raw, lambda n, d: d.replace(b"K\x04\x85", b"K\x09\x85") if n.endswith("data.pkl") else d)
    _compare_runtime_errors(bigger)


def test_a_truncated_archive_is_refused():
    raw = _save(chainrule, chainrule.arange(4.0))
    _compare_runtime_errors(raw[:len(raw) // 2])


def test_a_missing_data_pkl_is_refused():
    raw = _save(chainrule, chainrule.arange(4.0))
    _compare_runtime_errors(_rewrite(raw, lambda name, data: None if name.endswith("data.pkl") else data))


def test_a_corrupted_record_fails_its_crc_check():
    raw = bytearray(_save(chainrule, chainrule.arange(4.0)))
    raw[raw.index(np.arange(4.0, dtype=np.float32).tobytes()) + 5] ^= 0xFF  # torch itself reads this silently
    error = _refusal(bytes(raw))
    assert type(error) is RuntimeError and "Bad CRC-32" in str(error)


def test_a_malformed_pickle_is_refused():
    raw = _save(chainrule, [chainrule.arange(4.0)])
    error = _refusal(_rewrite(raw, lambda name, data: data[:-3] + b"." if name.endswith("data.pkl") else data))
    assert type(error) is pickle.UnpicklingError and "malformed data.pkl" in str(error)


def test_non_zip_files_and_unsafe_options_are_refused():
    torch = require_torch()
    assert type(_refusal(b"not a checkpoint at all")) is pickle.UnpicklingError
    raw = _save(chainrule, chainrule.ones(1))
    with pytest.raises(pickle.UnpicklingError, match="never runs code from a file"):
        serialization.load(io.BytesIO(raw), weights_only=False)
    for kwargs, error in [({"pickle_module": pickle, "weights_only": True}, RuntimeError), ({"mmap": True}, ValueError)]:
        with pytest.raises(error) as theirs:
            torch.load(io.BytesIO(raw), **kwargs)
        with pytest.raises(error) as ours:
            serialization.load(io.BytesIO(raw), **kwargs)
        assert str(ours.value) == str(theirs.value)
