import MatchSceneCore

extension Camera {
  /// What a glTF camera (glTF 2.0 §3.10.3: a vertical field of view and an aspect ratio) cannot say about
  /// the calibration, for the camera node's `extras`: the image size in pixels, the OpenCV intrinsics
  /// (`fx`, `fy`, principal point `cx`, `cy` with the origin at the centre of the top-left pixel, `skew`),
  /// the lens model and its distortion coefficients (pinhole: k1, k2, p1, p2, k3 — Brown–Conrady as in
  /// OpenCV's `calibrateCamera`; fisheye: k1…k4, Kannala–Brandt), each coefficient under its own name:
  /// flat numbers only, as assimp 5.2's exporters abort on nested extras. A renderer that honours them
  /// shifts its lens by the principal point's offset from the image centre
  /// (`Examples/blender/import_matchscene.py` sets Blender's resolution, sensor fit and lens shift from them).
  var gltfExtras: JSONValue {
    var extras: [String: JSONValue] = [
      "imageWidth": .number(Double(imageSize.width)), "imageHeight": .number(Double(imageSize.height)),
      "fx": .number(fx), "fy": .number(fy), "cx": .number(cx), "cy": .number(cy), "skew": .number(skew),
      "lensModel": .string(lensModel.rawValue),
    ]
    let names = lensModel == .pinhole ? ["k1", "k2", "p1", "p2", "k3"] : ["k1", "k2", "k3", "k4"]
    for (name, value) in zip(names, distortion) { extras[name] = .number(value) }
    return .object(extras)
  }
}
