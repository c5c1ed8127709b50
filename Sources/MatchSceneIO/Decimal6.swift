/// Fixed-point decimal text with a set number of decimals, written without Foundation's slow
/// `String(format:)`: the exact rounding of `(x · 10ⁿ).rounded()`, so values round-trip within
/// 0.5·10⁻ⁿ.
struct Decimal6: CustomStringConvertible {
  let value: Double
  let decimals: Int
  init(_ value: Double, decimals: Int = 6) {
    self.value = value
    self.decimals = decimals
  }

  static let powers: [Double] = (0...9).map { var p = 1.0; for _ in 0..<$0 { p *= 10 }; return p }

  var description: String {
    guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
    let scaled = (value * Self.powers[decimals]).rounded()
    if scaled == 0 { return decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals) }
    let negative = scaled < 0
    var digits = String(Int64(abs(scaled)))
    if decimals > 0 {
      if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return negative ? "-" + digits : digits
  }
}
