"""``triton.testing``: benchmarking and comparison helpers.

``do_bench`` times GPU work with CUDA events when torch drives a CUDA
device in the process (L2 flushed before each run, as Triton does), and
otherwise with ``time.perf_counter`` (the interpreter runs kernels
synchronously on the host, so wall clock is the device time);
``do_bench_cudagraph`` replays a captured CUDA graph when it can;
``assert_close`` compares numpy arrays (and torch tensors through
``.cpu().numpy()``); ``Benchmark`` and ``perf_report`` evaluate a function
over a grid, print a table and plot it when matplotlib is installed.
"""

import math
import os
import sys
import statistics
import time
import warnings

__all__ = ["Benchmark", "Mark", "assert_close", "do_bench",
           "do_bench_cudagraph", "perf_report"]


def _cuda_torch():
    """torch, when it drives a CUDA device in this process (so GPU work is
    timed with CUDA events), else None."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.cuda.is_available() and \
                torch.cuda.is_initialized():
            return torch
    except Exception:  # noqa: BLE001 - a broken torch: time on the host
        pass
    return None


def _do_bench_cuda(torch, fn, warmup, rep, grad_to_none, quantiles,
                   return_mode):
    """do_bench on the GPU, as Triton times it: CUDA events around each
    run, the L2 cache flushed (a 256 MB buffer zeroed) before each."""
    fn()
    torch.cuda.synchronize()
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int,
                        device="cuda")
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    estimate_ms = max(start.elapsed_time(end) / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) for s, e in zip(starts, ends)]
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None,
                       return_mode="mean"):
    """Runtime of `fn()` in milliseconds, replayed from a CUDA graph as in
    Triton; when `fn`'s work cannot be captured in a graph (or there is no
    GPU) it is timed as ``do_bench`` times it."""
    torch = _cuda_torch()
    if torch is not None:
        try:
            fn()
            stream = torch.cuda.Stream()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with torch.cuda.stream(stream):
                    graph = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(graph):
                        for _ in range(10):
                            fn()
            torch.cuda.synchronize()
            if any("Graph is empty" in str(w.message) for w in caught):
                raise RuntimeError("fn's work went around the capture")
            times = []
            for _ in range(max(1, rep)):
                s = torch.cuda.Event(enable_timing=True)
                e = torch.cuda.Event(enable_timing=True)
                s.record()
                graph.replay()
                e.record()
                torch.cuda.synchronize()
                times.append(s.elapsed_time(e) / 10)
            return _summarize(times, quantiles, return_mode)
        except Exception:  # noqa: BLE001 - not capturable: time as do_bench
            torch.cuda.synchronize()
    return do_bench(fn, rep=rep, grad_to_none=grad_to_none,
                    quantiles=quantiles, return_mode=return_mode)


def _quantile(sorted_times, q):
    """Linear interpolation between closest ranks (torch.quantile's and
    numpy's default)."""
    if not 0.0 <= q <= 1.0:
        raise ValueError("quantiles must be in [0, 1], got %r" % (q,))
    pos = q * (len(sorted_times) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_times) - 1)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (
        pos - lo)


def _summarize(times, quantiles, return_mode):
    if quantiles is not None:
        ordered = sorted(times)
        ret = [_quantile(ordered, q) for q in quantiles]
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return list(times)
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    return statistics.fmean(times)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None,
             return_mode="mean"):
    """Runtime of `fn()` in milliseconds, as Triton's ``do_bench``: one run
    to compile, an estimate from up to 5 runs, then ``warmup`` ms of warm-up
    runs and ``rep`` ms of timed runs (at least one of each). Returns
    `quantiles` of the timings (a list, or a float for one quantile), else
    their `return_mode` ("min", "max", "mean", "median" or "all")."""
    if return_mode not in ("min", "max", "mean", "median", "all"):
        raise ValueError("return_mode must be min, max, mean, median or "
                         "all, got %r" % (return_mode,))
    torch = _cuda_torch()
    if torch is not None:
        return _do_bench_cuda(torch, fn, warmup, rep, grad_to_none,
                              quantiles, return_mode)
    clock = time.perf_counter
    fn()
    # Estimate the runtime; a slow fn stops the estimate once it used rep.
    runs = 0
    start = clock()
    while runs < 5:
        fn()
        runs += 1
        if (clock() - start) * 1e3 >= rep:
            break
    estimate_ms = max((clock() - start) * 1e3 / runs, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        t0 = clock()
        fn()
        times.append((clock() - t0) * 1e3)
    return _summarize(times, quantiles, return_mode)


def _to_numpy(x):
    import numpy as np
    if hasattr(x, "detach") and hasattr(x, "cpu"):  # a torch tensor
        if str(getattr(x, "dtype", "")).endswith("bfloat16"):
            x = x.float()
        return x.detach().cpu().numpy()
    if hasattr(x, "cpu") and hasattr(x, "numpy"):
        return x.cpu().numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Raises AssertionError unless ``|x - y| <= atol + rtol * |y|``
    everywhere (NaNs equal). `atol` (default 1e-2) and `rtol` (default 0)
    may be callables on x's dtype, as in Triton."""
    import numpy as np
    x = _to_numpy(x)
    y = _to_numpy(y)
    if atol is None:
        atol = 1e-2
    atol = atol(x.dtype) if callable(atol) else atol
    if rtol is None:
        rtol = 0.0
    rtol = rtol(x.dtype) if callable(rtol) else rtol
    if x.dtype.name == "bfloat16":
        x = x.astype(np.float32)
    if y.dtype.name == "bfloat16":
        y = y.astype(np.float32)
    if x.dtype == np.bool_:
        x = x.astype(np.int8)
    if y.dtype == np.bool_:
        y = y.astype(np.int8)
    if x.size > 1 or y.size > 1:
        np.testing.assert_allclose(x, y, atol=atol, rtol=rtol,
                                   equal_nan=True, err_msg=err_msg)
        return
    if not np.allclose(x, y, atol=atol, rtol=rtol, equal_nan=True):
        raise AssertionError("%s %s is not close to %s (atol=%s, rtol=%s)"
                             % (err_msg, x, y, atol, rtol))


class Benchmark:
    """One benchmark of ``perf_report``: the function is evaluated at each
    x in `x_vals` (bound to the names `x_names`) for each line value in
    `line_vals` (bound to `line_arg`), with the fixed `args`."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names,
                 plot_name="", args=None, xlabel="", ylabel="", x_log=False,
                 y_log=False, styles=None, color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args or {})
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles
        self.color = color

    def __repr__(self):
        return "Benchmark(%s)" % ", ".join(
            "%s=%r" % kv for kv in vars(self).items())


def _format_table(columns, rows):
    def cell(v):
        if isinstance(v, float):
            return "%.6g" % v
        return str(v)
    text = [[""] + list(columns)]
    text += [[str(i)] + [cell(v) for v in row] for i, row in enumerate(rows)]
    widths = [max(len(r[c]) for r in text) for c in range(len(text[0]))]
    return "\n".join("  ".join(v.rjust(w) for v, w in zip(r, widths))
                     for r in text)


class Mark:
    """A function decorated by ``perf_report``: ``.run(...)`` evaluates it
    over each benchmark's grid; calling it calls the function."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False,
             save_precision=6, **kwargs):
        columns = list(bench.x_names) + list(bench.line_names)
        rows = []
        lows, highs = [], []
        for x in bench.x_vals:
            if isinstance(x, (list, tuple)):
                x_args = dict(zip(bench.x_names, x))
                xs = list(x)
            else:
                x_args = {name: x for name in bench.x_names}
                xs = [x] * len(bench.x_names)
            means, lo, hi = [], [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args,
                              **kwargs)
                try:
                    y_mean, y_min, y_max = ret
                except TypeError:
                    y_mean, y_min, y_max = ret, None, None
                means.append(y_mean)
                lo.append(y_min)
                hi.append(y_max)
            rows.append(xs + means)
            lows.append(lo)
            highs.append(hi)
        if diff_col and len(bench.line_names) == 2:
            columns.append("Diff")
            for row in rows:
                row.append(row[-1] - row[-2])

        if bench.plot_name:
            self._plot(bench, rows, lows, highs, save_path, show_plots)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
            name = bench.plot_name or "results"
            with open(os.path.join(save_path, name + ".csv"), "w",
                      encoding="utf-8") as f:
                f.write(",".join(columns) + "\n")
                for row in rows:
                    f.write(",".join(
                        ("%.*f" % (save_precision, v))
                        if isinstance(v, float) else str(v)
                        for v in row) + "\n")
        if print_data:
            print(bench.plot_name + ":")
            print(_format_table(columns, rows))
        return columns, rows

    def _plot(self, bench, rows, lows, highs, save_path, show_plots):
        if not (show_plots or save_path):
            return
        try:
            import matplotlib
            if not show_plots:
                matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return  # no matplotlib: the table is the report
        fig = plt.figure()
        ax = plt.subplot()
        first_x = bench.x_names[0]
        xs = [row[0] for row in rows]
        nx = len(bench.x_names)
        for i, name in enumerate(bench.line_names):
            ys = [row[nx + i] for row in rows]
            color, style = (bench.styles[i] if bench.styles
                            else (None, None))
            ax.plot(xs, ys, label=name, color=color, ls=style)
            lo = [r[i] for r in lows]
            hi = [r[i] for r in highs]
            if all(v is not None for v in lo + hi):
                ax.fill_between(xs, lo, hi, alpha=0.15, color=color)
        ax.legend()
        ax.set_xlabel(bench.xlabel or first_x)
        ax.set_ylabel(bench.ylabel)
        if bench.x_log:
            ax.set_xscale("log")
        if bench.y_log:
            ax.set_yscale("log")
        if show_plots:
            plt.show()
        if save_path:
            os.makedirs(save_path, exist_ok=True)
            fig.savefig(os.path.join(save_path, bench.plot_name + ".png"))
        plt.close(fig)

    def run(self, show_plots=False, print_data=False, save_path="",
            return_df=False, **kwargs):
        """Evaluates every benchmark; prints the tables with `print_data`,
        plots them (matplotlib) with `show_plots` or into `save_path`,
        which also receives a CSV per benchmark. With `return_df`, returns
        each benchmark's (columns, rows) (a pandas DataFrame when pandas is
        installed)."""
        benchmarks = (self.benchmarks
                      if isinstance(self.benchmarks, (list, tuple))
                      else [self.benchmarks])
        results = []
        for bench in benchmarks:
            columns, rows = self._run(bench, save_path, show_plots,
                                      print_data, **kwargs)
            results.append(_frame(columns, rows))
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w",
                      encoding="utf-8") as html:
                html.write("<html><body>\n")
                for bench in benchmarks:
                    html.write("<image src=\"%s.png\"/>\n" % bench.plot_name)
                html.write("</body></html>\n")
        if return_df:
            return results[0] if len(results) == 1 else results
        return None


def _frame(columns, rows):
    try:
        import pandas
    except ImportError:
        return columns, rows
    return pandas.DataFrame(rows, columns=columns)


def perf_report(benchmarks):
    """``@perf_report(Benchmark(...))`` (or a list of them): the decorated
    function gains ``.run(show_plots, print_data, save_path)``."""

    def decorator(fn):
        return Mark(fn, benchmarks)

    return decorator
