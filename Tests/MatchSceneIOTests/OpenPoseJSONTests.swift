import Foundation
import MatchSceneCore
@testable import MatchSceneIO
import TestSupport
import XCTest

/// The OpenPose JSON reader (`OpenPoseJSON`, behind `OpenPoseFolder.parse`): every shape OpenPose
/// writes, malformed input located and never a crash, and the same numbers as Foundation's JSON
/// readers bit for bit on generated files.
final class OpenPoseJSONTests: XCTestCase {
  let file = "cam01_json/cam01_000000000007_keypoints.json"

  func parse(_ text: String, count: Int = 1) throws -> [PersonDetection2D] {
    try OpenPoseFolder.parse(Data(text.utf8), file: file, keypointCount: count)
  }

  func message(_ bytes: [UInt8], count: Int = 1) -> String {
    do {
      _ = try OpenPoseFolder.parse(Data(bytes), file: file, keypointCount: count)
      return "no error"
    } catch let error as InputError {
      return "\(error)"
    } catch {
      return "not an InputError: \(error)"
    }
  }

  func message(_ text: String, count: Int = 1) -> String { message(Array(text.utf8), count: count) }

  // MARK: Valid shapes

  func testEveryShapeOpenPoseWrites() throws {
    XCTAssertEqual(try parse("{\"version\":1.3,\"people\":[]}"), [])
    XCTAssertEqual(try parse("{\"people\":[]}"), [])
    // OpenPose 1.7 with face and hands, 3D arrays, and part_candidates (an array of objects of arrays).
    let full = """
      {"version":1.3,"part_candidates":[{"0":[958.2,412.7,0.93],"1":[]}],
       "people":[{"person_id":[-1],"pose_keypoints_2d":[10.5,20.25,0.5],
         "face_keypoints_2d":[1,2,0.1,3,4,0.2],"hand_left_keypoints_2d":[],"hand_right_keypoints_2d":[5,6,0.3],
         "pose_keypoints_3d":[],"face_keypoints_3d":[],"hand_left_keypoints_3d":[],"hand_right_keypoints_3d":[]}]}
      """
    XCTAssertEqual(try parse(full), [PersonDetection2D(keypoints: [Keypoint2D(x: 10.5, y: 20.25, confidence: 0.5)])])
    // Keys in any order, nulls and every literal in ignored keys, nested objects, strings with escapes.
    let odd = """
      {"extra":{"a":[true,false,null,{"b":"x\\"y\\\\z\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"}]},"version":null,
       "people":[{"pose_keypoints_2d":[1,2,3],"person_id":null,"note":"caf\u{e9} \u{1F3D3}"}],"z":-0.0e-0}
      """
    XCTAssertEqual(try parse(odd), [PersonDetection2D(keypoints: [Keypoint2D(x: 1, y: 2, confidence: 3)])])
    // Exponents in every spelling, negative zero, integers.
    let numbers = try parse("{\"people\":[{\"pose_keypoints_2d\":[1.5e2,-2E-1,25e+0]},{\"pose_keypoints_2d\":[-0,0,1E0]}]}")
    XCTAssertEqual(numbers.map(\.keypoints), [[Keypoint2D(x: 150, y: -0.2, confidence: 25)], [Keypoint2D(x: 0, y: 0, confidence: 1)]])
    XCTAssertEqual(numbers[1].keypoints[0].x.sign, .minus, "-0 stays negative zero, as strtod reads it")
    // Unicode escapes in keys name the same keys.
    XCTAssertEqual(
      try parse("{\"peopl\\u0065\":[{\"pose_\\u006Beypoints_2d\":[7,8,0.5]}]}"),
      [PersonDetection2D(keypoints: [Keypoint2D(x: 7, y: 8, confidence: 0.5)])])
    // White space of every JSON kind everywhere, CRLF line ends, a UTF-8 byte order mark.
    let spaced = "\u{FEFF} \t\r\n{ \"people\" :\r\n [ { \"pose_keypoints_2d\" : [ 1 ,\t2 , 0.5 ] } ] }\r\n\n "
    XCTAssertEqual(try parse(spaced), [PersonDetection2D(keypoints: [Keypoint2D(x: 1, y: 2, confidence: 0.5)])])
    // Tiny numbers underflow to zero (as in Foundation); long mantissas are correctly rounded.
    let tiny = try parse("{\"people\":[{\"pose_keypoints_2d\":[1e-400,0.1000000000000000055511151231257827,123456789012345678901234567890e-27]}]}")
    XCTAssertEqual(tiny[0].keypoints[0], Keypoint2D(x: 0, y: 0.1, confidence: 123.45678901234568))
    // A huge number where nobody reads it is valid JSON.
    XCTAssertEqual(try parse("{\"version\":1e999,\"people\":[]}"), [])
  }

  func testNullKeypointsAreMissingAndTheLastRepeatedKeyCounts() throws {
    XCTAssertTrue(message("{\"people\":[{\"pose_keypoints_2d\":null}]}").contains("[people[0].pose_keypoints_2d]: missing"))
    XCTAssertEqual(
      try parse("{\"people\":[{\"pose_keypoints_2d\":[1,1,1],\"pose_keypoints_2d\":[2,2,0.5]}]}"),
      [PersonDetection2D(keypoints: [Keypoint2D(x: 2, y: 2, confidence: 0.5)])])
  }

  /// An empty `pose_keypoints_2d` is an empty person slot (Pose2Sim 0.8's multi-person demo,
  /// `S00_P01_T02_Participants1-2`, writes `{"person_id":[-1],"pose_keypoints_2d":[],…}` before the
  /// people it found): skipped, the other people read; a short non-empty array is still an error.
  func testAnEmptyPersonSlotIsSkipped() throws {
    let text = """
      {"version":1.3,"people":[{"person_id":[-1],"pose_keypoints_2d":[],"face_keypoints_2d":[]},
       {"person_id":[-1],"pose_keypoints_2d":[79.38,331.75,0.45,89.99,326.37,0.44]}]}
      """
    XCTAssertEqual(
      try parse(text, count: 2),
      [PersonDetection2D(keypoints: [Keypoint2D(x: 79.38, y: 331.75, confidence: 0.45), Keypoint2D(x: 89.99, y: 326.37, confidence: 0.44)])])
    XCTAssertEqual(try parse("{\"people\":[{\"pose_keypoints_2d\":[]}]}", count: 2), [])
    XCTAssertTrue(
      message("{\"people\":[{\"pose_keypoints_2d\":[1,2,0.5]}]}", count: 2).contains("person 0 has 3 numbers; expected 6"))
  }

  /// File names are read by bytes when ASCII (`asciiFrameNumber`): the same frames as character by
  /// character, on names built from the pieces that matter.
  func testFrameNumbersByBytesEqualByCharacters() {
    var random = SeededGenerator(seed: 17)
    let pieces = [
      "cam01", "_", "-", "0", "7", "123", "000000000042", "_keypoints", ".json", ".JSON", ".Json", "x", "Z", ".",
      "1234567890123456789", "@", "`", "[", "{", "\u{0E}json", "_KEYPOINTS",
    ]
    var frames = 0
    for _ in 0..<5000 {
      let name = (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
      let ascii = OpenPoseFolder.asciiFrameNumber(of: name)
      XCTAssertNotNil(ascii, name)
      XCTAssertEqual(ascii ?? nil, OpenPoseFolder.unicodeFrameNumber(of: name), name)
      XCTAssertEqual(OpenPoseFolder.hasJSONSuffix(name), name.lowercased().hasSuffix(".json"), name)
      if ascii != nil && ascii! != nil { frames += 1 }
    }
    XCTAssertGreaterThan(frames, 500)
    XCTAssertNil(OpenPoseFolder.asciiFrameNumber(of: "cam\u{e9}_000000000007_keypoints.json"), "not ASCII: by characters")
    XCTAssertEqual(OpenPoseFolder.frameNumber(of: "cam\u{e9}_000000000007_keypoints.json"), 7)
  }

  // MARK: Malformed input

  func testEveryTruncationIsLocatedAtTheEnd() {
    let text = Array("{\"version\":1.3,\n\"people\":[{\"person_id\":[-1],\"pose_keypoints_2d\":[1.5,-2e1,0.25]}]}".utf8)
    for cut in 1..<text.count {
      let m = message(Array(text[..<cut]))
      let lines = text[..<cut].split(separator: 0x0A, omittingEmptySubsequences: false)
      let at = "\(lines.count):\(lines.last!.count + 1):"
      XCTAssertTrue(m.hasPrefix("\(file):\(at) not valid JSON (truncated or malformed)"), "cut at \(cut): \(m)")
    }
  }

  func testMalformedTextNamesLineColumnAndWhatWasExpected() {
    let cases: [(String, String, String)] = [
      ("{\"people\":[{\"pose_keypoints_2d\":[NaN]}]}", "1:34", "expected a value"),
      ("{\"people\":[{\"pose_keypoints_2d\":[Infinity]}]}", "1:34", "expected a value"),
      ("{\"people\":[{\"pose_keypoints_2d\":[-Infinity]}]}", "1:35", "expected a digit"),
      ("{\"people\":[{\"pose_keypoints_2d\":[01,2,3]}]}", "1:35", "no leading zeros"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1.,2,3]}]}", "1:36", "a digit after the decimal point"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1e,2,3]}]}", "1:36", "a digit in the exponent"),
      ("{\"people\":[{\"pose_keypoints_2d\":[+1,2,3]}]}", "1:34", "expected a value"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,2,3,]}]}", "1:40", "expected a value"),
      ("{\"people\":[],}", "1:14", "a key in double quotes"),
      ("{'people':[]}", "1:2", "a key in double quotes"),
      ("{\"people\" []}", "1:11", "':' after the key"),
      ("{\"people\":[]} {}", "1:15", "the end of the file"),
      ("{\"people\":[]}\n// comment", "2:1", "the end of the file"),
      ("{\"people\":[],\n\"v\":tru}", "2:5", "expected a value"),
      ("{\"v\":\"a\u{01}b\",\"people\":[]}", "1:8", "control characters must be escaped"),
      ("{\"v\":\"\\x\",\"people\":[]}", "1:8", "an escape"),
      ("{\"v\":\"\\u12G4\",\"people\":[]}", "1:11", "four hex digits"),
      ("{\"v\":\"\\udc00\",\"people\":[]}", "1:7", "a high surrogate before a low one"),
      ("{\"v\":\"\\ud800x\",\"people\":[]}", "1:13", "a low surrogate"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,2 3]}]}", "1:38", "',' or ']' in an array"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,2,3]]}", "1:40", "',' or '}' in an object"),
    ]
    for (text, at, expected) in cases {
      let m = message(text)
      XCTAssertTrue(m.hasPrefix("\(file):\(at): not valid JSON (truncated or malformed)"), "\(text): \(m)")
      XCTAssertTrue(m.contains(expected), "\(text): \(m)")
    }
    // Invalid UTF-8 in a string: a stray continuation byte, an overlong form, an encoded surrogate.
    for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82]] {
      let bytes = Array("{\"v\":\"a".utf8) + bad + Array("\",\"people\":[]}".utf8)
      let m = message(bytes)
      XCTAssertTrue(m.contains(":1:8: not valid JSON") && m.contains("UTF-8"), "\(bad): \(m)")
    }
  }

  func testWrongTypesNameTheKey() {
    let cases: [(String, String)] = [
      ("[1,2]", ":1:1: wrong type; expected an object"),
      ("  \"people\"", ":1:3: wrong type; expected an object"),
      ("{\"people\":null}", "[people]: wrong type; expected an array of people"),
      ("{\"people\":{\"pose_keypoints_2d\":[]}}", "[people]: wrong type"),
      ("{\"people\":[3]}", "[people[0]]: wrong type; expected an object"),
      ("{\"people\":[{\"pose_keypoints_2d\":\"1,2,3\"}]}", "[people[0].pose_keypoints_2d]: wrong type; expected an array of 3 numbers"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,\"2\",3]}]}", "[people[0].pose_keypoints_2d[1]]: wrong type"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,2,[3]]}]}", "[people[0].pose_keypoints_2d[2]]: wrong type"),
      ("{\"people\":[{\"pose_keypoints_2d\":[true,2,3]}]}", "[people[0].pose_keypoints_2d[0]]: wrong type"),
      ("{\"people\":[{\"pose_keypoints_2d\":[1,2,3]},{\"pose_keypoints_2d\":[1,2,1e309]}]}",
       "[people[1].pose_keypoints_2d[2]]: the number 1e309 is too large for a Double"),
      ("{\"people\":[{\"pose_keypoints_2d\":[-1e400,2,3]}]}", "[people[0].pose_keypoints_2d[0]]: the number -1e400 is too large"),
    ]
    for (text, expected) in cases {
      let m = message(text)
      XCTAssertTrue(m.hasPrefix(file) && m.contains(expected), "\(text): \(m)")
    }
    // A syntax error later in the file wins over the wrong type before it, as with JSONDecoder.
    let both = message("{\"people\":3,\"v\":[1,2,}")
    XCTAssertTrue(both.contains(":1:22: not valid JSON"), both)
  }

  func testDeepNestingIsAnErrorNotAStackOverflow() {
    let deep = "{\"people\":[],\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
    let m = message(deep)
    XCTAssertTrue(m.contains(":1:530: not valid JSON") && m.contains("at most 512 nested"), String(m.prefix(300)))
    let fine = "{\"people\":[],\"x\":" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}"
    XCTAssertEqual(message(fine), "no error")
    let objects = "{\"people\":[]," + String(repeating: "\"k\":{", count: 600) + String(repeating: "}", count: 600) + "}"
    XCTAssertTrue(message(objects).contains("at most 512 nested"))
  }

  /// Random bytes and random mutations of a valid frame: an `InputError` or people, never a crash.
  func testRandomAndMutatedBytesNeverCrash() {
    var random = SeededGenerator(seed: 16)
    let valid = Array(openPoseFrame.utf8)
    let alphabet = Array("{}[],:\"\\-+.0123456789eEtrufalsn \n\tu".utf8) + [0x00, 0x80, 0xC3, 0xFF]
    var errors = 0, parsed = 0
    for round in 0..<3000 {
      var bytes = valid
      if round % 10 == 0 {
        bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
      } else {
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: bytes[at] = alphabet.randomElement(using: &random)!
          case 1: bytes.remove(at: at)
          default: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
          }
        }
      }
      let m = message(bytes, count: 17)
      XCTAssertFalse(m.hasPrefix("not an InputError"), m)
      if m == "no error" { parsed += 1 } else { errors += 1 }
    }
    XCTAssertGreaterThan(errors, 2000)
    XCTAssertGreaterThan(parsed, 10, "some mutations (in numbers, white space) stay valid")
  }

  // MARK: Against Foundation

  /// OpenPose's frame as Foundation decodes it (the decoder `OpenPoseFolder` used before).
  struct FoundationFrame: Decodable {
    struct Person: Decodable { var pose_keypoints_2d: [Double]? }
    var people: [Person]
  }

  /// A generated frame: people with numbers in many spellings, extra keys, random white space.
  func generatedFrame(_ random: inout SeededGenerator, count: Int) -> String {
    func space() -> String { ["", "", " ", "\n", "\t", " \r\n  "].randomElement(using: &random)! }
    func number() -> String {
      let value = random.uniform(-2000...2000)
      switch Int.random(in: 0..<8, using: &random) {
      case 0: return String(Int(value))
      case 1: return String(format: "%.6f", value)
      case 2: return String(format: "%.3e", value)
      case 3: return String(format: "%.17g", value)
      case 4: return "\(value)"
      case 5: return String(format: "%.20f", value / 1000)
      case 6: return String(format: "%.0fE%d", value * 1e5, Int.random(in: -30 ... -5, using: &random))
      default: return String(format: "%.6f", value).replacingOccurrences(of: ".000000", with: "")
      }
    }
    func array(_ n: Int) -> String { "[" + (0..<n).map { _ in space() + number() + space() }.joined(separator: ",") + "]" }
    let people = (0..<Int.random(in: 0...4, using: &random)).map { _ in
      var members = ["\"pose_keypoints_2d\":" + space() + array(3 * count)]
      if Bool.random(using: &random) { members.append("\"person_id\":[-1]") }
      if Bool.random(using: &random) { members.append("\"face_keypoints_2d\":" + array(Int.random(in: 0...9, using: &random))) }
      if Bool.random(using: &random) { members.append("\"hand_left_keypoints_3d\":[]") }
      members.shuffle(using: &random)
      return "{" + space() + members.joined(separator: "," + space()) + space() + "}"
    }
    var top = ["\"people\":" + space() + "[" + people.joined(separator: "," + space()) + "]"]
    if Bool.random(using: &random) { top.append("\"version\":1.3") }
    if Bool.random(using: &random) { top.append("\"part_candidates\":[{\"0\":" + array(6) + "}]") }
    top.shuffle(using: &random)
    return space() + "{" + top.joined(separator: "," + space()) + "}" + space()
  }

  func testSameNumbersAsFoundationOnGeneratedFrames() throws {
    var random = SeededGenerator(seed: 1600)
    var numbers = 0
    for _ in 0..<400 {
      let text = generatedFrame(&random, count: 17)
      let data = Data(text.utf8)
      let ours = try OpenPoseFolder.parse(data, file: file, keypointCount: 17)
      let decoded = try JSONDecoder().decode(FoundationFrame.self, from: data)
      let serialized = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let people = try XCTUnwrap(serialized["people"] as? [[String: Any]])
      XCTAssertEqual(ours.count, decoded.people.count)
      XCTAssertEqual(ours.count, people.count)
      for (p, person) in ours.enumerated() {
        let flat = person.keypoints.flatMap { [$0.x, $0.y, $0.confidence] }
        let theirs = try XCTUnwrap(decoded.people[p].pose_keypoints_2d)
        let viaSerialization = try XCTUnwrap(people[p]["pose_keypoints_2d"] as? [NSNumber]).map(\.doubleValue)
        XCTAssertEqual(flat.map(\.bitPattern), theirs.map(\.bitPattern), text)
        // JSONSerialization is not correctly rounded on Linux for 17 and more significant digits
        // (up to 5 ulp off seen): within 8 ulp of ours. JSONDecoder, which the reader replaces, is
        // correctly rounded, and agrees bit for bit.
        for k in flat.indices {
          XCTAssertLessThanOrEqual(abs(flat[k] - viaSerialization[k]), 8 * flat[k].ulp, text)
        }
        numbers += flat.count
      }
    }
    XCTAssertGreaterThan(numbers, 30_000)
  }

  /// What the reader before `OpenPoseJSON` (JSONDecoder, then the same checks) made of `data`.
  func foundationPeople(_ data: Data, count: Int) -> [[Double]]? {
    guard let frame = try? JSONDecoder().decode(FoundationFrame.self, from: data) else { return nil }
    var out: [[Double]] = []
    for person in frame.people {
      guard let numbers = person.pose_keypoints_2d, numbers.count == 3 * count,
        numbers.allSatisfy(\.isFinite), numbers.indices.allSatisfy({ $0 % 3 == 2 || abs(numbers[$0]) <= 1e6 })
      else { return nil }
      out.append(numbers)
    }
    return out
  }

  /// Mutated generated frames. On valid JSON (as JSONSerialization judges it) we accept exactly what
  /// JSONDecoder, the reader before, accepted, with the same numbers bit for bit. Known differences,
  /// where we are the stricter: JSONSerialization and JSONDecoder accept a trailing comma
  /// (`[1,2,]`), and JSONDecoder does not check numbers in keys it skips (`"face_keypoints_2d":[1.]`);
  /// both are errors here, as RFC 8259 says. JSONSerialization refuses a number too large for a
  /// Double even where nobody reads it; here only read numbers must fit.
  func testAcceptsWhatFoundationAccepts() throws {
    var random = SeededGenerator(seed: 1601)
    let alphabet = Array("{}[],:\"\\-+.0123456789eE \nnul".utf8)
    var accepted = 0, rejected = 0
    for _ in 0..<1500 {
      var bytes = Array(generatedFrame(&random, count: 1).utf8)
      let at = Int.random(in: 0..<bytes.count, using: &random)
      if Bool.random(using: &random) { bytes[at] = alphabet.randomElement(using: &random)! } else { bytes.remove(at: at) }
      let data = Data(bytes)
      let text = String(decoding: bytes, as: UTF8.self)
      let shown = String(reflecting: text)
      let ours = try? OpenPoseFolder.parse(data, file: file, keypointCount: 1)
      if ours == nil { rejected += 1 } else { accepted += 1 }
      let squeezed = text.filter { !" \t\r\n".contains($0) }
      let trailingComma = squeezed.contains(",]") || squeezed.contains(",}")
      if (try? JSONSerialization.jsonObject(with: data)) != nil {
        if trailingComma {
          XCTAssertTrue(message(bytes).contains("expected a value") || message(bytes).contains("expected a key"), shown)
          continue
        }
        XCTAssertEqual(
          ours.map { $0.map { $0.keypoints.flatMap { [$0.x, $0.y, $0.confidence] }.map(\.bitPattern) } },
          foundationPeople(data, count: 1).map { $0.map { $0.map(\.bitPattern) } }, "\(shown): \(message(bytes))")
      } else if ours != nil {
        XCTAssertNotNil(text.range(of: "[0-9][eE][+-]?[0-9]{3,}", options: .regularExpression), "only a huge number: \(shown)")
      }
    }
    XCTAssertGreaterThan(accepted, 200)
    XCTAssertGreaterThan(rejected, 200)
  }
}
