#!/usr/bin/env python3
"""Times aniposelib on the scene `matchscene benchmark --export DIR` wrote, for a same-run comparison.

Not a dependency of MatchScene: install aniposelib in a throwaway venv
    python3 -m venv /tmp/anivenv && /tmp/anivenv/bin/pip install aniposelib
and let the benchmark call it:
    matchscene benchmark --aniposelib /tmp/anivenv/bin/python
Prints one JSON line per method: {"method", "views", "points", "seconds", "points_per_second", "mean_error_mm"}.
"""
import json
import sys
import time

import numpy as np
from aniposelib.cameras import CameraGroup


def main(folder: str, optim_points: int) -> None:
    meta = json.load(open(f"{folder}/scene.json"))
    n_cams, n_points = meta["views"], meta["points"]
    # observations.f64: point-major (x, y, confidence) per camera, as MatchScene's kernel takes them.
    obs = np.fromfile(f"{folder}/observations.f64", dtype=np.float64).reshape(n_points, n_cams, 3)
    truth = np.fromfile(f"{folder}/truth.f64", dtype=np.float64).reshape(n_points, 3)
    group = CameraGroup.load(f"{folder}/calibration.toml")
    points = np.transpose(obs[:, :, :2], (1, 0, 2)).copy()  # (cams, points, 2)
    points[np.transpose(obs[:, :, 2]) <= 0] = np.nan

    def report(method, p3, count, seconds):
        err = np.linalg.norm(p3[:count] - truth[:count], axis=1)
        print(json.dumps({"method": method, "views": n_cams, "points": count, "seconds": seconds,
                          "points_per_second": count / seconds,
                          "mean_error_mm": float(np.nanmean(err) * 1000)}), flush=True)

    start = time.perf_counter()
    p3 = group.triangulate(points, undistort=True, progress=False)
    report("triangulate", p3, n_points, time.perf_counter() - start)

    count = min(optim_points, n_points)
    start = time.perf_counter()
    # triangulate_optim wants (cams, frames, joints, 2): one joint per frame here.
    p3 = group.triangulate_optim(points[:, :count, None, :], init_ransac=False, init_progress=False)
    report("triangulate_optim", p3.reshape(-1, 3), count, time.perf_counter() - start)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
