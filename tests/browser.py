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
from urllib.parse import urlsplit

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe",
         # A page navigated away from is gone, not kept frozen for going back (Browser.open).
         "--disable-back-forward-cache"]
#: The mark ``open`` leaves on a page before it navigates away from it.
LEFT = "__refereeLeft"
#: The mark of a page's ``resize`` event (``Browser.resize``).
RESIZED = "__refereeResized"


def _origin(url: str) -> str:
    """Scheme, host and port: what ``sessionStorage`` is kept by (every file one origin)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


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
        self._origin: str | None = None  # the origin the open tab shows (``open``)
        self._origins: set[str] = set()  # and every one it has shown
        self._scripts: list[str] = []  # scripts added to every new document of the page
        self._size: tuple[int, int] | None = None  # the page's window, CSS pixels

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
        """The page at ``url`` in a window of ``width`` x ``height`` CSS pixels, loaded; the
        page open before is gone (one browser serves a whole test module).

        The open tab is navigated to ``url`` rather than closed for a new one: a new tab (a
        target) starts a renderer of its own, which costs about as much CPU again as the
        load itself. Nothing of the old page comes along: the back-forward cache is off
        (``FLAGS``: the old page is not kept alive, frozen, with its connections), scripts
        added to every new document are removed, and what a tab keeps per origin,
        ``sessionStorage``, is emptied for the origin just left (the tab then shows no other
        origin it held before; one it showed earlier gets a new tab). What every tab shares
        (cookies, ``localStorage``, the cache) is shared as before."""
        where = _origin(url)
        if self.session is not None and (where == self._origin or where not in self._origins):
            try:
                if where == self._origin:
                    self._leave()  # nothing of the old page runs, and it
                    self.evaluate("sessionStorage.clear()")  # left nothing for this one
                self._navigate(url, width, height)
            except (RuntimeError, TimeoutError):
                pass  # the page is gone or hung: a new one
            else:
                self._origin = where
                self._origins.add(where)
                return
        self._close_target()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.target = target
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self._metrics(width, height)
        self.page("Page.enable")
        self.page("Page.navigate", {"url": url})
        self.wait_for("document.readyState === 'complete'")
        self._origin = where
        self._origins = {where}

    def _navigate(self, url: str, width: int, height: int) -> None:
        """The open tab navigated to ``url``, at the new size first, and loaded: the old
        document marked, so that its own readiness is not taken for the new one's."""
        for script in self._scripts:
            self.page("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script})
        self._scripts = []
        self.evaluate(f"window.{LEFT} = true")
        if self._size != (width, height):
            self._metrics(width, height)
        self.page("Page.navigate", {"url": url})
        self.wait_for(f"window.{LEFT} === undefined && document.readyState === 'complete'")

    def _leave(self) -> None:
        """The open tab at ``about:blank``, navigated there from the page itself: its scripts
        stopped and its connections closed. The blank document keeps the page's origin (and
        its renderer, which the next ``open`` reuses)."""
        if self.evaluate("location.href") != "about:blank":
            self.evaluate("location.replace('about:blank')")
            self.wait_for("location.href === 'about:blank' && "
                          "document.readyState === 'complete'")

    def _close_target(self) -> None:
        if self.target is not None:
            try:
                self.send("Target.closeTarget", {"targetId": self.target})
            except (RuntimeError, TimeoutError):
                pass
        self.target = self.session = None
        self._origin = None
        self._origins = set()
        self._scripts = []
        self._size = None

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.send(method, params, self.session)
        if method == "Page.addScriptToEvaluateOnNewDocument":  # removed by the next open
            self._scripts.append(result["identifier"])
        return result

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
        """The page's window at ``width`` x ``height`` CSS pixels, without reloading it; back
        once the page has had its ``resize`` event, when the size changed (what the page
        does on it, in listeners of its own, added before ours, has been done: no fixed
        wait for a refit)."""
        if self._size == (width, height):
            self._metrics(width, height)
            return
        self.evaluate(f"window.{RESIZED} = false; window.addEventListener('resize', "
                      f"function () {{ window.{RESIZED} = true; }}, {{once: true}})")
        self._metrics(width, height)
        self.wait_for(f"window.{RESIZED} !== false")  # undefined: the page reloaded

    def _metrics(self, width: int, height: int) -> None:
        self._size = (width, height)
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": width < 600})

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.page("Page.captureScreenshot", {"format": "png"})["data"])
        path.write_bytes(data)
        return data

    def blank(self) -> None:
        """The open page, if any, gone (``_leave``; the tab closed should that fail): its
        scripts stopped and its connections closed; the next ``open`` loads a new document."""
        if self.session is None:
            return
        try:
            self._leave()
        except (RuntimeError, TimeoutError):
            self._close_target()

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
