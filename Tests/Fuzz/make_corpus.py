#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpus (Tests/Fuzz/corpus/<harness>/) from a match simulated by
`matchscene simulate -o MATCH --duration 2 --seed 5` and small samples of the other formats (those of the
project's tests). Run once, by hand; the corpus is checked in:

    .build/debug/matchscene simulate -o /tmp/seed-match --duration 2 --seed 5
    python3 Tests/Fuzz/make_corpus.py /tmp/seed-match Tests/Fuzz/corpus
"""
import json
import math
import os
import re
import sys

match, out = sys.argv[1], sys.argv[2]


def write(harness, name, text):
    folder = os.path.join(out, harness)
    os.makedirs(folder, exist_ok=True)
    data = text if isinstance(text, bytes) else text.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(match, path)) as f:
        return f.read()


# match.toml: the simulator's, one with every table, and two of the hostile ones.
write("match-toml", "simulated.toml", read("match.toml"))
write("match-toml", "tables.toml", """sport = "tennis"
fps = 120
up = "y"
skeleton = "mine"
[skeleton]
name = "mine"
keypoints = ["a", "b", "c"]
bones = [["a", "b"], ["b", "c"]]
mirror = [["a", "c"]]
[frame_offsets]
cam1 = -3
[players]
P1 = "Ana"
[venue]
origin = [0.1, 0.2, 0.0]
x_axis = [1, 0, 0]
up = [0, 0, 1]
[score]
policy = "override"
claim_hold = 1.5
""")
write("match-toml", "hostile.toml", "[[[\nfps = 1e300\n[frame_offsets]\ncam1 = 9223372036854775807\n")

# Calibration TOML: the simulator's, one camera fisheye.
calibration = read("calibration/calibration.toml")
write("calibration-toml", "simulated.toml", calibration)
first = calibration.split("\n\n")[0]
write("calibration-toml", "fisheye.toml", first.replace("fisheye = false", "fisheye = true") + "\n[metadata]\nadjusted = false\n")


# The same cameras as an EasyMocap pair (intri.yml NUL extri.yml), as EasyMocapCalibration.render writes.
def matrix(key, rows, cols, values):
    return f"{key}: !!opencv-matrix\n  rows: {rows}\n  cols: {cols}\n  dt: d\n  data: [{', '.join(repr(float(v)) for v in values)}]\n"


def rodrigues_to_matrix(r):
    theta = math.sqrt(sum(v * v for v in r))
    if theta < 1e-12:
        return [1, 0, 0, 0, 1, 0, 0, 0, 1]
    k = [v / theta for v in r]
    c, s, v = math.cos(theta), math.sin(theta), 1 - math.cos(theta)
    x, y, z = k
    return [c + x * x * v, x * y * v - z * s, x * z * v + y * s,
            y * x * v + z * s, c + y * y * v, y * z * v - x * s,
            z * x * v - y * s, z * y * v + x * s, c + z * z * v]


cams = []
for block in re.split(r"\n(?=\[)", calibration):
    name = re.search(r'name = "([^"]+)"', block)
    if not name:
        continue
    nums = lambda key: [float(v) for v in re.findall(r"-?[\d.]+(?:e-?\d+)?", re.search(key + r" = (.*)", block).group(1))]
    cams.append((name.group(1), nums("size"), nums("matrix"), nums("distortions"), nums("rotation"), nums("translation")))
intri = "%YAML:1.0\n---\nnames:\n" + "".join(f'  - "{c[0]}"\n' for c in cams)
extri = intri
for name, size, k, dist, rvec, t in cams[:2]:
    intri += matrix(f"K_{name}", 3, 3, k) + matrix(f"dist_{name}", 1, 5, dist) + f"H_{name}: {int(size[1])}\nW_{name}: {int(size[0])}\n"
    extri += matrix(f"R_{name}", 3, 1, rvec) + matrix(f"Rot_{name}", 3, 3, rodrigues_to_matrix(rvec)) + matrix(f"T_{name}", 3, 1, t)
intri = intri.replace("".join(f'  - "{c[0]}"\n' for c in cams[2:]), "")
extri = extri.replace("".join(f'  - "{c[0]}"\n' for c in cams[2:]), "")
write("calibration-yaml", "pair.yml", intri + "\0" + extri)
write("calibration-yaml", "flow.yml", '%YAML:1.0\n---\nnames: ["a", "b"]\nK_a: !!opencv-matrix {rows: 3, cols: 3, dt: d, data: [1, 0, 0, 0, 1, 0, 0, 0, 1]}\n# comment\n')

# OpenPose JSON: a frame with people and one with nobody.
pose = os.path.join(match, "pose", "cam1_json")
files = sorted(os.listdir(pose))
with_people = [f for f in files if json.load(open(os.path.join(pose, f)))["people"]]
write("openpose", "people.json", open(os.path.join(pose, with_people[0])).read())
write("openpose", "empty.json", '{"version": 1.3, "people": []}')
people = json.load(open(os.path.join(pose, with_people[0])))["people"]

# COCO keypoint results, MediaPipe landmarks and DeepLabCut CSV of those people.
coco = [{"image_id": i, "category_id": 1, "keypoints": p["pose_keypoints_2d"], "score": 0.9} for i, p in enumerate(people)]
write("coco", "results.json", json.dumps(coco))
write("coco", "wrapped.json", json.dumps({"annotations": coco[:1]}))
landmarks = [[{"x": 0.1 + 0.01 * j, "y": 0.5, "z": -0.1, "visibility": 0.9} for j in range(33)]]
write("mediapipe", "landmarks.json", json.dumps([{"frame": 7, "pose_landmarks": landmarks}, {"frame": 8, "pose_landmarks": []}]))
world = [[{"x": 0.01 * j, "y": -0.5, "z": 0.02, "visibility": 0.99} for j in range(33)]]
write("mediapipe-world", "world.json", json.dumps([{"frame": 0, "pose_world_landmarks": world}, {"frame": 1, "time": 0.0167, "pose_world_landmarks": []}]))
coco17 = ["nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder", "left_elbow",
          "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip", "left_knee", "right_knee", "left_ankle",
          "right_ankle"]
rows = ["scorer", "individuals", "bodyparts", "coords"]
for i in range(len(people)):
    for name in coco17:
        for coord in ["x", "y", "likelihood"]:
            rows[0] += ",DLC_test"
            rows[1] += f",p{i + 1}"
            rows[2] += f",{name}"
            rows[3] += f",{coord}"
for frame in range(3):
    rows.append(str(frame) + "".join("," + ",".join(str(v) for v in p["pose_keypoints_2d"]) for p in people))
write("deeplabcut", "multi.csv", "\n".join(rows) + "\n")
width = 1 + 3 * len(coco17)  # the first person's columns only, without the individuals row
single = [",".join(r.split(",")[:width]) for r in rows if not r.startswith("individuals")]
write("deeplabcut", "single.csv", "\n".join(single) + "\n")

# TrackNet CSV: the rows around the first visible ball.
ball = read("ball/cam1.csv").splitlines()
visible = next(i for i, line in enumerate(ball[1:], 1) if line.split(",")[1] == "1")
write("tracknet", "ball.csv", "\n".join([ball[0]] + ball[max(1, visible - 3):visible + 12]) + "\n")
write("tracknet", "plain.csv", "Frame,Visibility,X,Y\n0,1,5,5\n1,0,0,0\n")

# Qualisys: the tests' hand-made file (`handQCA` of QualisysCalibrationTests.swift), taken from there.
tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
with open(os.path.join(tests, "MatchSceneIOTests", "QualisysCalibrationTests.swift")) as f:
    literal = re.search(r'let handQCA = """\n(.*?)\n\s*"""', f.read(), re.S).group(1)
write("qualisys", "calib.qca.txt", "\n".join(line[2:] for line in literal.split("\n")) + "\n")

# ARKit body anchors.
joint = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.1, 0.9, -2.0, 1]
write("arkit", "body.json", json.dumps({"frames": [
    {"time": 1520.533, "joints": {"hips_joint": joint, "head_joint": joint, "left_hand_joint": joint}},
    {"time": 1520.550, "joints": {"hips_joint": joint}}, {"frame": 3, "joints": {}}]}))

# Drill and zones.
write("drill-toml", "drill.toml", 'name = "serve"\norder = "sequence"\nscoring = "targets"\ntime_limit = 30\ntouch = ["ball", "left_wrist"]\n'
      '[[target]]\nname = "a"\nshape = "sphere"\nradius = 0.1\ncenter = [1.1, 0.38, 0.81]\npoints = 3\n'
      '[[target]]\nname = "b"\nsize = [0.5, 0.76, 0.1]\ncenter = [1.1, -0.38, 0.81]\n')
write("zones-toml", "zones.toml", 'min_dwell = 0.05\n[[zone]]\nname = "net"\nshape = "cylinder"\nradius = 0.1\nheight = 0.2\n'
      'center = [0, 0, 0.8]\ntriggers = "ball"\nexit_margin = 0.02\n[[zone]]\nname = "hand"\nshape = "sphere"\nradius = 0.2\n'
      'center = [0, 0.3, 0]\nframe = "body"\norigin = "chest"\ntriggers = ["right_wrist", "LWrist"]\n'
      '[[zone]]\nname = "box"\nsize = [0.4, 0.4, 0.2]\ncenter = [1, 0, 0.76]\ntriggers = ["ball"]\n')

# Outputs read back by evaluate and sessions: events.json and tracks.csv (the truth's, shortened).
events = json.loads(read("truth/events.json"))
events["events"] = events["events"][:6]
write("events-json", "events.json", json.dumps(events, indent=1))
write("tracks-csv", "tracks.csv", "\n".join(read("truth/tracks.csv").splitlines()[:40]) + "\n")
