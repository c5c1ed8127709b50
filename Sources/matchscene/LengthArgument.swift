import ArgumentParser

/// A length on the command line: a number of metres (`0.001`), or a number with the unit `m`, `cm` or
/// `mm` (`1mm`, `0.5cm`, `0.002 m`). Negative and non-finite lengths are refused.
struct LengthArgument: ExpressibleByArgument {
  var metres: Double

  init(metres: Double) { self.metres = metres }

  init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
    let units: [(suffix: String, metres: Double)] = [("mm", 1e-3), ("cm", 1e-2), ("m", 1)]
    var number = Substring(text)
    var scale = 1.0
    if let unit = units.first(where: { text.hasSuffix($0.suffix) }) {
      number = text.dropLast(unit.suffix.count)
      scale = unit.metres
    }
    guard let x = Double(number.trimmingCharacters(in: .whitespaces)), x.isFinite, x >= 0 else { return nil }
    metres = x * scale
  }

  var defaultValueDescription: String { metres == 0 ? "0" : "\(metres) m" }
}
