internal import CTriangulation
import MatchSceneCore

/// Outcome of triangulating one point. `ok` is the only success.
public enum TriangulationStatus: Int32, Sendable, Equatable, CustomStringConvertible {
  case ok = 0
  /// Fewer than two views passed the confidence threshold.
  case tooFewViews = 2
  /// The rays are (nearly) parallel: no unique point.
  case degenerate = 3
  /// The point would lie behind a camera that saw it.
  case behindCamera = 4
  /// An iterative solver did not converge.
  case notConverged = 5
  /// Robust mode: no set of at least `minViews` views agrees within the threshold.
  case inconsistent = 6

  public var description: String {
    switch self {
    case .ok: "ok"
    case .tooFewViews: "fewer than two usable views"
    case .degenerate: "rays (nearly) parallel, no unique intersection"
    case .behindCamera: "point behind a camera that observed it"
    case .notConverged: "solver did not converge"
    case .inconsistent: "views disagree beyond the reprojection threshold"
    }
  }
}

/// A failure of the geometry kernels as a whole call (not of one point): a programming or input error.
public enum GeometryError: Error, Equatable, CustomStringConvertible {
  /// A camera with non-finite values or non-positive focal lengths, or invalid options.
  case invalidArgument(String)
  /// The C++ kernel caught an exception or failed unexpectedly.
  case internalError(String)
  /// A camera to refine has too few usable observations (bundle adjustment).
  case tooFewObservations(String)
  /// The problem has no unique solution (e.g. a gauge whose two cameras share a centre).
  case degenerate(String)

  public var description: String {
    switch self {
    case .invalidArgument(let what): "invalid argument to the geometry kernel: \(what)"
    case .internalError(let what): "internal error in the geometry kernel: \(what)"
    case .tooFewObservations(let what): "too few observations: \(what)"
    case .degenerate(let what): "degenerate problem: \(what)"
    }
  }
}

/// The one place where C statuses become Swift values.
enum Shim {
  /// Throws for call-level failures; returns for MSTRI_OK.
  static func check(_ status: mstri_status, _ context: @autoclosure () -> String) throws {
    switch status {
    case MSTRI_OK: return
    case MSTRI_INVALID_ARGUMENT: throw GeometryError.invalidArgument(context())
    case MSTRI_TOO_FEW_OBSERVATIONS: throw GeometryError.tooFewObservations(context())
    case MSTRI_DEGENERATE: throw GeometryError.degenerate(context())
    default: throw GeometryError.internalError("\(context()) (status \(status.rawValue))")
    }
  }

  /// Per-point status from its raw value.
  static func pointStatus(_ raw: Int32) -> TriangulationStatus {
    TriangulationStatus(rawValue: raw) ?? .notConverged
  }
}
