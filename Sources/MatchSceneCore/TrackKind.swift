/// What a track follows.
public enum TrackKind: String, Sendable, Codable, CaseIterable {
  /// A person who plays (`P1`, `P2`…): for table tennis, who stands behind an end through the rallies.
  case player
  case ball
  /// Anyone else seen (`B1`, `B2`…): a bystander, an umpire, a coach.
  case person
}
