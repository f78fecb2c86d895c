/** What the numbers were measured on: they only compare on the same machine. */
import { readFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  /** Filesystem of the temp dir holding the SQLite files (tmpfs would flatter the write path). */
  tempFs: string;
}

function fsTypeOf(path: string): string {
  try {
    let best = { mount: '', type: 'unknown' };
    for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
      const [, mount, type] = line.split(' ');
      if (
        mount &&
        type &&
        (path === mount || path.startsWith(mount.endsWith('/') ? mount : `${mount}/`)) &&
        mount.length >= best.mount.length
      )
        best = { mount, type };
    }
    return best.type;
  } catch {
    return 'unknown';
  }
}

export function machineInfo(): MachineInfo {
  const c = cpus();
  return {
    cpuModel: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    tempFs: fsTypeOf(tmpdir()),
  };
}
