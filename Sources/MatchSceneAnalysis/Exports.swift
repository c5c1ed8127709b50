// `import MatchSceneAnalysis` keeps giving what it gave before the stages got modules of their own: the
// time analysis (`MatchAnalyzer`), the motion stage (smoothing, bone lengths) and ball play (flights,
// events, the score).
@_exported import MatchSceneBallPlay
@_exported import MatchSceneMotion
