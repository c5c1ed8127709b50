/// The least-cost assignment of rows to distinct columns of a cost matrix (rows ≤ columns), by the
/// Hungarian method with potentials (Kuhn 1955; Munkres 1957; the O(n²m) form of Jonker & Volgenant,
/// "A shortest augmenting path algorithm for dense and sparse linear assignment problems", Computing 38,
/// 1987).
enum OptimalAssignment {
  /// For each row, the column assigned to it; nil when `cost` is empty. Costs must be finite (a forbidden
  /// pair is a large cost).
  static func solve(_ cost: [[Double]]) -> [Int]? {
    let n = cost.count
    guard n > 0, let m = cost.first?.count, m >= n, cost.allSatisfy({ $0.count == m }) else { return nil }
    // 1-based arrays: column 0 is the virtual start of each augmenting path.
    var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: m + 1)
    var rowOfColumn = [Int](repeating: 0, count: m + 1), way = [Int](repeating: 0, count: m + 1)
    for i in 1...n {
      rowOfColumn[0] = i
      var j0 = 0
      var minSlack = [Double](repeating: .infinity, count: m + 1)
      var used = [Bool](repeating: false, count: m + 1)
      repeat {
        used[j0] = true
        let i0 = rowOfColumn[j0]
        var delta = Double.infinity, j1 = 0
        for j in 1...m where !used[j] {
          let reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
          if reduced < minSlack[j] {
            minSlack[j] = reduced
            way[j] = j0
          }
          if minSlack[j] < delta {
            delta = minSlack[j]
            j1 = j
          }
        }
        for j in 0...m {
          if used[j] {
            u[rowOfColumn[j]] += delta
            v[j] -= delta
          } else {
            minSlack[j] -= delta
          }
        }
        j0 = j1
      } while rowOfColumn[j0] != 0
      repeat {
        let j1 = way[j0]
        rowOfColumn[j0] = rowOfColumn[j1]
        j0 = j1
      } while j0 != 0
    }
    var columnOfRow = [Int](repeating: 0, count: n)
    for j in 1...m where rowOfColumn[j] != 0 { columnOfRow[rowOfColumn[j] - 1] = j - 1 }
    return columnOfRow
  }
}
