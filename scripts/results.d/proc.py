"""Running `sow` from the timing scripts: a command timed as a whole process
from outside, and a `sow serve` on a free port whose requests are timed.
Shared by scripts/bench-clock and scripts/bench-first-run."""
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def timed(argv, bound, env=None):
    """(wall seconds, exit status, stderr) of argv; at `bound` seconds it is
    killed and the status is "killed"."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=bound, text=True, env=env)
        return time.monotonic() - t0, p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return time.monotonic() - t0, "killed", ""


class Server:
    """`argv` (a `sow serve` command without --port) started on a free port;
    returns once it answers, or after 10 s."""

    def __init__(self, argv, env=None):
        self.port = free_port()
        self.proc = subprocess.Popen(argv + ["--port", str(self.port)], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=1)
                break
            except urllib.error.HTTPError:
                break  # answering, whatever the path says
            except OSError:
                time.sleep(0.1)

    def get(self, path, bound):
        """(seconds, HTTP status, the body of an error) of one GET; a
        request not answered within `bound` seconds has status "killed"."""
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}",
                                        timeout=bound) as r:
                r.read()
                return time.monotonic() - t0, r.status, ""
        except urllib.error.HTTPError as e:
            return time.monotonic() - t0, e.code, e.read().decode("utf-8", "replace")
        except OSError as e:
            return time.monotonic() - t0, "killed", str(e)

    def close(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
