/**
 * Evidence file storage on the local disk. Root: `config.storageDir` when set, else
 * `<COFRE_DATA_DIR>/files`; with an in-memory database (tests) a temporary folder per process.
 * Files live at `<root>/<key>` (key `med-evidence/<account id>/<evidence id>`), written to a
 * temporary name and renamed, so a reader never sees a half-written file. Every failure of the
 * disk is 503 `service_unavailable` (interface.md: evidence routes answer 503 when document
 * storage is unavailable).
 */
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Deps } from "../deps";
import { DomainError } from "../errors";
import { sha256Hex } from "../../lib/crypto";

let memoryRoot: string | null = null;

/** The storage root of `deps`. */
export function storageRoot(deps: Deps): string {
  if (deps.config.storageDir) return deps.config.storageDir;
  if (deps.config.dataDir !== ":memory:") return join(deps.config.dataDir, "files");
  memoryRoot ??= mkdtempSync(join(tmpdir(), "cofre-files-"));
  return memoryRoot;
}

function unavailable(err: unknown): DomainError {
  void err;
  return new DomainError("service_unavailable", "Document storage is unavailable; retry later.");
}

/** Throws 503 unless the evidence folder can be created and written. */
export function assertWritable(deps: Deps): void {
  const dir = join(storageRoot(deps), "med-evidence");
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw unavailable(err);
  }
}

/** Stores `bytes` under `key`; returns their size and SHA-256 (hex). Throws 503. */
export function putFile(deps: Deps, key: string, bytes: Uint8Array): { size: number; sha256: string } {
  const path = join(storageRoot(deps), key);
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {}
    throw unavailable(err);
  }
  return { size: bytes.byteLength, sha256: sha256Hex(bytes) };
}

/** The bytes stored under `key`, or null when there is no such file. Throws 503 on other failures. */
export function getFile(deps: Deps, key: string): Buffer | null {
  try {
    return readFileSync(join(storageRoot(deps), key));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw unavailable(err);
  }
}
