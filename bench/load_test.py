"""Load test: N concurrent headless browser sessions moving sliders on one local server.

Starts ``streamlit run app.py`` on a free loopback port, opens N browser contexts in Debian's
chromium (Playwright, async), loads a mid-size sample in each, then for ``--seconds`` each
session keeps moving the λ and thresholds sliders of the Rule page.  Each move is clocked in
the page (``MOVE_CLOCK``): from the key press until the rerun it requested has finished.
Reports errors, p50/p95/max of those times, the server's memory (RSS, sampled every second),
the machine's busy share, the CPU used by the server, chromium and this script, and a speed
check of the machine before and after (the host is shared; its speed drifts between runs).
``--pin`` puts the server on CPU 0 and everything else on CPU 1.  Traffic goes to 127.0.0.1
only; the run stops by itself.

    .venv/bin/python bench/load_test.py --users 10 --seconds 120 --out bench/results/load_test.md
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def start_server(cpu: int | None = None) -> tuple[subprocess.Popen, str]:
    """``streamlit run app.py`` on a free loopback port (on one CPU if given), once healthy."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless",
         "true", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=(lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                break
        except OSError:
            time.sleep(0.5)
    return server, url


def speed_check(repeat: int = 7) -> float:
    """Median seconds of a fixed single-thread Python workload, on an otherwise idle machine.

    This machine is a VM on a shared host: the same code gave p95 from 1.4 to 2.4 s in one
    hour.  A slow check means a slow host, but a normal one does not rule it out: in the
    fourth pass the checks did not follow the p95, in the fifth they caught a slowdown
    (bench/results/load_test.md)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        acc = 0
        for i in range(2_000_000):
            acc += i * i % 7
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU-seconds of the whole machine so far, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields) - idle) / tick, sum(fields) / tick


def cpu_snapshot() -> dict[int, tuple[int, str, float]]:
    """``{pid: (ppid, comm, user+system CPU seconds)}`` of every live process."""
    tick = os.sysconf("SC_CLK_TCK")
    snap = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            comm = stat[stat.index("(") + 1: stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            snap[int(d.name)] = (int(fields[1]), comm,
                                 (int(fields[11]) + int(fields[12])) / tick)
        except (OSError, ValueError):
            continue
    return snap


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


# Runs in every page before Streamlit's own scripts.  The clock lives in the browser so that
# this process (one Python loop driving every session) adds nothing to the figures: a move
# starts at the key press and ends when the app's script state, having left "notRunning" for
# the rerun the press requested, returns to it.
#
# When the browser is saturated, Streamlit may handle a run's start and end messages in one
# React update; the script-state attribute then never leaves "notRunning" although the run
# happened.  The page's WebSocket is therefore watched too: a ForwardMsg (streamlit/proto/
# ForwardMsg.proto) with top-level field 4 (new_session) starts a run and one with field 6
# (script_finished) ends it.  If both arrive and the attribute never moved, the move ends at
# the first animation frame after the end message (counted as "one-frame runs").
MOVE_CLOCK = """
window.__sent = 0;  // messages the page sent to the server (a rerun request is one)
window.__move = {phase: 'idle', t0: 0, ms: null, seen: [], sent: 0};
function topLevelFields(buffer) {  // protobuf wire format, top level only
  const b = new Uint8Array(buffer), out = [];
  let i = 0;
  const varint = () => {
    let v = 0, scale = 1, x;
    do { x = b[i++]; v += (x & 127) * scale; scale *= 128; } while (x & 128 && i < b.length);
    return v;
  };
  while (i < b.length) {
    const key = varint(), wire = key % 8;
    out.push(Math.floor(key / 8));
    if (wire === 0) varint(); else if (wire === 1) i += 8; else if (wire === 2) i += varint();
    else if (wire === 5) i += 4; else break;
  }
  return out;
}
function finishInOneFrame(m) {  // the attribute did not move: end after the next frame
  setTimeout(() => requestAnimationFrame(() => setTimeout(() => {
    const app = document.querySelector("[data-testid='stApp']");
    const idle = app && app.getAttribute('data-test-script-state') === 'notRunning';
    if (m.phase === 'pressed' && idle) {
      m.phase = 'done'; m.oneFrame = true; m.ms = performance.now() - m.t0;
    }
  }, 0)), 0);
}
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (e) => {
      const m = window.__move;
      const waiting = m.phase === 'pressed' || m.phase === 'running';
      if (!waiting || !(e.data instanceof ArrayBuffer)) return;
      const f = topLevelFields(e.data);
      if (f.includes(4)) m.started = true;
      if (f.includes(6) && m.started) {
        m.finished = true;
        if (m.phase === 'pressed') finishInOneFrame(m);
      }
    });
  }
  send(data) { window.__sent += 1; return super.send(data); }
};
document.addEventListener('keydown', () => {
  window.__move = {phase: 'pressed', t0: performance.now(), ms: null, seen: [], sent: window.__sent,
                   started: false, finished: false, oneFrame: false};
}, true);
new MutationObserver((records) => {
  const m = window.__move;
  for (const r of records) {
    const s = r.target.getAttribute('data-test-script-state');
    if (m.seen) m.seen.push(s);
    if (m.phase === 'pressed' && s !== 'notRunning') m.phase = 'running';
    else if (m.phase === 'running' && s === 'notRunning') {
      m.phase = 'done'; m.ms = performance.now() - m.t0;
    }
  }
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-test-script-state']});
"""


async def open_rule_page(page, url: str, sample: str, after_step=None) -> None:
    """Open the app, load ``sample`` on the Data page, go to the Rule page, wait until idle.

    ``after_step``, an async callable, runs after each of the three steps (page_cost.py
    measures them)."""
    async def done() -> None:
        await settle(page, timeout=120_000)
        if after_step is not None:
            await after_step()

    await page.goto(url, timeout=120_000)
    await done()
    await page.locator(".st-key-w_sample").get_by_role("combobox").click(timeout=120_000)
    await page.get_by_role("option", name=sample, exact=True).click()
    await done()
    await page.get_by_test_id("stSidebarNav").get_by_text("Rule", exact=True).click()
    await done()


async def user(browser, url: str, sample: str, seconds: float, seed: int, out: dict,
               delay: float = 0.0, reduced_motion: bool = False) -> None:
    rnd = random.Random(seed)
    await asyncio.sleep(delay)  # ramp-up: sessions arrive one after another
    ctx = await browser.new_context(viewport={"width": 1280, "height": 800},
                                    reduced_motion="reduce" if reduced_motion else "no-preference")
    page = await ctx.new_page()
    await page.add_init_script(MOVE_CLOCK)
    try:
        await open_rule_page(page, url, sample)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            key = rnd.choice(["lam", "rule_n_thresholds"])
            thumb = page.locator(f".st-key-{key}").get_by_role("slider")
            now, lo, hi = map(float, await thumb.evaluate("e => [e.value, e.min, e.max]"))
            # a press against the end of the range changes nothing and starts no run
            arrow = ("ArrowLeft" if now >= hi else "ArrowRight" if now <= lo
                     else rnd.choice(["ArrowLeft", "ArrowRight"]))
            try:
                # a key press can land while the slider is being redrawn and be lost (the value
                # does not move, no run starts): press again; the clock starts at the last press
                for _ in range(3):
                    await thumb.focus()
                    await page.keyboard.press(arrow)
                    try:
                        await thumb.evaluate(
                            "(e, v) => new Promise((ok, no) => { const t = Date.now();"
                            " (function f() { if (+e.value !== v) ok(); else if (Date.now() - t >"
                            " 1000) no(new Error('lost')); else setTimeout(f, 20); })(); })", now)
                        break
                    except Exception:
                        out["lost_keys"] = out.get("lost_keys", 0) + 1
                await page.wait_for_function("window.__move.phase === 'done'",
                                             timeout=30_000, polling=100)
                # one round trip for the clock and both sliders' values (this process and
                # chromium share the cores the figures are about)
                ms, one_frame, lam_index, n_thresholds = await page.evaluate(
                    "[window.__move.ms, window.__move.oneFrame]"
                    ".concat(['lam', 'rule_n_thresholds'].map(k => +document.querySelector("
                    "`.st-key-${k} input[type=range]`).value))")
                out["times"].append(ms / 1000)
                out["moves"].append({"user": seed, "slider": key, "at": round(time.monotonic(), 2),
                                     "seconds": ms / 1000, "one_frame": bool(one_frame),
                                     "lam_index": lam_index, "n_thresholds": n_thresholds})
                out["one_frame"] = out.get("one_frame", 0) + bool(one_frame)
                await settle(page, timeout=30_000)
                if await page.get_by_test_id("stException").count():
                    out["errors"].append("exception shown on page")
            except Exception as exc:  # a timeout is an error of the run, not of the script
                state = await page.evaluate(
                    "() => { const a = document.querySelector(\"[data-testid='stApp']\");"
                    " return a ? a.getAttribute('data-test-script-state') + '/' +"
                    " a.getAttribute('data-test-connection-state') : 'no app'; }")
                seen = await page.evaluate("window.__move.phase + ':' + window.__move.seen")
                sent, started, finished = await page.evaluate(
                    "[window.__sent - window.__move.sent, window.__move.started,"
                    " window.__move.finished]")
                what = (("the slider moved but the page sent nothing" if not sent else
                         f"the page sent {sent} message(s); the server "
                         + ("started no run" if not started else
                            "started a run and did not finish it" if not finished else
                            "ran it but the page did not settle"))
                        if seen == "pressed:" else f"script states seen {seen}")
                out["errors"].append(f"{type(exc).__name__} after moving {key}: {what} "
                                     f"(app {state})")
            await page.wait_for_timeout(rnd.randint(200, 800))  # think time
    except Exception as exc:
        out["errors"].append(f"session: {type(exc).__name__}: {str(exc)[:80]}")
    finally:
        await ctx.close()


async def run(users: int, seconds: float, sample: str, url: str, pid: int,
              ramp: float = 1.0, reduced_motion: bool = False) -> dict:
    from playwright.async_api import async_playwright

    out: dict = {"times": [], "moves": [], "errors": [], "rss": []}
    stop = asyncio.Event()

    # CPU per process, sampled every second: a browser context's processes exit when it
    # closes, so reading /proc only at the end would miss most of the browsers' work
    seen: dict[int, tuple[int, str, float]] = {}
    base = cpu_snapshot()  # work done before the run (this script's start-up) does not count

    async def sample_memory() -> None:
        while not stop.is_set():
            out["rss"].append(rss_mb(pid))
            seen.update(cpu_snapshot())
            await asyncio.sleep(1.0)

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--disable-gpu", "--no-sandbox", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        mem = asyncio.create_task(sample_memory())
        await asyncio.gather(*(user(browser, url, sample, seconds, i, out, delay=i * ramp,
                                    reduced_motion=reduced_motion)
                               for i in range(users)))
        stop.set()
        await mem
        seen.update(cpu_snapshot())
        me = os.getpid()

        def cpu(match) -> float:
            return sum(c - base.get(p, (0, "", 0.0))[2]
                       for p, (pp, comm, c) in seen.items() if match(p, pp, comm))

        out["cpu_server"] = cpu(lambda p, pp, c: p == pid or pp == pid)
        out["cpu_browsers"] = cpu(lambda p, pp, c: c.startswith(("chrom", "Chrom")))
        # this process and Playwright's node driver: the load generator itself
        out["cpu_client"] = cpu(lambda p, pp, c: p == me or c.startswith("node"))
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
    ap.add_argument("--reduced-motion", action="store_true",
                    help="browsers ask for reduced motion (prefers-reduced-motion: reduce): "
                         "no spinner or fade animation frames while a rerun runs")
    ap.add_argument("--raw", type=Path, help="write every move (user, slider, time) as JSON")
    ap.add_argument("--pin", action="store_true",
                    help="server on CPU 0, browsers and this script on CPU 1: shows what the "
                         "server does when the browsers cannot take its core")
    args = ap.parse_args()
    if args.pin:
        os.sched_setaffinity(0, {1})  # inherited by Playwright's driver and chromium
    speed = [speed_check()]
    server, url = start_server(cpu=0 if args.pin else None)
    try:
        t0, busy0 = time.monotonic(), machine_busy()
        out = asyncio.run(run(args.users, args.seconds, args.sample, url, server.pid,
                              args.ramp, args.reduced_motion))
        wall = time.monotonic() - t0
        busy1 = machine_busy()
        out["busy"] = (busy1[0] - busy0[0]) / max(busy1[1] - busy0[1], 1e-9)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    speed.append(speed_check())
    out["speed_check"] = speed
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
        f"--seconds {args.seconds:g} --ramp {args.ramp:g}{' --pin' if args.pin else ''}`"
        + (" (server pinned to CPU 0; browsers and this script to CPU 1)" if args.pin else ""),
        "",
        f"Sessions start {args.ramp:g} s apart. "
        f"Each of {args.users} sessions loads *{args.sample}*, opens the Rule page and for "
        f"{args.seconds:g} s moves the λ or thresholds slider one step at a time (200–800 ms "
        "think time), timing each move in the browser from the key press until the page, having "
        "started the rerun it asked for, reports the script finished.",
        "",
        "| users | moves | errors | p50 (s) | p95 (s) | max (s) | server RSS max (MB) | wall (s) "
        "| machine busy | server CPU (s) | browsers CPU (s) | load generator CPU (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {args.users} | {len(times)} | {len(out['errors'])} | "
        f"{statistics.median(times) if times else float('nan'):.2f} | "
        f"{percentile(times, 0.95):.2f} | {max(times) if times else float('nan'):.2f} | "
        f"{max(out['rss']) if out['rss'] else float('nan'):.0f} | {wall:.0f} | "
        f"{out.get('busy', float('nan')):.0%} | "
        f"{out.get('cpu_server', float('nan')):.0f} | "
        f"{out.get('cpu_browsers', float('nan')):.0f} | "
        f"{out.get('cpu_client', float('nan')):.0f} |",
        "",
        f"The machine had {os.cpu_count()} × {wall:.0f} = {os.cpu_count() * wall:.0f} CPU-seconds "
        "in all; *machine busy* is the share of them used by anything (from /proc/stat), and the "
        "last three columns split it between the app server, chromium and this script with "
        "Playwright's driver.",
        "",
        f"Speed check (`speed_check`, a fixed single-thread loop on the idle machine; the host "
        f"is shared and its speed drifts): {out['speed_check'][0]:.3f} s before the run, "
        f"{out['speed_check'][1]:.3f} s after.",
    ]
    if out.get("one_frame"):
        lines += ["", f"One-frame runs (start and end drawn in one frame, timed from the "
                      f"WebSocket; see MOVE_CLOCK): {out['one_frame']}."]
    if out.get("lost_keys"):
        lines += ["", f"Key presses that did not move the slider (it was being redrawn) and "
                      f"were repeated: {out['lost_keys']}."]
    if out["errors"]:
        lines += ["", "Errors: " + ", ".join(sorted(set(out["errors"])))]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)
    if args.raw:
        args.raw.write_text(json.dumps({"moves": out["moves"], "rss": out["rss"],
                                        "speed_check": out["speed_check"]}, indent=0))


if __name__ == "__main__":
    main()
