/** What the benches that read while something else runs share: a closed loop of reads, and its figures. */

export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a project list one after another on one connection for `seconds`: their latencies (ms). */
export async function readFor(session: { origin: string; token: string }, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await fetch(`${session.origin}/api/projects/?limit=20`, { headers: { authorization: `Bearer ${session.token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`read: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}
