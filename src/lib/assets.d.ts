/** Types of the non-code files Bun imports as text (`with { type: "text" }`): migrations. */
declare module "*.sql" {
  const text: string;
  export default text;
}
