"""Screenshots of every report in headless Chromium (``make report-shots``; issue 16, item 7).

``python -m analysis.shots [REPORTS_DIR] [--out DIR]`` renders ``REPORTS_DIR/index.html`` and
every ``REPORTS_DIR/<folder>/report.html`` to two PNGs under ``DIR`` (default
``REPORTS_DIR/_shots``): ``<folder>.png``, the first screen (1280 x 900 px, what a designer sees
on opening the page), ``<folder>-full.png``, the whole page as it opens (folded sections
closed), and ``<folder>-open.png``, the whole page with every folded section open (to read
the tables), each at most ``MAX_HEIGHT`` px tall. It prints one line per page: the page height with
the sections folded and unfolded, and whether the verdict ends within the first screen.

Chromium is Debian's ``chromium`` package (``chromium``, ``chromium-browser`` or
``google-chrome`` on the PATH, or ``$CHROMIUM``). Without it the command prints why it skips
and exits 0, so ``make report-shots`` never fails for a missing browser; a page Chromium
cannot render exits 1.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

__all__ = ["find_chromium", "measure", "screenshot", "shoot_all", "main", "WIDTH", "HEIGHT"]

WIDTH, HEIGHT = 1280, 900
"""The first screen: a laptop browser window, in CSS pixels."""
MAX_HEIGHT = 30_000
"""The tallest full-page screenshot (px); a longer page is cut there (and the line says so)."""
_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
          "--no-first-run", "--disable-extensions", "--mute-audio"]
_MEASURE = """<script>
(function(){var b=document.body;
var t=document.querySelector('nav.toc')||document.querySelector('details');
var end=t?Math.round(t.getBoundingClientRect().top+window.scrollY):0;
var closed=document.documentElement.scrollHeight;
document.querySelectorAll('details').forEach(function(d){d.open=true;});
var open=document.documentElement.scrollHeight;
b.setAttribute('data-shot',closed+','+open+','+end);})();
</script>"""


def find_chromium() -> str | None:
    """The Chromium executable: ``$CHROMIUM`` if set, else the first of chromium,
    chromium-browser, google-chrome on the PATH; None when there is none."""
    env = os.environ.get("CHROMIUM")
    if env:
        return env if shutil.which(env) else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run(cmd: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)


def measure(chromium: str, html_path: str) -> tuple[int, int, int]:
    """``(height folded, height unfolded, verdict end)`` of a page at 1280 px width, in px
    (the verdict end: the top of the table of contents, where the folded part starts; 0 when
    the page has none). Measured by loading a copy of the page with a small script appended."""
    with open(html_path, encoding="utf-8") as f:
        text = f.read()
    text = text.replace("</body>", _MEASURE + "</body>") if "</body>" in text else text + _MEASURE
    folder = os.path.dirname(os.path.abspath(html_path))
    fd, tmp = tempfile.mkstemp(suffix=".html", dir=folder, prefix=".shot-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        res = _run([chromium, *_FLAGS, f"--window-size={WIDTH},{HEIGHT}", "--dump-dom",
                    "file://" + tmp])
    finally:
        os.unlink(tmp)
    m = re.search(r'data-shot="(\d+),(\d+),(\d+)"', res.stdout)
    if not m:
        raise RuntimeError(f"chromium could not measure {html_path}: "
                           f"{(res.stderr or '').strip().splitlines()[-1:]}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def screenshot(chromium: str, html_path: str, png: str, height: int) -> None:
    """A PNG of ``html_path`` in a ``WIDTH`` x ``height`` window. Raises RuntimeError when
    Chromium writes none."""
    if os.path.exists(png):
        os.unlink(png)
    res = _run([chromium, *_FLAGS, f"--window-size={WIDTH},{height}",
                f"--screenshot={os.path.abspath(png)}", "file://" + os.path.abspath(html_path)])
    if not os.path.exists(png):
        raise RuntimeError(f"chromium wrote no screenshot of {html_path}: "
                           f"{(res.stderr or '').strip().splitlines()[-1:]}")


def _open_shot(chromium: str, html_path: str, png: str, height: int) -> None:
    """A screenshot of ``html_path`` with every ``<details>`` open (a temporary copy)."""
    with open(html_path, encoding="utf-8") as f:
        text = f.read().replace("<details id=", "<details open id=")
    folder = os.path.dirname(os.path.abspath(html_path))
    fd, tmp = tempfile.mkstemp(suffix=".html", dir=folder, prefix=".shot-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        screenshot(chromium, tmp, png, height)
    finally:
        os.unlink(tmp)


def shoot_all(reports_dir: str, out_dir: str, chromium: str) -> list[str]:
    """Screenshots of the index and every report under ``reports_dir``; returns one line per
    page (see the module docstring)."""
    pages = []
    index = os.path.join(reports_dir, "index.html")
    if os.path.isfile(index):
        pages.append(("index", index))
    for name in sorted(os.listdir(reports_dir)):
        path = os.path.join(reports_dir, name, "report.html")
        if not name.startswith("_") and os.path.isfile(path):
            pages.append((name, path))
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    for name, path in pages:
        closed, opened, end = measure(chromium, path)
        screenshot(chromium, path, os.path.join(out_dir, f"{name}.png"), HEIGHT)
        tall = min(max(closed, HEIGHT), MAX_HEIGHT)
        screenshot(chromium, path, os.path.join(out_dir, f"{name}-full.png"), tall)
        if opened > closed:  # every folded section open: the whole report, to read it all
            _open_shot(chromium, path, os.path.join(out_dir, f"{name}-open.png"),
                       min(opened, MAX_HEIGHT))
        fit = ("" if not end else
               f"; verdict ends at {end:,} px: "
               + ("fits the first screen" if end <= HEIGHT else
                  f"needs {end / HEIGHT:.1f} screens"))
        cut = f" (cut at {MAX_HEIGHT:,} px)" if closed > MAX_HEIGHT else ""
        lines.append(f"{name}: {closed:,} px folded{cut}, {opened:,} px unfolded{fit}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit code."""
    ap = argparse.ArgumentParser(prog="python -m analysis.shots", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("reports_dir", nargs="?", default="reports")
    ap.add_argument("--out", default=None, help="default: REPORTS_DIR/_shots")
    a = ap.parse_args(argv)
    chromium = find_chromium()
    if chromium is None:
        print("report-shots: skipped: no Chromium found (install Debian's `chromium` package, "
              "or set CHROMIUM to a Chromium or Chrome executable)")
        return 0
    if not os.path.isdir(a.reports_dir):
        print(f"error: {a.reports_dir} is not a folder (run `make run` first)", file=sys.stderr)
        return 2
    out = a.out or os.path.join(a.reports_dir, "_shots")
    try:
        lines = shoot_all(a.reports_dir, out, chromium)
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not lines:
        print(f"report-shots: no report.html under {a.reports_dir} (run `make run` first)")
        return 0
    for line in lines:
        print(line)
    print(f"screenshots: {out}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
