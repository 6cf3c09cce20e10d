"""Reading profiles: the hatchet JSON files ``tritium.profiler.finalize``
writes (and Triton's proton writes), with the metrics Triton's proton
viewer derives, and no dependency beyond the standard library.

``tree, metrics = parse(["tflop16/s", "time/ms"], "matmul.hatchet")`` reads
the file and computes the requested columns on every node;
``print_tree(tree, metrics)`` prints the indented tree with them.
``python -m triton.profiler.viewer -m time/ms,tflop16/s matmul.hatchet``
does both from the command line (``-l`` lists the metrics a file has).

Metrics, by name (case-insensitive):

- a stored metric by its name with or without unit: ``time`` (``time (ns)``),
  ``count``, ``bytes``, ``flops16``; inclusive ones (those the root lists)
  are summed over each node's subtree and named ``<name> (inc)``.
- ``time/s``, ``time/ms``, ``time/us``, ``time/ns``; ``avg_time/<unit>``
  (time / count); ``cpu_time/<unit>`` and ``avg_cpu_time/<unit>`` where
  ``cpu_time`` was recorded.
- ``flop/s``, ``gflop/s``, ``tflop/s`` (from ``flops``) and
  ``flop<w>/s``, ``gflop<w>/s``, ``tflop<w>/s`` for w = 8, 16, 32, 64 (from
  ``flops<w>``); ``byte/s``, ``gbyte/s``, ``tbyte/s`` (from ``bytes``): the
  inclusive amount over the inclusive time.
- ``util``: the larger of (flops / the GPU's peak) and (bytes / its peak
  bandwidth), over the node's time, for GPU nodes of a known architecture.
- ``<metric>/%``: an inclusive metric as a percentage of the root's.

A metric that is not there (or whose inputs are not) is a ValueError
naming it and listing the ones that are.
"""

import argparse
import json
import math
import re
import sys

FLOPS_WIDTHS = (8, 16, 32, 64)

# Frames proton's launch hook makes while it computes launch metadata.
_METADATA_FRAME = "__proton_launch_metadata"

_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def _rate_table():
    """derived rate -> (the stored metric it divides by time, factor)."""
    table = {"byte/s": ("bytes", 1.0), "gbyte/s": ("bytes", 1e9),
             "tbyte/s": ("bytes", 1e12)}
    for width in ("",) + FLOPS_WIDTHS:
        for prefix, factor in (("", 1.0), ("g", 1e9), ("t", 1e12)):
            table["%sflop%s/s" % (prefix, width)] = ("flops%s" % width,
                                                     factor)
    return table


_RATES = _rate_table()
_TIMES = {}  # derived time -> (stored metric, unit, averaged)
for _base in ("time", "cpu_time"):
    for _unit in _TIME_UNITS:
        _TIMES["%s/%s" % (_base, _unit)] = (_base, _unit, False)
        _TIMES["avg_%s/%s" % (_base, _unit)] = (_base, _unit, True)


# -- peak throughput, for util ----------------------------------------------

def max_flops(device_type, arch, width, num_sms, clock_rate):
    """Peak dense tensor-core operations per second of a CUDA GPU for
    `width`-bit operands (clock_rate in kHz)."""
    if device_type != "CUDA":
        raise ValueError("util: no peak throughput known for %s devices"
                         % device_type)
    scale = width / 8
    if arch == "80":
        return 624e12 / scale
    if arch == "89":
        return 330.3e12 / scale
    if arch == "90":
        # 1513 dense fp8 TFLOP/s on 114 SMs at 1755 MHz (H100 PCIe).
        return num_sms / 114 * clock_rate / 1755e3 * 1513e12 / scale
    if arch == "100":
        return num_sms * 16384 * clock_rate * 1e3 / scale
    raise ValueError("util: no peak throughput known for CUDA arch %s "
                     "(known: 80, 89, 90, 100)" % arch)


def max_bps(device_type, bus_width, memory_clock_rate):
    """Peak DRAM bytes per second (double data rate; memory clock in kHz,
    bus width in bits)."""
    if device_type != "CUDA":
        raise ValueError("util: no peak bandwidth known for %s devices"
                         % device_type)
    return 2 * bus_width * memory_clock_rate * 1e3 / 8


# -- the tree -----------------------------------------------------------------

class Node:
    """A frame of a profile: ``name``, its stored ``metrics``, ``children``,
    ``parent``, ``depth``, and ``values``: the columns computed by ``parse``
    (``"time/ms (inc)"`` -> value)."""

    __slots__ = ("name", "frame", "metrics", "children", "parent", "depth",
                 "values")

    def __init__(self, frame, metrics, parent):
        self.frame = frame
        self.name = str(frame.get("name", ""))
        self.metrics = metrics
        self.children = []
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.values = {}

    def __repr__(self):
        return "Node(%r)" % self.name


class Profile:
    """What ``parse`` and ``read`` return: the tree (``roots``), the stored
    metric names (``inclusive_metrics``: summed over subtrees, the root
    lists them; ``exclusive_metrics``: the others), the ``device_info``
    the file carries, and the columns computed so far (``columns``)."""

    def __init__(self, roots, inclusive, exclusive, device_info, filename):
        self.roots = roots
        self.inclusive_metrics = inclusive
        self.exclusive_metrics = exclusive
        self.device_info = device_info
        self.filename = filename
        self.columns = []

    def nodes(self):
        """Every node, parents before children."""
        todo = list(reversed(self.roots))
        while todo:
            node = todo.pop()
            yield node
            todo.extend(reversed(node.children))

    def find(self, name):
        """The first node named `name` (None if there is none)."""
        for node in self.nodes():
            if node.name == name:
                return node
        return None

    def show_metric_columns(self):
        return list(self.inclusive_metrics) + list(self.exclusive_metrics)

    def tree(self, metric_column=None, depth=100, precision=3,
             render_header=True, name=None, **_):
        """The tree as text: one line a node, the values of the columns
        `metric_column` (a name or a list) right-aligned, then the frame
        name indented under its parent."""
        if metric_column is None:
            metric_column = self.columns
        elif isinstance(metric_column, str):
            metric_column = [metric_column]
        name = name or (lambda n: n.name)
        rows = []

        def visit(node, prefix, last, top):
            if node.depth > depth:
                return
            branch = "" if top else ("└─ " if last else "├─ ")
            rows.append(([_format(node.values.get(c), precision)
                          for c in metric_column],
                         prefix + branch + name(node)))
            inner = prefix + ("" if top else ("   " if last else "│  "))
            for i, child in enumerate(node.children):
                visit(child, inner, i == len(node.children) - 1, False)

        for root in self.roots:
            visit(root, "", True, True)
        widths = [len(c) for c in metric_column]
        for cells, _ in rows:
            widths = [max(w, len(v)) for w, v in zip(widths, cells)]
        lines = []
        if render_header and metric_column:
            lines.append("  ".join(c.rjust(w) for c, w in
                                   zip(metric_column, widths)) + "  name")
        for cells, label in rows:
            lines.append("  ".join(v.rjust(w) for v, w in zip(cells, widths))
                         + ("  " if cells else "") + label)
        return "\n".join(lines) + "\n"


def _format(value, precision):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return "%.*f" % (precision, value)
    return str(value)


def _number(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return None


# -- reading ------------------------------------------------------------------

def _remove_frames(node):
    """Drops proton's launch-metadata frames and frames with neither
    metrics nor children (and parents left with no children by that)."""
    if not isinstance(node, dict) or "frame" not in node:
        return node
    if node["frame"].get("name") == _METADATA_FRAME:
        return None
    children = node.get("children", [])
    if not node.get("metrics") and not children:
        return None
    kept = [c for c in (_remove_frames(c) for c in children) if c is not None]
    if kept or not children:
        node["children"] = kept
        return node
    return None


def _build(data, parent):
    node = Node(data.get("frame", {}), dict(data.get("metrics", {})), parent)
    node.children = [_build(c, node) for c in data.get("children", [])]
    return node


def read(filename):
    """(profile, inclusive metric names, exclusive metric names, device
    info) of a hatchet file, inclusive values not computed yet."""
    with open(filename) as f:
        try:
            database = json.load(f)
        except ValueError as e:
            raise ValueError("%s: not a JSON profile (%s)" % (filename, e)) \
                from None
    if not isinstance(database, list) or not database or \
            not isinstance(database[0], dict) or "frame" not in database[0]:
        raise ValueError("%s: not a hatchet profile (a JSON list of the root "
                         "frame and the device information)" % filename)
    device_info = database[1] if len(database) > 1 and \
        isinstance(database[1], dict) and "frame" not in database[1] else {}
    root = _remove_frames(database[0])
    if root is None:
        raise ValueError("%s: the profile is empty (nothing was recorded)"
                         % filename)
    inclusive = list(root.get("metrics", {}))
    roots = [_build(root, None)]
    for extra in database[1:]:
        if isinstance(extra, dict) and "frame" in extra:
            extra = _remove_frames(extra)
            if extra is not None:
                roots.append(_build(extra, None))
    exclusive = []
    profile = Profile(roots, inclusive, exclusive, device_info, filename)
    for node in profile.nodes():
        for key in node.metrics:
            if key not in inclusive and key not in exclusive:
                exclusive.append(key)
    if not inclusive and not exclusive:
        raise ValueError("%s: no metrics in the profile" % filename)
    return profile, inclusive, exclusive, device_info


def _update_inclusive(profile):
    """Sets ``<m> (inc)`` (the subtree's sum; NaN where no frame of the
    subtree has `m`) for the inclusive metrics and the stored value for the
    exclusive ones on every node."""
    inclusive = profile.inclusive_metrics

    def visit(node):
        sums = [None] * len(inclusive)
        for child in node.children:
            visit(child)
            for i, m in enumerate(inclusive):
                value = child.values[m + " (inc)"]
                if not (isinstance(value, float) and math.isnan(value)):
                    sums[i] = value if sums[i] is None else sums[i] + value
        for i, m in enumerate(inclusive):
            own = _number(node.metrics.get(m))
            if own is not None:
                sums[i] = own if sums[i] is None else sums[i] + own
            node.values[m + " (inc)"] = float("nan") if sums[i] is None \
                else sums[i]
        for m in profile.exclusive_metrics:
            value = node.metrics.get(m)
            node.values[m] = value if value is not None else (
                None if m in ("device_id", "device_type") else float("nan"))

    for root in profile.roots:
        visit(root)


# -- metrics ------------------------------------------------------------------

def _unit_free(raw):
    return raw.split("(")[0].strip().lower()


def _match(metric, profile):
    """The column of stored metric `metric` (by name, with or without its
    unit), or None."""
    metric = metric.strip().lower()
    for raw in profile.inclusive_metrics:
        if metric in (raw.lower(), _unit_free(raw)):
            return raw + " (inc)"
    for raw in profile.exclusive_metrics:
        if metric in (raw.lower(), _unit_free(raw)):
            return raw
    return None


def available_metrics(profile):
    """The metric names ``parse`` accepts for this profile."""
    names = []
    for raw in profile.inclusive_metrics + profile.exclusive_metrics:
        name = _unit_free(raw)
        if name not in names:
            names.append(name)
    for derived, (base, _, averaged) in _TIMES.items():
        if _match(base, profile) and (not averaged
                                      or _match("count", profile)):
            names.append(derived)
    if _match("time", profile):
        for derived, (source, _) in _RATES.items():
            if _match(source, profile):
                names.append(derived)
        if profile.device_info and (
                _match("bytes", profile) or any(
                    _match("flops%d" % w, profile) for w in FLOPS_WIDTHS)):
            names.append("util")
    for raw in profile.inclusive_metrics:
        names.append(_unit_free(raw) + "/%")
    return names


def _unknown(metric, profile, why=None):
    return ValueError(
        "metric '%s' is not available in %s%s; available metrics: %s"
        % (metric, profile.filename, " (%s)" % why if why else "",
           ", ".join(available_metrics(profile)) or "none"))


def _need(name, metric, profile):
    column = _match(name, profile)
    if column is None:
        raise _unknown(metric, profile, "it needs '%s', which the profile "
                       "does not have" % name)
    return column


def _seconds(node, column):
    """The node's value of time column `column` ("time (ns) (inc)") in
    seconds."""
    unit = column.split("(")[1].split(")")[0].strip() if "(" in column \
        else "s"
    value = _number(node.values.get(column))
    if value is None or unit not in _TIME_UNITS:
        return float("nan")
    return value * _TIME_UNITS[unit]


def _divide(a, b):
    a, b = _number(a), _number(b)
    if a is None or b is None or b == 0 or math.isnan(b):
        return float("nan")
    return a / b


def derive_metrics(profile, metrics):
    """Computes the columns `metrics` ask for on every node; returns their
    names (``"tflop16/s (inc)"``, ``"count (inc)"``, ``"util"``...)."""
    if isinstance(metrics, str):
        metrics = [metrics]
    if not metrics:
        raise ValueError("no metrics requested; available metrics: %s"
                         % ", ".join(available_metrics(profile)))
    columns = []
    nodes = list(profile.nodes())
    for metric in metrics:
        key = metric.strip().lower()
        if key == "util":
            columns.append(_derive_util(profile, nodes, metric))
        elif key in _RATES:
            source, factor = _RATES[key]
            column = _need(source, metric, profile)
            time_column = _need("time", metric, profile)
            name = key + " (inc)"
            for node in nodes:
                node.values[name] = _divide(node.values.get(column),
                                            _seconds(node, time_column)
                                            * factor)
            columns.append(name)
        elif key in _TIMES:
            base, unit, averaged = _TIMES[key]
            time_column = _need(base, metric, profile)
            count_column = _need("count", metric, profile) if averaged \
                else None
            name = key + " (inc)"
            for node in nodes:
                value = _seconds(node, time_column) / _TIME_UNITS[unit]
                if averaged:
                    value = _divide(value, node.values.get(count_column))
                node.values[name] = value
            columns.append(name)
        elif "/" in key:
            base, unit = key.rsplit("/", 1)
            if unit != "%":
                raise _unknown(metric, profile, "unsupported unit '%s'"
                               % unit)
            column = _match(base, profile)
            if column is None:
                raise _unknown(metric, profile)
            values = [_number(n.values.get(column)) for n in nodes]
            if column.endswith(" (inc)"):
                total = _number(profile.roots[0].values.get(column))
            else:
                total = sum(v for v in values if v is not None
                            and not math.isnan(v))
            name = key + (" (inc)" if column.endswith(" (inc)") else "")
            for node, value in zip(nodes, values):
                node.values[name] = _divide(value, total) * 100.0
            columns.append(name)
        else:
            column = _match(key, profile)
            if column is None:
                raise _unknown(metric, profile)
            columns.append(column)
    profile.columns = columns
    return columns


def _derive_util(profile, nodes, metric):
    if not profile.device_info:
        raise _unknown(metric, profile, "util needs the GPU's device "
                       "information, and the profile has none")
    time_column = _need("time", metric, profile)
    for node in nodes:
        value = float("nan")
        kind = node.metrics.get("device_type")
        index = node.metrics.get("device_id")
        device = profile.device_info.get(kind, {}).get(str(index)) \
            if kind is not None else None
        if device:
            flops_time = 0.0
            for width in FLOPS_WIDTHS:
                flops = _number(node.metrics.get("flops%d" % width))
                if flops:
                    flops_time += flops / max_flops(
                        kind, str(device["arch"]), width, device["num_sms"],
                        device["clock_rate"])
            nbytes = _number(node.metrics.get("bytes")) or 0
            bytes_time = nbytes / max_bps(kind, device["bus_width"],
                                          device["memory_clock_rate"]) \
                if nbytes else 0.0
            value = _divide(max(flops_time, bytes_time),
                            _seconds(node, time_column))
        node.values["util"] = value
    return "util"


# -- filtering ------------------------------------------------------------------

def _prune(profile, keep):
    """Keeps the nodes for which keep(node) is True, False drops a node and
    its subtree, None keeps it only when a descendant is kept."""

    def visit(node):
        verdict = keep(node)
        if verdict is False:
            return None
        if verdict is True:
            return node
        node.children = [c for c in map(visit, node.children) if c is not None]
        return node if node.children else None

    profile.roots = [r for r in map(visit, profile.roots) if r is not None]
    if not profile.roots:
        raise ValueError("%s: no frames are left after filtering"
                         % profile.filename)


def filter_frames(profile, include=None, exclude=None):
    """`include`: a regular expression; keeps the frames that match with
    their subtrees and the paths to them. `exclude`: drops the frames that
    match and their subtrees."""
    if include:
        pattern = re.compile(include)
        _prune(profile, lambda n: True if pattern.fullmatch(n.name) else None)
    if exclude:
        pattern = re.compile(exclude)

        def drop(node):
            node.children = [c for c in node.children
                             if not pattern.fullmatch(c.name)]
            for child in node.children:
                drop(child)

        for root in profile.roots:
            drop(root)
    return profile


def _threshold(profile, column, threshold):
    """Drops the frames (with their subtrees) whose `column` is below
    `threshold`; the roots stay."""

    def visit(node):
        kept = []
        for child in node.children:
            value = _number(child.values.get(column))
            if value is not None and value < threshold:
                continue
            visit(child)
            kept.append(child)
        node.children = kept

    for root in profile.roots:
        visit(root)


# -- the API --------------------------------------------------------------------

def parse(metrics, filename, include=None, exclude=None, threshold=None):
    """Reads `filename` and computes `metrics` (a list of names, see the
    module's text); returns (profile, the columns' names). `include` and
    `exclude` filter frames by name before the sums; `threshold` drops
    frames whose first column is below it."""
    profile = read(filename)[0]
    filter_frames(profile, include, exclude)
    _update_inclusive(profile)
    columns = derive_metrics(profile, metrics)
    if threshold is not None:
        _threshold(profile, columns[0], threshold)
    return profile, columns


def _name_format(format):
    if format in (None, "full"):
        return None
    if format == "file_function_line":
        return lambda n: n.name.split("/")[-1]
    if format == "function_line":
        return lambda n: n.name.split(":")[-1]
    if format == "file_function":
        return lambda n: "%s@%s" % (n.name.split("/")[-1].split(":")[0],
                                    n.name.split("@")[-1].split(":")[0])
    raise ValueError("unknown name format %r (full, file_function_line, "
                     "function_line, file_function)" % (format,))


def print_tree(profile, metrics, depth=100, format=None, print_sorted=False,
               file=None):
    """Prints the tree with the columns `metrics` (as ``parse`` returns
    them); `print_sorted` adds the frames sorted by the first column."""
    out = file or sys.stdout
    name = _name_format(format)
    out.write(profile.tree(metric_column=metrics, depth=depth, name=name))
    if print_sorted and metrics:
        column = metrics[0]
        nodes = [n for n in profile.nodes() if n.parent is not None]

        def key(n):
            v = _number(n.values.get(column))
            return float("-inf") if v is None or math.isnan(v) else v
        out.write("Sorted kernels by metric %s\n" % column)
        for node in sorted(nodes, key=key, reverse=True):
            label = name(node) if name else node.name
            if len(label) > 100:
                label = label[:100] + "..."
            out.write("%-105s %s\n" % (label, _format(node.values.get(column),
                                                      4)))
    for column in metrics:
        if column.startswith("bytes"):
            values = [_number(n.values.get(column)) for n in profile.nodes()]
            if any(v is not None and v < 0 for v in values):
                out.write("Warning: negative byte values, usually an "
                          "integer overflow where they were computed\n")


def show_metrics(filename, file=None):
    """Prints the metrics a profile has and those derived from them."""
    out = file or sys.stdout
    profile = read(filename)[0]
    out.write("Available inclusive metrics:\n")
    for raw in profile.inclusive_metrics:
        out.write("- %s\n" % _unit_free(raw))
    out.write("Available exclusive metrics:\n")
    for raw in profile.exclusive_metrics:
        out.write("- %s\n" % _unit_free(raw))
    stored = {_unit_free(r) for r in profile.show_metric_columns()}
    derived = [m for m in available_metrics(profile) if m not in stored]
    out.write("Derived metrics:\n")
    for m in derived:
        out.write("- %s\n" % m)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m triton.profiler.viewer",
        description="Shows a profile (a .hatchet file) as a tree.",
        formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("file", help="the profile (e.g. matmul.hatchet)")
    parser.add_argument("-l", "--list", action="store_true",
                        help="list the metrics the profile has")
    parser.add_argument(
        "-m", "--metrics", default=None,
        help="comma-separated metrics to show (case-insensitive):\n"
        "- stored ones by name, with or without unit (time, count, bytes)\n"
        "- time/s, time/ms, time/us, time/ns; avg_time/<unit>\n"
        "- flop[8|16|32|64]/s, gflop[...]/s, tflop[...]/s: flops / time\n"
        "- byte/s, gbyte/s, tbyte/s: bytes / time\n"
        "- util: the larger of flops and bytes over the GPU's peaks\n"
        "- <metric>/%%: a share of the root's")
    parser.add_argument("-i", "--include", default=None,
                        help="keep frames matching this regular expression "
                        "(with their subtrees and the paths to them)")
    parser.add_argument("-e", "--exclude", default=None,
                        help="drop frames matching this regular expression "
                        "(with their subtrees)")
    parser.add_argument("-t", "--threshold", type=float, default=None,
                        help="drop frames whose first metric is below this")
    parser.add_argument("-d", "--depth", type=int, default=100,
                        help="the depth of the tree to show")
    parser.add_argument("-f", "--format", default="full",
                        choices=["full", "file_function_line",
                                 "function_line", "file_function"],
                        help="how frame names are shown")
    parser.add_argument("--print-sorted", action="store_true",
                        help="also list the frames sorted by the first "
                        "metric")
    args = parser.parse_args(argv)
    if args.include and args.exclude:
        parser.error("give either --include or --exclude, not both")
    try:
        if args.list or not args.metrics:
            show_metrics(args.file)
            return 0
        profile, columns = parse(args.metrics.split(","), args.file,
                                 args.include, args.exclude, args.threshold)
        print_tree(profile, columns, args.depth, args.format,
                   args.print_sorted)
    except (OSError, ValueError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 1
    return 0


__all__ = ["Node", "Profile", "available_metrics", "derive_metrics",
           "filter_frames", "main", "max_bps", "max_flops", "parse",
           "print_tree", "read", "show_metrics"]

if __name__ == "__main__":
    sys.exit(main())
