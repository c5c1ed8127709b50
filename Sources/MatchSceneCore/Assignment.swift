/// The linear assignment problem: given an n × m cost matrix (n ≤ m), the row → column matching of
/// least total cost, every row matched to a distinct column.
///
/// The Hungarian method (Kuhn, "The Hungarian method for the assignment problem", Naval Research
/// Logistics Quarterly 2, 1955; Munkres, "Algorithms for the assignment and transportation problems",
/// J. SIAM 5, 1957) in its O(n² m) shortest-augmenting-path form with row and column potentials
/// (Jonker & Volgenant, "A shortest augmenting path algorithm for dense and sparse linear assignment
/// problems", Computing 38, 1987). Forbidden pairs carry a large finite cost (`Assignment.forbidden`):
/// the caller checks whether a chosen pair is one.
public enum Assignment {
  /// Cost of a pair that must not be chosen (finite, so that sums stay exact enough).
  public static let forbidden = 1e9

  /// - Parameter cost: `cost[i][j]`, n rows of m ≥ n finite values each.
  /// - Returns: the column of each row; `[]` for no rows.
  public static func solve(_ cost: [[Double]]) -> [Int] {
    let n = cost.count
    guard n > 0 else { return [] }
    let m = cost[0].count
    precondition(m >= n && cost.allSatisfy { $0.count == m }, "Assignment.solve needs n ≤ m columns in every row")
    // 1-based arrays with a virtual column 0 (the classic formulation).
    var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: m + 1)
    var rowOf = [Int](repeating: 0, count: m + 1), way = [Int](repeating: 0, count: m + 1)
    for i in 1...n {
      rowOf[0] = i
      var j0 = 0
      var minv = [Double](repeating: .infinity, count: m + 1)
      var used = [Bool](repeating: false, count: m + 1)
      repeat {
        used[j0] = true
        let i0 = rowOf[j0]
        var delta = Double.infinity, j1 = 0
        for j in 1...m where !used[j] {
          let reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
          if reduced < minv[j] {
            minv[j] = reduced
            way[j] = j0
          }
          if minv[j] < delta {
            delta = minv[j]
            j1 = j
          }
        }
        for j in 0...m {
          if used[j] {
            u[rowOf[j]] += delta
            v[j] -= delta
          } else {
            minv[j] -= delta
          }
        }
        j0 = j1
      } while rowOf[j0] != 0
      repeat {
        let j1 = way[j0]
        rowOf[j0] = rowOf[j1]
        j0 = j1
      } while j0 != 0
    }
    var columnOf = [Int](repeating: -1, count: n)
    for j in 1...m where rowOf[j] != 0 { columnOf[rowOf[j] - 1] = j - 1 }
    return columnOf
  }
}
