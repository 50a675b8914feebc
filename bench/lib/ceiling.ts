/**
 * Reference ceiling for `bench/run.ts` and `bench/charges.ts`: a bare `Bun.serve` JSON endpoint. Usage: `bun
 * bench/lib/ceiling.ts <port>` (keep this CLI).
 */
Bun.serve({ hostname: "127.0.0.1", port: Number(process.argv[2]), fetch: () => Response.json({ status: "ok" }) });
