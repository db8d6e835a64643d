import { readdirSync, readFileSync } from 'node:fs';

/** Linux process CPU time (user + system, not its children), in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident memory of a process, in MiB. */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS'))!;
  return Number(line.replace(/\D/g, '')) / 1024;
}

/**
 * Proportional memory of a process, in MiB: its private pages plus its share of those it shares
 * (libraries mapped by several ffmpeg processes count once over all of them, not once each).
 */
export function pssMiB(pid: number): number {
  return Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** Every live descendant of a process (children, their children, ...), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [child, ppid] of parentOf) {
      if (ppid !== parent) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** CPU seconds of a process and all its live descendants (a browser and its renderer and GPU processes). */
export function treeCpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => {
    try {
      return sum + cpuSeconds(p);
    } catch {
      return sum;
    }
  }, 0);
}

/** Write-like system calls (write, writev, not sendmsg) a process has made so far (Linux /proc/<pid>/io). */
export function writeSyscalls(pid: number): number {
  return Number(/^syscw: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
}
