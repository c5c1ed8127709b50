# Opens a MatchScene scene (scene.glb) in Blender at the capture rate.
#
#   blender --python Examples/blender/import_matchscene.py -- demo/out/scene.glb [--clear]
#   blender -b --python Examples/blender/import_matchscene.py -- scene.glb --save scene.blend
#   blender -b --python Examples/blender/import_matchscene.py -- scene.glb --fbx scene.fbx
#   blender --python Examples/blender/import_matchscene.py -- demo/out/scene.fbx
#
# Reads the scene's extras (fps, firstFrame, lastFrame) from the GLB's JSON chunk *before* importing,
# because Blender's glTF importer places keys at time × the scene's frame rate: with the capture rate
# set first, Blender frame k is match frame firstFrame + k. Then it imports the GLB with Blender's own
# operator (one armature per player, the cameras named after the calibration, the `sun` light), sets
# the frame range to the match, gives each camera the calibration's image size, focal length and principal
# point (the camera nodes' extras) and makes the first one the scene camera. Blender 3.4 or later. `--fbx`
# then writes a binary FBX with Blender's own exporter (metres, the capture rate, the cameras, one take per
# clip; see docs/outputs.md, "Opening scenes in Blender, Unity, Godot"). Given a scene.fbx this script wrote,
# it imports it with the same frame mapping as the GLB (Blender frame k = match frame firstFrame + k).
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


# The root node of every MatchScene scene; the FBX keeps the scene's frame mapping in its custom properties.
ROOT = "matchscene"
TIMING = ("fps", "firstFrame", "lastFrame")


def set_frame_rate(scene, fps):
    """Blender keeps the rate as fps / fps_base with an integer fps; importers time keys by `fps`."""
    scene.render.fps = max(1, round(fps))
    scene.render.fps_base = scene.render.fps / fps


def set_camera(obj, calibration):
    """Gives Blender camera `obj` the calibration in `calibration` (the camera node's extras: imageWidth,
    imageHeight, fx, fy, cx, cy): a horizontal sensor fit, the focal length fx over the image width, and
    the lens shift of the principal point. Blender's shift is in units of the fitted side (the width) with
    y up; OpenCV's principal point has its origin at the centre of the top-left pixel with y down, so the
    image spans −(cx + ½)…w − ½ − cx pixels across the optical axis. Pixels are taken square (fx = fy)."""
    cam = obj.data
    w, h = float(calibration["imageWidth"]), float(calibration["imageHeight"])
    cam.sensor_fit = "HORIZONTAL"
    cam.sensor_width = 36.0
    cam.sensor_height = 36.0 * h / w
    cam.lens = float(calibration["fx"]) * 36.0 / w
    cam.shift_x = (w / 2 - float(calibration["cx"]) - 0.5) / w
    cam.shift_y = (float(calibration["cy"]) + 0.5 - h / 2) / w
    for key in ("imageWidth", "imageHeight", "fx", "fy", "cx", "cy"):
        obj[key] = float(calibration[key])
    obj["aspectRatio"] = w / h


def finish_cameras(scene):
    """Makes the first calibrated camera (by name) the scene camera and renders at its image size; a camera
    already in the scene (Blender's default `Camera`) comes after the scene's own."""
    cameras = sorted((o for o in scene.objects if o.type == "CAMERA"),
                     key=lambda o: ("imageWidth" not in o and "aspectRatio" not in o, o.name))
    if not cameras:
        return
    scene.camera = cameras[0]
    if "imageWidth" in cameras[0]:
        scene.render.resolution_x = int(cameras[0]["imageWidth"])
        scene.render.resolution_y = int(cameras[0]["imageHeight"])
    else:
        aspect = cameras[0].get("aspectRatio", 16 / 9)
        scene.render.resolution_y = 720
        scene.render.resolution_x = int(round(720 * aspect))
    scene.render.resolution_percentage = 100


def import_matchscene(path):
    """Imports `path` (scene.glb, or a scene.fbx written by `export_fbx`) into the current scene; returns
    the scene's extras."""
    if path.lower().endswith(".fbx"):
        return import_matchscene_fbx(path)
    doc = glb_json(path)
    extras = doc["scenes"][doc.get("scene", 0)].get("extras", {})
    scene = bpy.context.scene
    set_frame_rate(scene, float(extras.get("fps", 25)))
    scene.frame_start = 0
    first, last = extras.get("firstFrame"), extras.get("lastFrame")
    numpy_bool_workaround()
    bpy.ops.import_scene.gltf(filepath=path)
    if first is not None and last is not None:
        scene.frame_end = int(last - first)
    # The clips (rally-01, …) with their match frames, for `export_fbx`'s takes.
    clips = [[a["name"], a["extras"]["firstFrame"], a["extras"]["lastFrame"]] for a in doc.get("animations", [])
             if a.get("name") != "match" and "firstFrame" in a.get("extras", {})]
    scene["matchsceneClips"] = json.dumps(clips)
    root = bpy.data.objects.get(ROOT)
    if root is not None:
        for key in TIMING:
            if key in extras:
                root[key] = extras[key]
    # Each camera: the calibration from its node's extras, else the glTF camera's yfov and aspectRatio (§3.10.3).
    cameras = {c.get("name"): c for c in doc.get("cameras", [])}
    nodes = {n.get("name"): n for n in doc.get("nodes", []) if "camera" in n}
    for obj in scene.objects:
        if obj.type != "CAMERA":
            continue
        node = nodes.get(obj.name) or nodes.get(obj.data.name) or {}
        glb_camera = cameras.get(obj.data.name) or cameras.get(obj.name)
        if glb_camera and "perspective" in glb_camera:
            p = glb_camera["perspective"]
            obj.data.sensor_fit = "VERTICAL"
            obj.data.angle_y = p["yfov"]
            obj.data.clip_start = p["znear"]
            obj.data.clip_end = p.get("zfar", 1000)
            obj["aspectRatio"] = p.get("aspectRatio", 1)
        if "imageWidth" in node.get("extras", {}):
            set_camera(obj, node["extras"])
    finish_cameras(scene)
    scene.frame_set(scene.frame_start)
    return extras


def import_matchscene_fbx(path):
    """Imports a scene.fbx that `export_fbx` wrote with the GLB's frame mapping: take time 0 at frame 0
    (Blender's FBX importer offsets by one frame unless told not to), the match take active, the frame
    range of the match; returns the timing (fps, firstFrame, lastFrame) kept on the root object."""
    scene = bpy.context.scene
    bpy.ops.import_scene.fbx(filepath=path, anim_offset=0.0)
    root = bpy.data.objects.get(ROOT)
    extras = {key: root[key] for key in TIMING if root is not None and key in root}
    if "fps" in extras:
        set_frame_rate(scene, float(extras["fps"]))
    scene.frame_start = 0
    if "firstFrame" in extras and "lastFrame" in extras:
        scene.frame_end = int(extras["lastFrame"] - extras["firstFrame"])
    for obj in scene.objects:
        match = bpy.data.actions.get(f"{obj.name}|match") or bpy.data.actions.get(f"{obj.name}|match|match")
        if match is not None:
            obj.animation_data_create().action = match
    finish_cameras(scene)
    scene.frame_set(scene.frame_start)
    return extras


class Take:
    """What Blender's FBX exporter names an animation stack after (an ID's `name` and `rna_type.name`)."""

    class rna_type:
        name = "MatchSceneTake"

    library = None

    def __init__(self, name):
        self.name = name


def takes_animations(takes, export_fbx_bin):
    """A replacement for the FBX exporter's `fbx_animations` (Blender 3.4–4.x) that bakes one stack per
    take, `(name, first, last, from_zero)` in Blender frames, with every object in it, instead of one stack
    per object and action: a take per clip as in the GLB. Keys are then simplified (`linear_simplify`), so
    objects that do not move get none."""

    def fbx_animations(scene_data):
        animations, animated = [], set()
        start, end = 1e100, -1e100
        # The meshes are already written: the bake reads object and bone transforms only, so the skinned
        # bodies need not be deformed at every frame (most of the bake's time otherwise).
        deforming = [m for o in scene_data.scene.objects if o.type == "MESH" for m in o.modifiers
                     if m.type == "ARMATURE" and m.show_viewport]
        for m in deforming:
            m.show_viewport = False
        try:
            for name, first, last, from_zero in takes:
                anim = export_fbx_bin.fbx_animations_do(scene_data, Take(name), first, last, from_zero)
                if anim is None:
                    continue
                animations.append(anim)
                start, end = min(start, anim[4]), max(end, anim[5])
                for elem_key, (_layer_key, curve_nodes) in anim[1].items():
                    for fbx_prop in curve_nodes:
                        animated.add((elem_key, fbx_prop))
        finally:
            for m in deforming:
                m.show_viewport = True
        scene_data.scene.frame_set(scene_data.scene.frame_current, subframe=0.0)
        return animations, animated, start, end

    return fbx_animations


def linear_keys(frames, values, tolerance):
    """Indices of the samples to key so that linear interpolation between the keys reproduces every sample
    within `tolerance`: one pass, each segment extended while its slope stays inside the cone every skipped
    sample allows (the sliding-window bound of piecewise-linear approximation; O(n)). First and last kept."""
    keep = [0]
    anchor, low, high = 0, -math.inf, math.inf
    i = 1
    while i < len(values):
        dt = frames[i] - frames[anchor]
        dv = values[i] - values[anchor]
        if low * dt <= dv <= high * dt:  # sample i may end the segment: it now bounds later ends too
            low = max(low, (dv - tolerance) / dt)
            high = min(high, (dv + tolerance) / dt)
            i += 1
        else:  # end the segment at i − 1 and start the next one there
            anchor, low, high = i - 1, -math.inf, math.inf
            keep.append(anchor)
    if keep[-1] != len(values) - 1:
        keep.append(len(values) - 1)
    return keep


def linear_simplify(tolerances, original):
    """A replacement for the FBX exporter's `AnimationCurveNodeWrapper.simplify` keying each curve only where
    linear interpolation needs it (`linear_keys`) within `tolerances[group]` (T metres, R degrees, S); a
    curve constant over the take keeps no key when it equals the object's value as written, two otherwise.
    Other groups are left to `original`."""

    def simplify(self, fac, step, force_keep=False):
        keys = self._keys
        tolerance = tolerances.get(self.fbx_gname[0])
        if not keys or tolerance is None:
            return original(self, fac, step, force_keep)
        frames = [k[0] for k in keys]
        for idx in range(len(keys[0][1])):
            values = [k[1][idx] for k in keys]
            for k in keys:
                k[2][idx] = False
            if max(values) - min(values) <= tolerance:
                if abs(values[0] - self.default_values[idx]) > tolerance:
                    keys[0][2][idx] = keys[-1][2][idx] = True
                continue
            for i in linear_keys(frames, values, tolerance):
                keys[i][2][idx] = True

    return simplify


def export_fbx(path, tolerances=None):
    """Writes the open scene as binary FBX 7.4 with Blender's exporter: 1 unit = 1 m (unit scale 1,
    `apply_scale_options` FBX_SCALE_UNITS), Y up as Unity and Maya expect, armatures, cameras and lights,
    and one take per animation of the GLB (`match` over the scene's frame range, then each clip from time
    0, as in the GLB). Keys are sampled at every frame and kept where linear interpolation needs them to
    stay within `tolerances` (default: 0.4 mm per axis for translations, 0.1° for rotations, 0.001 for
    scales), so static objects (cameras, venue, light) carry no keys and the file stays near the GLB's size. The root object keeps fps, firstFrame and
    lastFrame as custom properties for `import_matchscene_fbx`.

    FBX keeps a camera's focal length and film size but not Blender's sensor fit, and Blender reads it
    back with fit AUTO (the wider side): so each camera is first given a horizontal fit with a film of
    its image's aspect ratio and the same horizontal angle, which reads back the same in every tool."""
    if tolerances is None:
        tolerances = {"T": 0.0004, "R": 0.1, "S": 0.001}
    scene = bpy.context.scene
    for obj in scene.objects:
        if obj.type != "CAMERA":
            continue
        cam = obj.data
        aspect = obj.get("aspectRatio", 16 / 9)
        xfov = cam.angle_x if cam.sensor_fit == "HORIZONTAL" else 2 * math.atan(math.tan(cam.angle_y / 2) * aspect)
        cam.sensor_fit = "HORIZONTAL"
        cam.sensor_width = 36.0
        cam.sensor_height = 36.0 / aspect
        cam.angle_x = xfov
    root = bpy.data.objects.get(ROOT)
    first = int(root.get("firstFrame", 0)) if root is not None else 0
    takes = [("match", scene.frame_start, scene.frame_end, False)]
    for name, a, b in json.loads(scene.get("matchsceneClips", "[]")):
        takes.append((name, a - first, b - first, True))
    from io_scene_fbx import export_fbx_bin, fbx_utils

    original = export_fbx_bin.fbx_animations, fbx_utils.AnimationCurveNodeWrapper.simplify
    export_fbx_bin.fbx_animations = takes_animations(takes, export_fbx_bin)
    fbx_utils.AnimationCurveNodeWrapper.simplify = linear_simplify(tolerances, original[1])
    try:
        bpy.ops.export_scene.fbx(
            filepath=path, apply_scale_options="FBX_SCALE_UNITS", axis_forward="-Z", axis_up="Y",
            object_types={"ARMATURE", "CAMERA", "EMPTY", "LIGHT", "MESH"}, add_leaf_bones=False,
            use_custom_props=True, bake_anim=True, bake_anim_use_all_bones=False,
            bake_anim_use_all_actions=False, bake_anim_use_nla_strips=False,
            bake_anim_force_startend_keying=True, bake_anim_simplify_factor=1.0)
    finally:
        export_fbx_bin.fbx_animations, fbx_utils.AnimationCurveNodeWrapper.simplify = original


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
