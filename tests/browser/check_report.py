#!/usr/bin/env python3
"""Renders one kerncast HTML report in headless Chromium and checks that every chart drew all
of its data points (tests/browser/CMakeLists.txt registers one test per report kind).

    check_report.py --kerncast BIN --chromium BIN --out DIR --name NAME --charts k1,k2 -- ARGS...

runs `kerncast ARGS... --report DIR/NAME.html`, loads the page from disk (file://, no server,
no network), reads what the page's script wrote into #kerncast-chart-check after drawing (per
chart: the points it was given and the points Chart.js placed inside the chart area), and
keeps a screenshot DIR/NAME.png. Fails when the charts are not exactly k1,k2,... or a chart
drew fewer points than it was given, or none.
"""
import argparse
import html
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars",
]


def chromium(binary, profile, arguments, url):
    command = [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *arguments, url]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit(f"chromium failed ({result.returncode}): {' '.join(command)}\n{result.stderr}")
    return result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kerncast", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--charts", required=True)
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    arguments = [a for a in options.arguments if a != "--"]

    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    report = out / f"{options.name}.html"
    report.unlink(missing_ok=True)
    run = subprocess.run([options.kerncast, *arguments, "--report", str(report)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0 or not report.exists():
        sys.exit(f"kerncast {' '.join(arguments)} failed ({run.returncode}):\n{run.stderr}")

    url = report.resolve().as_uri()
    with tempfile.TemporaryDirectory() as profile:
        dom = chromium(options.chromium, profile, ["--dump-dom"], url)
        match = re.search(r'<div id="kerncast-chart-check"[^>]*>([^<]*)</div>', dom)
        if not match or not match.group(1).strip():
            sys.exit("the page's script did not report its charts (did it run?)")
        check = json.loads(html.unescape(match.group(1)))
        screenshot = out / f"{options.name}.png"
        chromium(options.chromium, profile,
                 [f"--screenshot={screenshot}", "--window-size=1100,2400"], url)

    expected_keys = options.charts.split(",")
    keys = [chart["key"] for chart in check]
    failures = []
    if keys != expected_keys:
        failures.append(f"charts {keys}, expected {expected_keys}")
    for chart in check:
        if chart["expected"] <= 0:
            failures.append(f"chart {chart['key']} has no data points")
        elif chart["drawn"] != chart["expected"]:
            failures.append(f"chart {chart['key']} drew {chart['drawn']} of "
                            f"{chart['expected']} points")
    if not screenshot.exists() or screenshot.stat().st_size == 0:
        failures.append(f"no screenshot at {screenshot}")
    for chart in check:
        print(f"{options.name}: chart {chart['key']}: {chart['drawn']} of {chart['expected']} "
              "points drawn")
    print(f"screenshot: {screenshot}")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
