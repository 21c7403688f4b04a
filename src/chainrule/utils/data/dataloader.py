"""``DataLoader``: batches from a dataset, in the sampler's order, in this process or in workers.

>>> loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
>>> for xb, yb in loader: ...

Iterating draws what PyTorch's iterator draws: one int64 "base seed" when the iterator is
made (from ``generator``, else the global stream), then the sampler's own draws at the first
batch, so a seeded loader gives PyTorch's batch order. With ``num_workers > 0``, worker
processes (``multiprocessing``) each take every ``num_workers``-th batch, as PyTorch's do;
batches come back in the sampler's order, the same batches as with ``num_workers=0``.
"""
import itertools
import random
import warnings

from ..._ops import creation as _creation
from ..._core import dtype as _dtype
from ._collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info", "WorkerInfo"]


class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: ``id``, ``num_workers``, ``seed``, ``dataset``."""

    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed}, "
                f"dataset={self.dataset!r})")


_worker_info = None


def get_worker_info():
    """This worker's ``WorkerInfo``, or None in the main process."""
    return _worker_info


class _InfiniteConstantSampler:
    """For iterable datasets: an endless stream of None (the dataset decides what comes)."""

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """PyTorch's DataLoader: the same arguments, defaults and argument-conflict errors."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 "
                             "to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory  # no accelerator: nothing to pin
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 f"sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
                                 f"got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, "
                                 "and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        if self.pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.", stacklevel=2)
        sampler_iter = iter(self._index_sampler)
        # PyTorch draws the workers' base seed as the iterator is made, before the sampler's draws
        base_seed = _creation.empty((), dtype=_dtype.int64).random_(generator=self.generator).item()
        if self.num_workers == 0:
            return self._single_process(sampler_iter)
        return self._multi_process(sampler_iter, base_seed)

    def __len__(self):
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)

    # --- fetching --------------------------------------------------------------------

    def _single_process(self, sampler_iter):
        fetch = _Fetcher(self)
        for index in sampler_iter:
            try:
                yield fetch(index)
            except StopIteration:
                return

    def _multi_process(self, sampler_iter, base_seed):
        """Worker k fetches batches k, k + n, k + 2n, ... (n workers); results are yielded in order."""
        import multiprocessing  # noqa: PLC0415  (here, not at the top: 1 MB that `import chainrule` should not pay)
        context = self.multiprocessing_context
        if context is None or isinstance(context, str):
            context = multiprocessing.get_context(context)
        # SimpleQueues write to their pipe in the calling thread: a Queue's feeder thread can be
        # lost when the processes are forked from a process that runs other threads
        results = context.SimpleQueue()
        tasks = [context.SimpleQueue() for _ in range(self.num_workers)]
        workers = [context.Process(target=_worker_loop, daemon=True,
                                   args=(self, k, base_seed + k, tasks[k], results))
                   for k in range(self.num_workers)]
        for w in workers:
            w.start()
        try:
            yield from self._dispatch(sampler_iter, tasks, results)
        finally:
            for queue in tasks:
                queue.put(None)
            for w in workers:
                w.join(timeout=5)
                if w.is_alive():
                    w.terminate()

    def _dispatch(self, sampler_iter, tasks, results):
        n = self.num_workers
        in_flight, sent, next_out, done = {}, 0, 0, set()
        exhausted = False

        turns = itertools.cycle(range(n))  # workers take turns, a finished one skipped (PyTorch's order)

        def send():
            nonlocal sent, exhausted
            if self._iterable:
                if len(done) == n:
                    exhausted = True
                    return
                worker, index = next(turns), None
                while worker in done:
                    worker = next(turns)
            else:
                worker, index = next(turns), next(sampler_iter, _END)
                if index is _END:
                    exhausted = True
                    return
            tasks[worker].put((sent, index))
            sent += 1

        for _ in range(n * self.prefetch_factor):
            if not exhausted:
                send()
        while next_out < sent:
            while next_out not in in_flight:
                if self.timeout and not results._reader.poll(self.timeout):
                    raise RuntimeError(f"DataLoader timed out after {self.timeout} seconds")
                position, worker, payload = results.get()
                in_flight[position] = (worker, payload)
            worker, payload = in_flight.pop(next_out)
            next_out += 1
            if isinstance(payload, _WorkerError):
                raise payload.error
            if payload is _END_OF_WORKER:
                done.add(worker)
            else:
                yield payload
            if not exhausted:
                send()


_END = object()


class _EndOfWorker:
    """A worker's dataset ran out (iterable datasets)."""

    def __reduce__(self):
        return "_END_OF_WORKER"


_END_OF_WORKER = _EndOfWorker()


class _WorkerError:
    def __init__(self, error):
        self.error = error


class _Fetcher:
    """One batch (or sample) from the dataset: indexed, or drawn from the dataset's iterator."""

    def __init__(self, loader):
        self.loader = loader
        self.iterator = iter(loader.dataset) if loader._iterable else None

    def __call__(self, index):
        loader, collate = self.loader, self.loader.collate_fn
        if self.iterator is None:
            if loader._auto_collation:
                getitems = getattr(loader.dataset, "__getitems__", None)
                samples = getitems(index) if getitems else [loader.dataset[i] for i in index]
                return collate(samples)
            return collate(loader.dataset[index])
        if not loader._auto_collation:
            return collate(next(self.iterator))
        samples = []
        for _ in range(loader.batch_size):
            sample = next(self.iterator, _END)
            if sample is _END:
                break
            samples.append(sample)
        if not samples or (loader.drop_last and len(samples) < loader.batch_size):
            raise StopIteration
        return collate(samples)


def _worker_loop(loader, worker_id, seed, tasks, results):
    """A worker process: seeds itself as PyTorch's workers do, then fetches what it is sent."""
    global _worker_info
    random.seed(seed)
    _creation.manual_seed(seed)
    _worker_info = WorkerInfo(worker_id, loader.num_workers, seed, loader.dataset)
    try:
        if loader.worker_init_fn is not None:
            loader.worker_init_fn(worker_id)
        fetch = _Fetcher(loader)
    except Exception as e:  # noqa: BLE001  (handed to the main process)
        results.put((0, worker_id, _WorkerError(e)))
        return
    while True:
        task = tasks.get()
        if task is None:
            return
        position, index = task
        try:
            results.put((position, worker_id, fetch(index)))
        except StopIteration:
            results.put((position, worker_id, _END_OF_WORKER))
        except Exception as e:  # noqa: BLE001  (raised in the main process, as PyTorch does)
            results.put((position, worker_id, _WorkerError(e)))
