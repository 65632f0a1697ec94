"""grep against ripgrep over the same files, in alternating runs (issue 19): on a shared machine the
load changes from second to second, so each round runs every command once, one after the other,
and the table gives each command's median and best time over the rounds, its CPU time (user and
system, which the load changes less), and the load average.

Usage: python3 bench/grep-alternate.py DIARY ROUNDS NAME=COMMAND...   (commands run in DIARY with bash)
Example: python3 bench/grep-alternate.py /tmp/d 7 "new=$PWD/.build/release/daybook grep -c nurse" "rg=rg -c nurse entries"
"""
import os, resource, statistics, subprocess, sys, time

diary, rounds, commands = sys.argv[1], int(sys.argv[2]), [a.split("=", 1) for a in sys.argv[3:]]
times = {name: [] for name, _ in commands}
cpu = {name: [] for name, _ in commands}
load = []
for name, command in commands:  # one run each first: the files in the page cache for all
    subprocess.run(["bash", "-c", command], cwd=diary, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(rounds):
    load.append(os.getloadavg()[0])
    for name, command in commands:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(["bash", "-c", command], cwd=diary, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[name].append(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
print(f"load average (1 min) during the rounds: {min(load):.2f}-{max(load):.2f}")
print("| command | median s | best s | CPU s (user+sys, median) | runs |")
print("|---|---|---|---|---|")
for name, command in commands:
    print(f"| {name}: `{command}` | {statistics.median(times[name]):.3f} | {min(times[name]):.3f} | {statistics.median(cpu[name]):.3f} | {rounds} |")
