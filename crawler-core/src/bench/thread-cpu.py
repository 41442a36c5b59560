#!/usr/bin/env python3
"""Watches the threads of a crawler process and writes the CPU seconds its JIT compiler threads and its garbage
collector took, read from /proc/PID/task/*/stat by thread name every 0.1 s until the process exits.

    thread-cpu.py PARENT_PID OUT_FILE

PARENT_PID is the process that starts the crawler (GNU time, say): the watcher follows its first child, through the
launcher's exec into java. OUT_FILE gets one line: "jit_seconds gc_seconds". A thread's CPU is its last reading, so
what a thread did in the 0.1 s before it ended is missed; compiler and GC threads live as long as the JVM. With the
serial collector, collections run on the "VM Thread", counted as GC (it also runs the JVM's other safepoint work,
which is little). Not part of the build or CI: used by the benchmark scripts beside it.
"""
import os
import sys
import time

JIT = ("C1 CompilerThre", "C2 CompilerThre", "C1 CompilerThread", "C2 CompilerThread")
GC = ("VM Thread", "GC Thread", "G1 ", "GC ", "ZDriver", "ZWorker", "Shenandoah", "ParGC")


def child_of(parent):
    for _ in range(500):
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as f:
                kids = f.read().split()
            if kids:
                return int(kids[0])
        except OSError:
            return None
        time.sleep(0.01)
    return None


def read_threads(pid, seen):
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        seen[tid] = (name, int(fields[11]) + int(fields[12]))  # utime + stime, in clock ticks
    return True


def main():
    parent, out = int(sys.argv[1]), sys.argv[2]
    pid = child_of(parent)
    seen = {}
    while pid is not None and read_threads(pid, seen):
        time.sleep(0.1)
    hz = os.sysconf("SC_CLK_TCK")
    jit = sum(t for name, t in seen.values() if name.startswith(JIT)) / hz
    gc = sum(t for name, t in seen.values() if name.startswith(GC)) / hz
    with open(out, "w") as f:
        f.write(f"{jit:.2f} {gc:.2f}\n")


if __name__ == "__main__":
    main()
