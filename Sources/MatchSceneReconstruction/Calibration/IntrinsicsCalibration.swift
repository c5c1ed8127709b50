import Foundation
import MatchSceneCore
import MatchSceneGeometry
import MatchSceneIO

/// One camera's intrinsics from images of a checkerboard: the board's corners found in every image,
/// Zhang's method over the images that show it (`ZhangCalibration`), and outlier images rejected one at a
/// time while the overall error exceeds `minRejectPx` or one image's exceeds `rejectFactor` × the median:
/// each time the image whose removal lowers the overall RMS most (leave-one-out), then a recalibration.
public enum IntrinsicsCalibration {
  /// Settings of the calibration.
  public struct Options: Sendable {
    /// Brown–Conrady terms fitted: 0, 2 (k1 k2), 4 (k1 k2 p1 p2) or 5 (k1 k2 p1 p2 k3). Default 4, the
    /// model Pose2Sim and Qualisys calibrations carry (k3 is poorly determined by a few board views).
    public var distortionTerms = 4
    /// The fewest images showing the board a calibration needs. Default 3.
    public var minViews = 3
    /// Images are rejected while one image's RMS reprojection error exceeds this many times the median
    /// of the images' RMS (and `minRejectPx`). Default 3.
    public var rejectFactor = 3.0
    /// Images are rejected while the overall RMS exceeds this (pixels). Default 1.
    public var minRejectPx = 1.0
    /// Below this sharpness (variance of the Laplacian, grey levels²) an image without a board is
    /// reported as blurred. Default 30.
    public var blurThreshold = 30.0
    public init() {}
  }

  /// What became of one image.
  public struct ImageOutcome: Sendable, Codable, Equatable {
    public var file: String
    /// Whether the image took part in the final calibration.
    public var used: Bool
    /// Its RMS reprojection error in the last calibration it took part in, pixels.
    public var rmsPx: Double?
    /// Why it was left out, when it was.
    public var rejection: String?
  }

  /// A calibrated camera and the fate of its images.
  public struct Outcome: Sendable {
    /// Intrinsics and distortion; identity pose.
    public var camera: Camera
    public var rmsPx: Double
    public var images: [ImageOutcome]
  }

  /// Calibrates the camera `name` from `images`.
  /// - Throws: `InputError` naming the camera's images when fewer than `minViews` images show the board,
  ///   listing every image left out and why, and what to do.
  public static func calibrate(name: String, images: [URL], board: Checkerboard, options: Options = Options()) throws -> Outcome {
    var outcomes: [ImageOutcome] = []
    var views: [(index: Int, corners: [SIMD2<Double>])] = []
    var size: ImageSize?
    for file in images {
      let index = outcomes.count
      outcomes.append(ImageOutcome(file: file.path, used: false))
      let image: GreyImage
      do { image = try GreyImageFile.read(file) } catch {
        outcomes[index].rejection = "not a readable image (\((error as? InputError)?.message ?? "\(error)"))"
        continue
      }
      switch board.detect(in: image) {
      case .notFound(let s):
        let sharpness = Checkerboard.sharpness(of: image)
        outcomes[index].rejection = sharpness < options.blurThreshold
          ? String(format: "blurred (sharpness %.1f, below %.0f): no board found", sharpness, options.blurThreshold)
          : "no complete board of \(board.columns)×\(board.rows) inner corners found (\(s.width)×\(s.height) px)"
      case .found(let corners, let s):
        if let size, size != s {
          outcomes[index].rejection = "image size \(s.width)×\(s.height) differs from the camera's \(size.width)×\(size.height)"
          continue
        }
        size = s
        views.append((index, corners))
      }
    }
    func tooFew(_ reason: String) -> InputError {
      let left = outcomes.compactMap { o in o.rejection.map { "  \(o.file): \($0)" } }
      return InputError(
        file: images.first?.deletingLastPathComponent().path ?? name, location: .key(name),
        "\(reason) (need ≥ \(options.minViews)); take more images of the whole board, sharp, tilted in different directions and "
          + "filling different parts of the image" + (left.isEmpty ? "" : "; images left out:\n" + left.joined(separator: "\n")))
    }
    guard views.count >= options.minViews, let size else {
      throw tooFew("camera \(name): \(views.count) of \(images.count) image(s) show the board")
    }
    let target = board.objectPoints
    func solve(_ subset: [(index: Int, corners: [SIMD2<Double>])]) -> ZhangCalibration.Result? {
      ZhangCalibration.calibrate(
        name: name, target: target, views: subset.map(\.corners), imageSize: size, distortionTerms: options.distortionTerms)
    }
    while true {
      guard let result = solve(views) else {
        throw tooFew("camera \(name): the calibration does not converge with \(views.count) board view(s); the views may be too alike")
      }
      for (k, v) in views.enumerated() { outcomes[v.index].rmsPx = result.viewRMSPx[k] }
      let median = result.viewRMSPx.sorted()[result.viewRMSPx.count / 2]
      let limit = max(options.minRejectPx, options.rejectFactor * median)
      if views.count > options.minViews && (result.rmsPx > options.minRejectPx || result.viewRMSPx.max()! > limit) {
        // The view whose removal lowers the overall error most (leave-one-out): one bad view drags the
        // others' errors up with it, so the worst residual need not be the culprit.
        let trials = views.indices.map { k -> (k: Int, rms: Double) in
          var subset = views
          subset.remove(at: k)
          return (k, solve(subset)?.rmsPx ?? .infinity)
        }
        let best = trials.min { $0.rms < $1.rms }!
        if best.rms.isFinite && best.rms < result.rmsPx {
          outcomes[views[best.k].index].rejection = String(
            format: "outlier: %.2f px RMS in the calibration with it (%.2f px overall); without it %.2f px overall",
            result.viewRMSPx[best.k], result.rmsPx, best.rms)
          views.remove(at: best.k)
          continue
        }
      }
      for v in views { outcomes[v.index].used = true }
      return Outcome(camera: result.camera, rmsPx: result.rmsPx, images: outcomes)
    }
  }
}
