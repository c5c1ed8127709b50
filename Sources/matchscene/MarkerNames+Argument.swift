import ArgumentParser
import MatchSceneIO

extension MarkerNames: ExpressibleByArgument {}
