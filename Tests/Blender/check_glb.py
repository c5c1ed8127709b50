# Run by BlenderTests inside Blender (blender -b --factory-startup --python check_glb.py -- ARGS):
# imports a MatchScene GLB the way a user does (Examples/blender/import_matchscene.py, which calls
# bpy.ops.import_scene.gltf) and writes what Blender shows as JSON, for the test to compare with
# tracks.csv, which this script reads on its own (csv module).
#   ARGS: example_script scene.glb tracks.csv out.json [render.png]
import json
import math
import os
import re
import sys

import bpy

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matchscene_check import example_namespace, read_tracks  # noqa: E402
from mathutils import Vector

args = sys.argv[sys.argv.index("--") + 1:]
example, glb, tracks_csv, out_json = args[:4]
render_png = args[4] if len(args) > 4 else None

extras = example_namespace(example)["import_matchscene"](glb)
scene = bpy.context.scene
first = int(extras["firstFrame"])

rows = read_tracks(tracks_csv)
frames = sorted({k[0] for k in rows})

armatures = [o for o in scene.objects if o.type == "ARMATURE"]
people = sorted({k[1] for k in rows if k[2] != "ball"})
ball_tracks = sorted({k[1] for k in rows if k[2] == "ball"})
names = {}
for collection in ["objects", "meshes", "materials", "armatures", "actions", "cameras", "lights"]:
    names[collection] = [x.name for x in getattr(bpy.data, collection)]
duplicates = [n for ns in names.values() for n in ns if re.search(r"\.\d{3}$", n)]


def visible(matrix):
    return abs(matrix.to_3x3().determinant()) > 1e-12


# Every frame: a joint, limb or ball is drawn exactly where tracks.csv has data.
wrong = []
checked = 0
errors = {"ball": [], "wrist": []}
ball = scene.objects.get("ball")
for frame in frames:
    scene.frame_set(frame - first)
    for arma in armatures:
        track = arma.name
        for bone in arma.pose.bones:
            world = arma.matrix_world @ bone.matrix
            if "/" in bone.name:  # a limb P1/<from>-<to>
                a, b = bone.name.split("/", 1)[1].split("-")
                expected = (frame, track, a) in rows and (frame, track, b) in rows
            else:
                expected = (frame, track, bone.name) in rows
                if expected and bone.name == "right_wrist":
                    p = world.translation
                    q = rows[(frame, track, bone.name)]
                    errors["wrist"].append((frame, track, math.dist(p, q)))
            checked += 1
            if visible(world) != expected:
                wrong.append([frame, track, bone.name, visible(world)])
    if ball is not None:
        expected = (frame, ball_tracks[0], "ball") in rows
        checked += 1
        if visible(ball.matrix_world) != expected:
            wrong.append([frame, ball_tracks[0], "ball", visible(ball.matrix_world)])
        if expected:
            errors["ball"].append((frame, math.dist(ball.matrix_world.translation, rows[(frame, ball_tracks[0], "ball")])))

# The skinned body follows the skeleton: at three frames, the centre of the vertices bound to each
# player's right wrist (its sphere, deformed by Blender's Armature modifier) against tracks.csv.
body_errors = []
depsgraph = bpy.context.evaluated_depsgraph_get()
for arma in armatures:
    body = scene.objects.get(arma.name + "/body")
    group = body.vertex_groups.get("right_wrist") if body else None
    if group is None:
        body_errors.append((arma.name, None))
        continue
    members = [v.index for v in body.data.vertices if any(g.group == group.index and g.weight > 0.5 for g in v.groups)]
    seen = [f for f in frames if (f, arma.name, "right_wrist") in rows]
    for frame in [seen[0], seen[len(seen) // 2], seen[-1]] if seen else []:
        scene.frame_set(frame - first)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        evaluated = body.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        world = evaluated.matrix_world
        points = [world @ mesh.vertices[i].co for i in members]
        centre = sum(points, Vector()) / len(points)
        body_errors.append((arma.name, frame, math.dist(centre, rows[(frame, arma.name, "right_wrist")])))
        evaluated.to_mesh_clear()

result = {
    "fps": scene.render.fps / scene.render.fps_base,
    "frameStart": scene.frame_start,
    "frameEnd": scene.frame_end,
    "armatures": sorted(a.name for a in armatures),
    "people": people,
    "boneCounts": {a.name: len(a.data.bones) for a in armatures},
    "duplicates": duplicates,
    "actions": names["actions"],
    "cameras": sorted(o.name for o in scene.objects if o.type == "CAMERA"),
    "lights": sorted(o.name for o in scene.objects if o.type == "LIGHT"),
    "checked": checked,
    "wrongVisibility": wrong[:20],
    "wrongVisibilityCount": len(wrong),
    "ballErrors": errors["ball"],
    "wristErrors": errors["wrist"],
    "bodyWristErrors": body_errors,
}

if render_png:
    # A small Cycles render through the first camera at a frame with the ball in play.
    scene.render.engine = "CYCLES"
    scene.cycles.samples = 4
    scene.cycles.device = "CPU"
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.render.resolution_x, scene.render.resolution_y, scene.render.resolution_percentage = 96, 54, 100
    scene.frame_set((frames[len(frames) // 2]) - first)
    scene.render.filepath = render_png
    bpy.ops.render.render(write_still=True)
    image = bpy.data.images.load(render_png)
    px = list(image.pixels)
    lum = [0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2] for i in range(0, len(px), 4)]
    result["renderMean"] = sum(lum) / len(lum)
    result["renderLitFraction"] = sum(1 for v in lum if v > 0.02) / len(lum)

with open(out_json, "w") as f:
    json.dump(result, f)
