import ArgumentParser
import MatchSceneIO

extension TracksLayout: ExpressibleByArgument {}
