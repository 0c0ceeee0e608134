"""CPU per slider move for one browser session: server, chromium renderer, chromium GPU process.

Starts ``streamlit run app.py``, opens the Rule page on a sample in Debian's chromium, warms
the caches with a few moves, then moves λ and the thresholds slider back and forth
(``--moves`` in all) and divides the CPU each process used by the number of moves.  The
moves revisit the same settings, so fits come from the cache: this is the cost of a rerun
and of drawing it, the part that grows with the number of users.  Then ``--opens`` fresh
sessions are opened as the load test opens them (app, sample, Rule page), for the CPU that
opening one costs, step by step.

    .venv/bin/python bench/page_cost.py --moves 30
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_test import CHROMIUM, MOVE_CLOCK, cpu_snapshot, open_rule_page, settle, start_server  # noqa: E402


def chromium_cpu() -> Counter:
    """CPU seconds of every chromium process so far, by process type (renderer, gpu-process...)."""
    out: Counter = Counter()
    for pid, (_, comm, cpu) in cpu_snapshot().items():
        if not comm.startswith(("chrom", "Chrom")):
            continue
        try:  # chromium rewrites its command line into one space-separated string
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split(b" ")
        except OSError:
            continue
        out[next((c[7:].decode() for c in cmd if c.startswith(b"--type=")), "browser")] += cpu
    return out


async def measure(url: str, server_pid: int, sample: str, moves: int, opens: int) -> dict:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM,
                                           args=["--disable-gpu", "--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await page.add_init_script(MOVE_CLOCK)
        await open_rule_page(page, url, sample)

        async def move(i: int) -> float:
            key = ("lam", "rule_n_thresholds")[i % 2]
            thumb = page.locator(f".st-key-{key}").get_by_role("slider")
            await thumb.focus()
            await page.keyboard.press("ArrowRight" if (i // 2) % 2 == 0 else "ArrowLeft")
            await page.wait_for_function("window.__move.phase === 'done'", timeout=60_000,
                                         polling=100)
            ms = await page.evaluate("window.__move.ms")
            await settle(page)
            await page.wait_for_timeout(500)  # let the page finish drawing
            return ms / 1000

        for i in range(4):  # every setting visited below is now cached
            await move(i)
        c0, s0 = chromium_cpu(), cpu_snapshot()[server_pid][2]
        times = [await move(i) for i in range(moves)]
        c1, s1 = chromium_cpu(), cpu_snapshot()[server_pid][2]
        await page.close()
        opening = await measure_opening(browser, url, server_pid, sample, opens)
        await browser.close()
    cpu = {kind: (c1[kind] - c0.get(kind, 0.0)) / moves for kind in c1}
    return {"times": times, "server": (s1 - s0) / moves, "chromium": cpu, "opening": opening}


async def measure_opening(browser, url: str, server_pid: int, sample: str, opens: int) -> dict:
    """CPU of opening a session as the load test does, per step, averaged over ``opens``
    fresh browser contexts (each its own cache, like a new user).  The first context runs
    before the clock: it fills the server's caches, which later users find full."""
    steps = ("open the app (Data page)", "choose the sample", "go to the Rule page")
    total = dict.fromkeys(steps, 0.0)
    server = 0.0
    for k in range(opens + 1):
        ctx = await browser.new_context(viewport={"width": 1280, "height": 800})
        page = await ctx.new_page()
        marks: list[tuple[dict, float]] = []

        async def mark(page=page, marks=marks) -> None:
            await page.wait_for_timeout(500)  # let the page finish drawing
            snap = cpu_snapshot()
            marks.append(({p: c for p, (_, comm, c) in snap.items()
                           if comm.startswith(("chrom", "Chrom"))}, snap[server_pid][2]))

        await mark()
        await open_rule_page(page, url, sample, after_step=mark)
        if k:
            for step, a, b in zip(steps, marks, marks[1:]):  # processes that exit: not counted
                total[step] += sum(c - a[0].get(p, 0.0) for p, c in b[0].items()) / opens
            server += (marks[-1][1] - marks[0][1]) / opens
        await ctx.close()
    return {"chromium": total, "server": server, "opens": opens}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--sample", default="Machine failure (synthetic, planted rule)")
    ap.add_argument("--opens", type=int, default=3,
                    help="fresh sessions opened to measure the cost of opening one")
    args = ap.parse_args()
    server, url = start_server()
    try:
        r = asyncio.run(measure(url, server.pid, args.sample, args.moves, args.opens))
    finally:
        server.terminate()
    times = sorted(r["times"])
    print(f"{args.moves} cached moves on the Rule page ({args.sample})")
    print(f"move time: median {times[len(times) // 2]:.2f} s, max {times[-1]:.2f} s")
    print(f"CPU per move: server {r['server']:.3f} s, "
          + ", ".join(f"chromium {k} {v:.3f} s" for k, v in sorted(r["chromium"].items())
                      if v >= 0.001))
    o = r["opening"]
    print(f"opening a session (mean of {o['opens']}): chromium "
          f"{sum(o['chromium'].values()):.2f} CPU-s ("
          + ", ".join(f"{k} {v:.2f}" for k, v in o["chromium"].items())
          + f"), server {o['server']:.2f} CPU-s")


if __name__ == "__main__":
    main()
