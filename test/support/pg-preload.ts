/**
 * Preloaded by bunfig.toml for every `bun test` run. Under COFRE_TEST_PG=1 (`bun run test:pg`)
 * it starts the PostgreSQL test cluster and migrates its template before the first test file,
 * so the harness can create a database per Deps synchronously (test/support/pg.ts
 * `pgDatabaseSync`). Otherwise it does nothing.
 */
import { pgCluster } from "./pg";

/** True when this run keeps every harness's data in PostgreSQL (COFRE_TEST_PG=1). */
export const TEST_PG = process.env.COFRE_TEST_PG === "1";

if (TEST_PG) await pgCluster();
