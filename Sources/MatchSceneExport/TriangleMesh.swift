import MatchSceneCore

/// An indexed triangle mesh in metres: positions, unit normals (one per position) and counter-clockwise
/// triangles seen from outside (glTF 2.0 §3.7.2.1: front faces are counter-clockwise).
public struct TriangleMesh: Sendable, Equatable {
  public var positions: [SIMD3<Double>]
  public var normals: [SIMD3<Double>]
  public var indices: [UInt32]

  public init(positions: [SIMD3<Double>] = [], normals: [SIMD3<Double>] = [], indices: [UInt32] = []) {
    self.positions = positions
    self.normals = normals
    self.indices = indices
  }

  public var triangleCount: Int { indices.count / 3 }

  /// Appends `other`, shifting its indices.
  public mutating func append(_ other: TriangleMesh) {
    let base = UInt32(positions.count)
    positions += other.positions
    normals += other.normals
    indices += other.indices.map { $0 + base }
  }

  /// A flat-shaded planar quad with corners `a, b, c, d` in counter-clockwise order seen from its front.
  public static func quad(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, _ d: SIMD3<Double>)
    -> TriangleMesh
  {
    let n = normalize(cross(b - a, c - a))
    return TriangleMesh(positions: [a, b, c, d], normals: [n, n, n, n], indices: [0, 1, 2, 0, 2, 3])
  }

  /// A flat-shaded axis-aligned box between corners `lo` and `hi` (24 vertices, 12 triangles).
  public static func box(from lo: SIMD3<Double>, to hi: SIMD3<Double>) -> TriangleMesh {
    func p(_ x: Bool, _ y: Bool, _ z: Bool) -> SIMD3<Double> {
      SIMD3(x ? hi.x : lo.x, y ? hi.y : lo.y, z ? hi.z : lo.z)
    }
    var mesh = TriangleMesh()
    mesh.append(.quad(p(true, false, false), p(true, true, false), p(true, true, true), p(true, false, true)))  // +x
    mesh.append(.quad(p(false, false, false), p(false, false, true), p(false, true, true), p(false, true, false)))  // −x
    mesh.append(.quad(p(false, true, false), p(false, true, true), p(true, true, true), p(true, true, false)))  // +y
    mesh.append(.quad(p(false, false, false), p(true, false, false), p(true, false, true), p(false, false, true)))  // −y
    mesh.append(.quad(p(false, false, true), p(true, false, true), p(true, true, true), p(false, true, true)))  // +z
    mesh.append(.quad(p(false, false, false), p(false, true, false), p(true, true, false), p(true, false, false)))  // −z
    return mesh
  }

  /// A geodesic icosphere of `radius` about the origin: the regular icosahedron (20 faces) with each
  /// triangle split into four `subdivisions` times and the vertices pushed onto the sphere; one
  /// subdivision gives 80 triangles and 42 vertices. Normals are the radial directions (smooth shading).
  public static func icosphere(radius: Double, subdivisions: Int = 1) -> TriangleMesh {
    let t = (1 + 5.0.squareRoot()) / 2  // golden ratio: icosahedron vertices (0, ±1, ±t) cyclically
    var unit: [SIMD3<Double>] = [
      [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
      [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
    ].map { normalize($0) }
    var faces: [(Int, Int, Int)] = [
      (0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6),
      (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
      (8, 6, 7), (9, 8, 1),
    ]
    for _ in 0..<max(0, subdivisions) {
      var midpoint: [Int64: Int] = [:]
      func middle(_ a: Int, _ b: Int) -> Int {
        let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
        if let m = midpoint[key] { return m }
        unit.append(normalize(unit[a] + unit[b]))
        midpoint[key] = unit.count - 1
        return unit.count - 1
      }
      var next: [(Int, Int, Int)] = []
      for (a, b, c) in faces {
        let ab = middle(a, b)
        let bc = middle(b, c)
        let ca = middle(c, a)
        next += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
      }
      faces = next
    }
    return TriangleMesh(
      positions: unit.map { $0 * radius }, normals: unit,
      indices: faces.flatMap { [UInt32($0.0), UInt32($0.1), UInt32($0.2)] })
  }

  /// This mesh moved by `offset`, metres.
  public func offset(by offset: SIMD3<Double>) -> TriangleMesh {
    TriangleMesh(positions: positions.map { $0 + offset }, normals: normals, indices: indices)
  }

  /// A smooth-shaded torus about the z axis through the origin: a tube of radius `minorRadius` around
  /// the circle of radius `majorRadius` in the x–y plane, `segments` steps around the circle and `sides`
  /// around the tube (`segments × sides` vertices, twice as many triangles). Normals point away from
  /// the tube's centre line.
  /// - Precondition: `segments >= 3`, `sides >= 3`, `0 < minorRadius < majorRadius`.
  public static func torus(majorRadius: Double, minorRadius: Double, segments: Int, sides: Int) -> TriangleMesh {
    precondition(segments >= 3 && sides >= 3, "a torus needs at least 3 segments and 3 sides")
    precondition(minorRadius > 0 && minorRadius < majorRadius, "the tube must be thinner than the ring")
    var mesh = TriangleMesh()
    for i in 0..<segments {
      let u = 2 * Double.pi * Double(i) / Double(segments)
      let radial = SIMD3(cos(u), sin(u), 0)
      for j in 0..<sides {
        let v = 2 * Double.pi * Double(j) / Double(sides)
        let n = cos(v) * radial + sin(v) * SIMD3(0, 0, 1)
        mesh.positions.append(majorRadius * radial + minorRadius * n)
        mesh.normals.append(n)
      }
    }
    func index(_ i: Int, _ j: Int) -> UInt32 { UInt32((i % segments) * sides + j % sides) }
    for i in 0..<segments {
      for j in 0..<sides {
        // (u, v), (u + 1, v), (u + 1, v + 1), (u, v + 1): counter-clockwise seen from outside the tube.
        let a = index(i, j), b = index(i + 1, j), c = index(i + 1, j + 1), d = index(i, j + 1)
        mesh.indices += [a, b, c, a, c, d]
      }
    }
    return mesh
  }

  /// A flat-shaded right prism with a regular `sides`-gon cross-section of circumradius `radius` in the
  /// x–z plane, running along +y from y = 0 to y = 1 (so a node scale of (1, L, 1) makes it L long).
  /// - Precondition: `sides >= 3`.
  public static func prismAlongY(radius: Double, sides: Int = 6) -> TriangleMesh {
    precondition(sides >= 3, "a prism needs at least 3 sides")
    func ring(_ k: Int, _ y: Double) -> SIMD3<Double> {
      let a = 2 * Double.pi * Double(k) / Double(sides)
      return SIMD3(radius * cos(a), y, -radius * sin(a))
    }
    var mesh = TriangleMesh()
    for k in 0..<sides {
      // Counter-clockwise seen from outside: bottom k, bottom k+1, top k+1, top k.
      mesh.append(.quad(ring(k, 0), ring(k + 1, 0), ring(k + 1, 1), ring(k, 1)))
    }
    // Caps as fans: top seen from +y, bottom seen from −y.
    var top = TriangleMesh()
    var bottom = TriangleMesh()
    for k in 0..<sides {
      top.positions.append(ring(k, 1))
      top.normals.append(SIMD3(0, 1, 0))
      bottom.positions.append(ring(k, 0))
      bottom.normals.append(SIMD3(0, -1, 0))
    }
    for k in 1..<(sides - 1) {
      top.indices += [0, UInt32(k), UInt32(k + 1)]
      bottom.indices += [0, UInt32(k + 1), UInt32(k)]
    }
    mesh.append(top)
    mesh.append(bottom)
    return mesh
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
