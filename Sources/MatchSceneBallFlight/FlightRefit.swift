import MatchSceneCore

/// Refits a match's segmented flights with the match's own drag (`DragEstimate`) and each flight's
/// spin where the model test keeps it (`FlightFit.fitTestingSpin`). The flights keep their frames;
/// each is refitted to the observations its segmented path passes within the segmentation's gate of.
public struct FlightRefit: Sendable {
  /// The sport's flight model: its drag is the prior, its Magnus constant that of the spin fits.
  public var model: BallModel
  public var segmentation: FlightSegmentationOptions
  public var dragOptions: DragEstimateOptions

  public init(model: BallModel, segmentation: FlightSegmentationOptions = .init(), dragOptions: DragEstimateOptions = .init()) {
    self.model = model
    self.segmentation = segmentation
    self.dragOptions = dragOptions
  }

  /// The gate of `flight`'s observations: the segmentation's prediction gate.
  func gate(_ flight: BallFlight) -> Double { max(segmentation.breakDistance, segmentation.breakFactor * flight.rms) }

  /// The flights refitted (same order and frames) and the drag estimate they use. `observations` are
  /// sorted by frame.
  public func refit(
    _ flights: [BallFlight], observations: [(frame: Int, position: SIMD3<Double>)], fps: Double
  ) -> (flights: [BallFlight], drag: DragEstimate) {
    let estimate = DragEstimate.estimate(
      flights: flights, observations: observations, fps: fps, model: model, options: dragOptions, gate: { gate($0) })
    let matchModel = BallModel(gravity: model.gravity, drag: estimate.drag, magnus: model.magnus)
    let refitted = try! parallelMap(flights) { flight -> BallFlight in
      let samples = DragEstimate.samples(of: flight, observations, fps: fps, gate: gate(flight))
      guard samples.count >= segmentation.minSplitObservations,
        let fitted = FlightFit.fitTestingSpin(samples, model: matchModel, frames: flight.frames, start: flight),
        fitted.rms.isFinite
      else { return flight }
      return fitted
    }
    return (refitted, estimate)
  }
}
