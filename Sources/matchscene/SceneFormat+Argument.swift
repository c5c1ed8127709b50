import ArgumentParser
import MatchScenePipeline

extension SceneFormat: ExpressibleByArgument {}
