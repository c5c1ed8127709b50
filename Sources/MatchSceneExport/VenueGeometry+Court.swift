import MatchSceneAssets
import MatchSceneCore

extension VenueGeometry {
  /// Segments of a full turn of an arc marking (5° each): rendering resolution, not a venue dimension.
  static let arcSegmentsPerTurn = 72
  /// Segments around a basket's ring and sides of its tube: rendering resolution, not a venue dimension.
  static let ringSegments = 24
  static let ringTubeSides = 8

  /// The parts of a `court` venue (tennis, badminton, volleyball, basketball…), from `[venue]` and
  /// `[markings]` of the sport file (see `Assets/README.md`, "Court venues"):
  /// - `court`: a quad `length` × `width` centred on the origin, lifted `markingLift` above the floor.
  /// - `lines`: every `CourtMarking` as flat strips and arc sectors, `2 × markingLift` above the floor;
  ///   left out when the file has no `[markings]`.
  /// - `net` and `posts`, when `net_height` is given: a vertical sheet in the plane x = 0 whose top runs
  ///   straight from `net_height_at_posts` (default `net_height`) above each post to `net_height` above
  ///   the centre line and whose bottom is `net_depth` below the top (never below the floor), `net_length`
  ///   long (default: from post to post); square posts of side `net_post_size`, `net_post_height` high,
  ///   their centres `net_overhang` outside the side lines (y = ±(`width` / 2 + `net_overhang`)).
  /// - `rings`, `backboards`, `supports`, when `ring_height` is given (basketball, FIBA art. 3): at each
  ///   end a torus (inner diameter `ring_inner_diameter`, tube `ring_tube_diameter`, top at
  ///   `ring_height`) centred above the point `basket_from_end_line` in from the end line; a board
  ///   `backboard_width` × `backboard_height` × `backboard_thickness` whose lower edge is at
  ///   `backboard_bottom` and whose front face is `backboard_from_end_line` in from the end line; a square
  ///   pole of side `support_size` whose front is `support_from_end_line` behind the end line, and an arm
  ///   of side `support_arm_size` from the pole to the back of the board at its mid-height.
  ///
  /// "End line" means x = ±`length` / 2.
  /// - Throws: `InputError` naming the missing or negative dimension, or the missing colour.
  static func courtParts(_ read: Reader) throws -> [VenuePart] {
    let halfLength = try read.dim("length") / 2
    let halfWidth = try read.dim("width") / 2
    var parts: [VenuePart] = []
    parts.append(
      VenuePart(
        name: "court", colorKey: try read.color("court"),
        mesh: flat([[SIMD2(-halfLength, -halfWidth), SIMD2(halfLength, -halfWidth), SIMD2(halfLength, halfWidth),
          SIMD2(-halfLength, halfWidth)]], z: markingLift),
        doubleSided: false))
    let markings = read.sport.venue.markings
    if !markings.isEmpty {
      let quads = markings.flatMap { markingQuads($0) }
      parts.append(
        VenuePart(name: "lines", colorKey: try read.color("lines"), mesh: flat(quads, z: 2 * markingLift), doubleSided: false))
    }
    if let netHeight = try read.optionalDim("net_height") {
      parts += try netParts(read, halfWidth: halfWidth, netHeight: netHeight)
    }
    if let ringHeight = try read.optionalDim("ring_height") {
      parts += try basketParts(read, halfLength: halfLength, ringHeight: ringHeight)
    }
    return parts
  }

  /// Quads (corners counter-clockwise seen from +z) covering `marking` and its mirror images.
  static func markingQuads(_ marking: CourtMarking) -> [[SIMD2<Double>]] {
    var quads: [[SIMD2<Double>]] = []
    switch marking.shape {
    case .strip(let x, let y):
      quads.append([
        SIMD2(x.lowerBound, y.lowerBound), SIMD2(x.upperBound, y.lowerBound), SIMD2(x.upperBound, y.upperBound),
        SIMD2(x.lowerBound, y.upperBound),
      ])
    case .arc(let center, let radius, let width, let degrees):
      let span = degrees.upperBound - degrees.lowerBound
      let n = max(1, Int((span / 360 * Double(arcSegmentsPerTurn)).rounded(.up)))
      func point(_ k: Int, _ r: Double) -> SIMD2<Double> {
        let a = (degrees.lowerBound + span * Double(k) / Double(n)) * .pi / 180
        return center + r * SIMD2(cos(a), sin(a))
      }
      for k in 0..<n {
        // Inner k, outer k, outer k+1, inner k+1: counter-clockwise seen from +z.
        quads.append([point(k, radius - width), point(k, radius), point(k + 1, radius), point(k + 1, radius - width)])
      }
    }
    var all = quads
    if marking.mirrorX { all += quads.map { mirrored($0, SIMD2(-1, 1)) } }
    if marking.mirrorY { all += quads.map { mirrored($0, SIMD2(1, -1)) } }
    if marking.mirrorX && marking.mirrorY { all += quads.map { mirrored($0, SIMD2(-1, -1)) } }
    return all
  }

  /// `quad` reflected by `sign` (±1 per axis), its corner order reversed when the reflection flips it so
  /// that it stays counter-clockwise seen from +z.
  static func mirrored(_ quad: [SIMD2<Double>], _ sign: SIMD2<Double>) -> [SIMD2<Double>] {
    let q = quad.map { $0 * sign }
    return sign.x * sign.y < 0 ? q.reversed() : q
  }

  /// Flat horizontal quads at height `z`, facing +z.
  static func flat(_ quads: [[SIMD2<Double>]], z: Double) -> TriangleMesh {
    var mesh = TriangleMesh()
    for q in quads {
      mesh.append(.quad(SIMD3(q[0], z), SIMD3(q[1], z), SIMD3(q[2], z), SIMD3(q[3], z)))
    }
    return mesh
  }

  /// The net sheet and its two posts (see `courtParts`).
  static func netParts(_ read: Reader, halfWidth: Double, netHeight: Double) throws -> [VenuePart] {
    let atPosts = try read.optionalDim("net_height_at_posts") ?? netHeight
    let depth = try read.dim("net_depth")
    let postY = halfWidth + (try read.dim("net_overhang"))
    let postHeight = try read.dim("net_post_height")
    let postHalf = try read.dim("net_post_size") / 2
    let halfNet = try read.optionalDim("net_length").map { $0 / 2 } ?? postY
    func top(_ y: Double) -> Double { postY > 0 ? netHeight + (atPosts - netHeight) * abs(y) / postY : netHeight }
    func bottom(_ y: Double) -> Double { max(0, top(y) - depth) }
    var sheet = TriangleMesh()
    for (y0, y1) in [(-halfNet, 0.0), (0.0, halfNet)] {
      sheet.append(
        .quad(
          SIMD3(0, y0, bottom(y0)), SIMD3(0, y1, bottom(y1)), SIMD3(0, y1, top(y1)), SIMD3(0, y0, top(y0))))
    }
    var posts = TriangleMesh()
    for sy in [-1.0, 1.0] {
      posts.append(
        .box(from: SIMD3(-postHalf, sy * postY - postHalf, 0), to: SIMD3(postHalf, sy * postY + postHalf, postHeight)))
    }
    return [
      VenuePart(name: "net", colorKey: try read.color("net"), mesh: sheet, doubleSided: true),
      VenuePart(name: "posts", colorKey: try read.color("posts"), mesh: posts, doubleSided: false),
    ]
  }

  /// Both baskets: rings, backboards and supports (see `courtParts`).
  static func basketParts(_ read: Reader, halfLength: Double, ringHeight: Double) throws -> [VenuePart] {
    let tube = try read.dim("ring_tube_diameter") / 2
    let major = try read.dim("ring_inner_diameter") / 2 + tube
    let basketIn = try read.dim("basket_from_end_line")
    let boardHalfWidth = try read.dim("backboard_width") / 2
    let boardHeight = try read.dim("backboard_height")
    let boardThickness = try read.dim("backboard_thickness")
    let boardBottom = try read.dim("backboard_bottom")
    let boardIn = try read.dim("backboard_from_end_line")
    let supportOut = try read.dim("support_from_end_line")
    let support = try read.dim("support_size")
    let arm = try read.dim("support_arm_size")
    let boardMiddle = boardBottom + boardHeight / 2
    var rings = TriangleMesh()
    var boards = TriangleMesh()
    var supports = TriangleMesh()
    func box(_ x0: Double, _ x1: Double, halfY: Double, _ z0: Double, _ z1: Double) -> TriangleMesh {
      .box(from: SIMD3(min(x0, x1), -halfY, z0), to: SIMD3(max(x0, x1), halfY, z1))
    }
    for sx in [-1.0, 1.0] {
      rings.append(
        TriangleMesh.torus(majorRadius: major, minorRadius: tube, segments: ringSegments, sides: ringTubeSides)
          .offset(by: SIMD3(sx * (halfLength - basketIn), 0, ringHeight - tube)))
      let face = sx * (halfLength - boardIn)
      let back = face + sx * boardThickness
      boards.append(box(face, back, halfY: boardHalfWidth, boardBottom, boardBottom + boardHeight))
      let poleFront = sx * (halfLength + supportOut)
      supports.append(box(poleFront, poleFront + sx * support, halfY: support / 2, 0, boardMiddle + arm / 2))
      supports.append(box(back, poleFront, halfY: arm / 2, boardMiddle - arm / 2, boardMiddle + arm / 2))
    }
    return [
      VenuePart(name: "rings", colorKey: try read.color("rings"), mesh: rings, doubleSided: false),
      VenuePart(name: "backboards", colorKey: try read.color("backboards"), mesh: boards, doubleSided: false),
      VenuePart(name: "supports", colorKey: try read.color("supports"), mesh: supports, doubleSided: false),
    ]
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
