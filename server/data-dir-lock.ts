import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The lock file's name inside DATA_DIR. */
export const LOCK_FILE = 'tablefair.lock';

export interface DataDirLock {
  path: string;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

/** Whether a process with this id is running (EPERM: it runs under another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Makes this process the only one using `dataDir` (the embedded database cannot be shared):
 * creates DATA_DIR/tablefair.lock with `wx` holding our PID. A lock whose process is alive
 * refuses the start; one whose process is gone (a crash, SIGKILL) is taken over.
 * Also keeps the folder private: DATA_DIR and what the app keeps in it are owner-only (0700).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  for (const inner of ['pglite', 'uploads']) if (existsSync(join(dataDir, inner))) chmodSync(join(dataDir, inner), 0o700);
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      const release = () => {
        if (readPid(path) === process.pid) {
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
        }
      };
      process.once('exit', release);
      return { path, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readPid(path);
    if (holder !== null && holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `Another Tablefair (PID ${holder}) is already using DATA_DIR ${resolve(dataDir)}; two servers on one data folder would lose writes. ` +
          `Stop it first, or give this one its own DATA_DIR. (If no such server runs, delete ${resolve(path)}.)`,
      );
    }
    // Stale: its process is gone. Remove it only if it still names that process, then try again.
    if (readPid(path) === holder) {
      try {
        unlinkSync(path);
      } catch {
        // another starter removed it first
      }
    }
  }
  throw new Error(`Could not take the lock ${resolve(path)}; is another Tablefair starting on the same DATA_DIR?`);
}

/**
 * Makes everything under `dataDir` owner-only (folders 0700, files 0600): the embedded engine
 * sets its own file modes whatever the umask, so this runs once it has opened.
 */
export function restrictDataDir(dataDir: string): void {
  const walk = (folder: string) => {
    chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) chmodSync(path, 0o600);
    }
  };
  if (existsSync(dataDir)) walk(dataDir);
}
