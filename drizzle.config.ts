/** drizzle-kit configuration: schema in db/schema, one generated migration set in db/migrations. */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
