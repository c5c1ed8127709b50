import Foundation
import MatchSceneCore
import MatchSceneIO
import TestSupport
import XCTest

final class EventsJSONTests: XCTestCase {
  let events = [
    MatchEvent(type: .rallyStart, frame: 10, time: 1 / 6, track: "P1", position: SIMD3(1, 2, 3), speed: 5, rally: 1),
    MatchEvent(type: .bounce, frame: 20, time: 1 / 3, position: SIMD3(0.5, 0, 0.78), surface: .table, side: .positiveX, rally: 1),
    MatchEvent(type: .rallyEnd, frame: 95, time: 95.0 / 60),
  ]

  func testRoundTripSortedAndPretty() throws {
    let url = try makeTemporaryFolder().appendingPathComponent("events.json")
    try EventsJSON.write(events, to: url)
    XCTAssertEqual(try EventsJSON.read(from: url), events)
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("{\n  \"events\" : [\n    {\n      \"frame\" : 10,\n      \"position\" : ["), text)
    XCTAssertTrue(text.contains("\"type\" : \"rally_start\""), text)
    let bounce = try XCTUnwrap(text.range(of: "\"frame\" : 20")), side = try XCTUnwrap(text.range(of: "\"side\""))
    let surface = try XCTUnwrap(text.range(of: "\"surface\""))
    XCTAssertTrue(bounce.lowerBound < side.lowerBound && side.lowerBound < surface.lowerBound, "keys sorted")
  }

  func testErrorsNameFileAndPosition() {
    func parse(_ s: String) throws -> [MatchEvent] { try EventsJSON.parse(Data(s.utf8), file: "events.json") }
    assertInputError(try parse(""), contains: ["events.json: empty file"])
    assertInputError(try parse("{\"events\": [\n{\"type\": \"bounce\","), contains: ["events.json:2:", "not valid JSON"])
    assertInputError(try parse("{\"events\": [{\"type\": \"smash\", \"frame\": 1, \"time\": 0}]}"),
                     contains: ["[events[0].type]", "bounce, hit, net, rally_start, rally_end"])
    assertInputError(try parse("{\"events\": [{\"type\": \"hit\", \"time\": 0}]}"), contains: ["[events[0].frame]: missing"])
    assertInputError(try parse("{\"events\": [{\"type\": \"hit\", \"frame\": 1, \"time\": 0, \"position\": [1, 2]}]}"),
                     contains: ["events[0].position", "three numbers"])
    assertInputError(try parse("{\"events\": [{\"type\": \"bounce\", \"frame\": 1, \"time\": 0, \"surface\": \"grass\"}]}"),
                     contains: ["[events[0].surface]", "table, floor"])
    assertInputError(try parse("{\"evts\": []}"), contains: ["[events]: missing"])
    assertInputError(try EventsJSON.read(from: URL(fileURLWithPath: "/nonexistent/events.json")), contains: ["/nonexistent/events.json: cannot read"])
  }
}
