/**
 * The contract version Cofre implements (interface.md "Versioning"): the date of the current wire
 * format, carried as `api_version` by canonical webhook envelopes and events, and as the OpenAPI
 * document's `info.version`. Defined here only; everything else imports it.
 */
export const API_VERSION = "2026-10-12";
