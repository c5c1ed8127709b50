"""MatchScene's OpenSim step: per person, a model sized to the person's markers, then inverse kinematics.

Run by `matchscene opensim` with the Python of a virtual environment holding the `opensim` package (PyPI):

    python opensim_ik.py JOB.json

JOB.json: {"players": [{"id": "P1", "trc": ".../P1.trc", "dir": ".../P1"}, ...], "keypoints": [...]}.
For each player it writes, in "dir":
  <id>.osim                 the model sized to the player (the "scaled" model),
  <id>.mot                  the inverse kinematics result (OpenSim motion, degrees),
  <id>_marker_errors.sto    OpenSim's per-frame marker errors (total squared, RMS, max; metres),
  <id>_result.json          marker RMS (all frames), per-marker RMS, the segment lengths used.
and prints one JSON line per player on standard output.

The model (built here, not read from a file): a joint-centre model matching the keypoints' own geometry,
as the markers are joint centres and not skin markers (Pose2Sim's models, e.g. Model_Pose2Sim_simple.osim,
place COCO markers on a full musculoskeletal model; here the segments are the keypoints' segments).
Frames: OpenSim's (X forward, Y up, Z right); the TRC is written facing +X.
- pelvis: free in the ground by pelvis_tx/ty/tz, pelvis_rotation (about Y) and pelvis_list (about X).
  No tilt: two hip points do not show it; hip and trunk flexion are measured from a level pelvis.
- torso: lumbar_extension (Z), lumbar_bending (X), lumbar_rotation (Y) at the mid-hip point; shoulders on it.
- head: neck_extension/bending/rotation at the ears' midpoint; nose, eyes, ears, head top on it.
- humerus_r/l: arm_flex (Z), arm_add (X), arm_rot (Y) at the shoulder; ulna_r/l: elbow_flex (Z, 0 = straight,
  flexion positive).
- femur_r/l: hip_flexion (Z), hip_adduction (X), hip_rotation (Y) at the hip; tibia_r/l: knee_angle (about
  -Z: 0 = straight, flexion positive).
- foot_r/l (when the skeleton has heel or toes): ankle_angle (Z), subtalar_angle (X), ankle_rotation (Y).
Segment lengths: medians over the frames of the marker distances (thigh = hip-knee, ...); a length whose two
markers are never seen together is taken from the others through Winter's proportions of standing height
(Drillis & Contini 1966, in Winter, Biomechanics and Motor Control of Human Movement, 2009, Fig. 4.1) and
listed in the result's "estimatedLengths". Marker offsets of the head and feet: medians in frames built from
those markers (origin, forward, right).
"""
import json
import math
import os
import sys

import numpy as np

try:
    import opensim as osim
except ImportError as error:  # the caller checks first; this is for running the script by hand
    sys.exit(f"the Python package `opensim` is missing ({error}); ./quickstart.sh opensim installs it")


def read_trc(path):
    """Marker name -> (frames x 3) array (NaN where missing), and the times."""
    with open(path) as f:
        lines = f.read().split("\n")
    names = [c for c in lines[3].split("\t")[2:] if c]
    times, rows = [], []
    for line in lines[6:]:
        if not line.strip():
            continue
        cells = line.split("\t")
        times.append(float(cells[1]))
        values = []
        for k in range(3 * len(names)):
            c = cells[2 + k] if 2 + k < len(cells) else ""
            values.append(float(c) if c.strip() else math.nan)
        rows.append(values)
    data = np.array(rows, dtype=float).reshape(len(rows), len(names), 3)
    return {n: data[:, i, :] for i, n in enumerate(names)}, np.array(times)


def unit(v):
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return v / n


def median_distance(m, a, b):
    if a not in m or b not in m:
        return math.nan
    return float(np.nanmedian(np.linalg.norm(m[a] - m[b], axis=1)))


def side_mean(m, pairs):
    values = [median_distance(m, a, b) for a, b in pairs]
    values = [v for v in values if math.isfinite(v)]
    return float(np.mean(values)) if values else math.nan


def frame_offsets(origin, forward_point, right_vector, points):
    """Median of `points` in frames (origin, X toward forward_point orthogonal to Z, Z along right_vector)."""
    z = unit(right_vector)
    f = forward_point - origin
    x = unit(f - np.sum(f * z, axis=1, keepdims=True) * z)
    y = np.cross(z, x)
    out = {}
    for name, p in points.items():
        d = p - origin
        local = np.stack([np.sum(d * x, axis=1), np.sum(d * y, axis=1), np.sum(d * z, axis=1)], axis=1)
        if np.all(np.isnan(local)):
            continue
        out[name] = np.nanmedian(local, axis=0)
    return out


class Builder:
    """The model's bodies, joints and markers."""

    def __init__(self, name):
        self.model = osim.Model()
        self.model.setName(name)
        self.model.set_length_units("meters")
        self.model.setGravity(osim.Vec3(0, -9.80665, 0))

    def body(self, name, mass, length):
        i = mass * length * length / 12 + 1e-4
        b = osim.Body(name, mass, osim.Vec3(0, -length / 2, 0), osim.Inertia(i, 1e-4 + mass * 0.002, i))
        self.model.addBody(b)
        return b

    def joint(self, name, parent, location, child, rotations, translations=()):
        """CustomJoint with up to three rotations [(coordinate, axis)] (the rest held at 0) then translations."""
        st = osim.SpatialTransform()
        axes = [a for _, a in rotations]
        for candidate in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
            if len(axes) == 3:
                break
            if all(abs(np.dot(np.abs(candidate), np.abs(a))) < 0.5 for a in axes):
                axes.append(candidate)
        for k in range(3):
            ta = st.updTransformAxis(k)
            ta.setAxis(osim.Vec3(*axes[k]))
            if k < len(rotations):
                names = osim.ArrayStr()
                names.append(rotations[k][0])
                ta.setCoordinateNames(names)
                ta.set_function(osim.LinearFunction(1, 0))
            else:
                ta.set_function(osim.Constant(0))
        for k, axis in enumerate(((1, 0, 0), (0, 1, 0), (0, 0, 1))):
            ta = st.updTransformAxis(3 + k)
            ta.setAxis(osim.Vec3(*axis))
            if k < len(translations):
                names = osim.ArrayStr()
                names.append(translations[k])
                ta.setCoordinateNames(names)
                ta.set_function(osim.LinearFunction(1, 0))
            else:
                ta.set_function(osim.Constant(0))
        j = osim.CustomJoint(name, parent, osim.Vec3(*location), osim.Vec3(0, 0, 0), child, osim.Vec3(0, 0, 0),
                             osim.Vec3(0, 0, 0), st)
        self.model.addJoint(j)
        for k in range(j.numCoordinates()):
            c = j.upd_coordinates(k)
            if c.getMotionType() == 1:  # rotational
                c.setRangeMin(-math.pi)
                c.setRangeMax(math.pi)
            else:
                c.setRangeMin(-100)
                c.setRangeMax(100)
        return j

    def marker(self, name, body, location):
        self.model.addMarker(osim.Marker(name, body, osim.Vec3(*[float(v) for v in location])))


# Segment lengths as fractions of standing height (Winter 2009, Fig. 4.1; joint centres as COCO marks them).
PROPORTIONS = {"hip_half_width": 0.065, "shoulder_half_width": 0.105, "spine": 0.288, "thigh": 0.245,
               "shank": 0.246, "upper_arm": 0.186, "forearm": 0.146}


def build_model(name, m):
    """The joint-centre model sized to markers `m` (OpenSim frame); returns (model, lengths, markers used)."""
    has = lambda *names: all(n in m for n in names)
    required = ["left_hip", "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle", "left_shoulder",
                "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist"]
    missing = [n for n in required if n not in m]
    if missing:
        raise ValueError(f"the skeleton lacks {', '.join(missing)}: the model needs hips, knees, ankles, "
                         "shoulders, elbows and wrists")
    mid_hip = (m["left_hip"] + m["right_hip"]) / 2
    mid_shoulder = (m["left_shoulder"] + m["right_shoulder"]) / 2
    L = {
        "hip_half_width": median_distance(m, "left_hip", "right_hip") / 2,
        "shoulder_half_width": median_distance(m, "left_shoulder", "right_shoulder") / 2,
        "spine": float(np.nanmedian(np.linalg.norm(mid_shoulder - mid_hip, axis=1))),
        "thigh": side_mean(m, [("left_hip", "left_knee"), ("right_hip", "right_knee")]),
        "shank": side_mean(m, [("left_knee", "left_ankle"), ("right_knee", "right_ankle")]),
        "upper_arm": side_mean(m, [("left_shoulder", "left_elbow"), ("right_shoulder", "right_elbow")]),
        "forearm": side_mean(m, [("left_elbow", "left_wrist"), ("right_elbow", "right_wrist")]),
    }
    bad = [k for k, v in L.items() if not (math.isfinite(v) and v > 0.01)]
    heights = [L[k] / PROPORTIONS[k] for k in L if k not in bad]
    if len(heights) < 2:
        raise ValueError(f"too few markers to size the model ({', '.join(bad)} not measured)")
    height = float(np.median(heights))
    for k in bad:
        L[k] = PROPORTIONS[k] * height

    b = Builder(name)
    ground = b.model.getGround()
    used = []

    def mark(n, body, loc):
        if n in m:
            b.marker(n, body, loc)
            used.append(n)

    pelvis = b.body("pelvis", 11.0, 0.2)
    b.joint("ground_pelvis", ground, (0, 0, 0), pelvis,
            [("pelvis_rotation", (0, 1, 0)), ("pelvis_list", (1, 0, 0))], ["pelvis_tx", "pelvis_ty", "pelvis_tz"])
    w = L["hip_half_width"]
    mark("left_hip", pelvis, (0, 0, -w))
    mark("right_hip", pelvis, (0, 0, w))
    for n in ("hip", "mid_hip"):
        mark(n, pelvis, (0, 0, 0))

    torso = b.body("torso", 27.0, L["spine"])
    b.joint("lumbar", pelvis, (0, 0, 0), torso,
            [("lumbar_extension", (0, 0, 1)), ("lumbar_bending", (1, 0, 0)), ("lumbar_rotation", (0, 1, 0))])
    s, ws = L["spine"], L["shoulder_half_width"]
    mark("left_shoulder", torso, (0, s, -ws))
    mark("right_shoulder", torso, (0, s, ws))

    # Torso frames from the markers: origin mid-hip, Y to mid-shoulders, Z along the shoulder line.
    ty = unit(mid_shoulder - mid_hip)
    sr = m["right_shoulder"] - m["left_shoulder"]
    tz = unit(sr - np.sum(sr * ty, axis=1, keepdims=True) * ty)
    tx = np.cross(ty, tz)

    def in_torso(p):
        d = p - mid_hip
        with np.errstate(invalid="ignore"):
            local = np.stack([np.sum(d * tx, 1), np.sum(d * ty, 1), np.sum(d * tz, 1)], 1)
        if np.all(np.isnan(local[:, 0])):
            return None
        return np.nanmedian(local, axis=0)

    for n in ("neck", "upper_neck"):
        if n in m and not has("left_ear", "right_ear", "nose") and in_torso(m[n]) is not None:
            mark(n, torso, in_torso(m[n]))
    if has("left_ear", "right_ear", "nose"):
        ears = (m["left_ear"] + m["right_ear"]) / 2
        head = b.body("head", 5.0, 0.2)
        neck = in_torso(ears)
        if neck is None:  # never seen with both shoulders: the simulator's and Winter's neck (0.012, 0.102) H
            neck = np.array([0.012 * s / PROPORTIONS["spine"], s * (1 + 0.102 / PROPORTIONS["spine"]), 0.0])
        b.joint("neck", torso, tuple(float(v) for v in neck), head,
                [("neck_extension", (0, 0, 1)), ("neck_bending", (1, 0, 0)), ("neck_rotation", (0, 1, 0))])
        names = [n for n in ("nose", "left_eye", "right_eye", "left_ear", "right_ear", "head_top", "head",
                             "upper_neck") if n in m]
        for n, loc in frame_offsets(ears, m["nose"], m["right_ear"] - m["left_ear"], {n: m[n] for n in names}).items():
            mark(n, head, loc)
    elif "nose" in m and in_torso(m["nose"]) is not None:
        mark("nose", torso, in_torso(m["nose"]))

    for side, sign in (("right", 1.0), ("left", -1.0)):
        r = side[0]
        humerus = b.body(f"humerus_{r}", 2.0, L["upper_arm"])
        b.joint(f"shoulder_{r}", torso, (0, s, sign * ws), humerus,
                [(f"arm_flex_{r}", (0, 0, 1)), (f"arm_add_{r}", (sign, 0, 0)), (f"arm_rot_{r}", (0, sign, 0))])
        mark(f"{side}_elbow", humerus, (0, -L["upper_arm"], 0))
        ulna = b.body(f"ulna_{r}", 1.5, L["forearm"])
        b.joint(f"elbow_{r}", humerus, (0, -L["upper_arm"], 0), ulna, [(f"elbow_flex_{r}", (0, 0, 1))])
        mark(f"{side}_wrist", ulna, (0, -L["forearm"], 0))

        femur = b.body(f"femur_{r}", 9.0, L["thigh"])
        b.joint(f"hip_{r}", pelvis, (0, 0, sign * w), femur,
                [(f"hip_flexion_{r}", (0, 0, 1)), (f"hip_adduction_{r}", (sign, 0, 0)),
                 (f"hip_rotation_{r}", (0, sign, 0))])
        mark(f"{side}_knee", femur, (0, -L["thigh"], 0))
        tibia = b.body(f"tibia_{r}", 3.5, L["shank"])
        b.joint(f"knee_{r}", femur, (0, -L["thigh"], 0), tibia, [(f"knee_angle_{r}", (0, 0, -1))])
        mark(f"{side}_ankle", tibia, (0, -L["shank"], 0))

        foot_names = [n for n in (f"{side}_heel", f"{side}_big_toe", f"{side}_small_toe", f"{side}_foot_index")
                      if n in m]
        toes = [m[n] for n in (f"{side}_big_toe", f"{side}_small_toe", f"{side}_foot_index") if n in m]
        if foot_names and toes and f"{side}_heel" in m:
            foot = b.body(f"foot_{r}", 1.0, 0.2)
            b.joint(f"ankle_{r}", tibia, (0, -L["shank"], 0), foot,
                    [(f"ankle_angle_{r}", (0, 0, 1)), (f"subtalar_angle_{r}", (sign, 0, 0)),
                     (f"ankle_rotation_{r}", (0, sign, 0))])
            toe = np.nanmean(np.stack(toes), axis=0)
            ankle = m[f"{side}_ankle"]
            heel = m[f"{side}_heel"]
            right = np.cross(toe - heel, m[f"{side}_knee"] - ankle)
            offsets = frame_offsets(ankle, ankle + (toe - heel), right, {n: m[n] for n in foot_names})
            for n, loc in offsets.items():
                mark(n, foot, loc)
    b.model.finalizeConnections()
    b.model.initSystem()
    L["estimated"] = bad
    return b.model, L, used


def run_ik(model, trc, times, out_dir, name, used):
    ik = osim.InverseKinematicsTool()
    ik.setName(name)
    ik.setModel(model)
    ik.setMarkerDataFileName(trc)
    ik.setStartTime(float(times[0]))
    ik.setEndTime(float(times[-1]))
    ik.set_accuracy(1e-6)
    ik.set_report_errors(True)
    ik.setResultsDir(out_dir)
    ik.setOutputMotionFileName(os.path.join(out_dir, name + ".mot"))
    tasks = ik.getIKTaskSet()
    for n in used:
        t = osim.IKMarkerTask()
        t.setName(n)
        t.setApply(True)
        t.setWeight(1.0)
        tasks.cloneAndAppend(t)
    ik.run()
    produced = os.path.join(out_dir, name + "_ik_marker_errors.sto")
    errors = os.path.join(out_dir, name + "_marker_errors.sto")
    if os.path.exists(produced):
        os.replace(produced, errors)
    return errors


def read_sto(path):
    with open(path) as f:
        lines = f.read().split("\n")
    end = next(i for i, l in enumerate(lines) if l.strip() == "endheader")
    header = lines[end + 1].split("\t")
    rows = [[float(c) for c in l.split("\t")] for l in lines[end + 2:] if l.strip()]
    return header, np.array(rows)


def per_marker_rms(model, mot, markers):
    """RMS distance (m) per marker between the model's markers posed by `mot` and the data, over the frames."""
    header, data = read_sto(mot)
    state = model.initSystem()
    coords = model.getCoordinateSet()
    columns = [(coords.get(h), k) for k, h in enumerate(header) if k > 0 and coords.contains(h)]
    ms = model.getMarkerSet()
    names = [n for n in markers if ms.contains(n)]
    sq = {n: [] for n in names}
    for i, row in enumerate(data):
        for c, k in columns:
            v = row[k]
            c.setValue(state, math.radians(v) if c.getMotionType() == 1 else v, False)
        model.assemble(state) if False else model.realizePosition(state)
        for n in names:
            p = markers[n][i]
            if np.any(np.isnan(p)):
                continue
            q = ms.get(n).getLocationInGround(state)
            sq[n].append((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 + (q[2] - p[2]) ** 2)
    return {n: math.sqrt(float(np.mean(v))) for n, v in sq.items() if v}, sum(len(v) for v in sq.values()), \
        sum(sum(v) for v in sq.values())


def main():
    job = json.load(open(sys.argv[1]))
    osim.Logger.setLevelString("warn")
    osim.Logger.removeFileSink()  # no opensim.log in the working folder
    for player in job["players"]:
        pid, trc, out_dir = player["id"], player["trc"], player["dir"]
        os.makedirs(out_dir, exist_ok=True)
        result = {"id": pid}
        try:
            markers, times = read_trc(trc)
            if len(times) < 2:
                raise ValueError("fewer than two frames")
            model, lengths, used = build_model(pid, markers)
            estimated = lengths.pop("estimated")
            model.printToXML(os.path.join(out_dir, pid + ".osim"))
            errors = run_ik(model, trc, times, out_dir, pid, used)
            mot = os.path.join(out_dir, pid + ".mot")
            per_marker, count, total = per_marker_rms(model, mot, {n: markers[n] for n in used})
            result.update({
                "markerRMS_m": math.sqrt(total / count) if count else None,
                "markerRMSByMarker_m": per_marker,
                "segmentLengths_m": lengths,
                "estimatedLengths": estimated,
                "markers": used,
                "frames": int(len(times)),
                "model": pid + ".osim", "motion": pid + ".mot", "markerErrors": os.path.basename(errors),
            })
        except Exception as error:  # one player's failure is reported, the others still run
            result["error"] = str(error)
        with open(os.path.join(out_dir, pid + "_result.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        print(json.dumps(result, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
