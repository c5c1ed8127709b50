import Foundation
import MatchSceneCore

/// 2D keypoints as DeepLabCut writes them to CSV (DeepLabCut user guide, "Analyze videos" output
/// `<video>DLC_<scorer>.csv`, and labelled data `CollectedData_<scorer>.csv`: pandas' CSV of a
/// DataFrame with a multi-level column header), one file per camera, `pose/<camera>.csv`:
///
/// ```
/// scorer,DLC_resnet50_ttJun1shuffle1_100000,DLC_resnet50_ttJun1shuffle1_100000,…
/// individuals,player1,player1,player1,…,player2,…     ← multi-animal projects only
/// bodyparts,nose,nose,nose,left_eye,left_eye,left_eye,…
/// coords,x,y,likelihood,x,y,likelihood,…
/// 0,958.2,412.7,0.93,963.1,405.9,0.91,…
/// 1,,,,963.0,406.1,0.90,…
/// ```
///
/// The contract:
///
/// - Header rows are recognised by their first cell: `scorer` (optional), `individuals`
///   (optional), `bodyparts` and `coords` (required, in this order; the data follow `coords`). A
///   pandas index-name row right after `coords` (no digits in its first cell, nothing else) is
///   skipped.
/// - Index columns: the first column, plus the columns after it left empty in the `coords` row
///   (labelled data index by `labeled-data`, video, image). The last index column gives the frame:
///   an integer, or the last run of digits of an image name without extension (`img0042.png` → 42).
/// - Body parts map to the skeleton's keypoints by name, compared without regard to case. Body
///   parts the skeleton lacks are ignored; keypoints the file lacks are missing. If no body part
///   matches at all, the file is rejected, listing both sets of names.
/// - `coords` are `x`, `y` and `likelihood` (the confidence; 1 when the file has no likelihood
///   column, as in labelled data). An empty or `NaN` cell makes the keypoint missing.
/// - Without `individuals`, each row is one person. With it, each individual is one person in
///   every row; DeepLabCut's `single` individual (unique body parts, not an animal) is skipped.
///   A person whose every keypoint is missing in a row is not a detection in that frame, but the
///   frame is still present (possibly with nobody), as OpenPose's empty frames are.
/// - Cells may be quoted as RFC 4180 §2 describes (`"nose, left"`, `""` for a quote), as pandas quotes
///   names holding commas; the quotes are removed before names are compared.
public enum DeepLabCutCSV {
  /// Reads one camera's file: frame → people (see the type's contract).
  public static func read(file url: URL, skeleton: Skeleton) throws -> [Int: [PersonDetection2D]] {
    guard let data = try FileBytes.contents(of: url) else {
      throw InputError(file: url.path, "cannot read the file (missing or not readable)")
    }
    return try parse([UInt8](data), file: url.path, skeleton: skeleton)
  }

  /// Parses CSV text; `file` names it in errors.
  public static func parse(_ text: String, file: String, skeleton: Skeleton) throws -> [Int: [PersonDetection2D]] {
    try parse(Array(text.utf8), file: file, skeleton: skeleton)
  }

  /// Where one person's keypoints are: per skeleton keypoint, its x, y and likelihood columns.
  struct Individual {
    var name: String
    var columns: [(x: Int?, y: Int?, likelihood: Int?)]
  }

  /// Parses CSV bytes.
  /// - Throws: `InputError` with the 1-based line of a missing or malformed header row, a coordinate
  ///   other than x, y, likelihood, a body part given twice, a row without a frame number, a frame
  ///   given twice, too few fields or a cell that is not a number; a file-level error when no body
  ///   part matches the skeleton.
  static func parse(_ bytes: [UInt8], file: String, skeleton: Skeleton) throws -> [Int: [PersonDetection2D]] {
    let csv = CSVScanner(bytes)
    var header: [String: (line: Int, cells: [String])] = [:]
    var individuals: [Individual]?
    var indexColumns = 1, columnCount = 0
    var skippedIndexName = false
    var out: [Int: [PersonDetection2D]] = [:]
    var lineOfFrame: [Int: Int] = [:]
    let expectedHeader = "expected DeepLabCut's header rows scorer, [individuals,] bodyparts, coords"

    try csv.forEachLine { line, f in
      guard let layout = individuals else {
        if CSVScanner.isBlank(f) { return }
        let cells = f.map { csv.unquoted($0) }
        let label = cells[0].lowercased()
        guard ["scorer", "individuals", "bodyparts", "coords"].contains(label), header[label] == nil else {
          throw InputError(file: file, location: .line(line), "\(expectedHeader); got '\(cells[0])'")
        }
        if label == "individuals" || label == "scorer", header["bodyparts"] != nil {
          throw InputError(file: file, location: .line(line), "'\(cells[0])' row after 'bodyparts'; \(expectedHeader)")
        }
        header[label] = (line, cells)
        guard label == "coords" else { return }
        guard let bodyparts = header["bodyparts"] else {
          throw InputError(file: file, location: .line(line), "'coords' row before any 'bodyparts' row; \(expectedHeader)")
        }
        indexColumns = 1 + cells.dropFirst().prefix { $0.isEmpty }.count
        columnCount = cells.count
        individuals = try self.layout(
          coords: (line, cells), bodyparts: bodyparts, individuals: header["individuals"], indexColumns: indexColumns,
          skeleton: skeleton, file: file)
        return
      }
      if CSVScanner.isBlank(f) { return }
      let first = csv.unquoted(f[0])
      if !skippedIndexName && out.isEmpty {
        skippedIndexName = true
        if !first.contains(where: { $0.isASCII && $0.isNumber }) && f.dropFirst().allSatisfy(\.isEmpty) { return }
      }
      guard f.count >= columnCount else {
        throw InputError(file: file, location: .line(line), "has \(f.count) fields; expected \(columnCount) as in the header")
      }
      let indexValue = csv.unquoted(f[indexColumns - 1])
      guard let frame = FrameNumber.of(indexValue) else {
        throw InputError(
          file: file, location: .line(line),
          "'\(indexValue)' gives no frame number; expected a frame index or an image name ending in digits")
      }
      try FrameNumber.check(frame, file: file, location: .line(line), what: "the frame number")
      if let other = lineOfFrame[frame] {
        throw InputError(file: file, location: .line(line), "frame \(frame) appears twice (also line \(other))")
      }
      lineOfFrame[frame] = line
      func cell(_ column: Int?) throws -> Double? {
        guard let column else { return nil }
        let range = f[column]
        if range.isEmpty { return .nan }
        guard let x = csv.double(range) else {
          throw InputError(file: file, location: .line(line), "column \(column + 1): '\(csv.string(range))' is not a number")
        }
        if x.isInfinite { throw InputError(file: file, location: .line(line), "column \(column + 1): '\(csv.string(range))' is not finite") }
        return x
      }
      var people: [PersonDetection2D] = []
      for individual in layout {
        var keypoints: [Keypoint2D] = []
        keypoints.reserveCapacity(skeleton.count)
        for columns in individual.columns {
          guard let x = try cell(columns.x), let y = try cell(columns.y), !x.isNaN, !y.isNaN else {
            keypoints.append(.missing)
            continue
          }
          guard CameraRanges.isPixel(x), CameraRanges.isPixel(y) else {
            throw InputError(file: file, location: .line(line), "x, y = \(x), \(y) lie outside the accepted \(CameraRanges.pixelRange)")
          }
          let likelihood = try cell(columns.likelihood) ?? 1
          keypoints.append(likelihood.isNaN ? .missing : Keypoint2D(x: x, y: y, confidence: likelihood))
        }
        if keypoints.contains(where: \.isDetected) { people.append(PersonDetection2D(keypoints: keypoints)) }
      }
      out[frame] = people
    }
    if individuals == nil {
      throw InputError(file: file, location: .line(1), "no 'coords' header row; \(expectedHeader)")
    }
    return out
  }

  /// The people of the header: which columns hold each skeleton keypoint's x, y and likelihood.
  static func layout(
    coords header: (line: Int, cells: [String]), bodyparts: (line: Int, cells: [String]),
    individuals: (line: Int, cells: [String])?, indexColumns: Int, skeleton: Skeleton, file: String
  ) throws -> [Individual] {
    let coordsLine = header.line, coords = header.cells
    let indexOfName = Dictionary(skeleton.keypoints.enumerated().map { ($1.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    var people: [Individual] = []
    var partNames: [String] = []
    var matched = false
    for column in indexColumns..<coords.count {
      let coord = coords[column].lowercased()
      guard column < bodyparts.cells.count, !bodyparts.cells[column].isEmpty else {
        throw InputError(file: file, location: .line(bodyparts.line), "column \(column + 1) has no body part name")
      }
      let part = bodyparts.cells[column]
      let who = individuals.map { column < $0.cells.count ? $0.cells[column] : "" } ?? ""
      if individuals != nil && who.isEmpty {
        throw InputError(file: file, location: .line(individuals!.line), "column \(column + 1) has no individual name")
      }
      guard ["x", "y", "likelihood"].contains(coord) else {
        throw InputError(
          file: file, location: .line(coordsLine), "column \(column + 1): coordinate '\(coords[column])' is not x, y or likelihood")
      }
      if !partNames.contains(part) { partNames.append(part) }
      if who == "single" { continue }
      guard let keypoint = indexOfName[part.lowercased()] else { continue }
      matched = true
      let p = people.firstIndex { $0.name == who } ?? people.count
      if p == people.count {
        people.append(Individual(name: who, columns: Array(repeating: (nil, nil, nil), count: skeleton.count)))
      }
      let slot = people[p].columns[keypoint]
      let taken = coord == "x" ? slot.x : coord == "y" ? slot.y : slot.likelihood
      if taken != nil {
        let owner = who.isEmpty ? "" : " of '\(who)'"
        throw InputError(file: file, location: .line(coordsLine), "column \(column + 1): '\(part)' \(coord)\(owner) is given twice")
      }
      switch coord {
      case "x": people[p].columns[keypoint].x = column
      case "y": people[p].columns[keypoint].y = column
      default: people[p].columns[keypoint].likelihood = column
      }
    }
    guard matched else {
      throw InputError(
        file: file,
        "no body part matches a keypoint of the skeleton '\(skeleton.name)'; the file has \(partNames.joined(separator: ", ")); the skeleton has \(skeleton.keypoints.joined(separator: ", "))")
    }
    for person in people {
      for (k, columns) in person.columns.enumerated() where (columns.x == nil) != (columns.y == nil) || (columns.x == nil && columns.likelihood != nil) {
        throw InputError(
          file: file, location: .line(coordsLine), "'\(skeleton.keypoints[k])' needs both x and y columns")
      }
    }
    return people
  }
}
