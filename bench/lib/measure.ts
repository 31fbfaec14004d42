/** The value at percentile p of ascending `sorted` (nearest rank; NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** p50, p95 and p99 of latencies in ms, to two decimals. */
export function latencyFigures(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => +percentile(sorted, p).toFixed(2);
  return { p50: at(50), p95: at(95), p99: at(99) };
}

/** This process's CPU time so far (every thread), ms. */
export function processCpuMs(): number {
  const cpu = process.cpuUsage();
  return (cpu.user + cpu.system) / 1000;
}
