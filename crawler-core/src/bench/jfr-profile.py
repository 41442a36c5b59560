#!/usr/bin/env python3
"""Summarizes a Java Flight Recording of a crawl: where the CPU went by thread, what the JIT compiled and how long each
compilation took, the hot frames of the samples and the allocation sites.

    jfr-profile.py RECORDING.jfr [TOP [TREE_MIN]]

Record a crawl with the profile settings and every compilation kept (JFR's default keeps those over 100 ms only):

    SIEVECRAWL_OPTS="-XX:StartFlightRecording=filename=crawl.jfr,settings=profile,jdk.Compilation#threshold=0ms" \\
      app/target/sievecrawl crawl ...

or give crawl-vs-wget2.sh a launcher that sets it (-s jfr=/path/to/wrapper). Reads the recording with the `jfr` tool
of the JDK that wrote it ($JAVA_HOME/bin/jfr, else the newest under /usr/lib/jvm, else the one on PATH). TOP rows per
table (default 25). The call tree of the samples shows the frames on at least TREE_MIN percent of them (default 1),
top down, a chain of frames through which nearly all their samples pass (a pipeline's steps) printed at one
indentation, a method calling itself as one frame. Start the recording late to see a crawl's steady state only: StartFlightRecording's delay=60s. A
compilation's duration is wall time on its compiler thread, so on a loaded machine it includes
waiting for a CPU: compare the shares, not the seconds, between runs. Not part of the build or CI.
"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys


def jfr_tool():
    home = os.environ.get("JAVA_HOME")
    candidates = [os.path.join(home, "bin", "jfr")] if home else []
    candidates += sorted(glob.glob("/usr/lib/jvm/*/bin/jfr"), reverse=True)
    for path in candidates:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("jfr") or sys.exit("no jfr tool: set JAVA_HOME to the JDK that wrote the recording")


def events(recording, name, depth=64):
    out = subprocess.run([jfr_tool(), "print", "--json", "--stack-depth", str(depth), "--events", name, recording],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["recording"]["events"]


def seconds(duration):
    """An ISO-8601 duration as JFR prints it (PT0.0123S, PT1M2.5S) in seconds."""
    match = re.fullmatch(r"-?PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration)
    hours, minutes, secs = (float(g) if g else 0.0 for g in match.groups())
    return 3600 * hours + 60 * minutes + secs


def frames(event):
    trace = event["values"].get("stackTrace")
    if not trace:
        return []
    return [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"] for f in trace["frames"]]


def library(name):
    """The library a class or method belongs to, by its package: org.jsoup, io.sievecrawl.crawler, java.util..."""
    parts = name.split(".")
    return ".".join(parts[:3] if parts[0] in ("io", "org", "com") else parts[:2])


def thread_kind(name):
    return re.sub(r"[-#\s]*\d+$", "", name or "?")


def is_jdk(frame):
    return frame.startswith(("java.", "jdk.", "sun."))


def print_table(title, counter, total, top, unit="%"):
    print(f"\n{title}")
    for key, value in counter.most_common(top):
        share = 100 * value / total if total else 0
        print(f"  {share:5.1f}{unit}  {key}")


def print_tree(samples, min_share):
    """The samples' call tree, top down: each frame with the share of the samples that passed through it."""
    paths = collections.Counter()
    for stack in map(frames, samples):
        path = ()
        for frame in reversed(stack):
            frame = re.sub(r"\$\$Lambda[./]0x[0-9a-f]+", "$$Lambda", frame)
            if path and path[-1] == frame:
                continue  # direct recursion (a tree walk) is one node
            path += (frame,)
            paths[path] += 1
    children = collections.defaultdict(list)
    for path, count in paths.items():
        children[path[:-1]].append((count, path))
    total = len(samples)
    print(f"\nCall tree of the samples (frames on at least {min_share}% of them, top down)")

    def show(parent, depth):
        for count, path in sorted(children[parent], reverse=True):
            if 100 * count / total < min_share:
                continue
            while len(children[path]) == 1 and children[path][0][0] >= 0.99 * count:
                path = children[path][0][1]  # a frame nearly every sample passes on through: fold it
            print(f"  {100 * count / total:5.1f}%  {'  ' * min(depth, 40)}{path[-1]}")
            show(path, depth + 1)

    show((), 0)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    recording = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    tree_min = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0

    load = collections.Counter()
    for e in events(recording, "jdk.ThreadCPULoad", 1):
        v = e["values"]
        load[thread_kind((v.get("eventThread") or {}).get("javaName"))] += v["user"] + v["system"]
    print_table("CPU by thread kind (share of the sampled per-thread CPU load)", load, sum(load.values()), top)

    compilations = []
    for e in events(recording, "jdk.Compilation", 1):
        v = e["values"]
        method = v["method"]["type"]["name"].replace("/", ".") + "." + v["method"]["name"]
        compilations.append((seconds(v["duration"]), v["compileLevel"], method, v["isOsr"], v["codeSize"],
                             v["inlinedBytes"]))
    print(f"\nCompilations: {len(compilations)}")
    by_level = collections.defaultdict(lambda: [0, 0.0])
    for duration, level, *_ in compilations:
        by_level[level][0] += 1
        by_level[level][1] += duration
    for level in sorted(by_level):
        count, total = by_level[level]
        print(f"  level {level}: {count:5d} compilations, {total:7.2f} s")
    c2 = [c for c in compilations if c[1] == 4]
    c2_total = sum(c[0] for c in c2)
    c2_by_library = collections.Counter()
    for duration, _, method, *_ in c2:
        c2_by_library[library(method)] += duration
    print_table(f"C2 time by library of the compiled method (of {c2_total:.2f} s)", c2_by_library, c2_total, top)
    print(f"\nLongest compilations (C2 OSR: {sum(c[0] for c in c2 if c[3]):.2f} s of {c2_total:.2f} s)")
    for duration, level, method, osr, code, inlined in sorted(compilations, reverse=True)[:top]:
        print(f"  {duration:6.3f} s  level {level}{' OSR' if osr else '    '} {code:6d} B code"
              f" {inlined:6d} B inlined  {method}")

    samples = events(recording, "jdk.ExecutionSample", 256)
    print(f"\nExecution samples: {len(samples)}")
    by_thread = collections.Counter(thread_kind(e["values"]["sampledThread"].get("javaName")) for e in samples)
    print_table("Samples by thread kind", by_thread, len(samples), top)
    self_frames = collections.Counter(f[0] for f in map(frames, samples) if f)
    print_table("Hot methods (top frame)", self_frames, len(samples), top)
    self_library = collections.Counter(library(f[0]) for f in map(frames, samples) if f)
    print_table("Hot libraries (top frame)", self_library, len(samples), top)
    inclusive = collections.Counter()
    for stack in map(frames, samples):
        for frame in set(stack):
            inclusive[frame] += 1
    for frame in [f for f, n in inclusive.items() if is_jdk(f) or n > 0.75 * len(samples)]:
        del inclusive[frame]  # the JDK's and the worker's dispatch, on nearly every stack
    print_table("Methods on the stack (inclusive; outside the JDK, on at most 75% of the samples)", inclusive,
                len(samples), top)

    print_tree(samples, tree_min)

    allocations = events(recording, "jdk.ObjectAllocationSample")
    weight = sum(e["values"]["weight"] for e in allocations)
    sites = collections.Counter()
    for e in allocations:
        stack = frames(e)
        site = next((f for f in stack if not is_jdk(f)), stack[0] if stack else "?")
        sites[site] += e["values"]["weight"]
    print_table(f"Allocation by site (innermost frame outside the JDK; {weight / 1e6:.0f} MB sampled weight)",
                sites, weight, top)


if __name__ == "__main__":
    main()
