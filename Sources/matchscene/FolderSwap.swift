import ArgumentParser
import Foundation

/// Builds a whole output folder beside its destination and moves it into place only when complete,
/// so an interrupted run never leaves a half-written folder.
enum FolderSwap {
  /// - Parameters:
  ///   - destination: the folder to create or (with `force`) replace.
  ///   - fill: writes the contents into the staging folder it is given.
  /// - Throws: when `destination` exists and is not empty and `force` is off, or when `fill` throws
  ///   (the staging folder is removed then).
  static func replace(_ destination: URL, force: Bool, fill: (URL) throws -> Void) throws {
    let fm = FileManager.default
    let existing = (try? fm.contentsOfDirectory(atPath: destination.path)) ?? []
    if fm.fileExists(atPath: destination.path), !existing.isEmpty, !force {
      throw CommandFailure("\(destination.path) exists and is not empty; pass --force to replace it")
    }
    let parent = destination.deletingLastPathComponent()
    try fm.createDirectory(at: parent, withIntermediateDirectories: true)
    let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
    do {
      try fm.createDirectory(at: staging, withIntermediateDirectories: true)
      try fill(staging)
      if fm.fileExists(atPath: destination.path) {
        let old = parent.appendingPathComponent(".\(destination.lastPathComponent).old-\(UUID().uuidString)")
        try fm.moveItem(at: destination, to: old)
        try fm.moveItem(at: staging, to: destination)
        try? fm.removeItem(at: old)
      } else {
        try fm.moveItem(at: staging, to: destination)
      }
    } catch {
      try? fm.removeItem(at: staging)
      throw error
    }
  }
}
