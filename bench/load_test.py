"""Load test: N concurrent headless browser sessions moving sliders on one local server.

Starts ``streamlit run app.py`` on a free loopback port, opens N browser contexts in Debian's
chromium (Playwright, async), loads a mid-size sample in each, then for ``--seconds`` each
session keeps moving the λ and thresholds sliders of the Rule page, timing every move until the
page has settled.  Reports errors, p50/p95/max time to a settled page, and the server's memory
(RSS, sampled every second).  Traffic goes to 127.0.0.1 only; the run stops by itself.

    .venv/bin/python bench/load_test.py --users 10 --seconds 120 --out bench/results/load_test.md
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(match) -> float:
    """Total user+system CPU seconds of live processes whose /proc entry ``match``es."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            comm = stat[stat.index("(") + 1: stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            ppid = int(fields[1])
            if match(int(d.name), ppid, comm):
                total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError):
            continue
    return total


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children, in MB (Linux /proc)."""
    total = 0
    pids = [pid]
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
        pids += [int(p) for p in out.split()]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


async def settle(page, timeout: float = 60_000) -> None:
    await page.wait_for_timeout(250)
    await page.wait_for_selector("[data-testid='stApp'][data-test-connection-state='CONNECTED']",
                                 timeout=timeout)
    await page.wait_for_selector("[data-testid='stApp'][data-test-script-state='notRunning']",
                                 timeout=timeout)


def _on_frame(payload, runs: asyncio.Queue) -> None:
    """Note each ``script_finished`` message the server sends (Streamlit's ForwardMsg)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if isinstance(payload, str):
        return
    msg = ForwardMsg.FromString(payload)
    if msg.WhichOneof("type") == "script_finished":
        runs.put_nowait((time.monotonic(),
                         ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)))


async def user(browser, url: str, sample: str, seconds: float, seed: int, out: dict,
               delay: float = 0.0) -> None:
    rnd = random.Random(seed)
    await asyncio.sleep(delay)  # ramp-up: sessions arrive one after another
    ctx = await browser.new_context(viewport={"width": 1300, "height": 1600})
    page = await ctx.new_page()
    runs: asyncio.Queue = asyncio.Queue()  # (arrival time, status) of every finished run
    page.on("websocket", lambda ws: ws.on("framereceived",
                                          lambda payload: _on_frame(payload, runs)))
    try:
        await page.goto(url, timeout=120_000)
        await settle(page, timeout=120_000)
        await page.locator(".st-key-w_sample").get_by_role("combobox").click(timeout=120_000)
        await page.get_by_role("option", name=sample, exact=True).click()
        await settle(page)
        await page.get_by_test_id("stSidebarNav").get_by_text("Rule", exact=True).click()
        await settle(page)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            key = rnd.choice(["lam", "rule_n_thresholds"])
            thumb = page.locator(f".st-key-{key}").get_by_role("slider")
            now, lo, hi = map(float, await thumb.evaluate("e => [e.value, e.min, e.max]"))
            # a press against the end of the range changes nothing and starts no run
            arrow = ("ArrowLeft" if now >= hi else "ArrowRight" if now <= lo
                     else rnd.choice(["ArrowLeft", "ArrowRight"]))
            await thumb.focus()
            while not runs.empty():
                runs.get_nowait()
            t0 = time.monotonic()
            await page.keyboard.press(arrow)
            try:
                # settled = the server's "script finished" message for the run this move
                # started has reached the browser (runs cut short by a newer one do not count)
                while True:
                    left = 30.0 - (time.monotonic() - t0)
                    t_done, status = await asyncio.wait_for(runs.get(), max(left, 0.01))
                    if status in ("FINISHED_SUCCESSFULLY", "FINISHED_FRAGMENT_RUN_SUCCESSFULLY"):
                        break
                out["times"].append(t_done - t0)
                await settle(page, timeout=30_000)
                if await page.get_by_test_id("stException").count():
                    out["errors"].append("exception shown on page")
            except Exception as exc:  # a timeout is an error of the run, not of the script
                state = await page.evaluate(
                    "() => { const a = document.querySelector(\"[data-testid='stApp']\");"
                    " return a ? a.getAttribute('data-test-script-state') + '/' +"
                    " a.getAttribute('data-test-connection-state') : 'no app'; }")
                out["errors"].append(f"{type(exc).__name__} after moving {key} ({state})")
            await page.wait_for_timeout(rnd.randint(200, 800))  # think time
    except Exception as exc:
        out["errors"].append(f"session: {type(exc).__name__}: {str(exc)[:80]}")
    finally:
        await ctx.close()


async def run(users: int, seconds: float, sample: str, url: str, pid: int,
              ramp: float = 1.0) -> dict:
    from playwright.async_api import async_playwright

    out: dict = {"times": [], "errors": [], "rss": []}
    stop = asyncio.Event()

    async def sample_memory() -> None:
        while not stop.is_set():
            out["rss"].append(rss_mb(pid))
            await asyncio.sleep(1.0)

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--disable-gpu", "--no-sandbox", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        mem = asyncio.create_task(sample_memory())
        await asyncio.gather(*(user(browser, url, sample, seconds, i, out, delay=i * ramp)
                               for i in range(users)))
        stop.set()
        await mem
        out["cpu_server"] = cpu_seconds(lambda p, pp, c: p == pid or pp == pid)
        out["cpu_browsers"] = cpu_seconds(lambda p, pp, c: c.startswith(("chrom", "Chrom")))
        await browser.close()
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--users", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--sample", default="Machine failure (synthetic, planted rule)")
    ap.add_argument("--ramp", type=float, default=2.0, help="seconds between session starts")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless",
         "true", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.5)
        t0 = time.monotonic()
        out = asyncio.run(run(args.users, args.seconds, args.sample, url, server.pid,
                              args.ramp))
        wall = time.monotonic() - t0
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    times = out["times"]
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text()
                .splitlines() if ln.startswith("model name")), platform.processor())
    lines = [
        "# Load test: concurrent browser sessions on one server",
        "",
        f"Machine: {os.cpu_count()}-core {cpu}, "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
        f"date {date.today()}; the browsers run on the same machine as the server.",
        "",
        f"Command: `.venv/bin/python bench/load_test.py --users {args.users} "
        f"--seconds {args.seconds:g} --ramp {args.ramp:g}`",
        "",
        f"Sessions start {args.ramp:g} s apart. "
        f"Each of {args.users} sessions loads *{args.sample}*, opens the Rule page and for "
        f"{args.seconds:g} s moves the λ or thresholds slider one step at a time (200–800 ms "
        "think time), timing each move from the key press until the server's *script "
        "finished* message for the run it started reaches the browser.",
        "",
        "| users | moves | errors | p50 (s) | p95 (s) | max (s) | server RSS max (MB) | wall (s) "
        "| server CPU (s) | browsers CPU (s) |",
        "|---|---|---|---|---|---|---|---|---|---|",
        f"| {args.users} | {len(times)} | {len(out['errors'])} | "
        f"{statistics.median(times) if times else float('nan'):.2f} | "
        f"{percentile(times, 0.95):.2f} | {max(times) if times else float('nan'):.2f} | "
        f"{max(out['rss']) if out['rss'] else float('nan'):.0f} | {wall:.0f} | "
        f"{out.get('cpu_server', float('nan')):.0f} | "
        f"{out.get('cpu_browsers', float('nan')):.0f} |",
        "",
        f"The machine had {os.cpu_count()} × {wall:.0f} = {os.cpu_count() * wall:.0f} CPU-seconds "
        "in all; the server and the browsers' shares are the last two columns.",
    ]
    if out["errors"]:
        lines += ["", "Errors: " + ", ".join(sorted(set(out["errors"])))]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
