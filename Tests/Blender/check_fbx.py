# Run by BlenderTests inside Blender (blender -b --factory-startup --python check_fbx.py -- ARGS): imports a
# MatchScene FBX the way a user does (Examples/blender/import_matchscene.py, which calls Blender's own FBX
# importer) and writes what Blender shows as JSON: the frame range and rate, the takes (one per clip), which
# objects carry keys, and at three frames a right wrist and the ball against tracks.csv (read here on its
# own, csv module) under the GLB's frame mapping (Blender frame k = match frame firstFrame + k).
#   ARGS: example_script scene.fbx tracks.csv out.json
import json
import math
import os
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matchscene_check import example_namespace, read_tracks  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
example, fbx, tracks_csv, out_json = args[:4]

extras = example_namespace(example)["import_matchscene"](fbx)
scene = bpy.context.scene
first = int(extras["firstFrame"])

rows = read_tracks(tracks_csv)

errors = {"wrist": [], "ball": []}
armatures = [o for o in scene.objects if o.type == "ARMATURE"]
ball = scene.objects.get("ball")
for arma in armatures:
    seen = sorted(f for (f, t, j) in rows if t == arma.name and j == "right_wrist")
    bone = arma.pose.bones.get("right_wrist")
    for frame in [seen[0], seen[len(seen) // 2], seen[-1]] if seen and bone else []:
        scene.frame_set(frame - first)
        p = (arma.matrix_world @ bone.matrix).translation
        errors["wrist"].append([arma.name, frame, math.dist(p, rows[(frame, arma.name, "right_wrist")])])
seen = sorted(f for (f, t, j) in rows if j == "ball")
for frame in [seen[0], seen[len(seen) // 2], seen[-1]] if seen and ball else []:
    scene.frame_set(frame - first)
    track = next(t for (f, t, j) in rows if f == frame and j == "ball")
    errors["ball"].append([frame, math.dist(ball.matrix_world.translation, rows[(frame, track, "ball")])])

# Blender's FBX importer names an action "<object>|<take>".
takes = sorted({a.name.split("|", 1)[1] for a in bpy.data.actions if "|" in a.name})
keyed = sorted({a.name.split("|", 1)[0] for a in bpy.data.actions if a.fcurves})
result = {
    "fps": scene.render.fps / scene.render.fps_base,
    "frameStart": scene.frame_start, "frameEnd": scene.frame_end,
    "firstFrame": first, "lastFrame": int(extras["lastFrame"]),
    "armatures": sorted(a.name for a in armatures),
    "boneCounts": {a.name: len(a.data.bones) for a in armatures},
    "takes": takes, "keyedObjects": keyed,
    "staticKeyed": sorted(o.name for o in scene.objects
                          if o.type in {"CAMERA", "LIGHT"} or o.name == "venue"
                          if o.animation_data and o.animation_data.action),
    "wristErrors": errors["wrist"], "ballErrors": errors["ball"],
}
with open(out_json, "w") as f:
    json.dump(result, f, indent=1)
