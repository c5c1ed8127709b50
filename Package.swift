// swift-tools-version:6.0
//
// MatchScene: multi-camera 2D detections in, 3D match scenes out.
// Data flows one way: read (MatchSceneIO) → reconstruct (MatchSceneGeometry, MatchSceneReconstruction)
// → analyse (MatchSceneMotion, MatchSceneBallPlay, MatchSceneAnalysis) → export (MatchSceneExport: glTF;
// MatchSceneAssimp: other formats; MatchSceneReview: overlays and the viewer page). MatchScenePipeline runs
// the whole chain for any Swift program; the `matchscene` command-line tool only parses arguments and calls it.

import PackageDescription

// MARK: - Shared settings

/// Eigen's include path comes from pkg-config through the `CEigen` system library; no unsafe flags, so
/// other packages can depend on MatchScene by version.
let eigenSettings: [CXXSetting] = [
  .define("EIGEN_MPL2_ONLY"),
  // SwiftPM defines no NDEBUG for C++ in release builds, which leaves Eigen's run-time assertions on
  // every coefficient access; debug builds (the tests) keep them.
  .define("EIGEN_NO_DEBUG", .when(configuration: .release)),
]

let swiftSettings: [SwiftSetting] = []

let package = Package(
  name: "MatchScene",
  platforms: [.macOS(.v13)],
  products: [
    // MARK: - Public products
    // The command-line tool.
    .executable(name: "matchscene", targets: ["matchscene"]),
    // The library: every stage from reading a match folder to exporting it; `import` the modules you use
    // (`MatchScenePipeline` runs the whole chain, as `matchscene reconstruct` does).
    .library(
      name: "MatchScene",
      targets: [
        "MatchSceneCore", "MatchSceneIO", "MatchSceneGeometry", "MatchSceneReconstruction", "MatchSceneSimulation",
        "MatchSceneMotion", "MatchSceneBallPlay", "MatchSceneAnalysis", "MatchSceneEvaluation", "MatchSceneExport",
        "MatchSceneAssimp", "MatchSceneReview", "MatchScenePipeline", "MatchSceneForm",
      ]
    ),
    // The session store and batch runs: apart, because they bring GRDB (SQLite) with them.
    .library(name: "MatchSceneSessions", targets: ["MatchSceneSessions", "MatchSceneBatch"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    // The session store.
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
  ],
  targets: [
    // MARK: - Implementation details (shims, no stable API)
    // The calibration kernels use three OpenCV 4 modules (core, imgproc, calib3d; Debian: libopencv-dev),
    // linked by name: pkg-config's `opencv4` would link all of OpenCV's modules (hundreds of shared
    // libraries, Qt and GStreamer among them), which costs every command half a second at start-up.
    // OpenCV's headers come through `opencv4/opencv2`, a link to /usr/include/opencv4/opencv2.
    .target(
      name: "CTriangulation",
      dependencies: ["CEigen"],
      cxxSettings: eigenSettings + [.headerSearchPath("opencv4")],
      linkerSettings: [.linkedLibrary("opencv_calib3d"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]
    ),
    // SHA-256's block function (the CPU's SHA extensions when present) for input and output fingerprints.
    .target(name: "CSHA256"),
    .systemLibrary(
      name: "CEigen",
      pkgConfig: "eigen3",
      providers: [.apt(["libeigen3-dev"])]
    ),
    .systemLibrary(
      name: "CAssimp",
      pkgConfig: "assimp",
      providers: [.apt(["libassimp-dev"])]
    ),

    // MARK: - Library modules, in the order data flows
    .target(
      name: "MatchSceneCore",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneAssets",
      dependencies: ["MatchSceneCore", "MatchSceneIO", "MatchSceneBallFlight"],
      path: "Assets",
      exclude: ["README.md"],
      sources: ["Swift"],
      resources: [.copy("sports"), .copy("meshes")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneIO",
      dependencies: ["MatchSceneCore", "CSHA256", .product(name: "TOMLKit", package: "TOMLKit")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneGeometry",
      dependencies: ["MatchSceneCore", "CTriangulation"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneSimulation",
      dependencies: ["MatchSceneCore", "MatchSceneGeometry", "MatchSceneAssets", "MatchSceneIO", "MatchSceneBallPlay"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneBallFlight",
      dependencies: ["MatchSceneCore"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneReconstruction",
      dependencies: ["MatchSceneCore", "MatchSceneGeometry", "MatchSceneIO", "MatchSceneBallFlight"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneMotion",
      dependencies: ["MatchSceneCore"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneBallPlay",
      dependencies: ["MatchSceneCore", "MatchSceneBallFlight"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneAnalysis",
      dependencies: ["MatchSceneCore", "MatchSceneMotion", "MatchSceneBallPlay"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneEvaluation",
      dependencies: ["MatchSceneCore", "MatchSceneGeometry", "MatchSceneIO", "MatchSceneBallPlay"],
      resources: [.copy("Resources/aniposelib_compare.py")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneExport",
      dependencies: ["MatchSceneCore", "MatchSceneAssets"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneAssimp",
      dependencies: ["MatchSceneCore", "MatchSceneExport", "CAssimp"],
      resources: [.copy("Resources/import_matchscene.py")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneOpenSim",
      dependencies: ["MatchSceneCore", "MatchSceneIO"],
      resources: [.copy("Resources/opensim_ik.py"), .copy("Resources/Markers_Coco17.xml")],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchSceneReview",
      dependencies: ["MatchSceneCore", "MatchSceneGeometry", "MatchSceneIO", "MatchSceneForm"],
      swiftSettings: swiftSettings
    ),
    .target(
      name: "MatchScenePipeline",
      dependencies: [
        "MatchSceneCore", "MatchSceneIO", "MatchSceneAssets", "MatchSceneGeometry", "MatchSceneReconstruction",
        "MatchSceneAnalysis", "MatchSceneExport", "MatchSceneAssimp",
      ],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "matchscene",
      dependencies: [
        "MatchSceneCore", "MatchSceneIO", "MatchSceneGeometry", "MatchSceneReconstruction",
        "MatchSceneSimulation", "MatchSceneAnalysis", "MatchSceneEvaluation", "MatchSceneExport", "MatchSceneAssimp",
        "MatchSceneReview", "MatchScenePipeline", "MatchSceneAssets", "MatchSceneForm",
        "MatchSceneSessions", "MatchSceneBatch", "MatchSceneOpenSim",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),

    // MARK: - Sessions: the session store and comparisons across sessions
    .target(
      name: "MatchSceneSessions",
      dependencies: [
        "MatchSceneCore", "MatchSceneIO", "MatchSceneMotion", "MatchSceneBallPlay", "MatchSceneExport",
        "MatchSceneAssets", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MatchSceneSessionsTests",
      dependencies: [
        "MatchSceneSessions", "MatchSceneSimulation", "MatchSceneAssets", "MatchSceneIO", "MatchSceneExport", "TestSupport",
      ]
    ),

    // MARK: - Batch: many matches, sharded over a Slurm array or a Kubernetes Indexed Job
    .target(
      name: "MatchSceneBatch",
      dependencies: ["MatchSceneCore", "MatchSceneIO", "MatchSceneSessions"],
      swiftSettings: swiftSettings
    ),

    // MARK: - Form analysis: joint angles, strokes, reference scores, clips
    .target(
      name: "MatchSceneForm",
      dependencies: ["MatchSceneCore", "MatchSceneIO", "MatchSceneAssets", "MatchSceneExport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "MatchSceneFormTests",
      dependencies: [
        "MatchSceneForm", "MatchSceneSimulation", "MatchScenePipeline", "MatchSceneIO", "MatchSceneExport",
        "MatchSceneReview", "TestSupport",
      ]
    ),

    // MARK: - Examples (compiled with the package; README's "Using MatchScene from Swift" is this file)
    .executableTarget(
      name: "matchscene-library-example",
      dependencies: ["MatchSceneCore", "MatchScenePipeline"],
      path: "Examples/LibraryUsage"
    ),

    // MARK: - Tests
    .target(
      name: "TestSupport",
      dependencies: ["MatchSceneCore"],
      path: "Tests/TestSupport"
    ),
    .testTarget(name: "MatchSceneCoreTests", dependencies: ["MatchSceneCore", "TestSupport"]),
    .testTarget(name: "MatchSceneIOTests", dependencies: ["MatchSceneIO", "CSHA256", "TestSupport"]),
    .testTarget(name: "MatchSceneGeometryTests", dependencies: ["MatchSceneGeometry", "TestSupport"]),
    .testTarget(
      name: "MatchSceneSimulationTests",
      dependencies: ["MatchSceneSimulation", "MatchSceneGeometry", "TestSupport"]
    ),
    .testTarget(
      name: "MatchSceneReconstructionTests",
      dependencies: ["MatchSceneReconstruction", "MatchSceneSimulation", "TestSupport"]
    ),
    .testTarget(
      name: "MatchSceneAnalysisTests",
      dependencies: [
        "MatchSceneAnalysis", "MatchSceneMotion", "MatchSceneBallPlay", "MatchSceneEvaluation", "MatchSceneSimulation",
        "MatchSceneAssets", "MatchSceneIO", "TestSupport",
      ]
    ),
    .testTarget(
      name: "MatchSceneExportTests",
      dependencies: ["MatchSceneExport", "MatchSceneAssimp", "MatchSceneReview", "MatchSceneIO", "TestSupport"]
    ),
    .testTarget(
      name: "MatchScenePipelineTests",
      dependencies: ["MatchScenePipeline", "MatchSceneSimulation", "MatchSceneEvaluation", "MatchSceneIO", "TestSupport"]
    ),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "TestSupport", "MatchSceneIO", "MatchSceneExport", "MatchSceneAssimp", "MatchSceneAnalysis", "MatchSceneEvaluation",
        "MatchSceneBatch",
      ]
    ),
  ],
  cLanguageStandard: .c11,
  cxxLanguageStandard: .cxx17
)

// MARK: - Fuzzing: libFuzzer harnesses of every reader, only when MATCHSCENE_FUZZ=1
// They link libFuzzer's `main`, so an ordinary build cannot link them: `Tests/Fuzz/run.sh` builds them with
// `MATCHSCENE_FUZZ=1 swift build --build-path .build/fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`.
if Context.environment["MATCHSCENE_FUZZ"] == "1" {
  package.targets.append(
    .executableTarget(
      name: "matchscene-fuzz",
      dependencies: ["MatchSceneCore", "MatchSceneIO"],
      path: "Tests/Fuzz/Harnesses"
    ))
}
