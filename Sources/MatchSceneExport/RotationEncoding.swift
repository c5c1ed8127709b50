/// How animated rotations are stored. glTF 2.0 §3.11 ("Animations", the table of sampler outputs)
/// allows Float32 and normalised signed and unsigned 8- and 16-bit integers for rotation outputs.
public enum RotationEncoding: Sendable, CaseIterable {
  /// Float32 x, y, z, w: 16 bytes a key, read by every glTF reader.
  case float
  /// Normalised SHORT x, y, z, w (`NormalizedShort`): 8 bytes a key, each component within 1/65534 of
  /// the Float32 value, so the decoded quaternion within 2/65534 of it: its direction within 6.1e-5 rad
  /// and its squared length within 6.1e-5 of 1, which viewers building the matrix without normalising
  /// turn into up to 1.2e-4 rad more (`KeyframeReduction.shownError`): 0.09 mm at the end of a 0.5 m
  /// limb at worst. Three.js r111 de-normalises them; assimp 5.2 does not (it copies the integers'
  /// bytes into floats).
  case normalizedShort
}

/// Signed 16-bit normalised integers (glTF 2.0 §3.11 "Animations": f = max(c / 32767, −1) and
/// c = round(f · 32767)).
enum NormalizedShort {
  /// The integer a reader decodes to the value nearest `f`, f clamped to [−1, 1]. −32768 is never
  /// produced (it decodes to −1 like −32767).
  static func encode(_ f: Float) -> Int16 {
    Int16((Swift.max(-1, Swift.min(1, Double(f))) * 32767).rounded())
  }

  /// The value a reader takes `c` for.
  static func decode(_ c: Int16) -> Double { Swift.max(Double(c) / 32767, -1) }

  /// `encode` of every component.
  static func encode(_ flat: [Float]) -> [Int16] { flat.map(encode) }

  /// The largest component error `|decode(encode(f)) − f|` can reach for f in [−1, 1]: half a step.
  static let maximumError = 0.5 / 32767
}
