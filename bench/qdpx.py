#!/usr/bin/env python3
"""Times `import qdpx` of a diary's own export against the export (issue 17: within 2x).

Usage: bench/qdpx.py N [--bin PATH] [--runs R] [--keep DIR]

Generates an N-entry diary (bench/generate.py: codings with quotes on most entries), exports it to
qdpx, then imports that file back (every coding is recognised as already there, so nothing is
written: the cost is reading the project and matching it to the diary), and then a copy in which a
script added one coding by position per source, as a QDA tool would (that import writes one
commit). Prints the median of R runs of each, and the ratios to the export.
"""
import argparse
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ET
import zipfile

import scratch

NS = "{urn:QDA-XML:project:1.0}"


CPU = []  # CPU seconds (user + system) of each timed run, beside the wall time: on a shared machine
# the wall time also measures the neighbours.


def timed(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return time.perf_counter() - start


def cpu(runs):
    """The median CPU time of the last `runs` timed runs."""
    return statistics.median(CPU[-runs:])


def tool_copy(src, dst):
    """The export with one new coding on every text source, by position, under a new code."""
    ET.register_namespace("", "urn:QDA-XML:project:1.0")
    z = zipfile.ZipFile(src)
    root = ET.fromstring(z.read("project.qde"))
    code = str(uuid.uuid4())
    ET.SubElement(root.find(NS + "CodeBook").find(NS + "Codes"), NS + "Code", guid=code, name="bench", isCodable="true")
    for s in root.iter(NS + "TextSource"):
        sel = ET.Element(NS + "PlainTextSelection", guid=str(uuid.uuid4()), startPosition="0", endPosition="12")
        ET.SubElement(ET.SubElement(sel, NS + "Coding", guid=str(uuid.uuid4())), NS + "CodeRef", targetGUID=code)
        s.insert(1, sel)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
        for n in z.namelist():
            out.writestr(n, ET.tostring(root, encoding="utf-8", xml_declaration=True) if n == "project.qde" else z.read(n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("--bin")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep")
    a = ap.parse_args()
    bin = scratch.binary(a.bin)
    tmp = pathlib.Path(a.keep or tempfile.mkdtemp(prefix="daybook-qdpx-"))
    diary = tmp / f"diary-{a.n}"
    env = scratch.environment(tmp, diary)
    if not diary.exists():
        subprocess.run([sys.executable, str(scratch.ROOT / "bench/generate.py"), str(a.n), str(diary)], check=True)
        subprocess.run([bin, "init", "-q", str(diary)], env=env, check=True)
    subprocess.run([bin, "ls", "--last", "1"], env=env, capture_output=True)  # the entry cache, as for every bench
    export = [timed([bin, "export", "qdpx", "-q", "-o", str(tmp / "own.qdpx")], env) for _ in range(a.runs)]
    export_cpu = cpu(a.runs)
    own = [timed([bin, "import", "qdpx", "-q", str(tmp / "own.qdpx")], env) for _ in range(a.runs)]
    own_cpu = cpu(a.runs)
    tool_copy(tmp / "own.qdpx", tmp / "tool.qdpx")
    tool = [timed([bin, "import", "qdpx", "-q", str(tmp / "tool.qdpx"), "--dry-run"], env) for _ in range(a.runs)]
    tool_cpu = cpu(a.runs)
    once = timed([bin, "import", "qdpx", "-q", str(tmp / "tool.qdpx")], env)
    once_cpu = cpu(1)
    e, o, t = statistics.median(export), statistics.median(own), statistics.median(tool)
    print(f"binary: {bin}\nentries: {a.n}\nmedian of {a.runs} runs, wall (CPU)")
    print(f"export qdpx: {e:.2f} s ({export_cpu:.2f} s)")
    for name, w, c in (("import qdpx of its own export", o, own_cpu),
                       ("import qdpx with a new coding per source, --dry-run", t, tool_cpu),
                       ("import qdpx with a new coding per source, written (one run)", once, once_cpu)):
        print(f"{name}: {w:.2f} s ({c:.2f} s): {w / e:.2f}x the export ({c / export_cpu:.2f}x in CPU)")

if __name__ == "__main__":
    main()
