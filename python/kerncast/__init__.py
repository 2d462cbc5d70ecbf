"""kerncast for Python: model GPU kernels and forecast their performance from a code generator.

The same library as the ``kerncast`` command line (docs/python.md)::

    import kerncast
    report = kerncast.predict("examples/kernels/star3d_r4.yaml", "a100-sxm4-40gb",
                              block=(32, 4, 4), fold=(1, 1, 2))
    report["prediction"].rows[0]["throughput"]   # Gpoints/s, as in the CLI's --json

Every command returns a :class:`Report`: the tables of the CLI's ``--json`` document with the
same keys and values; :meth:`Table.__getitem__` gives a column as a NumPy array. Errors raise
:class:`kerncast.Error` (a ``ValueError``) with the CLI's message and its file, line and column.
The work runs with the GIL released; ``explore`` uses every core.
"""

from __future__ import annotations

import json
import operator
import os
import sys
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Union

from . import _interpreter


def _refuse_import(problem: str) -> ImportError:
    """Why this interpreter cannot import kerncast, naming the one the extension was built for."""
    built = f"Python {_interpreter.VERSION[0]}.{_interpreter.VERSION[1]} ({_interpreter.EXECUTABLE})"
    running = f"Python {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable or 'unknown'})"
    message = f"kerncast was built for {built}; this is {running}: {problem}"
    same_interpreter = (sys.executable and os.path.realpath(sys.executable)
                        == os.path.realpath(_interpreter.EXECUTABLE))
    if not same_interpreter:
        message += (f". Import it with {_interpreter.EXECUTABLE}, or build kerncast for this "
                    "interpreter (cmake -DPython3_EXECUTABLE=..., docs/python.md)")
    return ImportError(message)


if tuple(sys.version_info[:2]) != tuple(_interpreter.VERSION):
    raise _refuse_import("the extension module cannot load in another Python version")

try:
    import numpy as np
except ImportError as error:
    raise _refuse_import(f"NumPy cannot be imported ({error}); Debian's python3-numpy provides it "
                         "for the system python3") from error

try:
    from . import _kerncast
except ImportError as error:
    raise _refuse_import(f"the extension module does not load ({error})") from error
from ._kerncast import Error, Kernel, Machine, machines

__version__ = _kerncast.__version__

__all__ = [
    "Column",
    "Error",
    "Kernel",
    "KerncastWarning",
    "Machine",
    "Report",
    "Table",
    "count",
    "explore",
    "explore_space",
    "load_kernel",
    "machines",
    "mwp",
    "parse_kernel",
    "predict",
    "validate",
]

PathLike = Union[str, "os.PathLike[str]"]
KernelLike = Union[Kernel, PathLike]
MachineLike = Union[Machine, PathLike]
TripleLike = Union[str, Sequence[int]]


class KerncastWarning(UserWarning):
    """What the CLI prints as ``kerncast: warning: ...``."""


@dataclass(frozen=True)
class Column:
    """A table column: ``key`` names it in rows, ``unit`` is "" when dimensionless."""

    key: str
    header: str
    unit: str


@dataclass
class Table:
    """One table of a report: ``rows`` are dicts keyed by column key (None: blank)."""

    key: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.rows)

    def keys(self) -> list[str]:
        """The column keys, in order."""
        return [column.key for column in self.columns]

    def __getitem__(self, column_key: str) -> np.ndarray:
        """One column as a NumPy array: int64 when every value is an integer, float64 for
        numbers (a blank is NaN), bool for flags, else an object array (str or None)."""
        if column_key not in self.keys():
            raise KeyError(f"table '{self.key}' has no column '{column_key}' "
                           f"(columns: {', '.join(self.keys())})")
        return _column_array([row[column_key] for row in self.rows])

    def to_numpy(self) -> np.recarray:
        """The whole table as a NumPy record array, one field per column."""
        keys = self.keys()
        return np.rec.fromarrays([self[key] for key in keys], names=keys)

    def as_mapping(self, key_column: str = "quantity", value_column: str = "value") -> dict:
        """A two-column table (quantity, value) as a dict: {quantity: value}."""
        return {row[key_column]: row[value_column] for row in self.rows}


@dataclass
class Report:
    """A command's result: the CLI's ``--json`` document as Python objects."""

    schema: str
    title: str
    tables: dict[str, Table]
    notes: list[str]

    def __getitem__(self, table_key: str) -> Table:
        if table_key not in self.tables:
            raise KeyError(f"report '{self.schema}' has no table '{table_key}' "
                           f"(tables: {', '.join(self.tables)})")
        return self.tables[table_key]

    def __repr__(self) -> str:
        tables = ", ".join(f"{key} ({len(table)} rows)" for key, table in self.tables.items())
        return f"<kerncast.Report {self.schema}: {tables}>"

    def to_dict(self) -> dict[str, Any]:
        """The document in the shape of the CLI's --json (non-finite numbers stay floats)."""
        return {
            "schema": self.schema,
            "title": self.title,
            "tables": {
                key: {
                    "title": table.title,
                    "columns": [vars(column).copy() for column in table.columns],
                    "rows": [dict(row) for row in table.rows],
                }
                for key, table in self.tables.items()
            },
            "notes": list(self.notes),
        }

    @classmethod
    def _from_native(cls, document: dict[str, Any]) -> "Report":
        tables = {
            key: Table(key, table["title"], [Column(**c) for c in table["columns"]], table["rows"])
            for key, table in document["tables"].items()
        }
        return cls(document["schema"], document["title"], tables, document["notes"])


def _column_array(values: list[Any]) -> np.ndarray:
    present = [v for v in values if v is not None]
    complete = len(present) == len(values)
    if present and all(isinstance(v, bool) for v in present):
        return np.array(values, dtype=bool if complete else object)
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if complete and all(isinstance(v, int) for v in present):
            return np.array(values, dtype=np.int64)
        return np.array([np.nan if v is None else float(v) for v in values], dtype=np.float64)
    return np.array(values, dtype=object)


# --- inputs ----------------------------------------------------------------------------------


def load_kernel(path: PathLike) -> Kernel:
    """Reads a kernel file (YAML, docs/kernel-format.md)."""
    return Kernel.from_file(os.fspath(path))


def parse_kernel(text: str, name: str = "<string>") -> Kernel:
    """Parses kernel YAML text, as a code generator writes it; `name` appears in errors."""
    return Kernel.from_yaml(text, name)


def _kernel(kernel: KernelLike) -> Kernel:
    if isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, (str, os.PathLike)):
        return load_kernel(kernel)
    raise TypeError(f"kernel: a kerncast.Kernel or a kernel file path, not {type(kernel).__name__}")


def _machine(machine: MachineLike) -> Machine:
    if isinstance(machine, Machine):
        return machine
    if isinstance(machine, (str, os.PathLike)):
        return Machine(os.fspath(machine))
    raise TypeError(f"machine: a kerncast.Machine, a built-in id or a machine file path, "
                    f"not {type(machine).__name__}")


def _usage_error(message: str) -> Error:
    """A bad argument value, as the CLI reports one (kind "usage", exit 2 there)."""
    error = Error(f"error: {message}")
    error.message = message
    error.kind = "usage"
    for attribute in ("file", "line", "column", "json_path", "source_line"):
        setattr(error, attribute, None)
    error.notes = []
    return error


def _integer(value: Any, what: str) -> int:
    """An integer argument; TypeError naming it for another type (bool is not a count)."""
    if isinstance(value, bool):
        raise TypeError(f"{what}: an integer, not a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: an integer, not {type(value).__name__}") from None


def _triple(value: Optional[TripleLike], what: str) -> str:
    """(32, 4, 4) or "32x4x4" -> the CLI's text; None -> "" (the kernel file's)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if not isinstance(value, Iterable):
        raise TypeError(f"{what}: a triple such as (32, 4, 4) or \"32x4x4\", "
                        f"not {type(value).__name__}")
    parts = [_integer(v, what) for v in value]
    if not 1 <= len(parts) <= 3:
        raise _usage_error(f"{what}: one to three integers (x, y, z), got {value!r}")
    return "x".join(str(p) for p in parts)


def _triples(values: Union[None, str, Iterable[TripleLike]], what: str) -> str:
    if values is None:
        return ""
    if isinstance(values, str):
        return values
    texts = [_triple(v, what) for v in values]
    if not texts:
        raise _usage_error(f"{what}: an empty list (None sweeps the default ones)")
    return ",".join(texts)


def _overrides(params: Optional[Mapping[str, int]]) -> list[tuple[str, int]]:
    if params is None:
        return []
    if not isinstance(params, Mapping):
        raise TypeError(f"params: a mapping of parameter names to integers, "
                        f"not {type(params).__name__}")
    return [(str(name), _integer(value, f"params[{name!r}]")) for name, value in params.items()]


def _registers(registers: Union[None, int, str]) -> str:
    if registers is None:
        return ""
    if isinstance(registers, str):
        return registers
    return str(_integer(registers, "registers"))


# --- commands --------------------------------------------------------------------------------


def count(kernel: KernelLike, *, block: Optional[TripleLike] = None,
          fold: Optional[TripleLike] = None, params: Optional[Mapping[str, int]] = None,
          index_arithmetic: bool = False, granules: Sequence[int] = (32, 128),
          footprints: bool = True, subgroup_size: int = 32) -> Report:
    """Operation counts, access patterns and footprints (``kerncast count``)."""
    document = _kerncast.count(_kernel(kernel), _triple(block, "block"), _triple(fold, "fold"),
                               _overrides(params), bool(index_arithmetic),
                               [_integer(g, "granules") for g in granules], bool(footprints),
                               _integer(subgroup_size, "subgroup_size"))
    return Report._from_native(document)


def predict(kernel: KernelLike, machine: MachineLike, *, block: Optional[TripleLike] = None,
            fold: Optional[TripleLike] = None, params: Optional[Mapping[str, int]] = None,
            registers: Union[None, int, str] = None, linear_addresses: bool = False) -> Report:
    """Data volumes, L1 cycles and limiters of one launch (``kerncast predict``).

    registers: None (the kernel file's registers_per_thread, else not limiting), a count, or
    "auto" (ptxas's count; needs a build with CUDA)."""
    document = _kerncast.predict(_kernel(kernel), _machine(machine), _triple(block, "block"),
                                 _triple(fold, "fold"), _overrides(params),
                                 _registers(registers), bool(linear_addresses))
    return Report._from_native(document)


def explore(kernel: KernelLike, machine: MachineLike, *,
            blocks: Union[None, str, Iterable[TripleLike]] = None,
            folds: Union[None, str, Iterable[TripleLike]] = None, threads: Optional[int] = None,
            params: Optional[Mapping[str, int]] = None, registers: Union[None, int, str] = None,
            jobs: int = 0, shortlist: Optional[float] = None,
            error_spread: Optional[float] = None) -> Report:
    """Ranks block sizes and foldings by predicted throughput (``kerncast explore``): the
    "ranking" table, best first, then the skipped configurations. jobs=0 uses every core.
    threads=None sweeps the default thread counts (1024 for kernels that map z, else 64 to
    1024). shortlist=C with error_spread=S adds the "shortlist" table (docs/autotuning.md)."""
    jobs = _integer(jobs, "jobs")
    if jobs < 0:
        raise _usage_error(f"jobs: a worker count, 0 for all cores (got {jobs})")
    confidence, spread = _shortlist(shortlist, error_spread)
    document = _kerncast.explore(_kernel(kernel), _machine(machine), _triples(blocks, "blocks"),
                                 _triples(folds, "folds"),
                                 -1 if threads is None else _integer(threads, "threads"),
                                 _overrides(params), _registers(registers), jobs, confidence,
                                 spread)
    return Report._from_native(document)


def _shortlist(shortlist, error_spread):
    """(confidence, spread) for the native calls: both 0 without a shortlist."""
    if (shortlist is None) != (error_spread is None):
        raise _usage_error("shortlist needs error_spread, and error_spread belongs to shortlist "
                           "(docs/autotuning.md lists measured spreads)")
    if shortlist is None:
        return 0.0, 0.0
    return float(shortlist), float(error_spread)


def explore_space(space: PathLike, machine: MachineLike, *,
                  params: Optional[Mapping[str, int]] = None,
                  registers: Union[None, int, str] = None, jobs: int = 0,
                  shortlist: Optional[float] = None,
                  error_spread: Optional[float] = None) -> Report:
    """Every combination of a search-space file, ranked by predicted time (``kerncast explore
    --space``; docs/autotuning.md): the "ranking" table, best first, with a "kernel" column for
    several kernel files and one per swept parameter. shortlist=C with error_spread=S adds the
    "shortlist" table: the fewest leading configurations that hold the measured best with
    probability C when the model's time errors spread by S (standard deviation of
    ln(measured / predicted)). params apply under the swept values."""
    if not isinstance(space, (str, os.PathLike)):
        raise TypeError(f"space: a search-space file path, not {type(space).__name__}")
    jobs = _integer(jobs, "jobs")
    if jobs < 0:
        raise _usage_error(f"jobs: a worker count, 0 for all cores (got {jobs})")
    confidence, spread = _shortlist(shortlist, error_spread)
    document = _kerncast.explore_space(os.fspath(space), _machine(machine), _overrides(params),
                                       _registers(registers), jobs, confidence, spread)
    return Report._from_native(document)


def mwp(workload: Union[PathLike, Mapping[str, Any]], machine: MachineLike, *,
        paper_rounding: bool = False, rep_ceiling: bool = False,
        synch_bounded: bool = False) -> Report:
    """The MWP-CWP model (Hong & Kim 2009; ``kerncast mwp``). workload: a workload file
    (kerncast.workload/1, docs/mwp-cwp.md), its JSON text, or the document as a dict."""
    if isinstance(workload, Mapping):
        text, is_text = json.dumps(workload), True
    elif isinstance(workload, str) and workload.lstrip().startswith("{"):
        text, is_text = workload, True
    elif isinstance(workload, (str, os.PathLike)):
        text, is_text = os.fspath(workload), False
    else:
        raise TypeError(f"workload: a file path, JSON text or a dict, "
                        f"not {type(workload).__name__}")
    document = _kerncast.mwp(text, is_text, _machine(machine), bool(paper_rounding),
                             bool(rep_ceiling), bool(synch_bounded))
    return Report._from_native(document)


def validate(kernels: Union[KernelLike, Sequence[KernelLike]], machine: MachineLike, *,
             records: PathLike) -> Report:
    """Predictions against recorded measurements (``kerncast validate --records``): every
    *.json record in the directory, each predicted by the kernel whose name it has. A record
    made from a kernel file other than the one given warns (KerncastWarning)."""
    if isinstance(kernels, (Kernel, str, os.PathLike)):
        kernels = [kernels]
    document, notices = _kerncast.validate([_kernel(k) for k in kernels], _machine(machine),
                                           os.fspath(records))
    for notice in notices:
        warnings.warn(notice, KerncastWarning, stacklevel=2)
    return Report._from_native(document)
