"""Per-file sums of a pytest JUnit XML (plain or .gz), slowest file first.

python experiments/2026-12-07_test_tiers/by_file.py fast_before.xml.gz > fast_before_by_file.txt
"""

import collections
import gzip
import sys
import xml.etree.ElementTree as ET

path = sys.argv[1]
with (gzip.open if path.endswith(".gz") else open)(path, "rb") as xml:
    root = ET.parse(xml).getroot()
files = collections.defaultdict(lambda: [0, 0.0, 0.0, ""])  # tests, sum, max, slowest
total, count = 0.0, 0
for case in root.iter("testcase"):
    seconds = float(case.get("time", 0))
    entry = files[case.get("classname").replace(".", "/") + ".py"]
    entry[0] += 1
    entry[1] += seconds
    if seconds > entry[2]:
        entry[2], entry[3] = seconds, case.get("name")
    total, count = total + seconds, count + 1
print(f"{'file':62s} {'tests':>5s} {'sum s':>8s} {'max s':>7s}  slowest test")
for name, (tests, summed, most, slowest) in sorted(files.items(), key=lambda kv: -kv[1][1]):
    print(f"{name:62s} {tests:5d} {summed:8.1f} {most:7.1f}  {slowest}")
print(f"total: {count} tests, {total:.1f} s of test time (setup+call+teardown)")
