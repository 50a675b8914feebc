/** Types of the non-code files Bun imports: migrations as text, fonts as file paths. */
declare module "*.sql" {
  const text: string;
  export default text;
}

/** Font files Bun imports as a path (`with { type: "file" }`), embedded by `bun build --compile`. */
declare module "*.ttf" {
  const path: string;
  export default path;
}
