"""The one-line progress indicator on stderr (rewritten in place on a terminal, one line per
20 runs otherwise so that logs stay short), and loud messages that interrupt it."""

import sys
import time


class Progress:
    def __init__(self, total, stream=None):
        self.total = total
        self.done = 0
        self.start = time.monotonic()
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._width = 0

    def _write_line(self, text):
        if self.tty:
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def update(self, what):
        """Called before a run starts."""
        elapsed = time.monotonic() - self.start
        eta = ""
        if self.done:
            eta = " eta %ds" % int(elapsed / self.done * (self.total - self.done))
        if self.tty or self.done % 20 == 0:
            self._write_line("[%d/%d %ds%s] %s" % (self.done + 1, self.total, int(elapsed), eta,
                                                   what))

    def step(self):
        self.done += 1

    def loud(self, text):
        """A message on its own line that stays visible."""
        if self.tty and self._width:
            self.stream.write("\n")
            self._width = 0
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self):
        if self.tty and self._width:
            self.stream.write("\n")
        self.stream.write("done: %d runs in %.0f s\n" % (self.done, time.monotonic() - self.start))
        self.stream.flush()
