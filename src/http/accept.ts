/** Content negotiation on the `Accept` header (RFC 9110 section 12.5.1), for the routes that can answer a file. */

/**
 * True when `accept` asks for `type` (e.g. `application/pdf`) by name with q > 0 and does not
 * prefer `application/json` (a strictly higher q). Wildcards (`*\/*`) keep the JSON default.
 */
export function acceptsExplicitly(accept: string | null | undefined, type: string): boolean {
  if (!accept) return false;
  const q: Record<string, number> = {};
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qp ? Number(qp.slice(2)) : 1;
    if (range) q[range.trim()] = Math.max(q[range.trim()] ?? 0, Number.isFinite(value) ? value : 0);
  }
  const wanted = q[type.toLowerCase()] ?? 0;
  return wanted > 0 && wanted >= (q["application/json"] ?? 0);
}
