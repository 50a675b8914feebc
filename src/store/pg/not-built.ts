/** A placeholder repository whose every method throws (a PostgreSQL repository not written yet). */
export function notBuilt<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_t, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined;
      return () => Promise.reject(new Error(`PostgreSQL ${name}.${prop} is not built yet`));
    },
  });
}
