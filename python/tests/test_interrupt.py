"""Ctrl-C stops a long call: a subprocess starts a call that runs for minutes, receives SIGINT
about a second later, and must end with KeyboardInterrupt within a few seconds (before the
extension checked for signals, SIGINT took effect only when the call returned)."""

import os
import signal
import subprocess
import sys
import time

import pytest

# Each runs for half a minute or more: the Monte Carlo pairs n_samples² draws (10⁴ took 1.6 s,
# 10⁵ about 160 s), the exact retrieval sorts the whole database for every query (3000 rows took
# 0.9 s), the exact sampler inverts a tabulated CDF per draw (10⁵ draws took 3.8 s).
LONG_CALLS = {
    "hib.match_probability": (
        "mu = np.zeros(16); mu[0] = 1.0\n"
        "hib.match_probability(mu, np.ones(16), mu, np.ones(16), 1.0, 1.0, n_samples=10**5, seed=0)"
    ),
    "metrics.exact.recall_at_k": (
        "e = np.random.default_rng(0).standard_normal((30000, 32)).astype(np.float32)\n"
        "metrics.exact.recall_at_k(e, np.arange(30000) % 50, 1)"
    ),
    "vmf.exact.VonMisesFisher.rvs": "vmf.exact.VonMisesFisher(np.array([1.0, 0.0, 0.0]), 5.0).rvs(10**6, seed=0)",
}

#: From SIGINT to the end of the process: the extension checks every 0.1 s; the rest is the
#: interpreter's exit on a loaded machine.
DEADLINE_S = 5.0


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_sigint_interrupts_a_long_call(name):
    script = (
        "import sys\nimport numpy as np\nfrom probdml import hib, metrics, vmf\n"
        "print('started', flush=True)\n" + LONG_CALLS[name] + "\nprint('finished', flush=True)\n"
    )
    # A shell without job control starts a background command (`cmd &`, nohup) with SIGINT
    # ignored, and the child inherits that; Python then installs no KeyboardInterrupt handler
    # and the signal is dropped. Restore the default, as a terminal's foreground command has it.
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout.readline().strip() == "started"
        time.sleep(1.0)
        assert child.poll() is None, "the call ended before the signal: it is not a long call"
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=DEADLINE_S)
        elapsed = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert child.returncode != 0
    assert elapsed < DEADLINE_S
