import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** Where objects live on the local disk. Keys are app-made ('hero/<uuid>.png'); still, never leave the root. */
export class LocalObjectStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    if (!/^[a-z0-9][a-z0-9/_.-]{0,200}$/i.test(key) || key.includes('..')) throw new Error('Invalid object key');
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error('Invalid object key');
    return path;
  }

  /** Writes atomically (temp file, then rename) so a reader never sees half a file. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.${Date.now()}.part`;
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch {
      return undefined;
    }
  }

  /** Removes an object; a missing one is not an error. */
  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(key))).size;
    } catch {
      return undefined;
    }
  }
}
