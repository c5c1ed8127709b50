// The library pipeline (read → reconstruct → analyse → export) moves here from the command-line tool.
import MatchSceneCore
