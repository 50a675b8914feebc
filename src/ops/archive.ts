/**
 * The tar archive of `cofre backup` (tar-stream): regular files only, each given by its name in
 * the archive and its path on disk; gzip when the archive's name ends in `.gz` or `.tgz` (read
 * back either way, told apart by gzip's magic bytes).
 */
import { createReadStream, createWriteStream, mkdirSync, statSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { extract as tarExtract, pack as tarPack } from "tar-stream";

/** One file to archive: its name in the archive (`/`-separated) and where it is now. */
export interface ArchiveEntry {
  name: string;
  path: string;
}

/** True when `file`'s name asks for a gzip-compressed archive. */
export function gzipByName(file: string): boolean {
  return /\.(gz|tgz)$/i.test(file);
}

/**
 * Writes `first` (name and bytes, e.g. the manifest) then every entry of `entries` into a tar
 * archive at `file` (gzip when `gzip`). Entries are streamed from disk.
 */
export async function writeArchive(
  file: string,
  first: { name: string; bytes: Uint8Array },
  entries: ArchiveEntry[],
  gzip: boolean,
): Promise<void> {
  const pack = tarPack();
  const out = createWriteStream(file, { mode: 0o600 });
  const done = gzip ? pipeline(pack, createGzip(), out) : pipeline(pack, out);
  const mtime = new Date();
  await new Promise<void>((resolve, reject) =>
    pack.entry(
      { name: first.name, size: first.bytes.byteLength, mode: 0o600, mtime },
      Buffer.from(first.bytes),
      (err) => (err ? reject(err) : resolve()),
    ),
  );
  for (const e of entries) {
    const size = statSync(e.path).size;
    const sink = pack.entry({ name: e.name, size, mode: 0o600, mtime });
    await pipeline(createReadStream(e.path), sink);
  }
  pack.finalize();
  await done;
}

/** Raised for an archive that is not a readable tar of regular files with safe names. */
export class ArchiveError extends Error {}

/**
 * Extracts every entry of the archive `file` under `dest` (which must exist) and returns the
 * entry names. Refuses (ArchiveError) anything but regular files and directories, and names that
 * are absolute or climb out with `..`. A damaged or truncated archive rejects.
 */
export async function extractArchive(file: string, dest: string): Promise<string[]> {
  const head = Buffer.alloc(2);
  const fd = await Bun.file(file).slice(0, 2).arrayBuffer();
  Buffer.from(fd).copy(head);
  const gz = head[0] === 0x1f && head[1] === 0x8b;
  const ex = tarExtract();
  const names: string[] = [];
  const reading = gz ? pipeline(createReadStream(file), createGunzip(), ex) : pipeline(createReadStream(file), ex);
  const writing = (async () => {
    for await (const entry of ex) {
      const { name, type } = entry.header;
      if (type === "directory") {
        entry.resume();
        continue;
      }
      const clean = normalize(name);
      if (
        type !== "file" ||
        clean.startsWith("..") ||
        clean.startsWith(sep) ||
        clean.includes(`${sep}..${sep}`) ||
        clean === ".."
      )
        throw new ArchiveError(`unexpected entry "${name}" (${type})`);
      const target = join(dest, clean);
      mkdirSync(dirname(target), { recursive: true });
      await pipeline(entry, createWriteStream(target, { mode: 0o600 }));
      names.push(clean.split(sep).join("/"));
    }
  })();
  const [r, w] = await Promise.allSettled([reading, writing]);
  if (w.status === "rejected") throw w.reason;
  if (r.status === "rejected") throw r.reason;
  return names;
}
