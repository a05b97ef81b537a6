/** The arithmetic of the benchmark: medians, rounding, and how long at least one interval was open. */

export const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export const round = (value: number, digits = 0): number => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value)

/** Length of the union of [start, end] intervals. */
export function unionLength(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0])
  let total = 0
  let [start, end] = [-Infinity, -Infinity]
  for (const [s, e] of sorted) {
    if (s > end) {
      if (end > start) total += end - start
      ;[start, end] = [s, e]
    } else if (e > end) end = e
  }
  if (end > start) total += end - start
  return total
}
