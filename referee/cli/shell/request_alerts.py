"""A phone's request told at the shell's prompt as it arrives (R46, E215). Imported by the
shell at a terminal only (it loads prompt_toolkit)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from prompt_toolkit.application import run_in_terminal

from referee.errors import RefereeError
from referee.serve.asks import asks_path
from referee.serve.players import signature


class Bell:
    """A phone's request told at the shell's prompt as it arrives (R46, E215): a thread looks
    at the queue's file every ``EVERY`` seconds and prints its line above the prompt (a line
    typed meanwhile stays as it was); while a command runs, the line waits for the next
    prompt."""

    EVERY = 0.05

    def __init__(self, evening: Path, news: Callable[[], list[str]]) -> None:
        self.evening = evening
        self.news = news  # the lines of the requests made since the last look
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="requests", daemon=True)
        self.waiting: list[str] = []
        self.lock = threading.Lock()
        self.loop: Any = None
        self.context: Any = None

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.done.set()

    def at_prompt(self) -> None:
        """As each prompt starts: the lines that came while a command ran, then the live
        notices for this prompt."""

        with self.lock:
            waiting, self.waiting = self.waiting, []
            self.loop = asyncio.get_running_loop()
            self.context = contextvars.copy_context()
        if waiting:
            self._print(waiting)

    @staticmethod
    def _print(lines: list[str]) -> None:
        run_in_terminal(lambda: typer.echo("\n".join(lines)))

    def _watch(self) -> None:
        path = asks_path(self.evening)
        last = signature(path)
        while not self.done.wait(self.EVERY):
            now = signature(path)
            if now == last:
                continue
            last = now
            try:
                lines = self.news()
            except (OSError, RefereeError):
                continue
            if not lines:
                continue
            with self.lock:
                loop, context = self.loop, self.context
                if loop is None or loop.is_closed() or not loop.is_running():
                    self.waiting += lines
                    continue
            try:
                loop.call_soon_threadsafe(self._print, lines, context=context)
            except RuntimeError:
                with self.lock:
                    self.waiting += lines

