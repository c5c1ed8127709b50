import Foundation
import MatchSceneCore

/// A binary FBX that Blender, Unity and Maya open, written by Blender's own FBX exporter from our GLB
/// (`blender -b --factory-startup --python <script> -- scene.glb --clear --fbx scene.fbx`): metres
/// (unit scale 1), the capture rate, the cameras at their calibrated poses with their fields of view,
/// one armature per player. assimp 5.2's binary FBX does not parse in Blender, and its ASCII FBX Blender
/// refuses, so the FBX goes through the tool that must open it. The script is
/// the package's resource `import_matchscene.py` (`scriptURL`), the one `Examples/blender` links to.
public enum BlenderFBX {
  /// The Blender program: `MATCHSCENE_BLENDER` if set, else `blender` on PATH; nil when there is none.
  public static func blender(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    if let path = environment["MATCHSCENE_BLENDER"], !path.isEmpty { return path }
    return (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/blender" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Converts the GLB at `glb` into a binary FBX at `fbx`.
  /// - Throws: `InputError` when Blender is missing (saying how to install it, and that `--format
  ///   fbx-ascii` needs none), fails, or writes no binary FBX.
  public static func convert(_ glb: URL, to fbx: URL) throws {
    guard let blender = blender() else {
      throw InputError(
        file: fbx.path,
        "a binary FBX is written by Blender's exporter and Blender is not installed (apt-get install blender python3-numpy, "
          + "or set MATCHSCENE_BLENDER); --format fbx-ascii writes assimp's ASCII FBX without it")
    }
    guard let scriptURL else {
      throw InputError(
        file: fbx.path,
        "MatchScene's Blender script (import_matchscene.py) is missing from its resources; install the matchscene binary "
          + "with the MatchScene_MatchSceneAssimp resource bundle beside it")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: blender)
    process.arguments = ["-b", "--factory-startup", "--python-exit-code", "1", "--python", scriptURL.path, "--", glb.path, "--clear", "--fbx", fbx.path]
    let log = Pipe()
    process.standardOutput = log
    process.standardError = log
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let head = (try? FileHandle(forReadingFrom: fbx).readData(ofLength: 18)).map { String(decoding: $0, as: UTF8.self) }
    guard process.terminationStatus == 0, head == "Kaydara FBX Binary" else {
      let tail = output.split(separator: "\n").suffix(8).joined(separator: "\n")
      throw InputError(file: fbx.path, "Blender (\(blender)) did not write a binary FBX (exit \(process.terminationStatus)):\n\(tail)")
    }
  }

  /// The Blender script that imports a GLB and writes the FBX, shipped with the package as a resource
  /// (`Resources/import_matchscene.py`; `Examples/blender/import_matchscene.py` links to it); nil when
  /// the resource bundle is missing (a binary copied without its `MatchScene_MatchSceneAssimp`
  /// resources).
  public static var scriptURL: URL? { Bundle.module.url(forResource: "import_matchscene", withExtension: "py") }
}
