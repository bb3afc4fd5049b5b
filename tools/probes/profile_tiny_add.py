"""Where a tiny `a + b` spends its host time, sampled with py-spy (native frames).

    py-spy record --native -r 1500 -f raw -o raw.txt -- python -m tools.probes.profile_tiny_add run 8
    python -m tools.probes.profile_tiny_add aggregate raw.txt

`run` adds two 1-element float32 arrays in rounds of 200 calls and one synchronize for the
given seconds; `aggregate` prints, for the samples inside those rounds, the share of each
frame (inclusive, then self). py-spy is a PyPI wheel (a static binary): carry it to the GPU
machine.
"""
import collections
import sys
import time


def run(seconds):
    import gpuarr as ga
    a = ga.ones(1, dtype="float32")
    b = ga.ones(1, dtype="float32")
    dev = ga.cuda.Device()

    def loop():
        for _ in range(200):
            a + b

    loop()
    dev.synchronize()
    t_end = time.time() + seconds
    while time.time() < t_end:
        loop()
        dev.synchronize()


def aggregate(path, top=45):
    inclusive, self_, total = collections.Counter(), collections.Counter(), 0
    for line in open(path):
        stack, _, n = line.rstrip().rpartition(" ")
        frames = stack.split(";")
        inside = [i for i, f in enumerate(frames) if f.startswith("loop (")]
        if not inside:
            continue
        n = int(n)
        total += n
        names = [f.split(" (")[0][:110] for f in frames[inside[-1] + 1:]]
        for name in set(names):
            inclusive[name] += n
        self_[names[-1] if names else "loop (self)"] += n
    print("samples in loop:", total)
    print("--- inclusive")
    for k, v in inclusive.most_common(top):
        print(f"{100 * v / total:5.1f}% {k}")
    print("--- self")
    for k, v in self_.most_common(30):
        print(f"{100 * v / total:5.1f}% {k}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        run(float(sys.argv[2]))
    elif len(sys.argv) == 3 and sys.argv[1] == "aggregate":
        aggregate(sys.argv[2])
    else:
        sys.exit(__doc__)
