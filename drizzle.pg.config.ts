/**
 * drizzle-kit configuration of the PostgreSQL schema: db/schema-pg (generated from db/schema by
 * scripts/gen-pg-schema.ts) -> db/migrations-pg, applied by src/store/pg/migrations.ts.
 * `bun run db:generate:pg -- --name <what>` needs no server.
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg/index.ts",
  out: "./db/migrations-pg",
});
