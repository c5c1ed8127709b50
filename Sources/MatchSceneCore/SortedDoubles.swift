/// Ascending sort of many doubles by least-significant-digit radix sort on order-preserving integer
/// keys (Knuth, TAOCP vol. 3, §5.2.5): four passes of 16 bits instead of a merge sort's log₂ n passes.
///
/// The result is the same array, bit for bit, as `values.sorted()`: the key of a double orders like
/// the double itself, and distinct doubles that compare equal (only −0 and +0) or unordered (NaN) make
/// it fall back to `sorted()`, as do small inputs, where the histograms would cost more than they save.
public func sortedDoubles(_ values: [Double]) -> [Double] {
  let n = values.count
  guard n >= 1 << 14 else { return values.sorted() }
  let signBit: UInt64 = 1 << 63
  var keys = [UInt64](repeating: 0, count: n)
  var unordered = false
  keys.withUnsafeMutableBufferPointer { k in
    values.withUnsafeBufferPointer { v in
      for i in 0..<n {
        let x = v[i]
        if x.isNaN || (x == 0 && x.sign == .minus) { unordered = true }
        let bits = x.bitPattern
        k[i] = bits & signBit == 0 ? bits | signBit : ~bits
      }
    }
  }
  if unordered { return values.sorted() }
  var other = [UInt64](repeating: 0, count: n)
  var counts = [Int](repeating: 0, count: 1 << 16)
  for shift in stride(from: 0, to: 64, by: 16) {
    let moved: Bool = keys.withUnsafeBufferPointer { src in
      other.withUnsafeMutableBufferPointer { dst in
        counts.withUnsafeMutableBufferPointer { c in
          c.update(repeating: 0)
          for key in src { c[Int(truncatingIfNeeded: (key >> UInt64(shift)) & 0xFFFF)] += 1 }
          // Every key shares this digit: the pass would not move anything.
          if c[Int(truncatingIfNeeded: (src[0] >> UInt64(shift)) & 0xFFFF)] == n { return false }
          var start = 0
          for d in 0..<c.count {
            let count = c[d]
            c[d] = start
            start += count
          }
          for key in src {
            let d = Int(truncatingIfNeeded: (key >> UInt64(shift)) & 0xFFFF)
            dst[c[d]] = key
            c[d] += 1
          }
          return true
        }
      }
    }
    if moved { swap(&keys, &other) }
  }
  return keys.map { key in Double(bitPattern: key & signBit != 0 ? key & ~signBit : ~key) }
}

/// Calls `body` with the values `emit` produces, in ascending order, held in a stack buffer of
/// `capacity` (an insertion sort: meant for a handful of values, such as one per joint), so that a
/// median over a pose allocates nothing. When a value is NaN, where the order a sort leaves could
/// matter, the values are emitted again into an array and `sort()`ed, so the result is always what
/// sorting the values in the order emitted gives. `emit` must produce the same values each time, and at
/// most `capacity` of them.
public func withSortedValues<R>(
  capacity: Int, _ emit: ((Double) -> Void) -> Void, _ body: (UnsafeBufferPointer<Double>) -> R
) -> R {
  withUnsafeTemporaryAllocation(of: Double.self, capacity: max(1, capacity)) { buffer in
    var n = 0, unordered = false
    emit { x in
      precondition(n < capacity, "withSortedValues: more values than the capacity")
      if x.isNaN { unordered = true }
      var k = n
      while k > 0, buffer[k - 1] > x {
        buffer[k] = buffer[k - 1]
        k -= 1
      }
      buffer[k] = x
      n += 1
    }
    guard unordered else { return body(UnsafeBufferPointer(rebasing: buffer[0..<n])) }
    var inOrder: [Double] = []
    inOrder.reserveCapacity(n)
    emit { inOrder.append($0) }
    inOrder.sort()
    return inOrder.withUnsafeBufferPointer(body)
  }
}

/// The median of `values`: the middle value, or the mean of the two middle values of an even count;
/// NaN when empty.
public func median(_ values: [Double]) -> Double {
  let s = values.sorted()
  guard !s.isEmpty else { return .nan }
  return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
}

/// 1.4826 × the median absolute deviation from the median: the standard deviation of a normal sample,
/// unmoved by a few outliers (Rousseeuw & Croux, "Alternatives to the median absolute deviation", JASA 88
/// (1993) 1273–1283). NaN for fewer than two values.
public func robustStandardDeviation(_ values: [Double]) -> Double {
  guard values.count >= 2 else { return .nan }
  let m = median(values)
  return 1.4826 * median(values.map { abs($0 - m) })
}
