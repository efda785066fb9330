"""Ctrl-C (SIGINT to the whole process group, as a terminal sends it) at any moment of ``e2opt run`` prints no
traceback: while the command still imports its modules, as its workers start, while they construct, as the
run ends and as the interpreter exits after the summary (cli/guard.py, cli/exits.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, default_signals
from helpers import plain_yaml

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
MOMENTS = {  # the stdout line after which SIGINT goes to the group (None: once numpy loads), and a pause
    "imports": (None, 0.0),
    "start": ("starting 2 worker(s)", 0.0),
    "construction": ("starting 2 worker(s)", 1.0),
    "end": (" elapsed", 0.0),  # the view's last block: the run is ending
    "exit": ("run folder:", 0.0),  # after the summary, as the interpreter ends
}


def config(tmp_path: Path) -> Path:
    data = {
        "instance": str(ROOT / "instances/brendan_set2/set2_10x10.txt"),
        "seed": 1,
        "construct": {"method": "beam", "beam": {"width": 256, "time_limit_cpu_s": 1}},
        "search": {"moves": {"assignment": {"holes": 16}}},
        "stop": {"max_wall_s": 5},
        "run": {"workers": 2},
        "output": {"runs_dir": str(tmp_path / "runs"), "plots": False, "log_every_wall_s": 600},
    }
    path = tmp_path / "run.yaml"
    path.write_text(plain_yaml(data))
    return path


def imports_begun(pid: int) -> bool:
    """The command's own code runs (numpy, imported by e2opt's first lines, is mapped): Python's start before
    that is Python's, not e2opt's."""
    try:
        return "numpy" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
@pytest.mark.parametrize("moment", sorted(MOMENTS))
@pytest.mark.slow
def test_ctrl_c_at_any_moment_prints_no_traceback(moment, tmp_path):
    interrupt(tmp_path, *MOMENTS[moment])


@pytest.mark.slow
@pytest.mark.parametrize("pause", [1.0, 2.0, 5.0])
def test_ctrl_c_of_a_run_on_a_local_dask_cluster_prints_no_traceback(pause, tmp_path):
    """While the LocalCluster starts (its workers fork from the run's fork server, Ctrl-C ignored, and ignore
    it once Dask runs them: engine/daskquiet.py) and during the search: before, each Dask worker printed a
    KeyboardInterrupt traceback and died, and the run waited for its rounds for ever."""
    pytest.importorskip("distributed")
    interrupt(tmp_path, "starting 2 worker(s)", pause, "--executor", "dask")


def interrupt(tmp_path: Path, marker: str | None, pause: float, *options: str) -> None:
    """``e2opt run`` stopped by SIGINT to its process group ``pause`` s after the stdout line with ``marker``
    (None: once numpy loads): it ends, and says no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "e2opt", "run", str(config(tmp_path)), *options],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=default_signals,
    )  # fmt: skip
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))
    reader.start()
    seen = False
    if marker is None:
        deadline = time.monotonic() + 30
        while not imports_begun(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.002)
        seen = imports_begun(proc.pid)
    else:
        for line in proc.stdout:
            if marker in line:
                seen = True
                break
    time.sleep(pause)
    os.killpg(proc.pid, signal.SIGINT)
    proc.stdout.read()
    code = proc.wait(60)
    reader.join(60)
    text = "".join(err)
    assert seen, text
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert code in (0, 130, -signal.SIGINT), (code, text)


def test_an_import_error_after_a_ctrl_c_is_the_interruption_and_before_it_a_traceback():
    """A Ctrl-C inside numpy's C import comes out as an ImportError with the KeyboardInterrupt lost: after a
    SIGINT the guard says it in one line with status 130; without one the ImportError is reported as ever."""
    script = (
        "import os, signal, sys\n"
        "from e2opt.cli import guard\n"
        "guard.install()\n"
        "if sys.argv[1] == 'after':\n"
        "    try:\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "    except KeyboardInterrupt:\n"
        "        pass\n"
        "raise ImportError('PyCapsule_Import could not import module')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    after = subprocess.run([sys.executable, "-c", script, "after"], env=env, capture_output=True, text=True,
                           preexec_fn=default_signals)  # fmt: skip
    assert after.returncode == 130 and after.stderr == "e2opt: interrupted\n", after.stderr
    before = subprocess.run([sys.executable, "-c", script, "before"], env=env, capture_output=True, text=True,
                            preexec_fn=default_signals)  # fmt: skip
    assert before.returncode == 1 and "Traceback" in before.stderr and "ImportError" in before.stderr
