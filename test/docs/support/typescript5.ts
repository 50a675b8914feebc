/**
 * Preload for running openapi-typescript (`bun --preload ./test/docs/support/typescript5.ts ...`):
 * it builds its output with the TypeScript 5 compiler API, which the project's own `typescript`
 * (7, the native compiler, no JS API) does not have. Loads of `typescript` are served from the
 * `typescript5` dev dependency (an alias of typescript@5) instead.
 */
import { plugin } from "bun";

const ts5 = require.resolve("typescript5");

plugin({
  name: "typescript-5-for-openapi-typescript",
  setup(build) {
    build.onLoad({ filter: /node_modules\/typescript\/lib\/version\.cjs$/ }, () => ({
      contents: `import ts from ${JSON.stringify(ts5)}; export default ts;`,
      loader: "js",
    }));
  },
});
