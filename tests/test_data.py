"""utils.data against torch.utils.data: datasets, samplers' orders after the same seed, the
DataLoader (in this process and with workers), collation."""
import collections
import warnings

import numpy as np
import pytest

import chainrule
import chainrule.utils.data as data
from helpers import full_error_of, require_torch


def _lib_data(lib):
    return data if lib is chainrule else lib.utils.data


def _plain(x):
    """Batches as nested Python values plus type and dtype names, comparable across libraries."""
    if hasattr(x, "tolist") and hasattr(x, "dtype") and not isinstance(x, np.ndarray):
        return ("tensor", str(x.dtype), x.tolist())
    if isinstance(x, dict):
        return (type(x).__name__, {k: _plain(v) for k, v in x.items()})
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_plain(v) for v in x])
    return (type(x).__name__, x.tolist() if isinstance(x, np.ndarray) else x)


def _both(program):
    torch = require_torch()
    chainrule.manual_seed(0)
    ours = _plain(program(chainrule))
    torch.manual_seed(0)
    return ours, _plain(program(torch))


def _tensor_dataset(lib, n=10):
    return _lib_data(lib).TensorDataset(lib.arange(2.0 * n).view(n, 2), lib.arange(n))


ORDERS = {
    "shuffle, two epochs": lambda lib: [[b[1] for b in lib_loader(lib, batch_size=3, shuffle=True)] for _ in range(2)],
    "shuffle with generator": lambda lib: [b[1] for b in lib_loader(lib, batch_size=4, shuffle=True,
                                                                    generator=lib.Generator().manual_seed(7))],
    "drop_last": lambda lib: [b[1] for b in lib_loader(lib, batch_size=4, shuffle=True, drop_last=True)],
    "RandomSampler": lambda lib: list(_lib_data(lib).RandomSampler(range(7))),
    "RandomSampler replacement": lambda lib: list(_lib_data(lib).RandomSampler(range(7), replacement=True,
                                                                              num_samples=70)),
    "RandomSampler num_samples > n": lambda lib: list(_lib_data(lib).RandomSampler(range(4), num_samples=11)),
    "SubsetRandomSampler": lambda lib: list(_lib_data(lib).SubsetRandomSampler([10, 20, 30, 40, 50])),
    "WeightedRandomSampler": lambda lib: list(_lib_data(lib).WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], 12)),
    "WeightedRandomSampler no replacement": lambda lib: list(_lib_data(lib).WeightedRandomSampler(
        [0.1, 0.9, 0.4, 0.3], 3, replacement=False)),
    "random_split lengths": lambda lib: [s.indices for s in _lib_data(lib).random_split(range(10), [3, 7])],
    "random_split fractions": lambda lib: [s.indices for s in _lib_data(lib).random_split(
        range(11), [0.3, 0.3, 0.4], generator=lib.Generator().manual_seed(1))],
    "BatchSampler": lambda lib: list(_lib_data(lib).BatchSampler(range(10), 3, drop_last=False)),
    "seed stream after a loader": lambda lib: ([b[1] for b in lib_loader(lib, batch_size=5, shuffle=True)],
                                               lib.rand(2)),
}


def lib_loader(lib, **kwargs):
    return _lib_data(lib).DataLoader(_tensor_dataset(lib), **kwargs)


@pytest.mark.parametrize("name", ORDERS)
def test_random_orders_are_pytorchs_after_the_same_seed(name):
    ours, theirs = _both(ORDERS[name])
    assert ours == theirs


def test_datasets_index_as_torch():
    def program(lib):
        d = _lib_data(lib)
        ds = _tensor_dataset(lib, 4)
        cat = ds + _tensor_dataset(lib, 3)
        stack = d.StackDataset(ds, ds)
        named = d.StackDataset(x=ds, y=range(4))
        return [ds[1], len(ds), len(cat), cat[5], cat[-1], d.Subset(ds, [3, 0])[1], stack[2], named[3],
                cat.cumulative_sizes, len(d.Subset(ds, [1, 2]))]
    ours, theirs = _both(program)
    assert ours == theirs


class _Count:
    def __init__(self, lib, n):
        self.lib, self.n = lib, n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def _counting(lib, n):
    """An IterableDataset of 0..n-1 for ``lib``."""
    return type("Counting", (_Count, _lib_data(lib).IterableDataset), {})(lib, n)


def test_iterable_datasets_batch_and_chain_as_torch():
    def program(lib):
        loader = _lib_data(lib).DataLoader(_counting(lib, 7), batch_size=3)
        return [list(loader), len(loader), list(_counting(lib, 2) + _counting(lib, 3)),
                list(_lib_data(lib).DataLoader(_counting(lib, 3), batch_size=None))]
    ours, theirs = _both(program)
    assert ours == theirs


ERRORS = {
    "TensorDataset size mismatch": lambda lib: _lib_data(lib).TensorDataset(lib.zeros(2), lib.zeros(3)),
    "StackDataset both kinds": lambda lib: _lib_data(lib).StackDataset(range(2), y=range(2)),
    "StackDataset size mismatch": lambda lib: _lib_data(lib).StackDataset(range(2), range(3)),
    "ConcatDataset empty": lambda lib: _lib_data(lib).ConcatDataset([]),
    "ConcatDataset index": lambda lib: _lib_data(lib).ConcatDataset([range(2)])[-3],
    "random_split sum": lambda lib: _lib_data(lib).random_split(range(5), [2, 2]),
    "random_split fraction": lambda lib: _lib_data(lib).random_split(range(5), [1.5, -0.5]),
    "RandomSampler replacement": lambda lib: _lib_data(lib).RandomSampler(range(3), replacement=1),
    "RandomSampler num_samples": lambda lib: _lib_data(lib).RandomSampler(range(3), num_samples=0),
    "BatchSampler batch_size": lambda lib: _lib_data(lib).BatchSampler(range(3), 0, False),
    "WeightedRandomSampler shape": lambda lib: _lib_data(lib).WeightedRandomSampler([[1.0]], 2),
    "num_workers": lambda lib: lib_loader(lib, num_workers=-1),
    "timeout": lambda lib: lib_loader(lib, timeout=-1),
    "prefetch_factor": lambda lib: lib_loader(lib, prefetch_factor=2),
    "persistent_workers": lambda lib: lib_loader(lib, persistent_workers=True),
    "sampler and shuffle": lambda lib: lib_loader(lib, sampler=range(3), shuffle=True),
    "batch_sampler and batch_size": lambda lib: lib_loader(lib, batch_sampler=[[0, 1]], batch_size=2),
    "batch_size None and drop_last": lambda lib: lib_loader(lib, batch_size=None, drop_last=True),
    "iterable and shuffle": lambda lib: _lib_data(lib).DataLoader(_counting(lib, 3), shuffle=True),
    "collate of unequal lists": lambda lib: _lib_data(lib).default_collate([[1, 2], [3]]),
    "collate of objects": lambda lib: _lib_data(lib).default_collate([object()]),
    "collate of string arrays": lambda lib: _lib_data(lib).default_collate([np.array(["a"])]),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_as_torch(name):
    torch = require_torch()
    ours, theirs = full_error_of(lambda: ERRORS[name](chainrule)), full_error_of(lambda: ERRORS[name](torch))
    if name == "collate of objects":  # the message names the element's class
        ours, theirs = (ours[0], ours[1].split(";")[0]), (theirs[0], theirs[1].split(";")[0])
    assert ours == theirs


Point = collections.namedtuple("Point", "x y")

SAMPLES = {
    "tensors": lambda lib: [lib.ones(2), lib.zeros(2)],
    "int tensors": lambda lib: [lib.tensor([1, 2], dtype=lib.int16), lib.tensor([3, 4], dtype=lib.int16)],
    "numpy arrays": lambda lib: [np.ones(2, np.float32), np.zeros(2, np.float32)],
    "numpy scalars": lambda lib: [np.float32(1.5), np.float32(2.0)],
    "numpy ints": lambda lib: [np.int32(1), np.int32(2)],
    "floats": lambda lib: [1.5, 2.0],
    "ints": lambda lib: [1, 2],
    "bools": lambda lib: [True, False],
    "strings": lambda lib: ["a", "b"],
    "dicts": lambda lib: [{"x": lib.ones(1), "label": 0}, {"x": lib.zeros(1), "label": 1}],
    "named tuples": lambda lib: [Point(lib.ones(1), 1.0), Point(lib.zeros(1), 2.0)],
    "tuples": lambda lib: [(lib.ones(1), 1), (lib.zeros(1), 2)],
    "lists": lambda lib: [[1, 2.5], [3, 4.5]],
    "nested": lambda lib: [{"a": [np.zeros(1), (1, "s")]}, {"a": [np.ones(1), (2, "t")]}],
}


@pytest.mark.parametrize("name", SAMPLES)
def test_default_collate_and_convert_as_torch(name):
    def program(lib):
        samples = SAMPLES[name](lib)
        return [_lib_data(lib).default_collate(samples), _lib_data(lib).default_convert(samples),
                _lib_data(lib).default_convert(samples[0])]
    ours, theirs = _both(program)
    assert ours == theirs


def _seen_by_worker(worker_id):
    info = data.get_worker_info()
    assert info.id == worker_id and info.num_workers == 2
    chainrule.manual_seed(1234)  # a worker's own stream; must not change what the loader yields


def test_workers_yield_the_same_batches_in_the_same_order():
    ds = _tensor_dataset(chainrule, 23)
    chainrule.manual_seed(3)
    alone = [b[1].tolist() for b in data.DataLoader(ds, batch_size=4, shuffle=True)]
    chainrule.manual_seed(3)
    loader = data.DataLoader(ds, batch_size=4, shuffle=True, num_workers=2, worker_init_fn=_seen_by_worker,
                             persistent_workers=True, pin_memory=True, prefetch_factor=1)
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no accelerator is found"):
        assert [b[1].tolist() for b in loader] == alone and len(loader) == len(alone) == 6
    assert data.get_worker_info() is None


def test_workers_over_an_iterable_dataset_split_it_as_torch():
    def program(lib):
        return list(_lib_data(lib).DataLoader(_counting(lib, 5), batch_size=2, num_workers=2))
    ours, theirs = _both(program)
    assert ours == theirs


def test_random_split_warns_on_an_empty_split():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lengths = [len(s) for s in data.random_split(range(2), [0.5, 0.5, 0.0])]
        torch = require_torch()
        assert lengths == [len(s) for s in torch.utils.data.random_split(range(2), [0.5, 0.5, 0.0])]
    assert "Length of split at index 2 is 0" in str(caught[0].message)
