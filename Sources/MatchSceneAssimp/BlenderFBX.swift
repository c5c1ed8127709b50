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

  /// Checks, before a run, that `convert` can work here: Blender is found, the script is among the
  /// resources, and Blender's Python imports NumPy (its glTF importer needs it; Debian packages it apart
  /// as `python3-numpy`). Starts Blender once (`-b --factory-startup`, a few seconds).
  /// - Parameter fbx: the FBX the run will write, named in the error.
  /// - Returns: nil when all is there, else an `InputError` saying what is missing and what to install.
  public static func missingRequirement(for fbx: URL) -> InputError? {
    guard let blender = blender() else {
      return InputError(
        file: fbx.path,
        "a binary FBX is written by Blender's exporter and Blender is not installed (apt-get install blender python3-numpy, "
          + "or set MATCHSCENE_BLENDER); --format fbx-ascii writes assimp's ASCII FBX without it")
    }
    guard scriptURL != nil else {
      return InputError(
        file: fbx.path,
        "MatchScene's Blender script (import_matchscene.py) is missing from its resources; install the matchscene binary "
          + "with the MatchScene_MatchSceneAssimp resource bundle beside it")
    }
    let check = run(blender, ["-b", "--factory-startup", "--python-exit-code", "1", "--python-expr", "import numpy"])
    guard check.status == 0 else {
      let said = check.output.split(separator: "\n").last { $0.contains("Error") }.map { " (\($0))" } ?? ""
      return InputError(
        file: fbx.path,
        "Blender (\(blender)) cannot import NumPy\(said), which its glTF importer needs to write the FBX: "
          + "apt-get install python3-numpy (or pip install numpy for the Python Blender runs)")
    }
    return nil
  }

  /// Converts the GLB at `glb` into a binary FBX at `fbx`.
  /// - Throws: `InputError` when Blender is missing (saying how to install it, and that `--format
  ///   fbx-ascii` needs none), fails, or writes no binary FBX.
  public static func convert(_ glb: URL, to fbx: URL) throws {
    guard let blender = blender(), let scriptURL else { throw missingRequirement(for: fbx) ?? InputError(file: fbx.path, "Blender is missing") }
    let result = run(blender, ["-b", "--factory-startup", "--python-exit-code", "1", "--python", scriptURL.path, "--", glb.path, "--clear", "--fbx", fbx.path])
    let head = (try? FileHandle(forReadingFrom: fbx).readData(ofLength: 18)).map { String(decoding: $0, as: UTF8.self) }
    guard result.status == 0, head == "Kaydara FBX Binary" else {
      let tail = result.output.split(separator: "\n").suffix(8).joined(separator: "\n")
      let numpy = result.output.contains("No module named 'numpy'") ? " (apt-get install python3-numpy)" : ""
      throw InputError(file: fbx.path, "Blender (\(blender)) did not write a binary FBX (exit \(result.status))\(numpy):\n\(tail)")
    }
  }

  /// Runs `program` with `arguments` (`ChildProcess`); returns its exit status (−1 when it could not
  /// start) and its output and error output together.
  private static func run(_ program: String, _ arguments: [String]) -> (status: Int32, output: String) {
    let result = ChildProcess.run(URL(fileURLWithPath: program), arguments)
    return (result.status, result.stdout + result.stderr)
  }

  /// The Blender script that imports a GLB and writes the FBX, shipped with the package as a resource
  /// (`Resources/import_matchscene.py`; `Examples/blender/import_matchscene.py` links to it); nil when
  /// the resource bundle is missing (a binary copied without its `MatchScene_MatchSceneAssimp`
  /// resources).
  public static var scriptURL: URL? { Bundle.module.url(forResource: "import_matchscene", withExtension: "py") }
}
