#!/usr/bin/env python3
"""Accuracy of MatchScene on the harder simulator (`--faults hard`, `--unsync`), with the matchscene binary only.

  sweep: for each noise scale and seed, `simulate --faults hard --noise-scale S`, `reconstruct`,
         `evaluate`; prints players' mean joint error, identity switches, ball p95 and table-bounce
         recall/precision, then the mean over seeds per scale.
  sync:  for each seed, the same match simulated synchronised and with `--unsync N`; prints the
         recovered offsets against truth/camera_sync.json and the error ratio unsync/sync.

Build first: swift build -c release --product matchscene. Standard library only.
  python3 Examples/benchmarks/harder_simulator.py sweep --seeds 1 2 3 4 5 --duration 60
  python3 Examples/benchmarks/harder_simulator.py sync --seeds 1 2 3 --duration 60 --unsync 30
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args[:2])} failed ({out.returncode}):\n{out.stderr}")
    return out


def simulate_and_evaluate(binary, work, name, simulate_args, reconstruct_args=()):
    folder = os.path.join(work, name)
    run(binary, "simulate", "-o", folder, "--force", *simulate_args)
    run(binary, "reconstruct", folder, "-o", os.path.join(folder, "out"), "--force", "--no-scene", *reconstruct_args)
    figures = os.path.join(folder, "evaluation.json")
    run(binary, "evaluate", os.path.join(folder, "out"), "--truth", os.path.join(folder, "truth"), "--json", figures)
    with open(figures) as f:
        d = json.load(f)
    bounce = d["events"]["inPlayTypes"].get("bounce", {"recall": float("nan"), "precision": float("nan")})
    return folder, {
        "players_mean_mm": 1000 * d["tracks"]["players"]["mean"],
        "switches": d["tracks"]["identitySwitches"],
        "ball_median_mm": 1000 * d["tracks"]["ball"]["median"],
        "ball_p95_mm": 1000 * d["tracks"]["ball"]["p95"],
        "ball_mean_mm": 1000 * d["tracks"]["ball"]["mean"],
        "bounce_recall": bounce["recall"],
        "bounce_precision": bounce["precision"],
    }


def row(label, f):
    return (f"{label:<18} players {f['players_mean_mm']:6.2f} mm  switches {f['switches']:3}  "
            f"ball median {f['ball_median_mm']:5.2f} p95 {f['ball_p95_mm']:6.2f} mm  "
            f"bounce recall {f['bounce_recall']:.3f} precision {f['bounce_precision']:.3f}")


def mean(rows):
    return {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}


def sweep(args, work):
    for scale in args.scales:
        rows = []
        for seed in args.seeds:
            _, f = simulate_and_evaluate(
                args.binary, work, f"s{scale}-{seed}",
                ["--seed", str(seed), "--duration", str(args.duration), "--faults", args.faults,
                 "--noise-scale", str(scale)])
            rows.append(f)
            print(row(f"×{scale} seed {seed}", f), flush=True)
        print(row(f"×{scale} mean", mean(rows)), flush=True)


def sync(args, work):
    exact = total = 0
    phase_errors, ratios = [], {"players_mean_mm": [], "ball_mean_mm": [], "ball_p95_mm": []}
    for seed in args.seeds:
        common = ["--seed", str(seed), "--duration", str(args.duration), "--faults", args.faults]
        if args.noise_scale is not None:
            common += ["--noise-scale", str(args.noise_scale)]
        if args.outlier_rate is not None:
            common += ["--outlier-rate", str(args.outlier_rate)]
        if args.swap_rate is not None:
            common += ["--swap-rate", str(args.swap_rate)]
        _, synced = simulate_and_evaluate(args.binary, work, f"sync-{seed}", common)
        folder, unsynced = simulate_and_evaluate(args.binary, work, f"unsync-{seed}", common + ["--unsync", str(args.unsync)])
        with open(os.path.join(folder, "truth", "camera_sync.json")) as f:
            truth = {c["camera"]: c["offset"] for c in json.load(f)}
        with open(os.path.join(folder, "out", "report.json")) as f:
            estimates = json.load(f).get("sync") or []
        for e in estimates:
            est = e["estimate"]
            t = truth[est["camera"]]
            total += 1
            exact += abs(est["frames"] - t) < 0.5 + 1e-9 or round(t) == est["frames"]
            phase_errors.append(abs(est["offset"] - t))
            print(f"seed {seed} {est['camera']}: true {t:+8.3f}  estimated {est['offset']:+8.3f} ± {est['uncertaintyFrames']:.3f}"
                  f"  error {est['offset'] - t:+.3f} frames  applied {e['appliedFrames']}/{e['appliedPhase']}", flush=True)
        print(row(f"seed {seed} sync", synced))
        print(row(f"seed {seed} unsync", unsynced), flush=True)
        for k in ratios:
            ratios[k].append(unsynced[k] / synced[k])
    print(f"whole frames exact: {exact}/{total}; |offset error| max {max(phase_errors):.3f}, "
          f"mean {statistics.fmean(phase_errors):.3f} frames")
    for k, v in ratios.items():
        print(f"unsync/sync {k}: mean {statistics.fmean(v):.3f}, max {max(v):.3f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["sweep", "sync"])
    p.add_argument("--binary", default=".build/release/matchscene")
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--faults", default="hard")
    p.add_argument("--scales", type=float, nargs="+", default=[0.5, 1, 2, 3])
    p.add_argument("--unsync", type=int, default=30)
    p.add_argument("--noise-scale", type=float, help="sync: passed to simulate (e.g. 2 with --outlier-rate 0.03 --swap-rate 0.04).")
    p.add_argument("--outlier-rate", type=float, help="sync: passed to simulate.")
    p.add_argument("--swap-rate", type=float, help="sync: passed to simulate.")
    p.add_argument("--work", help="Keep the folders here (default: a temporary folder).")
    args = p.parse_args()
    if args.work:
        os.makedirs(args.work, exist_ok=True)
        (sweep if args.mode == "sweep" else sync)(args, args.work)
    else:
        with tempfile.TemporaryDirectory() as work:
            (sweep if args.mode == "sweep" else sync)(args, work)


if __name__ == "__main__":
    main()
