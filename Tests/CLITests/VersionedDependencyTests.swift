import Foundation
import TestSupport
import XCTest

/// Another package can depend on MatchScene by version: a throwaway package names this working tree,
/// committed to a git repository of its own and tagged `1.0.0`, as `.package(url: "file://…", from: "1.0.0")`,
/// builds it (SwiftPM refuses unsafe flags in a versioned dependency) and runs the README's library example
/// (`Examples/LibraryUsage/main.swift`) linked against the `MatchScene` product.
/// Tools tier: it runs git and a whole `swift build` of the package (many minutes on two cores).
/// GRDB, TOMLKit and swift-argument-parser resolve the way this package's do (through git, so a
/// `url.<mirror>.insteadOf` setting applies to both).
final class VersionedDependencyTests: XCTestCase {
  func testAPackageDependingOnATaggedVersionRunsTheLibraryExample() throws {
    try requireTier(.integration)
    let git = URL(fileURLWithPath: try programOnPath("git", hint: "apt-get install -y git"))
    let swift = URL(fileURLWithPath: try programOnPath("swift", hint: "install the Swift toolchain"))
    let root = LibraryExampleTests.packageRoot
    let work = try makeTemporaryFolder("versioned-dependency")
    defer { try? FileManager.default.removeItem(at: work) }

    // The working tree as it is (tracked and untracked files, not ignored ones) in a repository tagged 1.0.0.
    let repository = work.appendingPathComponent("MatchScene")
    let listing = try runProgram(git, ["-C", root.path, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    XCTAssertEqual(listing.status, 0, listing.stderr)
    for path in listing.stdout.split(separator: "\0").map(String.init) {
      let source = root.appendingPathComponent(path)
      guard FileManager.default.fileExists(atPath: source.path) else { continue }  // deleted, not yet committed
      let target = repository.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: source, to: target)
    }
    let identity = ["-c", "user.name=MatchScene tests", "-c", "user.email=tests@matchscene.invalid"]
    for arguments in [["init", "-q"], ["add", "-A"], identity + ["commit", "-q", "-m", "snapshot"], ["tag", "1.0.0"]] {
      let run = try runProgram(git, ["-C", repository.path] + arguments)
      XCTAssertEqual(run.status, 0, "git \(arguments.joined(separator: " ")): \(run.stderr)")
    }

    // The throwaway package: the README's example as its executable.
    let consumer = work.appendingPathComponent("Consumer")
    let sources = consumer.appendingPathComponent("Sources/consumer")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: root.appendingPathComponent("Examples/LibraryUsage/main.swift"), to: sources.appendingPathComponent("main.swift"))
    let manifest = """
      // swift-tools-version:6.0
      import PackageDescription

      let package = Package(
        name: "Consumer",
        platforms: [.macOS(.v13)],
        dependencies: [.package(url: "\(repository.absoluteString)", from: "1.0.0")],
        targets: [
          .executableTarget(name: "consumer", dependencies: [.product(name: "MatchScene", package: "MatchScene")])
        ]
      )

      """
    try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let build = try runProgram(swift, ["build", "--package-path", consumer.path])
    XCTAssertEqual(build.status, 0, "swift build of the dependent package: \(build.stdout.suffix(3000)) \(build.stderr.suffix(3000))")
    guard build.status == 0 else { return }
    let resolved = try String(contentsOf: consumer.appendingPathComponent("Package.resolved"), encoding: .utf8)
    XCTAssertTrue(resolved.contains("\"version\" : \"1.0.0\""), "resolved by version: \(resolved)")

    // The example runs on a simulated match.
    let match = work.appendingPathComponent("match"), out = work.appendingPathComponent("out")
    let simulate = try runMatchScene(["simulate", "-o", match.path, "--duration", "4", "--seed", "5"])
    XCTAssertEqual(simulate.status, 0, simulate.stderr)
    let example = try runProgram(consumer.appendingPathComponent(".build/debug/consumer"), [match.path, out.path])
    XCTAssertEqual(example.status, 0, example.stderr)
    XCTAssertTrue(example.stdout.contains("players P1, P2"), example.stdout)
    XCTAssertTrue(example.stdout.contains("P1 right wrist at frame"), example.stdout)
    for file in ["tracks.csv", "events.json", "scene.glb", "report.json"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
    }
  }
}
