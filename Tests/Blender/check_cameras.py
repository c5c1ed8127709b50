# Run by BlenderTests inside Blender (blender -b --factory-startup --python check_cameras.py -- ARGS):
# imports a scene file with Blender's own importer for its format and writes, per calibrated camera,
# how far Blender's camera is from the calibration: centre distance (m), angle between the viewing
# rotations (degrees) and the vertical and horizontal fields of view (degrees, Blender vs calibration).
#   ARGS: scene.(glb|dae|fbx) calibration.toml out.json [example_script [scene.fbx]]
# With scene.fbx, the GLB is imported with the example script, written as FBX by its `export_fbx`, and
# that FBX imported into an empty Blender and checked (the way Examples/blender offers an FBX).
# The calibration is read here on its own (tomllib): OpenCV convention x_cam = R x_world + t, R from the
# Rodrigues vector `rotation`; Blender cameras look down local −z with +y up, OpenCV's down +z, y down.
import json
import math
import os
import sys
import tomllib

import bpy
from mathutils import Matrix, Vector

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matchscene_check import example_namespace  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
scene_file, calibration, out_json = args[:3]
example = args[3] if len(args) > 3 else None
via_fbx = args[4] if len(args) > 4 else None

bpy.ops.wm.read_factory_settings(use_empty=True)
if scene_file.endswith(".glb"):
    namespace = example_namespace(example)
    # Blender's default startup scene holds a camera named `Camera`, which sorts before `cam_01`: the
    # calibrated cameras must still win the scene camera and the render size.
    bpy.context.scene.collection.objects.link(bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera")))
    namespace["import_matchscene"](scene_file)
    if via_fbx:
        namespace["export_fbx"](via_fbx)
        bpy.ops.wm.read_factory_settings(use_empty=True)
        bpy.ops.import_scene.fbx(filepath=via_fbx)
elif scene_file.endswith(".dae"):
    bpy.ops.wm.collada_import(filepath=scene_file)
elif scene_file.endswith(".fbx"):
    bpy.ops.import_scene.fbx(filepath=scene_file)
scene = bpy.context.scene
scene.frame_set(scene.frame_start)

with open(calibration, "rb") as f:
    cams = tomllib.load(f)
flip = Matrix(((1, 0, 0), (0, -1, 0), (0, 0, -1)))
result = {"unitScale": scene.unit_settings.scale_length, "fps": scene.render.fps / scene.render.fps_base, "cameras": {},
          "resolution": [scene.render.resolution_x, scene.render.resolution_y],
          "sceneCamera": scene.camera.name if scene.camera else None}
objects = {o.name: o for o in scene.objects if o.type == "CAMERA"}
for key, cam in cams.items():
    if "rotation" not in cam:  # [metadata]
        continue
    name = cam.get("name", key)
    r = Vector(cam["rotation"])
    camFromWorld = Matrix.Rotation(r.length, 3, r.normalized()) if r.length > 0 else Matrix.Identity(3)
    t = Vector(cam["translation"])
    center = -(camFromWorld.transposed() @ t)
    worldFromBlenderCam = camFromWorld.transposed() @ flip
    w, h = cam["size"]
    fx, fy = cam["matrix"][0][0], cam["matrix"][1][1]
    obj = objects.get(name) or next((o for n, o in objects.items() if n.startswith(name)), None)
    if obj is None:
        result["cameras"][name] = None
        continue
    m = obj.matrix_world
    rot = m.to_3x3().normalized()
    # The largest angle between corresponding axes (atan2 of |a × b| and a · b: exact for small angles).
    angle = max(
        math.degrees(math.atan2(rot.col[i].cross(worldFromBlenderCam.col[i]).length, rot.col[i].dot(worldFromBlenderCam.col[i])))
        for i in range(3))
    data = obj.data
    # Blender's fields of view for the calibration's image size.
    scene.render.resolution_x, scene.render.resolution_y = int(w), int(h)
    sensor_fit = data.sensor_fit
    if sensor_fit == "AUTO":
        sensor_fit = "HORIZONTAL" if w >= h else "VERTICAL"
    if sensor_fit == "HORIZONTAL":
        xfov = 2 * math.atan(data.sensor_width / (2 * data.lens))
        yfov = 2 * math.atan(math.tan(xfov / 2) * h / w)
    else:
        sensor = data.sensor_height if sensor_fit == "VERTICAL" else data.sensor_width
        yfov = 2 * math.atan(sensor / (2 * data.lens))
        xfov = 2 * math.atan(math.tan(yfov / 2) * w / h)
    result["cameras"][name] = {
        "object": obj.name,
        "centerError": (m.translation - center).length,
        "angleError": angle,
        "yfov": math.degrees(yfov), "yfovTrue": math.degrees(2 * math.atan(h / (2 * fy))),
        "xfov": math.degrees(xfov), "xfovTrue": math.degrees(2 * math.atan(w / (2 * fx))),
        "size": [w, h], "sensorFit": data.sensor_fit,
        # Blender's lens shift (units of the fitted side, y up) against the calibration's principal point
        # (OpenCV: origin at the centre of the top-left pixel, y down); for a horizontal fit.
        "shift": [data.shift_x, data.shift_y],
        "shiftTrue": [(w / 2 - cam["matrix"][0][2] - 0.5) / w, (cam["matrix"][1][2] + 0.5 - h / 2) / w],
    }
with open(out_json, "w") as f:
    json.dump(result, f, indent=1)
