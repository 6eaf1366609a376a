"""A headless Chromium driven over its DevTools pipe (``--remote-debugging-pipe``).

No websocket and no extra package: Chromium reads JSON commands on fd 3 and writes answers
on fd 4, each message ended by a NUL byte. Just enough for the tests: open a page at a
window size, evaluate JavaScript, take a screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium process and one page in it."""

    def __init__(self, binary: str, timeout: float = 60.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="referee-chromium-")
        to_child, self._write = os.pipe()
        self._read, from_child = os.pipe()
        # Chromium's end of the pipes must be fds 3 and 4 exactly.
        high = [os.dup(fd) for fd in (to_child, from_child)]
        os.close(to_child)
        os.close(from_child)

        def wire() -> None:
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, pass_fds=(3, 4, *high))
        for fd in high:
            os.close(fd)
        self._buffer = b""
        self._id = 0
        self.session: str | None = None
        self.target: str | None = None

    def send(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        """Send one DevTools command and wait for its answer."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self._id:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    result: dict[str, Any] = answer.get("result", {})
                    return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"Chromium did not answer {method}")
            waiting = select.poll()  # not select(): a process past fd 1023 (a load test)
            waiting.register(self._read, select.POLLIN)
            if waiting.poll(left * 1000):
                chunk = os.read(self._read, 1 << 20)
                if not chunk:
                    raise RuntimeError("Chromium closed its DevTools pipe")
                self._buffer += chunk

    def open(self, url: str, width: int, height: int) -> None:
        """A new page of ``width`` x ``height`` CSS pixels at ``url``, loaded (the page
        opened before is closed: one browser serves a whole test module)."""
        if self.target is not None:
            try:
                self.send("Target.closeTarget", {"targetId": self.target})
            except (RuntimeError, TimeoutError):
                pass
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.target = target
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": width < 600})
        self.page("Page.enable")
        self.page("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'")

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.send(method, params, self.session)

    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True})
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 20.0) -> float:
        """Seconds until ``expression`` is true in the page.

        Raises:
            TimeoutError: it was not true within ``timeout``.
        """
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                if self.evaluate(expression):
                    return time.monotonic() - start
            except RuntimeError:  # the page is reloading: its old context is gone
                pass
            time.sleep(0.05)
        raise TimeoutError(expression)

    def resize(self, width: int, height: int) -> None:
        """The page's window at ``width`` x ``height`` CSS pixels, without reloading it."""
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": width < 600})

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.page("Page.captureScreenshot", {"format": "png"})["data"])
        path.write_bytes(data)
        return data

    def blank(self) -> None:
        """Close the open page, if any: the next ``open`` starts from a new one."""
        if self.target is not None:
            try:
                self.send("Target.closeTarget", {"targetId": self.target})
            except (RuntimeError, TimeoutError):
                pass
        self.target = self.session = None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (OSError, RuntimeError, TimeoutError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._write)
        os.close(self._read)
        shutil.rmtree(self.profile, ignore_errors=True)


#: The test process's one Chromium (``shared``), closed when the session ends (``close_shared``,
#: from the root conftest).
_SHARED: list[Browser] = []


def shared() -> Browser:
    """The one headless Chromium of this test process (an xdist worker), started when first
    asked for and again if it died: each start is about 0.6 s of CPU and a second of waiting,
    which a dozen modules each paid. Every test still opens its own page (``open``)."""
    if _SHARED and not _SHARED[0].alive():
        _SHARED.pop().close()
    if not _SHARED:
        binary = chromium()
        assert binary is not None
        _SHARED.append(Browser(binary))
    return _SHARED[0]


def close_shared() -> None:
    while _SHARED:
        _SHARED.pop().close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The process's headless Chromium for the tests of a module (import it there as a
    fixture); the module's last page is closed after it."""
    b = shared()
    try:
        yield b
    finally:
        b.blank()
