"""Shared fixtures: paths, cache clearing for AppTest, and the live server for browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# `make test` runs two pytest-xdist workers on a two-core machine; a BLAS pool of two threads
# in each worker oversubscribes the cores.  One thread each (inherited by the app servers the
# browser tests start) ran tests/test_ruleset.py and test_constraints.py in 99 s against 112 s.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def pytest_configure(config):
    """Three costs of AppTest that the app does not have under ``streamlit run`` (a sampling
    profile of the page tests, every thread):

    - every AppTest scans all installed distributions' metadata for Streamlit components
      (0.2 s each); the installed packages do not change during a run, so each process scans
      once;
    - every run compiles app.py and the page again (parse and magic, 17 % of the page tests'
      CPU), where the server keeps one script cache: here one per process, keyed by path,
      modification time and size;
    - while a script runs, the test thread polled every millisecond whether it had stopped,
      scanning every event of the run each time (14 % of the CPU, and the GIL taken from the
      script it waits for): it now waits on the script's thread, which ends as it stops.
    """
    import functools

    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    manifest_scanner.scan_component_manifests = functools.cache(
        manifest_scanner.scan_component_manifests)

    compiled: dict[tuple, object] = {}

    class SharedScriptCache(ScriptCache):
        def get_bytecode(self, script_path: str):
            info = os.stat(script_path)
            key = (os.path.abspath(script_path), info.st_mtime_ns, info.st_size)
            if key not in compiled:
                compiled[key] = ScriptCache().get_bytecode(script_path)
            return compiled[key]

    app_test.ScriptCache = SharedScriptCache

    def wait_for_the_script(runner, timeout: float = 3) -> None:
        thread = getattr(runner, "_script_thread", None)
        if thread is not None:
            thread.join(timeout)
        if runner.script_stopped():
            return
        runner.request_stop()  # as the library's own wait does at its timeout
        runner.join()
        raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")

    local_script_runner.require_widgets_deltas = wait_for_the_script


ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
ARTIFACTS = ROOT / "tests" / "artifacts"
DATASETS = Path(os.environ.get("RULECORE_DATASETS", ROOT.parent / "shared" / "datasets"))
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def clear_caches():
    """Streamlit caches survive across AppTest instances in one process: start clean."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture
def cut_inner_fit(monkeypatch):
    """``cut_inner_fit(n)``: the rule set's n-th column generation from then on reports that
    it stopped at its time limit (``pricing_stop="out of time"``), as it does on a loaded
    machine; its result is otherwise the real one."""
    import dataclasses

    from rulecore.rules import ruleset

    real = ruleset.column_generation

    def install(n: int) -> None:
        calls = {"n": 0}

        def cut(*args, **kwargs):
            calls["n"] += 1
            r = real(*args, **kwargs)
            return dataclasses.replace(r, pricing_stop="out of time") if calls["n"] == n else r

        monkeypatch.setattr(ruleset, "column_generation", cut)

    return install


def pytest_collection_modifyitems(items):
    """The tests that drive the app in a browser run in one xdist worker (``make test`` uses
    ``--dist loadgroup``): each worker that ran one started its own app server and Chromium,
    12 s of a worker's time apiece."""
    for item in items:
        if "server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("browser"))
        # and so do the tests on a Dask cluster: a module's cluster starts once, not once in
        # each worker (its two worker processes import rulecore each)
        elif "dask_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("dask"))
        # and the corpus' tests, which read each file once per worker (test_corpus.load):
        # 26 s of reading in each worker, where one worker reads it once
        elif item.path.name == "test_corpus.py":
            item.add_marker(pytest.mark.xdist_group("corpus"))


@pytest.fixture(scope="module")
def dask_cluster():
    """A local Dask cluster of two worker processes, as on a real cluster: tasks and results
    cross a process boundary (pickled), which threads in one process would not test.  Closed
    after its module: idle, its processes still profile themselves and beat."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        yield cluster


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


TRACE = ARTIFACTS / "server-trace.log"


@pytest.fixture(scope="session")
def server():
    """A real ``streamlit run app.py`` on a free loopback port; yields its base URL.

    The server appends cache misses of uploads to ``TRACE`` (``RULECORE_TRACE``).
    """
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    TRACE.write_text("")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", APP, "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "RULECORE_TRACE": str(TRACE)})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("streamlit did not become healthy in 60 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (never a downloaded browser build)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`).")
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=[
        "--disable-gpu", "--no-sandbox", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"])
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def open_app_page(page: str, sample: str | None = None):
    """An AppTest of ``app.py`` switched to ``page``, optionally on a bundled ``sample``."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120).run()
    if sample is not None:
        at.session_state["sample"] = sample
    at.switch_page(page).run()
    assert not at.exception
    return at


def upload(at, name: str, data: bytes) -> None:
    """Put ``data`` in the session as the Data page's uploader does (an AppTest has no file
    uploader); the next ``at.run()`` loads it with the default choices."""
    import hashlib

    at.session_state["source"] = "upload"
    at.session_state["upload"] = {"name": name, "data": data,
                                  "digest": hashlib.sha1(data).hexdigest()}
    for key in ("target", "positive", "threshold"):
        at.session_state[key] = None
    at.session_state["kinds"] = {}
    at.session_state["include"] = []
    at.session_state["exclude"] = []


def upload_corpus_file(name: str):
    """An AppTest of the app with ``tests/data/<name>`` uploaded and loaded."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=120).run()
    upload(at, name, (Path(__file__).parent / "data" / name).read_bytes())
    at.run()
    return at


def vega_dataset(at, name: str):
    """The named dataset of the page's Vega-Lite chart that has one (Arrow → DataFrame)."""
    import pyarrow as pa

    for chart in at.get("vega_lite_chart"):
        data = {d.name: d.data.data for d in chart.proto.datasets}
        if name in data:
            return pa.ipc.open_stream(data[name]).read_all().to_pandas() if data[name] \
                else None
    raise AssertionError(f"no chart with a {name!r} dataset")
