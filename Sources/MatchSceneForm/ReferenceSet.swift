import MatchSceneCore

/// The references of one run, at most one per stroke kind (`form --reference a.json --reference b.json`),
/// each checked against the match's sport.
public struct ReferenceSet: Sendable {
  /// Stroke kind → the reference and the file (or stored name) it came from.
  public private(set) var byKind: [StrokeKind: (reference: StrokeReference, file: String)] = [:]
  /// What the caller should be told: fields an old reference lacks.
  public private(set) var warnings: [String] = []

  public init() {}

  /// Adds `reference`, read from `file`, for a match of `sport`.
  /// - Throws: `InputError` naming `file` when the reference is of another sport (naming both), or when
  ///   a reference of the same stroke kind was given already (naming both files).
  public mutating func add(_ reference: StrokeReference, file: String, sport: String) throws {
    if let theirs = reference.sport, theirs != sport {
      throw InputError(file: file, "is a reference for \(theirs); this match is \(sport) — give a \(sport) reference")
    }
    if let first = byKind[reference.kind] {
      throw InputError(
        file: file,
        "a second \(reference.kind.rawValue) reference: \(first.file) is one already; give one --reference per stroke kind (references of different kinds combine)")
    }
    if !reference.missingFields.isEmpty {
      warnings.append(
        "\(file): saved before references carried \(reference.missingFields.joined(separator: ", ")); taken as unknown"
          + (reference.sport == nil ? " (sport not checked)" : ""))
    }
    byKind[reference.kind] = (reference, file)
  }

  /// The reference for strokes of `kind`, nil when none was given.
  public subscript(kind: StrokeKind) -> StrokeReference? { byKind[kind]?.reference }

  public var isEmpty: Bool { byKind.isEmpty }
}
