"""Where chunks of games run: this process, local processes, any ``concurrent.futures.Executor``,
a Dask cluster (a ``dask.distributed.Client``) or a Ray cluster (``"ray"``, once ``ray.init`` ran).

``run_chunks(fn, jobs, executor=..., workers=...)`` submits ``fn(job)`` for every job, calls
``on_result(index, result)`` as each chunk completes (in completion order, which varies) and
returns the results in job order. Callers only add results up (integer sums), so what they
report does not depend on where or in which order the chunks ran.

A chunk whose worker was lost (a killed process, a retired or dead Dask worker, a crashed Ray
worker or node) is submitted again, up to ``MAX_RETRIES`` times; an error raised by the chunk's
own code is not retried, it propagates. Dask and Ray also reschedule lost tasks themselves;
this is the engine's guarantee on top of theirs and the only one for plain executors.

``fn`` must be a top-level function of an importable module: workers import it by name, so
they need cardcore installed (the same version).
"""
from __future__ import annotations

import importlib
import logging
import os
import queue
import sys
import uuid
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Executor, Future
from contextlib import contextmanager
from typing import Any, Callable

from cardcore.errors import ECHO_LIMIT, ConfigError, echo
from cardcore.extras import install_hint

__all__ = ["MAX_RETRIES", "PENDING_PER_WORKER", "executor_kind", "executor_workers", "open_executor", "run_chunks"]

MAX_RETRIES = 3
PENDING_PER_WORKER = 4                 # chunks submitted ahead per worker (run_chunks)
_KINDS = "None, a concurrent.futures.Executor, a dask.distributed.Client or 'ray'"


def _optional(module: str) -> Any:
    """An optional package (dask.distributed, ray), typed loosely: whether or not it is
    installed, or ships annotations, cardcore type-checks the same."""
    return importlib.import_module(module)


def _dask_client_class() -> type | None:
    """``distributed.Client`` if distributed is already imported (a Client exists only then)."""
    module = sys.modules.get("distributed")
    return getattr(module, "Client", None) if module is not None else None


def executor_kind(executor: Any) -> str:
    """"local", "futures", "dask" or "ray"; ConfigError for anything else."""
    if executor is None:
        return "local"
    client = _dask_client_class()
    if client is not None and isinstance(executor, client):
        return "dask"
    if isinstance(executor, Executor):
        return "futures"
    if isinstance(executor, str) and executor.strip().lower() == "ray":
        return "ray"
    raise ConfigError(f"executor must be {_KINDS}, not {echo(executor)}", "executor")


def _ray() -> Any:
    try:
        ray = _optional("ray")
    except ImportError:
        raise ConfigError(f"executor='ray' needs Ray: {install_hint('ray')}",
                          "executor") from None
    if not ray.is_initialized():
        raise ConfigError("executor='ray' runs on an initialised Ray: call ray.init() "
                          "(or ray.init(address=...)) first", "executor")
    return ray


def executor_workers(executor: Any, workers: int = 1) -> int:
    """How many chunks can run at once (sizes the default chunks; reported as ``workers``)."""
    kind = executor_kind(executor)
    if kind == "local":
        return workers
    if kind == "dask":
        if executor.status != "running":
            raise ConfigError(f"the Dask client is {executor.status}, not running", "executor")
        return max(1, int(sum(executor.nthreads().values())))
    if kind == "ray":
        return max(1, int(_ray().cluster_resources().get("CPU", 1)))
    n = getattr(executor, "_max_workers", None)          # Process/ThreadPoolExecutor have it
    return n if isinstance(n, int) and n > 0 else (os.cpu_count() or 1)


# ------------------------------------------------------------------ backends
class _Backend:
    """Submit chunks, hand them back as they finish, tell a lost worker from a failed chunk."""

    lost_errors: tuple[type[BaseException], ...] = (BrokenExecutor, CancelledError)

    def submit(self, fn: Callable[[Any], Any], job: Any) -> Any:
        raise NotImplementedError

    def next_done(self, pending: dict[Any, Any]) -> Any:
        """Block until one of ``pending`` finished; return it."""
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        raise NotImplementedError

    def recover(self) -> None:
        """Called before a lost chunk is submitted again."""

    def cancel(self, handles: Sequence[Any]) -> None:
        """Drop chunks still running (after an error)."""

    def close(self) -> None:
        pass


class _Serial(_Backend):
    """One process, no pickling: each chunk runs when it is asked for."""

    class _Call:
        def __init__(self, fn: Callable[[Any], Any], job: Any) -> None:
            self.fn, self.job = fn, job

    def submit(self, fn: Callable[[Any], Any], job: Any) -> Any:
        return self._Call(fn, job)

    def next_done(self, pending: dict[Any, Any]) -> Any:
        return next(iter(pending))

    def result(self, handle: Any) -> Any:
        return handle.fn(handle.job)


class _Futures(_Backend):
    """A ``concurrent.futures.Executor``; ``owned`` pools (``workers=k``) are ours to rebuild
    when a process dies (a broken pool takes no more work)."""

    def __init__(self, executor: Executor | None, workers: int) -> None:
        self.owned = executor is None
        self.workers = workers
        self.executor = executor if executor is not None else self._new_pool()
        self.done: queue.Queue[Any] = queue.Queue()

    def _new_pool(self) -> Executor:
        from concurrent.futures import ProcessPoolExecutor
        return ProcessPoolExecutor(max_workers=self.workers)

    def submit(self, fn: Callable[[Any], Any], job: Any) -> Any:
        try:
            future = self.executor.submit(fn, job)
        except BrokenExecutor:
            if not self.owned:                             # the caller's pool: not ours to mend
                raise
            self.recover()
            future = self.executor.submit(fn, job)
        except RuntimeError as e:                          # shut down before the run
            raise ConfigError(f"the executor takes no more work: {e}", "executor") from None
        future.add_done_callback(self.done.put)
        return future

    def next_done(self, pending: dict[Any, Any]) -> Any:
        while True:
            future = self.done.get()
            if future in pending:                          # not one cancelled after an error
                return future

    def result(self, handle: Future[Any]) -> Any:
        return handle.result()

    def recover(self) -> None:
        if self.owned and getattr(self.executor, "_broken", False):
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._new_pool()

    def cancel(self, handles: Sequence[Any]) -> None:
        for future in handles:
            future.cancel()

    def close(self) -> None:
        if self.owned:
            self.executor.shutdown(wait=True, cancel_futures=True)


class _Dask(_Backend):
    def __init__(self, client: Any) -> None:
        distributed = _optional("distributed")
        CommClosedError = _optional("distributed.comm.core").CommClosedError
        KilledWorker = _optional("distributed.scheduler").KilledWorker
        self.client = client
        self.completed = distributed.as_completed(loop=client.loop)
        self.token = uuid.uuid4().hex[:12]
        self.count = 0
        cancelled = getattr(distributed.client, "FutureCancelledError", CancelledError)
        self.lost_errors = (KilledWorker, CommClosedError, CancelledError, cancelled,
                            BrokenExecutor)

    def submit(self, fn: Callable[[Any], Any], job: Any) -> Any:
        self.count += 1                                    # a fresh key for every attempt
        future = self.client.submit(fn, job, pure=False,
                                    key=f"cardcore-{fn.__name__}-{self.token}-{self.count}")
        self.completed.add(future)
        return future

    def next_done(self, pending: dict[Any, Any]) -> Any:
        while True:
            future = next(self.completed)
            if future in pending:
                return future

    def result(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self, handles: Sequence[Any]) -> None:
        if handles:
            self.client.cancel(list(handles))


def _call(fn: Callable[[Any], Any], job: Any) -> Any:
    """Ray's remote function: ``fn`` travels pickled (by name), so any callable will do."""
    return fn(job)


_RAY_CALL: list[Any] = []                                  # ray.remote(_call), made once


class _Ray(_Backend):
    def __init__(self) -> None:
        self.ray = _ray()
        exceptions = self.ray.exceptions
        names = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError",
                 "ObjectReconstructionFailedError", "LocalRayletDiedError", "RaySystemError",
                 "OutOfMemoryError")
        self.lost_errors = tuple(getattr(exceptions, n) for n in names if hasattr(exceptions, n))

    def submit(self, fn: Callable[[Any], Any], job: Any) -> Any:
        if not _RAY_CALL:
            _RAY_CALL.append(self.ray.remote(_call))
        return _RAY_CALL[0].remote(fn, job)

    def next_done(self, pending: dict[Any, Any]) -> Any:
        done, _ = self.ray.wait(list(pending), num_returns=1)
        return done[0]

    def result(self, handle: Any) -> Any:
        return self.ray.get(handle)

    def cancel(self, handles: Sequence[Any]) -> None:
        for ref in handles:
            self.ray.cancel(ref)


def _backend(executor: Any, workers: int) -> _Backend:
    kind = executor_kind(executor)
    if kind == "local":
        return _Serial() if workers == 1 else _Futures(None, workers)
    if kind == "dask":
        return _Dask(executor)
    if kind == "ray":
        return _Ray()
    return _Futures(executor, workers)


def run_chunks(fn: Callable[[Any], Any], jobs: Iterable[Any], *, executor: Any = None,
               workers: int = 1,
               on_result: Callable[[int, Any], None] | None = None,
               keep: bool = True) -> list[Any]:
    """``[fn(job) for job in jobs]``, run where ``executor`` says (None: this process when
    ``workers`` is 1, else a pool of ``workers`` processes). Lost chunks are run again.

    ``jobs`` may be any iterable, a generator too: it is read as chunks are submitted, at
    most ``PENDING_PER_WORKER * workers`` (and at least 2) ahead of the results, so memory
    does not grow with the number of jobs. ``keep=False`` returns [] and keeps no result
    (the caller adds each up in ``on_result``)."""
    backend = _backend(executor, workers)
    results: dict[int, Any] = {}
    retries: dict[int, int] = {}
    pending: dict[Any, tuple[int, Any]] = {}
    ahead = max(2, PENDING_PER_WORKER * workers)
    source = iter(enumerate(jobs))
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < ahead:
                try:
                    index, job = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[backend.submit(fn, job)] = (index, job)
            if not pending:
                break
            handle = backend.next_done(pending)
            index, job = pending.pop(handle)
            try:
                result = backend.result(handle)
            except backend.lost_errors:
                if retries.get(index, 0) >= MAX_RETRIES:
                    raise
                retries[index] = retries.get(index, 0) + 1
                backend.recover()
                pending[backend.submit(fn, job)] = (index, job)
                continue
            retries.pop(index, None)
            if keep:
                results[index] = result
            if on_result is not None:
                on_result(index, result)
    except BaseException:
        backend.cancel(list(pending))
        raise
    finally:
        backend.close()
    return [results[i] for i in range(len(results))] if keep else []


# ------------------------------------------------------------------ the command line's executors
@contextmanager
def open_executor(*, dask: str | None = None, ray: str | None = None) -> Iterator[Any]:
    """The executor the CLI's ``--dask ADDRESS`` / ``--ray ADDRESS|auto`` name, connected for
    the ``with`` block (None when neither is given). ConfigError when the package is missing
    or the cluster cannot be reached."""
    if dask is not None and ray is not None:
        raise ConfigError("give --dask or --ray, not both", "executor")
    if dask is not None:
        try:
            Client = _optional("distributed").Client
        except ImportError:
            raise ConfigError(f"--dask needs dask.distributed: {install_hint('dask')}",
                              "dask") from None
        try:
            client = Client(dask, timeout=10, set_as_default=False)
        except (OSError, ValueError, TypeError) as e:       # unreachable, or not an address
            raise ConfigError(f"cannot connect to the Dask scheduler at {echo(dask)}: "
                              f"{str(e)[:ECHO_LIMIT]}",
                              "dask") from None
        try:
            yield client
        finally:
            client.close()
        return
    if ray is not None:
        try:
            ray_module = _optional("ray")
        except ImportError:
            raise ConfigError(f"--ray needs Ray: {install_hint('ray')}", "ray") from None
        owned = not ray_module.is_initialized()
        if owned:
            try:
                ray_module.init(address=ray, log_to_driver=False, logging_level=logging.ERROR)
            except (ConnectionError, OSError, ValueError, RuntimeError) as e:
                raise ConfigError(f"cannot connect to the Ray cluster at {echo(ray)}: "
                                  f"{str(e)[:ECHO_LIMIT]}",
                                  "ray") from None
        try:
            yield "ray"
        finally:
            if owned:
                ray_module.shutdown()                      # disconnects; the cluster stays up
        return
    yield None
