# Shared by the check_*.py scripts BlenderTests runs inside Blender: the import a user does and tracks.csv
# read on its own (csv module), so each script compares what Blender shows with the file.
import csv

import bpy


def example_namespace(example):
    """Blender emptied, then Examples/blender/import_matchscene.py loaded (its functions by name)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    namespace = {"__name__": "matchscene_example"}
    exec(compile(open(example).read(), example, "exec"), namespace)
    return namespace


def read_tracks(path):
    """tracks.csv: (frame, track, joint) -> (x, y, z), metres."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows[(int(r["frame"]), r["track"], r["joint"])] = (float(r["x"]), float(r["y"]), float(r["z"]))
    return rows
