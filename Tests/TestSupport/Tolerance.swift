import MatchSceneCore
import XCTest

/// Asserts that two 3-vectors agree within `absolute + relative · |expected|` (Euclidean distance).
public func assertClose(
  _ actual: SIMD3<Double>, _ expected: SIMD3<Double>, absolute: Double = 0, relative: Double = 0,
  _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
  let d = length(actual - expected)
  let tol = absolute + relative * length(expected)
  XCTAssert(
    d <= tol, "\(actual) vs \(expected): distance \(d) > tolerance \(tol). \(message())", file: file,
    line: line)
}

/// Asserts that two doubles agree within `absolute + relative · |expected|`.
public func assertClose(
  _ actual: Double, _ expected: Double, absolute: Double = 0, relative: Double = 0,
  _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
  let tol = absolute + relative * abs(expected)
  XCTAssert(
    abs(actual - expected) <= tol, "\(actual) vs \(expected): |Δ| \(abs(actual - expected)) > \(tol). \(message())",
    file: file, line: line)
}
