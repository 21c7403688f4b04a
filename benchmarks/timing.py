"""The one timing loop the benchmark scripts share: the median of many calls, after a
warm-up (first calls allocate buffers and fill caches). The median, not the mean, so a
pause of the machine in one call does not move the figure."""
import statistics
import time


def median_seconds(fn, repeats, warmup=3):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
