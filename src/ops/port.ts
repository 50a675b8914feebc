/**
 * `serve` refuses a taken port (extensions.md "Operations": exit 1, one clear line). Bun can share
 * a port between processes (SO_REUSEPORT, which Elysia turns on by default): a second `serve` then
 * started silently and requests alternated between the two. `serve` listens with `reusePort:
 * false`, and checks the port before it opens the database, so the second process changes nothing.
 */

/** The port `serve` wants is held by another process; the CLI prints the message and exits 1. */
export class PortTakenError extends Error {
  constructor(host: string, port: number) {
    super(`port ${port} on ${host} is already in use (another cofre serve?); stop that process or choose another PORT`);
  }
}

/**
 * Throws PortTakenError when `host:port` cannot be bound without port sharing; `port` 0 (any free
 * port) always passes. Binds for an instant and lets go at once.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  let probe: ReturnType<typeof Bun.serve>;
  try {
    probe = Bun.serve({ hostname: host, port, reusePort: false, fetch: () => new Response(null, { status: 503 }) });
  } catch (err) {
    if ((err as { code?: string }).code === "EADDRINUSE") throw new PortTakenError(host, port);
    throw err;
  }
  await probe.stop(true);
}
