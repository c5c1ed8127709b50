# Opens a MatchScene scene (scene.glb) in Blender at the capture rate.
#
#   blender --python Examples/blender/import_matchscene.py -- demo/out/scene.glb [--clear]
#   blender -b --python Examples/blender/import_matchscene.py -- scene.glb --save scene.blend
#   blender -b --python Examples/blender/import_matchscene.py -- scene.glb --fbx scene.fbx
#
# Reads the scene's extras (fps, firstFrame, lastFrame) from the GLB's JSON chunk *before* importing,
# because Blender's glTF importer places keys at time × the scene's frame rate: with the capture rate
# set first, Blender frame k is match frame firstFrame + k. Then it imports the GLB with Blender's own
# operator (one armature per player, the cameras named after the calibration, the `sun` light), sets
# the frame range to the match, gives each camera the aspect ratio of its images and makes the first
# one the scene camera. Blender 3.4 or later. `--fbx` then writes a binary FBX with Blender's own
# exporter (metres, the capture rate, the cameras; see docs/outputs.md, "Opening scenes in Blender, Unity, Godot").
import json
import math
import struct
import sys

import bpy


def glb_json(path):
    """The JSON chunk of a GLB file (glTF 2.0 §4.4: 12-byte header, then chunk length, type, data)."""
    with open(path, "rb") as f:
        magic, version, _ = struct.unpack("<4sII", f.read(12))
        if magic != b"glTF" or version != 2:
            raise SystemExit(f"{path}: not a glTF 2.0 binary file (GLB)")
        length, kind = struct.unpack("<I4s", f.read(8))
        if kind != b"JSON":
            raise SystemExit(f"{path}: first chunk is {kind!r}, expected JSON")
        return json.loads(f.read(length))


def numpy_bool_workaround():
    """Debian 12's Blender 3.4.1 glTF importer calls `numpy.bool`, which NumPy 1.24 (Debian 12's) removed:
    every import with the default shading fails with "module 'numpy' has no attribute 'bool'". Restores
    the alias (`numpy.bool_`, what it meant). Remove once the Blender in use no longer needs it (its
    importer uses `bool` from Blender 3.5 on)."""
    import numpy

    if "bool" not in numpy.__dict__:
        numpy.bool = numpy.bool_


def import_matchscene(path):
    """Imports `path` into the current scene; returns the scene's extras."""
    doc = glb_json(path)
    extras = doc["scenes"][doc.get("scene", 0)].get("extras", {})
    scene = bpy.context.scene
    fps = float(extras.get("fps", 25))
    # Blender keeps the rate as fps / fps_base with an integer fps; the importer times keys by `fps`.
    scene.render.fps = max(1, round(fps))
    scene.render.fps_base = scene.render.fps / fps
    scene.frame_start = 0
    first, last = extras.get("firstFrame"), extras.get("lastFrame")
    numpy_bool_workaround()
    bpy.ops.import_scene.gltf(filepath=path)
    if first is not None and last is not None:
        scene.frame_end = int(last - first)
    # Image aspect ratio of each camera (glTF cameras carry yfov and aspectRatio, §3.10.3).
    cameras = {c.get("name"): c for c in doc.get("cameras", [])}
    first_camera = None
    for obj in scene.objects:
        if obj.type != "CAMERA":
            continue
        glb_camera = cameras.get(obj.data.name) or cameras.get(obj.name)
        if glb_camera and "perspective" in glb_camera:
            p = glb_camera["perspective"]
            aspect = p.get("aspectRatio", 1)
            obj.data.sensor_fit = "VERTICAL"
            obj.data.angle_y = p["yfov"]
            obj.data.clip_start = p["znear"]
            obj.data.clip_end = p.get("zfar", 1000)
            obj["aspectRatio"] = aspect
        if first_camera is None or obj.name < first_camera.name:
            first_camera = obj
    if first_camera is not None:
        scene.camera = first_camera
        aspect = first_camera.get("aspectRatio", 16 / 9)
        scene.render.resolution_y = 720
        scene.render.resolution_x = int(round(720 * aspect))
    scene.frame_set(scene.frame_start)
    return extras


def export_fbx(path):
    """Writes the open scene as binary FBX 7.4 with Blender's exporter: 1 unit = 1 m (unit scale 1,
    `apply_scale_options` FBX_SCALE_UNITS), Y up as Unity and Maya expect, armatures with their
    actions (one take per action), cameras and lights.

    FBX keeps a camera's focal length and film size but not Blender's sensor fit, and Blender reads it
    back with fit AUTO (the wider side): so each camera is first given a horizontal fit with a film of
    its image's aspect ratio and the same horizontal angle, which reads back the same in every tool."""
    for obj in bpy.context.scene.objects:
        if obj.type != "CAMERA":
            continue
        cam = obj.data
        aspect = obj.get("aspectRatio", 16 / 9)
        xfov = cam.angle_x if cam.sensor_fit == "HORIZONTAL" else 2 * math.atan(math.tan(cam.angle_y / 2) * aspect)
        cam.sensor_fit = "HORIZONTAL"
        cam.sensor_width = 36.0
        cam.sensor_height = 36.0 / aspect
        cam.angle_x = xfov
    bpy.ops.export_scene.fbx(
        filepath=path, apply_scale_options="FBX_SCALE_UNITS", axis_forward="-Z", axis_up="Y",
        object_types={"ARMATURE", "CAMERA", "EMPTY", "LIGHT", "MESH"}, add_leaf_bones=False,
        bake_anim=True, bake_anim_use_all_actions=False, bake_anim_use_nla_strips=False,
        bake_anim_simplify_factor=0.0)


def main(argv):
    args = argv[argv.index("--") + 1:] if "--" in argv else []
    if not args:
        raise SystemExit(
            "usage: blender --python import_matchscene.py -- scene.glb [--clear] [--save scene.blend] [--fbx scene.fbx]")
    if "--clear" in args:  # start from an empty scene (no startup cube, camera and lamp)
        bpy.ops.wm.read_factory_settings(use_empty=True)
    extras = import_matchscene(args[0])
    print(f"MatchScene: {args[0]} at {extras.get('fps')} fps, frames 0–{bpy.context.scene.frame_end}")
    if "--save" in args:
        bpy.ops.wm.save_as_mainfile(filepath=args[args.index("--save") + 1])
    if "--fbx" in args:
        export_fbx(args[args.index("--fbx") + 1])


if __name__ == "__main__":
    main(sys.argv)
