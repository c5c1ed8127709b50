import ArgumentParser
import MatchSceneAnalysis

extension SmoothingMethod: ExpressibleByArgument {}
