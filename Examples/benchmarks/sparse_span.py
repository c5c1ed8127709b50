#!/usr/bin/env python3
"""Spreads a match's detections over a long span: a sparse match for memory benchmarks.

Copies a match folder of OpenPose JSON files, one per frame, the frame number last in the name
(`matchscene simulate`'s pose/<camera>_json/<camera>_<frame>_keypoints.json, Pose2Sim's
pose/cam01_json/cam01.0000.json), with ball/<camera>.csv, calibration/, match.toml or Pose2Sim's
Config.toml (truth/ is left out), and moves chunk k of its frames
(the frames cut into --chunks equal parts) k * shift frames later, shift = (span - frames) / (chunks - 1),
so that the data (unchanged) stretches over --span-hours with empty hours between the chunks.

    matchscene simulate --duration 60 --seed 3 -o /tmp/sim60
    Examples/benchmarks/sparse_span.py /tmp/sim60 /tmp/sim60-3h --span-hours 3 --chunks 3
    /usr/bin/time -v matchscene reconstruct /tmp/sim60-3h -o /tmp/sim60-3h-out
"""
import argparse
import os
import re
import shutil
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("match", help="a folder from `matchscene simulate`")
    parser.add_argument("output", help="the sparse match folder to write (must not exist)")
    parser.add_argument("--span-hours", type=float, default=3.0)
    parser.add_argument("--chunks", type=int, default=2)
    args = parser.parse_args()
    if os.path.exists(args.output):
        sys.exit(f"{args.output} exists; choose a new folder")
    fps = 60.0
    configs = [c for c in ("match.toml", "Config.toml") if os.path.isfile(os.path.join(args.match, c))]
    for config in configs:
        with open(os.path.join(args.match, config)) as f:
            m = re.search(r"^\s*(?:fps|frame_rate)\s*=\s*([0-9.]+)", f.read(), re.M)
            if m:
                fps = float(m.group(1))
                break
    pattern = re.compile(r"^(.*?)(\d+)((?:_keypoints)?\.json)$")
    pose = os.path.join(args.match, "pose")
    frames = set()
    for camera in os.listdir(pose):
        for name in os.listdir(os.path.join(pose, camera)):
            m = pattern.match(name)
            if m:
                frames.add(int(m.group(2)))
    if not frames:
        sys.exit(f"no pose files in {pose}")
    first, last = min(frames), max(frames)
    count = last - first + 1
    chunks = max(1, args.chunks)
    span = int(args.span_hours * 3600 * fps)
    shift = (span - count) // max(1, chunks - 1) if chunks > 1 else 0

    def moved(frame: int) -> int:
        k = min(chunks - 1, (frame - first) * chunks // count)
        return frame + k * shift

    os.makedirs(args.output)
    shutil.copytree(os.path.join(args.match, "calibration"), os.path.join(args.output, "calibration"))
    for config in configs:
        shutil.copy(os.path.join(args.match, config), args.output)
    for camera in os.listdir(pose):
        os.makedirs(os.path.join(args.output, "pose", camera))
        for name in os.listdir(os.path.join(pose, camera)):
            m = pattern.match(name)
            if not m:
                continue
            digits = m.group(2)
            target = f"{m.group(1)}{moved(int(digits)):0{len(digits)}d}{m.group(3)}"
            shutil.copy(os.path.join(pose, camera, name), os.path.join(args.output, "pose", camera, target))
    balls = os.path.join(args.match, "ball")
    if os.path.isdir(balls):
        os.makedirs(os.path.join(args.output, "ball"))
        for name in os.listdir(balls):
            with open(os.path.join(balls, name)) as src, open(os.path.join(args.output, "ball", name), "w") as dst:
                header = src.readline()
                dst.write(header)
                for line in src:
                    cells = line.split(",", 1)
                    if len(cells) == 2 and cells[0].lstrip("-").isdigit():
                        dst.write(f"{moved(int(cells[0]))},{cells[1]}")
    print(f"{count} frames in {chunks} chunk(s) over {span} frames ({args.span_hours} h at {fps} fps), chunks {shift} frames apart")
    return 0


if __name__ == "__main__":
    sys.exit(main())
