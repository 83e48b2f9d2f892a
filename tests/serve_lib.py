"""A `sow serve` started for a test on a free port (shared by the server
and browser tests)."""
import http.client
import json
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class Server:
    """`SOW serve --port 0 ARGS...`; .base is its URL, .port its port."""

    def __init__(self, sow, *args, stderr=subprocess.PIPE):
        self.p = subprocess.Popen([sow, "serve", "--port", "0"] + list(args),
                                  stdout=subprocess.PIPE, stderr=stderr, text=True)
        line = self.p.stdout.readline()
        if not line.startswith("sow serve: http://"):
            err = self.p.stderr.read() if self.p.stderr else ""
            raise SystemExit("serve did not start: %r %s" % (line, err))
        self.base = line.split()[2].rstrip("/")
        self.port = int(self.base.rsplit(":", 1)[1])

    def get(self, path, params=None, timeout=120, headers=None, method="GET"):
        url = self.base + path + ("?" + urllib.parse.urlencode(params) if params else "")
        t0 = time.time()
        try:
            req = urllib.request.Request(url, headers=headers or {}, method=method)
            with urllib.request.urlopen(req, timeout=timeout) as r:
                body, status, ctype = r.read(), r.status, r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            body, status, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
        except (OSError, http.client.HTTPException) as e:
            raise RuntimeError("%s: %s" % (url[:200], e)) from e
        return status, body, ctype, time.time() - t0

    def json(self, path, params=None):
        status, body, ctype, _ = self.get(path, params)
        return status, json.loads(body) if ctype.startswith("application/json") else body

    def alive(self):
        return self.p.poll() is None

    def stop(self):
        self.p.terminate()
        try:
            return self.p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return self.p.wait()
