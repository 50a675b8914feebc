/**
 * The dashboard's built files (issue 15): one Bun HTML import (`./index.html`), bundled by Bun.
 * In `dist/cofre` (`bun build --compile`) the bundle was built ahead of time and its files are
 * embedded (`bundle.files`); from source (`bun src/main.ts serve`, tests) it is built once, in
 * memory and minified, on the first request. Either way the result is the same small map of
 * assets (served under /dashboard/assets/) plus our own HTML shell, so every answer carries our
 * headers (CSP) and nothing depends on Bun's dev server.
 */
import bundle from "./index.html";

export interface Asset {
  bytes: Uint8Array;
  type: string;
}

export interface DashboardBuild {
  /** Asset file name (no slash) -> bytes and content type. */
  assets: Map<string, Asset>;
  /** The entry script and style sheets, as names in `assets`. */
  scripts: string[];
  styles: string[];
}

let building: Promise<DashboardBuild> | null = null;

/** The dashboard's files, built or read once per process. Throws when the source bundle fails to build. */
export function dashboardBuild(): Promise<DashboardBuild> {
  building ??= load().catch((e) => {
    building = null;
    throw e;
  });
  return building;
}

const base = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const typeOf = (name: string) =>
  name.endsWith(".js")
    ? "text/javascript; charset=utf-8"
    : name.endsWith(".css")
      ? "text/css; charset=utf-8"
      : name.endsWith(".svg")
        ? "image/svg+xml"
        : "application/octet-stream";

async function load(): Promise<DashboardBuild> {
  const out: DashboardBuild = { assets: new Map(), scripts: [], styles: [] };
  const add = async (name: string, bytes: Uint8Array) => {
    if (name.endsWith(".html")) return;
    out.assets.set(name, { bytes, type: typeOf(name) });
    if (name.endsWith(".js")) out.scripts.push(name);
    else if (name.endsWith(".css")) out.styles.push(name);
  };
  if (bundle.files?.length) {
    for (const f of bundle.files) await add(base(f.path), new Uint8Array(await Bun.file(f.path).arrayBuffer()));
    return out;
  }
  const r = await Bun.build({
    entrypoints: [bundle.index],
    minify: true,
    naming: "[name]-[hash].[ext]",
    target: "browser",
  });
  if (!r.success) throw new AggregateError(r.logs, "The dashboard bundle failed to build.");
  for (const o of r.outputs) await add(base(o.path), new Uint8Array(await o.arrayBuffer()));
  return out;
}
